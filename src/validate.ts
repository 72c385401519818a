import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { HARNESS_DIR, RESERVED_DIR, type CanaryOutcome, type TestAdapter } from './adapters/adapter.js';
import { checkDiff, type DiffLimits } from './core/diff-policy.js';
import { applyFileChanges, checkTargets } from './core/patch-apply.js';
import type { Approval, Proposal } from './core/proposal.js';
import { sealReceipt } from './core/receipt.js';
import { setupReasons } from './core/receipt.js';
import type { Receipt, RunRecord, SetupRecord } from './core/receipt-schema.js';
import { diffSnapshots, snapshotDigest, type Snapshot, type SnapshotEntry } from './core/snapshot-record.js';
import { analyseSurface, resetPlan, surfaceReasons, topLevelModule } from './core/surface.js';
import type { ParsedResults } from './core/test-results.js';
import { judge, RUN_LABELS, type RunEvidence, type RunLabel, type RunsByLabel } from './core/verdict.js';
import type { Digest } from './core/hashing.js';
import { ConfigurationError, InfrastructureError, VerificationError } from './errors.js';
import { cloneTree, createScratch, listFiles, readResults, stageExternalTests, stageFiles, stageTree, writeChanges, type Scratch } from './io/workspace.js';
import type { RunMount, Runner } from './runners/runner.js';
import { runSetupStage, type SetupStageResult } from './setup-stage.js';
import type { WitnessManifest } from './witness/manifest.js';
import { TOOL_VERSION } from './version.js';

/**
 * One validation, end to end: bind, refuse early, reset the candidate's test surface, stage
 * disposable copies, run every phase (with canaries, repeats and retries), judge, re-check the real
 * checkout and seal the receipt.
 */

export interface ValidationLimits {
  /** Per-run wall-clock limit. */
  timeoutMs: number;
  /** Per-run combined output cap. */
  outputLimitBytes: number;
  diff: DiffLimits;
}

/** A verified witness pack, unpacked in a folder of its own. */
export interface WitnessInput {
  /** Folder holding witness.json and the test folders it names. */
  dir: string;
  digest: Digest;
  manifest: WitnessManifest;
  source: { kind: 'dir' | 'archive' | 'url' | 'folders'; location: string };
}

export interface ValidationRequest {
  repoDir: string;
  proposal: Proposal;
  approval: Approval;
  witness: WitnessInput;
  adapter: TestAdapter;
  runner: Runner;
  limits: ValidationLimits;
  /** How many runs go at once (the base and patched copies are independent). */
  concurrency: number;
  /** Where the dependency stage keeps its outputs between validations; absent: this validation only. */
  setupCacheDir?: string;
}

/** The side effects validate() needs, so tests can hand in their own. */
export interface ValidationDeps {
  snapshot(dir: string): Promise<Snapshot>;
  now(): Date;
  log(line: string): void;
  /** A fresh unpredictable nonce (lowercase hex, 32 characters or more) for each run's canaries. */
  nonce(): string;
}

/** Result files larger than this in total are not read (the run then has a problem, never a pass). */
const MAX_RESULT_BYTES = 64 * 1024 * 1024;

type Tree = 'base' | 'patched';

/** One run to make: which tree, which tests. */
interface RunPlan {
  label: RunLabel;
  attempt: number;
  tree: Tree;
  /** External tests (pack folder and placement), or the repository's own suite. */
  tests: { dir: string; placement: string } | 'suite';
}

interface Trees {
  dirs: Record<Tree, string>;
  suite: Record<Tree, string[]>;
  /** The dependency stage's outputs each tree's runs see, read-only. */
  mounts: Record<Tree, RunMount[]>;
  /** The pack's setup environment, given to every test run under the adapter's own. */
  env: Record<string, string>;
}

interface RunOutput {
  evidence: RunEvidence;
  record: RunRecord;
}

/** Snapshot entries of the patched tree, derived from the base entries and the changes. */
function patchedEntries(base: readonly SnapshotEntry[], changes: ReadonlyMap<string, Buffer | null>): SnapshotEntry[] {
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

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await fn(items[index] as T);
      }
    })
  );
  return out;
}

