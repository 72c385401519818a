import { RIGHT_REASON_FAILURES, countTests, type TestCaseResult, type TestCounts, type ParsedResults } from './test-results.js';

/**
 * The judge: turns the evidence of each run into phase results and one verdict. Pure.
 *
 * Fail closed everywhere: zero tests, missing or inconsistent results, a timeout or truncated output
 * never count as a pass. Infrastructure faults make a phase inconclusive, never failed (they are not
 * the candidate's fault) and never passed.
 */

export const PHASE_NAMES = ['reproduction_before', 'reproduction_after', 'regression', 'hidden'] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];

/** The runs one validation makes; `regression` takes two (the base suite and the patched suite). */
export const RUN_LABELS = ['reproduction_before', 'reproduction_after', 'regression_before', 'regression_after', 'hidden'] as const;
export type RunLabel = (typeof RUN_LABELS)[number];

export const REASON_CODES = [
  'patch_invalid',
  'policy_violation',
  'repro_passes_before',
  'repro_wrong_failure',
  'not_fixed',
  'regression',
  'hidden_failed',
  'no_results',
  'timeout',
  'output_limit',
  'results_inconsistent',
  'infra_error',
  'repository_changed'
] as const;
/** Machine-readable reasons; documented one by one in docs/receipt.md. */
export type ReasonCode = (typeof REASON_CODES)[number];

export type PhaseStatus = 'passed' | 'failed' | 'inconclusive';
export type Verdict = 'passed' | 'failed' | 'inconclusive';

/** Problems of a run itself, before its tests are looked at. */
type Anomaly = 'no_results' | 'timeout' | 'output_limit' | 'results_inconsistent' | 'infra_error';

/** What one run produced, as the judge needs it. */
export interface RunEvidence {
  label: RunLabel;
  exitCode: number | null;
  timedOut: boolean;
  outputTruncated: boolean;
  /** Set when the run could not be carried out at all (Docker down, copy failed...). */
  infraError?: string;
  /** Undefined when the run never produced anything to parse (infrastructure error). */
  parsed?: ParsedResults;
}

export interface PhaseJudgement {
  name: PhaseName;
  status: PhaseStatus;
  reasons: ReasonCode[];
  /** The tests that decide this phase (for regression: the patched suite). */
  results: TestCaseResult[];
  tests: TestCounts;
  /** Regression only: the base suite, the ids that must keep passing, and what happened to them. */
  baseline?: { results: TestCaseResult[]; tests: TestCounts };
  pass_to_pass?: number;
  regressions?: string[];
  preexisting_failures?: string[];
  /** Ids expected in this run but absent from its results (counted as failed). */
  missing?: string[];
}

/** Anomalies of a run; empty when its results can be judged test by test. */
export function runAnomalies(run: RunEvidence): Anomaly[] {
  if (run.infraError !== undefined || run.parsed === undefined) return ['infra_error'];
  const anomalies: Anomaly[] = [];
  if (run.timedOut) anomalies.push('timeout');
  if (run.outputTruncated) anomalies.push('output_limit');
  // A killed run's result files are partial at best: nothing in them is judged.
  if (anomalies.length > 0) return anomalies;
  const { tests, problems, claimed } = run.parsed;
  if (tests.length === 0) {
    anomalies.push('no_results');
    return anomalies;
  }
  const counts = countTests(tests);
  const anyFailure = counts.failed + counts.errored > 0;
  const exitDisagrees = run.exitCode === null || (run.exitCode === 0) === anyFailure;
  const claimDisagrees =
    claimed !== undefined &&
    (claimed.passed !== counts.passed || claimed.failed + claimed.errored !== counts.failed + counts.errored);
  if (problems.length > 0 || exitDisagrees || claimDisagrees) anomalies.push('results_inconsistent');
  return anomalies;
}

function judgeAnomalies(anomalies: Anomaly[]): { status: PhaseStatus; reasons: ReasonCode[] } | undefined {
  if (anomalies.length === 0) return undefined;
  if (anomalies.includes('infra_error')) return { status: 'inconclusive', reasons: ['infra_error'] };
  return { status: 'failed', reasons: [...anomalies] };
}

function phase(name: PhaseName, status: PhaseStatus, reasons: ReasonCode[], results: TestCaseResult[], extra: Partial<PhaseJudgement> = {}): PhaseJudgement {
  return { name, status, reasons: [...new Set(reasons)].sort(), results, tests: countTests(results), ...extra };
}

const resultsOf = (run: RunEvidence): TestCaseResult[] => run.parsed?.tests ?? [];

/** Reproduction before the patch must fail, every test of it, for the right reason. */
export function judgeReproductionBefore(run: RunEvidence): PhaseJudgement {
  const results = resultsOf(run);
  const anomalies = runAnomalies(run);
  if (anomalies.includes('infra_error')) return phase('reproduction_before', 'inconclusive', ['infra_error'], results);
  if (anomalies.length > 0) {
    // A timeout, no tests or unreadable results at baseline never establish the bug.
    return phase('reproduction_before', 'failed', ['repro_wrong_failure', ...anomalies], results);
  }
  const reasons: ReasonCode[] = [];
  if (results.some((t) => t.status === 'passed')) reasons.push('repro_passes_before');
  const wrong = results.some(
    (t) =>
      t.status === 'skipped' ||
      ((t.status === 'failed' || t.status === 'errored') && !RIGHT_REASON_FAILURES.includes(t.failure_kind ?? 'unknown'))
  );
  if (wrong) reasons.push('repro_wrong_failure');
  return phase('reproduction_before', reasons.length === 0 ? 'passed' : 'failed', reasons, results);
}

