import { fail, pass, receiptFrom, run, times, passingRuns } from '../helpers/evidence.js';
import { judgeObservations, parseOracleFile, sealedTestResults, type OracleCase, type Observation } from '../../src/core/oracle.js';
import { sealedTests, testOfCases } from '../../src/core/sealed-tests.js';
import { judgeHidden, judgeReproductionAfter, judgeReproductionBefore, type RunEvidence, type RunLabel } from '../../src/core/verdict.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import type { TestCaseResult } from '../../src/core/test-results.js';

/**
 * Issue 28 item 4: a sealed reproduction test is judged per test on the base (it fails when any of
 * its sites fails or raises), and per site after the patch (all of them must hold). Evidence is made
 * as runs.ts makes it: observations judged against the oracle's cases, then grouped by test.
 */

const TEST = '.patchproof/reproduction/test_parse.py::test_parse';
const OTHER = '.patchproof/reproduction/test_parse.py::test_other';
const oracle = (withTests: boolean): OracleCase[] =>
  parseOracleFile({
    schema: 'patchproof.oracle/v1',
    cases: [
      // The first assertion already holds on the base; the second is the bug.
      { id: 'reproduction:test_parse.py/3', phase: 'reproduction', expected: 'a', ...(withTests ? { test: TEST } : {}) },
      { id: 'reproduction:test_parse.py/4', phase: 'reproduction', expected: 90, ...(withTests ? { test: TEST } : {}) }
    ]
  }).cases;

/** One sealed run as runs.ts builds its evidence. */
function sealedRun(label: RunLabel, cases: OracleCase[], observed: Observation[], framework: TestCaseResult[] = [pass(TEST)]): RunEvidence {
  const judged = judgeObservations(cases, { observations: observed, malformed: [] });
  const tests = sealedTests(cases, framework);
  return run(label, framework, {
    sealed: {
      results: sealedTestResults(judged, label === 'reproduction_before', testOfCases(cases)),
      problems: judged.problems,
      ...(tests.length > 0 ? { tests } : {})
    }
  });
}

const base: Observation[] = [
  { case: 'reproduction:test_parse.py/3', value: 'a' },
  { case: 'reproduction:test_parse.py/4', value: 60 }
];
const fixed: Observation[] = [
  { case: 'reproduction:test_parse.py/3', value: 'a' },
  { case: 'reproduction:test_parse.py/4', value: 90 }
];

