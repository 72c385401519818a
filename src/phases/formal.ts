import { withFormal } from '../core/formal.js';
import { runBindings, type BindingDeps } from '../formal/binding-run.js';
import { withBindings, type BindingRun } from '../formal/binding.js';
import { checkFormalSpecs, formalRecordAndSources } from '../formal/run.js';
import { replayCounterexamples } from '../formal/replay-run.js';
import type { Phase, PhaseContext } from './phase.js';

/**
 * The formal gate, when the pack has one: the spec is checked against the base first (a bad spec
 * refuses the pack before any test runs); the candidate's tree is then checked on the host while
 * the runs go; a counterexample stands only if it replays as a test in the same runner, and a
 * proof only if the binding check there finds the analysed definition where the tests reach it.
 */
/** The runner, the graded tree and the limits the replay and the binding check use. */
function formalDeps(ctx: PhaseContext): BindingDeps {
  return {
    runner: ctx.request.runner,
    scratch: ctx.scratch,
    patchedDir: ctx.trees.dirs.patched,
    mounts: ctx.trees.mounts.patched,
    env: ctx.trees.env,
    timeoutMs: ctx.request.limits.timeoutMs,
    outputLimitBytes: ctx.request.limits.outputLimitBytes,
    nonce: () => ctx.deps.nonce(),
    log: (line: string) => ctx.deps.log(line)
  };
}

/** The binding checks, started once the solver has answered: they run in the runner alongside the tests. */
function startBindings(ctx: PhaseContext): Promise<Map<string, BindingRun>> | undefined {
  const pending = ctx.state.formal;
  if (pending === undefined) return undefined;
  pending.binding ??= pending.solving.then((solved) => runBindings(pending.block, solved.record, solved.sources, formalDeps(ctx)));
  // Awaited when concluding; a rejection meanwhile is not unhandled.
  pending.binding.catch(() => undefined);
  return pending.binding;
}

export const formal: Phase = {
  name: 'formal',
  needs: [],
  side: 'candidate',
  labels: [],
  staged: async (ctx) => {
    const declared = ctx.request.recordObservations === undefined ? ctx.request.witness.manifest.formal : undefined;
    if (declared === undefined) return;
    const specStarted = Date.now();
    // The block as calibrated: every target's result type resolved (inferred where the pack leaves it out).
    const block = await checkFormalSpecs(declared, ctx.dirs.base);
    ctx.deps.log(`formal: the spec of ${block.targets.length} target(s) calibrated on the base in ${Date.now() - specStarted} ms`);
    const solving = formalRecordAndSources(block, ctx.dirs.patched, ctx.graded);
    // Awaited when concluding; a rejection meanwhile is not unhandled.
    solving.catch(() => undefined);
    ctx.state.formal = { block, solving };
  },
  // The trees are ready: the binding checks start as soon as the solver answers, while the tests run.
  planned: async (ctx) => {
    // Not awaited here (it waits for the solver): startBindings attaches its rejection handler.
    void startBindings(ctx);
    return Promise.resolve();
  },
  // A counterexample fails the candidate; a required target's unknown keeps it from passing.
  conclude: async (ctx, decided) => {
    const pending = ctx.state.formal;
    if (pending === undefined) return decided;
    const solved = await pending.solving;
    const waiting = Date.now();
    const bindings = await startBindings(ctx)!;
    ctx.deps.log(`formal: the binding checks ran alongside the tests; concluding waited ${Date.now() - waiting} ms for them`);
    const replayed = await replayCounterexamples(pending.block, solved.record, formalDeps(ctx));
    const record = bindings.size === 0 ? replayed : withBindings(replayed, bindings);
    for (const target of record.targets) {
      ctx.deps.log(
        `formal: ${target.name} ${target.status}${target.reason ? ` (${target.reason})` : ''}${target.counterexample ? ` ${JSON.stringify(target.counterexample.inputs)}` : ''} in ${target.duration_ms} ms`
      );
    }
    pending.record = record;
    return withFormal(decided, record);
  }
};
