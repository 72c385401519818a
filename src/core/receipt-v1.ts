import { z } from 'zod';
import { canonicalJson, digestJson, DIGEST_PATTERN, HEX64_PATTERN } from './hashing.js';

/**
 * The receipt, version 1 ('patchproof.receipt/v1'), frozen: the exact schema and verification rules
 * every v1 receipt was written under, copied here with their own closed sets, verdict and surface
 * rules so that later changes to the schemas since v2 (src/core/receipt-schema.ts) or to the judge
 * can never make an old receipt unverifiable or a forged one verifiable. Do not edit: a change here
 * is a change to what "a valid v1 receipt" means.
 */

export const RECEIPT_V1_SCHEMA = 'patchproof.receipt/v1';
const PHASE_NAMES_V1 = ['reproduction_before', 'reproduction_after', 'regression', 'hidden'] as const;
const RUN_LABELS_V1 = ['reproduction_before', 'reproduction_after', 'regression_before', 'regression_after', 'hidden'] as const;
const REASON_CODES_V1 = [
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
  'no_results',
  'timeout',
  'output_limit',
  'results_inconsistent',
  'infra_error',
  'repository_changed'
] as const;
type ReasonCodeV1 = (typeof REASON_CODES_V1)[number];
const RIGHT_REASON_FAILURES_V1: readonly string[] = ['assertion', 'exception_in_code'];

const digest = z.string().regex(DIGEST_PATTERN);
const hex64 = z.string().regex(HEX64_PATTERN);
const count = z.number().int().nonnegative();

const testCountsSchema = z.strictObject({ passed: count, failed: count, errored: count, skipped: count });

const testResultSchema = z.strictObject({
  id: z.string().min(1),
  status: z.enum(['passed', 'failed', 'errored', 'skipped']),
  failure_kind: z.enum(['assertion', 'exception_in_code', 'exception_in_test', 'import_error', 'collection_error', 'setup_error', 'timeout', 'unknown']).optional(),
  message: z.string().optional(),
  location: z.string().optional(),
  skip_reason: z.string().optional()
});

const runRecordSchema = z.strictObject({
  label: z.enum(RUN_LABELS_V1),
  attempt: z.number().int().min(1),
  argv: z.array(z.string()),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  output_truncated: z.boolean(),
  output_bytes: count,
  output_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  duration_ms: count,
  problems: z.array(z.string()),
  /** The run's grader canaries: the nonce their names came from, and what each did. */
  canary: z.strictObject({
    nonce: z.string().regex(/^[0-9a-f]{32,}$/),
    pass: z.enum(['passed', 'failed', 'errored', 'skipped', 'missing']),
    fail: z.enum(['passed', 'failed', 'errored', 'skipped', 'missing'])
  }),
  infra_error: z.string().optional()
});

/** One run of the dependency stage (or its cached result). */
const setupRunSchema = z.strictObject({
  tree: z.enum(['base', 'patched']),
  argv: z.array(z.string()).min(1),
  /** Install scripts as the pack's argv says, or disabled for the candidate's manifests. */
  install_scripts: z.enum(['as_argv', 'disabled']),
  cache_key: digest,
  cached: z.boolean(),
  status: z.enum(['ok', 'failed']),
  exit_code: z.number().int().nullable(),
  timed_out: z.boolean(),
  output_truncated: z.boolean(),
  output_bytes: count,
  output_sha256: hex64,
  duration_ms: count,
  /** Snapshot digest of the output folders (every file, mode and link), null when the stage failed. */
  outputs_digest: digest.nullable()
});

const setupSchema = z.strictObject({
  network: z.boolean(),
  outputs: z.array(z.string().min(1)).min(1),
  env: z.record(z.string(), z.string()),
  base: setupRunSchema,
  /** Present when the candidate changed dependency manifests and the pack allowed it. */
  candidate: setupRunSchema.optional()
});

