import { l0Failed, l0Findings } from '../core/l0-gates.js';
import type { Phase } from './phase.js';

/** L0, the policy gate (gates only): the diff's paths and hunks, checked before any candidate run. */
export const l0: Phase = {
  name: 'l0',
  // After the bug is established on the base; not after the base suite, which (with gates) waits for the candidate's reproduction.
  needs: ['reproduction_before'],
  side: 'candidate',
  labels: [],
  // eslint-disable-next-line @typescript-eslint/require-await -- Phase hooks return a Promise; async keeps a throw a rejection, as callers expect
  planned: async (ctx) => {
    if (ctx.flow.earlyExit) ctx.state.l0 = l0Findings(ctx.changes, ctx.request.witness.manifest.allowed_paths);
  },
  gate: (ctx) => {
    const findings = ctx.state.l0 ?? [];
    if (!l0Failed(findings)) return { passed: true };
    return {
      passed: false,
      why: `L0 policy gate failed (${findings
        .filter((f) => f.rule !== 'whitespace_only_hunk')
        .map((f) => `${f.rule} ${f.path}`)
        .join(', ')})`
    };
  }
};
