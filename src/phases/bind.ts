import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDiff, type FileChange } from '../core/diff-policy.js';
import { applyFileChanges, checkTargets } from '../core/patch-apply.js';
import { snapshotDigest, type Snapshot, type SnapshotEntry } from '../core/snapshot-record.js';
import { analyseSurface, defaultProtected, resetPlan, surfaceReasons, type SurfaceFinding } from '../core/surface.js';
import type { OracleFile } from '../core/oracle.js';
import type { Digest } from '../core/hashing.js';
import type { SetupRecord } from '../core/receipt-schema.js';
import { ConfigurationError, VerificationError } from '../errors.js';
import { cloneTree, stageTree, writeChanges, type Scratch } from './workspace.js';
import { baseLoadedSurface } from '../inventory/surface/base-tree.js';
import { inSourceTestFindings } from '../inventory/surface/in-source-tests.js';
import { dependencyStage } from './setup.js';
import { suiteShare } from '../core/suite-share.js';
import { readOracle, requireTests, stagedModuleNames, suiteFilesOf } from './suite.js';
import type { Trees, ValidationDeps, ValidationRequest } from './types.js';

/**
 * Binding and staging: the checks that refuse before anything runs (approval, adapter, diff policy,
 * snapshot, the pack's tests and oracle), then the disposable base and patched trees with the
 * candidate's test surface reset to the base, and the dependency stage.
 */

/** What binding established. */
export interface Binding {
  changes: FileChange[];
  startedAt: Date;
  before: Snapshot;
  oracle?: OracleFile;
}

/** Refuse a validation that must not run: every check before anything is copied. */
export async function bind(request: ValidationRequest, deps: ValidationDeps): Promise<Binding> {
  const { proposal, approval, witness, adapter } = request;
  const manifest = witness.manifest;
  if (approval.proposal_hash !== proposal.proposal_hash) {
    throw new VerificationError('approval_mismatch', 'the approval is for another proposal; approve this proposal_hash');
  }
  if (manifest.adapter !== adapter.name) {
    throw new ConfigurationError(`the witness pack is for the ${manifest.adapter} adapter, not ${adapter.name}; use --adapter ${manifest.adapter}`);
  }
  const changes = checkDiff(proposal.diff, request.limits.diff);
  const startedAt = deps.now();
  const before = await deps.snapshot(request.repoDir);
  if (before.digest !== proposal.base_snapshot) {
    throw new VerificationError(
      'snapshot_mismatch',
      `the repository's snapshot ${before.digest} is not the proposal's base ${proposal.base_snapshot}; check out the base the diff was proposed for`
    );
  }
  await requireTests(join(witness.dir, ...manifest.reproduction.path.split('/')), adapter, 'reproduction');
  await requireTests(join(witness.dir, ...manifest.hidden.path.split('/')), adapter, 'hidden');
  const oracle = readOracle(witness);
  if ((oracle?.pending ?? []).length > 0 && request.recordObservations === undefined) {
    // An observation with no expectation checks nothing: such a pack cannot grade.
    throw new ConfigurationError(
      `the witness pack's oracle has ${oracle!.pending!.length} site(s) whose expected values are not recorded yet; run 'patchproof witness record PACK --reference DIFF' with the reference fix`
    );
  }
  return { changes, startedAt, before, ...(oracle !== undefined ? { oracle } : {}) };
}

/** The staged trees, before the dependency stage. */
export interface Staged {
  base: string;
  patched: string;
  tracked: ReadonlySet<string>;
  applied: Map<string, Buffer | null>;
  graded: Map<string, Buffer | null>;
  patchedSnapshot: Digest;
  findings: SurfaceFinding[];
  surface: ReturnType<typeof surfaceReasons>;
  reset: ReturnType<typeof resetPlan>;
  /** The test runner's own packages, as the base tree loads them. */
  runnerPackages: readonly string[];
}

