import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PromoteError } from '../errors.js';
import { mergedSchema, verifyMergedText } from '../core/merged.js';
import { checkPromotable, type PromoteLog } from '../core/promote-plan.js';
import { checkMergedPromotable, pickScreened } from '../core/promote-source.js';
import { receiptSchema, type Receipt } from '../core/receipt-schema.js';
import { screeningSchema, verifyScreeningText } from '../core/screening.js';
import { readStoredReceipt, readStoredScreening, type StoreEntry } from '../receipt/store.js';
import type { PromoteSettings } from '../inputs/cli-settings.js';

/**
 * promote's two bound sources (docs/promote.md): a screening receipt (one of its candidates) and a
 * merged receipt of suite shards. Each is verified with everything it binds, from files read once
 * (the bytes verified are the bytes used), and its receipts must be in the receipt store, before a
 * receipt is handed on to the same checks and writes as a single receipt's.
 */

/** The receipt to promote, its store entry, and where it came from. */
export interface BoundSource {
  receipt: Receipt;
  entry: StoreEntry;
  source: NonNullable<PromoteLog['source']>;
}

/** Files beside the screening or merged receipt, each read once: the bytes verified are the bytes promoted. */
function onceReader(dir: string): (relativePath: string) => string | undefined {
  const seen = new Map<string, string | undefined>();
  return (relativePath) => {
    if (!seen.has(relativePath)) {
      let text: string | undefined;
      try {
        const path = join(dir, ...relativePath.split('/'));
        text = statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
      } catch {
        text = undefined;
      }
      seen.set(relativePath, text);
    }
    return seen.get(relativePath);
  };
}

function refuseAttested(settings: PromoteSettings, what: string): void {
  if (settings.attested !== undefined) {
    throw new PromoteError(`--trusted-root takes one attested candidate receipt, not ${what}: promote the receipt.json the gate attested`);
  }
}

/**
 * A screening receipt: it verifies (every bound receipt, the rank keys, the ranking), the store holds
 * its exact bytes (screen wrote it), the candidate is the first ranked or the one named, and the
 * store holds that candidate's receipt as screen validated it.
 */
export async function screeningSource(settings: PromoteSettings, text: string): Promise<BoundSource> {
  refuseAttested(settings, 'a screening receipt');
  const read = onceReader(dirname(resolve(settings.receipt)));
  const check = verifyScreeningText(text, read);
  if (!check.integrity_valid) throw new PromoteError(`the screening receipt does not verify (${check.errors.slice(0, 3).join('; ')}); promote only an intact screening`);
  const screening = screeningSchema.parse(JSON.parse(text));
  await readStoredScreening(settings.store, screening.screening_digest, text);
  const chosen = pickScreened(screening, settings.candidate);
  const receiptText = read(chosen.receipt);
  if (receiptText === undefined) throw new PromoteError(`candidate ${chosen.name}'s receipt ${chosen.receipt} is missing`);
  const receipt = receiptSchema.parse(JSON.parse(receiptText));
  const entry = await readStoredReceipt(settings.store, receipt, receiptText);
  checkPromotable(receipt, entry.proposal);
  return { receipt, entry, source: { kind: 'screening', digest: screening.screening_digest, candidate: chosen.name } };
}

/**
 * A merged receipt of `validate --shard K/N`: it verifies (every shard, one validation, shares that
 * partition the suite), its verdict passed with proof grade, and the store holds every shard's
 * receipt; the diff and the base record are the shards' one proposal's.
 */
export async function mergedSource(settings: PromoteSettings, text: string): Promise<BoundSource> {
  refuseAttested(settings, 'a merged receipt');
  if (settings.candidate !== undefined) throw new PromoteError('--candidate is for a screening receipt; a merged receipt is one candidate');
  const read = onceReader(dirname(resolve(settings.receipt)));
  const check = verifyMergedText(text, read);
  if (!check.integrity_valid) throw new PromoteError(`the merged receipt does not verify (${check.errors.slice(0, 3).join('; ')}); promote only an intact merged receipt`);
  const merged = mergedSchema.parse(JSON.parse(text));
  checkMergedPromotable(merged);
  const shards: { receipt: Receipt; entry: StoreEntry }[] = [];
  for (const shard of merged.shards) {
    const shardText = read(shard.receipt);
    if (shardText === undefined) throw new PromoteError(`shard ${shard.index}'s receipt ${shard.receipt} is missing`);
    const receipt = receiptSchema.parse(JSON.parse(shardText));
    shards.push({ receipt, entry: await readStoredReceipt(settings.store, receipt, shardText) });
  }
  const first = shards[0];
  if (first === undefined) throw new PromoteError('the merged receipt binds no shard');
  for (const { receipt, entry } of shards) {
    if (entry.proposal.proposal_hash !== first.entry.proposal.proposal_hash) throw new PromoteError('the shards were stored with different proposals; validate again');
    checkPromotable(receipt, first.entry.proposal, { shareOfMerged: true });
  }
  return { receipt: first.receipt, entry: first.entry, source: { kind: 'merged', digest: merged.merged_digest } };
}
