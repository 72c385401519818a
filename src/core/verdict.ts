import { baseUnrunnable } from './base-failure.js';
import { type TwinOutcome } from './twins.js';
import { namesGroupedSite, perTestResults, selectedBy, type SealedTest } from './sealed-tests.js';
import { graderChecks, phaseChecks, type FiredCheck } from './fired-checks.js';
import { RIGHT_REASON_FAILURES, countTests, firstOccurrenceId, type TestCaseResult, type TestCounts, type ParsedResults, type TestStatus } from './test-results.js';

/**
 * The judge: turns the evidence of each run into phase results and one verdict. Pure.
 *
 * Fail closed everywhere: zero tests, missing or inconsistent results, a canary that did not behave,
 * a timeout or truncated output never count as a pass. Infrastructure faults make a phase
 * inconclusive, never failed (they are not the candidate's fault) and never passed.
 */

export const PHASE_NAMES = ['reproduction_before', 'reproduction_after', 'regression', 'hidden'] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];

/** The kinds of run one validation makes; `regression` takes two (the base suite and the patched suite). */
export const RUN_LABELS = ['reproduction_before', 'reproduction_after', 'regression_before', 'regression_after', 'hidden'] as const;
export type RunLabel = (typeof RUN_LABELS)[number];
/**
 * L3's first tier (`screen`, `validate --early-exit`): the suite files that import a changed module,
 * run on the candidate's tree before the full suite (src/core/related-tests.ts). Its runs belong to
 * the regression phase; they can stop the candidate with a regression, never decide a pass.
 */
export const RELATED_LABEL = 'regression_related';
/** Every label a run record may carry: the five of RUN_LABELS and the related tier's. */
export const RECORD_LABELS = [...RUN_LABELS, RELATED_LABEL] as const;
export type RecordLabel = (typeof RECORD_LABELS)[number];

export const REASON_CODES = [
  'patch_invalid',
  'policy_violation',
  'repro_passes_before',
  'repro_wrong_failure',
  'not_fixed',
  'regression',
  'hidden_failed',
  'flaky',
  'tests_removed',
  'tests_skipped',
  'grader_tampered',
  'grader_compromised',
  'dependency_changed',
  'dependency_setup_failed',
  'dependency_refused',
  'no_results',
  'timeout',
  'output_limit',
  'results_inconsistent',
  'test_ids_mismatch',
  'infra_error',
  'repository_changed',
  'base_unrunnable',
  'observations_invalid',
  'policy_gate_failed',
  'formal_counterexample',
  'formal_unknown',
  'build_failed',
  'build_base_failed',
  'build_inconclusive',
  'formal_bounded_only'
] as const;
/** Machine-readable reasons; documented one by one in docs/receipt.md. */
export type ReasonCode = (typeof REASON_CODES)[number];

/**
 * `not_run`: the phase was not needed, because the base reproduction did not establish the bug
 * (see basePassesGate): its runs were cancelled or their results discarded. Never a pass.
 */
export const PHASE_STATUSES = ['passed', 'failed', 'inconclusive', 'not_run'] as const;
export type PhaseStatus = (typeof PHASE_STATUSES)[number];
export type Verdict = 'passed' | 'failed' | 'inconclusive';

/** Problems of a run itself, before its tests are looked at. */
type Anomaly = 'no_results' | 'timeout' | 'output_limit' | 'results_inconsistent' | 'grader_compromised' | 'infra_error' | 'observations_invalid';

/** How a phase was graded: by sealed oracles on the host, or by the test framework in the process under test. */
export type GradingModel = 'sealed' | 'in_process';

/** What the two canary tests of a run did ('missing': absent from the results). */
export interface CanaryEvidence {
  pass: TestStatus | 'missing';
  fail: TestStatus | 'missing';
  /** Twin and mutant canaries among the real tests (src/core/twins.ts); each must have behaved. */
  twins?: TwinOutcome[];
  /** What the tripwire found changed in the grader (src/adapters/shared/tripwire.ts); any is `grader_compromised`. */
  changed?: string[];
}

