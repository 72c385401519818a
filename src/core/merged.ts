import { z } from 'zod';
import { canonicalJson, digestJson, DIGEST_PATTERN, type Digest } from './hashing.js';
import { boundReceipt } from './receipt.js';
import { receiptSchema, type Receipt } from './receipt-schema.js';
import { REASON_CODES } from './verdict.js';

/**
 * The merged receipt of one big suite run in shards (`validate --shard K/N`, `patchproof merge`;
 * the cut is src/core/suite-share.ts). Pure.
 *
 * The merged receipt (`patchproof.merged/v1`) binds every shard's receipt by digest; verify-receipt
 * reads them from beside it (`shards/<K>/receipt.json`) and accepts it only when each verifies, the
 * shards are 1..N once each, every shard binds the same proposal, approval, base, patched tree, pack,
 * image, adapter and limits, records the same whole suite, and their shares partition it exactly;
 * the verdict, proof grade and reasons follow from the shards'.
 */

export const MERGED_SCHEMA = 'patchproof.merged/v1';

const digest = z.string().regex(DIGEST_PATTERN);

export const mergedSchema = z.strictObject({
  schema: z.literal(MERGED_SCHEMA),
  tool_version: z.string().min(1),
  count: z.number().int().min(2).max(256),
  /** Every shard's `bindings` (they must be equal). */
  bindings: receiptSchema.shape.bindings,
  /** The whole suite, as every shard recorded it. */
  suite_files: z.strictObject({ base: z.array(z.string()), patched: z.array(z.string()) }),
  shards: z.array(
    z.strictObject({
      index: z.number().int().min(1).max(256),
      receipt: z.string().regex(/^shards\/[1-9][0-9]{0,2}\/receipt\.json$/),
      receipt_digest: digest,
      verdict: receiptSchema.shape.verdict,
      proof_grade: z.boolean()
    })
  ),
  verdict: receiptSchema.shape.verdict,
  proof_grade: z.boolean(),
  reasons: z.array(z.enum(REASON_CODES)),
  merged_digest: digest
});
export type Merged = z.infer<typeof mergedSchema>;
export type MergedBody = Omit<Merged, 'merged_digest'>;

export function mergedDigest(body: MergedBody): Digest {
  return digestJson('patchproof/merged/v1', body);
}

export function serializeMerged(merged: Merged): string {
  return `${canonicalJson(merged)}\n`;
}

export function isMergedText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && (value as Record<string, unknown>)['schema'] === MERGED_SCHEMA;
  } catch {
    return false;
  }
}

/** The merged verdict: inconclusive when any shard is, else failed when any shard failed, else passed; proof grade only when every shard has it. */
export function mergedOutcome(receipts: readonly Pick<Receipt, 'verdict' | 'proof_grade' | 'reasons'>[]): Pick<Merged, 'verdict' | 'proof_grade' | 'reasons'> {
  const verdict = receipts.some((r) => r.verdict === 'inconclusive') ? 'inconclusive' : receipts.some((r) => r.verdict === 'failed') ? 'failed' : 'passed';
  const reasons = [...new Set(receipts.flatMap((r) => r.reasons))].sort();
  return { verdict, proof_grade: verdict === 'passed' && receipts.every((r) => r.proof_grade), reasons };
}

/**
 * Why these shard receipts (each already verified) do not make one validation, or nothing: shards
 * 1..N once each, the same bindings, pack, runner, adapter and limits, the same whole suite, and shares that
 * partition it.
 */
export function shardSetErrors(receipts: readonly Receipt[]): string[] {
  const first = receipts[0];
  if (first === undefined) return ['no shard receipt given'];
  const errors: string[] = [];
  const unsharded = receipts.filter((r) => r.shard === undefined);
  if (unsharded.length > 0) return [`${unsharded.length} of the receipts ran the whole suite (no shard record): merge only 'validate --shard K/N' receipts`];
  const count = first.shard!.count;
  if (receipts.some((r) => r.shard!.count !== count))
    return [`the receipts are shares of different cuts: their N differ (${[...new Set(receipts.map((r) => r.shard!.count))].join(', ')})`];
  const indices = receipts.map((r) => r.shard!.index);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((k) => !indices.includes(k));
  if (missing.length > 0) errors.push(`shard ${missing.map((k) => `${k}/${count}`).join(', ')} is missing`);
  if (new Set(indices).size !== indices.length) errors.push('a shard is given twice');
  const same = (what: string, of: (r: Receipt) => unknown): void => {
    const bad = receipts.find((r) => canonicalJson(of(r)) !== canonicalJson(of(first)));
    if (bad !== undefined) errors.push(`shard ${bad.shard!.index}/${count}: another ${what} than shard ${first.shard!.index}/${count}`);
  };
  same('proposal, approval, base, patched tree or pack (bindings)', (r) => r.bindings);
  same('witness pack record', (r) => r.witness);
  same('runner or image', (r) => r.runner);
  same('adapter', (r) => r.adapter);
  same('limits', (r) => r.limits);
  same('tool version', (r) => r.tool_version);
  same('whole suite', (r) => r.shard!.suite_files);
  for (const tree of ['base', 'patched'] as const) {
    const ran = receipts.flatMap((r) => r.inventory.suite_files[tree]);
    if (new Set(ran).size !== ran.length) errors.push(`the shards' ${tree} suite files overlap`);
    if (canonicalJson([...ran].sort()) !== canonicalJson([...first.shard!.suite_files[tree]].sort())) errors.push(`the shards' ${tree} suite files do not make up the whole suite`);
  }
  return errors;
}

