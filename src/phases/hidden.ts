import type { Phase } from './phase.js';

/** The hidden tests, from the witness pack, on the patched tree: the last stage in cost order. */
export const hidden: Phase = {
  name: 'hidden',
  needs: ['regression'],
  side: 'candidate',
  decides: 'hidden',
  labels: ['hidden'],
  plans: (ctx) => ctx.plans.filter((plan) => plan.label === 'hidden')
};