/** What one run produced, as the judge needs it. */
export interface RunEvidence {
  label: RecordLabel;
  /** 1 for the first run of its label; repeats and retries count up. */
  attempt: number;
  exitCode: number | null;
  timedOut: boolean;
  outputTruncated: boolean;
  /** Set when the run could not be carried out at all (Docker down, copy failed...). */
  infraError?: string;
  /** Undefined when the run never produced anything to parse (infrastructure error). */
  parsed?: ParsedResults;
  canary?: CanaryEvidence;
  /**
   * Sealed oracles: the phase's cases compared on the host with expectations the container never
   * saw. When present they decide the run, with the framework's failures (never its passes) added.
   */
  sealed?: {
    results: TestCaseResult[];
    problems: string[];
    /** The tests the oracle names and the results each is judged by on the base (src/core/sealed-tests.ts). */
    tests?: SealedTest[];
  };
}

export interface PhaseJudgement {
  name: PhaseName;
  status: PhaseStatus;
  reasons: ReasonCode[];
  /** The tests that decide this phase (for regression: the patched suite), from its first run. */
  results: TestCaseResult[];
  tests: TestCounts;
  /** Regression only: the base suite, the ids that must keep passing, and what happened to them. */
  baseline?: { results: TestCaseResult[]; tests: TestCounts };
  pass_to_pass?: number;
  regressions?: string[];
  preexisting_failures?: string[];
  /** Ids expected in this run but absent from its results (counted as failed). */
  missing?: string[];
  /** Ids whose outcome differed between runs of the same tree. */
  flaky?: string[];
  /** Regression only: PASS_TO_PASS ids skipped after the patch. */
  newly_skipped?: string[];
  /** Reproduction before only, sealed: the tests judged as one result each, and their results (first run). */
  sealed_tests?: SealedTest[];
  /** The checks behind `grader_compromised` and an inconclusive status (src/core/fired-checks.ts). */
  checks?: FiredCheck[];
}

/** Anomalies of a run; empty when its results can be judged test by test. */
export function runAnomalies(run: RunEvidence): Anomaly[] {
  if (run.infraError !== undefined || run.parsed === undefined) return ['infra_error'];
  const anomalies: Anomaly[] = [];
  if (run.timedOut) anomalies.push('timeout');
  if (run.outputTruncated) anomalies.push('output_limit');
  // A killed run's result files are partial at best: nothing in them is judged.
  if (anomalies.length > 0) return anomalies;
  const { tests, problems } = run.parsed;
  if (tests.length === 0) anomalies.push('no_results');
  // A canary or twin that did not behave, a change the tripwire named, exit 0 (the must-fail canary
  // makes every honest run exit non-zero), claimed counts or a results channel that disagree: each
  // names itself (fired-checks.ts).
  if (graderChecks(run).length > 0) anomalies.push('grader_compromised');
  if (problems.length > 0) anomalies.push('results_inconsistent');
  if (run.sealed !== undefined && run.sealed.problems.length > 0) anomalies.push('observations_invalid');
  return anomalies;
}

function anomaliesOf(runs: readonly RunEvidence[]): Anomaly[] {
  return [...new Set(runs.flatMap(runAnomalies))];
}

function judgeAnomalies(anomalies: Anomaly[]): { status: PhaseStatus; reasons: ReasonCode[] } | undefined {
  if (anomalies.length === 0) return undefined;
  if (anomalies.includes('infra_error')) return { status: 'inconclusive', reasons: ['infra_error'] };
  return { status: 'failed', reasons: [...anomalies] };
}

function phase(name: PhaseName, status: PhaseStatus, reasons: ReasonCode[], results: TestCaseResult[], extra: Partial<PhaseJudgement> = {}): PhaseJudgement {
  return { name, status, reasons: [...new Set(reasons)].sort(), results, tests: countTests(results), ...extra };
}

/**
 * The results that decide a run. With sealed oracles: the sealed cases, plus every framework test
 * that did not pass (an in-process pass is never evidence there; an in-process failure still is).
 */
const resultsOf = (run: RunEvidence | undefined): TestCaseResult[] => {
  const framework = run?.parsed?.tests ?? [];
  if (run?.sealed === undefined) return framework;
  return [...run.sealed.results, ...framework.filter((t) => t.status !== 'passed')];
};