const phaseSchema = z.strictObject({
  name: z.enum(PHASE_NAMES_V1),
  status: z.enum(['passed', 'failed', 'inconclusive']),
  reasons: z.array(z.enum(REASON_CODES_V1)),
  tests: testCountsSchema,
  results: z.array(testResultSchema),
  runs: z.array(runRecordSchema).min(1),
  baseline: z.strictObject({ tests: testCountsSchema, results: z.array(testResultSchema) }).optional(),
  pass_to_pass: count.optional(),
  regressions: z.array(z.string()).optional(),
  preexisting_failures: z.array(z.string()).optional(),
  missing: z.array(z.string()).optional(),
  flaky: z.array(z.string()).optional(),
  newly_skipped: z.array(z.string()).optional()
});

const surfaceFindingSchema = z.strictObject({
  path: z.string().min(1),
  change: z.enum(['add', 'modify', 'delete']),
  categories: z.array(z.enum(['test', 'config', 'protected', 'placement', 'dependency'])).min(1),
  skip_markers: z.array(z.strictObject({ line: z.number().int().min(1), text: z.string() }))
});

const allowance = z.enum(['test_edits', 'test_removal', 'skips', 'config_edits', 'dependency_changes']);

export const receiptV1Schema = z.strictObject({
  schema: z.literal(RECEIPT_V1_SCHEMA),
  tool_version: z.string().min(1),
  run_id: z.string().min(1),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime(),
  verdict: z.enum(['passed', 'failed', 'inconclusive']),
  proof_grade: z.boolean(),
  reasons: z.array(z.enum(REASON_CODES_V1)),
  /** Every digest that bound this run. */
  bindings: z.strictObject({
    proposal_hash: hex64,
    approval_digest: digest,
    approved_by: z.string().min(1),
    diff_digest: digest,
    base_snapshot: digest,
    patched_snapshot: digest,
    witness_digest: digest
  }),
  /** The witness pack that graded the run. */
  witness: z.strictObject({
    source: z.strictObject({ kind: z.enum(['dir', 'archive', 'url', 'folders']), location: z.string() }),
    adapter: z.string().min(1),
    reproduction_repeat: z.number().int().min(1),
    hidden_repeat: z.number().int().min(1),
    regression_retries: z.number().int().min(0),
    expected_failing: z.array(z.string()).optional(),
    protected: z.array(z.string()),
    /** Relaxations of the test-surface rules the pack declares; `surface.relaxed` says which were used. */
    allow: z.array(allowance)
  }),
  /** What the candidate's diff touched on the test surface, and what was reset before judging. */
  surface: z.strictObject({
    findings: z.array(surfaceFindingSchema),
    reasons: z.array(z.enum(REASON_CODES_V1)),
    relaxed: z.array(allowance),
    restored: z.array(z.string()),
    removed: z.array(z.string())
  }),
  /** The test surface collected through the adapter: suite files per tree and test ids per run. */
  inventory: z.strictObject({
    suite_files: z.strictObject({ base: z.array(z.string()), patched: z.array(z.string()) }),
    test_ids: z.strictObject({
      reproduction_before: z.array(z.string()),
      reproduction_after: z.array(z.string()),
      regression_before: z.array(z.string()),
      regression_after: z.array(z.string()),
      hidden: z.array(z.string())
    })
  }),
  repository: z.strictObject({
    snapshot_before: digest,
    snapshot_after: digest,
    unchanged: z.boolean(),
    changed_paths: z.array(z.string())
  }),
  runner: z.strictObject({
    kind: z.enum(['local', 'docker']),
    isolated: z.boolean(),
    image: z.string().optional(),
    image_id: z.string().optional(),
    settings: z.array(z.string())
  }),
  adapter: z.string().min(1),
  setup: setupSchema.optional(),
  limits: z.strictObject({ timeout_ms: count, output_limit_bytes: count, diff_max_bytes: count, diff_max_files: count }),
  phases: z.array(phaseSchema).length(PHASE_NAMES_V1.length),
  receipt_digest: digest
});

