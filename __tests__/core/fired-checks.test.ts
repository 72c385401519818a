import { fail, infra, pass, passingRuns, receiptFrom, run, times } from '../helpers/evidence.js';
import { graderChecks, runChecks } from '../../src/core/fired-checks.js';
import { judge, type PhaseJudgement, type RunsByLabel } from '../../src/core/verdict.js';
import { renderPhaseTable, renderReport } from '../../src/core/report.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { HIDDEN_MARKER } from '../../src/core/hidden-ids.js';

/** Issue 28 item 8: every grader_compromised and every inconclusive names the check that fired. */

function reseal(receipt: Receipt, edit: (r: Receipt) => void = () => undefined): string {
  const copy = structuredClone(receipt);
  edit(copy);
  const { receipt_digest: _, ...body } = copy;
  return serializeReceipt(sealReceipt(body));
}

const phaseOf = (runs: RunsByLabel, name: PhaseJudgement['name'], options: Parameters<typeof judge>[2] = {}): PhaseJudgement =>
  judge(runs, true, options).phases.find((p) => p.name === name) as PhaseJudgement;

describe('graderChecks names the check behind grader_compromised', () => {
  it('names the must-fail canary that passed, and its run', () => {
    expect(graderChecks({ ...run('hidden', [pass('a')], { canary: { pass: 'passed', fail: 'passed' } }), attempt: 2 })).toEqual([
      { check: 'canary_fail', run: 'hidden#2', detail: 'the must-fail canary passed, expected failed' }
    ]);
  });
  it('names a missing must-pass canary', () => {
    expect(graderChecks(run('hidden', [pass('a')], { canary: { pass: 'missing', fail: 'failed' } }))).toEqual([
      { check: 'canary_pass', run: 'hidden#1', detail: 'the must-pass canary is missing from the results, expected passed' }
    ]);
  });
  it('names which twin or mutant misbehaved, by position, with both statuses', () => {
    const twins = [
      { kind: 'twin', status: 'passed', original: 'passed' },
      { kind: 'mutant', status: 'passed', original: 'passed' }
    ] as const;
    expect(graderChecks(run('regression_after', [pass('a')], { canary: { pass: 'passed', fail: 'failed', twins: [...twins] } }))).toEqual([
      { check: 'twin', run: 'regression_after#1', detail: 'mutant 2 of 2: passed, original passed; expected failed (its original passed)' }
    ]);
  });
  it('names the exit status: 0, and none at all', () => {
    expect(graderChecks(run('hidden', [pass('a')], { exitCode: 0 }))).toEqual([
      { check: 'exit_status', run: 'hidden#1', detail: 'the test process exited 0; a run with the must-fail canary must exit non-zero' }
    ]);
    expect(graderChecks(run('hidden', [pass('a')], { exitCode: null }))[0]?.detail).toContain('without an exit status');
  });
  it('names which claimed count disagreed with what', () => {
    const evidence = run('hidden', [pass('a'), fail('b')]);
    evidence.parsed!.claimed = { passed: 2, failed: 1, errored: 0, skipped: 0 };
    expect(graderChecks(evidence)).toEqual([{ check: 'claimed_counts', run: 'hidden#1', detail: 'the runner claimed 2 passed; the results hold 1' }]);
  });
  it("quotes the results channel's disagreement", () => {
    const evidence = run('reproduction_after', [pass('a')]);
    evidence.parsed!.channel = { frames: 3, disagreements: ['the final frame counts 2 tests; the results hold 1'], after_end_bytes: 0 };
    expect(graderChecks(evidence)).toEqual([{ check: 'results_channel', run: 'reproduction_after#1', detail: 'the final frame counts 2 tests; the results hold 1' }]);
  });
  it("names the tripwire's changes: beside the failed must-pass canary, and alone", () => {
    const changed = ['builtins.open replaced', 'unittest.TestCase.run wrapped'];
    expect(graderChecks(run('reproduction_after', [pass('a')], { canary: { pass: 'failed', fail: 'failed', changed } }))).toEqual([
      { check: 'canary_pass', run: 'reproduction_after#1', detail: 'the must-pass canary failed, expected passed' },
      { check: 'tripwire', run: 'reproduction_after#1', detail: 'the tripwire found the grader changed: builtins.open replaced, unittest.TestCase.run wrapped' }
    ]);
    // A tripwire record whose canary still passed is grader_compromised on its own, and named.
    const alone = run('reproduction_after', [pass('a')], { canary: { pass: 'passed', fail: 'failed', changed: ['sys.exit replaced'] } });
    expect(graderChecks(alone)).toEqual([{ check: 'tripwire', run: 'reproduction_after#1', detail: 'the tripwire found the grader changed: sys.exit replaced' }]);
    const runs = passingRuns();
    runs.regression_after = [
      run('regression_after', [pass('suite > a'), pass('suite > b'), fail('suite > flaky-at-base')], { canary: { pass: 'passed', fail: 'failed', changed: ['sys.exit replaced'] } })
    ];
    const phase = phaseOf(runs, 'regression');
    expect(phase.reasons).toEqual(['grader_compromised']);
    expect(phase.checks).toEqual([{ check: 'tripwire', run: 'regression_after#1', detail: 'the tripwire found the grader changed: sys.exit replaced' }]);
  });
  it('is empty for a run whose every check behaved', () => {
    expect(graderChecks(run('hidden', [pass('a')], { canary: { pass: 'passed', fail: 'failed', twins: [{ kind: 'twin', status: 'passed', original: 'passed' }] } }))).toEqual([]);
  });
});