function statusesById(runs: readonly RunEvidence[]): Map<string, TestStatus[]> {
  const byId = new Map<string, TestStatus[]>();
  for (const run of runs) {
    for (const test of resultsOf(run)) byId.set(test.id, [...(byId.get(test.id) ?? []), test.status]);
  }
  return byId;
}

/** Ids whose status was not the same in every run (a test absent from a run counts as differing). */
function flakyIds(runs: readonly RunEvidence[]): string[] {
  return [...statusesById(runs)]
    .filter(([, statuses]) => statuses.length !== runs.length || statuses.some((s) => (s === 'passed') !== (statuses[0] === 'passed')))
    .map(([id]) => id)
    .sort();
}

const isRightReason = (t: TestCaseResult): boolean => (t.status === 'failed' || t.status === 'errored') && RIGHT_REASON_FAILURES.includes(t.failure_kind ?? 'unknown');

/**
 * Reproduction before the patch must fail, for the right reason, in every run: every test, or
 * exactly the tests the witness pack lists as expected to fail. A sealed test is judged per test
 * (src/core/sealed-tests.ts): it fails when any of its sites fails or raises. A pack whose
 * `expected_failing` names sealed sites of such tests (written for the per-site rule) is judged per site.
 */
export function judgeReproductionBefore(runs: readonly RunEvidence[], expectedFailing?: readonly string[], pinned?: readonly string[]): PhaseJudgement {
  const results = resultsOf(runs[0]);
  const grouped = runs[0]?.sealed?.tests ?? [];
  const extra = grouped.length > 0 ? { sealed_tests: grouped } : {};
  const anomalies = anomaliesOf(runs);
  if (anomalies.includes('infra_error')) return phase('reproduction_before', 'inconclusive', ['infra_error'], results, extra);
  if (anomalies.length > 0) {
    // A timeout, no tests or unreadable results at baseline never establish the bug, and they are the
    // grader's fault on a tree the candidate's diff never touched: inconclusive, never blamed on the
    // candidate (as the base suite's anomalies in judgeRegression). Inconclusive never passes.
    return phase('reproduction_before', 'inconclusive', anomalies, results, extra);
  }
  const flaky = flakyIds(runs);
  const reasons: ReasonCode[] = flaky.length > 0 ? ['flaky'] : [];
  if (pinned !== undefined && runs.some((run) => pinsDiffer(run, pinned))) reasons.push('test_ids_mismatch');
  const perSite = expectedFailing !== undefined && expectedFailing.some((entry) => namesGroupedSite(entry, grouped));
  for (const run of runs) {
    const tests = perSite ? resultsOf(run) : perTestResults(resultsOf(run), run.sealed?.tests ?? []);
    const judged = expectedFailing === undefined ? tests : [...new Set(expectedFailing.flatMap((entry) => selectedBy(entry, tests)))];
    if (expectedFailing !== undefined && expectedFailing.some((entry) => selectedBy(entry, tests).length === 0)) reasons.push('repro_wrong_failure');
    if (judged.some((t) => t.status === 'passed')) reasons.push('repro_passes_before');
    if (judged.some((t) => t.status !== 'passed' && !isRightReason(t))) reasons.push('repro_wrong_failure');
  }
  // The base reproduction runs the pack's tests on the base tree: nothing in them is the candidate's.
  // A reproduction that passes there, fails for a reason the pack does not allow, is flaky or runs
  // other ids than the pack pinned is a fault of the pack (or of the grader), never of the candidate:
  // inconclusive, naming the pack, and never a pass (issue 28).
  return phase('reproduction_before', reasons.length === 0 ? 'passed' : 'inconclusive', reasons, results, { ...extra, ...(flaky.length > 0 ? { flaky } : {}) });
}

/**
 * Pins name tests (issue 28 item 7): in a sealed run, the framework's own test ids (every sealed test
 * still runs as a test; its results are observations), or, for packs pinned before, the sealed ids.
 */
function pinsDiffer(run: RunEvidence, pinned: readonly string[]): boolean {
  if (run.sealed === undefined) return idsDiffer(resultsOf(run), pinned);
  return idsDiffer(run.parsed?.tests ?? [], pinned) && idsDiffer(resultsOf(run), pinned);
}

