import { constants } from 'node:fs';
import { link, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { sha256Hex } from '../core/hashing.js';
import { pathProblem, type ObservedPath, type PromoteStep } from '../core/promote-plan.js';
import type { EntryMode } from '../core/snapshot-record.js';

/**
 * Promotion's file system side: look at a working tree's paths without following links, and write
 * a plan's files atomically with a race check right before each write.
 *
 * Why no library: `write-file-atomic` (and `fs.writeFile`) follow a symbolic link at the target or in
 * a parent; here every open is `O_NOFOLLOW`, the temporary file is created with `O_EXCL`, an added
 * file is put in place with `link()` (which never overwrites), and a modified one with `rename()`
 * (which replaces the name, never writes through it).
 *
 * What remains (docs/promote.md): Node has no `openat`, so a parent folder swapped for a symbolic
 * link between the last check and the write can redirect that one write. Every parent is checked
 * again right before each write, which narrows the window to a few system calls.
 */

/** Read a regular file without following a link at its own name; undefined when it is something else. */
async function readRegular(file: string): Promise<{ bytes: Buffer; mode: EntryMode; links: number } | undefined> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    const bytes = await handle.readFile();
    return { bytes, mode: (info.mode & 0o100) !== 0 ? '100755' : '100644', links: info.nlink };
  } finally {
    await handle.close();
  }
}

/** What `repo/path` is right now, and its first parent that is not a plain folder. Never follows a link. */
export async function observePath(repo: string, path: string): Promise<ObservedPath & { bytes?: Buffer }> {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const parent = parts.slice(0, i).join('/');
    let info;
    try {
      info = await lstat(join(repo, parent));
    } catch {
      // A missing parent folder: an added file's folder is created by the write.
      return { path, kind: 'absent' };
    }
    if (info.isSymbolicLink()) return { path, kind: 'absent', parent: { path: parent, kind: 'symlink' } };
    if (!info.isDirectory()) return { path, kind: 'absent', parent: { path: parent, kind: 'not_a_folder' } };
  }
  let info;
  try {
    info = await lstat(join(repo, path));
  } catch {
    return { path, kind: 'absent' };
  }
  if (info.isSymbolicLink()) return { path, kind: 'symlink' };
  if (!info.isFile()) return { path, kind: 'other' };
  const file = await readRegular(join(repo, path));
  if (file === undefined) return { path, kind: 'other' };
  return { path, kind: 'file', mode: file.mode, sha256: sha256Hex(file.bytes), links: file.links, bytes: file.bytes };
}

/** fsync a folder, so that a rename or link in it survives a crash. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Create the missing folders of an added file, refusing to pass through a link. */
async function ensureFolders(repo: string, path: string): Promise<void> {
  const parts = path.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const folder = join(repo, ...parts.slice(0, i));
    try {
      await mkdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const info = await lstat(folder);
    if (!info.isDirectory()) throw new Error(`${parts.slice(0, i).join('/')} is not a plain folder`);
  }
}

/** Write bytes to a fresh temporary file beside `target` (O_EXCL, O_NOFOLLOW), fsynced, with the given mode. */
async function writeTemp(target: string, bytes: Buffer, mode: EntryMode): Promise<string> {
  const temp = join(dirname(target), `.${basename(target)}.patchproof-${randomBytes(6).toString('hex')}`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode === '100755' ? 0o755 : 0o644);
  try {
    await handle.writeFile(bytes);
    await handle.chmod(mode === '100755' ? 0o755 : 0o644);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

/** The outcome of one write: done, or the race that stopped it. */
export type WriteOutcome = { ok: true } | { ok: false; why: string };

/**
 * Write one planned step: check the path is still exactly as planned (the race check), then put the
 * new content in place atomically, or remove the file. A step whose check fails writes nothing.
 */
export async function writeStep(repo: string, step: PromoteStep, content: Buffer | null): Promise<WriteOutcome> {
  const seen = await observePath(repo, step.path);
  const problem = pathProblem(step.expect, seen);
  if (problem !== undefined) return { ok: false, why: problem };
  const target = join(repo, step.path);
  try {
    if (step.op === 'delete') {
      await unlink(target);
      await syncFolder(dirname(target));
      return { ok: true };
    }
    if (content === null) return { ok: false, why: `${step.path} has no planned content` };
    if (step.op === 'add') await ensureFolders(repo, step.path);
    const temp = await writeTemp(target, content, step.mode);
    try {
      if (step.op === 'add') {
        // link() fails with EEXIST instead of overwriting a file created since the check.
        await link(temp, target);
      } else {
        await rename(temp, target);
      }
    } finally {
      await unlink(temp).catch(() => undefined);
    }
    await syncFolder(dirname(target));
    return { ok: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      why:
        code === 'EEXIST'
          ? `${step.path} was created while promoting; nothing is overwritten`
          : `${step.path} could not be written (${code ?? (error instanceof Error ? error.message : 'error')})`
    };
  }
}
