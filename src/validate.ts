import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { HARNESS_DIR, RESERVED_DIR, type TestAdapter } from './adapters/adapter.js';
import { checkDiff, type DiffLimits } from './core/diff-policy.js';
import { applyFileChanges, checkTargets } from './core/patch-apply.js';
import type { Approval, Proposal } from './core/proposal.js';
import { sealReceipt } from './core/receipt.js';
import type { Receipt, RunRecord } from './core/receipt-schema.js';
import { diffSnapshots, snapshotDigest, type Snapshot, type SnapshotEntry } from './core/snapshot-record.js';
import { judge, type RunEvidence, type RunLabel } from './core/verdict.js';
import { ConfigurationError, InfrastructureError, VerificationError } from './errors.js';
import { cloneTree, createScratch, readResults, stageExternalTests, stageHarness, stageTree, writeChanges, type Scratch } from './io/workspace.js';
import type { Runner } from './runners/runner.js';
import { TOOL_VERSION } from './version.js';

/**
 * One validation, end to end: bind, refuse early, stage disposable copies, run the five test runs,
 * judge, re-check the real checkout and seal the receipt.
 */

export interface ValidationLimits {
  /** Per-run wall-clock limit. */
  timeoutMs: number;
  /** Per-run combined output cap. */
  outputLimitBytes: number;
  diff: DiffLimits;
}

export interface ValidationRequest {
  repoDir: string;
  proposal: Proposal;
  approval: Approval;
  reproductionDir: string;
  hiddenDir: string;
  adapter: TestAdapter;
  runner: Runner;
  limits: ValidationLimits;
  /** How many runs go at once (the base and patched copies are independent). */
  concurrency: number;
}

/** The side effects validate() needs, so tests can hand in their own. */
export interface ValidationDeps {
  snapshot(dir: string): Promise<Snapshot>;
  now(): Date;
  log(line: string): void;
}

const PLACEMENT = { reproduction: `${RESERVED_DIR}/reproduction`, hidden: `${RESERVED_DIR}/hidden` } as const;
/** Result files larger than this in total are not read (the run then has a problem, never a pass). */
const MAX_RESULT_BYTES = 64 * 1024 * 1024;

interface RunPlan {
  label: RunLabel;
  tree: 'base' | 'patched';
  tests?: { dir: string; placement: string };
}

const PLAN: readonly RunPlan[] = [
  { label: 'reproduction_before', tree: 'base', tests: { dir: 'reproduction', placement: PLACEMENT.reproduction } },
  { label: 'reproduction_after', tree: 'patched', tests: { dir: 'reproduction', placement: PLACEMENT.reproduction } },
  { label: 'regression_before', tree: 'base' },
  { label: 'regression_after', tree: 'patched' },
  { label: 'hidden', tree: 'patched', tests: { dir: 'hidden', placement: PLACEMENT.hidden } }
];

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

async function executeRun(
  plan: RunPlan,
  request: ValidationRequest,
  scratch: Scratch,
  trees: { base: string; patched: string },
  testDirs: { reproduction: string; hidden: string }
): Promise<{ evidence: RunEvidence; record: RunRecord }> {
  const { adapter, runner, limits } = request;
  let argv: string[] = [];
  try {
    const copy = await scratch.folder(`${plan.label}-repo`);
    await cloneTree(trees[plan.tree], copy);
    await stageHarness(copy, HARNESS_DIR, adapter.harness);
    let files: string[] | undefined;
    if (plan.tests) {
      const staged = await stageExternalTests(copy, testDirs[plan.tests.dir as 'reproduction' | 'hidden'], plan.tests.placement);
      files = staged.filter((f) => adapter.isTestFile(f.slice(plan.tests!.placement.length + 1)));
    }
    const results = await scratch.folder(`${plan.label}-results`);
    // The container's non-root uid must be able to write its results here, and nowhere else.
    await chmod(results, 0o777);
    const view = runner.view(copy, results);
    const command = adapter.command({ view, ...(files ? { files, testRoot: plan.tests!.placement } : {}) });
    argv = command.argv;
    const outcome = await runner.run({
      hostWorkdir: copy,
      hostResultsDir: results,
      argv: command.argv,
      env: command.env,
      timeoutMs: limits.timeoutMs,
      outputLimitBytes: limits.outputLimitBytes,
      label: plan.label
    });
    const read = await readResults(results, MAX_RESULT_BYTES);
    const parsed = adapter.parse({
      files: read.files,
      exitCode: outcome.exitCode,
      workdir: view.workdir,
      testRoots: plan.tests ? [plan.tests.placement] : []
    });
    parsed.problems.push(...read.problems);
    const record: RunRecord = {
      label: plan.label,
      argv: command.argv,
      exit_code: outcome.exitCode,
      signal: outcome.signal,
      timed_out: outcome.timedOut,
      output_truncated: outcome.outputTruncated,
      output_bytes: outcome.outputBytes,
      output_sha256: outcome.outputSha256,
      duration_ms: Math.round(outcome.durationMs),
      problems: parsed.problems
    };
    const evidence: RunEvidence = { label: plan.label, exitCode: outcome.exitCode, timedOut: outcome.timedOut, outputTruncated: outcome.outputTruncated, parsed };
    return { evidence, record };
  } catch (error) {
    // Whatever stopped this run (Docker, the file system), it is never a pass and never the patch's fault.
    const message = error instanceof InfrastructureError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
    return {
      evidence: { label: plan.label, exitCode: null, timedOut: false, outputTruncated: false, infraError: message },
      record: {
        label: plan.label,
        argv,
        exit_code: null,
        signal: null,
        timed_out: false,
        output_truncated: false,
        output_bytes: 0,
        output_sha256: createHash('sha256').digest('hex'),
        duration_ms: 0,
        problems: [],
        infra_error: message
      }
    };
  }
}