/** True when a run's ids are not exactly the pinned ones (missing, extra, renamed or repeated). */
function idsDiffer(results: readonly TestCaseResult[], pinned: readonly string[]): boolean {
  const seen = results.map((t) => t.id);
  const want = new Set(pinned);
  return seen.length !== want.size || new Set(seen).size !== seen.length || seen.some((id) => !want.has(id));
}

/** Compare a run against ids that must be present; absent ids become failed entries. */
function withMissing(results: TestCaseResult[], expectedIds: Iterable<string>, alsoPresent: readonly TestCaseResult[] = []): { all: TestCaseResult[]; missing: string[] } {
  const present = new Set([...results, ...alsoPresent].map((t) => t.id));
  const missing = [...new Set(expectedIds)].filter((id) => !present.has(id)).sort();
  const all = [...results, ...missing.map((id): TestCaseResult => ({ id, status: 'failed', failure_kind: 'unknown', message: 'absent from the results' }))];
  return { all, missing };
}

/** Tests that must pass in every run (reproduction after the patch, hidden), ids seen before included. */
function judgeMustPass(
  name: 'reproduction_after' | 'hidden',
  runs: readonly RunEvidence[],
  failReason: ReasonCode,
  seenIds: readonly string[],
  pinned?: readonly string[]
): PhaseJudgement {
  // A pinned id that never ran is a failed test, like an id seen before the patch and gone after.
  const expectedIds = [...seenIds, ...(pinned ?? [])];
  // In a sealed run a framework test that passed is left out of the results, yet it is present.
  const frameworkOf = (run: RunEvidence | undefined): TestCaseResult[] => (run?.sealed !== undefined ? (run.parsed?.tests ?? []) : []);
  const first = withMissing(resultsOf(runs[0]), expectedIds, frameworkOf(runs[0]));
  const verdict = judgeAnomalies(anomaliesOf(runs));
  if (verdict) return phase(name, verdict.status, verdict.reasons, first.all, { missing: first.missing });
  const flaky = flakyIds(runs);
  const perRun = runs.map((run) => withMissing(resultsOf(run), expectedIds, frameworkOf(run)).all);
  const ids = new Set(perRun.flat().map((t) => t.id));
  // Failing in every run is the candidate's failure; failing in some runs only is flakiness.
  const alwaysFails = [...ids].some((id) => perRun.every((tests) => tests.every((t) => t.id !== id || t.status !== 'passed')));
  const reasons: ReasonCode[] = [...(alwaysFails ? [failReason] : []), ...(flaky.length > 0 ? (['flaky'] as const) : [])];
  if (pinned !== undefined && runs.some((run) => pinsDiffer(run, pinned))) reasons.push('test_ids_mismatch');
  return phase(name, reasons.length === 0 ? 'passed' : 'failed', reasons, first.all, { missing: first.missing, ...(flaky.length > 0 ? { flaky } : {}) });
}

/** Reproduction after the patch must pass in every run, including every id seen before the patch. */
export function judgeReproductionAfter(runs: readonly RunEvidence[], before: readonly RunEvidence[], pinned?: readonly string[]): PhaseJudgement {
  return judgeMustPass(
    'reproduction_after',
    runs,
    'not_fixed',
    resultsOf(before[0]).map((t) => t.id),
    pinned
  );
}

/** Hidden tests the candidate never saw must all pass, in every run. */
export function judgeHidden(runs: readonly RunEvidence[], pinned?: readonly string[]): PhaseJudgement {
  return judgeMustPass('hidden', runs, 'hidden_failed', [], pinned);
}

/**
 * Regression (PASS_TO_PASS): every test that passed in the base suite still passes after the patch.
 * A test absent after is `tests_removed`, one skipped after is `tests_skipped`; one that fails and
 * then passes in a retry is reported as flaky, one that fails in every retry is a regression. Tests
 * failing at baseline are reported, not blamed.
 */
