import type { Phase } from './phase.js';
import { formal } from './formal.js';
import { reproductionAfter, reproductionBefore } from './reproduction.js';
import { regressionAfter, regressionBefore, related } from './regression.js';
import { buildBase, build } from './build.js';
import { l0 } from './l0.js';
import { hidden } from './hidden.js';
import { claim } from './claim.js';
import { tamper } from './tamper.js';

/**
 * The registered phases: the only list of their names. The orchestrator orders them by their needs
 * (src/phases/dag.ts); registry order breaks ties, so the formal gate, which needs nothing, starts
 * first and concludes first, and the tamper screen (host only, nothing run) reads the staged changes next. A new stage is one module and one line here.
 */
export const PHASES: readonly Phase[] = [formal, tamper, reproductionBefore, regressionBefore, buildBase, l0, build, reproductionAfter, related, regressionAfter, hidden, claim];
