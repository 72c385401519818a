import { normalisedKey } from '../core/normalise.js';
import { createScratch } from './workspace.js';
import type { Receipt } from '../core/receipt-schema.js';
import { bind, prepareTrees, stageTrees } from './bind.js';
import { orderPhases } from './dag.js';
import type { Phase, PhaseContext, PhaseState } from './phase.js';
import { PHASES } from './registry.js';
import { sealValidation } from './receipt-body.js';
import { runPhases } from './run-phases.js';
import { executeRun, plansFor, recordPlans, scheduleValidationRuns } from './runs.js';
import type { RecordedRun, ValidationDeps, ValidationRequest, ValidationResult } from './types.js';

/**
 * One validation, end to end: bind, refuse early, reset the candidate's test surface, stage
 * disposable copies, run the registered phases in the order of their DAG (with canaries, repeats,
 * retries and the early exit), judge, re-check the real checkout and seal the receipt. The phases
 * are plug-ins (src/phases/registry.ts): this file knows none of them by name.
 */

/** What validateWithDetail returns in record mode; recordRuns() hides it, nobody else sees it. */
const RECORDED = Object.freeze({ receipt: undefined }) as unknown as ValidationResult;

/**
 * Validate an approved proposal. Refusals (bad binding, policy, a diff that does not apply, a pack
 * without tests) throw before any test runs; everything after that ends in a sealed receipt.
 */
export async function validate(request: ValidationRequest, deps: ValidationDeps): Promise<Receipt> {
  return (await validateWithDetail(request, deps)).receipt;
}

/**
 * `witness record --reference`: make the patched tree's observing runs (each phase at least twice)
 * and hand every run's observations to `recordObservations`. Nothing is judged and no receipt made.
 */
export async function recordRuns(request: ValidationRequest & { recordObservations: (run: RecordedRun) => void }, deps: ValidationDeps): Promise<void> {
  await validateWithDetail(request, deps);
}

/** validate(), with the maintainers' encrypted hidden detail. */
export async function validateWithDetail(request: ValidationRequest, deps: ValidationDeps, registry: readonly Phase[] = PHASES): Promise<ValidationResult> {
  const ordered = orderPhases(registry);
  const binding = await bind(request, deps);
  const { witness } = request;
  const manifest = witness.manifest;
  const record = request.recordObservations !== undefined;
  const earlyExit = request.earlyExit === true;
  const scratch = await createScratch();
  try {
    const staged = await stageTrees(request, deps, scratch, binding);
    const state: PhaseState = { builds: {} };
    const stagedContext = {
      request,
      deps,
      scratch,
      dirs: { base: staged.base, patched: staged.patched },
      graded: staged.graded as Map<string, Buffer>,
      applied: staged.applied,
      changes: binding.changes,
      state
    };
    for (const phase of ordered) await phase.staged?.(stagedContext);
    const { trees, setup } = await prepareTrees(request, deps, scratch, binding, staged);
    const plans = record ? recordPlans(manifest, witness.dir) : plansFor(manifest, witness.dir);
    deps.log(`base ${binding.before.digest}, patched ${staged.patchedSnapshot}; ${plans.length} runs on the ${request.runner.description.kind} runner`);
    const key = normalisedKey(staged.applied);
    const ctx: PhaseContext = {
      ...stagedContext,
      trees,
      plans,
      key,
      gateOptions: {
        ...(manifest.reproduction.expected_failing ? { expectedFailing: manifest.reproduction.expected_failing } : {}),
        ...(manifest.reproduction.ids ? { pinned: { reproduction: manifest.reproduction.ids } } : {})
      },
      flow: {
        earlyExit,
        record,
        concurrency: request.concurrency,
        ...(request.baseline !== undefined ? { baseline: request.baseline.outputs } : {}),
        ...(request.sharedRuns !== undefined ? { shared: request.sharedRuns.outputs } : {}),
        // Only when no other validation takes this base side (a screening's shared baseline, a
        // baseline cache entry): a stopped candidate leaves it without the base suite.
        ...(earlyExit && request.baseline === undefined && request.baselineShared !== true && request.baselineCache === undefined ? { deferBase: true } : {})
      },
      log: deps.log,
      schedule: (jobs, gate) => scheduleValidationRuns(jobs, request, deps, scratch, trees, gate),
      execute: (plan) => executeRun(plan, request, deps, scratch, trees)
    };
    for (const phase of ordered) await phase.planned?.(ctx);
    if (earlyExit || request.baseline !== undefined) {
      const shared = request.sharedRuns;
      if (shared !== undefined && (!earlyExit || shared.patchedSnapshot !== staged.patchedSnapshot || shared.normalisedKey !== key)) {
        // A duplicate never inherits runs it did not earn: only a byte-identical patched tree may share
        // them. Not a normalised one: code can read its own comments and layout back.
        throw new Error(`runs of candidate ${shared.diffDigest} may not be shared with a candidate whose patched tree is not byte-identical`);
      }
      if (request.baseline !== undefined && (request.baseline.baseSnapshot !== request.proposal.base_snapshot || request.baseline.witnessDigest !== witness.digest)) {
        throw new Error('a shared baseline is for another base snapshot or witness pack');
      }
    }
    const runs = await runPhases(ordered, ctx);
    // witness record: the observations went to recordObservations; nothing is judged, no receipt is made.
    if (record) return RECORDED;
    return await sealValidation(ctx, ordered, runs, binding, staged, setup);
  } finally {
    await scratch.dispose();
  }
}