export function judgeRegression(before: RunEvidence, after: readonly RunEvidence[]): PhaseJudgement {
  const baseResults = resultsOf(before);
  const baseline = { results: baseResults, tests: countTests(baseResults) };
  const first = after[0];
  const baseAnomalies = runAnomalies(before);
  if (baseAnomalies.length > 0) {
    // Without a clean baseline there is nothing to hold the patch to: not the candidate's fault.
    return phase('regression', 'inconclusive', baseAnomalies.includes('infra_error') ? ['infra_error'] : baseAnomalies, resultsOf(first), { baseline });
  }
  const passToPass = baseResults.filter((t) => t.status === 'passed').map((t) => t.id);
  const preexisting = baseResults
    .filter((t) => t.status === 'failed' || t.status === 'errored')
    .map((t) => t.id)
    .sort();
  const { all, missing } = withMissing(resultsOf(first), passToPass);
  const extra = { baseline, pass_to_pass: passToPass.length, preexisting_failures: preexisting, missing };
  const verdict = judgeAnomalies(anomaliesOf(after));
  if (verdict) return phase('regression', verdict.status, verdict.reasons, all, { ...extra, regressions: [] });
  const firstById = new Map(all.map((t) => [t.id, t.status]));
  const newlySkipped = passToPass.filter((id) => firstById.get(id) === 'skipped').sort();
  const failedFirst = passToPass.filter((id) => firstById.get(id) !== 'passed' && firstById.get(id) !== 'skipped' && !missing.includes(id));
  const retries = after.slice(1);
  const passedInRetry = (id: string): boolean => retries.some((run) => resultsOf(run).some((t) => t.id === id && t.status === 'passed'));
  // A copy of a base test that the base did not have (code under test registering a test of the
  // same name ahead of it moves the real one to the next occurrence index) is held to the copies
  // the base had: failing, it is a regression, never an unjudged new test.
  const baseIds = new Set(baseResults.map((t) => t.id));
  const extraCopies = all
    .filter((t) => !baseIds.has(t.id) && firstOccurrenceId(t.id) !== t.id && passToPass.includes(firstOccurrenceId(t.id)))
    .filter((t) => t.status === 'failed' || t.status === 'errored')
    .map((t) => t.id);
  const failing = [...failedFirst, ...extraCopies];
  const flaky = failing.filter(passedInRetry).sort();
  const regressions = [...failing.filter((id) => !passedInRetry(id)), ...missing, ...newlySkipped].sort();
  const reasons: ReasonCode[] = [];
  if (failing.some((id) => !passedInRetry(id))) reasons.push('regression');
  if (missing.length > 0) reasons.push('tests_removed');
  if (newlySkipped.length > 0) reasons.push('tests_skipped');
  return phase('regression', reasons.length === 0 ? 'passed' : 'failed', reasons, all, {
    ...extra,
    regressions,
    ...(flaky.length > 0 ? { flaky } : {}),
    ...(newlySkipped.length > 0 ? { newly_skipped: newlySkipped } : {})
  });
}

/** What L3's first tier showed: `failed` only for a PASS_TO_PASS test failing in every tier run. */
export interface RelatedTierJudgement {
  /** `inconclusive`: an anomaly in a tier run or in the base suite; the full suite then decides. */
  status: 'passed' | 'failed' | 'inconclusive';
  regressions: string[];
  /** The regression phase as the tier decides it (used only when the tier failed). */
  phase: PhaseJudgement;
}

/**
 * L3's first tier: the related suite files on the candidate's tree, held to the base suite's
 * results for the same ids (the base suite ran every file, so no extra base run is needed). Only a
 * test that passed on the base and failed (or errored) in the first tier run and in every retry of
 * it is a regression; tests absent from the tier run are not judged here (the full suite judges
 * them). Anything else that is wrong (an anomaly, no runs) is inconclusive, so the full suite
 * decides: the tier can stop a candidate, never pass one.
 */
