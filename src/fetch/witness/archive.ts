import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import tarStream, { type Header } from 'tar-stream';
import { quoteForMessage } from '../../core/diff-policy.js';
import { ConfigurationError, InfrastructureError, VerificationError } from '../../errors.js';
import { checkWitnessPath, checkWitnessTree, packLimits, unsafe, type PackLimits, type WitnessEntry } from './entries.js';
import { readWitnessFolder } from './folder.js';

/**
 * Pack archives: reproducible `.tar.gz` files of a pack, and their safe reading and unpacking.
 *
 * tar-stream (maintained, streaming, no file system access of its own) gives full control over every
 * header we write, for byte-reproducible output, and hands us every header it reads, so each entry is
 * vetted here, in memory, before anything is written to disk. gzip is node:zlib.
 */

const BLOCK = 512;
/** RFC 1952 "unknown" operating system: the byte zlib would otherwise set from the build platform. */
const GZIP_OS_UNKNOWN = 0xff;
const GZIP_OS_OFFSET = 9;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Pack a folder (see `readWitnessFolder` for what is included) as a reproducible `.tar.gz`.
 */
export async function packWitness(dir: string, limits: Partial<PackLimits> = {}): Promise<Buffer> {
  return packWitnessEntries(await readWitnessFolder(dir, limits));
}

/**
 * A reproducible `.tar.gz` of entries: files only (folders implied), sorted by path as UTF-8 bytes,
 * mtime 0, uid/gid 0, empty user and group names, mode 0644 or 0755; names that are not ASCII or do
 * not fit the ustar fields go in a pax header whose own fields are the same. The gzip header has
 * mtime 0 and OS byte 255 ("unknown"). The same tree gives the same bytes whatever the file times,
 * owners or umask. The deflate stream itself is Node's bundled zlib at level 9: byte-identical from
 * one machine to another as long as that zlib build is the same; the pack digest, which is over the
 * tree and not the archive bytes, never depends on it.
 */
export async function packWitnessEntries(entries: readonly WitnessEntry[]): Promise<Buffer> {
  const sorted = checkWitnessTree(entries);
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of pack) {
      chunks.push(chunk as Buffer);
    }
  })();
  for (const entry of sorted) {
    pack.entry(
      {
        name: entry.path,
        type: 'file',
        mode: entry.mode === '100755' ? 0o755 : 0o644,
        mtime: new Date(0),
        uid: 0,
        gid: 0,
        uname: '',
        gname: ''
      },
      Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength)
    );
  }
  pack.finalize();
  await collected;
  const gzipped = gzipSync(Buffer.concat(chunks), { level: 9 });
  // The OS byte is outside the CRC (no FHCRC flag), so fixing it keeps the stream valid.
  gzipped[GZIP_OS_OFFSET] = GZIP_OS_UNKNOWN;
  return gzipped;
}

/** A tar entry as read, before the tree checks. */
interface ReadEntry {
  path: string;
  type: 'file' | 'directory';
  mode: WitnessEntry['mode'];
  data: Buffer;
  /** Where the entry's data starts in the tar stream, and its length. */
  dataStart: number;
  size: number;
}

/**
 * Read a `.tar.gz` pack entirely in memory; nothing is written to disk. Returns its files sorted by
 * path as UTF-8 bytes.
 *
 * Refuses with VerificationError('witness_unsafe'): a compressed or uncompressed size over
 * `limits.maxBytes` (decompression stops as soon as the limit is passed: a zip bomb costs at most the
 * limit), more than `limits.maxFiles` entries, corrupt gzip or tar; any name that is absolute, holds
 * `..`, `.` or empty segments, a backslash, NUL or another control character, a `.git` segment, a
 * leading `.patchproof`, or bytes that are not UTF-8; links, devices, FIFOs and every type other than
 * a file or a folder; a path listed twice; an entry under a path that is a file; a folder with data;
 * and a zero block or other bytes that would hide entries from other tar readers (anything but
 * zeros after the last entry, or a zero block between entries).
 */
