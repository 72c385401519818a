import { describe, expect, test } from '@jest/globals';
import { recordExpectations, type OracleFile } from '../../src/core/oracle.js';
import { baseProblems, referenceFailures, reproductionSealProblems, type RecordedPackRun } from '../../src/core/record-checks.js';
import type { TestCaseResult } from '../../src/core/test-results.js';

/**
 * Issue 28, items 1, 5 and 9 (record side): what `witness record` refuses beyond the values. The
 * vacuous pack of the incident: its one site observes a value the test passes in, so the base
 * observes what the reference observes, and the recorded oracle would hold for any implementation.
 */

const SITE = 'reproduction:test_rules.py/7';
const pendingOracle: OracleFile = {
  schema: 'patchproof.oracle/v1',
  cases: [],
  unsealed: [],
  pending: [{ phase: 'reproduction', site: SITE, file: 'test_rules.py', line: 7, text: 'self.assertEqual(rule, target)', comparator: { kind: 'exact' } }]
};

function run(tree: 'base' | 'patched', attempt: number, value: unknown, tests: TestCaseResult[] = [{ id: 'test_rules.T.test_rule', status: 'passed' }]): RecordedPackRun {
  return {
    phase: 'reproduction',
    tree,
    attempt,
    observations: value === undefined ? [] : [{ case: SITE, value }],
    malformed: [],
    evidence: {
      label: tree === 'base' ? 'reproduction_before' : 'reproduction_after',
      attempt,
      // Every honest run exits non-zero: the must-fail canary sees to it.
      exitCode: 1,
      timedOut: false,
      outputTruncated: false,
      parsed: { tests, problems: [] },
      canary: { pass: 'passed', fail: 'failed' }
    }
  };
}

/** What record.ts does with the runs: record from the reference's, then judge the base's. */
function check(runs: RecordedPackRun[]): string[] {
  const reference = runs.filter((r) => r.tree === 'patched');
  const outcome = recordExpectations(pendingOracle, reference);
  const problems = [...referenceFailures(reference), ...(outcome.ok ? [] : outcome.problems)];
  if (problems.length > 0 || !outcome.ok) return problems;
  return baseProblems(outcome.oracle, runs).problems;
}

const reference = [run('patched', 1, 'a'), run('patched', 2, 'a')];

describe('witness record: the recorded sites must tell the base from the reference fix', () => {
  test('a site whose base observation differs from the recorded value is accepted', () => {
    expect(check([run('base', 1, 'b'), run('base', 2, 'b'), ...reference])).toEqual([]);
    const recorded = recordExpectations(pendingOracle, reference);
    expect(recorded.ok && baseProblems(recorded.oracle, [run('base', 1, 'b'), run('base', 2, 'b')]).discriminating).toEqual([SITE]);
  });

  test('a site that raised on the base discriminates; one the base never reached because the code raised does too', () => {
    expect(check([run('base', 1, { $raised: 'KeyError', message: "'a'" }), ...reference])).toEqual([]);
    const crashed: TestCaseResult[] = [{ id: 'test_rules.T.test_rule', status: 'errored', failure_kind: 'exception_in_code' }];
    // The site discriminates, but validate's judgement of the base (a lone unobserved case is of
    // unknown kind) would not establish the bug with it: record refuses as validate would.
    expect(check([run('base', 1, undefined, crashed), ...reference])).toEqual([
      'the reproduction fails on the base for a reason the pack does not allow: oracle > reproduction:test_rules.py/7 (unknown)'
    ]);
  });

  test('the vacuous pack: the base observes what the reference observes, and it is refused naming the site', () => {
    // Without the base's runs, the values alone record fine: an oracle that holds for any implementation.
    expect(recordExpectations(pendingOracle, reference).ok).toBe(true);
    const problems = check([run('base', 1, 'a'), run('base', 2, 'a'), ...reference]);
    expect(problems.join('\n')).toMatch(/no sealed site of the reproduction tells the base from the reference fix \(reproduction:test_rules\.py\/7 observed on the base/);
    // The same runs also show a reproduction that does not fail on the base (item 5).
    expect(problems.join('\n')).toMatch(/the reproduction does not fail on the base: .*test_rules\.py\/7/);
  });

  test('a site that differs on only one of the base runs does not discriminate', () => {
    expect(check([run('base', 1, 'b'), run('base', 2, 'a'), ...reference]).join('\n')).toMatch(/no sealed site .* tells the base/);
  });

  test('a reproduction that fails on the base for a reason the pack does not allow is refused', () => {
    const importError: TestCaseResult[] = [{ id: 'test_rules', status: 'errored', failure_kind: 'import_error', message: "No module named 'rules'" }];
    expect(check([run('base', 1, 'b', importError), ...reference]).join('\n')).toMatch(/fails on the base for a reason the pack does not allow: test_rules \(import_error\)/);
  });

  test('a reproduction not run on the base is refused', () => {
    expect(check(reference)).toEqual(['the reproduction was not run on the base']);
  });
});

describe('witness record: the reference fix must pass the reproduction for the right reason', () => {
  test('a module not found with the reference fix is refused as unrelated to the bug, before the missing observations', () => {
    const missing: TestCaseResult[] = [{ id: 'test_rules', status: 'errored', failure_kind: 'import_error', message: "ModuleNotFoundError: No module named 'rulez'" }];
    const problems = check([run('base', 1, 'b'), run('patched', 1, undefined, missing), run('patched', 2, undefined, missing)]);
    expect(problems[0]).toBe(
      "reproduction: test_rules fails with the reference fix for a reason that has nothing to do with the bug (import_error): ModuleNotFoundError: No module named 'rulez'"
    );
    expect(problems.join('\n')).toMatch(/was never observed with the reference fix/);
  });

  test('a collection error, and an assertion the fix does not cure, are refused', () => {
    const collection: TestCaseResult[] = [{ id: 'test_rules', status: 'errored', failure_kind: 'collection_error' }];
    expect(check([run('base', 1, 'b'), run('patched', 1, 'a', collection), run('patched', 2, 'a')])[0]).toMatch(/nothing to do with the bug \(collection_error\)/);
    const assertion: TestCaseResult[] = [{ id: 'test_rules.T.test_other', status: 'failed', failure_kind: 'assertion' }];
    expect(check([run('base', 1, 'b'), run('patched', 1, 'a', assertion), run('patched', 2, 'a')])[0]).toBe(
      'reproduction: test_rules.T.test_other fails with the reference fix (assertion)'
    );
  });

  test('no test at all with the reference fix is refused', () => {
    expect(check([run('base', 1, 'b'), run('patched', 1, 'a', []), run('patched', 2, 'a', [])])).toEqual(['reproduction: no test ran with the reference fix']);
  });
});

describe('witness record: a reproduction with no sealed site is refused', () => {
  test('no case and no pending site in the reproduction, naming its unsealed assertions', () => {
    const hiddenOnly: OracleFile = {
      schema: 'patchproof.oracle/v1',
      cases: [{ id: 'hidden:a/1', phase: 'hidden', expected: 1, comparator: { kind: 'exact' } }],
      unsealed: [{ phase: 'reproduction', file: 'test_rules.py', line: 7, text: 'self.assertEqual(rule, target)' }]
    };
    expect(reproductionSealProblems(hiddenOnly)).toEqual(['the reproduction has no sealed site (unsealed: test_rules.py:7); nothing in it would be graded outside the container']);
    expect(reproductionSealProblems(pendingOracle)).toEqual([]);
  });
});
