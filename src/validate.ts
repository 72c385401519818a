import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { takeTwins } from './adapters/twin-stage.js';
import { HARNESS_DIR, RESERVED_DIR, type CanaryOutcome, type TestAdapter } from './adapters/adapter.js';
import { checkDiff, type DiffLimits } from './core/diff-policy.js';
import { applyFileChanges, checkTargets } from './core/patch-apply.js';
import type { Approval, Proposal } from './core/proposal.js';
import { sealReceipt } from './core/receipt.js';
import { setupReasons } from './core/receipt.js';
import { RECEIPT_SCHEMA, type Receipt, type ReceiptBody, type RunRecord, type SetupRecord } from './core/receipt-schema.js';
import { deriveHiddenIdKey, hiddenId, redactHidden, type HiddenDetail } from './core/hidden-ids.js';
import { compareClaim, type ParsedClaim } from './core/claim.js';
import { diffSnapshots, snapshotDigest, type Snapshot, type SnapshotEntry } from './core/snapshot-record.js';
import { analyseSurface, defaultProtected, resetPlan, surfaceReasons, topLevelModule } from './core/surface.js';
import { errorExcerpt, excerptSha256 } from './core/base-failure.js';
import type { ParsedResults } from './core/test-results.js';
import { judge, judgeRegression, judgeRelatedTier, judgeReproductionAfter, patchedRunsNeeded, RELATED_LABEL, RUN_LABELS, type PhaseName, type RecordLabel, type RunEvidence, type RunLabel, type RunsByLabel } from './core/verdict.js';
import { jsImportGraph, planRelatedTier, type RelatedTierPlan } from './core/related-tests.js';
import { pythonImportGraph } from './adapters/python-imports.js';
import { baselineDigest, gateReasons } from './core/receipt.js';
import { changedLines, l0Failed, l0Findings, type L0Finding } from './core/l0-gates.js';
import { normalisedKey } from './core/normalise.js';
import { changedPublicInterfaces } from './core/public-interfaces.js';
import type { Digest } from './core/hashing.js';
import { ConfigurationError, InfrastructureError, VerificationError } from './errors.js';
import { cloneTree, createScratch, listFiles, readResults, stageExternalTests, stageFiles, stageTree, writeChanges, type Scratch } from './io/workspace.js';
import { outcomeRecordFields, type RunMount, type RunRequest, type Runner } from './runners/runner.js';
import { readDependencyManifests, refusedSetupRecord, runSetupStage, type SetupStageResult } from './setup-stage.js';
import { dependencyRefusals } from './core/dependency-policy.js';
import { baseLoadedSurface } from './surface/base-tree.js';
import { inSourceTestFindings } from './surface/in-source-tests.js';
import type { WitnessManifest } from './witness/manifest.js';
import { judgeObservations, mergeOracles, parseObservations, parseOracleFile, phaseIsSealed, sealedTestResults, type Observation, type OracleFile, type OraclePhase } from './core/oracle.js';
import { observerFiles } from './oracle/observer.js';
import type { GradingModel } from './core/verdict.js';
import { TOOL_VERSION } from './version.js';
import { scheduleRuns, type RunProgress } from './run-scheduler.js';
import { runOutcomeText, type ProgressSink } from './core/progress.js';
import { withFormal, type FormalRecord } from './core/formal.js';
import { checkFormalSpecs, formalRecordFor } from './formal/run.js';
import { buildStatus, buildStops, withBuild, type BuildRecord, type BuildRunRecord } from './core/build-gate.js';
import { runBuild } from './build-stage.js';
import { suiteShare } from './core/suite-share.js';
import { replayCounterexamples } from './formal/replay-run.js';

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
  /** Where the pack lives in the repository under validation (path and ref packs): protected by default. */
  repoPath?: string;
  /**
   * The witness key (an age identity) when the pack's hidden part was encrypted: hidden test ids are
   * keyed with a key derived from it (src/core/hidden-ids.ts). Absent: a plain pack.
   */
  witnessKey?: string;
  /**
   * A sealed pack's oracle half for the hidden phase, restored from hidden.age in memory (the plain
   * oracle file then holds the reproduction's half only). Absent: a plain pack.
   */
  hiddenOracle?: OracleFile;
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
  /** How many runs are staged (copied, harness and tests in place) beyond those running; default DEFAULT_PREPARE_AHEAD. */
  prepareAhead?: number;
  /** Where the dependency stage keeps its outputs between validations; absent: this validation only. */
  setupCacheDir?: string;
  /**
   * Encrypts the hidden detail for maintainers (hidden-detail.age); its SHA-256 is bound in the
   * receipt. Absent: the detail is not kept (a plain pack has nothing secret to keep it for).
   */
  encryptHiddenDetail?: (detail: HiddenDetail) => Promise<Uint8Array>;
  /**
   * `witness record --reference`: told every observing run's observations. Only the patched tree's
   * reproduction and hidden runs are made, each at least twice, and a pack with pending sites is
   * accepted (it is refused otherwise). The receipt of such a validation is not used.
   */
  recordObservations?: (run: RecordedRun) => void;
  /**
   * The agent's claim (`--claimed`), parsed, and the SHA-256 digest of its bytes: compared with the
   * clean room into the receipt's `claim` after the verdict was decided (src/core/claim.ts).
   */
  claim?: { parsed: ParsedClaim; digest: string };
  /**
   * Gates in cost order with early exit (`screen`, `validate --early-exit`): the L0 policy gate,
   * then the reproduction after, the patched suite and the hidden tests, one stage after another;
   * the first that fails stops the candidate and the phases after it are `not_run`.
   */
  earlyExit?: boolean;
  /** The base-side runs, made once for several candidates (`screen`): they are not made again. */
  baseline?: SharedBaseline;
  /** Record the baseline as shared (the candidate that made it, in a screening). */
  baselineShared?: boolean;
  /**
   * `--baseline-cache`: record the receipt's `baseline` (its digest) even without gates, and, when
   * `baseline` came from the cache, the entry's content address (`baseline.cache.entry`).
   */
  baselineCache?: { entry?: Digest };
  /**
   * A duplicate's runs (`screen`, with earlyExit): the candidate-side runs of another candidate
   * whose changed files normalise to the same key. Refused unless this candidate's key is the same.
   */
  sharedRuns?: SharedRuns;
  /** Told when each container run starts and ends (progress lines on stderr, log groups in the action). */
  progress?: ProgressSink;
  /**
   * `validate --shard K/N`: run only the K-th of N shares of the regression suite (by file,
   * src/core/suite-share.ts); every other phase runs in full. Never with gates, a baseline or a claim.
   */
  shard?: { index: number; count: number };
}