type ReceiptV1 = z.infer<typeof receiptV1Schema>;
type PhaseV1 = ReceiptV1['phases'][number];
type SetupV1 = NonNullable<ReceiptV1['setup']>;
type Allow = ReceiptV1['witness']['allow'][number];

/** What verifying a v1 receipt found (the same shape as the current ReceiptCheck). */
export interface ReceiptV1Check {
  integrity_valid: boolean;
  verdict: ReceiptV1['verdict'] | null;
  proof_grade: boolean;
  receipt_digest: string | null;
  errors: string[];
}

function countTestsV1(tests: readonly { status: 'passed' | 'failed' | 'errored' | 'skipped' }[]): Record<'passed' | 'failed' | 'errored' | 'skipped', number> {
  const counts = { passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const test of tests) counts[test.status] += 1;
  return counts;
}

function allowancesV1(allowed: readonly Allow[]): Record<Allow, boolean> {
  const has = (key: Allow): boolean => allowed.includes(key);
  return {
    test_edits: has('test_edits'),
    test_removal: has('test_removal'),
    skips: has('skips'),
    config_edits: has('config_edits'),
    dependency_changes: has('dependency_changes')
  };
}

/** The surface rules as v1 applied them. */
function surfaceReasonsV1(findings: ReceiptV1['surface']['findings'], allow: Record<Allow, boolean>): { reasons: ReasonCodeV1[]; relaxed: Allow[] } {
  const reasons = new Set<ReasonCodeV1>();
  const relaxed = new Set<Allow>();
  const rule = (allowed: Allow, reason: ReasonCodeV1): void => {
    if (allow[allowed]) relaxed.add(allowed);
    else reasons.add(reason);
  };
  for (const finding of findings) {
    const has = (category: string): boolean => (finding.categories as readonly string[]).includes(category);
    if (has('placement') || has('protected')) reasons.add('grader_tampered');
    if (has('config')) rule('config_edits', 'grader_tampered');
    if (has('test')) {
      if (finding.change === 'delete') rule('test_removal', 'tests_removed');
      if (finding.change === 'modify') rule('test_edits', 'grader_tampered');
      if (finding.skip_markers.length > 0) rule('skips', 'tests_skipped');
    }
    if (has('dependency')) rule('dependency_changes', 'dependency_changed');
  }
  return { reasons: [...reasons].sort(), relaxed: [...relaxed].sort() };
}

/** The verdict as v1 decided it. */
function decideVerdictV1(
  phases: readonly Pick<PhaseV1, 'status' | 'reasons'>[],
  repositoryUnchanged: boolean,
  surfaceReasons: readonly ReasonCodeV1[]
): { verdict: ReceiptV1['verdict']; reasons: ReasonCodeV1[] } {
  const reasons = new Set<ReasonCodeV1>([...phases.flatMap((p) => p.reasons), ...surfaceReasons]);
  if (!repositoryUnchanged) reasons.add('repository_changed');
  const sorted = [...reasons].sort();
  if (phases.some((p) => p.status === 'failed') || surfaceReasons.length > 0) return { verdict: 'failed', reasons: sorted };
  const complete = phases.length === PHASE_NAMES_V1.length && phases.every((p) => p.status === 'passed');
  if (!complete || !repositoryUnchanged) return { verdict: 'inconclusive', reasons: sorted };
  return { verdict: 'passed', reasons: sorted };
}

/**
 * Phase semantics: what each status may claim about its own tests. One deliberate change since v1
 * was frozen (issue 12, defect 3): with `expected_failing` recorded, only those tests must fail
 * before the patch, as the v1 judge decided; before, every honest receipt of such a pack read INVALID.
 */
