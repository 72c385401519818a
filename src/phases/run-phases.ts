import type { PhaseName } from '../core/verdict.js';
import type { OrchestratorContext, Phase } from './phase.js';
import type { RunGate } from './runs.js';
import type { RunOutput, RunPlan } from './types.js';

/** What running the phases made: every run's output, and the candidate phases a failed gate stopped. */
export interface PhaseRuns {
  outputs: RunOutput[];
  notRun: PhaseName[];
  /** Whether this validation made candidate-side runs of its own (a duplicate's are not). */
  madeRuns: boolean;
}

const done = (scheduled: Awaited<ReturnType<OrchestratorContext['schedule']>>): RunOutput[] => scheduled.flatMap((s) => (s.status === 'done' ? [s.result] : []));

/**
 * Run ordered phases (src/phases/dag.ts). Without gates or a shared baseline, every run goes into one
 * schedule, the candidate's gated by the base-side gates (they start speculatively and are `not_run`
 * when a gate closes). Otherwise the base side first (or the shared baseline), its gates, then the
 * candidate's phases: all at once without gates; with gates one after another, the first whose gate
 * fails stopping the candidate, the phases after it recorded `not_run`, never passed.
 */
export async function runPhases<C extends OrchestratorContext>(ordered: readonly Phase<C>[], ctx: C): Promise<PhaseRuns> {
  const { flow } = ctx;
  const applying = ordered.filter((phase) => phase.applies?.(ctx) ?? true);
  const base = applying.filter((phase) => phase.side === 'base');
  const candidate = ordered.filter((phase) => phase.side === 'candidate');
  const gates = base.filter((phase) => phase.gate !== undefined);
  const plansOf = (phases: readonly Phase<C>[]): RunPlan[] => phases.flatMap((phase) => phase.plans?.(ctx) ?? []);
  const settle = async (phases: readonly Phase<C>[], outputs: RunOutput[]): Promise<void> => {
    for (const phase of phases) await phase.settle?.(ctx, outputs);
  };
  if (!flow.earlyExit && flow.baseline === undefined) {
    const works = applying.filter((phase) => phase.work !== undefined);
    if (flow.concurrency >= 2) await Promise.all(works.map((phase) => phase.work!(ctx)));
    else for (const phase of works) await phase.work!(ctx);
    let why: string | undefined;
    const gate: RunGate = {
      member: (plan) => plan.tree === 'base' && gates.some((phase) => phase.labels.includes(plan.label)),
      gated: (plan) => plan.tree === 'patched',
      open: (results) =>
        gates.every((phase) => {
          const result = phase.gate!(ctx, results);
          if (!result.passed) why = result.why;
          return result.passed;
        })
    };
    // witness record makes the candidate's runs only, and has no gate.
    const scheduled = await ctx.schedule(plansOf(applying), flow.record || gates.length === 0 ? undefined : gate);
    const notRun = scheduled.filter((s) => s.status === 'not_run').map((s) => `${s.job.label}-${s.job.attempt}`);
    if (notRun.length > 0) ctx.log(`${why ?? 'a base-side gate closed'}; not run: ${notRun.join(', ')}`);
    const outputs = done(scheduled);
    if (!flow.record) await settle(applying, outputs);
    return { outputs, notRun: [], madeRuns: true };
  }
  if (flow.record) throw new Error('witness record has no gates and no shared baseline');
  const outputs: RunOutput[] = flow.baseline !== undefined ? [...flow.baseline] : [];
  const baseLabels = new Set(base.flatMap((phase) => phase.labels));
  const result = (notRun: PhaseName[]): PhaseRuns => ({ outputs, notRun, madeRuns: flow.shared === undefined && outputs.some((o) => !baseLabels.has(o.evidence.label)) });
  // With deferBase, a base phase runs only when the first candidate phase that needs it (directly or
  // through others) is due: a candidate stopped at its reproduction never pays for the base suite.
  const pending = new Set(flow.deferBase === true && flow.baseline === undefined && flow.earlyExit ? base : []);
  /** Make these base phases' runs (none with a shared baseline), then their gates; false when a gate closed. */
  const runBase = async (phases: readonly Phase<C>[]): Promise<boolean> => {
    for (const phase of phases) await phase.work?.(ctx);
    if (flow.baseline === undefined) outputs.push(...done(await ctx.schedule(plansOf(phases))));
    for (const phase of phases.filter((p) => p.gate !== undefined)) {
      const opened = phase.gate!(
        ctx,
        outputs.filter((o) => phase.labels.includes(o.evidence.label))
      );
      if (!opened.passed) {
        ctx.log(`${opened.why ?? `${phase.name} failed`}; the candidate's runs are not made`);
        return false;
      }
    }
    return true;
  };
  if (!(await runBase(base.filter((phase) => !pending.has(phase))))) return result([]);
  const candidateApplying = candidate.filter((phase) => applying.includes(phase));
  if (!flow.earlyExit) {
    for (const phase of candidateApplying) await phase.work?.(ctx);
    outputs.push(...done(await ctx.schedule(plansOf(candidateApplying))));
    await settle(candidateApplying, outputs);
    return result([]);
  }
  const notRun: PhaseName[] = [];
  const byName = new Map(ordered.map((phase) => [phase.name, phase]));
  const needsOf = (phase: Phase<C>, into = new Set<string>()): Set<string> => {
    for (const need of phase.needs) {
      if (into.has(need)) continue;
      into.add(need);
      const needed = byName.get(need);
      if (needed !== undefined) needsOf(needed, into);
    }
    return into;
  };
  let stopped = false;
  for (const [index, phase] of candidate.entries()) {
    if (pending.size > 0) {
      const needs = needsOf(phase);
      const due = base.filter((b) => pending.has(b) && needs.has(b.name));
      for (const b of due) pending.delete(b);
      if (due.length > 0 && !(await runBase(due))) return result([]);
    }
    if (!applying.includes(phase)) continue;
    const fromShared = (flow.shared ?? []).filter((o) => phase.labels.includes(o.evidence.label));
    if (fromShared.length > 0) {
      outputs.push(...fromShared);
    } else {
      await phase.work?.(ctx);
      const jobs = phase.plans?.(ctx) ?? [];
      if (jobs.length > 0) outputs.push(...done(await ctx.schedule(jobs)));
      await phase.settle?.(ctx, outputs);
    }
    const opened = phase.gate?.(ctx, outputs) ?? { passed: true };
    if (opened.passed) continue;
    // Every later phase's decision is not_run, save the one this phase decides (it failed).
    const later = [...new Set(candidate.slice(index + 1).flatMap((p) => (p.decides !== undefined && p.decides !== phase.decides ? [p.decides] : [])))];
    if (phase.decides === undefined) {
      ctx.log(`${opened.why ?? `${phase.name} failed`}; the candidate's runs are not made`);
    } else {
      if (opened.why !== undefined) ctx.log(opened.why);
      if (later.length > 0) ctx.log(`gate ${phase.decides} failed; not run: ${later.join(', ')}`);
    }
    notRun.push(...later);
    stopped = true;
    break;
  }
  // A candidate that passed every gate gets the whole base side (a phase no candidate phase needs runs last).
  if (!stopped && pending.size > 0 && !(await runBase([...pending]))) return result([]);
  return result(notRun);
}
