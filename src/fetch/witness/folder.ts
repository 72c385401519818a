import { open } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { quoteForMessage } from '../../core/diff-policy.js';
import { sha256Hex } from '../../core/hashing.js';
import { InfrastructureError } from '../../errors.js';
import { takeSnapshot, type SnapshotOptions } from '../../inventory/snapshot.js';
import { witnessDigest } from './digest.js';
import { checkWitnessTree, packLimits, unsafe, type PackLimits, type WitnessEntry } from './entries.js';

/**
 * Read a pack folder into memory: exactly the files its digest covers (`takeSnapshot`'s listing),
 * each checked against the hash recorded for it, so what is digested is what is used.
 *
 * Refuses (witness_unsafe) symbolic links, unsafe names, and folders over the limits — checked from
 * the listing before any file is read. A file that changes while it is read is an InfrastructureError.
 */
export async function readWitnessFolder(dir: string, limits: Partial<PackLimits> = {}, options: SnapshotOptions = {}): Promise<WitnessEntry[]> {
  const bounds = packLimits(limits);
  const snapshot = await takeSnapshot(dir, options);
  witnessDigest(snapshot.entries);
  if (snapshot.entries.length > bounds.maxFiles) {
    throw unsafe(`the folder holds ${snapshot.entries.length} files, more than the limit of ${bounds.maxFiles}`);
  }
  const total = snapshot.entries.reduce((sum, entry) => sum + entry.size, 0);
  if (total > bounds.maxBytes) {
    throw unsafe(`the folder holds ${total} bytes, more than the limit of ${bounds.maxBytes}`);
  }
  const entries: WitnessEntry[] = [];
  for (const record of snapshot.entries) {
    const data = await readNoFollow(join(dir, ...record.path.split('/')));
    if (sha256Hex(data) !== record.sha256) {
      throw new InfrastructureError(`${quoteForMessage(record.path)} changed while the witness pack was read; read it again when nothing is writing to it`);
    }
    entries.push({ path: record.path, mode: record.mode === '100755' ? '100755' : '100644', data });
  }
  return checkWitnessTree(entries);
}

/** Read a file without following a symbolic link put in its place since the listing. */
async function readNoFollow(path: string): Promise<Buffer> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    throw new InfrastructureError(`Could not read '${path}': ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
