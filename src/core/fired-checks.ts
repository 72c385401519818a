import { twinBehaved, type TwinOutcome } from './twins.js';
import { countTests, RIGHT_REASON_FAILURES, type ParsedResults, type TestCaseResult, type TestStatus } from './test-results.js';

/**
 * Which check fired (issue 28 item 8): every `grader_compromised` and every inconclusive phase names
 * the exact check behind it — which canary or twin, which count disagreed with what, which exit
 * status, in which run. Pure. The entries are general (`check`, `run`, `detail`) so that any other
 * source of `grader_compromised` (an in-process tripwire, for one) adds entries of its own kind.
 */

/** The checks this module names; other modules may add their own names. */
export const FIRED_CHECK_NAMES = [
  'canary_pass',
  'canary_fail',
  'twin',
  'exit_status',
  'claimed_counts',
  'results_channel',
  /** The in-process tripwire (src/adapters/shared/tripwire.ts) named changes to the grader. */
  'tripwire',
  'no_results',
  'timeout',
  'output_limit',
  'results_inconsistent',
  'observations_invalid',
  'infra_error',
  'repro_passes_before',
  'repro_wrong_failure',
  'flaky',
  'test_ids_mismatch',
  'base_unrunnable'
] as const;

/** One check that fired: its name, the run it fired in (`label#attempt`), and what it saw. */
export interface FiredCheck {
  check: string;
  /** `reproduction_before#1`: the run's label and attempt; absent for a check over a phase's runs. */
  run?: string;
  detail: string;
}

/** What of a run the checks read (RunEvidence of src/core/verdict.ts has all of it). */
export interface CheckedRun {
  label: string;
  attempt: number;
  exitCode: number | null;
  timedOut: boolean;
  outputTruncated: boolean;
  infraError?: string;
  parsed?: ParsedResults;
  canary?: { pass: TestStatus | 'missing'; fail: TestStatus | 'missing'; twins?: TwinOutcome[]; changed?: string[] };
  sealed?: { results: TestCaseResult[]; problems: string[] };
}

const runName = (run: Pick<CheckedRun, 'label' | 'attempt'>): string => `${run.label}#${String(run.attempt)}`;

/** Longest list of ids or problems quoted in one detail; the rest is counted. */
const QUOTED = 10;

function quoted(items: readonly string[]): string {
  const shown = items.slice(0, QUOTED).join(', ');
  return items.length > QUOTED ? `${shown} and ${String(items.length - QUOTED)} more` : shown;
}

/**
 * The grader's own checks on one run that fired: each of them makes the run `grader_compromised`
 * (src/core/verdict.ts runAnomalies). Empty when every canary, twin, count and exit status behaved and the tripwire named no change.
 */
export function graderChecks(run: CheckedRun): FiredCheck[] {
  if (run.parsed === undefined) return [];
  const at = runName(run);
  const fired: FiredCheck[] = [];
  const canary = run.canary ?? { pass: 'missing' as const, fail: 'missing' as const };
  if (canary.pass !== 'passed')
    fired.push({ check: 'canary_pass', run: at, detail: `the must-pass canary ${canary.pass === 'missing' ? 'is missing from the results' : canary.pass}, expected passed` });
  if (canary.fail !== 'failed')
    fired.push({ check: 'canary_fail', run: at, detail: `the must-fail canary ${canary.fail === 'missing' ? 'is missing from the results' : canary.fail}, expected failed` });
  // The tripwire's changes also fail the must-pass canary (named above); each is named here as well.
  const changed = canary.changed ?? [];
  if (changed.length > 0) fired.push({ check: 'tripwire', run: at, detail: `the tripwire found the grader changed: ${quoted(changed)}` });
  (canary.twins ?? []).forEach((twin, index) => {
    if (twinBehaved(twin)) return;
    const want = twin.kind === 'twin' ? `ending as its original (${twin.original})` : 'failed (its original passed)';
    fired.push({
      check: 'twin',
      run: at,
      detail: `${twin.kind} ${String(index + 1)} of ${String(canary.twins?.length ?? 0)}: ${twin.status}, original ${twin.original}; expected ${want}`
    });
  });
  // The must-fail canary makes every honest run exit non-zero.
  if (run.exitCode === 0 || run.exitCode === null) {
    fired.push({
      check: 'exit_status',
      run: at,
      detail: `the test process exited ${run.exitCode === null ? 'without an exit status' : '0'}; a run with the must-fail canary must exit non-zero`
    });
  }
  const { claimed } = run.parsed;
  const counts = countTests(run.parsed.tests);
  if (claimed !== undefined && claimed.passed !== counts.passed) {
    fired.push({ check: 'claimed_counts', run: at, detail: `the runner claimed ${String(claimed.passed)} passed; the results hold ${String(counts.passed)}` });
  }
  if (claimed !== undefined && claimed.failed + claimed.errored !== counts.failed + counts.errored) {
    fired.push({
      check: 'claimed_counts',
      run: at,
      detail: `the runner claimed ${String(claimed.failed + claimed.errored)} failed or errored; the results hold ${String(counts.failed + counts.errored)}`
    });
  }
  for (const disagreement of run.parsed.channel?.disagreements ?? []) fired.push({ check: 'results_channel', run: at, detail: disagreement });
  return fired;
}

