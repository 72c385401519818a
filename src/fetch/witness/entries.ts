import { checkRepoPath, quoteForMessage } from '../../core/diff-policy.js';
import { compareUtf8 } from '../../core/snapshot-record.js';
import { VerificationError } from '../../errors.js';

/**
 * A witness pack held in memory: its files, their modes and bytes. Archives are read into this form
 * and vetted before anything touches the disk; folders are read into it so that what is digested is
 * exactly what is used.
 */

/** One file of a pack. Folders are implied by paths; packs hold no links or special files. */
export interface WitnessEntry {
  /** Pack-relative, `/`-separated; passes `checkWitnessPath`. */
  path: string;
  /** Git's mode: `100755` when the owner execute bit is set, else `100644`. */
  mode: '100644' | '100755';
  data: Uint8Array;
}

/** Bounds on a pack, checked while it is read. */
export interface PackLimits {
  /** Most entries (files and explicit folders) a pack may hold. Default 10,000. */
  maxFiles: number;
  /** Most bytes a pack may hold: the uncompressed tar stream, or a folder's file bytes. Default 64 MiB. */
  maxBytes: number;
}

/** 10,000 entries and 64 MiB (67,108,864 bytes). */
export const DEFAULT_PACK_LIMITS: Readonly<PackLimits> = Object.freeze({ maxFiles: 10_000, maxBytes: 64 * 1024 * 1024 });

/** The limits with every missing field defaulted; a limit that is not a positive whole number is refused. */
export function packLimits(limits: Partial<PackLimits> = {}): PackLimits {
  const merged = { ...DEFAULT_PACK_LIMITS, ...limits };
  for (const [name, value] of Object.entries(merged)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`pack limit ${name} is ${String(value)}; expected a whole number of at least 1`);
    }
  }
  return merged;
}

/**
 * Why a pack path is refused, or `undefined`. The rules of `checkRepoPath` (no absolute paths,
 * `..`, `.` or empty segments, backslashes, control characters including NUL, `.git` segments or a
 * leading `.patchproof`), plus U+FFFD: it is what a name that is not UTF-8 decodes to, so it is
 * refused rather than letting two different byte strings become one name.
 */
export function checkWitnessPath(path: string): string | undefined {
  if (path.includes('\ufffd')) {
    return 'is not valid UTF-8 (it holds U+FFFD, the replacement character)';
  }
  return checkRepoPath(path);
}

/** A `witness_unsafe` refusal, one line. */
export function unsafe(message: string): VerificationError {
  return new VerificationError('witness_unsafe', `witness pack refused: ${message}`);
}

/**
 * Check a list of entries as a tree: every path safe, none twice, no file where another entry needs
 * a folder. `folders` are explicit folder entries (from an archive), which may repeat implied ones.
 * Returns the entries sorted by path as UTF-8 bytes.
 */
export function checkWitnessTree(entries: readonly WitnessEntry[], folders: readonly string[] = []): WitnessEntry[] {
  const files = new Set<string>();
  for (const entry of entries) {
    const problem = checkWitnessPath(entry.path);
    if (problem !== undefined) {
      throw unsafe(`entry ${quoteForMessage(entry.path)} ${problem}`);
    }
    // Entries come from archives and git trees of untrusted packs: the declared mode union is checked again here.
    const mode: unknown = entry.mode;
    if (mode !== '100644' && mode !== '100755') {
      throw unsafe(`entry ${quoteForMessage(entry.path)} has mode ${quoteForMessage(String(mode))}; expected 100644 or 100755`);
    }
    if (files.has(entry.path)) {
      throw unsafe(`entry ${quoteForMessage(entry.path)} appears twice`);
    }
    files.add(entry.path);
  }
  const needed = new Set(folders);
  for (const path of [...files, ...folders]) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      needed.add(parts.slice(0, i).join('/'));
    }
  }
  for (const folder of needed) {
    if (files.has(folder)) {
      throw unsafe(`${quoteForMessage(folder)} is a file, but another entry needs it to be a folder`);
    }
  }
  return [...entries].sort((a, b) => compareUtf8(a.path, b.path));
}