describe('a sealed reproduction test with two sites, one holding on the base', () => {
  it('fails before, for the right reason, as the unsealed test would', () => {
    const before = judgeReproductionBefore(times(sealedRun('reproduction_before', oracle(true), base), 2));
    expect(before).toMatchObject({ status: 'passed', reasons: [] });
    // The receipt still lists every site, and the test they make up.
    expect(before.results.map((r) => [r.id, r.status])).toEqual([
      ['oracle > reproduction:test_parse.py/3', 'passed'],
      ['oracle > reproduction:test_parse.py/4', 'failed']
    ]);
    expect(before.sealed_tests).toEqual([{ id: TEST, results: ['oracle > reproduction:test_parse.py/3', 'oracle > reproduction:test_parse.py/4'] }]);
  });

  it('without the test names (an oracle sealed before them) each site is a test: repro_passes_before', () => {
    const before = judgeReproductionBefore(times(sealedRun('reproduction_before', oracle(false), base), 2));
    expect(before).toMatchObject({ status: 'inconclusive', reasons: ['repro_passes_before'] });
  });

  it('passes after when both sites hold; not fixed when one fails', () => {
    const before = times(sealedRun('reproduction_before', oracle(true), base), 2);
    expect(judgeReproductionAfter(times(sealedRun('reproduction_after', oracle(true), fixed), 2), before)).toMatchObject({ status: 'passed' });
    const half = [fixed[0]!, { case: 'reproduction:test_parse.py/4', value: 61 }];
    expect(judgeReproductionAfter(times(sealedRun('reproduction_after', oracle(true), half), 2), before)).toMatchObject({ status: 'failed', reasons: ['not_fixed'] });
    // The site that held on the base must still hold after: a patch that breaks it is not a fix.
    const broke = [{ case: 'reproduction:test_parse.py/3', value: 'b' }, fixed[1]!];
    expect(judgeReproductionAfter(times(sealedRun('reproduction_after', oracle(true), broke), 2), before)).toMatchObject({ status: 'failed', reasons: ['not_fixed'] });
  });

  it('a test whose sites all hold on the base passes before, whatever its sibling test does', () => {
    const cases = parseOracleFile({
      schema: 'patchproof.oracle/v1',
      cases: [
        { id: 'reproduction:test_parse.py/3', phase: 'reproduction', expected: 'a', test: OTHER },
        { id: 'reproduction:test_parse.py/4', phase: 'reproduction', expected: 90, test: TEST }
      ]
    }).cases;
    const evidence = times(sealedRun('reproduction_before', cases, base, [pass(TEST), pass(OTHER)]), 2);
    expect(judgeReproductionBefore(evidence).reasons).toEqual(['repro_passes_before']);
    // Named by test, only the failing one must fail.
    expect(judgeReproductionBefore(evidence, [TEST])).toMatchObject({ status: 'passed', reasons: [] });
    expect(judgeReproductionBefore(evidence, [OTHER]).reasons).toEqual(['repro_passes_before']);
  });

  it('a site left unobserved counts with a failure of its own test only', () => {
    const cases = parseOracleFile({
      schema: 'patchproof.oracle/v1',
      cases: [
        { id: 'reproduction:test_parse.py/3', phase: 'reproduction', expected: 'a', test: OTHER },
        { id: 'reproduction:test_parse.py/4', phase: 'reproduction', expected: 90, test: TEST }
      ]
    }).cases;
    // OTHER never reached its site (it stopped on something outside every site) while TEST failed.
    const evidence = sealedRun('reproduction_before', cases, [base[1]!], [pass(TEST), pass(OTHER)]);
    expect(judgeReproductionBefore([evidence]).reasons).toEqual(['repro_wrong_failure']);
  });

  it('the test erroring outside its sites fails it, for the reason the framework gives', () => {
    const noSite: Observation[] = [];
    const importError = fail(TEST, 'collection_error');
    expect(judgeReproductionBefore([sealedRun('reproduction_before', oracle(true), noSite, [importError])]).reasons).toEqual(['repro_wrong_failure']);
    const raisedInCode = fail(TEST, 'exception_in_code');
    expect(judgeReproductionBefore([sealedRun('reproduction_before', oracle(true), noSite, [raisedInCode])])).toMatchObject({ status: 'passed' });
  });

  it('expected_failing by test: a parametrised id names its test; an entry naming nothing is a wrong failure', () => {
    const evidence = [sealedRun('reproduction_before', oracle(true), base)];
    expect(judgeReproductionBefore(evidence, [`${TEST}[1-2]`])).toMatchObject({ status: 'passed' });
    expect(judgeReproductionBefore(evidence, ['.patchproof/reproduction/test_parse.py::test_gone']).reasons).toEqual(['repro_wrong_failure']);
  });

  it('a pack written for the per-site rule (expected_failing names sites) is judged per site', () => {
    const evidence = [sealedRun('reproduction_before', oracle(true), base)];
    expect(judgeReproductionBefore(evidence, ['oracle > reproduction:test_parse.py/4'])).toMatchObject({ status: 'passed' });
    expect(judgeReproductionBefore(evidence, ['reproduction:test_parse.py/4'])).toMatchObject({ status: 'passed' });
    expect(judgeReproductionBefore(evidence, ['reproduction:test_parse.py/3']).reasons).toEqual(['repro_passes_before']);
  });

  it('hidden keeps per-site strictness: one site failing fails the phase', () => {
    const cases = oracle(true).map((c) => ({ ...c, phase: 'hidden' as const }));
    expect(judgeHidden([sealedRun('hidden', cases, base)])).toMatchObject({ status: 'failed', reasons: ['hidden_failed'] });
  });
});

