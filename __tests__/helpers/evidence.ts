import { RECEIPT_SCHEMA } from '../../src/core/receipt-schema.js';
import type { TestCaseResult } from '../../src/core/test-results.js';
import { countTests } from '../../src/core/test-results.js';
import { judge, type RunEvidence, type RunLabel, type RunsByLabel } from '../../src/core/verdict.js';
import { allowancesOf, sealReceipt, setupReasons } from '../../src/core/receipt.js';
import { deriveHiddenIdKey, hiddenId, redactHidden } from '../../src/core/hidden-ids.js';
import { compareClaim, type ParsedClaim } from '../../src/core/claim.js';
import { resetPlan, surfaceReasons, type SurfaceAllowances, type SurfaceFinding } from '../../src/core/surface.js';
import type { Receipt, RunRecord, SetupRecord, SetupRunRecord } from '../../src/core/receipt-schema.js';
import { tamperWithholds, type TamperScreen } from '../../src/core/tamper.js';

/** Builders for judge and receipt tests: evidence as the orchestrator would hand it over. */

export const pass = (id: string): TestCaseResult => ({ id, status: 'passed' });
export const fail = (id: string, kind: NonNullable<TestCaseResult['failure_kind']> = 'assertion'): TestCaseResult => ({
  id,
  status: kind === 'assertion' ? 'failed' : 'errored',
  failure_kind: kind,
  message: 'boom'
});
export const skip = (id: string): TestCaseResult => ({ id, status: 'skipped', skip_reason: 'skip' });

/** A clean run: its canaries behaved, so it exits non-zero (the must-fail canary always fails). */
export function run(label: RunLabel, tests: TestCaseResult[], overrides: Partial<RunEvidence> = {}): RunEvidence {
  return {
    label,
    attempt: 1,
    exitCode: 1,
    timedOut: false,
    outputTruncated: false,
    parsed: { tests, problems: [] },
    canary: { pass: 'passed', fail: 'failed' },
    ...overrides
  };
}

/** An infrastructure failure of one run. */
export function infra(label: RunLabel, message = 'docker down'): RunEvidence {
  return { label, attempt: 1, exitCode: null, timedOut: false, outputTruncated: false, infraError: message };
}

/** Repeat a run `times` times with attempts numbered from 1. */
export function times(evidence: RunEvidence, count: number): RunEvidence[] {
  return Array.from({ length: count }, (_, i) => ({ ...evidence, attempt: i + 1 }));
}

/** The runs of a validation that passes (reproduction twice, as the default pack asks). */
export function passingRuns(): RunsByLabel {
  return {
    reproduction_before: times(run('reproduction_before', [fail('repro > parses 1h30m')]), 2),
    reproduction_after: times(run('reproduction_after', [pass('repro > parses 1h30m')]), 2),
    regression_before: [run('regression_before', [pass('suite > a'), pass('suite > b'), fail('suite > flaky-at-base')])],
    regression_after: [run('regression_after', [pass('suite > a'), pass('suite > b'), fail('suite > flaky-at-base')])],
    hidden: [run('hidden', [pass('hidden > x'), pass('hidden > y')])]
  };
}

const SNAP = `sha256:${'a'.repeat(64)}`;

function record(evidence: RunEvidence): RunRecord {
  return {
    label: evidence.label,
    attempt: evidence.attempt,
    argv: ['node', '--test'],
    exit_code: evidence.exitCode,
    signal: null,
    timed_out: evidence.timedOut,
    output_truncated: evidence.outputTruncated,
    output_bytes: 10,
    output_sha256: 'b'.repeat(64),
    duration_ms: 5,
    problems: evidence.parsed?.problems ?? [],
    canary: { nonce: 'f'.repeat(32), ...(evidence.canary ?? { pass: 'missing', fail: 'missing' }) },
    ...(evidence.infraError !== undefined ? { infra_error: evidence.infraError } : {})
  };
}

export interface ReceiptOptions {
  isolated?: boolean;
  unchanged?: boolean;
  findings?: SurfaceFinding[];
  allow?: (keyof SurfaceAllowances)[];
  /** The dependency stage's record, when the pack had one. */
  setup?: SetupRecord;
  /** The pack's pinned ids (witness.pinned_ids), as validate() records them before redaction. */
  pinned?: { reproduction?: string[]; hidden?: string[] };
  /** The agent's claim, compared after redaction as validate() does (src/core/claim.ts). */
  claim?: ParsedClaim;
  /** The tamper screen's record (v9); default: one file screened, no finding. */
  tamper?: TamperScreen;
}

/** A clean tamper screen: one changed file screened, nothing found. */
export const CLEAN_TAMPER: TamperScreen = { files_screened: 1, findings: [], not_screened: [] };

