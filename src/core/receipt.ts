import { twinBehaved } from './twins.js';
import { canonicalJson, digestJson, type Digest } from './hashing.js';
import {
  HIDDEN_ID_PATTERN,
  RECEIPT_SCHEMAS,
  RECEIPT_V2_SCHEMA,
  RECEIPT_V4_SCHEMA,
  RECEIPT_V5_SCHEMA,
  RECEIPT_V6_SCHEMA,
  RECEIPT_V7_SCHEMA,
  RECEIPT_V8_SCHEMA,
  RECEIPT_V9_SCHEMA,
  RECEIPT_V10_SCHEMA,
  receiptDigestDomain,
  receiptSchema,
  schemaAtLeast,
  type ReceiptSchemaName,
  type Receipt,
  type ReceiptBody,
  type PhaseRecord,
  type SetupRecord
} from './receipt-schema.js';
import { RIGHT_REASON_FAILURES, countTests } from './test-results.js';
import { namesGroupedSite, perTestResults, sealedTestsErrors, selectedBy } from './sealed-tests.js';
import { PHASE_NAMES, RELATED_LABEL, decideVerdict, type ReasonCode } from './verdict.js';
import { surfaceReasons, type SurfaceAllowances } from './surface.js';
import { hiddenLeaks } from './hidden-ids.js';
import { claimErrors } from './claim.js';
import { formalRecordErrors, hasBigInteger, withFormal } from './formal.js';
import { RECEIPT_V1_SCHEMA, verifyReceiptV1Text } from './receipt-v1.js';
import { l0Failed } from './l0-gates.js';
import { buildRecordErrors, buildStops, withBuild } from './build-gate.js';
import { suiteShare } from './suite-share.js';
import { tamperScreenErrors, tamperWithholds } from './tamper.js';

/**
 * Sealing and verifying receipts. A receipt is canonical JSON (RFC 8785) whose `receipt_digest` is
 * the domain-separated SHA-256 of everything else; the file holds exactly the canonical text plus a
 * newline, so any change of any byte is caught. Receipts are written as `RECEIPT_SCHEMA`; verification
 * dispatches on `schema`: v2 to the current version by the rules below (they differ in the digest
 * domain, in what `witness.pinned_ids.hidden` may hold, and in the records each version introduced,
 * `RECORDS_SINCE`), v1 by the frozen rules of src/core/receipt-v1.ts. A real receipt of every version
 * is kept and verified by __tests__/receipt/samples.test.ts.
 */

/** The pack's allowances as the flags surfaceReasons takes. */
export function allowancesOf(allowed: readonly string[]): SurfaceAllowances {
  const has = (key: keyof SurfaceAllowances): boolean => allowed.includes(key);
  return {
    test_edits: has('test_edits'),
    test_removal: has('test_removal'),
    skips: has('skips'),
    config_edits: has('config_edits'),
    dependency_changes: has('dependency_changes')
  };
}

export function receiptDigest(body: ReceiptBody): Digest {
  return digestJson(receiptDigestDomain(body.schema), body);
}

/** Add the content digest. */
export function sealReceipt(body: ReceiptBody): Receipt {
  return { ...body, receipt_digest: receiptDigest(body) };
}

/** The exact bytes of receipt.json. */
export function serializeReceipt(receipt: Receipt): string {
  return `${canonicalJson(receipt)}\n`;
}

export interface ReceiptCheck {
  integrity_valid: boolean;
  verdict: Receipt['verdict'] | null;
  proof_grade: boolean;
  receipt_digest: string | null;
  /** Everything found wrong; empty when integrity_valid. */
  errors: string[];
}

/**
 * Phase semantics: what each status may claim about its own tests. `expectedFailing` is the pack's
 * `reproduction.expected_failing` as the receipt records it: only those tests must fail before the
 * patch (all of them present, each for the right reason); absent, every reproduction test must.
 */