/** The base-side runs of one validation, for the next candidates on the same base (opaque). */
export interface SharedBaseline {
  baseSnapshot: Digest;
  witnessDigest: Digest;
  outputs: readonly RunOutput[];
  /** The base tree's build (L1), when the pack has one. */
  build?: BuildRunRecord;
}

/** The candidate-side runs of one validation, for its duplicates (opaque). */
export interface SharedRuns {
  diffDigest: string;
  patchedSnapshot: Digest;
  normalisedKey: Digest;
  outputs: readonly RunOutput[];
}

/** What validateWithDetail returns in record mode; recordRuns() hides it, nobody else sees it. */
const RECORDED = Object.freeze({ receipt: undefined }) as unknown as ValidationResult;

/**
 * `witness record --reference`: make the patched tree's observing runs (each phase at least twice)
 * and hand every run's observations to `recordObservations`. Nothing is judged and no receipt made.
 */
export async function recordRuns(request: ValidationRequest & { recordObservations: (run: RecordedRun) => void }, deps: ValidationDeps): Promise<void> {
  await validateWithDetail(request, deps);
}

/** One observing run of `witness record`: its phase, attempt and what it observed. */
export interface RecordedRun {
  phase: OraclePhase;
  attempt: number;
  observations: Observation[];
  malformed: string[];
  /** Why the run produced no usable output (Docker, a timeout, a truncated output), if it did not. */
  problem?: string;
}

/** A sealed receipt, and the encrypted hidden detail when one was made. */
export interface ValidationResult {
  receipt: Receipt;
  hiddenDetail?: Uint8Array;
  /** The base-side runs this validation used (made or shared). */
  baseline?: SharedBaseline;
  /** The candidate-side runs it made, for duplicates; absent when none ran. */
  runs?: SharedRuns;
  /** The key of its changed files (src/core/normalise.ts). */
  normalisedKey?: Digest;
  /** The paths the proposal's diff changes, as checkDiff read them (the CLI's receipt store needs them). */
  changedPaths?: string[];
}

/** Why the base tree could not be graded: one base run's excerpt, as its record's digest covers it. */
export interface BaseFailure {
  label: RecordLabel;
  attempt: number;
  excerpt: string;
  sha256: string;
}

/** The side effects validate() needs, so tests can hand in their own. */
export interface ValidationDeps {
  snapshot(dir: string): Promise<Snapshot>;
  now(): Date;
  log(line: string): void;
  /** Told, when the grader cannot run on the base tree, the first base run's error excerpt. */
  baseFailure?(failure: BaseFailure): void;
  /** A fresh unpredictable nonce (lowercase hex, 32 characters or more) for each run's canaries. */
  nonce(): string;
}

/**
 * Runs staged ahead of those running: one, so the next container starts as soon as a slot frees,
 * without holding many repository copies on disk at once.
 */
export const DEFAULT_PREPARE_AHEAD = 1;

/** Result files larger than this in total are not read (the run then has a problem, never a pass). */
const MAX_RESULT_BYTES = 64 * 1024 * 1024;

type Tree = 'base' | 'patched';

/** One run to make: which tree, which tests. */
interface RunPlan {
  label: RecordLabel;
  attempt: number;
  tree: Tree;
  /** External tests (pack folder and placement), the repository's own suite, or L3's first tier (its related suite files). */
  tests: { dir: string; placement: string } | 'suite' | 'related';
}

interface Trees {
  dirs: Record<Tree, string>;
  suite: Record<Tree, string[]>;
  /** The dependency stage's outputs each tree's runs see, read-only. */
  mounts: Record<Tree, RunMount[]>;
  /** The pack's setup environment, given to every test run under the adapter's own. */
  env: Record<string, string>;
  /** The pack's sealed expectations, read on the host; absent when the pack has none. */
  oracle?: OracleFile;
  /** L3's first tier: the patched tree's related suite files (src/core/related-tests.ts); absent without a tier. */
  related?: string[];
}

/** The oracle phase a run label belongs to (the suite has none: it is always graded in-process). */
function oraclePhaseOf(label: RecordLabel): OraclePhase | undefined {
  if (label === 'reproduction_before' || label === 'reproduction_after') return 'reproduction';
  return label === 'hidden' ? 'hidden' : undefined;
}

/**
 * Read and check the pack's oracle file, with a sealed pack's hidden half (restored from hidden.age)
 * joined to it: a pack error is the author's, a ConfigurationError.
 */
function readOracle(witness: WitnessInput): OracleFile | undefined {
  const expected = witness.manifest.oracle?.expected;
  if (expected === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(join(witness.dir, ...expected.split('/')), 'utf8');
  } catch {
    throw new ConfigurationError(`the witness pack's oracle file ${expected} cannot be read; run 'patchproof witness seal' or fix oracle.expected`);
  }
  try {
    return mergeOracles(parseOracleFile(JSON.parse(text)), witness.hiddenOracle);
  } catch (error) {
    throw new ConfigurationError(`the witness pack's oracle file ${expected} is not a patchproof.oracle/v1 document: ${(error as Error).message}`);
  }
}

export interface RunOutput {
  evidence: RunEvidence;
  record: RunRecord;
  /** Base runs: the redacted excerpt of the output's first error lines (errorExcerpt). */
  excerpt?: string;
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
  const excerpt = plan.tree === 'base' ? errorExcerpt(message) : undefined;
  return {
    ...(excerpt === undefined ? {} : { excerpt }),
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
      ...(excerpt === undefined ? {} : { output_excerpt_sha256: excerptSha256(excerpt) }),
      duration_ms: 0,
      problems: [],
      canary: { nonce, pass: 'missing', fail: 'missing' },
      infra_error: message
    }
  };
}

/**
 * A prepared run: its copy staged, its command built and (on a runner that can) its container
 * started and held before the command; calling it makes the command run.
 */
