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