describe('runChecks names the anomalies of a run', () => {
  it('names an infrastructure error with its message, a timeout and the output cap', () => {
    expect(runChecks(infra('hidden', 'docker went away'))).toEqual([{ check: 'infra_error', run: 'hidden#1', detail: 'docker went away' }]);
    expect(runChecks(run('hidden', [pass('a')], { timedOut: true, exitCode: null })).map((c) => c.check)).toEqual(['timeout']);
    expect(runChecks(run('hidden', [pass('a')], { outputTruncated: true, exitCode: null })).map((c) => c.check)).toEqual(['output_limit']);
  });
  it('names no results and inconsistent results with their problems', () => {
    const evidence = run('hidden', [pass('a')]);
    evidence.parsed!.problems.push('duplicate id a');
    expect(runChecks(evidence)).toEqual([{ check: 'results_inconsistent', run: 'hidden#1', detail: 'duplicate id a' }]);
    expect(runChecks(run('hidden', [])).map((c) => c.check)).toEqual(['no_results']);
  });
});

describe('judge attaches the checks to the phases they explain', () => {
  it('a compromised regression run: the phase names the twin and the run', () => {
    const runs = passingRuns();
    runs.regression_after = [
      run('regression_after', [pass('suite > a'), pass('suite > b'), fail('suite > flaky-at-base')], {
        canary: { pass: 'passed', fail: 'failed', twins: [{ kind: 'twin', status: 'failed', original: 'passed' }] }
      })
    ];
    const phase = phaseOf(runs, 'regression');
    expect(phase.reasons).toEqual(['grader_compromised']);
    expect(phase.checks).toEqual([{ check: 'twin', run: 'regression_after#1', detail: 'twin 1 of 1: failed, original passed; expected ending as its original (passed)' }]);
  });
  it('an inconclusive base suite names its run', () => {
    const runs = passingRuns();
    runs.regression_before = [run('regression_before', [pass('suite > a')], { exitCode: 0 })];
    const phase = phaseOf(runs, 'regression');
    expect(phase.status).toBe('inconclusive');
    expect(phase.checks?.map((c) => [c.check, c.run])).toEqual([['exit_status', 'regression_before#1']]);
  });
  it('a reproduction that passes on the base names the tests and the run', () => {
    const runs = passingRuns();
    runs.reproduction_before = [
      run('reproduction_before', [fail('repro > a'), pass('repro > b')]),
      { ...run('reproduction_before', [fail('repro > a'), fail('repro > b')]), attempt: 2 }
    ];
    const phase = phaseOf(runs, 'reproduction_before');
    expect(phase.status).toBe('inconclusive');
    expect(phase.checks).toEqual([
      { check: 'repro_passes_before', run: 'reproduction_before#1', detail: 'passed on the base: repro > b' },
      { check: 'flaky', detail: 'differed between runs of the same tree: repro > b' }
    ]);
  });
  it('a wrong-reason failure names the test and its failure kind', () => {
    const runs = passingRuns();
    runs.reproduction_before = times(run('reproduction_before', [fail('repro > a', 'import_error')]), 2);
    expect(phaseOf(runs, 'reproduction_before').checks).toEqual([
      { check: 'repro_wrong_failure', run: 'reproduction_before#1', detail: 'repro > a errored (import_error)' },
      { check: 'repro_wrong_failure', run: 'reproduction_before#2', detail: 'repro > a errored (import_error)' }
    ]);
  });
  it('pinned ids that did not run are named', () => {
    const runs = passingRuns();
    const phase = phaseOf(runs, 'reproduction_before', { pinned: { reproduction: ['repro > parses 1h30m', 'repro > gone'] } });
    expect(phase.reasons).toEqual(['test_ids_mismatch']);
    expect(phase.checks?.[0]).toEqual({ check: 'test_ids_mismatch', run: 'reproduction_before#1', detail: 'pinned but absent: repro > gone' });
  });
  it('a passed phase and a failure of the candidate alone carry no checks', () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [fail('hidden > x')])];
    const judged = judge(runs, true);
    expect(judged.phases.find((p) => p.name === 'hidden')?.reasons).toEqual(['hidden_failed']);
    expect(judged.phases.every((p) => p.checks === undefined)).toBe(true);
  });
});

