import { z } from 'zod';
import { canonicalJson, digestJson, DIGEST_PATTERN, type Digest } from './hashing.js';
import { formalPriority } from './formal.js';
import { boundReceipt, gateReasons } from './receipt.js';
import type { Receipt } from './receipt-schema.js';
import { l0Failed } from './l0-gates.js';

/**
 * Ranking and the screening receipt (`patchproof screen`). Pure: candidate receipts in, ranking
 * out; a screening receipt's text and its bound receipts' texts in, errors out.
 *
 * The ranking tuple, lowest first (docs/screen.md):
 *   (hard_gates_failed, formal_priority, regression_failures, risk_findings,
 *    changed_public_interfaces, changed_lines, runtime_ms), then the candidate's name, then its
 *    diff digest (a stable tie-break).
 * Every field is read from the candidate's own receipt, so the ranking is reproducible from the
 * receipts alone. `formal_priority` is the formal gate's status (core/formal.ts, FORMAL_PRIORITY).
 */

export const SCREENING_SCHEMA = 'patchproof.screening/v1';

export const RANK_FIELDS = ['hard_gates_failed', 'formal_priority', 'regression_failures', 'risk_findings', 'changed_public_interfaces', 'changed_lines', 'runtime_ms'] as const;
export type RankField = (typeof RANK_FIELDS)[number];
export type RankKey = Record<RankField, number>;

const count = z.number().int().nonnegative();
const digest = z.string().regex(DIGEST_PATTERN);
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const rankKeySchema = z.strictObject(Object.fromEntries(RANK_FIELDS.map((f) => [f, count])) as Record<RankField, typeof count>);

export const screeningSchema = z.strictObject({
  schema: z.literal(SCREENING_SCHEMA),
  tool_version: z.string().min(1),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime(),
  base_snapshot: digest,
  witness_digest: digest,
  /** The one baseline every candidate's receipt shares (receipt.baseline.digest). */
  baseline_digest: digest,
  rank_fields: z.array(z.enum(RANK_FIELDS)),
  candidates: z
    .array(
      z.strictObject({
        name: z.string().regex(NAME),
        /** Path of the candidate's receipt, relative to the screening receipt's folder. */
        receipt: z.string().regex(/^candidates\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}\/receipt\.json$/),
        receipt_digest: digest,
        diff_digest: digest,
        verdict: z.enum(['passed', 'failed', 'inconclusive']),
        /** The key of its changed files after normalisation (src/core/normalise.ts). */
        normalised_key: digest,
        /** The candidate whose runs it shares (byte-identical changed files: the same patched snapshot). */
        duplicate_of: z.string().regex(NAME).optional(),
        /** Near-duplicates (validated on their own, those of the same normalised key among them), with a token similarity score. */
        similar: z.array(z.strictObject({ name: z.string().regex(NAME), score: z.number().min(0).max(1) })),
        rank_key: rankKeySchema
      })
    )
    .min(1),
  ranking: z.array(z.strictObject({ rank: z.number().int().min(1), name: z.string().regex(NAME), why: z.string().min(1) })),
  screening_digest: digest
});
export type Screening = z.infer<typeof screeningSchema>;
export type ScreeningBody = Omit<Screening, 'screening_digest'>;
export type ScreenedCandidate = Screening['candidates'][number];

