import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { TOOL_VERSION } from '../version.js';
import { verifyMergedText } from '../core/merged.js';
import { ConfigurationError } from '../errors.js';
import { readTextFile } from '../io/files.js';
import { readBound } from '../phases/screen-pipeline.js';
import { mergeShardReceipts, writeMergedFolder } from '../phases/suite-shards.js';
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
  const shards = [];
  for (const file of settings.shards) shards.push({ label: file, text: await readTextFile(file, 'shard receipt') });
  const merged = mergeShardReceipts(shards, TOOL_VERSION);
  const body = merged.body;
  const check = await writeMergedFolder(settings.out, merged);
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