/** The merged receipt's body for verified shard receipts that make one validation (shardSetErrors is empty). */
export function mergedBody(receipts: readonly Receipt[], toolVersion: string): MergedBody {
  const sorted = [...receipts].sort((a, b) => a.shard!.index - b.shard!.index);
  const first = sorted[0]!;
  return {
    schema: MERGED_SCHEMA,
    tool_version: toolVersion,
    count: first.shard!.count,
    bindings: first.bindings,
    suite_files: first.shard!.suite_files,
    shards: sorted.map((r) => ({
      index: r.shard!.index,
      receipt: `shards/${r.shard!.index}/receipt.json`,
      receipt_digest: r.receipt_digest,
      verdict: r.verdict,
      proof_grade: r.proof_grade
    })),
    ...mergedOutcome(sorted)
  };
}

export interface MergedCheck {
  integrity_valid: boolean;
  verdict: Merged['verdict'] | null;
  proof_grade: boolean;
  merged_digest: string | null;
  errors: string[];
}

/** verify-receipt of a merged receipt; its shard receipts are read from beside it. */
export function verifyMergedText(text: string, readBound: (relativePath: string) => string | undefined): MergedCheck {
  const fail = (errors: string[], digestValue: string | null = null): MergedCheck => ({
    integrity_valid: false,
    verdict: null,
    proof_grade: false,
    merged_digest: digestValue,
    errors
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail([`not JSON: ${(error as Error).message}`]);
  }
  const parsed = mergedSchema.safeParse(value);
  if (!parsed.success) return fail(parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`));
  const merged = parsed.data;
  const errors: string[] = [];
  if (serializeMerged(merged) !== text) errors.push('bytes are not the canonical form of the merged receipt');
  const { merged_digest, ...body } = merged;
  if (mergedDigest(body) !== merged_digest) errors.push('merged_digest does not match the content');
  const receipts: Receipt[] = [];
  for (const entry of merged.shards) {
    const where = `shard ${entry.index}`;
    const receipt = boundReceipt(where, entry, `shards/${entry.index}/receipt.json`, readBound, errors);
    if (receipt === undefined) continue;
    if (receipt.shard?.index !== entry.index) errors.push(`${where}: the bound receipt is not shard ${entry.index}'s`);
    receipts.push(receipt);
  }
  if (receipts.length === merged.shards.length) {
    errors.push(...shardSetErrors(receipts));
    if (errors.length === 0 && canonicalJson(mergedBody(receipts, merged.tool_version)) !== canonicalJson(body))
      errors.push('the merged record does not follow from its shard receipts (count, bindings, suite, verdict, proof grade or reasons)');
  }
  if (errors.length > 0) return fail(errors, merged_digest);
  return { integrity_valid: true, verdict: merged.verdict, proof_grade: merged.proof_grade, merged_digest, errors: [] };
}

/** What the job that merges computed itself, from git objects and its own inputs: never read from a shard. */
export interface ExpectedShardBindings {
  proposal_hash: string;
  diff_digest: string;
  base_snapshot: string;
  witness_digest: string;
  /** The approval this run makes (the same for every job of one run attempt); unset: not compared. */
  approval_digest?: string;
}

/**
 * Why these shard receipts do not bind exactly the candidate the merging job computed, or nothing:
 * every shard's proposal hash, diff, base snapshot and pack (and approval, when given) must be the
 * expected ones. A sealed receipt of another proposal (another candidate, or an earlier head of the
 * same pull request) is self-consistent; only this comparison tells it apart.
 */
export function shardBindingErrors(receipts: readonly Receipt[], expected: ExpectedShardBindings): string[] {
  const errors: string[] = [];
  for (const r of receipts) {
    const where = r.shard !== undefined ? `shard ${r.shard.index}/${r.shard.count}` : `receipt ${r.receipt_digest}`;
    const fields = (Object.keys(expected) as (keyof ExpectedShardBindings)[]).filter((k) => expected[k] !== undefined && r.bindings[k] !== expected[k]);
    if (fields.length > 0) {
      const first = fields[0]!;
      errors.push(
        `${where} binds another ${fields.join(', ')} (${first} ${r.bindings[first]}, not ${String(expected[first])}): it validated another candidate than this pull request's head`
      );
    }
  }
  return errors;
}
