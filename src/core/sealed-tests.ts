import type { OracleCase } from './oracle.js';
import { RIGHT_REASON_FAILURES, type TestCaseResult } from './test-results.js';

/**
 * Sealed reproduction tests judged per test, not per site (issue 28 item 4). A sealed test observes
 * each of its assertion sites on its own, and the host compares each one; a real reproduction test
 * asserts several things, most of which already hold on the base, and only the bug's assertion
 * fails. Unsealed, that test fails on the base. So on the base a sealed test is one result: failed
 * when any of its sites failed or raised (or the framework reports the test itself failed), for the
 * right reason when any of them failed for the right reason. After the patch and in the hidden phase
 * every site must hold, as before: that is the same as every test passing, and stricter where a test
 * is not known. Sites whose test the oracle does not name are judged alone. Pure.
 */

/** One sealed test of a run and the ids of the results it is judged by (its sites, its framework failures). */
export interface SealedTest {
  id: string;
  results: string[];
}

/** The result id of a sealed case (src/core/oracle.ts sealedTestResults). */
export const sealedResultId = (caseId: string): string => `oracle > ${caseId}`;

/** Does a result id name `test`: the same id, or the same test with pytest's parameters (`test[1-2]`)? */
export function namesTest(resultId: string, test: string): boolean {
  if (resultId === test) return true;
  if (!resultId.startsWith(test)) return false;
  const rest = resultId.slice(test.length);
  return rest.startsWith('[') && rest.endsWith(']');
}

/** The case id → test map of an oracle's cases (those whose test it names). */
export function testOfCases(cases: readonly OracleCase[]): Map<string, string> {
  return new Map(cases.flatMap((c) => (c.test === undefined ? [] : [[c.id, c.test] as const])));
}

/**
 * The tests of one sealed run: each test the oracle names, with its sites' result ids and the
 * framework's results for that test that did not pass (an error outside every site).
 */
export function sealedTests(cases: readonly OracleCase[], framework: readonly TestCaseResult[]): SealedTest[] {
  const byTest = new Map<string, string[]>();
  for (const c of cases) if (c.test !== undefined) byTest.set(c.test, [...(byTest.get(c.test) ?? []), sealedResultId(c.id)]);
  for (const result of framework) {
    if (result.status === 'passed') continue;
    const owner = [...byTest.keys()].find((test) => namesTest(result.id, test));
    if (owner !== undefined) byTest.get(owner)?.push(result.id);
  }
  return [...byTest].map(([id, results]) => ({ id, results }));
}

const failedRight = (t: TestCaseResult): boolean => (t.status === 'failed' || t.status === 'errored') && RIGHT_REASON_FAILURES.includes(t.failure_kind ?? 'unknown');

/** Problems of a grouping against its results (a result named twice or absent): the receipt check refuses them. */
export function sealedTestsErrors(results: readonly TestCaseResult[], tests: readonly SealedTest[]): string[] {
  const ids = new Set(results.map((r) => r.id));
  const seen = new Set<string>();
  const errors: string[] = [];
  for (const test of tests) {
    if (test.results.length === 0) errors.push(`sealed test ${test.id} has no results`);
    for (const id of test.results) {
      if (!ids.has(id)) errors.push(`sealed test ${test.id} names ${id}, which is not among the results`);
      if (seen.has(id)) errors.push(`${id} belongs to two sealed tests`);
      seen.add(id);
    }
  }
  return errors;
}

/**
 * A run's results as the base reproduction is judged: each sealed test as one result in the place of
 * its first site (passed only when all its results passed; otherwise the first result that failed
 * for the right reason, or else the first that did not pass, under the test's id), and every other
 * result as itself.
 */
export function perTestResults(results: readonly TestCaseResult[], tests: readonly SealedTest[]): TestCaseResult[] {
  const owner = new Map<string, SealedTest>();
  for (const test of tests) for (const id of test.results) if (!owner.has(id)) owner.set(id, test);
  const byId = new Map(results.map((r) => [r.id, r]));
  const done = new Set<SealedTest>();
  const out: TestCaseResult[] = [];
  for (const result of results) {
    const test = owner.get(result.id);
    if (test === undefined) {
      out.push(result);
      continue;
    }
    if (done.has(test)) continue;
    done.add(test);
    const members = test.results.flatMap((id) => byId.get(id) ?? []);
    const decisive = members.find(failedRight) ?? members.find((m) => m.status !== 'passed');
    out.push(decisive === undefined ? { id: test.id, status: 'passed' } : { ...decisive, id: test.id });
  }
  return out;
}

/**
 * Does an `expected_failing` entry name a sealed site of a grouped test (a pack written for the
 * per-site rule: `oracle > reproduction:…` or the bare case id)? Such packs are judged per site.
 */
export function namesGroupedSite(entry: string, tests: readonly SealedTest[]): boolean {
  return tests.some((t) => t.results.some((id) => id === entry || id === sealedResultId(entry)));
}

/** The results an `expected_failing` entry selects: its test (or one parameter set of it), or a site by its case id. */
export function selectedBy(entry: string, results: readonly TestCaseResult[]): TestCaseResult[] {
  return results.filter((r) => r.id === entry || r.id === sealedResultId(entry) || namesTest(entry, r.id));
}