function phaseErrors(phase: PhaseRecord, expectedFailing?: readonly string[]): string[] {
  const errors: string[] = [];
  const where = `phase ${phase.name}`;
  const counts = countTests(phase.results);
  for (const key of ['passed', 'failed', 'errored', 'skipped'] as const) {
    if (counts[key] !== phase.tests[key]) errors.push(`${where}: tests.${key} is ${phase.tests[key]} but its results hold ${counts[key]}`);
  }
  if (phase.sealed_tests !== undefined) {
    if (phase.name !== 'reproduction_before') errors.push(`${where}: sealed_tests belong to reproduction_before only`);
    errors.push(...sealedTestsErrors(phase.results, phase.sealed_tests).map((e) => `${where}: ${e}`));
  }
  if (phase.status === 'not_run') return [...errors, ...notRunErrors(phase)];
  if (phase.runs.length === 0) errors.push(`${where}: ${phase.status} without a run`);
  if (phase.status === 'passed' && phase.reasons.length > 0) errors.push(`${where}: passed with reasons ${phase.reasons.join(',')}`);
  if (phase.status !== 'passed' && phase.reasons.length === 0) errors.push(`${where}: ${phase.status} without a reason`);
  if (phase.status !== 'passed') return errors;
  if (phase.results.length === 0) errors.push(`${where}: passed with no tests`);
  const runsClean = phase.runs.every((r) => !r.timed_out && !r.output_truncated && r.infra_error === undefined && r.problems.length === 0);
  if (!runsClean) errors.push(`${where}: passed although a run timed out, was truncated or had result problems`);
  const canariesRight = phase.runs.every(
    (r) =>
      r.canary.pass === 'passed' &&
      r.canary.fail === 'failed' &&
      r.canary.changed === undefined &&
      r.exit_code !== 0 &&
      r.exit_code !== null &&
      (r.canary.twins ?? []).every(twinBehaved)
  );
  if (!canariesRight) errors.push(`${where}: passed although a run's grader canaries did not behave`);
  if ((phase.flaky ?? []).length > 0 && phase.name !== 'regression') errors.push(`${where}: passed with flaky tests`);
  if (phase.name === 'reproduction_before') {
    const failedRight = (t: PhaseRecord['results'][number]): boolean =>
      (t.status === 'failed' || t.status === 'errored') && RIGHT_REASON_FAILURES.includes(t.failure_kind ?? 'unknown');
    // A sealed test is one result on the base, as the judge decides it (src/core/sealed-tests.ts);
    // a pack whose expected_failing names its sites is judged per site.
    const grouped = phase.sealed_tests ?? [];
    const perSite = expectedFailing !== undefined && expectedFailing.some((entry) => namesGroupedSite(entry, grouped));
    const judgedResults = perSite ? phase.results : perTestResults(phase.results, grouped);
    if (expectedFailing === undefined) {
      if (!judgedResults.every(failedRight)) errors.push(`${where}: passed but not every test failed for the right reason`);
    } else {
      // The judge checks exactly these tests; the other reproduction tests may pass on the base.
      const expected = new Set(expectedFailing);
      const judged = [...new Set(expectedFailing.flatMap((entry) => selectedBy(entry, judgedResults)))];
      if (expected.size === 0) errors.push(`${where}: passed with an empty expected_failing`);
      if (expectedFailing.some((entry) => selectedBy(entry, judgedResults).length === 0)) errors.push(`${where}: passed but a test expected to fail is absent from its results`);
      if (!judged.every(failedRight)) errors.push(`${where}: passed but not every test expected to fail failed for the right reason`);
    }
  } else if (phase.name === 'regression') {
    // Tests failing at baseline may keep failing; every PASS_TO_PASS test must pass.
    const baselinePassed = (phase.baseline?.results ?? []).filter((t) => t.status === 'passed').map((t) => t.id);
    const after = new Map(phase.results.map((t) => [t.id, t.status]));
    if (phase.baseline === undefined || phase.pass_to_pass !== baselinePassed.length) errors.push(`${where}: passed without a matching baseline`);
    // The full suite decides a pass: the related tier's runs alone never do.
    if (!phase.runs.some((r) => r.label === 'regression_after')) errors.push(`${where}: passed without a run of the full patched suite`);
    // A test that failed and then passed in a retry is reported as flaky, not a regression.
    const flaky = new Set(phase.flaky ?? []);
    if (baselinePassed.some((id) => after.get(id) !== 'passed' && !flaky.has(id)) || (phase.regressions ?? []).length > 0) {
      errors.push(`${where}: passed with a PASS_TO_PASS test that did not pass`);
    }
  } else if (phase.results.some((t) => t.status !== 'passed')) {
    errors.push(`${where}: passed with a test that did not pass`);
  }
  return errors;
}

