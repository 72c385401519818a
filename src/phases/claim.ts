import { compareClaim } from '../core/claim.js';
import { deriveHiddenIdKey, hiddenId } from '../core/hidden-ids.js';
import type { Phase } from './phase.js';

/**
 * The agent's claim (`--claimed`), compared with the clean room into the receipt's `claim` only
 * once verdict, reasons and proof grade were decided without it.
 */
export const claim: Phase = {
  name: 'claim',
  needs: ['hidden'],
  side: 'candidate',
  labels: [],
  annotate: (ctx, body) => {
    const { claim: given, witness } = ctx.request;
    if (given === undefined) return;
    const hiddenKey = deriveHiddenIdKey(witness.witnessKey, witness.digest);
    body.claim = compareClaim(given.parsed, given.digest, body.phases, (id) => hiddenId(hiddenKey, id));
  }
};
