import { deriveHiddenIdKey, hiddenId } from '../../src/core/hidden-ids.js';

/**
 * Receipt v2 publishes hidden test ids as keyed digests. A pack without a witness key (a plain
 * folder or archive) keys them by its digest, so a test that knows the real ids can compute them.
 */
export function publicHiddenIds(receipt: { bindings: { witness_digest: string } }, ids: readonly string[], witnessKey?: string): string[] {
  const key = deriveHiddenIdKey(witnessKey, receipt.bindings.witness_digest);
  return ids.map((id) => hiddenId(key, id)).sort();
}