type PreparedRun = () => Promise<RunOutput>;

async function executeRun(plan: RunPlan, request: ValidationRequest, deps: ValidationDeps, scratch: Scratch, trees: Trees): Promise<RunOutput> {
  const prepared = await prepareRun(plan, request, deps, scratch, trees);
  const progress = progressOf(request);
  const began = Date.now();
  progress?.started(plan);
  const output = await prepared();
  progress?.ended(plan, output, Date.now() - began);
  return output;
}

/** The scheduler's progress callbacks, turned into the request's run events. */
function progressOf(request: Pick<ValidationRequest, 'progress'>): RunProgress<RunPlan, RunOutput> | undefined {
  const sink = request.progress;
  if (sink === undefined) return undefined;
  return {
    started: (plan) => sink.run({ kind: 'start', phase: plan.label, tree: plan.tree, attempt: plan.attempt }),
    ended: (plan, output, durationMs) =>
      sink.run({
        kind: 'end',
        phase: plan.label,
        tree: plan.tree,
        attempt: plan.attempt,
        durationMs,
        outcome: output === undefined ? 'cancelled' : runOutcomeText({ ...output.evidence, statuses: output.evidence.parsed?.tests.map((t) => t.status) ?? [] })
      })
  };
}

/**
 * Stage one run (copy, harness, tests, command) and return the function that runs it. Never
 * throws: whatever stops the run, in either step, becomes its infrastructure-error output.
 */
