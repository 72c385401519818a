import type { Receipt } from './receipt-schema.js';

/**
 * Whether a receipt allows promote mode to merge its pull request: pure, the receipt and what was
 * found about the pull request now in, every reason against out (empty: it may merge). Who produced
 * the receipt (this job, or an attestation by the gate) is decided before; this decides what it says.
 */

/** One binding of the receipt, as recorded and as computed now from the pull request's current head. */
export interface CurrentBinding {
  name: 'diff_digest' | 'base_snapshot';
  recorded: string;
  current: string;
}

export interface MergeFacts {
  /** The receipt's bindings against base...head of the pull request as GitHub reports it now. */
  bindings: readonly CurrentBinding[];
  /** When given, the receipt must have been graded by this witness pack. */
  witnessDigest?: string;
}

/** Every reason the receipt does not allow the merge, in a fixed order; empty when it does. */
export function mergeRefusals(receipt: Pick<Receipt, 'verdict' | 'proof_grade' | 'runner' | 'bindings' | 'reasons'>, facts: MergeFacts): string[] {
  const problems: string[] = [];
  if (receipt.verdict !== 'passed') {
    const reasons = receipt.reasons.length > 0 ? ` (${receipt.reasons.join(', ')})` : '';
    problems.push(`the receipt's verdict is ${receipt.verdict}${reasons}; only a passed validation is merged`);
  }
  if (!receipt.proof_grade || !receipt.runner.isolated) problems.push('the receipt is not proof grade (it did not pass in the hardened runner)');
  if (facts.bindings.length === 0) problems.push('no binding of the receipt was checked against the current head');
  for (const binding of facts.bindings) {
    if (binding.recorded !== binding.current) {
      const what = binding.name === 'diff_digest' ? "the pull request's current diff base...head" : "the pull request's current base tree";
      problems.push(`the receipt is not bound to the current head: its ${binding.name} ${binding.recorded} is not ${binding.current} of ${what}`);
    }
  }
  if (facts.witnessDigest !== undefined && receipt.bindings.witness_digest !== facts.witnessDigest) {
    problems.push(`the receipt was graded by witness pack ${receipt.bindings.witness_digest}, not the pinned ${facts.witnessDigest}`);
  }
  return problems;
}
