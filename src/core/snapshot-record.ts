import { ConfigurationError } from '../errors.js';
import { digestJson, HEX64_PATTERN, type Digest } from './hashing.js';

/**
 * Snapshot records: what a repository's content digest is made of, and how two snapshots differ.
 * Pure data in, data out; `src/inventory/snapshot.ts` reads the file system and builds these.
 */

/** What a snapshot entry is. Directories are implied by paths; anything else is refused. */
export type EntryKind = 'file' | 'symlink';

/** Git's file modes: regular, executable (owner execute bit set), symbolic link. */
export type EntryMode = '100644' | '100755' | '120000';

/** Where a snapshot's list of paths came from. */
export type SnapshotSource = 'git' | 'walk';

/** One file or symbolic link of a repository. */
export interface SnapshotEntry {
  /** Relative to the snapshot root, `/`-separated, no `.` or `..` segments. */
  path: string;
  kind: EntryKind;
  mode: EntryMode;
  /**
   * Plain lowercase hex SHA-256 of the file bytes, or of the UTF-8 link target for a symlink, so
   * anyone can re-check a file with `sha256sum`.
   */
  sha256: string;
  /** Bytes hashed: the file size, or the byte length of the link target. */
  size: number;
}

/** A repository's content at one moment, and its digest. */
export interface Snapshot {
  /** `snapshotDigest(entries)`. */
  digest: Digest;
  /** `git`: the files git tracks under the root; `walk`: every file under the root except `.git` folders. */
  source: SnapshotSource;
  /** Sorted by path, compared as UTF-8 bytes. */
  entries: SnapshotEntry[];
}

/** Paths that differ between two snapshots, each list sorted by UTF-8 bytes. */
export interface SnapshotDiff {
  /** In the second snapshot only. */
  added: string[];
  /** In the first snapshot only. */
  removed: string[];
  /** In both, with a different kind, mode, content or size. */
  changed: string[];
}

/** The format tag inside every snapshot digest's payload. */
export const SNAPSHOT_FORMAT = 'patchproof/snapshot/v1';

/** An empty, `.` or `..` segment: a path that is absolute, not normal, or climbs out. */
const BAD_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;
const LONE_SURROGATE = /\p{Cs}/u;

const MODES_BY_KIND: Readonly<Record<EntryKind, readonly EntryMode[]>> = {
  file: ['100644', '100755'],
  symlink: ['120000']
};

/**
 * Orders strings as their UTF-8 bytes would sort (that is, by code point), without encoding them.
 * JavaScript's own `<` compares UTF-16 code units, which puts U+10000 and above before U+E000–U+FFFF.
 */
export function compareUtf8(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      return utf8Rank(x) - utf8Rank(y);
    }
  }
  return a.length - b.length;
}

/** Moves surrogates (astral code points) above U+E000–U+FFFF, keeping every other order. */
function utf8Rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) {
    return unit + 0x2000;
  }
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/**
 * Digest of a set of entries: `digestJson('patchproof/snapshot/v1', { format, entries })` with each
 * entry as `[path, kind, mode, sha256, size]`, sorted by path as UTF-8 bytes. The input order never
 * matters. Throws a ConfigurationError for a malformed entry or a path listed twice.
 */
export function snapshotDigest(entries: readonly SnapshotEntry[]): Digest {
  return digestSorted(sortEntries(entries));
}

/** A Snapshot of these entries: validated, sorted by UTF-8 path, with its digest. */
export function buildSnapshot(source: SnapshotSource, entries: readonly SnapshotEntry[]): Snapshot {
  const sorted = sortEntries(entries).map((entry) => ({ ...entry }));
  return { digest: digestSorted(sorted), source, entries: sorted };
}

function digestSorted(sorted: readonly SnapshotEntry[]): Digest {
  return digestJson('patchproof/snapshot/v1', {
    format: SNAPSHOT_FORMAT,
    entries: sorted.map((entry) => [entry.path, entry.kind, entry.mode, entry.sha256, entry.size])
  });
}

/** Which paths were added, removed or changed from `before` to `after`. */
export function diffSnapshots(before: { readonly entries: readonly SnapshotEntry[] }, after: { readonly entries: readonly SnapshotEntry[] }): SnapshotDiff {
  const old = new Map(before.entries.map((entry) => [entry.path, entry]));
  const diff: SnapshotDiff = { added: [], removed: [], changed: [] };
  const seen = new Set<string>();
  for (const entry of after.entries) {
    seen.add(entry.path);
    const previous = old.get(entry.path);
    if (previous === undefined) {
      diff.added.push(entry.path);
    } else if (!sameContent(previous, entry)) {
      diff.changed.push(entry.path);
    }
  }
  for (const path of old.keys()) {
    if (!seen.has(path)) {
      diff.removed.push(path);
    }
  }
  diff.added.sort(compareUtf8);
  diff.removed.sort(compareUtf8);
  diff.changed.sort(compareUtf8);
  return diff;
}

function sameContent(a: SnapshotEntry, b: SnapshotEntry): boolean {
  return a.kind === b.kind && a.mode === b.mode && a.sha256 === b.sha256 && a.size === b.size;
}

function sortEntries(entries: readonly SnapshotEntry[]): SnapshotEntry[] {
  entries.forEach(checkEntry);
  const sorted = [...entries].sort((a, b) => compareUtf8(a.path, b.path));
  for (let i = 1; i < sorted.length; i++) {
    const path = sorted[i]?.path;
    if (path === sorted[i - 1]?.path) {
      throw new ConfigurationError(`Snapshot lists '${path}' twice. Expected each path once.`);
    }
  }
  return sorted;
}

function checkEntry(entry: SnapshotEntry): void {
  const problem = pathProblem(entry.path) ?? fieldProblem(entry);
  if (problem !== undefined) {
    throw new ConfigurationError(`Snapshot entry ${JSON.stringify(entry.path)} ${problem}.`);
  }
}

function pathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string' || path === '') {
    return 'has no path; expected a non-empty relative path';
  }
  // A lone surrogate has no UTF-8 form, so two different paths could sort as the same bytes.
  if (path.includes('\0') || LONE_SURROGATE.test(path)) {
    return 'has a path that is not valid UTF-8 text (NUL or lone surrogate)';
  }
  if (BAD_SEGMENT.test(path)) {
    return "has a path that is not relative and normal; expected '/'-separated names without '.', '..' or empty segments";
  }
  return undefined;
}

function fieldProblem(entry: SnapshotEntry): string | undefined {
  const modes = Object.hasOwn(MODES_BY_KIND, entry.kind) ? MODES_BY_KIND[entry.kind] : undefined;
  if (modes === undefined) {
    return `has kind ${JSON.stringify(entry.kind)}; expected 'file' or 'symlink'`;
  }
  if (!modes.includes(entry.mode)) {
    return `has mode ${JSON.stringify(entry.mode)}; expected ${modes.join(' or ')} for a ${entry.kind}`;
  }
  if (typeof entry.sha256 !== 'string' || !HEX64_PATTERN.test(entry.sha256)) {
    return 'has a sha256 that is not 64 lowercase hex digits';
  }
  if (!Number.isSafeInteger(entry.size) || entry.size < 0) {
    return `has size ${String(entry.size)}; expected a non-negative integer`;
  }
  return undefined;
}
