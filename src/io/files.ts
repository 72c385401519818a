import { mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ConfigurationError } from '../errors.js';

/** Small file helpers for the CLI's inputs and outputs: clear errors, atomic writes. */

/** Read a file as strict UTF-8 text; a missing or non-UTF-8 file is a ConfigurationError naming the flag. */
export async function readTextFile(path: string, flag: string): Promise<string> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    throw new ConfigurationError(`${flag} '${path}' cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); give an existing file`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new ConfigurationError(`${flag} '${path}' is not UTF-8 text; give a UTF-8 file`);
  }
}

/** Read and parse a JSON file to `unknown`: validation is the caller's job. */
export async function readJsonFile(path: string, flag: string): Promise<unknown> {
  const text = await readTextFile(path, flag);
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigurationError(`${flag} '${path}' is not JSON; give the file PatchProof wrote`);
  }
}

/** Check a folder flag names an existing folder and return its real path. */
export async function existingDir(path: string, flag: string): Promise<string> {
  try {
    const real = await realpath(path);
    if (!(await stat(real)).isDirectory()) throw new Error('not a folder');
    return real;
  } catch {
    throw new ConfigurationError(`${flag} '${path}' is not an existing folder; give a folder path`);
  }
}

/** The real path of a file or folder that may not exist yet (its nearest existing ancestor is resolved). */
async function realPathOfNew(path: string): Promise<string> {
  const absolute = resolve(path);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** Outputs never go inside the repository: they would change the checkout being validated. */
export async function assertOutside(path: string, repoReal: string, flag: string): Promise<void> {
  const real = await realPathOfNew(path);
  const rel = relative(repoReal, real);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
    throw new ConfigurationError(`${flag} '${path}' is inside the repository; write outputs outside the checkout being validated`);
  }
}

/** Write a file atomically (temp file + rename), so a reader never sees half of it. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await writeBytesAtomic(path, Buffer.from(text, 'utf8'));
}

/** Write bytes atomically (temp file + rename). */
export async function writeBytesAtomic(path: string, data: Uint8Array): Promise<void> {
  await mkdir(dirname(resolve(path)), { recursive: true });
  const temp = `${path}.tmp-${process.pid}`;
  try {
    await writeFile(temp, data, { mode: 0o644 });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new ConfigurationError(`cannot write '${path}' (${(error as NodeJS.ErrnoException).code ?? 'error'}); give a writable path`);
  }
}