/** The suite files of a tree: the adapter's own discovery, narrowed by the pack's include/exclude globs. */
async function suiteFilesOf(dir: string, adapter: TestAdapter, manifest: WitnessManifest): Promise<string[]> {
  const all = await listFiles(dir);
  const include = manifest.regression.include;
  const included = include === undefined ? undefined : picomatch(include, { dot: true });
  const chosen = included === undefined ? adapter.suiteFiles(all) : all.filter((path) => included(path));
  const excluded = manifest.regression.exclude.length > 0 ? picomatch(manifest.regression.exclude, { dot: true }) : () => false;
  return chosen.filter((path) => !excluded(path) && !path.startsWith(`${RESERVED_DIR}/`));
}

function infraOutput(plan: RunPlan, nonce: string, argv: string[], error: unknown): RunOutput {
  const message = error instanceof InfrastructureError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
  return {
    evidence: { label: plan.label, attempt: plan.attempt, exitCode: null, timedOut: false, outputTruncated: false, infraError: message },
    record: {
      label: plan.label,
      attempt: plan.attempt,
      argv,
      exit_code: null,
      signal: null,
      timed_out: false,
      output_truncated: false,
      output_bytes: 0,
      output_sha256: createHash('sha256').digest('hex'),
      duration_ms: 0,
      problems: [],
      canary: { nonce, pass: 'missing', fail: 'missing' },
      infra_error: message
    }
  };
}

async function executeRun(plan: RunPlan, request: ValidationRequest, deps: ValidationDeps, scratch: Scratch, trees: Trees): Promise<RunOutput> {
  const { adapter, runner, limits } = request;
  const nonce = deps.nonce();
  let argv: string[] = [];
  try {
    const copy = await scratch.folder(`${plan.label}-${plan.attempt}-repo`);
    await cloneTree(trees.dirs[plan.tree], copy);
    await stageFiles(copy, Object.fromEntries(Object.entries(adapter.harness).map(([name, text]) => [`${HARNESS_DIR}/${name}`, text])));
    let files: string[];
    let testRoots: string[] = [];
    if (plan.tests === 'suite') {
      files = trees.suite[plan.tree];
    } else {
      const { dir, placement } = plan.tests;
      const staged = await stageExternalTests(copy, dir, placement);
      files = staged.filter((f) => adapter.isTestFile(f.slice(placement.length + 1)));
      testRoots = [placement];
    }
    const results = await scratch.folder(`${plan.label}-${plan.attempt}-results`);
    // The container's non-root uid must be able to write its results here, and nowhere else.
    await chmod(results, 0o777);
    const view = runner.view(copy, results);
    const canary = { nonce };
    const readFile = (path: string): string | undefined => {
      try {
        return readFileSync(join(copy, ...path.split('/')), 'utf8');
      } catch {
        return undefined;
      }
    };
    const command = adapter.command({ view, files, suite: plan.tests === 'suite', testRoots, canary, readFile });
    argv = command.argv;
    await stageFiles(copy, command.stage);
    const mounts = trees.mounts[plan.tree];
    // Mount points for the dependency outputs: a container cannot create them in its read-only copy.
    for (const mount of mounts) await mkdir(join(copy, ...mount.path.split('/')), { recursive: true });
    const outcome = await runner.run({
      hostWorkdir: copy,
      hostResultsDir: results,
      argv: command.argv,
      env: { ...trees.env, ...command.env },
      timeoutMs: limits.timeoutMs,
      outputLimitBytes: limits.outputLimitBytes,
      label: `${plan.label}-${plan.attempt}`,
      mounts,
      execTmp: adapter.execTmp === true,
      resultFiles: command.resultFiles
    });
    const read = await readResults(results, MAX_RESULT_BYTES, command.resultFiles);
    const parsed: ParsedResults & { canary: CanaryOutcome } = adapter.parse({ files: read.files, exitCode: outcome.exitCode, workdir: view.workdir, testRoots, canary, output: outcome.output });
    parsed.problems.push(...read.problems);
    const { canary: canaryOutcome, ...results_ } = parsed;
    return {
      evidence: {
        label: plan.label,
        attempt: plan.attempt,
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        outputTruncated: outcome.outputTruncated,
        parsed: results_,
        canary: canaryOutcome
      },
      record: {
        label: plan.label,
        attempt: plan.attempt,
        argv: command.argv,
        exit_code: outcome.exitCode,
        signal: outcome.signal,
        timed_out: outcome.timedOut,
        output_truncated: outcome.outputTruncated,
        output_bytes: outcome.outputBytes,
        output_sha256: outcome.outputSha256,
        duration_ms: Math.round(outcome.durationMs),
        problems: results_.problems,
        canary: { nonce, ...canaryOutcome },
        ...(results_.channel ? { channel: results_.channel } : {})
      }
    };
  } catch (error) {
    // Whatever stopped this run (Docker, the file system), it is never a pass and never the patch's fault.
    return infraOutput(plan, nonce, argv, error);
  }
}

