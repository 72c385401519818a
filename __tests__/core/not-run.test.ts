import { fail, pass, passingRuns, receiptFrom, run, times } from '../helpers/evidence.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import type { PhaseRecord, Receipt } from '../../src/core/receipt-schema.js';
import { judge, patchedRunsNeeded } from '../../src/core/verdict.js';
import { renderReport } from '../../src/core/report.js';

/** The early exit: phases the base reproduction made unnecessary are `not_run`, never passed. */

const reseal = (receipt: Receipt, edit: (body: Omit<Receipt, 'receipt_digest'>) => void): string => {
  const { receipt_digest: _drop, ...body } = structuredClone(receipt);
  edit(body);
  return serializeReceipt(sealReceipt(body));
};

/** A validation whose reproduction passes on the base: the bug is not established. */
function reproPassesBefore() {
  const runs = passingRuns();
  runs.reproduction_before = times(run('reproduction_before', [pass('repro > parses 1h30m')]), 2);
  return runs;
}

const notRun = (phase: PhaseRecord): PhaseRecord => ({
  name: phase.name,
  status: 'not_run',
  reasons: [],
  tests: { passed: 0, failed: 0, errored: 0, skipped: 0 },
  results: [],
  runs: phase.runs.filter((r) => r.label === 'regression_before'),
  ...(phase.grading !== undefined ? { grading: phase.grading } : {})
});

describe('phases not run', () => {
  it("are the candidate phases when the base reproduction did not establish the bug, and the verdict is inconclusive (the pack's fault, not the candidate's)", () => {
    const runs = reproPassesBefore();
    expect(patchedRunsNeeded(runs.reproduction_before)).toBe(false);
    const judged = judge(runs, true);
    expect(judged.phases.map((p) => p.status)).toEqual(['inconclusive', 'not_run', 'not_run', 'not_run']);
    expect(judged).toMatchObject({ verdict: 'inconclusive', reasons: ['repro_passes_before'] });
  });

  it('do not depend on what the discarded patched runs showed', () => {
    const failing = reproPassesBefore();
    failing.hidden = [run('hidden', [fail('hidden > x')])];
    failing.reproduction_after = [];
    expect(judge(failing, true)).toEqual(judge(reproPassesBefore(), true));
  });

  it('are none when the base reproduction passed its phase', () => {
    expect(patchedRunsNeeded(passingRuns().reproduction_before)).toBe(true);
    expect(judge(passingRuns(), true).phases.every((p) => p.status === 'passed')).toBe(true);
  });

  it('make a receipt that verifies', () => {
    const receipt = receiptFrom(reproPassesBefore());
    expect(receipt.phases.map((p) => [p.name, p.status, p.runs.map((r) => r.label)])).toEqual([
      ['reproduction_before', 'inconclusive', ['reproduction_before', 'reproduction_before']],
      ['reproduction_after', 'not_run', []],
      ['regression', 'not_run', ['regression_before']],
      ['hidden', 'not_run', []]
    ]);
    expect(verifyReceiptText(serializeReceipt(receipt))).toMatchObject({ integrity_valid: true, verdict: 'inconclusive' });
  });

  it('name the witness pack, not the candidate, in the report when the base reproduction did not fail as required', () => {
    const report = renderReport(receiptFrom(reproPassesBefore()));
    expect(report).toContain('This is a fault of the witness pack, not of the candidate');
    expect(report).toContain('repro_passes_before');
    // A validation whose base reproduction established the bug says nothing of the kind.
    expect(renderReport(receiptFrom(passingRuns()))).not.toContain('fault of the witness pack');
  });

  it('refuse a re-sealed receipt that claims passed with a phase not run', () => {
    const forged = reseal(receiptFrom(passingRuns()), (b) => {
      b.phases = b.phases.map((p) => (p.name === 'hidden' ? notRun(p) : p));
    });
    const check = verifyReceiptText(forged);
    expect(check.integrity_valid).toBe(false);
    expect(check.errors).toContain('verdict passed with phase(s) not run: hidden');
  });

  it('refuse a re-sealed receipt that hides a failing phase as not run although the base reproduction passed', () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [fail('hidden > x')])];
    // Consistent with its phases (inconclusive): only the early-exit rule catches it.
    const forged = reseal(receiptFrom(runs), (b) => {
      b.phases = b.phases.map((p) => (p.name === 'hidden' ? notRun(p) : p));
      b.verdict = 'inconclusive';
      b.reasons = [];
    });
    const check = verifyReceiptText(forged);
    expect(check.integrity_valid).toBe(false);
    expect(check.errors).toEqual(['phase(s) hidden not run although the base reproduction passed']);
  });

  it('refuse a phase not run that still carries a patched run, tests or reasons', () => {
    const good = receiptFrom(reproPassesBefore());
    const withRun = reseal(good, (b) => {
      const after = receiptFrom(passingRuns()).phases[1]!;
      b.phases[1] = { ...b.phases[1]!, runs: after.runs };
    });
    expect(verifyReceiptText(withRun).errors).toContain('phase reproduction_after: not_run but holds a run of the patched tree');
    const withReason = reseal(good, (b) => {
      b.phases[3] = { ...b.phases[3]!, reasons: ['hidden_failed'] };
      b.reasons = [...new Set([...b.reasons, 'hidden_failed' as const])].sort();
    });
    expect(verifyReceiptText(withReason).errors).toContain('phase hidden: not_run with reasons or results');
    const baseNotRun = reseal(good, (b) => {
      b.phases[0] = notRun(b.phases[0]!);
    });
    expect(verifyReceiptText(baseNotRun).errors).toContain('phase reproduction_before: the base reproduction is always run');
  });

  it('still require a run in every phase that is not not_run', () => {
    const forged = reseal(receiptFrom(passingRuns()), (b) => {
      b.phases[2] = { ...b.phases[2]!, runs: [] };
    });
    expect(verifyReceiptText(forged).errors).toContain('phase regression: passed without a run');
  });
});