/**
 * Validate an approved proposal. Refusals (bad binding, policy, a diff that does not apply) throw
 * before any test runs; everything after that ends in a sealed receipt.
 */
export async function validate(request: ValidationRequest, deps: ValidationDeps): Promise<Receipt> {
  const { proposal, approval } = request;
  if (approval.proposal_hash !== proposal.proposal_hash) {
    throw new VerificationError('approval_mismatch', 'the approval is for another proposal; approve this proposal_hash');
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
  const [reproductionSnap, hiddenSnap] = await Promise.all([deps.snapshot(request.reproductionDir), deps.snapshot(request.hiddenDir)]);
  for (const [flag, snap] of [['--reproduction', reproductionSnap], ['--hidden', hiddenSnap]] as const) {
    if (!snap.entries.some((e) => e.kind === 'file' && request.adapter.isTestFile(e.path))) {
      throw new ConfigurationError(`${flag} holds no test files the ${request.adapter.name} adapter runs; give the folder of external tests`);
    }
  }
  const scratch = await createScratch();
  try {
    const base = await scratch.folder('base');
    await stageTree(request.repoDir, before.entries, base);
    checkTargets(changes, new Map(before.entries.map((e) => [e.path, e.kind])));
    const tracked = new Set(before.entries.map((e) => e.path));
    const applied = applyFileChanges((path) => (tracked.has(path) ? readFileSync(join(base, ...path.split('/'))) : undefined), changes);
    const patched = await scratch.folder('patched');
    await cloneTree(base, patched);
    await writeChanges(patched, applied, new Map(before.entries.map((e) => [e.path, e.mode])));
    const patchedSnapshot = snapshotDigest(patchedEntries(before.entries, applied));
    deps.log(`base ${before.digest}, patched ${patchedSnapshot}; running ${PLAN.length} runs on the ${request.runner.description.kind} runner`);

    const testDirs = { reproduction: request.reproductionDir, hidden: request.hiddenDir };
    const outcomes = await mapLimit(PLAN, request.concurrency, (plan) => executeRun(plan, request, scratch, { base, patched }, testDirs));
    const evidence = Object.fromEntries(outcomes.map((o) => [o.evidence.label, o.evidence])) as Record<RunLabel, RunEvidence>;
    const records = Object.fromEntries(outcomes.map((o) => [o.record.label, o.record])) as Record<RunLabel, RunRecord>;

    const after = await deps.snapshot(request.repoDir);
    const unchanged = after.digest === before.digest;
    const delta = diffSnapshots(before, after);
    const judgement = judge(evidence, unchanged);
    const runsOf: Record<string, RunRecord[]> = {
      reproduction_before: [records.reproduction_before],
      reproduction_after: [records.reproduction_after],
      regression: [records.regression_before, records.regression_after],
      hidden: [records.hidden]
    };
    const runner = request.runner.description;
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
        reproduction_digest: reproductionSnap.digest,
        hidden_digest: hiddenSnap.digest
      },
      repository: {
        snapshot_before: before.digest,
        snapshot_after: after.digest,
        unchanged,
        changed_paths: [...delta.added, ...delta.removed, ...delta.changed].sort()
      },
      runner: { ...runner, settings: [...runner.settings] },
      adapter: request.adapter.name,
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
