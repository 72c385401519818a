import { passingRuns, receiptFrom } from '../helpers/evidence.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';

/** Grading models in receipts: verify-receipt checks them and that proof_grade follows from them. */

const NONCE = 'f'.repeat(32);

function graded(models: Record<string, 'sealed' | 'in_process'>, proofGrade: boolean, edit?: (body: Omit<Receipt, 'receipt_digest'>) => void): string {
  const { receipt_digest: _drop, ...body } = structuredClone(receiptFrom(passingRuns()));
  for (const phase of body.phases) {
    const model = models[phase.name];
    if (model !== undefined) phase.grading = model;
    if (model === 'sealed') {
      for (const run of phase.runs) run.oracle = { nonce: NONCE, cases: 2, observed: 2, matched: phase.name === 'reproduction_before' ? 0 : 2 };
    }
  }
  body.proof_grade = proofGrade;
  edit?.(body);
  return serializeReceipt(sealReceipt(body));
}

const SEALED = { reproduction_before: 'sealed', reproduction_after: 'sealed', regression: 'in_process', hidden: 'sealed' } as const;

describe('verify-receipt: grading models', () => {
  it('a receipt without grading models keeps the old proof-grade rule (committed v1 receipts verify)', () => {
    expect(verifyReceiptText(serializeReceipt(receiptFrom(passingRuns()))).proof_grade).toBe(true);
  });

  it('sealed candidate side: proof grade', () => {
    expect(verifyReceiptText(graded(SEALED, true))).toMatchObject({ integrity_valid: true, proof_grade: true });
  });

  it('hidden graded in-process: passed but not proof grade, and claiming proof grade is refused', () => {
    const models = { ...SEALED, hidden: 'in_process' } as const;
    expect(verifyReceiptText(graded(models, false))).toMatchObject({ integrity_valid: true, verdict: 'passed', proof_grade: false });
    const claimed = verifyReceiptText(graded(models, true));
    expect(claimed.integrity_valid).toBe(false);
    expect(claimed.errors.join(' ')).toMatch(/proof_grade true does not follow .* grading models/);
  });

  it('refuses a sealed regression, grading on some phases only, and sealed phases without oracle records', () => {
    expect(verifyReceiptText(graded({ ...SEALED, regression: 'sealed' }, true)).errors.join(' ')).toMatch(/regression suite is graded in-process/);
    expect(verifyReceiptText(graded({ reproduction_after: 'sealed', hidden: 'sealed' }, true)).errors.join(' ')).toMatch(/some phases only/);
    const noRecord = graded(SEALED, true, (body) => {
      delete body.phases.find((p) => p.name === 'hidden')!.runs[0]!.oracle;
    });
    expect(verifyReceiptText(noRecord).errors.join(' ')).toMatch(/phase hidden: sealed, but a run has no oracle record/);
  });

  it('refuses a passed sealed phase whose runs did not match every case exactly once', () => {
    const partial = graded(SEALED, true, (body) => {
      body.phases.find((p) => p.name === 'hidden')!.runs[0]!.oracle = { nonce: NONCE, cases: 2, observed: 3, matched: 2 };
    });
    expect(verifyReceiptText(partial).errors.join(' ')).toMatch(/phase hidden: passed, but a run did not observe and match every sealed case/);
    const matchedOnBase = graded(SEALED, true, (body) => {
      body.phases.find((p) => p.name === 'reproduction_before')!.runs[0]!.oracle = { nonce: NONCE, cases: 2, observed: 2, matched: 1 };
    });
    expect(verifyReceiptText(matchedOnBase).errors.join(' ')).toMatch(/sealed case matched on the base/);
  });
});
