import type { Digest } from '../core/hashing.js';
import type { ReceiptBody } from '../core/receipt-schema.js';
import type { ReasonCode } from '../core/verdict.js';
import type { L0Finding } from '../core/l0-gates.js';
import type { RelatedTierPlan } from '../core/related-tests.js';
import type { FormalRecord } from '../core/formal.js';
import type { BindingRun } from '../formal/binding.js';
import type { BuildRecord, BuildRunRecord } from '../core/build-gate.js';
import type { TamperScreen } from '../core/tamper.js';
import type { PhaseName, RecordLabel, Verdict } from '../core/verdict.js';
import type { WitnessManifest } from '../fetch/witness/manifest.js';
import type { Scratch } from './workspace.js';
import type { FileChange } from '../core/diff-policy.js';
import type { Scheduled } from './run-scheduler.js';
import type { RunGate } from './runs.js';
import type { RunOutput, RunPlan, Tree, Trees, ValidationDeps, ValidationRequest } from './types.js';

/**
 * A phase is a plug-in of the orchestrator (src/phases/orchestrator.ts): one module, with a name,
 * the phases it needs (its place in the run DAG) and the functions it contributes. Every function is
 * optional; the orchestrator calls them at fixed points and knows no phase by name.
 */
export interface Phase<C extends OrchestratorContext = PhaseContext> {
  readonly name: string;
  /** The phases that come before it: with gates, a failed gate of one of them stops it. */
  readonly needs: readonly string[];
  /** Whose side it grades: base-side phases run first, together (or come from a shared baseline). */
  readonly side: 'base' | 'candidate';
  /** The receipt phase it decides: recorded `not_run` when a gate before it stops the candidate. */
  readonly decides?: PhaseName;
  /** The run labels it makes: a duplicate's shared runs stand in for its runs by these labels. */
  readonly labels: readonly RecordLabel[];
  /** Right after the trees are staged, before the dependency stage (a refusal here runs nothing). */
  staged?(ctx: StagedContext): Promise<void>;
  /** Once the trees and the run plan are ready, before any run. */
  planned?(ctx: C): Promise<void>;
  /** Whether it takes part in this validation; absent: always. */
  applies?(ctx: C): boolean;
  /** Work that is not a test run (a build): before its runs. */
  work?(ctx: C): Promise<void>;
  /** The test runs it makes. */
  plans?(ctx: C): RunPlan[];
  /** After its runs: more runs of the same kind (retries of a failing PASS_TO_PASS test). */
  settle?(ctx: C, outputs: RunOutput[]): Promise<void>;
  /** With gates (base-side gates always): whether the candidate goes on; `why` is logged when not. */
  gate?(ctx: C, outputs: readonly RunOutput[]): GateResult;
  /** After judging, in DAG order: may lower the verdict (formal, build). */
  conclude?(ctx: C, decided: Decision): Promise<Decision>;
  /** On the redacted receipt body, after the verdict is final (the claim). */
  annotate?(ctx: C, body: ReceiptBody): void;
}

export type GateResult = { passed: true } | { passed: false; why?: string };

export interface Decision {
  verdict: Verdict;
  reasons: ReasonCode[];
}

/** What the orchestrator itself needs; the phases see the whole PhaseContext. */
export interface OrchestratorContext {
  readonly flow: {
    /** Gates in cost order: the first candidate gate that fails stops the candidate. */
    earlyExit: boolean;
    /** `witness record`: only the planned runs, nothing judged. */
    record: boolean;
    /** How many runs (and builds) may go at once. */
    concurrency: number;
    /** The base side's runs, made once for several candidates (already checked against this base). */
    baseline?: readonly RunOutput[];
    /** A duplicate's candidate-side runs (already checked against this candidate's key). */
    shared?: readonly RunOutput[];
    /**
     * With gates and a base side made for this candidate alone: each base phase waits until the first
     * candidate phase that needs it is due (the base suite after the candidate's reproduction).
     */
    deferBase?: boolean;
  };
  log(line: string): void;
  schedule(jobs: RunPlan[], gate?: RunGate): Promise<Scheduled<RunPlan, RunOutput>[]>;
}

/** The L1 build's runs of one validation; `run` is absent when the pack has no build. */
export interface BuildRuns {
  /** The pack's build command; absent without a build (and in witness record). */
  argv?: readonly string[];
  run?: (tree: Tree) => Promise<BuildRunRecord>;
  base?: BuildRunRecord;
  candidate?: BuildRunRecord;
}

/** What the phases keep for the receipt (each field is one phase module's). */
export interface PhaseState {
  /** The formal gate: its block and the host's check of the candidate's tree (formal.ts). */
  formal?: {
    block: NonNullable<WitnessManifest['formal']>;
    solving: Promise<{ record: FormalRecord; sources: ReadonlyMap<string, string> }>;
    /** The binding checks of the proved or checked targets (src/formal/binding-run.ts), started while the tests run. */
    binding?: Promise<Map<string, BindingRun>>;
    record?: FormalRecord;
  };
  /** L3's first tier: its files, or why it is skipped (regression.ts); absent without gates. */
  related?: RelatedTierPlan;
  /** The L0 policy gate's findings (l0.ts); absent without gates. */
  l0?: L0Finding[];
  /** The L1 build (build.ts). */
  builds: BuildRuns;
  build?: BuildRecord;
  /** The tamper screen's record (tamper.ts); absent only in witness record, which seals nothing. */
  tamper?: TamperScreen;
}

export interface StagedContext {
  request: ValidationRequest;
  deps: ValidationDeps;
  scratch: Scratch;
  dirs: Record<Tree, string>;
  /** The candidate's changes that are graded (after the surface reset). */
  graded: ReadonlyMap<string, Buffer>;
  /** The changes as the diff applies them (before the reset). */
  applied: ReadonlyMap<string, Buffer | null>;
  /** The diff's file changes, as the policy read them. */
  changes: readonly FileChange[];
  state: PhaseState;
}

export interface PhaseContext extends StagedContext, OrchestratorContext {
  trees: Trees;
  plans: RunPlan[];
  gateOptions: { expectedFailing?: readonly string[]; pinned?: { reproduction?: readonly string[] } };
  /** The normalised key of the candidate's changed files. */
  key: Digest;
  /** Stage and make one run now (retries). */
  execute: (plan: RunPlan) => Promise<RunOutput>;
}