/** Every check that fired on one run: the run's own anomalies (infrastructure, time, output, results) and the grader's checks. */
export function runChecks(run: CheckedRun): FiredCheck[] {
  const at = runName(run);
  if (run.infraError !== undefined || run.parsed === undefined) {
    return [{ check: 'infra_error', run: at, detail: run.infraError ?? 'the run left no results to read' }];
  }
  const fired: FiredCheck[] = [];
  if (run.timedOut) fired.push({ check: 'timeout', run: at, detail: 'the run was killed at its time limit' });
  if (run.outputTruncated) fired.push({ check: 'output_limit', run: at, detail: 'the run was killed at its output or results cap' });
  if (fired.length > 0) return fired;
  if (run.parsed.tests.length === 0) fired.push({ check: 'no_results', run: at, detail: 'the results hold no test' });
  fired.push(...graderChecks(run));
  if (run.parsed.problems.length > 0) fired.push({ check: 'results_inconsistent', run: at, detail: quoted(run.parsed.problems) });
  if (run.sealed !== undefined && run.sealed.problems.length > 0) fired.push({ check: 'observations_invalid', run: at, detail: quoted(run.sealed.problems) });
  return fired;
}

/** What of a phase judgement the explanation reads. */
export interface ExplainedPhase {
  name: string;
  status: string;
  reasons: readonly string[];
  flaky?: readonly string[];
}

/** The reasons that name a check of the grader rather than a verdict on the candidate's tests. */
const CHECK_REASONS = new Set(['grader_compromised', 'no_results', 'timeout', 'output_limit', 'results_inconsistent', 'observations_invalid', 'infra_error']);

/**
 * The checks that fired for a phase: for `grader_compromised` and every inconclusive phase, the
 * exact check and run behind each reason. `results` of each run are the ones the judge read
 * (sealed cases first); `expectedFailing` and `pinned` are the pack's. Empty for a phase with
 * nothing to explain (passed, not run, or failed on the candidate's tests alone).
 */
export function phaseChecks(
  phase: ExplainedPhase,
  runs: readonly CheckedRun[],
  resultsOf: (run: CheckedRun) => readonly TestCaseResult[],
  options: { expectedFailing?: readonly string[]; pinned?: readonly string[] } = {}
): FiredCheck[] {
  const explain = phase.status === 'inconclusive' || phase.reasons.some((reason) => CHECK_REASONS.has(reason));
  if (!explain) return [];
  const fired: FiredCheck[] = runs.flatMap(runChecks);
  const reasons = new Set(phase.reasons);
  if (phase.status === 'inconclusive' && phase.name === 'reproduction_before') {
    for (const run of runs) {
      const tests = resultsOf(run);
      const judged = options.expectedFailing === undefined ? tests : tests.filter((t) => options.expectedFailing?.includes(t.id));
      const passed = judged.filter((t) => t.status === 'passed').map((t) => t.id);
      if (reasons.has('repro_passes_before') && passed.length > 0) {
        fired.push({ check: 'repro_passes_before', run: runName(run), detail: `passed on the base: ${quoted(passed)}` });
      }
      const wrong = judged.filter(
        (t) => t.status !== 'passed' && !((t.status === 'failed' || t.status === 'errored') && RIGHT_REASON_FAILURES.includes(t.failure_kind ?? 'unknown'))
      );
      if (reasons.has('repro_wrong_failure') && wrong.length > 0) {
        fired.push({ check: 'repro_wrong_failure', run: runName(run), detail: quoted(wrong.map((t) => `${t.id} ${t.status} (${t.failure_kind ?? 'unknown'})`)) });
      }
      const expected = new Set(options.expectedFailing ?? []);
      if (reasons.has('repro_wrong_failure') && options.expectedFailing !== undefined && judged.length !== expected.size) {
        const seen = new Set(judged.map((t) => t.id));
        fired.push({
          check: 'repro_wrong_failure',
          run: runName(run),
          detail: `the pack expects ${String(expected.size)} failing ids; ${String(judged.length)} ran${seen.size < expected.size ? `, absent: ${quoted([...expected].filter((id) => !seen.has(id)))}` : ''}`
        });
      }
    }
  }
  if (reasons.has('flaky') && (phase.flaky ?? []).length > 0) {
    fired.push({ check: 'flaky', detail: `differed between runs of the same tree: ${quoted(phase.flaky ?? [])}` });
  }
  if (reasons.has('test_ids_mismatch') && options.pinned !== undefined) {
    const want = new Set(options.pinned);
    for (const run of runs) {
      const seen = resultsOf(run).map((t) => t.id);
      const extra = [...new Set(seen.filter((id) => !want.has(id)))];
      const absent = [...want].filter((id) => !seen.includes(id));
      if (extra.length + absent.length === 0 && new Set(seen).size === seen.length) continue;
      const parts = [...(absent.length > 0 ? [`pinned but absent: ${quoted(absent)}`] : []), ...(extra.length > 0 ? [`not pinned: ${quoted(extra)}`] : [])];
      fired.push({ check: 'test_ids_mismatch', run: runName(run), detail: parts.length > 0 ? parts.join('; ') : 'an id ran more than once' });
    }
  }
  if (reasons.has('base_unrunnable')) {
    fired.push({ check: 'base_unrunnable', detail: 'no run on the base tree got as far as its tests (see the runs’ exit statuses and the base failure excerpt)' });
  }
  return fired;
}
