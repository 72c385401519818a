import { digestJson, sha256Hex, type Digest } from '../../core/hashing.js';
import { quoteForMessage } from '../../core/diff-policy.js';
import { buildSnapshot, type SnapshotEntry } from '../../core/snapshot-record.js';
import { takeSnapshot, type SnapshotOptions } from '../../inventory/snapshot.js';
import { checkWitnessPath, unsafe, type WitnessEntry } from './entries.js';

/**
 * The pack digest: the identity a run is bound to. The same canonical listing as a repository
 * snapshot — `[path, kind, mode, sha256, size]` per file, sorted by path as UTF-8 bytes, RFC 8785
 * canonical JSON — hashed under its own domain, so a pack digest can never stand for a snapshot:
 *
 *     sha256( "patchproof/witness/v1" NUL canonical-JSON({ format: "patchproof/witness/v1", entries }) )
 *
 * A folder and an archive holding the same tree have the same digest.
 */

/** The format tag inside every pack digest's payload. */
export const WITNESS_FORMAT = 'patchproof/witness/v1';

/**
 * Digest of a pack's file records. Refuses (witness_unsafe) a symbolic link or a path a pack may not
 * hold; a malformed record or a path listed twice is a ConfigurationError, as for snapshots.
 */
export function witnessDigest(records: readonly SnapshotEntry[]): Digest {
  for (const record of records) {
    if (record.kind !== 'file') {
      throw unsafe(`${quoteForMessage(record.path)} is a symbolic link; packs hold regular files only`);
    }
    const problem = checkWitnessPath(record.path);
    if (problem !== undefined) {
      throw unsafe(`${quoteForMessage(record.path)} ${problem}`);
    }
  }
  // buildSnapshot validates each record, refuses duplicates and sorts by UTF-8 bytes, as snapshots do.
  const { entries } = buildSnapshot('walk', records);
  return digestJson('patchproof/witness/v1', {
    format: WITNESS_FORMAT,
    entries: entries.map((entry) => [entry.path, entry.kind, entry.mode, entry.sha256, entry.size])
  });
}

/** The file records of in-memory entries: what the digest is computed over. */
export function witnessRecords(entries: readonly WitnessEntry[]): SnapshotEntry[] {
  return entries.map((entry) => ({ path: entry.path, kind: 'file', mode: entry.mode, sha256: sha256Hex(entry.data), size: entry.data.byteLength }));
}

/** Digest of in-memory entries (read from an archive or a folder). */
export function digestWitnessEntries(entries: readonly WitnessEntry[]): Digest {
  return witnessDigest(witnessRecords(entries));
}

/**
 * Digest of a pack folder, from `takeSnapshot`: inside a git work tree the files git tracks under
 * `dir`, elsewhere every file except `.git` folders. Returns the records too, sorted.
 */
export async function digestWitnessFolder(dir: string, options: SnapshotOptions = {}): Promise<{ digest: Digest; records: SnapshotEntry[] }> {
  const snapshot = await takeSnapshot(dir, options);
  return { digest: witnessDigest(snapshot.entries), records: snapshot.entries };
}
