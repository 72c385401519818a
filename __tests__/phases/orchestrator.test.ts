import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, fixture } from '../helpers/cli.js';
import { witnessAdapter } from '../../src/adapters/registry.js';
import type { RegisteredAdapter as TestAdapter } from '../../src/adapters/registry.js';
import { approveProposal, createProposal } from '../../src/core/proposal.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { createLocalRunner } from '../../src/runners/local-runner.js';
import type { Runner, RunOutcome } from '../../src/runners/runner.js';
import { InfrastructureError } from '../../src/errors.js';
import { orderPhases } from '../../src/phases/dag.js';
import { runPhases } from '../../src/phases/run-phases.js';
import { validate } from '../../src/phases/orchestrator.js';
import { PHASES } from '../../src/phases/registry.js';
import type { OrchestratorContext, Phase } from '../../src/phases/phase.js';
import type { RunOutput, RunPlan } from '../../src/phases/types.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { resolveWitness } from '../../src/fetch/witness/fetch.js';
import { TOOL_VERSION } from '../../src/version.js';

/**
 * The orchestrator with fake phases, fake runners and fake adapters (the one place fakes are right):
 * the DAG's order and its refusals, the early exit, and that nothing but real passing results passes.
 */

type Ctx = OrchestratorContext & { scheduled: RunPlan[] };

function output(plan: RunPlan, passed: boolean): RunOutput {
  return {
    evidence: { label: plan.label, attempt: plan.attempt, exitCode: passed ? 0 : 1, timedOut: false, outputTruncated: false },
    record: { label: plan.label, attempt: plan.attempt } as RunOutput['record']
  };
}

function context(flow: Partial<Ctx['flow']>, fails: ReadonlySet<string> = new Set()): Ctx & { logs: string[] } {
  const logs: string[] = [];
  const scheduled: RunPlan[] = [];
  return {
    flow: { earlyExit: false, record: false, concurrency: 1, ...flow },
    logs,
    scheduled,
    log: (line) => logs.push(line),
    schedule: (jobs, gate) => {
      scheduled.push(...jobs);
      const results = jobs.map((job) => output(job, !fails.has(job.label)));
      const open = gate === undefined ? true : gate.open(results.filter((_, i) => gate.member(jobs[i]!)));
      return Promise.resolve(
        jobs.map((job, i) => (gate !== undefined && !open && gate.gated(job) ? { job, status: 'not_run' as const } : { job, status: 'done' as const, result: results[i]! }))
      );
    }
  };
}

/** A fake phase: one run of its label; its gate fails when that run failed. */
function phase(name: string, side: 'base' | 'candidate', needs: string[], decides?: 'reproduction_after' | 'regression' | 'hidden'): Phase<Ctx> {
  const label = (side === 'base' ? 'reproduction_before' : name) as RunPlan['label'];
  return {
    name,
    needs,
    side,
    ...(decides !== undefined ? { decides } : {}),
    labels: [label],
    plans: () => [{ label, attempt: 1, tree: side === 'base' ? 'base' : 'patched', tests: 'suite' }],
    gate: (_ctx, outputs) => (outputs.some((o) => o.evidence.label === label && o.evidence.exitCode !== 0) ? { passed: false, why: `${name} failed` } : { passed: true })
  };
}

const registry = (): Phase<Ctx>[] => [
  phase('hidden', 'candidate', ['regression_after'], 'hidden'),
  phase('regression_after', 'candidate', ['reproduction_after'], 'regression'),
  phase('reproduction_after', 'candidate', ['base']),
  phase('base', 'base', [])
];

describe('the run DAG', () => {
  it('orders phases after the phases they need, whatever the registry order', () => {
    expect(orderPhases(registry()).map((p) => p.name)).toEqual(['base', 'reproduction_after', 'regression_after', 'hidden']);
  });

  it('keeps the real registry in the order the receipt was always made in', () => {
    expect(orderPhases(PHASES).map((p) => p.name)).toEqual([
      'formal',
      'tamper',
      'reproduction_before',
      'regression_before',
      'build_base',
      'l0',
      'build',
      'reproduction_after',
      'related',
      'regression',
      'hidden',
      'claim'
    ]);
  });

  it('refuses a phase registered twice, a missing need, a cycle, and a base phase needing a candidate one', () => {
    expect(() => orderPhases([...registry(), phase('base', 'base', [])])).toThrow('phase base is registered twice');
    expect(() => orderPhases([phase('a', 'candidate', ['nobody'])])).toThrow('needs phase nobody, which is not registered');
    expect(() => orderPhases([phase('a', 'candidate', ['b']), phase('b', 'candidate', ['a'])])).toThrow('in a cycle');
    expect(() => orderPhases([phase('c', 'candidate', []), phase('b', 'base', ['c'])])).toThrow('base-side phase b may not need candidate-side phase c');
  });
});