/** The ranking tuple of one candidate, from its receipt alone. */
export function rankKeyOf(receipt: Receipt): RankKey {
  const phase = (name: string): Receipt['phases'][number] | undefined => receipt.phases.find((p) => p.name === name);
  const gates = receipt.gates;
  // L0 counts as failed for a hard policy finding and for the test-surface and dependency reasons.
  const l0 = gateReasons(gates).length > 0 || receipt.surface.reasons.length > 0 || (gates !== undefined && l0Failed(gates.l0)) ? 1 : 0;
  const candidatePhases = ['reproduction_after', 'regression', 'hidden'].filter((name) => phase(name)?.status !== 'passed').length;
  // L1: the build gate, when the pack has one, counts as one more gate not passed unless it passed.
  const l1 = receipt.build !== undefined && receipt.build.status !== 'passed' ? 1 : 0;
  const notPassed = l0 + l1 + candidatePhases;
  const regression = phase('regression');
  const patchedRuns = receipt.phases.flatMap((p) => p.runs).filter((r) => r.label !== 'reproduction_before' && r.label !== 'regression_before');
  return {
    // A verdict that is not passed is never ranked with the passes, whatever its phases say.
    hard_gates_failed: receipt.verdict === 'passed' ? notPassed : Math.max(1, notPassed),
    formal_priority: formalPriority(receipt.formal),
    regression_failures: (regression?.regressions ?? []).length + (regression?.missing ?? []).length,
    risk_findings: (gates?.l0.length ?? 0) + receipt.surface.findings.length,
    changed_public_interfaces: gates?.changed_public_interfaces.length ?? 0,
    changed_lines: gates?.changed_lines ?? 0,
    runtime_ms: patchedRuns.reduce((sum, r) => sum + r.duration_ms, 0)
  };
}

/** The ranking: lowest tuple first, then name, then diff digest. */
export function rankCandidates(candidates: readonly Pick<ScreenedCandidate, 'name' | 'diff_digest' | 'rank_key' | 'verdict'>[]): Screening['ranking'] {
  const order = [...candidates].sort((a, b) => {
    for (const field of RANK_FIELDS) {
      const d = a.rank_key[field] - b.rank_key[field];
      if (d !== 0) return d;
    }
    return a.name < b.name ? -1 : a.name > b.name ? 1 : a.diff_digest < b.diff_digest ? -1 : a.diff_digest > b.diff_digest ? 1 : 0;
  });
  return order.map((c, index) => ({ rank: index + 1, name: c.name, why: whyOf(c, order[index + 1]) }));
}

/** Why a candidate stands where it does: its tuple, and the first field that puts it before the next one. */
function whyOf(c: Pick<ScreenedCandidate, 'name' | 'rank_key' | 'verdict'>, next: Pick<ScreenedCandidate, 'name' | 'rank_key'> | undefined): string {
  const tuple = `(${RANK_FIELDS.map((f) => c.rank_key[f]).join(', ')})`;
  const head = `${c.verdict}; tuple ${tuple}`;
  if (next === undefined) return `${head}; last`;
  const field = RANK_FIELDS.find((f) => c.rank_key[f] !== next.rank_key[f]);
  return field === undefined ? `${head}; ties with ${next.name}, first by name` : `${head}; before ${next.name} by ${field} ${c.rank_key[field]} < ${next.rank_key[field]}`;
}

export function screeningDigest(body: ScreeningBody): Digest {
  return digestJson('patchproof/screening/v1', body);
}

export function sealScreening(body: ScreeningBody): Screening {
  return { ...body, screening_digest: screeningDigest(body) };
}

export function serializeScreening(screening: Screening): string {
  return `${canonicalJson(screening)}\n`;
}

/** Is this text a screening receipt (by its schema field)? */
export function isScreeningText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && (value as Record<string, unknown>)['schema'] === SCREENING_SCHEMA;
  } catch {
    return false;
  }
}

export interface ScreeningCheck {
  integrity_valid: boolean;
  screening_digest: string | null;
  /** The winner: the first of the ranking when it passed, else null. */
  best: string | null;
  errors: string[];
}

/**
 * Verify a screening receipt: its own bytes and digest, every bound candidate receipt (verified
 * by verify-receipt's rules, its digest, diff, base, pack and shared baseline), each rank key
 * re-derived from its receipt, the duplicates' shared runs (only a byte-identical patched tree may
 * share them), and the ranking re-derived from the keys.
 */
