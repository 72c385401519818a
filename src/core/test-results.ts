/**
 * Normalised test results: every adapter turns its runner's structured output into these.
 */

/** The four outcomes a test can have, whatever the runner calls them. */
export type TestStatus = 'passed' | 'failed' | 'errored' | 'skipped';

/**
 * Why a test did not pass. Only `assertion` and `exception_in_code` make a reproduction that fails
 * "for the right reason"; the rest mean the test never reached the behaviour it claims to check.
 */
export type FailureKind = 'assertion' | 'exception_in_code' | 'exception_in_test' | 'import_error' | 'collection_error' | 'setup_error' | 'timeout' | 'unknown';

export const RIGHT_REASON_FAILURES: readonly FailureKind[] = ['assertion', 'exception_in_code'];

/** One test's normalised result. `id` is stable across runs of the same tree. */
export interface TestCaseResult {
  /** Stable id, e.g. `test/slug.test.js > slugify > keeps digits` or `tests.test_calc.CalcTest.test_div`. */
  id: string;
  status: TestStatus;
  /** Set when status is failed or errored. */
  failure_kind?: FailureKind;
  /** First line of the failure message, at most 500 characters. */
  message?: string;
  /** `path:line` relative to the repository copy, where known. */
  location?: string;
  /** True when the runner reported the test as skipped on purpose (skip/todo/expected failure). */
  skip_reason?: string;
}

/** Counts of a run, derived from its tests. */
export interface TestCounts {
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
}

/** What an adapter reads from a run: the tests, and anything wrong with the results themselves. */
export interface ParsedResults {
  tests: TestCaseResult[];
  /**
   * Totals the runner claimed on its own (a summary line or attribute), for reconciliation with
   * `tests`; undefined when the format has none.
   */
  claimed?: TestCounts;
  /** Problems with the result files: missing, malformed, duplicated ids. Any problem fails closed. */
  problems: string[];
  /**
   * The results channel's cross-check, for adapters whose harness streams frames (unittest):
   * any disagreement is `grader_compromised`. Undefined when the adapter has no channel.
   */
  channel?: { frames: number; disagreements: string[]; after_end_bytes: number };
}

export function countTests(tests: readonly TestCaseResult[]): TestCounts {
  const counts: TestCounts = { passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const test of tests) {
    counts[test.status] += 1;
  }
  return counts;
}

/** The id of the `occurrence`-th test (1-based, in file order) among those sharing `id`. */
export function occurrenceId(id: string, occurrence: number): string {
  return occurrence <= 1 ? id : `${id} #${occurrence}`;
}

/** The id `occurrenceId` made `id` from (the id itself when it carries no occurrence index). */
export function firstOccurrenceId(id: string): string {
  return id.replace(/ #[1-9][0-9]*$/, '');
}

/**
 * Runners may report several tests with one id (`describe.each`/`test.each` titles that interpolate
 * a missing field, repeated titles): the first keeps its id and the n-th becomes `<id> #n`, in the
 * order of the results (file order), so each copy is judged on its own and ids stay stable between
 * runs of the same tree. An index that collides with an id the runner reported is a problem.
 */
export function indexDuplicateIds(results: readonly TestCaseResult[], problems: string[]): TestCaseResult[] {
  const reported = new Set(results.map((result) => result.id));
  const seen = new Map<string, number>();
  const taken = new Set<string>();
  const out: TestCaseResult[] = [];
  for (const result of results) {
    const occurrence = (seen.get(result.id) ?? 0) + 1;
    seen.set(result.id, occurrence);
    const id = occurrenceId(result.id, occurrence);
    if (taken.has(id) || (occurrence > 1 && reported.has(id))) {
      problems.push(`duplicate test id '${result.id}': its occurrence index ${occurrence} collides with a reported id`);
      continue;
    }
    taken.add(id);
    out.push(occurrence > 1 ? { ...result, id } : result);
  }
  return out;
}
