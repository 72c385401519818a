import { passingRuns, receiptFrom } from '../helpers/evidence.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import type { FormalTargetRecord } from '../../src/core/formal.js';
import { renderPhaseTable, renderReport } from '../../src/core/report.js';

/**
 * The receipt's formal record: verify-receipt checks its own consistency and what it does to the
 * verdict (a counterexample fails, a required unknown never passes), on re-sealed forgeries.
 */

const SCOPE = { unroll: 8, array_length: 4, integers: 'safe' as const, solver: 'Z3 5.1.0.0' };
const proved: FormalTargetRecord = { name: 'pageCount', file: 'src/paginate.js', function: 'pageCount', required: true, status: 'proved', scope: SCOPE, duration_ms: 900 };
const cex: FormalTargetRecord = { ...proved, status: 'counterexample', counterexample: { inputs: { total: 0, perPage: 1 }, result: 1, violated: ['ensures'] } };
const unknown: FormalTargetRecord = { ...proved, status: 'unknown', reason: 'outside the subset: Math.ceil (line 12)' };
const checked: FormalTargetRecord = { ...proved, status: 'checked', reason: 'some inputs need more iterations: the loop ends within 8 iterations (line 3) is not guaranteed' };
const REPLAY = { test_sha256: 'a'.repeat(64), output_sha256: 'b'.repeat(64), exit_code: 1, duration_ms: 300 };

function withFormal(edit: (body: Omit<Receipt, 'receipt_digest'>) => void): string {
  const { receipt_digest: _drop, ...body } = structuredClone(receiptFrom(passingRuns()));
  edit(body);
  return serializeReceipt(sealReceipt(body));
}