export function verifyScreeningText(text: string, readBound: (relativePath: string) => string | undefined): ScreeningCheck {
  const fail = (errors: string[], digestValue: string | null = null): ScreeningCheck => ({ integrity_valid: false, screening_digest: digestValue, best: null, errors });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail([`not JSON: ${(error as Error).message}`]);
  }
  const parsed = screeningSchema.safeParse(value);
  if (!parsed.success) return fail(parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`));
  const screening = parsed.data;
  const errors: string[] = [];
  if (serializeScreening(screening) !== text) errors.push('bytes are not the canonical form of the screening receipt');
  const { screening_digest, ...body } = screening;
  if (screeningDigest(body) !== screening_digest) errors.push('screening_digest does not match the content');
  if (screening.rank_fields.join(',') !== RANK_FIELDS.join(',')) errors.push(`rank_fields must be ${RANK_FIELDS.join(',')}`);
  const names = screening.candidates.map((c) => c.name);
  if (new Set(names).size !== names.length) errors.push('a candidate name appears twice');
  const byName = new Map(screening.candidates.map((c) => [c.name, c]));
  const receipts = new Map<string, Receipt>();
  for (const candidate of screening.candidates) {
    const where = `candidate ${candidate.name}`;
    const receipt = boundReceipt(where, candidate, `candidates/${candidate.name}/receipt.json`, readBound, errors);
    if (receipt === undefined) continue;
    receipts.set(candidate.name, receipt);
    if (receipt.bindings.diff_digest !== candidate.diff_digest) errors.push(`${where}: diff_digest is not the receipt's`);
    if (receipt.verdict !== candidate.verdict) errors.push(`${where}: verdict is not the receipt's`);
    if (receipt.bindings.base_snapshot !== screening.base_snapshot || receipt.bindings.witness_digest !== screening.witness_digest)
      errors.push(`${where}: another base snapshot or witness pack`);
    if (receipt.baseline?.shared !== true || receipt.baseline.digest !== screening.baseline_digest) errors.push(`${where}: does not share the screening's baseline`);
    if (receipt.gates === undefined) errors.push(`${where}: its receipt has no gates`);
    if (canonicalJson(rankKeyOf(receipt)) !== canonicalJson(candidate.rank_key)) errors.push(`${where}: rank_key does not follow from its receipt`);
  }
  for (const candidate of screening.candidates) {
    const where = `candidate ${candidate.name}`;
    const shared = receipts.get(candidate.name)?.gates?.shared_runs;
    if (candidate.duplicate_of === undefined) {
      if (shared !== undefined) errors.push(`${where}: its receipt shares runs but it is not listed as a duplicate`);
      continue;
    }
    const original = byName.get(candidate.duplicate_of);
    if (original === undefined || original.duplicate_of !== undefined) {
      errors.push(`${where}: duplicate_of names no validated candidate`);
      continue;
    }
    if (original.normalised_key !== candidate.normalised_key) errors.push(`${where}: a duplicate of ${original.name} with another normalised key`);
    if (shared === undefined || shared.diff_digest !== original.diff_digest || shared.normalised_key !== candidate.normalised_key) {
      errors.push(`${where}: its receipt does not record the runs it shares with ${original.name}`);
      continue;
    }
    // Code can read its own comments and layout back: only the very same bytes may share runs.
    const own = receipts.get(candidate.name)?.bindings.patched_snapshot;
    const theirs = receipts.get(original.name)?.bindings.patched_snapshot;
    if (own === undefined || theirs === undefined || shared.patched_snapshot !== own || own !== theirs) {
      errors.push(`${where}: shares the runs of ${original.name}, whose patched tree is not byte-identical to its own`);
    }
  }
  const expected = rankCandidates(screening.candidates);
  if (canonicalJson(expected) !== canonicalJson(screening.ranking)) errors.push("the ranking does not follow from the candidates' rank keys");
  if (errors.length > 0) return fail(errors, screening_digest);
  const first = screening.ranking[0];
  const best = first !== undefined && byName.get(first.name)?.verdict === 'passed' ? first.name : null;
  return { integrity_valid: true, screening_digest, best, errors: [] };
}

