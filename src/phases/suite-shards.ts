import { join } from 'node:path';
import {
  mergedBody,
  mergedDigest,
  serializeMerged,
  shardBindingErrors,
  shardSetErrors,
  verifyMergedText,
  type ExpectedShardBindings,
  type MergedBody,
  type MergedCheck
} from '../core/merged.js';
import { verifyReceiptText } from '../core/receipt.js';
import { receiptSchema, type Receipt } from '../core/receipt-schema.js';
import { VerificationError } from '../errors.js';
import { writeFileAtomic } from '../io/files.js';
import { readBound } from './screen-pipeline.js';

/**
 * One candidate's suite, validated in shards (`validate --shard K/N`, the action's validate shard
 * jobs) and merged (`patchproof merge RECEIPT...`, the action's validate-merge): the steps both
 * front ends share. Each receipt must verify, the set must be one validation (src/core/merged.ts),
 * before anything is written; the merged receipt is then re-read from disk and verified.
 */

/** A shard receipt as read: its bytes and where they came from (for messages). */
export interface ShardReceiptText {
  label: string;
  text: string;
}

export interface VerifiedShards {
  receipts: { text: string; receipt: Receipt }[];
  body: MergedBody;
  /** The merged receipt's canonical bytes. */
  text: string;
}

/**
 * Verify every shard receipt and that they make one validation; the merged receipt. With `expected`
 * (what the merging job computed itself), every shard must also bind exactly that candidate. Throws
 * VerificationError (bad_input).
 */
export function mergeShardReceipts(shards: readonly ShardReceiptText[], toolVersion: string, expected?: ExpectedShardBindings): VerifiedShards {
  const receipts: { text: string; receipt: Receipt }[] = [];
  for (const { label, text } of shards) {
    const check = verifyReceiptText(text);
    if (!check.integrity_valid) throw new VerificationError('bad_input', `shard receipt '${label}' does not verify: ${check.errors.slice(0, 3).join('; ')}`);
    receipts.push({ text, receipt: receiptSchema.parse(JSON.parse(text)) });
  }
  if (expected !== undefined) {
    const wrong = shardBindingErrors(
      receipts.map((r) => r.receipt),
      expected
    );
    if (wrong.length > 0) throw new VerificationError('bad_input', `the shard receipts are not of this pull request's candidate: ${wrong.join('; ')}`);
  }
  const errors = shardSetErrors(receipts.map((r) => r.receipt));
  if (errors.length > 0) throw new VerificationError('bad_input', `the receipts do not make one validation: ${errors.join('; ')}`);
  const body = mergedBody(
    receipts.map((r) => r.receipt),
    toolVersion
  );
  return { receipts, body, text: serializeMerged({ ...body, merged_digest: mergedDigest(body) }) };
}

/** Write `out/merged.json` and `out/shards/<K>/receipt.json`, then verify what is on disk. */
export async function writeMergedFolder(out: string, merged: VerifiedShards): Promise<MergedCheck> {
  for (const { text, receipt } of merged.receipts) await writeFileAtomic(join(out, 'shards', String(receipt.shard!.index), 'receipt.json'), text);
  await writeFileAtomic(join(out, 'merged.json'), merged.text);
  return verifyMergedText(merged.text, (rel) => readBound(out, rel));
}