describe('verify-receipt: the formal record', () => {
  it('a proved target keeps a passed receipt valid', () => {
    expect(verifyReceiptText(withFormal((b) => void (b.formal = { status: 'proved', targets: [proved] })))).toMatchObject({ integrity_valid: true, verdict: 'passed' });
  });

  it('a counterexample must fail the verdict: a passed one is refused, a failed one with the reason verifies', () => {
    const forged = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'counterexample', targets: [cex] })));
    expect(forged.integrity_valid).toBe(false);
    expect(forged.errors.join(' ')).toMatch(/verdict passed does not follow from the phases \(expected failed\)/);
    const honest = withFormal((b) => {
      b.formal = { status: 'counterexample', targets: [cex] };
      b.verdict = 'failed';
      b.reasons = ['formal_counterexample'];
      b.proof_grade = false;
    });
    expect(verifyReceiptText(honest)).toMatchObject({ integrity_valid: true, verdict: 'failed' });
  });

  it('an unknown required target never passes; an unknown optional one is reported only', () => {
    const forged = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'unknown', targets: [unknown] })));
    expect(forged.errors.join(' ')).toMatch(/expected inconclusive/);
    const optional = withFormal((b) => void (b.formal = { status: 'unknown', targets: [{ ...unknown, required: false }] }));
    expect(verifyReceiptText(optional)).toMatchObject({ integrity_valid: true, verdict: 'passed' });
  });

  it('refuses a status that does not roll up, and a counterexample or reason on the wrong status', () => {
    const rolled = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'proved', targets: [{ ...unknown, required: false }] })));
    expect(rolled.errors.join(' ')).toMatch(/formal.status is proved but its targets roll up to unknown/);
    const stray = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'proved', targets: [{ ...proved, reason: 'x', counterexample: cex.counterexample! }] })));
    expect(stray.errors.join(' ')).toMatch(/a counterexample goes with status counterexample.*a reason goes with status unknown/);
  });

  it('checked (a bounded check) never passes a required target (formal_bounded_only); an optional one is reported only', () => {
    const forged = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'checked', targets: [checked] })));
    expect(forged.errors.join(' ')).toMatch(/expected inconclusive/);
    const honest = withFormal((b) => {
      b.formal = { status: 'checked', targets: [checked] };
      b.verdict = 'inconclusive';
      b.reasons = ['formal_bounded_only'];
      b.proof_grade = false;
    });
    expect(verifyReceiptText(honest)).toMatchObject({ integrity_valid: true, verdict: 'inconclusive' });
    const optional = withFormal(
      (b) =>
        void (b.formal = {
          status: 'checked',
          targets: [
            { ...checked, required: false },
            { ...proved, name: 'other' }
          ]
        })
    );
    expect(verifyReceiptText(optional)).toMatchObject({ integrity_valid: true, verdict: 'passed' });
    // checked rolls up below unknown, above proved; it carries its reason.
    const rolled = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'proved', targets: [{ ...checked, required: false }] })));
    expect(rolled.errors.join(' ')).toMatch(/roll up to checked/);
    const bare = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'checked', targets: [{ ...proved, status: 'checked', required: false }] })));
    expect(bare.errors.join(' ')).toMatch(/a reason goes with status unknown or checked/);
  });

  it('a replay must agree with the status: only a replay that fails keeps a counterexample', () => {
    const failedOn = (target: FormalTargetRecord, verdict: 'failed' | 'inconclusive', reasons: Receipt['reasons']): string =>
      withFormal((b) => {
        b.formal = { status: target.status, targets: [target] };
        b.verdict = verdict;
        b.reasons = reasons;
        b.proof_grade = false;
      });
    expect(verifyReceiptText(failedOn({ ...cex, replay: { ...REPLAY, outcome: 'failed' } }, 'failed', ['formal_counterexample']))).toMatchObject({ integrity_valid: true });
    const kept = verifyReceiptText(failedOn({ ...cex, replay: { ...REPLAY, outcome: 'passed' } }, 'failed', ['formal_counterexample']));
    expect(kept.errors.join(' ')).toMatch(/a counterexample whose replay passed is unknown/);
    const noResult = verifyReceiptText(failedOn({ ...cex, replay: { ...REPLAY, outcome: 'no_result', exit_code: null } }, 'failed', ['formal_counterexample']));
    expect(noResult.errors.join(' ')).toMatch(/a counterexample whose replay gave no result is unknown/);
    const dropped = verifyReceiptText(failedOn({ ...unknown, replay: { ...REPLAY, outcome: 'failed' } }, 'inconclusive', ['formal_unknown']));
    expect(dropped.errors.join(' ')).toMatch(/a counterexample whose replay failed is a counterexample, not unknown/);
    expect(
      verifyReceiptText(
        failedOn({ ...unknown, reason: 'the counterexample did not replay', replay: { ...REPLAY, outcome: 'passed', exit_code: 0 } }, 'inconclusive', ['formal_unknown'])
      )
    ).toMatchObject({ integrity_valid: true });
    const onProof = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'proved', targets: [{ ...proved, replay: { ...REPLAY, outcome: 'passed' } }] })));
    expect(onProof.errors.join(' ')).toMatch(/a replay goes with a counterexample found by the solver, not with status proved/);
  });

  it('the report shows checked as a bounded check, not a proof', () => {
    const { receipt_digest: _d, ...body } = structuredClone(receiptFrom(passingRuns()));
    const receipt = sealReceipt({ ...body, verdict: 'inconclusive', reasons: ['formal_bounded_only'], proof_grade: false, formal: { status: 'checked', targets: [checked] } });
    expect(renderPhaseTable(receipt, true)).toMatch(
      /\[CHECKED\] +formal: pageCount \(required\) +no counterexample within the bounds, not a proof .*: some inputs need more iterations/
    );
    const report = renderReport(receipt);
    expect(report).toContain('**有界检查 / CHECKED**');
    expect(report).toContain('`formal_bounded_only`');
  });

  it('every proved or checked target states the bounds it holds under: integers, array lengths, loop iterations (issue 29)', () => {
    const { receipt_digest: _d, ...body } = structuredClone(receiptFrom(passingRuns()));
    const scoped: FormalTargetRecord = { ...proved, scope: { ...SCOPE, lengths: 'all_allowed', loops: 'all_within_unroll' } };
    const bounded: FormalTargetRecord = {
      ...checked,
      name: 'sum',
      required: false,
      reason: 'no counterexample among arrays of length ≤ 4, but requires allows a longer a',
      scope: { ...SCOPE, lengths: 'up_to_bound', loops: 'all_within_unroll' }
    };
    const python: FormalTargetRecord = { ...proved, name: 'page_count', file: 'pages.py', scope: { ...SCOPE, integers: 'python-int', loops: 'none' } };
    const receipt = sealReceipt({ ...body, formal: { status: 'checked', targets: [scoped, bounded, python] } });
    expect(verifyReceiptText(serializeReceipt(receipt))).toMatchObject({ integrity_valid: true, verdict: 'passed' });
    const table = renderPhaseTable(receipt, true);
    expect(table).toContain(
      'for every input requires allows (integers: JS safe integers, ±(2^53−1); arrays: every length requires allows (≤ 4); loops: every run ends within 8 iterations; Z3 5.1.0.0)'
    );
    expect(table).toContain('no counterexample within the bounds, not a proof (integers: JS safe integers, ±(2^53−1); arrays: length ≤ 4 only (requires allows longer);');
    expect(table).toContain("for every input requires allows (integers: Python's unbounded int; no loops; Z3 5.1.0.0)");
    expect(renderReport(receipt)).toContain('arrays: every length requires allows (≤ 4)');
  });

  it('a binding check must agree with the status: only bound keeps a proof (issue 29)', () => {
    const BINDING = { probe_sha256: 'c'.repeat(64), output_sha256: 'd'.repeat(64), exit_code: 0, duration_ms: 400 };
    expect(verifyReceiptText(withFormal((b) => void (b.formal = { status: 'proved', targets: [{ ...proved, binding: { ...BINDING, outcome: 'bound' } }] })))).toMatchObject({
      integrity_valid: true,
      verdict: 'passed'
    });
    const kept = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'proved', targets: [{ ...proved, binding: { ...BINDING, outcome: 'unbound' } }] })));
    expect(kept.errors.join(' ')).toMatch(/a proved target whose binding check is unbound is unknown/);
    const noResult = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'proved', targets: [{ ...proved, binding: { ...BINDING, outcome: 'no_result' } }] })));
    expect(noResult.errors.join(' ')).toMatch(/whose binding check is no_result is unknown/);
    const honest = withFormal((b) => {
      b.formal = {
        status: 'unknown',
        targets: [{ ...unknown, reason: 'proved for the text the gate read, but the code that runs is not it', binding: { ...BINDING, outcome: 'unbound' } }]
      };
      b.verdict = 'inconclusive';
      b.reasons = ['formal_unknown'];
      b.proof_grade = false;
    });
    expect(verifyReceiptText(honest)).toMatchObject({ integrity_valid: true, verdict: 'inconclusive', proof_grade: false });
    const dropped = verifyReceiptText(
      withFormal((b) => {
        b.formal = { status: 'unknown', targets: [{ ...unknown, binding: { ...BINDING, outcome: 'bound' } }] };
        b.verdict = 'inconclusive';
        b.reasons = ['formal_unknown'];
        b.proof_grade = false;
      })
    );
    expect(dropped.errors.join(' ')).toMatch(/a target whose binding check is bound keeps the solver's status, not unknown/);
    const beside = verifyReceiptText(
      withFormal((b) => {
        b.formal = { status: 'counterexample', targets: [{ ...cex, replay: { ...REPLAY, outcome: 'failed' }, binding: { ...BINDING, outcome: 'bound' } }] };
        b.verdict = 'failed';
        b.reasons = ['formal_counterexample'];
        b.proof_grade = false;
      })
    );
    expect(beside.errors.join(' ')).toMatch(/a binding check goes with a proved or checked target/);
  });

  it('refuses a proof whose recorded scope stops at a bound (it is checked, not proved)', () => {
    const lengths = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'proved', targets: [{ ...proved, scope: { ...SCOPE, lengths: 'up_to_bound' } }] })));
    expect(lengths.errors.join(' ')).toMatch(/a proof whose scope stops at a bound \(array lengths\) is checked, not proved/);
    const loops = verifyReceiptText(withFormal((b) => void (b.formal = { status: 'proved', targets: [{ ...proved, scope: { ...SCOPE, loops: 'up_to_unroll' } }] })));
    expect(loops.errors.join(' ')).toMatch(/\(loop iterations\) is checked, not proved/);
  });

  it('the console table and the zh/en report show the gate and the counterexample as a call', () => {
    const { receipt_digest: _d, ...body } = structuredClone(receiptFrom(passingRuns()));
    const receipt = sealReceipt({ ...body, verdict: 'failed', reasons: ['formal_counterexample'], proof_grade: false, formal: { status: 'counterexample', targets: [cex] } });
    expect(renderPhaseTable(receipt, true)).toMatch(/\[COUNTEREXAMPLE\] formal: pageCount \(required\) +pageCount\(0, 1\) returns 1; violates ensures/);
    const report = renderReport(receipt);
    expect(report).toContain('## 形式化关卡 / Formal gate');
    expect(report).toContain('**反例 / COUNTEREXAMPLE**');
    expect(report).toContain('`formal_counterexample`: 形式化关卡找到了');
  });
});