function phaseErrors(phase: PhaseV1, expectedFailing?: readonly string[]): string[] {
  const errors: string[] = [];
  const where = `phase ${phase.name}`;
  const counts = countTestsV1(phase.results);
  for (const key of ['passed', 'failed', 'errored', 'skipped'] as const) {
    if (counts[key] !== phase.tests[key]) errors.push(`${where}: tests.${key} is ${phase.tests[key]} but its results hold ${counts[key]}`);
  }
  if (phase.status === 'passed' && phase.reasons.length > 0) errors.push(`${where}: passed with reasons ${phase.reasons.join(',')}`);
  if (phase.status !== 'passed' && phase.reasons.length === 0) errors.push(`${where}: ${phase.status} without a reason`);
  if (phase.status !== 'passed') return errors;
  if (phase.results.length === 0) errors.push(`${where}: passed with no tests`);
  const runsClean = phase.runs.every((r) => !r.timed_out && !r.output_truncated && r.infra_error === undefined && r.problems.length === 0);
  if (!runsClean) errors.push(`${where}: passed although a run timed out, was truncated or had result problems`);
  const canariesRight = phase.runs.every((r) => r.canary.pass === 'passed' && r.canary.fail === 'failed' && r.exit_code !== 0 && r.exit_code !== null);
  if (!canariesRight) errors.push(`${where}: passed although a run's grader canaries did not behave`);
  if ((phase.flaky ?? []).length > 0 && phase.name !== 'regression') errors.push(`${where}: passed with flaky tests`);
  if (phase.name === 'reproduction_before') {
    const failedRight = (t: PhaseV1['results'][number]): boolean =>
      (t.status === 'failed' || t.status === 'errored') && RIGHT_REASON_FAILURES_V1.includes(t.failure_kind ?? 'unknown');
    if (expectedFailing === undefined) {
      if (!phase.results.every(failedRight)) errors.push(`${where}: passed but not every test failed for the right reason`);
    } else {
      const expected = new Set(expectedFailing);
      const judged = phase.results.filter((t) => expected.has(t.id));
      if (expected.size === 0) errors.push(`${where}: passed with an empty expected_failing`);
      if (judged.length !== expected.size) errors.push(`${where}: passed but a test expected to fail is absent from its results`);
      if (!judged.every(failedRight)) errors.push(`${where}: passed but not every test expected to fail failed for the right reason`);
    }
  } else if (phase.name === 'regression') {
    // Tests failing at baseline may keep failing; every PASS_TO_PASS test must pass.
    const baselinePassed = (phase.baseline?.results ?? []).filter((t) => t.status === 'passed').map((t) => t.id);
    const after = new Map(phase.results.map((t) => [t.id, t.status]));
    if (phase.baseline === undefined || phase.pass_to_pass !== baselinePassed.length) errors.push(`${where}: passed without a matching baseline`);
    if (baselinePassed.some((id) => after.get(id) !== 'passed') || (phase.regressions ?? []).length > 0) {
      errors.push(`${where}: passed with a PASS_TO_PASS test that did not pass`);
    }
  } else if (phase.results.some((t) => t.status !== 'passed')) {
    errors.push(`${where}: passed with a test that did not pass`);
  }
  return errors;
}

/**
 * Re-check a v1 receipt offline: strict structure, exact canonical bytes, the content digest, phase
 * semantics, and that verdict, reasons and proof_grade follow from the phases.
 */