/** A phase not run claims nothing: no tests, no reasons, and no run of its own but the base suite's. */
function notRunErrors(phase: PhaseRecord): string[] {
  const where = `phase ${phase.name}`;
  const errors: string[] = [];
  if (phase.name === 'reproduction_before') errors.push(`${where}: the base reproduction is always run`);
  if (phase.reasons.length > 0 || phase.results.length > 0) errors.push(`${where}: not_run with reasons or results`);
  if (
    phase.baseline !== undefined ||
    phase.pass_to_pass !== undefined ||
    (phase.regressions ?? []).length > 0 ||
    (phase.missing ?? []).length > 0 ||
    (phase.flaky ?? []).length > 0
  ) {
    errors.push(`${where}: not_run with judged detail`);
  }
  if (phase.runs.some((r) => r.label !== 'regression_before')) errors.push(`${where}: not_run but holds a run of the patched tree`);
  return errors;
}

/**
 * The early exit (src/core/verdict.ts basePassesGate): a phase may be `not_run` only when the base
 * reproduction did not pass, and a receipt with any phase not run is never passed.
 */
function notRunGateErrors(receipt: Receipt): string[] {
  const notRun = receipt.phases.filter((p) => p.status === 'not_run').map((p) => p.name);
  if (notRun.length === 0) return [];
  const errors: string[] = [];
  if (receipt.verdict === 'passed') errors.push(`verdict passed with phase(s) not run: ${notRun.join(',')}`);
  if (receipt.phases.find((p) => p.name === 'reproduction_before')?.status === 'passed' && !stoppedByGate(receipt)) {
    errors.push(`phase(s) ${notRun.join(',')} not run although the base reproduction passed`);
  }
  return errors;
}

/**
 * Gates with early exit (`receipt.gates`): with the bug established, the candidate's phases may be
 * `not_run` only from the first gate it failed on (L0, or a failed phase) onwards, and every one
 * after that gate must be.
 */
function stoppedByGate(receipt: Receipt): boolean {
  if (receipt.gates === undefined) return false;
  const patched = receipt.phases.slice(1);
  let stopped = l0Failed(receipt.gates.l0) || buildStops(receipt.build);
  for (const phase of patched) {
    if (stopped !== (phase.status === 'not_run')) return false;
    if (phase.status === 'failed') stopped = true;
  }
  return true;
}

/** The reasons the L0 gate gives (a hard finding fails the candidate before any of its runs). */
export function gateReasons(gates: Receipt['gates']): ReasonCode[] {
  return gates !== undefined && l0Failed(gates.l0) ? ['policy_gate_failed'] : [];
}

/**
 * The digest of a receipt's base side: the base reproduction's phase, the base suite's runs, and
 * what they ran on. Candidates screened together share it; verify-receipt re-derives it.
 */
export function baselineDigest(receipt: Pick<Receipt, 'tool_version' | 'bindings' | 'witness' | 'runner' | 'adapter' | 'limits' | 'phases' | 'build'>): Digest {
  const regression = receipt.phases.find((p) => p.name === 'regression');
  return digestJson('patchproof/baseline/v1', {
    tool_version: receipt.tool_version,
    base_snapshot: receipt.bindings.base_snapshot,
    witness_digest: receipt.bindings.witness_digest,
    reproduction_repeat: receipt.witness.reproduction_repeat,
    runner: receipt.runner,
    adapter: receipt.adapter,
    limits: { timeout_ms: receipt.limits.timeout_ms, output_limit_bytes: receipt.limits.output_limit_bytes },
    reproduction_before: receipt.phases.find((p) => p.name === 'reproduction_before') ?? null,
    // The base suite's runs only: the regression phase's judged baseline is absent when the phase is not run.
    regression_before: (regression?.runs ?? []).filter((r) => r.label === 'regression_before'),
    // The base build (L1), when the pack has one: it is base-side work, shared like the rest.
    ...(receipt.build !== undefined ? { build: { argv: receipt.build.argv, base: receipt.build.base } } : {})
  });
}