/**
 * Sharding (`screen --shard K/N`, `patchproof merge`). Candidates of one exact key stay in one
 * shard (a duplicate shares its original's runs); the groups, in order of their first candidate's
 * name, are dealt round: group i goes to shard (i mod N) + 1.
 */
export const SHARD_SCHEMA = 'patchproof.screen-shard/v1';

export const shardSchema = z.strictObject({
  schema: z.literal(SHARD_SCHEMA),
  tool_version: z.string().min(1),
  index: z.number().int().min(1).max(256),
  count: z.number().int().min(1).max(256),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime(),
  base_snapshot: digest,
  witness_digest: digest,
  /** Every candidate of the screening, each with its approved proposal hash: the same in every shard. */
  candidates: z.array(z.strictObject({ name: z.string().regex(NAME), proposal_hash: z.string().regex(/^[0-9a-f]{64}$/) })).min(1),
  /** The candidates this shard validated (their folders are candidates/<name>/ beside shard.json). */
  validated: z.array(z.string().regex(NAME))
});
export type ShardManifest = z.infer<typeof shardSchema>;

/** The names of the candidates shard `index` of `count` validates. `keys` is each candidate's exact key (the runs it may share), in name order. */
export function shardMembers(keys: readonly { name: string; key: string }[], index: number, count: number): Set<string> {
  const groups: string[] = [];
  for (const { key } of keys) if (!groups.includes(key)) groups.push(key);
  const mine = new Set(groups.filter((_, i) => (i % count) + 1 === index));
  return new Set(keys.filter((k) => mine.has(k.key)).map((k) => k.name));
}

/**
 * The shards of one screening, checked before anything is read from them: one N, each K from 1 to N
 * exactly once, one base and pack, one candidate list, and every candidate validated by exactly one
 * shard. Returns the owning shard of each candidate, or the first problem.
 */
export function checkShards(shards: readonly ShardManifest[]): { owner: Map<string, number> } | { error: string } {
  const first = shards[0];
  if (first === undefined) return { error: 'no shard given' };
  if (shards.some((s) => s.count !== first.count))
    return { error: `the shards are of different screenings: their N differ (${[...new Set(shards.map((s) => s.count))].join(', ')})` };
  const indices = shards.map((s) => s.index).sort((a, b) => a - b);
  const missing = Array.from({ length: first.count }, (_, i) => i + 1).filter((k) => !indices.includes(k));
  if (missing.length > 0) return { error: `shard ${missing.map((k) => `${k}/${first.count}`).join(', ')} is missing; give every shard's folder` };
  if (new Set(indices).size !== indices.length || indices.length !== first.count) return { error: 'a shard is given twice' };
  for (const s of shards) {
    if (s.base_snapshot !== first.base_snapshot || s.witness_digest !== first.witness_digest)
      return { error: `shard ${s.index}/${s.count} is for another base snapshot or witness pack` };
    if (canonicalJson(s.candidates) !== canonicalJson(first.candidates))
      return { error: `shard ${s.index}/${s.count} lists other candidates or approvals than shard ${first.index}/${first.count}` };
    if (s.tool_version !== first.tool_version)
      return { error: `shard ${s.index}/${s.count} was made by patchproof ${s.tool_version}, shard ${first.index} by ${first.tool_version}` };
  }
  const owner = new Map<string, number>();
  for (const s of shards) {
    for (const name of s.validated) {
      if (!first.candidates.some((c) => c.name === name)) return { error: `shard ${s.index}/${s.count} validated '${name}', which is no candidate of the screening` };
      if (owner.has(name)) return { error: `'${name}' was validated by shard ${owner.get(name)} and shard ${s.index}` };
      owner.set(name, s.index);
    }
  }
  const unvalidated = first.candidates.filter((c) => !owner.has(c.name)).map((c) => c.name);
  if (unvalidated.length > 0) return { error: `no shard validated ${unvalidated.join(', ')}` };
  return { owner };
}
