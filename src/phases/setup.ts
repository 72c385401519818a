import type { SetupRecord } from '../core/receipt-schema.js';
import type { Digest } from '../core/hashing.js';
import { InfrastructureError } from '../errors.js';
import type { Scratch } from './workspace.js';
import type { RunMount } from '../runners/runner.js';
import { readDependencyManifests, refusedSetupRecord, runSetupStage, type SetupStageResult } from './setup-stage.js';
import { dependencyRefusals } from '../core/dependency-policy.js';
import type { Tree, ValidationDeps, ValidationRequest } from './types.js';

/**
 * The dependency stage, when the pack has one: once for the base tree (its failure makes the
 * validation inconclusive), and once more for the candidate's tree when the candidate changed
 * dependency manifests and the pack allows it (install scripts off; its failure fails the candidate).
 */
export async function dependencyStage(
  request: ValidationRequest,
  deps: ValidationDeps,
  scratch: Scratch,
  trees: { base: string; patched: string; baseSnapshot: Digest; gradedSnapshot: Digest; candidateChangedDependencies: boolean; runnerPackages: readonly string[] }
): Promise<{ record?: SetupRecord; mounts: Record<Tree, RunMount[]> }> {
  const { manifest } = request.witness;
  const setup = manifest.setup;
  if (setup === undefined) return { mounts: { base: [], patched: [] } };
  const cacheDir = request.setupCacheDir ?? (await scratch.folder('setup-cache'));
  const stage = async (tree: Tree, treeDir: string, snapshot: Digest): Promise<SetupStageResult> =>
    runSetupStage({
      tree,
      treeDir,
      snapshot,
      witnessDigest: request.witness.digest,
      setup,
      runner: request.runner,
      execTmp: request.adapter.execTmp === true,
      outputLimitBytes: request.limits.outputLimitBytes,
      cacheDir,
      scratch,
      digestTree: async (dir) => (await deps.snapshot(dir)).digest,
      log: deps.log
    });
  const base = await stage('base', trees.base, trees.baseSnapshot);
  if (base.record.status !== 'ok') {
    throw new InfrastructureError(
      `the witness pack's dependency stage failed on the base tree (exit ${String(base.record.exit_code)}${base.record.timed_out ? ', timed out' : ''}); check setup.argv${manifest.setup?.network ? ' and that the registry is reachable' : ' (network is off unless setup.network is true)'}`
    );
  }
  const record: SetupRecord = { network: setup.network, outputs: [...setup.outputs], env: { ...setup.env }, base: base.record };
  if (!(trees.candidateChangedDependencies && manifest.allow.dependency_changes)) {
    return { record, mounts: { base: base.mounts, patched: base.mounts } };
  }
  // Allowed dependency changes still may not point at local code or another registry, nor touch
  // the test runner's own closure (src/core/dependency-policy.ts): such a stage never runs.
  const refused = dependencyRefusals(await readDependencyManifests(trees.base), await readDependencyManifests(trees.patched), trees.runnerPackages);
  if (refused.length > 0) {
    for (const line of refused) deps.log(`dependency stage (patched) refused: ${line}`);
    record.candidate = refusedSetupRecord(
      { snapshot: trees.gradedSnapshot, witnessDigest: request.witness.digest, setup, runner: request.runner, execTmp: request.adapter.execTmp === true },
      refused
    );
    return { record, mounts: { base: base.mounts, patched: base.mounts } };
  }
  // The key names the tree that is graded: the candidate's files after the surface reset.
  const candidate = await stage('patched', trees.patched, trees.gradedSnapshot);
  record.candidate = candidate.record;
  // A failed candidate stage fails the candidate; its tests still run, on the base's outputs.
  return { record, mounts: { base: base.mounts, patched: candidate.record.status === 'ok' ? candidate.mounts : base.mounts } };
}