export function judgeRelatedTier(before: RunEvidence | undefined, related: readonly RunEvidence[]): RelatedTierJudgement {
  const baseResults = resultsOf(before);
  const first = resultsOf(related[0]);
  const baseline = { results: baseResults, tests: countTests(baseResults) };
  const inconclusive = (reasons: ReasonCode[]): RelatedTierJudgement => ({
    status: 'inconclusive',
    regressions: [],
    phase: phase('regression', 'inconclusive', reasons, first, { baseline })
  });
  if (before === undefined || related.length === 0) return inconclusive(['no_results']);
  const baseAnomalies = runAnomalies(before);
  if (baseAnomalies.length > 0) return inconclusive(baseAnomalies);
  const anomalies = anomaliesOf(related);
  if (anomalies.length > 0) return inconclusive(anomalies);
  const passToPass = baseResults.filter((t) => t.status === 'passed').map((t) => t.id);
  const p2p = new Set(passToPass);
  const failing = [...new Set(first.filter((t) => p2p.has(t.id) && (t.status === 'failed' || t.status === 'errored')).map((t) => t.id))];
  const retries = related.slice(1);
  const passedInRetry = (id: string): boolean => retries.some((run) => resultsOf(run).some((t) => t.id === id && t.status === 'passed'));
  const regressions = failing.filter((id) => !passedInRetry(id)).sort();
  const flaky = failing.filter(passedInRetry).sort();
  const preexisting = baseResults
    .filter((t) => t.status === 'failed' || t.status === 'errored')
    .map((t) => t.id)
    .sort();
  const status = regressions.length > 0 ? 'failed' : 'passed';
  return {
    status,
    regressions,
    phase: phase('regression', status, status === 'failed' ? ['regression'] : [], first, {
      baseline,
      pass_to_pass: passToPass.length,
      preexisting_failures: preexisting,
      missing: [],
      regressions,
      ...(flaky.length > 0 ? { flaky } : {})
    })
  };
}

/** The runs of one validation, by label, in attempt order. */
export type RunsByLabel = Record<RunLabel, RunEvidence[]>;

export interface Judgement {
  phases: PhaseJudgement[];
  verdict: Verdict;
  reasons: ReasonCode[];
}

/** Judge all four phases from the runs, then the verdict (with the test-surface reasons). */
export function judge(
  runs: RunsByLabel,
  repositoryUnchanged: boolean,
  options: {
    expectedFailing?: readonly string[];
    surfaceReasons?: readonly ReasonCode[];
    /** The pack's pinned ids (witness.json `reproduction.ids`, `hidden.ids`). */
    pinned?: { reproduction?: readonly string[]; hidden?: readonly string[] };
    /** Phases of the candidate stopped by a failed gate (early exit): recorded as `not_run`. */
    notRun?: readonly PhaseName[];
    /** L3's first tier's runs (related test files); when they show a regression, they decide the regression phase. */
    related?: readonly RunEvidence[];
  } = {}
): Judgement {
  const before = judgeReproductionBefore(runs.reproduction_before, options.expectedFailing, options.pinned?.reproduction);
  const unrunnable = baseUnrunnable(runs);
  // Without an established bug the candidate's runs decide nothing: they are not run (the
  // scheduler cancels them), and whatever they produced is left out, so the receipt does not
  // depend on which of them happened to finish first.
  if (!basePassesGate(before, unrunnable)) {
    const first = unrunnable ? { ...before, status: 'inconclusive' as const, reasons: ['base_unrunnable' as const] } : before;
    const phases = [withChecks(first, runs, options), notRunPhase('reproduction_after'), notRunPhase('regression'), notRunPhase('hidden')];
    return { phases, ...decideVerdict(phases, repositoryUnchanged, options.surfaceReasons ?? []) };
  }
  const stopped = new Set(options.notRun ?? []);
  // A failed tier decides the phase (the full suite was not run after it); any other tier outcome
  // leaves the phase to the full suite.
  const tier = (options.related ?? []).length > 0 ? judgeRelatedTier(runs.regression_before[0], options.related ?? []) : undefined;
  const judged = [
    before,
    stopped.has('reproduction_after') ? notRunPhase('reproduction_after') : judgeReproductionAfter(runs.reproduction_after, runs.reproduction_before, options.pinned?.reproduction),
    stopped.has('regression')
      ? notRunPhase('regression')
      : tier?.status === 'failed'
        ? tier.phase
        : judgeRegression(runs.regression_before[0] as RunEvidence, runs.regression_after),
    stopped.has('hidden') ? notRunPhase('hidden') : judgeHidden(runs.hidden, options.pinned?.hidden)
  ];
  const explained = judged.map((p) => withChecks(p, runs, options, tier?.status === 'failed' ? (options.related ?? []) : []));
  return { phases: explained, ...decideVerdict(explained, repositoryUnchanged, options.surfaceReasons ?? []) };
}