function plansFor(manifest: WitnessManifest, witnessDir: string): RunPlan[] {
  const reproduction = { dir: join(witnessDir, ...manifest.reproduction.path.split('/')), placement: manifest.reproduction.placement };
  const hidden = { dir: join(witnessDir, ...manifest.hidden.path.split('/')), placement: manifest.hidden.placement };
  const repeat = (label: RunLabel, tree: Tree, tests: RunPlan['tests'], times: number): RunPlan[] =>
    Array.from({ length: times }, (_, i) => ({ label, attempt: i + 1, tree, tests }));
  return [
    ...repeat('reproduction_before', 'base', reproduction, manifest.reproduction.repeat),
    ...repeat('regression_before', 'base', 'suite', 1),
    ...repeat('reproduction_after', 'patched', reproduction, manifest.reproduction.repeat),
    ...repeat('regression_after', 'patched', 'suite', 1),
    ...repeat('hidden', 'patched', hidden, manifest.hidden.repeat)
  ];
}

/** PASS_TO_PASS ids that failed (not skipped, not absent) in the latest patched suite run. */
function failingPassToPass(before: RunEvidence | undefined, after: RunEvidence | undefined): string[] {
  const passed = new Set((before?.parsed?.tests ?? []).filter((t) => t.status === 'passed').map((t) => t.id));
  return (after?.parsed?.tests ?? []).filter((t) => passed.has(t.id) && (t.status === 'failed' || t.status === 'errored')).map((t) => t.id);
}

async function requireTests(dir: string, adapter: TestAdapter, what: string): Promise<void> {
  const files = await listFiles(dir).catch(() => [] as string[]);
  if (!files.some((f) => adapter.isTestFile(f))) {
    throw new ConfigurationError(`the witness pack's ${what} folder holds no test files the ${adapter.name} adapter runs; add tests to it`);
  }
}

/**
 * The dependency stage, when the pack has one: once for the base tree (its failure makes the
 * validation inconclusive), and once more for the candidate's tree when the candidate changed
 * dependency manifests and the pack allows it (install scripts off; its failure fails the candidate).
 */
async function dependencyStage(
  request: ValidationRequest,
  deps: ValidationDeps,
  scratch: Scratch,
  trees: { base: string; patched: string; baseSnapshot: Digest; gradedSnapshot: Digest; candidateChangedDependencies: boolean }
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
  // The key names the tree that is graded: the candidate's files after the surface reset.
  const candidate = await stage('patched', trees.patched, trees.gradedSnapshot);
  record.candidate = candidate.record;
  // A failed candidate stage fails the candidate; its tests still run, on the base's outputs.
  return { record, mounts: { base: base.mounts, patched: candidate.record.status === 'ok' ? candidate.mounts : base.mounts } };
}

/**
 * Validate an approved proposal. Refusals (bad binding, policy, a diff that does not apply, a pack
 * without tests) throw before any test runs; everything after that ends in a sealed receipt.
 */