/** Stage the base tree and the graded patched tree (the candidate's test surface reset to the base's). */
export async function stageTrees(request: ValidationRequest, deps: ValidationDeps, scratch: Scratch, binding: Binding): Promise<Staged> {
  const { witness, adapter } = request;
  const manifest = witness.manifest;
  const { changes, before } = binding;
  const base = await scratch.folder('base');
  await stageTree(request.repoDir, before.entries, base);
  checkTargets(changes, new Map(before.entries.map((e) => [e.path, e.kind])));
  const tracked = new Set(before.entries.map((e) => e.path));
  const applied = applyFileChanges((path) => (tracked.has(path) ? readFileSync(join(base, ...path.split('/'))) : undefined), changes);
  const patchedSnapshot = snapshotDigest(patchedEntries(before.entries, applied));

  // Reset, don't only detect: the suite that judges the candidate is the base's.
  const loaded = baseLoadedSurface(
    adapter,
    base,
    before.entries,
    deps.log,
    changes.map((c) => c.path)
  );
  const pathFindings = analyseSurface(changes, {
    ...adapter.surface,
    // The dependency outputs are the grader's too: a candidate's files there would be hidden by them.
    protected: [
      ...manifest.protected,
      ...defaultProtected(manifest.allow.workflow_edits, witness.repoPath),
      ...(manifest.setup?.outputs ?? []).flatMap((output) => [output, `${output}/**`])
    ],
    placements: [manifest.reproduction.placement, manifest.hidden.placement],
    skipMarkers: adapter.skipMarkers,
    stagedModules: await stagedModuleNames(witness.dir, [manifest.reproduction.path, manifest.hidden.path]),
    loaded: loaded.paths
  });
  // Unit tests in the code's own files (cargo's src/): compared item by item, reported, never reset.
  const inSource = inSourceTestFindings(
    adapter,
    base,
    before.entries.filter((e) => e.kind === 'file').map((e) => e.path),
    changes,
    applied,
    pathFindings,
    manifest.allow,
    adapter.skipMarkers
  );
  for (const note of inSource.notes) deps.log(note);
  const findings = [...pathFindings, ...inSource.findings].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const surface = surfaceReasons(findings, manifest.allow);
  const reset = resetPlan(
    findings.filter((f) => !inSource.paths.has(f.path)),
    (path) => tracked.has(path)
  );
  const resetPaths = new Set([...reset.restore, ...reset.remove]);
  const graded = new Map([...applied].filter(([path]) => !resetPaths.has(path)));
  const patched = await scratch.folder('patched');
  await cloneTree(base, patched);
  await writeChanges(patched, graded, new Map(before.entries.map((e) => [e.path, e.mode])));
  return { base, patched, tracked, applied, graded, patchedSnapshot, findings, surface, reset, runnerPackages: loaded.packages };
}

/** The dependency stage and the trees every run sees; refuses a repository without a suite. */
export async function prepareTrees(
  request: ValidationRequest,
  deps: ValidationDeps,
  scratch: Scratch,
  binding: Binding,
  staged: Staged
): Promise<{ trees: Trees; setup: { record?: SetupRecord } }> {
  const { adapter } = request;
  const manifest = request.witness.manifest;
  const { before } = binding;
  const { base, patched, graded, findings } = staged;
  const { oracle } = binding;
  const setup = await dependencyStage(request, deps, scratch, {
    base,
    patched,
    baseSnapshot: before.digest,
    gradedSnapshot: snapshotDigest(patchedEntries(before.entries, graded)),
    candidateChangedDependencies: findings.some((f) => f.categories.includes('dependency')),
    runnerPackages: staged.runnerPackages
  });
  const trees: Trees = {
    dirs: { base, patched },
    suite: { base: await suiteFilesOf(base, adapter, manifest), patched: await suiteFilesOf(patched, adapter, manifest) },
    mounts: setup.mounts,
    env: { ...(manifest.setup?.env ?? {}) },
    ...(manifest.env !== undefined ? { testEnv: { ...manifest.env } } : {}),
    ...(oracle !== undefined ? { oracle } : {})
  };
  if (trees.suite.base.length === 0) {
    throw new ConfigurationError(`the repository has no test files the ${adapter.name} adapter runs as its suite; add tests or set regression.include in the witness pack`);
  }
  // --shard K/N: this validation's share of the suite; the whole suite goes into the receipt's shard record.
  if (request.shard !== undefined) {
    const { index, count } = request.shard;
    const whole = trees.suite;
    trees.wholeSuite = whole;
    trees.suite = suiteShare(whole, index, count);
    if (trees.suite.base.length === 0) {
      throw new ConfigurationError(`--shard ${index}/${count}: this share of the suite holds none of its ${whole.base.length} base test files; use a smaller N`);
    }
    deps.log(`shard ${index}/${count}: ${trees.suite.base.length} of ${whole.base.length} suite files`);
  }
  return { trees, setup };
}

/** Snapshot entries of the patched tree, derived from the base entries and the changes. */
export function patchedEntries(base: readonly SnapshotEntry[], changes: ReadonlyMap<string, Buffer | null>): SnapshotEntry[] {
  const byPath = new Map(base.map((e) => [e.path, e]));
  for (const [path, content] of changes) {
    if (content === null) {
      byPath.delete(path);
    } else {
      const mode = byPath.get(path)?.mode ?? '100644';
      byPath.set(path, { path, kind: 'file', mode, sha256: createHash('sha256').update(content).digest('hex'), size: content.length });
    }
  }
  return [...byPath.values()];
}