/** A sealed receipt built through the real judge, as validate() builds it. */
export function receiptFrom(runs: RunsByLabel, options: ReceiptOptions = {}): Receipt {
  const isolated = options.isolated ?? true;
  const unchanged = options.unchanged ?? true;
  const findings = options.findings ?? [];
  const allow = options.allow ?? [];
  const surface = surfaceReasons(findings, allowancesOf(allow));
  const judgement = judge(runs, unchanged, { surfaceReasons: [...surface.reasons, ...setupReasons(options.setup)] });
  const runsOf: Record<string, RunRecord[]> = {
    reproduction_before: runs.reproduction_before.map(record),
    reproduction_after: runs.reproduction_after.map(record),
    regression: [...runs.regression_before, ...runs.regression_after].map(record),
    hidden: runs.hidden.map(record)
  };
  const ids = (label: keyof RunsByLabel): string[] => (runs[label][0]?.parsed?.tests ?? []).map((t) => t.id).sort();
  const key = deriveHiddenIdKey(undefined, SNAP);
  const tamper = options.tamper ?? CLEAN_TAMPER;
  const body = redactHidden(
    {
      schema: RECEIPT_SCHEMA,
      tool_version: '0.1.0',
      run_id: 'test-run',
      started_at: '2026-11-29T00:00:00.000Z',
      finished_at: '2026-11-29T00:00:05.000Z',
      verdict: judgement.verdict,
      proof_grade: isolated && judgement.verdict === 'passed' && unchanged && !tamperWithholds(tamper),
      reasons: judgement.reasons,
      bindings: {
        proposal_hash: 'c'.repeat(64),
        approval_digest: SNAP,
        approved_by: 'reviewer',
        diff_digest: SNAP,
        base_snapshot: SNAP,
        patched_snapshot: SNAP,
        witness_digest: SNAP
      },
      witness: {
        source: { kind: 'dir', location: 'witness-packs/js-duration' },
        adapter: 'node-test',
        reproduction_repeat: runs.reproduction_before.length,
        hidden_repeat: runs.hidden.length,
        regression_retries: 1,
        ...(options.pinned !== undefined ? { pinned_ids: options.pinned } : {}),
        protected: [],
        allow
      },
      // As validate() records it: the reset plan of the findings (a path the candidate added has no base version).
      surface: { findings, reasons: surface.reasons, relaxed: surface.relaxed, ...resetPlanOf(findings) },
      inventory: {
        suite_files: { base: ['test/a.test.js'], patched: ['test/a.test.js'] },
        test_ids: {
          reproduction_before: ids('reproduction_before'),
          reproduction_after: ids('reproduction_after'),
          regression_before: ids('regression_before'),
          regression_after: ids('regression_after'),
          hidden: ids('hidden')
        }
      },
      repository: { snapshot_before: SNAP, snapshot_after: unchanged ? SNAP : `sha256:${'d'.repeat(64)}`, unchanged, changed_paths: unchanged ? [] : ['src/x.js'] },
      runner: isolated
        ? { kind: 'docker', isolated: true, image: 'sha256:' + 'e'.repeat(64), image_id: 'sha256:' + 'e'.repeat(64), settings: ['network=none'] }
        : { kind: 'local', isolated: false, settings: [] },
      adapter: 'node-test',
      ...(options.setup !== undefined ? { setup: options.setup } : {}),
      limits: { timeout_ms: 1000, output_limit_bytes: 1000, diff_max_bytes: 1000, diff_max_files: 10 },
      // As validate() records a phase not run: only the base suite's run, which always runs.
      phases: judgement.phases.map((p) => ({ ...p, runs: (runsOf[p.name] ?? []).filter((r) => p.status !== 'not_run' || r.label === 'regression_before') })),
      tamper_screen: tamper
    },
    key
  ).body;
  if (options.claim !== undefined) body.claim = compareClaim(options.claim, CLAIM_DIGEST, body.phases, (id) => hiddenId(key, id));
  return sealReceipt(body);
}

/** The digest receiptFrom records for a claim. */
export const CLAIM_DIGEST = `sha256:${'9'.repeat(64)}`;

export { countTests };

/** One dependency-stage run record: ok unless `status` says otherwise. */
export function setupRun(tree: 'base' | 'patched', status: 'ok' | 'failed' = 'ok'): SetupRunRecord {
  return {
    tree,
    argv: ['npm', 'ci', '--ignore-scripts'],
    install_scripts: tree === 'base' ? 'as_argv' : 'disabled',
    cache_key: SNAP,
    cached: false,
    status,
    exit_code: status === 'ok' ? 0 : 1,
    timed_out: false,
    output_truncated: false,
    output_bytes: 10,
    output_sha256: 'b'.repeat(64),
    duration_ms: 100,
    outputs_digest: status === 'ok' ? SNAP : null
  };
}

function resetPlanOf(findings: readonly SurfaceFinding[]): { restored: string[]; removed: string[] } {
  const plan = resetPlan(findings, (path) => findings.some((f) => f.path === path && f.change !== 'add'));
  return { restored: plan.restore, removed: plan.remove };
}