/** The baseline's and the gates' own consistency. */
function screeningFieldErrors(receipt: Receipt): string[] {
  const errors: string[] = [];
  if (receipt.baseline !== undefined && receipt.baseline.digest !== baselineDigest(receipt)) errors.push("baseline.digest does not match the receipt's base-side runs");
  // A baseline reused from the cache was not made by this validation: it must say it was shared.
  if (receipt.baseline?.cache !== undefined && !receipt.baseline.shared) errors.push('baseline.cache: a baseline reused from the cache must be recorded as shared');
  if (receipt.gates !== undefined) {
    const before = receipt.phases[0];
    if (before?.status === 'passed' && !stoppedByGate(receipt)) errors.push('gates: the phases do not stop exactly at the first failed gate');
  }
  return errors;
}

/**
 * L3's first tier (`gates.related`): its runs sit in the regression phase only, and only when the
 * tier ran; the record's status follows from the phase. A failed tier must cite exactly the phase's
 * regressions, each a test that passed on the base and failed in the phase's results, and then the
 * full suite was not run; a tier that did not fail leaves the phase to the full suite.
 */
function relatedTierErrors(receipt: Receipt): string[] {
  const errors: string[] = [];
  const tier = receipt.gates?.related;
  const regression = receipt.phases.find((p) => p.name === 'regression');
  const elsewhere = receipt.phases.filter((p) => p.name !== 'regression').some((p) => p.runs.some((r) => r.label === RELATED_LABEL));
  if (elsewhere) errors.push('a related-tier run outside the regression phase');
  const runs = (regression?.runs ?? []).filter((r) => r.label === RELATED_LABEL);
  if (tier === undefined) {
    if (runs.length > 0) errors.push('related-tier runs without a gates.related record');
    return errors;
  }
  const where = 'gates.related';
  if ((tier.status === 'skipped') !== (tier.skipped !== undefined)) errors.push(`${where}: a reason is given exactly when the tier was skipped`);
  const sorted = [...new Set(tier.files)].sort();
  if (sorted.join('\n') !== tier.files.join('\n')) errors.push(`${where}: files must be sorted and unique`);
  if (tier.status === 'skipped') {
    if (tier.files.length > 0 || runs.length > 0 || tier.regressions.length > 0) errors.push(`${where}: a skipped tier has no files, runs or regressions`);
    return errors;
  }
  const suite = new Set(receipt.inventory.suite_files.patched);
  if (tier.files.length === 0 || tier.files.some((f) => !suite.has(f))) errors.push(`${where}: the tier's files must be some of the patched tree's suite files`);
  if (tier.status === 'not_run') {
    if (runs.length > 0 || tier.regressions.length > 0 || regression?.status !== 'not_run')
      errors.push(`${where}: not_run only with the regression phase not run, and without runs or regressions`);
    return errors;
  }
  if (runs.length === 0 || runs.some((r, i) => r.attempt !== i + 1)) errors.push(`${where}: ${tier.status} needs its runs, attempts 1 to n in order`);
  if (regression === undefined) return errors;
  const fullRuns = regression.runs.filter((r) => r.label === 'regression_after');
  if (tier.status === 'failed') {
    const baselinePassed = new Set((regression.baseline?.results ?? []).filter((t) => t.status === 'passed').map((t) => t.id));
    const failing = new Set(regression.results.filter((t) => t.status === 'failed' || t.status === 'errored').map((t) => t.id));
    if (regression.status !== 'failed' || !regression.reasons.includes('regression')) errors.push(`${where}: failed, but the regression phase did not fail with a regression`);
    if (tier.regressions.length === 0 || [...tier.regressions].sort().join('\n') !== tier.regressions.join('\n')) errors.push(`${where}: failed cites its regressions, sorted`);
    if (tier.regressions.join('\n') !== (regression.regressions ?? []).join('\n')) errors.push(`${where}: the regressions it cites are not the regression phase's`);
    if (tier.regressions.some((id) => !baselinePassed.has(id) || !failing.has(id)))
      errors.push(`${where}: a cited regression did not pass on the base and fail in the phase's results`);
    if (fullRuns.length > 0) errors.push(`${where}: failed, yet the full suite ran after it`);
  } else {
    if (tier.regressions.length > 0) errors.push(`${where}: ${tier.status} with regressions`);
    if (fullRuns.length === 0) errors.push(`${where}: ${tier.status}, but the full suite did not run after it`);
  }
  return errors;
}

