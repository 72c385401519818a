import { mergeRefusals, type CurrentBinding } from '../../src/core/merge-gate.js';
import type { Receipt } from '../../src/core/receipt-schema.js';

/** The pure rule of promote mode: which receipts allow a merge of the pull request as it is now. */

const D = (c: string): string => `sha256:${c.repeat(64)}`;
const receipt = (
  change: Partial<Pick<Receipt, 'verdict' | 'proof_grade' | 'reasons'>> & { isolated?: boolean } = {}
): Pick<Receipt, 'verdict' | 'proof_grade' | 'runner' | 'bindings' | 'reasons'> => ({
  verdict: change.verdict ?? 'passed',
  proof_grade: change.proof_grade ?? true,
  reasons: change.reasons ?? [],
  runner: { kind: 'docker', isolated: change.isolated ?? true, settings: [] },
  bindings: {
    proposal_hash: 'a'.repeat(64),
    approval_digest: D('1'),
    approved_by: 'x',
    diff_digest: D('2'),
    base_snapshot: D('3'),
    patched_snapshot: D('4'),
    witness_digest: D('5')
  }
});
const bound: CurrentBinding[] = [
  { name: 'diff_digest', recorded: D('2'), current: D('2') },
  { name: 'base_snapshot', recorded: D('3'), current: D('3') }
];

describe('mergeRefusals', () => {
  it('passed, proof grade, isolated, bound: no refusal', () => {
    expect(mergeRefusals(receipt(), { bindings: bound })).toEqual([]);
    expect(mergeRefusals(receipt(), { bindings: bound, witnessDigest: D('5') })).toEqual([]);
  });

  it('every reason against, in one list', () => {
    const moved: CurrentBinding[] = [
      { ...bound[0]!, current: D('9') },
      { ...bound[1]!, current: D('8') }
    ];
    expect(mergeRefusals(receipt({ verdict: 'failed', proof_grade: false, reasons: ['repro_passes_before'] }), { bindings: moved, witnessDigest: D('6') })).toEqual([
      "the receipt's verdict is failed (repro_passes_before); only a passed validation is merged",
      'the receipt is not proof grade (it did not pass in the hardened runner)',
      `the receipt is not bound to the current head: its diff_digest ${D('2')} is not ${D('9')} of the pull request's current diff base...head`,
      `the receipt is not bound to the current head: its base_snapshot ${D('3')} is not ${D('8')} of the pull request's current base tree`,
      `the receipt was graded by witness pack ${D('5')}, not the pinned ${D('6')}`
    ]);
  });

  it('proof_grade claimed without an isolated runner, an inconclusive verdict, or no binding checked: refused', () => {
    expect(mergeRefusals(receipt({ isolated: false }), { bindings: bound })).toEqual(['the receipt is not proof grade (it did not pass in the hardened runner)']);
    expect(mergeRefusals(receipt({ verdict: 'inconclusive', proof_grade: false }), { bindings: bound })[0]).toMatch(/verdict is inconclusive/);
    expect(mergeRefusals(receipt(), { bindings: [] })).toEqual(['no binding of the receipt was checked against the current head']);
  });
});