describe('running the phases', () => {
  it('with gates, a failed gate records every later decision not_run, and makes none of their runs', async () => {
    const ctx = context({ earlyExit: true }, new Set(['reproduction_after']));
    const runs = await runPhases(orderPhases(registry()), ctx);
    expect(runs.notRun).toEqual(['regression', 'hidden']);
    expect(ctx.scheduled.map((p) => p.label)).toEqual(['reproduction_before', 'reproduction_after']);
    expect(runs.outputs.map((o) => o.evidence.label)).toEqual(['reproduction_before', 'reproduction_after']);
    expect(ctx.logs).toContain("reproduction_after failed; the candidate's runs are not made");
  });

  it('with gates, a phase that decides logs its gate and the phases it stops', async () => {
    const ctx = context({ earlyExit: true }, new Set(['regression_after']));
    const runs = await runPhases(orderPhases(registry()), ctx);
    expect(runs.notRun).toEqual(['hidden']);
    expect(ctx.logs).toEqual(['regression_after failed', 'gate regression failed; not run: hidden']);
  });

  it('a closed base gate makes no candidate run and passes nothing (every candidate run not_run)', async () => {
    const ctx = context({}, new Set(['reproduction_before']));
    const runs = await runPhases(orderPhases(registry()), ctx);
    expect(runs.outputs.map((o) => o.evidence.label)).toEqual(['reproduction_before']);
    expect(ctx.logs).toEqual(['base failed; not run: reproduction_after-1, regression_after-1, hidden-1']);
    const gated = context({ earlyExit: true }, new Set(['reproduction_before']));
    const stopped = await runPhases(orderPhases(registry()), gated);
    expect(gated.scheduled.map((p) => p.label)).toEqual(['reproduction_before']);
    expect(stopped.madeRuns).toBe(false);
  });

  it('a duplicate takes the shared runs by label and makes none of its own', async () => {
    const shared = [output({ label: 'reproduction_after', attempt: 1, tree: 'patched', tests: 'suite' }, true)];
    const ctx = context({ earlyExit: true, shared });
    const runs = await runPhases(orderPhases(registry()), ctx);
    expect(ctx.scheduled.map((p) => p.label)).toEqual(['reproduction_before', 'regression_after', 'hidden']);
    expect(runs.outputs).toContain(shared[0]);
    expect(runs.madeRuns).toBe(false);
  });
});

describe('the early exit runs the base suite after the candidate reproduction (deferBase)', () => {
  /** A phase of one run of `label`, whose gate (when `gated`) fails when that run failed. */
  const one = (name: string, side: 'base' | 'candidate', needs: string[], label: RunPlan['label'], gated: boolean, decides?: Phase<Ctx>['decides']): Phase<Ctx> => ({
    name,
    needs,
    side,
    ...(decides !== undefined ? { decides } : {}),
    labels: [label],
    plans: () => [{ label, attempt: 1, tree: side === 'base' ? 'base' : 'patched', tests: 'suite' }],
    ...(gated
      ? {
          gate: (_ctx: Ctx, outputs: readonly RunOutput[]) => (outputs.some((o) => o.evidence.label === label && o.evidence.exitCode !== 0) ? { passed: false } : { passed: true })
        }
      : {})
  });
  // The real registry's shape: the base reproduction gates the candidate, the base suite is its regression's baseline.
  const shaped = (): Phase<Ctx>[] => [
    one('reproduction_before', 'base', [], 'reproduction_before', true, 'reproduction_before'),
    one('regression_before', 'base', [], 'regression_before', false, 'regression'),
    one('reproduction_after', 'candidate', ['reproduction_before'], 'reproduction_after', true, 'reproduction_after'),
    one('regression', 'candidate', ['reproduction_after', 'regression_before'], 'regression_after', true, 'regression'),
    one('hidden', 'candidate', ['regression'], 'hidden', true, 'hidden')
  ];
  const labels = (ctx: Ctx): string[] => ctx.scheduled.map((p) => p.label);

  it('a candidate failing its reproduction never pays for the base suite; the decisions are the same', async () => {
    const deferred = context({ earlyExit: true, deferBase: true }, new Set(['reproduction_after']));
    const runs = await runPhases(orderPhases(shaped()), deferred);
    expect(labels(deferred)).toEqual(['reproduction_before', 'reproduction_after']);
    const before = context({ earlyExit: true }, new Set(['reproduction_after']));
    const old = await runPhases(orderPhases(shaped()), before);
    expect(labels(before)).toEqual(['reproduction_before', 'regression_before', 'reproduction_after']);
    expect([runs.notRun, old.notRun]).toEqual([
      ['regression', 'hidden'],
      ['regression', 'hidden']
    ]);
  });

  it('a candidate that passes its reproduction gets the base suite right before its own suite', async () => {
    const ctx = context({ earlyExit: true, deferBase: true });
    const runs = await runPhases(orderPhases(shaped()), ctx);
    expect(labels(ctx)).toEqual(['reproduction_before', 'reproduction_after', 'regression_before', 'regression_after', 'hidden']);
    expect(runs.notRun).toEqual([]);
  });

  it('the base reproduction still gates every candidate run', async () => {
    const ctx = context({ earlyExit: true, deferBase: true }, new Set(['reproduction_before']));
    const runs = await runPhases(orderPhases(shaped()), ctx);
    expect(labels(ctx)).toEqual(['reproduction_before']);
    expect(runs.madeRuns).toBe(false);
  });

  it('is off with a shared baseline (its runs are taken, none made) and without gates', async () => {
    const baseline = [
      output({ label: 'reproduction_before', attempt: 1, tree: 'base', tests: 'suite' }, false),
      output({ label: 'regression_before', attempt: 1, tree: 'base', tests: 'suite' }, true)
    ];
    // A failing base reproduction run is the established bug here: the fake gate reads exit codes, so pass it instead.
    const shared = context(
      { earlyExit: true, deferBase: true, baseline: [{ ...baseline[0]!, evidence: { ...baseline[0]!.evidence, exitCode: 0 } }, baseline[1]!] },
      new Set(['reproduction_after'])
    );
    await runPhases(orderPhases(shaped()), shared);
    expect(labels(shared)).toEqual(['reproduction_after']);
    const full = context({ deferBase: true }, new Set(['reproduction_after']));
    await runPhases(orderPhases(shaped()), full);
    expect(labels(full).sort()).toEqual(['hidden', 'regression_after', 'regression_before', 'reproduction_after', 'reproduction_before']);
  });
});

