import { createHmac, hkdfSync } from 'node:crypto';
import type { PhaseRecord, ReceiptBody, RunRecord } from './receipt-schema.js';

/**
 * Hidden means hidden: what the public receipt may say about the hidden tests. Pure.
 *
 * The hidden phase keeps its statuses, failure kinds and counts, so anyone can re-check its
 * semantics, but every test id becomes `hmac-sha256:<hex>` under a key derived from the witness key:
 *
 *     key = HKDF-SHA256(ikm = witness key text, salt = "patchproof/hidden-ids/v2", info = pack digest, 32 bytes)
 *     id  = "hmac-sha256:" + hex(HMAC-SHA256(key, real id as UTF-8))
 *
 * Without the key nobody can tell which test an id stands for, nor test a guess; with it a maintainer
 * can. A plain pack (no witness key) uses the pack digest as ikm: the ids are then only obscured, as
 * the pack itself is readable. The pack's pinned hidden ids (`witness.pinned_ids.hidden`) are keyed
 * the same way. Messages, locations and skip reasons are dropped; the hidden runs'
 * argv (it names the hidden files), result problems and infrastructure errors are replaced by a fixed
 * marker. The full detail goes to maintainers only, encrypted (hidden-detail.age).
 */

export const HIDDEN_MARKER = '(hidden: see hidden-detail.age)';
const KEY_CHECK_LABEL = 'patchproof/hidden-ids/key-check';

/** The key hidden ids are made with, and where it came from. */
export interface HiddenIdKey {
  key: Buffer;
  source: 'witness_key' | 'pack_digest';
}

/** Derive the hidden-id key for one pack (see the module comment). */
export function deriveHiddenIdKey(secret: string | undefined, packDigest: string): HiddenIdKey {
  const ikm = Buffer.from(secret ?? packDigest, 'utf8');
  const key = Buffer.from(hkdfSync('sha256', ikm, Buffer.from('patchproof/hidden-ids/v2', 'utf8'), Buffer.from(packDigest, 'utf8'), 32));
  return { key, source: secret === undefined ? 'pack_digest' : 'witness_key' };
}

/** The public id of a hidden test. */
export function hiddenId(key: HiddenIdKey, id: string): string {
  return `hmac-sha256:${createHmac('sha256', key.key).update(id, 'utf8').digest('hex')}`;
}

/** The public fingerprint of a key (HMAC of a fixed label). */
export function hiddenKeyCheck(key: HiddenIdKey): string {
  return createHmac('sha256', key.key).update(KEY_CHECK_LABEL, 'utf8').digest('hex');
}

/** What maintainers get, encrypted: the hidden phase and runs as they were, and the id map. */
export interface HiddenDetail {
  schema: 'patchproof.hidden-detail/v1';
  run_id: string;
  witness_digest: string;
  phase: PhaseRecord;
  test_ids: string[];
  /** Public id → real id. */
  ids: Record<string, string>;
}

function redactRun(run: RunRecord): RunRecord {
  const { infra_error, ...rest } = run;
  return {
    ...rest,
    argv: [HIDDEN_MARKER],
    problems: run.problems.map(() => HIDDEN_MARKER),
    ...(infra_error !== undefined ? { infra_error: HIDDEN_MARKER } : {})
  };
}

/**
 * The receipt body with the hidden phase and inventory redacted, and the detail that was removed.
 * `body` is an unsealed body whose `hidden_ids` is filled in here.
 */