/** The phase with the checks that fired for it (issue 28 item 8), when there are any. */
function withChecks(
  judged: PhaseJudgement,
  runs: RunsByLabel,
  options: { expectedFailing?: readonly string[]; pinned?: { reproduction?: readonly string[]; hidden?: readonly string[] } },
  related: readonly RunEvidence[] = []
): PhaseJudgement {
  const own: Record<PhaseName, readonly RunEvidence[]> = {
    reproduction_before: runs.reproduction_before,
    reproduction_after: runs.reproduction_after,
    regression: [...runs.regression_before.slice(0, 1), ...related, ...(related.length > 0 ? [] : runs.regression_after)],
    hidden: runs.hidden
  };
  const pinned = judged.name === 'hidden' ? options.pinned?.hidden : judged.name === 'regression' ? undefined : options.pinned?.reproduction;
  const checks = phaseChecks(judged, own[judged.name], (run) => resultsOf(run as RunEvidence), {
    ...(judged.name === 'reproduction_before' && options.expectedFailing !== undefined ? { expectedFailing: options.expectedFailing } : {}),
    ...(pinned !== undefined ? { pinned } : {})
  });
  return checks.length > 0 ? { ...judged, checks } : judged;
}

/** A phase that was not needed: no tests, no reasons, never a pass. */
export function notRunPhase(name: PhaseName): PhaseJudgement {
  return phase(name, 'not_run', [], []);
}

/**
 * The one early exit: the candidate's runs (reproduction after, regression, hidden) are needed only
 * when the base reproduction established the bug. Otherwise the verdict is failed or inconclusive
 * whatever they show. Both the scheduler (which cancels them) and the judge (which records them as
 * `not_run`) decide it from the base reproduction's runs alone, so the outcome is the same in
 * every scheduling order.
 */
export function basePassesGate(reproductionBefore: Pick<PhaseJudgement, 'status'>, unrunnable: boolean): boolean {
  return reproductionBefore.status === 'passed' && !unrunnable;
}

/** The gate decided from the base reproduction's runs alone (the scheduler's view; see basePassesGate). */
export function patchedRunsNeeded(
  reproductionBefore: readonly RunEvidence[],
  options: { expectedFailing?: readonly string[]; pinned?: { reproduction?: readonly string[] } } = {}
): boolean {
  // A base whose every run could not start is unrunnable; with its reproduction alone that is
  // already decided when the reproduction did not pass, and passing reproductions did start.
  return judgeReproductionBefore(reproductionBefore, options.expectedFailing, options.pinned?.reproduction).status === 'passed';
}

/**
 * The verdict: failed when any phase failed or the candidate touched its grader (surface reasons);
 * otherwise inconclusive when any phase is inconclusive or the real checkout changed during the
 * run; passed only when all four phases passed.
 */
export function decideVerdict(
  phases: readonly Pick<PhaseJudgement, 'status' | 'reasons'>[],
  repositoryUnchanged: boolean,
  surfaceReasons: readonly ReasonCode[] = []
): { verdict: Verdict; reasons: ReasonCode[] } {
  const reasons = new Set<ReasonCode>([...phases.flatMap((p) => p.reasons), ...surfaceReasons]);
  if (!repositoryUnchanged) reasons.add('repository_changed');
  const sorted = [...reasons].sort();
  if (phases.some((p) => p.status === 'failed') || surfaceReasons.length > 0) return { verdict: 'failed', reasons: sorted };
  // A phase not run (or any status but passed) is never part of a pass.
  const complete = phases.length === PHASE_NAMES.length && phases.every((p) => p.status === 'passed');
  if (!complete || !repositoryUnchanged) return { verdict: 'inconclusive', reasons: sorted };
  return { verdict: 'passed', reasons: sorted };
}