describe('validate with a fake runner and a fake adapter', () => {
  const js = fixture('js-duration');

  async function validateWith(fake: (runner: Runner, adapter: TestAdapter) => { runner: Runner; adapter: TestAdapter }) {
    const pack = join(ROOT, 'witness-packs', 'js-duration');
    const witness = await resolveWitness(pack, (await digestWitnessFolder(pack)).digest);
    try {
      const snapshot = await takeSnapshot(js.repo);
      const diff = await readFile(join(ROOT, 'fixtures', 'js-duration', 'screen-candidates', 'fix-string.diff'), 'utf8');
      const proposal = createProposal(diff, snapshot.digest, TOOL_VERSION);
      const approval = approveProposal(proposal, proposal.proposal_hash, 'orchestrator', 'reviewer', TOOL_VERSION);
      const { runner, adapter } = fake(createLocalRunner(), await witnessAdapter(witness.manifest, witness.dir));
      return await validate(
        {
          repoDir: js.repo,
          proposal,
          approval,
          witness,
          adapter,
          runner,
          limits: { timeoutMs: 60_000, outputLimitBytes: 4 * 1024 * 1024, diff: { maxBytes: 1024 * 1024, maxFiles: 200 } },
          concurrency: 1
        },
        { snapshot: takeSnapshot, now: () => new Date(), log: () => undefined, nonce: () => randomBytes(16).toString('hex') }
      );
    } finally {
      await witness.dispose();
    }
  }

  const silent: RunOutcome = {
    exitCode: 0,
    signal: null,
    timedOut: false,
    outputTruncated: false,
    output: '',
    stdout: '',
    outputBytes: 0,
    outputSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    durationMs: 1
  };

  it('a thrown infrastructure error is inconclusive, never failed and never passed', async () => {
    const receipt = await validateWith((runner, adapter) => ({
      runner: { ...runner, prestart: undefined, run: () => Promise.reject(new InfrastructureError('docker went away')) },
      adapter
    }));
    expect(receipt.verdict).toBe('inconclusive');
    expect(receipt.phases.every((p) => p.status !== 'passed')).toBe(true);
    expect(receipt.phases[0]!.runs[0]!.infra_error).toBe('docker went away');
  }, 120_000);

  it('zero tests and missing results never pass', async () => {
    const receipt = await validateWith((runner, adapter) => ({
      runner: { ...runner, prestart: undefined, run: () => Promise.resolve(silent) },
      adapter: { ...adapter, parse: () => ({ tests: [], problems: [], canary: { pass: 'missing', fail: 'missing' } }) }
    }));
    expect(receipt.verdict).not.toBe('passed');
    expect(receipt.phases.some((p) => p.status === 'passed')).toBe(false);
  }, 120_000);
});