export function redactHidden(body: Omit<ReceiptBody, 'hidden_ids'>, key: HiddenIdKey): { body: ReceiptBody; detail: HiddenDetail } {
  const ids: Record<string, string> = {};
  const pub = (id: string): string => {
    const digest = hiddenId(key, id);
    ids[digest] = id;
    return digest;
  };
  const original = body.phases.find((p) => p.name === 'hidden');
  const phases = body.phases.map((phase): PhaseRecord => {
    if (phase.name !== 'hidden') return phase;
    const { regressions, preexisting_failures, missing, flaky, newly_skipped, baseline, checks, ...rest } = phase;
    const list = (values: string[] | undefined): string[] | undefined => (values === undefined ? undefined : values.map(pub).sort());
    const lists = {
      regressions: list(regressions),
      preexisting_failures: list(preexisting_failures),
      missing: list(missing),
      flaky: list(flaky),
      newly_skipped: list(newly_skipped)
    };
    return {
      ...rest,
      results: phase.results.map((t) => ({ id: pub(t.id), status: t.status, ...(t.failure_kind !== undefined ? { failure_kind: t.failure_kind } : {}) })),
      runs: phase.runs.map(redactRun),
      ...(baseline !== undefined ? { baseline: { tests: baseline.tests, results: baseline.results.map((t) => ({ id: pub(t.id), status: t.status })) } } : {}),
      ...Object.fromEntries(Object.entries(lists).filter(([, v]) => v !== undefined)),
      // Which check fired, in which run, stays public; what it saw may name hidden tests.
      ...(checks !== undefined ? { checks: checks.map((c) => ({ ...c, detail: HIDDEN_MARKER })) } : {})
    };
  });
  const hiddenIds = body.inventory.test_ids.hidden;
  // The pack's pinned hidden ids name the hidden tests as surely as their results do.
  const pinned = body.witness.pinned_ids;
  const witness = pinned?.hidden === undefined ? body.witness : { ...body.witness, pinned_ids: { ...pinned, hidden: pinned.hidden.map(pub).sort() } };
  const redacted: ReceiptBody = {
    ...body,
    witness,
    inventory: { ...body.inventory, test_ids: { ...body.inventory.test_ids, hidden: hiddenIds.map(pub).sort() } },
    phases,
    hidden_ids: { scheme: 'hmac-sha256', key: key.source, key_check: hiddenKeyCheck(key) }
  };
  if (original === undefined) throw new TypeError('a receipt body without a hidden phase');
  return {
    body: redacted,
    detail: { schema: 'patchproof.hidden-detail/v1', run_id: body.run_id, witness_digest: body.bindings.witness_digest, phase: original, test_ids: [...hiddenIds], ids }
  };
}

/** Problems with a receipt's hidden phase as published: anything that is not redacted. */
export function hiddenLeaks(phase: PhaseRecord, inventoryIds: readonly string[], pattern: RegExp): string[] {
  const errors: string[] = [];
  const where = 'phase hidden';
  const ids = [
    ...phase.results.map((t) => t.id),
    ...(phase.baseline?.results.map((t) => t.id) ?? []),
    ...(phase.regressions ?? []),
    ...(phase.preexisting_failures ?? []),
    ...(phase.missing ?? []),
    ...(phase.flaky ?? []),
    ...(phase.newly_skipped ?? []),
    ...inventoryIds
  ];
  if (ids.some((id) => !pattern.test(id))) errors.push(`${where}: a test id is not a keyed digest (hmac-sha256:<hex>)`);
  const texts = [...phase.results, ...(phase.baseline?.results ?? [])].some((t) => t.message !== undefined || t.location !== undefined || t.skip_reason !== undefined);
  if (texts) errors.push(`${where}: a result carries a message, location or skip reason`);
  const runs = phase.runs.some(
    (r) => r.argv.length !== 1 || r.argv[0] !== HIDDEN_MARKER || r.problems.some((p) => p !== HIDDEN_MARKER) || (r.infra_error !== undefined && r.infra_error !== HIDDEN_MARKER)
  );
  if (runs) errors.push(`${where}: a run's argv, problems or infrastructure error is not redacted`);
  if ((phase.checks ?? []).some((c) => c.detail !== HIDDEN_MARKER)) errors.push(`${where}: a fired check's detail is not redacted`);
  return errors;
}
