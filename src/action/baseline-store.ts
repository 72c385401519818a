import { join } from 'node:path';
import type { BaselineCache } from '../phases/baseline-cache.js';
import { openActionsBaselineCache, type StoreLog } from '../publish/actions-cache.js';
import type { ActionSettings } from '../inputs/action-settings.js';
import type { StepOutcome } from '../publish/ports.js';
import { decideBaselineScope } from './baseline-scope.js';
import type { TrustDecision } from './trust.js';

/**
 * The action's baseline store for one run (input `baseline-cache`), or undefined when it is off:
 * not asked for, or this job is not a trusted writer and reader (src/action/baseline-scope.ts; a
 * notice says why). Modes call it once, after the trust decision; screen mode can use it the same way.
 */

/** The one folder archived into and restored from the Actions cache (its path is part of the cache version). */
export const BASELINE_CACHE_FOLDER = 'patchproof-baseline-cache';

/** Opens the store in `folder`; unset: the GitHub Actions cache through @actions/cache. */
export type BaselineStoreFactory = (folder: string, log: StoreLog) => BaselineCache;

export function actionBaselineStore(
  settings: Pick<ActionSettings, 'baselineCache'>,
  run: { eventName: string; ref: string | undefined; payload: unknown; trust: TrustDecision; runnerTemp: string },
  outcome: Pick<StepOutcome, 'info' | 'warning'>,
  factory: BaselineStoreFactory = openActionsBaselineCache
): BaselineCache | undefined {
  if (settings.baselineCache !== true) return undefined;
  const decision = decideBaselineScope(run);
  if (!decision.use) {
    outcome.info(decision.why);
    return undefined;
  }
  outcome.info(`baseline-cache: the Actions cache of ${decision.scope} (a trusted writer and reader)`);
  return factory(join(run.runnerTemp, BASELINE_CACHE_FOLDER), { info: (line) => outcome.info(line), warning: (line) => outcome.warning(line) });
}
