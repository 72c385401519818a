import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chmod, cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { InfrastructureError, VerificationError } from '../errors.js';
import picomatch from 'picomatch';
import type { SnapshotEntry } from '../core/snapshot-record.js';

/**
 * Disposable copies. Every run gets a fresh copy made from a staged tree; the real checkout is only
 * ever read, and every byte read from it is checked against the snapshot the proposal was bound to.
 */

/** A temporary folder tree owned by one validation; `dispose()` removes all of it. */
export interface Scratch {
  readonly root: string;
  /** A new empty folder under the scratch root, readable by any uid (the container runs as 65534). */
  folder(name: string): Promise<string>;
  dispose(): Promise<void>;
}

/** Scratch roots not yet disposed, so a signal handler can remove them before the process exits. */
const liveRoots = new Set<string>();

/** Remove every scratch area still alive (for SIGINT/SIGTERM, where `finally` blocks never run). */
export function removeLiveScratchSync(): void {
  for (const root of liveRoots) {
    try {
      rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Best effort on the way out: one busy folder must not keep the others.
    }
  }
  liveRoots.clear();
}

export async function createScratch(prefix = 'patchproof-'): Promise<Scratch> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  liveRoots.add(root);
  let counter = 0;
  return {
    root,
    async folder(name: string) {
      counter += 1;
      const path = join(root, `${String(counter).padStart(2, '0')}-${name}`);
      await mkdir(path, { recursive: true });
      await chmod(path, 0o755);
      return path;
    },
    async dispose() {
      await rm(root, { recursive: true, force: true, maxRetries: 3 });
      liveRoots.delete(root);
    }
  };
}

async function ensureParent(path: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o755 });
}

async function writeEntryFile(path: string, data: Uint8Array, executable: boolean): Promise<void> {
  await ensureParent(path);
  await writeFile(path, data);
  // Explicit chmod: the process umask must not decide what the container's uid may read.
  await chmod(path, executable ? 0o755 : 0o644);
}

async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  });
  await Promise.all(workers);
}

/**
 * Copy the snapshot's entries from the real checkout into `dest`, verifying each file's SHA-256
 * against the snapshot: a checkout that changed after it was snapshotted is refused.
 */
export async function stageTree(repoRoot: string, entries: readonly SnapshotEntry[], dest: string): Promise<void> {
  await mapLimit(entries, 16, async (entry) => {
    const target = join(dest, ...entry.path.split('/'));
    if (entry.kind === 'symlink') {
      await ensureParent(target);
      const linkTarget = await readlink(join(repoRoot, ...entry.path.split('/')));
      if (createHash('sha256').update(linkTarget, 'utf8').digest('hex') !== entry.sha256) {
        throw new VerificationError('snapshot_mismatch', `link '${entry.path}' changed after the snapshot was taken; validate again`);
      }
      await symlink(linkTarget, target);
      return;
    }
    const data = await readFile(join(repoRoot, ...entry.path.split('/')));
    const sha = createHash('sha256').update(data).digest('hex');
    if (sha !== entry.sha256) {
      throw new VerificationError('snapshot_mismatch', `'${entry.path}' changed after the snapshot was taken; stop writing to the checkout and validate again`);
    }
    await writeEntryFile(target, data, entry.mode === '100755');
  });
}

/** Write patched contents over a copy: a Buffer replaces or creates a file, null deletes it. */
export async function writeChanges(dest: string, changes: ReadonlyMap<string, Buffer | null>, modes: ReadonlyMap<string, string>): Promise<void> {
  for (const [path, content] of changes) {
    const target = join(dest, ...path.split('/'));
    // Remove first, so a path that is a link is replaced, never written through.
    await rm(target, { force: true });
    if (content !== null) await writeEntryFile(target, content, modes.get(path) === '100755');
  }
}

/** A fresh, independent copy of a staged tree (symlinks copied as links, never followed). */
export async function cloneTree(source: string, dest: string): Promise<void> {
  try {
    await cp(source, dest, { recursive: true, verbatimSymlinks: true, preserveTimestamps: false });
    await chmod(dest, 0o755);
  } catch (error) {
    throw new InfrastructureError(`could not copy ${source} to ${dest}: ${(error as Error).message}`, { cause: error });
  }
}

/** Every regular file under `dir`, as sorted '/'-separated relative paths. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(current: string): Promise<void> {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) out.push(relative(dir, full).split(sep).join('/'));
    }
  }
  await walk(dir);
  return out.sort();
}

/**
 * Place external tests at `placement` inside a copy. Whatever the candidate put at that path is
 * removed first, so a pre-created file can never stand in for the grader's. `hide`: the run's
 * names (src/core/run-names.ts), applied to the folder, the file names and the text of UTF-8 files;
 * the paths returned are the host's.
 */
export async function stageExternalTests(copy: string, sourceDir: string, placement: string, hide: (text: string) => string = (text) => text): Promise<string[]> {
  const target = join(copy, ...hide(placement).split('/'));
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true, mode: 0o755 });
  const files = await listFiles(sourceDir);
  for (const file of files) {
    const from = join(sourceDir, ...file.split('/'));
    const info = await lstat(from);
    await writeEntryFile(join(target, ...hide(file).split('/')), hideText(await readFile(from), hide), (info.mode & 0o100) !== 0);
  }
  return files.map((f) => `${placement}/${f}`);
}

/** A file's bytes with `hide` applied when they are UTF-8 text it changes; any other file as it is. */
function hideText(data: Buffer, hide: (text: string) => string): Buffer {
  const text = data.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(data)) return data;
  const hidden = hide(text);
  return hidden === text ? data : Buffer.from(hidden, 'utf8');
}

/** Write generated text files (harness, entry modules) into a copy, replacing whatever was there. */
export async function stageFiles(copy: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const target = join(copy, ...path.split('/'));
    await rm(target, { recursive: true, force: true });
    await writeEntryFile(target, Buffer.from(text, 'utf8'), false);
  }
}

/** Read every file a run left in its results folder (names relative to it), as UTF-8 text. */
export async function readResults(dir: string, maxBytes: number, expected: readonly string[] = ['**']): Promise<{ files: Record<string, string>; problems: string[] }> {
  const files: Record<string, string> = {};
  const problems: string[] = [];
  let total = 0;
  // Only the adapter's expected result files are read; whatever else a run left there is ignored.
  const isExpected = expected.length === 0 ? () => false : picomatch([...expected], { dot: true });
  for (const name of (await listFiles(dir)).filter((file) => isExpected(file))) {
    const data = await readFile(join(dir, ...name.split('/')));
    total += data.length;
    if (total > maxBytes) {
      problems.push(`result files exceed ${maxBytes} bytes`);
      break;
    }
    files[name] = data.toString('utf8');
  }
  return { files, problems };
}