export async function readWitnessArchive(bytes: Uint8Array, limits: Partial<PackLimits> = {}): Promise<WitnessEntry[]> {
  const bounds = packLimits(limits);
  if (bytes.byteLength > bounds.maxBytes) {
    throw unsafe(`the archive is ${bytes.byteLength} bytes, more than the limit of ${bounds.maxBytes}`);
  }
  const tar = gunzip(bytes, bounds.maxBytes);
  const read = await readTar(tar, bounds.maxFiles);
  checkBlocks(tar, read);
  const folders = read.filter((entry) => entry.type === 'directory').map((entry) => entry.path);
  const files = read.filter((entry) => entry.type === 'file').map(({ path, mode, data }) => ({ path, mode, data }));
  return checkWitnessTree(files, folders);
}

function gunzip(bytes: Uint8Array, maxBytes: number): Buffer {
  try {
    // maxOutputLength makes zlib stop and throw as soon as the output passes the limit.
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw unsafe(`the archive holds more than ${maxBytes} bytes uncompressed, the limit`);
    }
    throw unsafe(`the archive is not valid gzip (${(error as Error).message}); give a .tar.gz file`);
  }
}

async function readTar(tar: Buffer, maxFiles: number): Promise<ReadEntry[]> {
  // latin1 keeps every name byte as one character, so names that are not UTF-8 can be caught below.
  const extract = tarStream.extract({ filenameEncoding: 'latin1' } as Parameters<typeof tarStream.extract>[0]);
  const entries: ReadEntry[] = [];
  const seen = new Set<string>();
  extract.end(tar);
  try {
    for await (const source of extract) {
      if (entries.length >= maxFiles) {
        throw unsafe(`the archive holds more than ${maxFiles} entries, the limit`);
      }
      const entry = await readEntry(source.header, source, source.offset);
      if (seen.has(entry.path)) {
        throw unsafe(`entry ${quoteForMessage(entry.path)} appears twice`);
      }
      seen.add(entry.path);
      entries.push(entry);
    }
  } catch (error) {
    if (error instanceof VerificationError) {
      throw error;
    }
    throw unsafe(`the archive is not a valid tar stream (${error instanceof Error ? error.message : String(error)})`);
  }
  return entries;
}