/**
 * Re-check a receipt offline: strict structure, exact canonical bytes, the content digest, phase
 * semantics, and that verdict, reasons and proof_grade follow from the phases.
 */
export function verifyReceiptText(text: string): ReceiptCheck {
  let schema: unknown;
  try {
    const value: unknown = JSON.parse(text);
    schema = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)['schema'] : undefined;
  } catch {
    schema = undefined;
  }
  if (schema === RECEIPT_V1_SCHEMA) return verifyReceiptV1Text(text);
  if (!(RECEIPT_SCHEMAS as readonly unknown[]).includes(schema) && typeof schema === 'string') {
    return {
      integrity_valid: false,
      verdict: null,
      proof_grade: false,
      receipt_digest: null,
      errors: [`schema ${JSON.stringify(schema.slice(0, 80))} is unknown; this verifier knows ${RECEIPT_V1_SCHEMA}, ${[...RECEIPT_SCHEMAS].reverse().join(', ')}`]
    };
  }
  return verifyReceiptV2V3Text(text);
}

/**
 * The rules of every schema in RECEIPT_SCHEMAS (v2 to the current one): v2 may carry the pack's real
 * pinned hidden ids; a record (or `not_run`) appears only from the schema that introduced it (`RECORDS_SINCE`);
 * from v9 the tamper screen is required and proof grade depends on it.
 */
