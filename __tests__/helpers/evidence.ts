import type { TestCaseResult } from '../../src/core/test-results.js';
import { countTests } from '../../src/core/test-results.js';
import { judge, type RunEvidence, type RunLabel } from '../../src/core/verdict.js';
import { sealReceipt } from '../../src/core/receipt.js';
import type { Receipt, RunRecord } from '../../src/core/receipt-schema.js';

/** Builders for judge and receipt tests: evidence as the orchestrator would hand it over. */

export const pass = (id: string): TestCaseResult => ({ id, status: 'passed' });
export const fail = (id: string, kind: TestCaseResult['failure_kind'] = 'assertion'): TestCaseResult => ({
  id,
  status: kind === 'assertion' ? 'failed' : 'errored',
  failure_kind: kind,
  message: 'boom'
});
export const skip = (id: string): TestCaseResult => ({ id, status: 'skipped', skip_reason: 'skip' });

/** A clean run whose exit code agrees with its tests. */
export function run(label: RunLabel, tests: TestCaseResult[], overrides: Partial<RunEvidence> = {}): RunEvidence {
  const counts = countTests(tests);
  return {
    label,
    exitCode: counts.failed + counts.errored > 0 ? 1 : 0,
    timedOut: false,
    outputTruncated: false,
    parsed: { tests, problems: [] },
    ...overrides
  };
}

/** The five runs of a validation that passes. */
export function passingRuns(): Record<RunLabel, RunEvidence> {
  return {
    reproduction_before: run('reproduction_before', [fail('repro > parses 1h30m')]),
    reproduction_after: run('reproduction_after', [pass('repro > parses 1h30m')]),
    regression_before: run('regression_before', [pass('suite > a'), pass('suite > b'), fail('suite > flaky-at-base')]),
    regression_after: run('regression_after', [pass('suite > a'), pass('suite > b'), fail('suite > flaky-at-base')]),
    hidden: run('hidden', [pass('hidden > x'), pass('hidden > y')])
  };
}

const SNAP = `sha256:${'a'.repeat(64)}`;

function record(evidence: RunEvidence): RunRecord {
  return {
    label: evidence.label,
    argv: ['node', '--test'],
    exit_code: evidence.exitCode,
    signal: null,
    timed_out: evidence.timedOut,
    output_truncated: evidence.outputTruncated,
    output_bytes: 10,
    output_sha256: 'b'.repeat(64),
    duration_ms: 5,
    problems: evidence.parsed?.problems ?? [],
    ...(evidence.infraError !== undefined ? { infra_error: evidence.infraError } : {})
  };
}

/** A sealed receipt built through the real judge, as validate() builds it. */
export function receiptFrom(runs: Record<RunLabel, RunEvidence>, options: { isolated?: boolean; unchanged?: boolean } = {}): Receipt {
  const isolated = options.isolated ?? true;
  const unchanged = options.unchanged ?? true;
  const judgement = judge(runs, unchanged);
  const runsOf: Record<string, RunRecord[]> = {
    reproduction_before: [record(runs.reproduction_before)],
    reproduction_after: [record(runs.reproduction_after)],
    regression: [record(runs.regression_before), record(runs.regression_after)],
    hidden: [record(runs.hidden)]
  };
  return sealReceipt({
    schema: 'patchproof.receipt/v1',
    tool_version: '0.1.0',
    run_id: 'test-run',
    started_at: '2026-11-29T00:00:00.000Z',
    finished_at: '2026-11-29T00:00:05.000Z',
    verdict: judgement.verdict,
    proof_grade: isolated && judgement.verdict === 'passed' && unchanged,
    reasons: judgement.reasons,
    bindings: {
      proposal_hash: 'c'.repeat(64),
      approval_digest: SNAP,
      approved_by: 'reviewer',
      diff_digest: SNAP,
      base_snapshot: SNAP,
      patched_snapshot: SNAP,
      reproduction_digest: SNAP,
      hidden_digest: SNAP
    },
    repository: { snapshot_before: SNAP, snapshot_after: unchanged ? SNAP : `sha256:${'d'.repeat(64)}`, unchanged, changed_paths: unchanged ? [] : ['src/x.js'] },
    runner: isolated ? { kind: 'docker', isolated: true, image: 'sha256:' + 'e'.repeat(64), image_id: 'sha256:' + 'e'.repeat(64), settings: ['network=none'] } : { kind: 'local', isolated: false, settings: [] },
    adapter: 'node-test',
    limits: { timeout_ms: 1000, output_limit_bytes: 1000, diff_max_bytes: 1000, diff_max_files: 10 },
    phases: judgement.phases.map((p) => ({ ...p, runs: runsOf[p.name] ?? [] }))
  });
}

export { countTests };
