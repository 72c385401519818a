import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { PromoteError } from '../errors.js';
import { DIGEST_PATTERN, HEX64_PATTERN } from '../core/hashing.js';
import { parseProposal, type Proposal } from '../core/proposal.js';
import type { BaseEntry } from '../core/promote-plan.js';
import type { Receipt } from '../core/receipt-schema.js';
import type { Snapshot } from '../core/snapshot-record.js';

/**
 * The local receipt store: every receipt the CLI's `validate` wrote on this machine, with the
 * proposal it judged and the base snapshot's record of each path the diff touches. `promote` trusts
 * a receipt only when the store holds the very same bytes: anyone can seal a self-consistent receipt,
 * so "it verifies" says nothing about who produced it. The store is only as trusted as the folder it
 * lives in: keep it where the agent that writes patches cannot write (docs/promote.md).
 *
 * Layout: `<store>/<receipt digest hex>/{receipt.json, proposal.json, base.json}`, each entry written
 * to a temporary folder and renamed into place, so a reader never sees half of one.
 */

const BASE_FORMAT = 'patchproof.receipt-store.base/v1';

const baseSchema = z.strictObject({
  format: z.literal(BASE_FORMAT),
  base_snapshot: z.string(),
  entries: z.array(
    z.union([
      z.strictObject({ path: z.string(), state: z.literal('absent') }),
      z.strictObject({ path: z.string(), state: z.literal('file'), sha256: z.string().regex(HEX64_PATTERN), mode: z.enum(['100644', '100755', '120000']) })
    ])
  )
});

/** The store folder of one receipt (its digest's hex). */
export function storeEntryDir(store: string, receiptDigest: string): string {
  if (!DIGEST_PATTERN.test(receiptDigest)) throw new PromoteError(`receipt_digest ${JSON.stringify(receiptDigest.slice(0, 80))} is not sha256:<64 hex>`);
  return join(store, receiptDigest.slice('sha256:'.length));
}

/** One stored validation. */
export interface StoreEntry {
  /** receipt.json exactly as validate wrote it. */
  receiptText: string;
  proposal: Proposal;
  base: Map<string, BaseEntry>;
}

/** What the base snapshot held at each path (added files: absent). Symlinks keep their link mode, which promote refuses. */
export function baseEntriesOf(snapshot: Snapshot, paths: readonly string[]): BaseEntry[] {
  const byPath = new Map(snapshot.entries.map((entry) => [entry.path, entry]));
  return paths.map((path) => {
    const entry = byPath.get(path);
    return entry === undefined ? { path, state: 'absent' as const } : { path, state: 'file' as const, sha256: entry.sha256, mode: entry.mode };
  });
}

/** Record one validation. An entry already there (the same receipt bytes) is kept as it is. */
export async function storeReceipt(store: string, receipt: Receipt, receiptText: string, proposal: Proposal, base: readonly BaseEntry[]): Promise<string> {
  return writeEntry(store, receipt.receipt_digest, {
    'receipt.json': receiptText,
    'proposal.json': `${JSON.stringify(proposal, null, 2)}\n`,
    'base.json': `${JSON.stringify({ format: BASE_FORMAT, base_snapshot: proposal.base_snapshot, entries: base }, null, 2)}\n`
  });
}

/**
 * Write one store entry whole or not at all: its files in a private temporary folder, renamed into
 * place. An entry already there is kept: its name is the digest of the bytes it holds.
 */
async function writeEntry(store: string, digest: string, files: Record<string, string>): Promise<string> {
  const dir = storeEntryDir(store, digest);
  await mkdir(store, { recursive: true, mode: 0o700 });
  const temp = join(store, `.tmp-${randomBytes(8).toString('hex')}`);
  await mkdir(temp, { mode: 0o700 });
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(join(temp, name), text, { mode: 0o600 });
    try {
      await rename(temp, dir);
    } catch (error) {
      // The same digest was stored before (ENOTEMPTY/EEXIST): the digest covers its bytes.
      if (!['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  return dir;
}

/**
 * The stored validation of a receipt, refused unless the store holds these exact bytes: a receipt
 * made or changed anywhere else is not one this installation produced.
 */
export async function readStoredReceipt(store: string, receipt: Receipt, receiptText: string): Promise<StoreEntry> {
  const dir = storeEntryDir(store, receipt.receipt_digest);
  let stored: string;
  try {
    stored = await readFile(join(dir, 'receipt.json'), 'utf8');
  } catch {
    throw new PromoteError(
      `the receipt ${receipt.receipt_digest} is not in the receipt store '${store}': promote only receipts this installation's validate produced (or pass --receipt-store where it wrote them)`
    );
  }
  if (stored !== receiptText) {
    throw new PromoteError(`the receipt file differs from the one the receipt store holds for ${receipt.receipt_digest}; promote the receipt validate wrote`);
  }
  try {
    const proposal = parseProposal(JSON.parse(await readFile(join(dir, 'proposal.json'), 'utf8')), join(dir, 'proposal.json'));
    const base = baseSchema.parse(JSON.parse(await readFile(join(dir, 'base.json'), 'utf8')));
    if (base.base_snapshot !== proposal.base_snapshot) throw new Error('base record of another snapshot');
    return { receiptText: stored, proposal, base: new Map(base.entries.map((entry) => [entry.path, entry])) };
  } catch (error) {
    if (error instanceof PromoteError) throw error;
    throw new PromoteError(`the receipt store entry '${dir}' is damaged (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'unreadable'}); validate again`);
  }
}

/**
 * The store folder of a screening receipt (`screen`, or `merge` of screen shards): its digest's hex,
 * holding `screening.json` only. A screening binds its candidates' receipts; each of those has its
 * own entry, written by the screen that validated it.
 */
export async function storeScreening(store: string, screeningDigest: string, screeningText: string, bound: readonly { digest: string; text: string }[]): Promise<string> {
  // Only a screening whose every candidate receipt this installation holds: a merge of shards
  // screened elsewhere binds receipts this store never saw, and must not vouch for them.
  for (const receipt of bound) {
    const stored = await readFile(join(storeEntryDir(store, receipt.digest), 'receipt.json'), 'utf8').catch(() => undefined);
    if (stored !== receipt.text) throw new PromoteError(`candidate receipt ${receipt.digest} is not in the receipt store; the screening is not kept`);
  }
  return writeEntry(store, screeningDigest, { 'screening.json': screeningText });
}

/**
 * Refuse a screening receipt the store does not hold byte for byte. Anyone can seal a consistent
 * screening (another order of candidates, a candidate left out, another verifying receipt bound
 * under a name), so its verifying says nothing about who screened; the store says this installation did.
 */
export async function readStoredScreening(store: string, screeningDigest: string, screeningText: string): Promise<void> {
  const stored = await readFile(join(storeEntryDir(store, screeningDigest), 'screening.json'), 'utf8').catch(() => undefined);
  if (stored === undefined) {
    throw new PromoteError(
      `the screening receipt ${screeningDigest} is not in the receipt store '${store}': promote only screenings this installation's screen (or merge of its shards) produced`
    );
  }
  if (stored !== screeningText)
    throw new PromoteError(`the screening file differs from the one the receipt store holds for ${screeningDigest}; promote the screening screen wrote`);
}