export function verifyReceiptV1Text(text: string): ReceiptV1Check {
  const fail = (errors: string[], receipt?: ReceiptV1): ReceiptV1Check => ({
    integrity_valid: false,
    verdict: receipt?.verdict ?? null,
    proof_grade: false,
    receipt_digest: receipt?.receipt_digest ?? null,
    errors
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail([`not JSON: ${(error as Error).message}`]);
  }
  const parsed = receiptV1Schema.safeParse(value);
  if (!parsed.success) {
    return fail(parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`));
  }
  const receipt = parsed.data;
  const errors: string[] = [];
  if (`${canonicalJson(receipt)}\n` !== text) errors.push('bytes are not the canonical form of the receipt (edited or re-serialised)');
  const { receipt_digest, ...body } = receipt;
  if (digestJson('patchproof/receipt/v1', body) !== receipt_digest) errors.push('receipt_digest does not match the content');
  const names = receipt.phases.map((p) => p.name).join(',');
  if (names !== PHASE_NAMES_V1.join(',')) errors.push(`phases must be ${PHASE_NAMES_V1.join(',')} in order, found ${names}`);
  for (const phase of receipt.phases) errors.push(...phaseErrors(phase, receipt.witness.expected_failing));
  const surface = surfaceReasonsV1(receipt.surface.findings, allowancesV1(receipt.witness.allow));
  if (surface.reasons.join(',') !== receipt.surface.reasons.join(',') || surface.relaxed.join(',') !== receipt.surface.relaxed.join(',')) {
    errors.push("surface reasons or relaxations do not follow from the findings and the pack's allowances");
  }
  const runCounts: Record<string, number> = {
    reproduction_before: receipt.witness.reproduction_repeat,
    reproduction_after: receipt.witness.reproduction_repeat,
    hidden: receipt.witness.hidden_repeat
  };
  for (const phase of receipt.phases) {
    const expectedRuns = runCounts[phase.name];
    if (expectedRuns !== undefined && phase.runs.length !== expectedRuns) errors.push(`phase ${phase.name}: ${phase.runs.length} runs, the pack asks for ${expectedRuns}`);
  }
  if (receipt.setup !== undefined) errors.push(...setupErrorsV1(receipt.setup));
  const expected = decideVerdictV1(receipt.phases, receipt.repository.unchanged, [...receipt.surface.reasons, ...setupReasonsV1(receipt.setup)]);
  if (expected.verdict !== receipt.verdict) errors.push(`verdict ${receipt.verdict} does not follow from the phases (expected ${expected.verdict})`);
  if (expected.reasons.join(',') !== receipt.reasons.join(',')) {
    errors.push(`reasons [${receipt.reasons.join(',')}] do not match the phases' [${expected.reasons.join(',')}]`);
  }
  if (receipt.repository.unchanged !== (receipt.repository.snapshot_before === receipt.repository.snapshot_after)) {
    errors.push('repository.unchanged disagrees with its snapshots');
  }
  if (receipt.repository.snapshot_before !== receipt.bindings.base_snapshot) errors.push('repository.snapshot_before is not the bound base_snapshot');
  const proofGrade = receipt.runner.isolated && receipt.verdict === 'passed' && receipt.repository.unchanged;
  if (receipt.proof_grade !== proofGrade) errors.push(`proof_grade ${receipt.proof_grade} does not follow from runner, verdict and repository (expected ${proofGrade})`);
  if (errors.length > 0) return fail(errors, receipt);
  return { integrity_valid: true, verdict: receipt.verdict, proof_grade: receipt.proof_grade, receipt_digest, errors: [] };
}

/** v1's dependency-stage reasons. */
function setupReasonsV1(setup: SetupV1 | undefined): ReasonCodeV1[] {
  return setup?.candidate?.status === 'failed' ? ['dependency_setup_failed'] : [];
}

function setupErrorsV1(setup: SetupV1): string[] {
  const errors: string[] = [];
  const runs = [setup.base, ...(setup.candidate ? [setup.candidate] : [])];
  for (const run of runs) {
    const ok = run.exit_code === 0 && !run.timed_out && !run.output_truncated && run.outputs_digest !== null;
    if ((run.status === 'ok') !== ok)
      errors.push(`setup.${run.tree === 'base' ? 'base' : 'candidate'}: status ${run.status} does not follow from its exit code, limits and outputs`);
  }
  if (setup.base.tree !== 'base' || setup.base.status !== 'ok') errors.push('setup.base must be an ok run on the base tree');
  if (setup.candidate !== undefined && (setup.candidate.tree !== 'patched' || setup.candidate.install_scripts !== 'disabled')) {
    errors.push('setup.candidate must run on the patched tree with install scripts disabled');
  }
  return errors;
}