describe('pins that survive sealing (issue 28 item 7)', () => {
  it('framework ids pinned by witness init match a sealed run; other ids do not', () => {
    const evidence = times(sealedRun('reproduction_before', oracle(true), base), 2);
    expect(judgeReproductionBefore(evidence, undefined, [TEST]).reasons).toEqual([]);
    expect(judgeReproductionBefore(evidence, undefined, [OTHER]).reasons).toEqual(['test_ids_mismatch']);
    const after = times(sealedRun('reproduction_after', oracle(true), fixed), 2);
    expect(judgeReproductionAfter(after, evidence, [TEST])).toMatchObject({ status: 'passed', reasons: [] });
    expect(judgeReproductionAfter(after, evidence, [OTHER]).reasons).toContain('test_ids_mismatch');
  });

  it('packs that pinned the sealed ids still match', () => {
    const evidence = [sealedRun('reproduction_before', oracle(true), base)];
    const siteIds = ['oracle > reproduction:test_parse.py/3', 'oracle > reproduction:test_parse.py/4'];
    expect(judgeReproductionBefore(evidence, undefined, siteIds).reasons).toEqual([]);
  });
});

describe('the receipt of a per-test judgement', () => {
  const runs = (): ReturnType<typeof passingRuns> => ({
    ...passingRuns(),
    reproduction_before: times(sealedRun('reproduction_before', oracle(true), base), 2),
    reproduction_after: times(sealedRun('reproduction_after', oracle(true), fixed), 2)
  });

  it('verifies, and lists every site with the test they make up', () => {
    const receipt = receiptFrom(runs());
    expect(receipt.verdict).toBe('passed');
    const before = receipt.phases.find((p) => p.name === 'reproduction_before');
    expect(before?.results).toHaveLength(2);
    expect(before?.sealed_tests).toHaveLength(1);
    expect(verifyReceiptText(serializeReceipt(receipt))).toMatchObject({ integrity_valid: true, errors: [] });
  });

  it('a forged grouping is refused: a site moved out of its test, or a result that does not exist', () => {
    const receipt = receiptFrom(runs());
    const before = receipt.phases.find((p) => p.name === 'reproduction_before')!;
    // Without the grouping the base phase's passing site makes "passed" a lie.
    const { sealed_tests: _dropped, ...ungrouped } = before;
    const forged = { ...receipt, phases: receipt.phases.map((p) => (p === before ? ungrouped : p)) };
    expect(verifyReceiptText(serializeReceipt(forged)).errors.join('\n')).toContain('not every test failed for the right reason');
    const ghost = { ...receipt, phases: receipt.phases.map((p) => (p === before ? { ...before, sealed_tests: [{ id: TEST, results: ['oracle > nowhere'] }] } : p)) };
    expect(verifyReceiptText(serializeReceipt(ghost)).errors.join('\n')).toContain('not among the results');
  });

  it('graded sealed, a site that matched on the base is allowed only in a test that failed', () => {
    const receipt = receiptFrom(runs());
    const graded = (r: Receipt, grouped: boolean): Receipt => {
      const { receipt_digest: _digest, ...body } = r;
      return sealReceipt({
        ...body,
        phases: body.phases.map((p) => {
          if (p.name === 'regression') return { ...p, grading: 'in_process' as const };
          const matched = p.name === 'reproduction_before' ? 1 : p.results.length;
          const runsOf = p.runs.map((run) => ({ ...run, oracle: { nonce: 'a'.repeat(32), cases: p.results.length, observed: p.results.length, matched } }));
          const { sealed_tests: _grouping, ...rest } = p;
          return { ...(grouped ? p : rest), runs: runsOf, grading: 'sealed' as const };
        })
      });
    };
    expect(verifyReceiptText(serializeReceipt(graded(receipt, true)))).toMatchObject({ integrity_valid: true, errors: [] });
    // Without the grouping, the per-site rule stands: a case matched on the base refutes "passed".
    expect(verifyReceiptText(serializeReceipt(graded(receipt, false))).errors.join('\n')).toContain('a sealed case matched on the base');
  });
});