describe('the receipt and the report say which check fired', () => {
  const compromised = (): RunsByLabel => {
    const runs = passingRuns();
    runs.regression_after = [run('regression_after', [pass('suite > a'), pass('suite > b'), fail('suite > flaky-at-base')], { canary: { pass: 'passed', fail: 'passed' } })];
    return runs;
  };
  it('records the checks in a v10 receipt that verifies', () => {
    const receipt = receiptFrom(compromised());
    expect(receipt.phases.find((p) => p.name === 'regression')?.checks).toEqual([
      { check: 'canary_fail', run: 'regression_after#1', detail: 'the must-fail canary passed, expected failed' }
    ]);
    expect(verifyReceiptText(reseal(receipt)).errors).toEqual([]);
  });
  it('an older schema may not hold them', () => {
    const errors = verifyReceiptText(reseal(receiptFrom(compromised()), (r) => void (r.schema = 'patchproof.receipt/v8'))).errors.join('\n');
    expect(errors).toContain('checks fired');
  });
  it('the report (zh/en) and the console table name the check and the run', () => {
    const receipt = receiptFrom(compromised());
    const report = renderReport(receipt);
    expect(report).toContain('触发的检查 / checks that fired:');
    expect(report).toContain('- `canary_fail` @ `regression_after#1` — the must\\-fail canary passed\\, expected failed');
    expect(renderPhaseTable(receipt, true)).toContain('check: canary_fail @ regression_after#1: the must-fail canary passed, expected failed');
    expect(renderReport(receiptFrom(passingRuns()))).not.toContain('checks that fired');
  });
  it('the hidden phase keeps which check fired but redacts what it saw', () => {
    const runs = passingRuns();
    runs.hidden = times(run('hidden', [pass('hidden > x'), pass('hidden > y')]), 2);
    runs.hidden[1] = { ...run('hidden', [pass('hidden > x'), fail('hidden > y')]), attempt: 2, exitCode: 0 };
    const hidden = receiptFrom(runs).phases.find((p) => p.name === 'hidden');
    expect(hidden?.checks?.map((c) => [c.check, c.run, c.detail])).toEqual([['exit_status', 'hidden#2', HIDDEN_MARKER]]);
  });
});
