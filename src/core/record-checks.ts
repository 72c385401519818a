import { judgeObservations, sealedTestResults, type OracleFile, type RecordInput } from './oracle.js';
import { RIGHT_REASON_FAILURES, type TestCaseResult } from './test-results.js';
import { judgeReproductionBefore, type RunEvidence } from './verdict.js';
import { perTestResults, sealedTests, testOfCases } from './sealed-tests.js';

/**
 * What `witness record` checks beyond the values (issue 28): a recorded oracle must tell the base
 * from the reference fix. Pure: the runs are made elsewhere (src/oracle/record.ts). Each function
 * returns the lines of its refusal, empty when the pack passes.
 */

/** One run `witness record` made, with the tree it ran on and its framework results. */
export interface RecordedPackRun extends RecordInput {
  tree: 'base' | 'patched';
  evidence: RunEvidence;
}

const MAX_NAMED = 5;
const named = (ids: readonly string[]): string => `${ids.slice(0, MAX_NAMED).join(', ')}${ids.length > MAX_NAMED ? `, and ${ids.length - MAX_NAMED} more` : ''}`;
const failing = (t: TestCaseResult): boolean => t.status === 'failed' || t.status === 'errored';
const rightReason = (t: TestCaseResult): boolean => RIGHT_REASON_FAILURES.includes(t.failure_kind ?? 'unknown');

/** A reproduction with no sealed case and no pending site grades nothing outside the process. */
export function reproductionSealProblems(oracle: OracleFile): string[] {
  const sites = oracle.cases.filter((c) => c.phase === 'reproduction').length + (oracle.pending ?? []).filter((p) => p.phase === 'reproduction').length;
  if (sites > 0) return [];
  const unsealed = oracle.unsealed.filter((u) => u.phase === 'reproduction').map((u) => `${u.file}:${u.line}`);
  return [`the reproduction has no sealed site${unsealed.length > 0 ? ` (unsealed: ${named(unsealed)})` : ''}; nothing in it would be graded outside the container`];
}

/**
 * The reference fix's runs: every test of the reproduction and hidden phases must pass. A test that
 * fails there for a reason that has nothing to do with the bug (a module not found, an import or
 * collection error, a setup error) is a fault of the pack, and so is any failure the fix does not cure.
 */
export function referenceFailures(runs: readonly RecordedPackRun[]): string[] {
  const problems = new Map<string, string>();
  for (const run of runs) {
    if (run.tree !== 'patched' || run.evidence.parsed === undefined) continue;
    const tests = run.evidence.parsed.tests;
    if (tests.length === 0 && run.problem === undefined) problems.set(`${run.phase}:(none)`, `${run.phase}: no test ran with the reference fix`);
    for (const t of tests.filter(failing)) {
      const kind = t.failure_kind ?? 'unknown';
      const detail = t.message === undefined ? '' : `: ${t.message.split('\n')[0]?.slice(0, 160) ?? ''}`;
      problems.set(
        `${run.phase}:${t.id}`,
        rightReason(t)
          ? `${run.phase}: ${t.id} fails with the reference fix (${kind})${detail}`
          : `${run.phase}: ${t.id} fails with the reference fix for a reason that has nothing to do with the bug (${kind})${detail}`
      );
    }
  }
  return [...problems.values()];
}

/**
 * The base's reproduction runs, judged with the recorded oracle as validate judges them: the
 * reproduction must fail on the base for a reason the pack allows, and at least one sealed case
 * must tell the base from the reference fix (its base observation differs from the expectation,
 * the call raised, or the base stopped with an error before the site the reference reached).
 */
export function baseProblems(
  oracle: OracleFile,
  runs: readonly RecordedPackRun[],
  options: { expectedFailing?: readonly string[]; pinned?: readonly string[] } = {}
): { problems: string[]; discriminating: string[] } {
  const cases = oracle.cases.filter((c) => c.phase === 'reproduction');
  const baseRuns = runs.filter((r) => r.tree === 'base' && r.phase === 'reproduction');
  if (baseRuns.length === 0) return { problems: ['the reproduction was not run on the base'], discriminating: [] };
  const judged = baseRuns.map((run) => judgeObservations(cases, { observations: run.observations, malformed: run.malformed }));
  const evidence = baseRuns.map((run, i): RunEvidence => {
    const j = judged[i]!;
    // As runs.ts builds it: the sites of one test are judged together on the base.
    const tests = sealedTests(cases, run.evidence.parsed?.tests ?? []);
    return { ...run.evidence, sealed: { results: sealedTestResults(j, true, testOfCases(cases)), problems: j.problems, ...(tests.length > 0 ? { tests } : {}) } };
  });
  const problems: string[] = [];
  const before = judgeReproductionBefore(evidence, options.expectedFailing, options.pinned);
  if (before.status !== 'passed') {
    const passing = [
      ...new Set(
        evidence
          .flatMap((e) => sealedAndFailures(e))
          .filter((t) => t.status === 'passed' && (options.expectedFailing?.includes(t.id) ?? true))
          .map((t) => t.id)
      )
    ];
    const wrong = [
      ...new Set(
        evidence
          .flatMap((e) => sealedAndFailures(e))
          .filter((t) => failing(t) && !rightReason(t))
          .map((t) => `${t.id} (${t.failure_kind ?? 'unknown'})`)
      )
    ];
    for (const reason of before.reasons) {
      if (reason === 'repro_passes_before') problems.push(`the reproduction does not fail on the base: ${named(passing)} hold(s) there`);
      else if (reason === 'repro_wrong_failure')
        problems.push(`the reproduction fails on the base for a reason the pack does not allow: ${wrong.length > 0 ? named(wrong) : 'not the expected failing ids'}`);
      else problems.push(`the base reproduction does not establish the bug (${reason})`);
    }
  }
  const discriminating = cases.filter((c) =>
    judged.every((j, i) => {
      const outcome = j.cases.find((o) => o.id === c.id)?.outcome;
      if (outcome === 'mismatched' || outcome === 'raised') return true;
      // Never reached on the base, which stopped with an error where the reference went on.
      return outcome === 'missing' && (baseRuns[i]!.evidence.parsed?.tests ?? []).some((t) => failing(t) && rightReason(t));
    })
  );
  if (discriminating.length === 0) {
    const held = cases.map((c) => c.id);
    problems.push(
      `no sealed site of the reproduction tells the base from the reference fix (${held.length > 0 ? `${named(held)} observed on the base what the reference observed` : 'it has no sealed case'}); such an oracle holds for any implementation`
    );
  }
  return { problems, discriminating: discriminating.map((c) => c.id) };
}

/** A run's deciding results as validate reads them: the sealed cases, and the framework's failures. */
function sealedAndFailures(e: RunEvidence): TestCaseResult[] {
  return perTestResults([...(e.sealed?.results ?? []), ...(e.parsed?.tests ?? []).filter((t) => t.status !== 'passed')], e.sealed?.tests ?? []);
}
