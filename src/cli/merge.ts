import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { TOOL_VERSION } from '../version.js';
import { mergedBody, mergedDigest, serializeMerged, shardSetErrors, verifyMergedText } from '../core/merged.js';
import { verifyReceiptText } from '../core/receipt.js';
import { receiptSchema, type Receipt } from '../core/receipt-schema.js';
import { ConfigurationError, VerificationError } from '../errors.js';
import { readTextFile, writeFileAtomic } from '../io/files.js';
import { readBound } from '../phases/screen-pipeline.js';
import { mergeScreenShards } from './screen.js';
import { EXIT, type Console } from './shared.js';
import type { MergeSettings } from '../inputs/cli-settings.js';

/**
 * `patchproof merge`: folders are the shards of a screening (`screen --shard K/N --out DIR`,
 * src/cli/screen.ts); files are the receipts of one validation's suite shards (`validate --shard
 * K/N`): each must verify, and together they must make one validation (src/core/merged.ts), before
 * anything is written. Layout of --out: merged.json and shards/<K>/receipt.json.
 */
export async function mergeCommand(settings: MergeSettings, io: Console): Promise<number> {
  const kinds = await Promise.all(settings.shards.map(async (path) => (await stat(path).catch(() => undefined))?.isDirectory()));
  if (kinds.some((k) => k === undefined)) throw new ConfigurationError(`'${settings.shards[kinds.indexOf(undefined)]}' does not exist; give the shard folders or receipt files`);
  if (kinds.every((k) => k === true)) {
    if (settings.repo === undefined) throw new ConfigurationError('--repo is required to merge screen shards: give the base checkout the candidates were screened on');
    return await mergeScreenShards({ ...settings, repo: settings.repo }, io);
  }
  if (kinds.some((k) => k === true)) throw new ConfigurationError('give either screen shard folders or validate shard receipts, not both');
  if (settings.repo !== undefined) throw new ConfigurationError('--repo is for screen shards only: validate shard receipts are merged from the receipts alone');
  const receipts: { text: string; receipt: Receipt }[] = [];
  for (const file of settings.shards) {
    const text = await readTextFile(file, 'shard receipt');
    const check = verifyReceiptText(text);
    if (!check.integrity_valid) throw new VerificationError('bad_input', `shard receipt '${file}' does not verify: ${check.errors.slice(0, 3).join('; ')}`);
    receipts.push({ text, receipt: receiptSchema.parse(JSON.parse(text)) });
  }
  const errors = shardSetErrors(receipts.map((r) => r.receipt));
  if (errors.length > 0) throw new VerificationError('bad_input', `the receipts do not make one validation: ${errors.join('; ')}`);
  const body = mergedBody(
    receipts.map((r) => r.receipt),
    TOOL_VERSION
  );
  const text = serializeMerged({ ...body, merged_digest: mergedDigest(body) });
  for (const { text: shardText, receipt } of receipts) await writeFileAtomic(join(settings.out, 'shards', String(receipt.shard!.index), 'receipt.json'), shardText);
  await writeFileAtomic(join(settings.out, 'merged.json'), text);
  const check = verifyMergedText(text, (rel) => readBound(settings.out, rel));
  if (!check.integrity_valid) {
    io.err(`patchproof: the merged receipt failed its own verification: ${check.errors.join('; ')}\n`);
    return EXIT.inconclusive;
  }
  io.out(`merged ${body.count} shards: ${body.verdict}${body.proof_grade ? ' (proof grade)' : ''}${body.reasons.length > 0 ? ` [${body.reasons.join(', ')}]` : ''}\n`);
  return body.verdict === 'passed' ? EXIT.passed : body.verdict === 'failed' ? EXIT.failed : EXIT.inconclusive;
}

/** verify-receipt of a merged receipt: its shard receipts are read from beside it. */
export function verifyMergedFile(file: string, text: string, io: Console): number {
  const check = verifyMergedText(text, (rel) => readBound(dirname(resolve(file)), rel));
  io.out(
    `${JSON.stringify({ integrity_valid: check.integrity_valid, kind: 'merged', verdict: check.verdict, proof_grade: check.proof_grade, merged_digest: check.merged_digest, errors: check.errors }, null, 2)}\n`
  );
  return check.integrity_valid ? EXIT.passed : EXIT.failed;
}
