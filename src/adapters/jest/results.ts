import { z } from 'zod';
import type { FailureKind, ParsedResults, TestCaseResult, TestCounts } from '../../core/test-results.js';
import { countTests, indexDuplicateIds } from '../../core/test-results.js';
import type { CanaryOutcome, ParseRequest } from '../adapter.js';
import { canaryNames } from '../shared/canary.js';
import { changedOf } from '../shared/tripwire.js';
import { messageLine, repoRelative } from '../shared/exception-site.js';
import type { TestScope } from '../shared/exception-site.js';
import { failedResult, foldCanaries, loadFailureKind, stackFrames, thrownAboveTest, thrownFrom } from '../shared/js-runner-failure.js';
import type { FileCanaries } from '../shared/js-runner-failure.js';
import { wrappedFile } from '../shared/js-runner-wrapper.js';
import { jestFileFrameId, jestFrameId } from './channel.js';
import { channelNonce, checkChannel, FRAME_MARK } from '../shared/results-channel.js';

/**
 * Turns jest's `--json` results (with `--testLocationInResults`) of a run of PatchProof's wrappers
 * (jest-entry.ts) into PatchProof's test results.
 *
 * Ids: `<test file> > <describe>… > <test>`, the test file being the one the wrapper loaded
 * (repository-relative), so ids do not depend on the wrapper nor on the copy's location.
 *
 * Status mapping, as for every adapter: an assertion failure is `failed`; any other way of not
 * passing is `errored`; `skip`/`xit` (jest's `pending`), `todo` and a `.failing` test that failed as
 * expected are `skipped`. A test file that failed to load (caught by its wrapper) is one `errored`
 * test named by the file; a file whose suite failed outside its tests (jest's "Test suite failed to
 * run": an `afterAll` hook, a setup file, the wrapper itself) is one more, by the file's name.
 *
 * Failure kinds, in this order: a hook (jest-circus's `_callCircusHook` on the stack) is
 * `setup_error`; jest's `expect` (a `matcherResult`, or `expect(…)` / `expect.assertions`
 * messages), node's `assert` and a `.failing` test that passed are `assertion`; an exception whose
 * stack lost the runner's frames (thrown after an `await`) and whose outermost frame in the test
 * file lies above the test's own line came from a hook: `setup_error`; any other exception is
 * `exception_in_code` or `exception_in_test` by its innermost repository frame (see exceptionSite).
 */

/** Result file jest writes, relative to the results directory. */
export const JEST_RESULTS_FILE = 'jest.json';

const PROBLEM_LIMIT = 20;
const SUITE_FAILED = '● Test suite failed to run';

const assertionSchema = z.object({
  ancestorTitles: z.array(z.string()),
  title: z.string(),
  status: z.string(),
  failing: z.boolean().optional(),
  failureMessages: z.array(z.string()),
  failureDetails: z.array(z.unknown()).optional(),
  location: z.object({ line: z.number().int(), column: z.number().int() }).nullable().optional()
});
const fileSchema = z.object({
  name: z.string(),
  status: z.string(),
  message: z.string(),
  assertionResults: z.array(assertionSchema)
});
const reportSchema = z.object({
  numPassedTests: z.number().int().nonnegative(),
  numFailedTests: z.number().int().nonnegative(),
  numPendingTests: z.number().int().nonnegative(),
  numTodoTests: z.number().int().nonnegative(),
  numRuntimeErrorTestSuites: z.number().int().nonnegative(),
  success: z.boolean(),
  testResults: z.array(fileSchema)
});

type JestAssertion = z.infer<typeof assertionSchema>;
type JestFile = z.infer<typeof fileSchema>;

