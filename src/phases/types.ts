import type { DiffLimits } from '../core/diff-policy.js';
import type { Approval, Proposal } from '../core/proposal.js';
import type { Receipt, RunRecord } from '../core/receipt-schema.js';
import type { HiddenDetail } from '../core/hidden-ids.js';
import type { ParsedClaim } from '../core/claim.js';
import type { Snapshot } from '../core/snapshot-record.js';
import type { RecordLabel, RunEvidence } from '../core/verdict.js';
import type { Digest } from '../core/hashing.js';
import type { RegisteredAdapter } from '../adapters/registry.js';
import type { RunMount, Runner } from '../runners/runner.js';
import type { WitnessManifest } from '../fetch/witness/manifest.js';
import type { Observation, OracleFile, OraclePhase } from '../core/oracle.js';
import type { ProgressSink } from '../core/progress.js';
import type { BuildRunRecord } from '../core/build-gate.js';

/**
 * The types of one validation: what the callers hand in (request, deps), what they get back, and
 * the run plan the phases share (src/phases/orchestrator.ts runs them).
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
  adapter: RegisteredAdapter;
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

/** One observing run of `witness record`: its phase, attempt and what it observed. */
export interface RecordedRun {
  phase: OraclePhase;
  /** The base (the reproduction only) or the reference fix's patched tree. */
  tree: Tree;
  attempt: number;
  observations: Observation[];
  malformed: string[];
  /** Why the run produced no usable output (Docker, a timeout, a truncated output), if it did not. */
  problem?: string;
  /** The run as evidence, without its sealed cases (the host judges those once they are recorded). */
  evidence: RunEvidence;
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
  log: (line: string) => void;
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

export type Tree = 'base' | 'patched';

/** One run to make: which tree, which tests. */
export interface RunPlan {
  label: RecordLabel;
  attempt: number;
  tree: Tree;
  /** External tests (pack folder and placement), the repository's own suite, or L3's first tier (its related suite files). */
  tests: { dir: string; placement: string } | 'suite' | 'related';
}

/** The staged trees and what every run of them sees. */
export interface Trees {
  dirs: Record<Tree, string>;
  suite: Record<Tree, string[]>;
  /** The dependency stage's outputs each tree's runs see, read-only. */
  mounts: Record<Tree, RunMount[]>;
  /** The pack's setup environment, given to every test run under the adapter's own. */
  env: Record<string, string>;
  /** The pack's `env` (issue 28 item 6): given to every test run over the adapter's plain defaults. */
  testEnv?: Record<string, string>;
  /** The pack's sealed expectations, read on the host; absent when the pack has none. */
  oracle?: OracleFile;
  /** L3's first tier: the patched tree's related suite files (src/core/related-tests.ts); absent without a tier. */
  related?: string[];
  /** `--shard K/N`: the whole suite as discovered (`suite` then holds this shard's share). */
  wholeSuite?: Record<Tree, string[]>;
}

export interface RunOutput {
  evidence: RunEvidence;
  record: RunRecord;
  /** Base runs: the redacted excerpt of the output's first error lines (errorExcerpt). */
  excerpt?: string;
}
