import { buildStatus, buildStops, withBuild } from '../core/build-gate.js';
import { runOutcomeText } from '../core/progress.js';
import { runBuild } from './build-stage.js';
import type { Phase, PhaseContext } from './phase.js';
import type { Tree } from './types.js';

/**
 * L1, the build gate, when the pack has one: the base tree's build is base-side work (made once,
 * before the base runs, shared with the next candidates); the candidate's comes after L0 and before
 * the reproduction, and with gates a build the candidate broke stops it.
 */

function builder(ctx: PhaseContext, argv: readonly string[]): (tree: Tree) => Promise<NonNullable<PhaseContext['state']['builds']['base']>> {
  const { request, trees, scratch, deps } = ctx;
  const manifest = request.witness.manifest;
  return async (tree) => {
    request.progress?.run({ kind: 'start', phase: 'build', tree, attempt: 1 });
    const record = await runBuild({
      tree,
      treeDir: trees.dirs[tree],
      argv: [...argv],
      runner: request.runner,
      scratch,
      mounts: trees.mounts[tree],
      env: trees.env,
      timeoutMs: (manifest.build?.timeout_seconds ?? request.limits.timeoutMs / 1000) * 1000,
      outputLimitBytes: request.limits.outputLimitBytes,
      execTmp: request.adapter.execTmp === true,
      log: deps.log
    });
    const outcome =
      record.exit_code === 0 && !record.timed_out && !record.output_truncated && record.infra_error === undefined
        ? 'built'
        : runOutcomeText({
            exitCode: record.exit_code,
            timedOut: record.timed_out,
            outputTruncated: record.output_truncated,
            ...(record.infra_error !== undefined ? { infraError: record.infra_error } : {}),
            statuses: []
          }).replace('no results', 'failed');
    request.progress?.run({ kind: 'end', phase: 'build', tree, attempt: 1, durationMs: record.duration_ms, outcome });
    return record;
  };
}

export const buildBase: Phase = {
  name: 'build_base',
  needs: [],
  side: 'base',
  labels: [],
  // eslint-disable-next-line @typescript-eslint/require-await -- Phase hooks return a Promise; async keeps a throw a rejection, as callers expect
  planned: async (ctx) => {
    // Not in witness record, which grades nothing.
    const argv = ctx.flow.record ? undefined : ctx.request.witness.manifest.build?.argv;
    if (argv !== undefined) ctx.state.builds = { argv, run: builder(ctx, argv) };
  },
  applies: (ctx) => ctx.state.builds.run !== undefined,
  work: async (ctx) => {
    // A baseline made without the build (another pack would have another digest) is not reused for it.
    ctx.state.builds.base = ctx.request.baseline?.build ?? (await ctx.state.builds.run!('base'));
  }
};

export const build: Phase = {
  name: 'build',
  needs: ['l0', 'build_base'],
  side: 'candidate',
  labels: [],
  applies: (ctx) => ctx.state.builds.run !== undefined,
  work: async (ctx) => {
    ctx.state.builds.candidate = await ctx.state.builds.run!('patched');
  },
  gate: (ctx) => {
    const { base, candidate } = ctx.state.builds;
    return base !== undefined && buildStops({ status: buildStatus(base, candidate) }) ? { passed: false, why: 'L1 build gate failed' } : { passed: true };
  },
  // Without gates the build is recorded and judged, and every phase still runs: a build that did
  // not pass keeps the candidate from passing, a build it broke fails it.
  // eslint-disable-next-line @typescript-eslint/require-await -- Phase hooks return a Promise; async keeps a throw a rejection, as callers expect
  conclude: async (ctx, decided) => {
    const { argv, base, candidate } = ctx.state.builds;
    if (argv === undefined || base === undefined) return decided;
    ctx.state.build = { argv: [...argv], status: buildStatus(base, candidate), base, ...(candidate !== undefined ? { candidate } : {}) };
    return withBuild(decided, ctx.state.build);
  }
};