/** Compare a run against ids that must be present; absent ids become failed entries. */
function withMissing(results: TestCaseResult[], expectedIds: Iterable<string>): { all: TestCaseResult[]; missing: string[] } {
  const present = new Set(results.map((t) => t.id));
  const missing = [...new Set(expectedIds)].filter((id) => !present.has(id)).sort();
  const all = [...results, ...missing.map((id): TestCaseResult => ({ id, status: 'failed', failure_kind: 'unknown', message: 'absent from the results' }))];
  return { all, missing };
}

/** Reproduction after the patch must pass: every test, including every id seen before the patch. */
export function judgeReproductionAfter(run: RunEvidence, before: RunEvidence): PhaseJudgement {
  const verdict = judgeAnomalies(runAnomalies(run));
  const { all, missing } = withMissing(resultsOf(run), resultsOf(before).map((t) => t.id));
  if (verdict) return phase('reproduction_after', verdict.status, verdict.reasons, all, { missing });
  const fixed = all.every((t) => t.status === 'passed');
  return phase('reproduction_after', fixed ? 'passed' : 'failed', fixed ? [] : ['not_fixed'], all, { missing });
}

/**
 * Regression (PASS_TO_PASS): every test that passed in the base suite still passes after the patch.
 * A test absent after counts as failed; tests failing at baseline are reported, not blamed.
 */
export function judgeRegression(before: RunEvidence, after: RunEvidence): PhaseJudgement {
  const baseResults = resultsOf(before);
  const baseline = { results: baseResults, tests: countTests(baseResults) };
  const baseAnomalies = runAnomalies(before);
  if (baseAnomalies.length > 0) {
    // Without a clean baseline there is nothing to hold the patch to: not the candidate's fault.
    return phase('regression', 'inconclusive', baseAnomalies, resultsOf(after), { baseline });
  }
  const passToPass = baseResults.filter((t) => t.status === 'passed').map((t) => t.id);
  const preexisting = baseResults.filter((t) => t.status === 'failed' || t.status === 'errored').map((t) => t.id).sort();
  const { all, missing } = withMissing(resultsOf(after), passToPass);
  const extra = { baseline, pass_to_pass: passToPass.length, preexisting_failures: preexisting, missing };
  const verdict = judgeAnomalies(runAnomalies(after));
  if (verdict) return phase('regression', verdict.status, verdict.reasons, all, { ...extra, regressions: [] });
  const byId = new Map(all.map((t) => [t.id, t]));
  const regressions = passToPass.filter((id) => byId.get(id)?.status !== 'passed').sort();
  return phase('regression', regressions.length === 0 ? 'passed' : 'failed', regressions.length === 0 ? [] : ['regression'], all, {
    ...extra,
    regressions
  });
}

/** Hidden tests the candidate never saw must all pass. */
export function judgeHidden(run: RunEvidence): PhaseJudgement {
  const results = resultsOf(run);
  const verdict = judgeAnomalies(runAnomalies(run));
  if (verdict) return phase('hidden', verdict.status, verdict.reasons, results);
  const ok = results.every((t) => t.status === 'passed');
  return phase('hidden', ok ? 'passed' : 'failed', ok ? [] : ['hidden_failed'], results);
}

export interface Judgement {
  phases: PhaseJudgement[];
  verdict: Verdict;
  reasons: ReasonCode[];
}

/** Judge all four phases from the five runs, then the verdict. */
export function judge(runs: Record<RunLabel, RunEvidence>, repositoryUnchanged: boolean): Judgement {
  const phases = [
    judgeReproductionBefore(runs.reproduction_before),
    judgeReproductionAfter(runs.reproduction_after, runs.reproduction_before),
    judgeRegression(runs.regression_before, runs.regression_after),
    judgeHidden(runs.hidden)
  ];
  return { phases, ...decideVerdict(phases, repositoryUnchanged) };
}

/**
 * The verdict from the phases: failed when any phase failed; otherwise inconclusive when any phase
 * is inconclusive or the real checkout changed during the run; passed only when all four passed.
 */
export function decideVerdict(
  phases: readonly Pick<PhaseJudgement, 'status' | 'reasons'>[],
  repositoryUnchanged: boolean
): { verdict: Verdict; reasons: ReasonCode[] } {
  const reasons = new Set<ReasonCode>(phases.flatMap((p) => p.reasons));
  if (!repositoryUnchanged) reasons.add('repository_changed');
  const sorted = [...reasons].sort();
  if (phases.some((p) => p.status === 'failed')) return { verdict: 'failed', reasons: sorted };
  const complete = phases.length === PHASE_NAMES.length && phases.every((p) => p.status === 'passed');
  if (!complete || !repositoryUnchanged) return { verdict: 'inconclusive', reasons: sorted };
  return { verdict: 'passed', reasons: sorted };
}