const EXPECT_MESSAGE = /^(?:Error: )?(?:expect(?:\.\w+)?\(|expect\.assertions\(|expect\.hasAssertions\()/;
const ASSERT_MESSAGE = /^(?:AssertionError\b|assert(?:\.\w+)?\()/;
const FAILING_PASSED = 'Failing test passed even though it was supposed to fail';

function hasMatcherResult(details: readonly unknown[] | undefined): boolean {
  return (details ?? []).some((detail) => typeof detail === 'object' && detail !== null && 'matcherResult' in detail);
}

function failureKind(test: JestAssertion, file: string, scope: TestScope): FailureKind {
  const text = test.failureMessages.join('\n');
  const first = text.split('\n')[0] ?? '';
  const frames = stackFrames(text);
  if (frames.some((frame) => frame.fn?.endsWith('_callCircusHook') === true)) {
    return 'setup_error';
  }
  if (hasMatcherResult(test.failureDetails) || EXPECT_MESSAGE.test(first) || ASSERT_MESSAGE.test(first) || first.includes(FAILING_PASSED)) {
    return 'assertion';
  }
  const inTestBody = frames.some((frame) => frame.fn?.endsWith('_callCircusTest') === true);
  if (!inTestBody && thrownAboveTest(frames, scope.workdir, file, test.location?.line ?? undefined)) {
    return 'setup_error';
  }
  return thrownFrom(frames, scope);
}

/** The first line of a suite failure: what follows jest's "Test suite failed to run" header. */
function suiteFailureMessage(message: string): string | undefined {
  const after = message.slice(message.indexOf(SUITE_FAILED) + SUITE_FAILED.length);
  return messageLine(after);
}

interface FileOutcome {
  results: TestCaseResult[];
  canaries: FileCanaries;
  /** Canary tests by status, to take them out of jest's own tallies. */
  canaryCounts: { passed: number; failed: number; skipped: number };
  /** `.failing` tests that failed as expected: jest counts them as passed, PatchProof as skipped. */
  expectedFailures: number;
}

function fileOutcome(entry: JestFile, file: string, names: { pass: string; fail: string }, scope: TestScope): FileOutcome {
  const results: TestCaseResult[] = [];
  const canaries: FileCanaries = { pass: 'missing', fail: 'missing' };
  const canaryCounts = { passed: 0, failed: 0, skipped: 0 };
  let expectedFailures = 0;
  for (const test of entry.assertionResults) {
    const atRoot = test.ancestorTitles.length === 0;
    const line = test.location?.line;
    const base: TestCaseResult = { id: [file, ...test.ancestorTitles, test.title].join(' > '), status: 'passed', location: line === undefined ? file : `${file}:${line}` };
    if (atRoot && (test.title === names.pass || test.title === names.fail)) {
      const status = test.status === 'passed' ? 'passed' : test.status === 'failed' ? (failureKind(test, file, scope) === 'assertion' ? 'failed' : 'errored') : 'skipped';
      canaries[test.title === names.pass ? 'pass' : 'fail'] = status;
      const changed = test.title === names.pass && status !== 'passed' ? changedOf(test.failureMessages[0]) : undefined;
      if (changed !== undefined) canaries.changed = changed;
      canaryCounts[status === 'errored' ? 'failed' : status] += 1;
      continue;
    }
    if (atRoot && test.title === file) {
      // The wrapper's stand-in for a test file that did not load.
      const message = test.failureMessages[0] ?? '';
      results.push(
        test.status === 'passed'
          ? { id: file, status: 'passed', location: file }
          : failedResult({ id: file, status: 'errored', location: file }, loadFailureKind(message), message, scope.workdir)
      );
      continue;
    }
    switch (test.status) {
      case 'passed':
        expectedFailures += test.failing === true ? 1 : 0;
        results.push(test.failing === true ? { ...base, status: 'skipped', skip_reason: 'expected_failure' } : base);
        break;
      case 'failed': {
        results.push(failedResult(base, failureKind(test, file, scope), test.failureMessages[0], scope.workdir));
        break;
      }
      case 'todo':
        results.push({ ...base, status: 'skipped', skip_reason: 'todo' });
        break;
      default:
        // pending (skip, xit, left out by .only), skipped, disabled, focused.
        results.push({ ...base, status: 'skipped', skip_reason: 'skipped' });
    }
  }
  if (entry.message.includes(SUITE_FAILED)) {
    const message = suiteFailureMessage(entry.message);
    const ranTests = entry.assertionResults.length > 0;
    const kind: FailureKind = ranTests ? 'setup_error' : loadFailureKind(message ?? '');
    results.push(failedResult({ id: file, status: 'errored', location: file }, kind, message ?? 'the test suite failed to run', scope.workdir));
  }
  return { results, canaries, canaryCounts, expectedFailures };
}

/** Parses jest's JSON results of a wrapper run (pure: the file's text in, results out). */
export function parseJestResults(request: ParseRequest): ParsedResults & { canary: CanaryOutcome } {
  const names = canaryNames(request.canary);
  const text = request.files[JEST_RESULTS_FILE];
  const missing = { pass: 'missing', fail: 'missing' } as const;
  if (text === undefined) {
    return { tests: [], problems: [`${JEST_RESULTS_FILE} is missing: jest wrote no JSON results`], canary: missing };
  }
  let report: z.infer<typeof reportSchema>;
  try {
    const checked = reportSchema.safeParse(JSON.parse(text));
    if (!checked.success) {
      return { tests: [], problems: [`${JEST_RESULTS_FILE} is not jest's JSON results: ${checked.error.issues[0]?.message ?? 'bad shape'}`], canary: missing };
    }
    report = checked.data;
  } catch (error) {
    return { tests: [], problems: [`${JEST_RESULTS_FILE} is not JSON: ${(error as Error).message}`], canary: missing };
  }
  const problems: string[] = [];
  const entries: { entry: JestFile; file: string }[] = [];
  for (const entry of report.testResults) {
    const relative = repoRelative(request.workdir, entry.name);
    const file = relative === undefined ? undefined : wrappedFile('jest', relative);
    if (file === undefined) {
      problems.push(`jest reported a test file PatchProof did not wrap: ${entry.name}`);
    } else {
      entries.push({ entry, file });
    }
  }
  const scope: TestScope = { workdir: request.workdir, testRoots: request.testRoots, testFiles: new Set(entries.map(({ file }) => file)) };
  const outcomes = entries.map(({ entry, file }) => fileOutcome(entry, file, names, scope));
  const results = indexDuplicateIds(
    outcomes.flatMap((outcome) => outcome.results),
    problems
  );
  const canary = foldCanaries(outcomes.map((outcome) => outcome.canaries));
  const failing = results.some((test) => test.status === 'failed' || test.status === 'errored') || canary.fail === 'failed' || canary.fail === 'errored';
  if (request.exitCode === null) {
    problems.push('jest did not exit normally');
  } else if ((request.exitCode === 0) === failing || report.success === failing) {
    problems.push(`jest exited ${request.exitCode} (success: ${report.success}) although ${failing ? 'tests failed' : 'no test failed'}`);
  }
  const canaryCounts = outcomes.reduce(
    (sum, outcome) => ({
      passed: sum.passed + outcome.canaryCounts.passed,
      failed: sum.failed + outcome.canaryCounts.failed,
      skipped: sum.skipped + outcome.canaryCounts.skipped,
      expectedFailures: sum.expectedFailures + outcome.expectedFailures
    }),
    { passed: 0, failed: 0, skipped: 0, expectedFailures: 0 }
  );
  const claimed = claimedCounts(report, canaryCounts, results);
  // jest writes the JSON after its reporters ran: nothing to seal, the per-test frames are the check.
  const records = report.testResults.flatMap((entry) => [
    ...entry.assertionResults.map((test) => ({ id: jestFrameId(entry.name, test.ancestorTitles, test.title), status: test.status })),
    { id: jestFileFrameId(entry.name), status: entry.status }
  ]);
  const channel = request.output === undefined ? undefined : checkChannel({ output: request.output, mark: FRAME_MARK, nonce: channelNonce(request.canary), sealed: {}, records });
  return {
    tests: results,
    claimed,
    problems: problems.length <= PROBLEM_LIMIT ? problems : [...problems.slice(0, PROBLEM_LIMIT), `and ${problems.length - PROBLEM_LIMIT} more problems`],
    canary,
    ...(channel ? { channel } : {})
  };
}

/**
 * jest's own tallies restated for PatchProof's tests: without the canaries, with each suite that
 * failed to run counted as one errored test (jest counts those suites, not tests). jest does not
 * tell an assertion from another error, so its failures are split the way the parsed tests split.
 */
function claimedCounts(
  report: z.infer<typeof reportSchema>,
  canaries: { passed: number; failed: number; skipped: number; expectedFailures: number },
  results: readonly TestCaseResult[]
): TestCounts {
  const parsed = countTests(results);
  const notPassed = report.numFailedTests - canaries.failed + report.numRuntimeErrorTestSuites;
  const failed = Math.max(0, Math.min(parsed.failed, notPassed));
  return {
    passed: report.numPassedTests - canaries.passed - canaries.expectedFailures,
    failed,
    errored: notPassed - failed,
    skipped: report.numPendingTests + report.numTodoTests - canaries.skipped + canaries.expectedFailures
  };
}