async function readEntry(header: Header, data: AsyncIterable<unknown>, offset: number): Promise<ReadEntry> {
  const type = header.type as string | null;
  const path = entryName(header);
  if (type !== 'file' && type !== 'directory') {
    throw unsafe(`entry ${quoteForMessage(path)} is a ${type ?? 'tar entry of unknown type'}; packs hold only files and folders`);
  }
  // A folder named with its trailing '/', as tar writes it.
  const name = type === 'directory' && path.endsWith('/') ? path.slice(0, -1) : path;
  const problem = checkWitnessPath(name);
  if (problem !== undefined) {
    throw unsafe(`entry ${quoteForMessage(path)} ${problem}`);
  }
  if (type === 'directory' && header.size !== 0) {
    // tar-stream would read a folder's data as headers; other readers skip it. Refused, not guessed.
    throw unsafe(`folder entry ${quoteForMessage(path)} carries ${header.size} bytes of data`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of data) {
    chunks.push(chunk as Buffer);
  }
  const bytes = Buffer.concat(chunks);
  // Git's rule, as for repository snapshots: executable when the owner may execute it.
  const mode = (header.mode & 0o100) !== 0 ? '100755' : '100644';
  return { path: name, type, mode, data: bytes, dataStart: offset + BLOCK, size: header.size };
}

/** The entry's name as text: a pax `path` is UTF-8 already; a ustar or GNU name is checked to be. */
function entryName(header: Header): string {
  const pax = header.pax as Record<string, string> | null | undefined;
  if (typeof pax?.path === 'string') {
    return pax.path;
  }
  try {
    return utf8.decode(Buffer.from(header.name, 'latin1'));
  } catch {
    throw unsafe(`entry name (bytes ${Buffer.from(header.name, 'latin1').toString('hex')}) is not valid UTF-8`);
  }
}

/**
 * tar-stream skips zero blocks wherever they are and reads on after the end-of-archive marker, where
 * GNU tar and others stop. Entries hidden that way would be digested and used, yet not listed by
 * `tar tzf`; such archives are refused. (tar-stream itself rejects non-zero bytes after the last
 * entry, as a broken header; the check here does not rely on it. Fails closed on a GNU long name
 * whose length is a multiple of 512 bytes, whose data ends in a zero block; PatchProof's own
 * archives use pax headers.)
 */
function checkBlocks(tar: Buffer, entries: readonly ReadEntry[]): void {
  const dataBlocks = new Set<number>();
  let end = 0;
  for (const entry of entries) {
    const stop = entry.dataStart + roundUp(entry.size);
    for (let at = entry.dataStart; at < stop; at += BLOCK) {
      dataBlocks.add(at);
    }
    end = Math.max(end, stop);
  }
  for (let at = 0; at < end; at += BLOCK) {
    if (!dataBlocks.has(at) && isZero(tar, at, at + BLOCK)) {
      throw unsafe(`the tar stream has an empty block at byte ${at}, before its last entry; other tar readers would stop there`);
    }
  }
  if (!isZero(tar, end, tar.byteLength)) {
    throw unsafe(`the tar stream has data after its last entry (from byte ${end}); other tar readers would list different entries`);
  }
}

function roundUp(size: number): number {
  return Math.ceil(size / BLOCK) * BLOCK;
}

function isZero(buffer: Buffer, start: number, stop: number): boolean {
  for (let i = start; i < Math.min(stop, buffer.byteLength); i++) {
    if (buffer[i] !== 0) return false;
  }
  return true;
}

/**
 * Write entries into `destDir`, which must be missing (it is created) or an empty folder: files
 * 0644 or 0755, folders 0755, whatever the umask. Nothing is ever written through a link: every
 * folder is created here, and files are created exclusively (`O_EXCL | O_NOFOLLOW`). The entries are
 * checked again as a tree first. On a failure part of the tree may have been written; the caller
 * removes the folder.
 */
export async function writeWitnessEntries(entries: readonly WitnessEntry[], destDir: string): Promise<void> {
  const sorted = checkWitnessTree(entries);
  await prepareDestination(destDir);
  const created = new Set<string>(['']);
  for (const entry of sorted) {
    const parts = entry.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (!created.has(folder)) {
        await makeFolder(join(destDir, ...parts.slice(0, i)));
        created.add(folder);
      }
    }
    await writeFileExclusive(join(destDir, ...parts), entry.data, entry.mode === '100755' ? 0o755 : 0o644);
  }
}

async function prepareDestination(destDir: string): Promise<void> {
  let info;
  try {
    info = await lstat(destDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new InfrastructureError(`Could not inspect '${destDir}': ${(error as Error).message}`, { cause: error });
    }
    await mkdir(destDir, { recursive: true, mode: 0o755 });
    await chmodFolder(destDir);
    return;
  }
  if (!info.isDirectory()) {
    throw new ConfigurationError(`'${destDir}' is not a folder; give a missing or empty folder to unpack the witness pack into`);
  }
  if ((await readdir(destDir)).length > 0) {
    throw new ConfigurationError(`'${destDir}' is not empty; give a missing or empty folder to unpack the witness pack into`);
  }
}

async function makeFolder(path: string): Promise<void> {
  try {
    await mkdir(path, { mode: 0o755 });
  } catch (error) {
    throw new InfrastructureError(`Could not create folder '${path}': ${(error as Error).message}`, { cause: error });
  }
  await chmodFolder(path);
}

/** chmod through a handle opened without following links: the umask must not decide who can read. */
async function chmodFolder(path: string): Promise<void> {
  const handle = await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    await handle.chmod(0o755);
  } finally {
    await handle.close();
  }
}

async function writeFileExclusive(path: string, data: Uint8Array, mode: number): Promise<void> {
  let handle;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    throw new InfrastructureError(`Could not create '${path}': ${(error as Error).message}`, { cause: error });
  }
  try {
    await handle.writeFile(data);
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}