function verifyReceiptV2V3Text(text: string): ReceiptCheck {
  const fail = (errors: string[], receipt?: Receipt): ReceiptCheck => ({
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
  const parsed = receiptSchema.safeParse(value);
  if (!parsed.success) {
    return fail(parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`));
  }
  const receipt = parsed.data;
  const errors: string[] = [];
  if (serializeReceipt(receipt) !== text) errors.push('bytes are not the canonical form of the receipt (edited or re-serialised)');
  const { receipt_digest, ...body } = receipt;
  if (receiptDigest(body) !== receipt_digest) errors.push('receipt_digest does not match the content');
  const names = receipt.phases.map((p) => p.name).join(',');
  if (names !== PHASE_NAMES.join(',')) errors.push(`phases must be ${PHASE_NAMES.join(',')} in order, found ${names}`);
  for (const phase of receipt.phases) errors.push(...phaseErrors(phase, receipt.witness.expected_failing));
  const hidden = receipt.phases.find((p) => p.name === 'hidden');
  // v2 wrote the pack's real pinned hidden ids; v3 keys them like every other hidden id.
  const pinnedHidden = receipt.schema === RECEIPT_V2_SCHEMA ? [] : (receipt.witness.pinned_ids?.hidden ?? []);
  if (hidden !== undefined) errors.push(...hiddenLeaks(hidden, [...receipt.inventory.test_ids.hidden, ...pinnedHidden], HIDDEN_ID_PATTERN));
  const surface = surfaceReasons(receipt.surface.findings, allowancesOf(receipt.witness.allow));
  if (surface.reasons.join(',') !== receipt.surface.reasons.join(',') || surface.relaxed.join(',') !== receipt.surface.relaxed.join(',')) {
    errors.push("surface reasons or relaxations do not follow from the findings and the pack's allowances");
  }
  const runCounts: Record<string, number> = {
    reproduction_before: receipt.witness.reproduction_repeat,
    reproduction_after: receipt.witness.reproduction_repeat,
    hidden: receipt.witness.hidden_repeat
  };
  // Each record exists only in receipts written from the schema that introduced it.
  errors.push(...recordSinceErrors(receipt));
  errors.push(...notRunGateErrors(receipt));
  errors.push(...screeningFieldErrors(receipt));
  errors.push(...relatedTierErrors(receipt));
  errors.push(...shardRecordErrors(receipt));
  for (const phase of receipt.phases) {
    const expectedRuns = runCounts[phase.name];
    if (expectedRuns !== undefined && phase.status !== 'not_run' && phase.runs.length !== expectedRuns)
      errors.push(`phase ${phase.name}: ${phase.runs.length} runs, the pack asks for ${expectedRuns}`);
  }
  if (receipt.setup !== undefined) errors.push(...setupErrors(receipt.setup));
  if (receipt.formal !== undefined) errors.push(...formalRecordErrors(receipt.formal));
  if (receipt.build !== undefined) errors.push(...buildRecordErrors(receipt.build));
  const tamperRequired = schemaAtLeast(receipt.schema, RECEIPT_V9_SCHEMA);
  if (tamperRequired && receipt.tamper_screen === undefined) errors.push(`a ${receipt.schema} receipt holds the tamper screen (tamper_screen), and this one does not`);
  if (receipt.tamper_screen !== undefined) errors.push(...tamperScreenErrors(receipt.tamper_screen, receipt.witness.tamper_allow ?? []));
  // The formal gate after the phases: a counterexample fails, a required target's unknown never passes.
  // Then the build gate (L1): the candidate's broken build fails it, an inconclusive build never passes.
  const expected = withBuild(
    withFormal(
      decideVerdict(receipt.phases, receipt.repository.unchanged, [...receipt.surface.reasons, ...setupReasons(receipt.setup), ...gateReasons(receipt.gates)]),
      receipt.formal
    ),
    receipt.build
  );
  if (expected.verdict !== receipt.verdict) errors.push(`verdict ${receipt.verdict} does not follow from the phases (expected ${expected.verdict})`);
  if (expected.reasons.join(',') !== receipt.reasons.join(',')) {
    errors.push(`reasons [${receipt.reasons.join(',')}] do not match the phases' [${expected.reasons.join(',')}]`);
  }
  if (receipt.repository.unchanged !== (receipt.repository.snapshot_before === receipt.repository.snapshot_after)) {
    errors.push('repository.unchanged disagrees with its snapshots');
  }
  if (receipt.repository.snapshot_before !== receipt.bindings.base_snapshot) errors.push('repository.snapshot_before is not the bound base_snapshot');
  errors.push(...gradingErrors(receipt));
  // The claim is checked against the receipt's own results; it has no part in verdict, reasons or proof grade.
  if (receipt.claim !== undefined) errors.push(...claimErrors(receipt.claim, receipt.phases, HIDDEN_ID_PATTERN));
  // From v9 the tamper screen must be there and clean (every finding allowed, no unparsed file).
  const tamperClean = receipt.tamper_screen !== undefined ? !tamperWithholds(receipt.tamper_screen) : !tamperRequired;
  const proofGrade = receipt.runner.isolated && receipt.verdict === 'passed' && receipt.repository.unchanged && candidateSideSealed(receipt) && tamperClean;
  if (receipt.proof_grade !== proofGrade) {
    errors.push(`proof_grade ${receipt.proof_grade} does not follow from runner, verdict, repository, grading models and tamper screen (expected ${proofGrade})`);
  }
  if (errors.length > 0) return fail(errors, receipt);
  return { integrity_valid: true, verdict: receipt.verdict, proof_grade: receipt.proof_grade, receipt_digest, errors: [] };
}

/**
 * A receipt bound by digest beside another document (a screening receipt, a merged receipt): read
 * from `expectedPath`, verified by the receipt rules, its digest the bound one. Each problem goes to
 * `errors`, prefixed by `where`; undefined when there is no verified receipt to check further.
 */
export function boundReceipt(
  where: string,
  entry: { receipt: string; receipt_digest: string },
  expectedPath: string,
  readBound: (relativePath: string) => string | undefined,
  errors: string[]
): Receipt | undefined {
  if (entry.receipt !== expectedPath) errors.push(`${where}: its receipt must be ${expectedPath}`);
  const bound = readBound(entry.receipt);
  if (bound === undefined) {
    errors.push(`${where}: its receipt ${entry.receipt} is missing`);
    return undefined;
  }
  const check = verifyReceiptText(bound);
  if (!check.integrity_valid) {
    errors.push(`${where}: its receipt does not verify (${check.errors.slice(0, 3).join('; ')})`);
    return undefined;
  }
  const receipt = receiptSchema.parse(JSON.parse(bound));
  if (receipt.receipt_digest !== entry.receipt_digest) errors.push(`${where}: receipt_digest is not the bound receipt's`);
  return receipt;
}

/**
 * The records (and the `not_run` status) each schema introduced: a receipt of an older schema that
 * holds one was not written by the version it claims. A new record is one line here.
 */
const RECORDS_SINCE: readonly (readonly [string, ReceiptSchemaName, (receipt: Receipt) => boolean])[] = [
  ['not_run phase', RECEIPT_V4_SCHEMA, (receipt) => receipt.phases.some((p) => p.status === 'not_run')],
  ['baseline record', RECEIPT_V5_SCHEMA, (receipt) => receipt.baseline !== undefined],
  ['gates record', RECEIPT_V5_SCHEMA, (receipt) => receipt.gates !== undefined],
  ['claim', RECEIPT_V5_SCHEMA, (receipt) => receipt.claim !== undefined],
  ['formal record', RECEIPT_V5_SCHEMA, (receipt) => receipt.formal !== undefined],
  ['build record', RECEIPT_V6_SCHEMA, (receipt) => receipt.build !== undefined],
  ['baseline cache entry', RECEIPT_V6_SCHEMA, (receipt) => receipt.baseline?.cache !== undefined],
  ['cargo-test claim', RECEIPT_V6_SCHEMA, (receipt) => receipt.claim?.format === 'cargo-test'],
  [
    'formal checked status',
    RECEIPT_V6_SCHEMA,
    (receipt) => receipt.formal !== undefined && (receipt.formal.status === 'checked' || receipt.formal.targets.some((t) => t.status === 'checked'))
  ],
  ['related tests tier', RECEIPT_V6_SCHEMA, (receipt) => receipt.gates?.related !== undefined],
  ['related tests run', RECEIPT_V6_SCHEMA, (receipt) => receipt.phases.some((p) => p.runs.some((r) => r.label === RELATED_LABEL))],
  ['formal replay', RECEIPT_V6_SCHEMA, (receipt) => receipt.formal?.targets.some((t) => t.replay !== undefined) === true],
  ['shard record', RECEIPT_V7_SCHEMA, (receipt) => receipt.shard !== undefined],
  ['formal python-int integer model', RECEIPT_V8_SCHEMA, (receipt) => receipt.formal?.targets.some((t) => t.scope.integers === 'python-int') === true],
  [
    'formal counterexample integer outside the safe range',
    RECEIPT_V8_SCHEMA,
    (receipt) => receipt.formal?.targets.some((t) => t.counterexample !== undefined && hasBigInteger(t.counterexample)) === true
  ],
  ['tamper screen', RECEIPT_V9_SCHEMA, (receipt) => receipt.tamper_screen !== undefined],
  ["pack's tamper_allow", RECEIPT_V9_SCHEMA, (receipt) => receipt.witness.tamper_allow !== undefined],
  ['formal binding check', RECEIPT_V9_SCHEMA, (receipt) => receipt.formal?.targets.some((t) => t.binding !== undefined) === true],
  ['formal scope of lengths or loops', RECEIPT_V9_SCHEMA, (receipt) => receipt.formal?.targets.some((t) => t.scope.lengths !== undefined || t.scope.loops !== undefined) === true],
  ['tripwire record (canary.changed)', RECEIPT_V10_SCHEMA, (receipt) => receipt.phases.some((p) => p.runs.some((r) => r.canary.changed !== undefined))],
  ['sealed tests record', RECEIPT_V10_SCHEMA, (receipt) => receipt.phases.some((p) => p.sealed_tests !== undefined)],
  ['checks fired', RECEIPT_V10_SCHEMA, (receipt) => receipt.phases.some((p) => p.checks !== undefined)]
];

/** A v7 receipt's `shard` record against its inventory: the share that ran is exactly this shard's share of the whole suite. */
export function shardRecordErrors(receipt: Receipt): string[] {
  const shard = receipt.shard;
  if (shard === undefined) return [];
  const errors: string[] = [];
  if (shard.index > shard.count) errors.push(`shard: index ${shard.index} is beyond count ${shard.count}`);
  const share = suiteShare(shard.suite_files, shard.index, shard.count);
  for (const tree of ['base', 'patched'] as const) {
    if (canonicalJson(share[tree]) !== canonicalJson(receipt.inventory.suite_files[tree])) {
      errors.push(`shard: inventory.suite_files.${tree} is not shard ${shard.index}/${shard.count}'s share of the recorded suite`);
    }
  }
  if (receipt.gates?.related !== undefined) errors.push('shard: a shard runs no related tests tier');
  if (receipt.baseline?.cache !== undefined) errors.push('shard: a shard reuses no cached baseline');
  if (receipt.claim !== undefined) errors.push('shard: a shard compares no claim (the claim is about the whole suite)');
  return errors;
}

function recordSinceErrors(receipt: Receipt): string[] {
  return RECORDS_SINCE.filter(([, since, present]) => !schemaAtLeast(receipt.schema, since) && present(receipt)).map(
    ([what, since]) => `a ${what} exists only from ${since}; a ${receipt.schema} receipt never held one`
  );
}

/**
 * Receipts that record grading models (every phase, or none: those made before grading models were
 * recorded) must have the candidate's reproduction and hidden phases sealed to be proof grade.
 */
function candidateSideSealed(receipt: Receipt): boolean {
  if (receipt.phases.every((p) => p.grading === undefined)) return true;
  const sealed = (name: string): boolean => receipt.phases.find((p) => p.name === name)?.grading === 'sealed';
  return sealed('reproduction_after') && sealed('hidden');
}

/** Grading models: recorded for all phases or none, regression never sealed, sealed runs with oracle records that add up. */
function gradingErrors(receipt: Receipt): string[] {
  const errors: string[] = [];
  const recorded = receipt.phases.filter((p) => p.grading !== undefined).length;
  if (recorded === 0) {
    if (receipt.phases.some((p) => p.runs.some((r) => r.oracle !== undefined))) errors.push('runs carry oracle records but no phase records its grading model');
    return errors;
  }
  if (recorded !== receipt.phases.length) errors.push('grading is recorded for some phases only');
  for (const phase of receipt.phases) {
    const where = `phase ${phase.name}`;
    if (phase.name === 'regression' && phase.grading === 'sealed') errors.push(`${where}: the regression suite is graded in-process, never sealed`);
    if (phase.grading === 'sealed' && phase.runs.some((r) => r.oracle === undefined || r.oracle.cases === 0)) errors.push(`${where}: sealed, but a run has no oracle record`);
    if (phase.grading === 'sealed' && phase.status === 'passed' && phase.name !== 'reproduction_before') {
      const complete = phase.runs.every((r) => r.oracle !== undefined && r.oracle.matched === r.oracle.cases && r.oracle.observed === r.oracle.cases);
      if (!complete) errors.push(`${where}: passed, but a run did not observe and match every sealed case exactly once`);
    }
    // Judged per test (sealed_tests), a test's other sites may hold on the base: phaseErrors checks it per test.
    if (
      phase.grading === 'sealed' &&
      phase.status === 'passed' &&
      phase.name === 'reproduction_before' &&
      phase.sealed_tests === undefined &&
      phase.runs.some((r) => r.oracle !== undefined && r.oracle.matched > 0)
    ) {
      errors.push(`${where}: passed, but a sealed case matched on the base`);
    }
  }
  return errors;
}

/**
 * The reasons the dependency stage gives: the candidate's own stage failing fails the candidate
 * (a base stage that fails never reaches a receipt: that validation is inconclusive).
 */
export function setupReasons(setup: SetupRecord | undefined): ReasonCode[] {
  if (setup?.candidate?.refused !== undefined) return ['dependency_refused'];
  return setup?.candidate?.status === 'failed' ? ['dependency_setup_failed'] : [];
}

function setupErrors(setup: SetupRecord): string[] {
  const errors: string[] = [];
  const runs = [setup.base, ...(setup.candidate ? [setup.candidate] : [])];
  for (const run of runs) {
    const ok = run.exit_code === 0 && !run.timed_out && !run.output_truncated && run.outputs_digest !== null;
    if ((run.status === 'ok') !== ok)
      errors.push(`setup.${run.tree === 'base' ? 'base' : 'candidate'}: status ${run.status} does not follow from its exit code, limits and outputs`);
  }
  if (setup.base.tree !== 'base' || setup.base.status !== 'ok' || setup.base.refused !== undefined) errors.push('setup.base must be an ok run on the base tree');
  const refused = setup.candidate?.refused;
  if (refused !== undefined && (setup.candidate!.status !== 'failed' || setup.candidate!.exit_code !== null || setup.candidate!.duration_ms !== 0 || setup.candidate!.cached)) {
    errors.push('setup.candidate: a refused stage never ran (failed, no exit code, no duration, not cached)');
  }
  if (setup.candidate !== undefined && (setup.candidate.tree !== 'patched' || setup.candidate.install_scripts !== 'disabled')) {
    errors.push('setup.candidate must run on the patched tree with install scripts disabled');
  }
  return errors;
}
