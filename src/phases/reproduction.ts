import { judgeReproductionAfter, patchedRunsNeeded } from '../core/verdict.js';
import type { Phase } from './phase.js';
import { evidenceOf } from './runs.js';

/**
 * The reproduction, before and after the patch: it must fail on the base (for the right reason,
 * every time: the base-side gate that the bug is established), and pass on the patched tree.
 */

export const reproductionBefore: Phase = {
  name: 'reproduction_before',
  needs: [],
  side: 'base',
  decides: 'reproduction_before',
  labels: ['reproduction_before'],
  plans: (ctx) => ctx.plans.filter((plan) => plan.label === 'reproduction_before'),
  // The candidate's runs count only when the base reproduction established the bug.
  gate: (ctx, outputs) =>
    patchedRunsNeeded(evidenceOf(outputs, 'reproduction_before'), ctx.gateOptions) ? { passed: true } : { passed: false, why: 'the base reproduction did not establish the bug' }
};

export const reproductionAfter: Phase = {
  name: 'reproduction_after',
  needs: ['reproduction_before', 'build'],
  side: 'candidate',
  decides: 'reproduction_after',
  labels: ['reproduction_after'],
  plans: (ctx) => ctx.plans.filter((plan) => plan.label === 'reproduction_after'),
  gate: (ctx, outputs) =>
    judgeReproductionAfter(evidenceOf(outputs, 'reproduction_after'), evidenceOf(outputs, 'reproduction_before'), ctx.gateOptions.pinned?.reproduction).status === 'failed'
      ? { passed: false }
      : { passed: true }
};