async function prepareRun(plan: RunPlan, request: ValidationRequest, deps: ValidationDeps, scratch: Scratch, trees: Trees, signal?: AbortSignal): Promise<PreparedRun> {
  const { adapter, runner, limits } = request;
  const nonce = deps.nonce();
  const oracleNonce = deps.nonce();
  let argv: string[] = [];
  const failed = (error: unknown): RunOutput => {
    const phase = oraclePhaseOf(plan.label);
    if (phase !== undefined && request.recordObservations !== undefined) {
      request.recordObservations({ phase, attempt: plan.attempt, observations: [], malformed: [], problem: `infrastructure error: ${(error as Error).message}` });
    }
    // Whatever stopped this run (Docker, the file system), it is never a pass and never the patch's fault.
    return infraOutput(plan, nonce, argv, error);
  };
  try {
    const copy = await scratch.folder(`${plan.label}-${plan.attempt}-repo`);
    await cloneTree(trees.dirs[plan.tree], copy);
    await stageFiles(copy, Object.fromEntries(Object.entries(adapter.harness).map(([name, text]) => [`${HARNESS_DIR}/${name}`, text])));
    let files: string[];
    let testRoots: string[] = [];
    const oraclePhase = oraclePhaseOf(plan.label);
    const sealedCases = oraclePhase === undefined ? [] : (trees.oracle?.cases ?? []).filter((c) => c.phase === oraclePhase);
    // A phase observes when it has sealed cases or sites whose values witness record records.
    const observing = sealedCases.length > 0 || (oraclePhase !== undefined && (trees.oracle?.pending ?? []).some((p) => p.phase === oraclePhase));
    if (plan.tests === 'suite') {
      files = trees.suite[plan.tree];
    } else if (plan.tests === 'related') {
      files = trees.related ?? [];
    } else {
      const { dir, placement } = plan.tests;
      const staged = await stageExternalTests(copy, dir, placement);
      files = staged.filter((f) => adapter.isTestFile(f.slice(placement.length + 1)));
      testRoots = [placement];
      // The observers beside the sealed tests, with this run's nonce; the expectations stay here.
      if (observing) {
        await stageFiles(copy, Object.fromEntries(Object.entries(observerFiles(oracleNonce)).map(([name, text]) => [`${placement}/${name}`, text])));
      }
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
    // No twins in a sealed run: a copy of a test that observes would observe its cases twice, and
    // sealing already makes framework sabotage pointless there.
    const command = adapter.command({ view, files, suite: plan.tests === 'suite' || plan.tests === 'related', testRoots, canary, readFile, ...(observing ? { twins: false as const } : {}) });
    argv = command.argv;
    await stageFiles(copy, command.stage);
    const mounts = trees.mounts[plan.tree];
    // Mount points for the dependency outputs: a container cannot create them in its read-only copy.
    for (const mount of mounts) await mkdir(join(copy, ...mount.path.split('/')), { recursive: true });
    const runRequest: RunRequest = {
      hostWorkdir: copy,
      hostResultsDir: results,
      argv: command.argv,
      env: { ...trees.env, ...command.env },
      timeoutMs: limits.timeoutMs,
      outputLimitBytes: limits.outputLimitBytes,
      label: `${plan.label}-${plan.attempt}`,
      mounts,
      execTmp: adapter.execTmp === true,
      ...(adapter.pid1 === true ? { init: false } : {}),
      resultFiles: command.resultFiles,
      ...(signal !== undefined ? { signal } : {})
    };
    // Container start-up overlaps the runs ahead of this one; the command waits for its turn.
    const prestarted = runner.prestart === undefined ? undefined : await runner.prestart(runRequest);
    return async (): Promise<RunOutput> => {
      try {
        const outcome = prestarted === undefined ? await runner.run(runRequest) : await prestarted.go();
        const read = await readResults(results, MAX_RESULT_BYTES, command.resultFiles);
        const parsed: ParsedResults & { canary: CanaryOutcome } = adapter.parse({ files: read.files, exitCode: outcome.exitCode, workdir: view.workdir, testRoots, canary, output: outcome.stdout, ...(command.declared === undefined ? {} : { declared: command.declared }) });
        parsed.problems.push(...read.problems);
        const { canary: canaryBase, ...parsedRest } = parsed;
        // Twin and mutant canaries come out of the tests here; their roles never left the host.
        const twinned = takeTwins(parsedRest.tests, parsedRest.claimed, command.twins ?? []);
        const { claimed: _claimed, ...withoutClaimed } = parsedRest;
        const results_: ParsedResults = { ...withoutClaimed, tests: twinned.tests, ...(twinned.claimed === undefined ? {} : { claimed: twinned.claimed }) };
        const canaryOutcome = command.twins === undefined ? canaryBase : { ...canaryBase, twins: twinned.outcomes };
        // Each stream whole (stderr, then stdout): in the combined output their lines interleave as the
        // pipes happened to be read, so the excerpt would change from run to run.
        const excerpt = plan.tree === 'base' ? errorExcerpt(outcome.stderr === undefined ? outcome.output : `${outcome.stderr}\n\n${outcome.stdout}`) : undefined;
        let sealed: RunEvidence['sealed'];
        let oracleRecord: RunRecord['oracle'];
        if (observing && oraclePhase !== undefined && request.recordObservations !== undefined) {
          const observations = parseObservations(outcome.stdout, oracleNonce);
          const problem = outcome.timedOut ? 'it timed out' : outcome.outputTruncated ? 'its output was truncated' : undefined;
          request.recordObservations({ phase: oraclePhase, attempt: plan.attempt, ...observations, ...(problem !== undefined ? { problem } : {}) });
        }
        if (observing) {
          // Read from the stdout the host collected as the run produced it; never from a results file,
          // nor from the combined output, where stderr bytes can cut an observation line in two.
          const observations = parseObservations(outcome.stdout, oracleNonce);
          const judged = judgeObservations(sealedCases, observations);
          sealed = { results: sealedTestResults(judged, plan.tree === 'base'), problems: judged.problems };
          oracleRecord = {
            nonce: oracleNonce,
            cases: sealedCases.length,
            observed: observations.observations.length,
            matched: judged.cases.filter((c) => c.outcome === 'matched').length
          };
        }
        return {
          ...(excerpt === undefined ? {} : { excerpt }),
          evidence: {
            label: plan.label,
            attempt: plan.attempt,
            exitCode: outcome.exitCode,
            timedOut: outcome.timedOut,
            outputTruncated: outcome.outputTruncated,
            parsed: results_,
            canary: canaryOutcome,
            ...(sealed !== undefined ? { sealed } : {})
          },
          record: {
            label: plan.label,
            attempt: plan.attempt,
            argv: command.argv,
            ...outcomeRecordFields(outcome),
            signal: outcome.signal,
            ...(excerpt === undefined ? {} : { output_excerpt_sha256: excerptSha256(excerpt) }),
            problems: [...results_.problems, ...(sealed?.problems ?? [])],
            canary: { nonce, ...canaryOutcome },
            ...(oracleRecord !== undefined ? { oracle: oracleRecord } : {}),
            ...(results_.channel ? { channel: results_.channel } : {})
          }
        };
      } catch (error) {
        return failed(error);
      }
    };
  } catch (error) {
    const output = failed(error);
    return async () => output;
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

/** `witness record`: the patched tree's reproduction and hidden runs only, each at least twice (determinism). */
function recordPlans(manifest: WitnessManifest, witnessDir: string): RunPlan[] {
  const twice = (n: number): number => Math.max(2, n);
  return plansFor({ ...manifest, reproduction: { ...manifest.reproduction, repeat: twice(manifest.reproduction.repeat) }, hidden: { ...manifest.hidden, repeat: twice(manifest.hidden.repeat) } }, witnessDir).filter(
    (plan) => plan.label === 'reproduction_after' || plan.label === 'hidden'
  );
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
    record.candidate = refusedSetupRecord({ snapshot: trees.gradedSnapshot, witnessDigest: request.witness.digest, setup, runner: request.runner, execTmp: request.adapter.execTmp === true }, refused);
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
  return (await validateWithDetail(request, deps)).receipt;
}

/** validate(), with the maintainers' encrypted hidden detail. */
export async function validateWithDetail(request: ValidationRequest, deps: ValidationDeps): Promise<ValidationResult> {
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

  const scratch = await createScratch();
  try {
    const base = await scratch.folder('base');
    await stageTree(request.repoDir, before.entries, base);
    checkTargets(changes, new Map(before.entries.map((e) => [e.path, e.kind])));
    const tracked = new Set(before.entries.map((e) => e.path));
    const applied = applyFileChanges((path) => (tracked.has(path) ? readFileSync(join(base, ...path.split('/'))) : undefined), changes);
    const patchedSnapshot = snapshotDigest(patchedEntries(before.entries, applied));

    // Reset, don't only detect: the suite that judges the candidate is the base's.
    const loaded = baseLoadedSurface(adapter, base, before.entries, deps.log, changes.map((c) => c.path));
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
    const reset = resetPlan(findings.filter((f) => !inSource.paths.has(f.path)), (path) => tracked.has(path));
    const resetPaths = new Set([...reset.restore, ...reset.remove]);
    const graded = new Map([...applied].filter(([path]) => !resetPaths.has(path)));
    const patched = await scratch.folder('patched');
    await cloneTree(base, patched);
    await writeChanges(patched, graded, new Map(before.entries.map((e) => [e.path, e.mode])));

    // The formal gate: the spec is checked against the base first (a bad spec refuses the pack
    // before any test runs); the candidate's tree is then checked on the host while the runs go.
    const formalBlock = request.recordObservations === undefined ? manifest.formal : undefined;
    let formalRecord: Promise<FormalRecord> | undefined;
    if (formalBlock !== undefined) {
      const specStarted = Date.now();
      await checkFormalSpecs(formalBlock, base);
      deps.log(`formal: the spec of ${formalBlock.targets.length} target(s) calibrated on the base in ${Date.now() - specStarted} ms`);
      formalRecord = formalRecordFor(formalBlock, patched, graded);
      // Awaited below; a rejection meanwhile is not unhandled.
      formalRecord.catch(() => undefined);
    }

    const setup = await dependencyStage(request, deps, scratch, {
      base,
      patched,
      baseSnapshot: before.digest,
      gradedSnapshot: snapshotDigest(patchedEntries(before.entries, graded)),
      candidateChangedDependencies: findings.some((f) => f.categories.includes('dependency')),
      runnerPackages: loaded.packages
    });
    const trees: Trees = {
      dirs: { base, patched },
      suite: { base: await suiteFilesOf(base, adapter, manifest), patched: await suiteFilesOf(patched, adapter, manifest) },
      mounts: setup.mounts,
      env: { ...(manifest.setup?.env ?? {}) },
      ...(oracle !== undefined ? { oracle } : {})
    };
    if (trees.suite.base.length === 0) {
      throw new ConfigurationError(`the repository has no test files the ${adapter.name} adapter runs as its suite; add tests or set regression.include in the witness pack`);
    }
    // --shard K/N: this validation's share of the suite; the whole suite goes into the receipt's shard record.
    const wholeSuite = trees.suite;
    if (request.shard !== undefined) {
      const { index, count } = request.shard;
      trees.suite = suiteShare(wholeSuite, index, count);
      if (trees.suite.base.length === 0) {
        throw new ConfigurationError(`--shard ${index}/${count}: this share of the suite holds none of its ${wholeSuite.base.length} base test files; use a smaller N`);
      }
      deps.log(`shard ${index}/${count}: ${trees.suite.base.length} of ${wholeSuite.base.length} suite files`);
    }
    const plans = request.recordObservations === undefined ? plansFor(manifest, witness.dir) : recordPlans(manifest, witness.dir);
    deps.log(`base ${before.digest}, patched ${patchedSnapshot}; ${plans.length} runs on the ${request.runner.description.kind} runner`);
    const gateOptions = {
      ...(manifest.reproduction.expected_failing ? { expectedFailing: manifest.reproduction.expected_failing } : {}),
      ...(manifest.reproduction.ids ? { pinned: { reproduction: manifest.reproduction.ids } } : {})
    };
    const retryRegression = async (outputs: RunOutput[]): Promise<void> => {
      // A PASS_TO_PASS test failing after the patch is re-run: failing again is a regression.
      const regressionBefore = outputs.find((o) => o.evidence.label === 'regression_before');
      for (;;) {
        const after = outputs.filter((o) => o.evidence.label === 'regression_after');
        if (after.length === 0 || after.length >= manifest.regression.retries + 1) break;
        if (failingPassToPass(regressionBefore?.evidence, after.at(-1)?.evidence).length === 0) break;
        outputs.push(await executeRun({ label: 'regression_after', attempt: after.length + 1, tree: 'patched', tests: 'suite' }, request, deps, scratch, trees));
      }
    };
    const retryRelated = async (outputs: RunOutput[]): Promise<void> => {
      // The related tier's failing PASS_TO_PASS tests are re-run like the suite's: only failing every time is a regression.
      const regressionBefore = outputs.find((o) => o.evidence.label === 'regression_before');
      for (;;) {
        const tier = outputs.filter((o) => o.evidence.label === RELATED_LABEL);
        if (tier.length === 0 || tier.length >= manifest.regression.retries + 1) break;
        if (failingPassToPass(regressionBefore?.evidence, tier.at(-1)?.evidence).length === 0) break;
        outputs.push(await executeRun({ label: RELATED_LABEL, attempt: tier.length + 1, tree: 'patched', tests: 'related' }, request, deps, scratch, trees));
      }
    };
    // L3's first tier (gates only): the suite files that import a changed file, from the graded tree.
    let related: RelatedTierPlan | undefined;
    if (request.earlyExit === true && request.recordObservations === undefined) {
      const readPatched = (path: string): string | undefined => {
        try {
          return readFileSync(join(patched, ...path.split('/')), 'utf8');
        } catch {
          return undefined;
        }
      };
      const patchedFiles = await listFiles(patched);
      let graph: ((file: string) => string[] | undefined) | undefined;
      if (adapter.importGraph === 'js') graph = jsImportGraph(patchedFiles, readPatched);
      if (adapter.importGraph === 'python') {
        try {
          graph = pythonImportGraph(Object.fromEntries(trees.suite.patched.map((f) => [f, readPatched(f) ?? ''])), patchedFiles);
        } catch (error) {
          // The tier is an early stop only: without the host's python3 it is skipped, the full suite decides.
          deps.log(`L3 related test files: ${(error as Error).message}`);
        }
      }
      related = planRelatedTier(trees.suite.patched, [...graded.keys()], graph);
      if ('files' in related) trees.related = related.files;
      deps.log('files' in related ? `L3 related test files first: ${related.files.join(', ')}` : `L3 related test files: skipped (${related.skipped})`);
    }
    const key = normalisedKey(applied);
    const l0 = request.earlyExit === true ? l0Findings(changes, manifest.allowed_paths) : undefined;
    // The L1 build gate (not in witness record, which grades nothing).
    const buildArgv = request.recordObservations === undefined ? manifest.build?.argv : undefined;
    const builds: BuildRuns = {
      ...(buildArgv !== undefined
        ? {
            run: async (tree: Tree) => {
              request.progress?.run({ kind: 'start', phase: 'build', tree, attempt: 1 });
              const record = await runBuild({
                tree,
                treeDir: trees.dirs[tree],
                argv: buildArgv,
                runner: request.runner,
                scratch,
                mounts: trees.mounts[tree],
                env: trees.env,
                timeoutMs: (manifest.build?.timeout_seconds ?? request.limits.timeoutMs / 1000) * 1000,
                outputLimitBytes: request.limits.outputLimitBytes,
                execTmp: adapter.execTmp === true,
                log: deps.log
              });
              const outcome = record.exit_code === 0 && !record.timed_out && !record.output_truncated && record.infra_error === undefined ? 'built' : runOutcomeText({ exitCode: record.exit_code, timedOut: record.timed_out, outputTruncated: record.output_truncated, ...(record.infra_error !== undefined ? { infraError: record.infra_error } : {}), statuses: [] }).replace('no results', 'failed');
              request.progress?.run({ kind: 'end', phase: 'build', tree, attempt: 1, durationMs: record.duration_ms, outcome });
              return record;
            }
          }
        : {})
    };
    const notRunPhases: PhaseName[] = [];
    let outputs: RunOutput[];
    let madeRuns = false;
    if (request.earlyExit !== true && request.baseline === undefined) {
      if (builds.run !== undefined) {
        // Without gates the build is recorded and judged, and every phase still runs: a full
        // receipt for the person reading it (the build fails the verdict, it does not stop the runs).
        const run = builds.run;
        [builds.base, builds.candidate] = request.concurrency >= 2 ? await Promise.all([run('base'), run('patched')]) : [await run('base'), await run('patched')];
      }
      const scheduled = await scheduleRuns<RunPlan, PreparedRun, RunOutput>({
        jobs: plans,
        concurrency: request.concurrency,
        prepareAhead: request.prepareAhead ?? DEFAULT_PREPARE_AHEAD,
        prepare: (plan, signal) => prepareRun(plan, request, deps, scratch, trees, signal),
        run: (_plan, prepared) => prepared(),
        ...(request.progress !== undefined ? { progress: progressOf(request)! } : {}),
        // The early exit: the patched tree's runs count only when the base reproduction established
        // the bug (witness record makes patched runs only, and has no gate).
        ...(request.recordObservations === undefined
          ? {
              gate: {
                member: (plan: RunPlan) => plan.label === 'reproduction_before',
                gated: (plan: RunPlan) => plan.tree === 'patched',
                open: (results: RunOutput[]) => patchedRunsNeeded(results.map((o) => o.evidence), gateOptions)
              }
            }
          : {})
      });
      const notRun = scheduled.filter((s) => s.status === 'not_run').map((s) => `${s.job.label}-${s.job.attempt}`);
      if (notRun.length > 0) deps.log(`the base reproduction did not establish the bug; not run: ${notRun.join(', ')}`);
      outputs = scheduled.flatMap((s) => (s.status === 'done' ? [s.result] : []));
      // witness record: the observations went to recordObservations; nothing is judged, no receipt is made.
      if (request.recordObservations !== undefined) return RECORDED;

      await retryRegression(outputs);
      madeRuns = true;
    } else {
      if (request.recordObservations !== undefined) throw new Error('witness record has no gates and no shared baseline');
      outputs = await gatedRuns({ request, deps, scratch, trees, plans, gateOptions, key, l0: l0 ?? [], notRunPhases, retryRegression, retryRelated, ...(related !== undefined ? { related } : {}), builds });
      madeRuns = request.sharedRuns === undefined && outputs.some((o) => o.evidence.label !== 'reproduction_before' && o.evidence.label !== 'regression_before');
    }

    const relatedOutputs = outputs.filter((o) => o.evidence.label === RELATED_LABEL);
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
      surfaceReasons: [...surface.reasons, ...setupReasons(setup.record), ...(l0 !== undefined && l0Failed(l0) ? (['policy_gate_failed'] as const) : [])],
      notRun: notRunPhases,
      related: relatedOutputs.map((o) => o.evidence)
    });
    if (judgement.reasons.includes('base_unrunnable')) {
      const shown = [...byLabel.reproduction_before, ...byLabel.regression_before].find((o) => (o.excerpt ?? '') !== '') ?? byLabel.reproduction_before[0];
      if (shown !== undefined) {
        const excerpt = shown.excerpt ?? '';
        deps.log(`patchproof: the grader cannot run on the base tree; ${shown.record.label} run ${shown.record.attempt} says:`);
        for (const line of (excerpt === '' ? '(no output)' : excerpt).split('\n')) deps.log(`  | ${line}`);
        deps.baseFailure?.({ label: shown.record.label, attempt: shown.record.attempt, excerpt, sha256: excerptSha256(excerpt) });
      }
    }
    const solved = formalRecord === undefined ? undefined : await formalRecord;
    // A counterexample stands only if it replays as a test in the same runner as the phases.
    const formal =
      solved === undefined || formalBlock === undefined
        ? solved
        : await replayCounterexamples(formalBlock, solved, {
            runner: request.runner,
            scratch,
            patchedDir: patched,
            mounts: trees.mounts.patched,
            env: trees.env,
            timeoutMs: request.limits.timeoutMs,
            outputLimitBytes: request.limits.outputLimitBytes,
            nonce: () => deps.nonce(),
            log: (line) => deps.log(line)
          });
    for (const target of formal?.targets ?? []) {
      deps.log(`formal: ${target.name} ${target.status}${target.reason ? ` (${target.reason})` : ''}${target.counterexample ? ` ${JSON.stringify(target.counterexample.inputs)}` : ''} in ${target.duration_ms} ms`);
    }
    const build: BuildRecord | undefined =
      buildArgv === undefined || builds.base === undefined
        ? undefined
        : { argv: [...buildArgv], status: buildStatus(builds.base, builds.candidate), base: builds.base, ...(builds.candidate !== undefined ? { candidate: builds.candidate } : {}) };
    // A counterexample fails the candidate; a required target's unknown keeps it from passing; so
    // does a build that did not pass (L1), and a build broken by the candidate fails it.
    const decided = withBuild(withFormal({ verdict: judgement.verdict, reasons: judgement.reasons }, formal), build);
    const recordsOf = (...labels: RunLabel[]): RunRecord[] => labels.flatMap((label) => byLabel[label].map((o) => o.record));
    const runsOf: Record<string, RunRecord[]> = {
      reproduction_before: recordsOf('reproduction_before'),
      reproduction_after: recordsOf('reproduction_after'),
      regression: [...recordsOf('regression_before'), ...relatedOutputs.map((o) => o.record), ...recordsOf('regression_after')],
      hidden: recordsOf('hidden')
    };
    const sealedPhase = (phase: OraclePhase): GradingModel => (phaseIsSealed(oracle, phase) ? 'sealed' : 'in_process');
    const grading: Record<string, GradingModel> = {
      reproduction_before: sealedPhase('reproduction'),
      reproduction_after: sealedPhase('reproduction'),
      regression: 'in_process',
      hidden: sealedPhase('hidden')
    };
    const idsOf = (label: RunLabel): string[] => [...new Set(byLabel[label][0]?.evidence.parsed?.tests.map((t) => t.id) ?? [])].sort();
    const runner = request.runner.description;
    const allowed = (Object.keys(manifest.allow) as (keyof typeof manifest.allow)[]).filter((key) => manifest.allow[key]).sort();
    const unredacted: Omit<ReceiptBody, 'hidden_ids'> = {
      schema: RECEIPT_SCHEMA,
      tool_version: TOOL_VERSION,
      run_id: approval.run_id,
      started_at: startedAt.toISOString(),
      finished_at: deps.now().toISOString(),
      verdict: decided.verdict,
      // Proof grade needs the candidate's side (reproduction after, hidden) graded by sealed oracles.
      proof_grade: runner.isolated && decided.verdict === 'passed' && unchanged && grading.reproduction_after === 'sealed' && grading.hidden === 'sealed',
      reasons: decided.reasons,
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
      phases: judgement.phases.map((p) => ({ ...p, runs: runsOf[p.name] ?? [], grading: grading[p.name] })),
      ...(formal !== undefined ? { formal } : {}),
      ...(build !== undefined ? { build } : {}),
      ...(request.shard !== undefined ? { shard: { index: request.shard.index, count: request.shard.count, suite_files: { base: wholeSuite.base, patched: wholeSuite.patched } } } : {})
    };
    // Hidden means hidden: the public receipt keeps statuses, counts and keyed ids only.
    const hiddenKey = deriveHiddenIdKey(witness.witnessKey, witness.digest);
    const redacted = redactHidden(unredacted, hiddenKey);
    // The claim is compared only now, with verdict, reasons and proof grade already decided without it.
    if (request.claim !== undefined) {
      redacted.body.claim = compareClaim(request.claim.parsed, request.claim.digest, redacted.body.phases, (id) => hiddenId(hiddenKey, id));
    }
    const hiddenDetail = request.encryptHiddenDetail !== undefined ? await request.encryptHiddenDetail(redacted.detail) : undefined;
    const screening = request.earlyExit === true || request.baseline !== undefined || request.baselineShared === true || request.baselineCache !== undefined;
    const cacheEntry = request.baseline !== undefined ? request.baselineCache?.entry : undefined;
    // Recorded only when this receipt's phases hold runs made on the other candidate's tree.
    const sharedRuns = request.sharedRuns !== undefined && outputs.some((o) => request.sharedRuns!.outputs.includes(o)) ? request.sharedRuns : undefined;
    const bodyWithGates: ReceiptBody = {
      ...redacted.body,
      ...(hiddenDetail !== undefined ? { hidden_detail_sha256: createHash('sha256').update(hiddenDetail).digest('hex') } : {}),
      ...(l0 !== undefined
        ? {
            gates: {
              early_exit: true as const,
              l0,
              changed_lines: changedLines(changes),
              changed_public_interfaces: [...applied].flatMap(([path, content]) => changedPublicInterfaces(path, tracked.has(path) ? readFileSync(join(base, ...path.split('/'))) : undefined, content)).sort(),
              ...(sharedRuns !== undefined ? { shared_runs: { diff_digest: sharedRuns.diffDigest, patched_snapshot: sharedRuns.patchedSnapshot, normalised_key: sharedRuns.normalisedKey } } : {}),
              ...(related !== undefined ? { related: relatedRecord(related, relatedOutputs, byLabel.regression_before[0]) } : {})
            }
          }
        : {})
    };
    const body: ReceiptBody = screening ? { ...bodyWithGates, baseline: { shared: request.baseline !== undefined || request.baselineShared === true, digest: baselineDigest(bodyWithGates), ...(cacheEntry !== undefined ? { cache: { entry: cacheEntry } } : {}) } } : bodyWithGates;
    const receipt = sealReceipt(body);
    const isBase = (o: RunOutput): boolean => o.evidence.label === 'reproduction_before' || o.evidence.label === 'regression_before';
    const patchedRuns = outputs.filter((o) => !isBase(o));
    return {
      receipt,
      ...(hiddenDetail !== undefined ? { hiddenDetail } : {}),
      baseline: { baseSnapshot: before.digest, witnessDigest: witness.digest, outputs: outputs.filter(isBase), ...(builds.base !== undefined ? { build: builds.base } : {}) },
      ...(madeRuns && patchedRuns.length > 0 ? { runs: { diffDigest: proposal.diff_digest, patchedSnapshot, normalisedKey: key, outputs: patchedRuns } } : {}),
      normalisedKey: key,
      changedPaths: changes.map((change) => change.path)
    };
  } finally {
    await scratch.dispose();
  }
}

/** What gatedRuns needs of validateWithDetail's state. */
interface GatedRunsContext {
  request: ValidationRequest;
  deps: ValidationDeps;
  scratch: Scratch;
  trees: Trees;
  plans: RunPlan[];
  gateOptions: { expectedFailing?: readonly string[]; pinned?: { reproduction?: readonly string[] } };
  key: Digest;
  l0: readonly L0Finding[];
  /** Filled with the candidate phases a failed gate stopped. */
  notRunPhases: PhaseName[];
  retryRegression(outputs: RunOutput[]): Promise<void>;
  /** Re-run the related tier while a PASS_TO_PASS test fails in it (as retryRegression does for the suite). */
  retryRelated(outputs: RunOutput[]): Promise<void>;
  /** L3's first tier: its files (`trees.related`), or why it is skipped; absent without gates. */
  related?: RelatedTierPlan;
  /** The L1 build gate: filled with the base's and the candidate's build runs. */
  builds: BuildRuns;
}

/** The L1 build's runs of one validation; `run` is absent when the pack has no build. */
interface BuildRuns {
  run?: (tree: Tree) => Promise<BuildRunRecord>;
  base?: BuildRunRecord;
  candidate?: BuildRunRecord;
}

/** The candidate's stages in cost order: each is the phase it decides and the run labels it makes. */
const STAGES: readonly { phase: PhaseName; labels: readonly RecordLabel[]; tier?: true }[] = [
  { phase: 'reproduction_after', labels: ['reproduction_after'] },
  // L3's first tier (related test files), then the full suite: both decide the regression phase.
  { phase: 'regression', labels: [RELATED_LABEL], tier: true },
  { phase: 'regression', labels: ['regression_after'] },
  { phase: 'hidden', labels: ['hidden'] }
];

/**
 * The runs of a validation with a shared baseline and/or gates: the base side once (or taken from
 * `request.baseline`), then, when the bug is established and the L0 gate passed, the candidate's
 * stages one after another (all at once without gates); with gates, the first stage that fails
 * stops the candidate. A duplicate's stages are taken from `request.sharedRuns` (only when its
 * normalised key is the same), and made for real when the runs it shares do not hold them.
 */
async function gatedRuns(context: GatedRunsContext): Promise<RunOutput[]> {
  const { request, deps, scratch, trees, plans, gateOptions, l0, notRunPhases, builds } = context;
  const schedule = async (jobs: RunPlan[]): Promise<RunOutput[]> => {
    const scheduled = await scheduleRuns<RunPlan, PreparedRun, RunOutput>({
      jobs,
      concurrency: request.concurrency,
      prepareAhead: request.prepareAhead ?? DEFAULT_PREPARE_AHEAD,
      prepare: (plan, signal) => prepareRun(plan, request, deps, scratch, trees, signal),
      run: (_plan, prepared) => prepared(),
      ...(request.progress !== undefined ? { progress: progressOf(request)! } : {})
    });
    return scheduled.flatMap((s) => (s.status === 'done' ? [s.result] : []));
  };
  const shared = request.sharedRuns;
  if (shared !== undefined && (request.earlyExit !== true || shared.normalisedKey !== context.key)) {
    // A duplicate never inherits runs it did not earn: only the very same normalised changes may share them.
    throw new Error(`runs of candidate ${shared.diffDigest} may not be shared with a candidate whose changed files normalise differently`);
  }
  let outputs: RunOutput[];
  if (request.baseline !== undefined) {
    if (request.baseline.baseSnapshot !== request.proposal.base_snapshot || request.baseline.witnessDigest !== request.witness.digest) {
      throw new Error('a shared baseline is for another base snapshot or witness pack');
    }
    outputs = [...request.baseline.outputs];
    if (builds.run !== undefined) {
      // A baseline made without the build (another pack would have another digest) is not reused for it.
      builds.base = request.baseline.build ?? (await builds.run('base'));
    }
  } else {
    // The base build is base-side work too: made once, before the base runs, shared with the rest.
    if (builds.run !== undefined) builds.base = await builds.run('base');
    outputs = await schedule(plans.filter((p) => p.tree === 'base'));
  }
  const stop = (from: number, decided?: PhaseName): void => {
    for (const stage of STAGES.slice(from)) if (stage.phase !== decided && !notRunPhases.includes(stage.phase)) notRunPhases.push(stage.phase);
  };
  if (!patchedRunsNeeded(outputs.filter((o) => o.evidence.label === 'reproduction_before').map((o) => o.evidence), gateOptions)) {
    deps.log('the base reproduction did not establish the bug; the candidate\'s runs are not made');
    return outputs;
  }
  if (request.earlyExit === true && l0Failed(l0)) {
    deps.log(`L0 policy gate failed (${l0.filter((f) => f.rule !== 'whitespace_only_hunk').map((f) => `${f.rule} ${f.path}`).join(', ')}); the candidate's runs are not made`);
    stop(0);
    return outputs;
  }
  if (builds.run !== undefined) {
    // L1 after L0, before the reproduction: a build the candidate broke stops it (with gates).
    builds.candidate = await builds.run('patched');
    if (request.earlyExit === true && builds.base !== undefined && buildStops({ status: buildStatus(builds.base, builds.candidate) })) {
      deps.log(`L1 build gate failed; the candidate's runs are not made`);
      stop(0);
      return outputs;
    }
  }
  const patchedPlans = plans.filter((p) => p.tree === 'patched');
  if (request.earlyExit !== true) {
    outputs.push(...(await schedule(patchedPlans)));
    await context.retryRegression(outputs);
    return outputs;
  }
  const before = outputs.filter((o) => o.evidence.label === 'reproduction_before').map((o) => o.evidence);
  const tierPlan: RunPlan = { label: RELATED_LABEL, attempt: 1, tree: 'patched', tests: 'related' };
  for (const [index, stage] of STAGES.entries()) {
    if (stage.tier === true && (context.related === undefined || 'skipped' in context.related)) continue;
    const fromShared = (shared?.outputs ?? []).filter((o) => stage.labels.includes(o.evidence.label));
    if (fromShared.length > 0) {
      outputs.push(...fromShared);
    } else if (stage.tier === true) {
      outputs.push(...(await schedule([tierPlan])));
      await context.retryRelated(outputs);
    } else {
      outputs.push(...(await schedule(patchedPlans.filter((p) => stage.labels.includes(p.label)))));
      if (stage.phase === 'regression') await context.retryRegression(outputs);
    }
    const runs = (label: RecordLabel): RunEvidence[] => outputs.filter((o) => o.evidence.label === label).map((o) => o.evidence);
    const status =
      stage.phase === 'reproduction_after'
        ? judgeReproductionAfter(runs('reproduction_after'), before, gateOptions.pinned?.reproduction).status
        : stage.tier === true
          ? judgeRelatedTier(runs('regression_before')[0], runs(RELATED_LABEL)).status
          : stage.phase === 'regression'
            ? judgeRegression(runs('regression_before')[0] as RunEvidence, runs('regression_after')).status
            : 'passed';
    if (stage.tier === true && status === 'failed') {
      deps.log(`L3 related test files (${(context.related as { files: string[] }).files.join(', ')}) failed with a regression; the full suite and the hidden tests are not run`);
    }
    if (status === 'failed') {
      const later = STAGES.slice(index + 1).filter((s) => s.phase !== stage.phase);
      if (later.length > 0) deps.log(`gate ${stage.phase} failed; not run: ${[...new Set(later.map((s) => s.phase))].join(', ')}`);
      stop(index + 1, stage.phase);
      break;
    }
  }
  return outputs;
}

/** The receipt's `gates.related`: the tier's files and outcome (src/core/receipt.ts checks it against the regression phase). */
function relatedRecord(plan: RelatedTierPlan, runs: readonly RunOutput[], before: RunOutput | undefined): NonNullable<NonNullable<ReceiptBody['gates']>['related']> {
  if ('skipped' in plan) return { status: 'skipped', skipped: plan.skipped, files: [], regressions: [] };
  if (runs.length === 0) return { status: 'not_run', files: plan.files, regressions: [] };
  const tier = judgeRelatedTier(before?.evidence, runs.map((o) => o.evidence));
  return { status: tier.status, files: plan.files, regressions: tier.regressions };
}

/** Top-level module names of every staged test file (reproduction and hidden), for shadowing checks. */
async function stagedModuleNames(witnessDir: string, folders: readonly string[]): Promise<string[]> {
  const names = new Set<string>();
  for (const folder of folders) {
    for (const file of await listFiles(join(witnessDir, ...folder.split('/')))) names.add(topLevelModule(file));
  }
  return [...names].sort();
}