export async function validate(request: ValidationRequest, deps: ValidationDeps): Promise<Receipt> {
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

  const scratch = await createScratch();
  try {
    const base = await scratch.folder('base');
    await stageTree(request.repoDir, before.entries, base);
    checkTargets(changes, new Map(before.entries.map((e) => [e.path, e.kind])));
    const tracked = new Set(before.entries.map((e) => e.path));
    const applied = applyFileChanges((path) => (tracked.has(path) ? readFileSync(join(base, ...path.split('/'))) : undefined), changes);
    const patchedSnapshot = snapshotDigest(patchedEntries(before.entries, applied));

    // Reset, don't only detect: the suite that judges the candidate is the base's.
    const findings = analyseSurface(changes, {
      ...adapter.surface,
      // The dependency outputs are the grader's too: a candidate's files there would be hidden by them.
      protected: [...manifest.protected, ...(manifest.setup?.outputs ?? []).flatMap((output) => [output, `${output}/**`])],
      placements: [manifest.reproduction.placement, manifest.hidden.placement],
      skipMarkers: adapter.skipMarkers,
      stagedModules: await stagedModuleNames(witness.dir, [manifest.reproduction.path, manifest.hidden.path])
    });
    const surface = surfaceReasons(findings, manifest.allow);
    const reset = resetPlan(findings, (path) => tracked.has(path));
    const resetPaths = new Set([...reset.restore, ...reset.remove]);
    const graded = new Map([...applied].filter(([path]) => !resetPaths.has(path)));
    const patched = await scratch.folder('patched');
    await cloneTree(base, patched);
    await writeChanges(patched, graded, new Map(before.entries.map((e) => [e.path, e.mode])));

    const setup = await dependencyStage(request, deps, scratch, {
      base,
      patched,
      baseSnapshot: before.digest,
      gradedSnapshot: snapshotDigest(patchedEntries(before.entries, graded)),
      candidateChangedDependencies: findings.some((f) => f.categories.includes('dependency'))
    });
    const trees: Trees = {
      dirs: { base, patched },
      suite: { base: await suiteFilesOf(base, adapter, manifest), patched: await suiteFilesOf(patched, adapter, manifest) },
      mounts: setup.mounts,
      env: { ...(manifest.setup?.env ?? {}) }
    };
    if (trees.suite.base.length === 0) {
      throw new ConfigurationError(`the repository has no test files the ${adapter.name} adapter runs as its suite; add tests or set regression.include in the witness pack`);
    }
    const plans = plansFor(manifest, witness.dir);
    deps.log(`base ${before.digest}, patched ${patchedSnapshot}; ${plans.length} runs on the ${request.runner.description.kind} runner`);
    const outputs = await mapLimit(plans, request.concurrency, (plan) => executeRun(plan, request, deps, scratch, trees));

    // A PASS_TO_PASS test failing after the patch is re-run: failing again is a regression.
    const regressionBefore = outputs.find((o) => o.evidence.label === 'regression_before');
    for (let attempt = 2; attempt <= manifest.regression.retries + 1; attempt++) {
      const latest = outputs.filter((o) => o.evidence.label === 'regression_after').at(-1);
      if (failingPassToPass(regressionBefore?.evidence, latest?.evidence).length === 0) break;
      outputs.push(await executeRun({ label: 'regression_after', attempt, tree: 'patched', tests: 'suite' }, request, deps, scratch, trees));
    }

    const byLabel = Object.fromEntries(RUN_LABELS.map((label) => [label, outputs.filter((o) => o.evidence.label === label)])) as Record<RunLabel, RunOutput[]>;
    const evidence = Object.fromEntries(RUN_LABELS.map((label) => [label, byLabel[label].map((o) => o.evidence)])) as RunsByLabel;
    const after = await deps.snapshot(request.repoDir);
    const unchanged = after.digest === before.digest;
    const delta = diffSnapshots(before, after);
    const judgement = judge(evidence, unchanged, {
      ...(manifest.reproduction.expected_failing ? { expectedFailing: manifest.reproduction.expected_failing } : {}),
      pinned: {
        ...(manifest.reproduction.ids ? { reproduction: manifest.reproduction.ids } : {}),
        ...(manifest.hidden.ids ? { hidden: manifest.hidden.ids } : {})
      },
      surfaceReasons: [...surface.reasons, ...setupReasons(setup.record)]
    });
    const recordsOf = (...labels: RunLabel[]): RunRecord[] => labels.flatMap((label) => byLabel[label].map((o) => o.record));
    const runsOf: Record<string, RunRecord[]> = {
      reproduction_before: recordsOf('reproduction_before'),
      reproduction_after: recordsOf('reproduction_after'),
      regression: recordsOf('regression_before', 'regression_after'),
      hidden: recordsOf('hidden')
    };
    const idsOf = (label: RunLabel): string[] => [...new Set(byLabel[label][0]?.evidence.parsed?.tests.map((t) => t.id) ?? [])].sort();
    const runner = request.runner.description;
    const allowed = (Object.keys(manifest.allow) as (keyof typeof manifest.allow)[]).filter((key) => manifest.allow[key]).sort();
    return sealReceipt({
      schema: 'patchproof.receipt/v1',
      tool_version: TOOL_VERSION,
      run_id: approval.run_id,
      started_at: startedAt.toISOString(),
      finished_at: deps.now().toISOString(),
      verdict: judgement.verdict,
      proof_grade: runner.isolated && judgement.verdict === 'passed' && unchanged,
      reasons: judgement.reasons,
      bindings: {
        proposal_hash: proposal.proposal_hash,
        approval_digest: approval.approval_digest,
        approved_by: approval.approved_by,
        diff_digest: proposal.diff_digest,
        base_snapshot: proposal.base_snapshot,
        patched_snapshot: patchedSnapshot,
        witness_digest: witness.digest
      },
      witness: {
        source: witness.source,
        adapter: manifest.adapter,
        reproduction_repeat: manifest.reproduction.repeat,
        hidden_repeat: manifest.hidden.repeat,
        regression_retries: manifest.regression.retries,
        ...(manifest.reproduction.expected_failing ? { expected_failing: [...manifest.reproduction.expected_failing] } : {}),
        ...(manifest.reproduction.ids || manifest.hidden.ids
          ? {
              pinned_ids: {
                ...(manifest.reproduction.ids ? { reproduction: [...manifest.reproduction.ids] } : {}),
                ...(manifest.hidden.ids ? { hidden: [...manifest.hidden.ids] } : {})
              }
            }
          : {}),
        protected: [...manifest.protected],
        allow: allowed
      },
      surface: { findings, reasons: surface.reasons, relaxed: surface.relaxed, restored: reset.restore, removed: reset.remove },
      inventory: {
        suite_files: { base: trees.suite.base, patched: trees.suite.patched },
        test_ids: {
          reproduction_before: idsOf('reproduction_before'),
          reproduction_after: idsOf('reproduction_after'),
          regression_before: idsOf('regression_before'),
          regression_after: idsOf('regression_after'),
          hidden: idsOf('hidden')
        }
      },
      repository: {
        snapshot_before: before.digest,
        snapshot_after: after.digest,
        unchanged,
        changed_paths: [...delta.added, ...delta.removed, ...delta.changed].sort()
      },
      runner: { ...runner, settings: [...runner.settings] },
      adapter: adapter.name,
      ...(setup.record !== undefined ? { setup: setup.record } : {}),
      limits: {
        timeout_ms: request.limits.timeoutMs,
        output_limit_bytes: request.limits.outputLimitBytes,
        diff_max_bytes: request.limits.diff.maxBytes,
        diff_max_files: request.limits.diff.maxFiles
      },
      phases: judgement.phases.map((p) => ({ ...p, runs: runsOf[p.name] ?? [] }))
    });
  } finally {
    await scratch.dispose();
  }
}

/** Top-level module names of every staged test file (reproduction and hidden), for shadowing checks. */
async function stagedModuleNames(witnessDir: string, folders: readonly string[]): Promise<string[]> {
  const names = new Set<string>();
  for (const folder of folders) {
    for (const file of await listFiles(join(witnessDir, ...folder.split('/')))) names.add(topLevelModule(file));
  }
  return [...names].sort();
}
