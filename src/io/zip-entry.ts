import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { ConfigurationError } from '../errors.js';

/**
 * One file out of an untrusted zip (a workflow artifact the pull request's CI uploaded), read in
 * memory and never extracted to disk: there is no path to escape, no symlink to follow and no
 * folder to fill. `yauzl` (the maintained zip reader that validates names and checks each entry's
 * inflated size against its header; no native code) reads the central directory; only the chosen
 * entry is inflated, and inflation stops at `maxBytes` + 1 bytes whatever the headers say (zip bombs).
 */

/** Bounds of {@link readZipEntry}. */
export interface ZipEntryBounds {
  /** The entry to take (a relative path, `/`-separated); unset: the zip must hold exactly one file. */
  path?: string;
  /** At most this many entries in the central directory (folders count). */
  maxEntries: number;
  /** The chosen entry inflates to at most this many bytes. */
  maxBytes: number;
  /** Names the zip in errors, e.g. `claimed-artifact 'agent-results'`. */
  label: string;
}

/** Does this look like a zip (a local file header first)? */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** Why an entry's name is unsafe or ambiguous, or undefined. Checked even though nothing is extracted. */
function badName(name: string): string | undefined {
  if (name === '' || name.includes('\0') || name.includes('\\')) return 'an empty name, a NUL or a backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (name.split('/').some((part) => part === '..' || part === '.')) return 'a . or .. segment';
  return undefined;
}

/** The Unix file type from the entry's external attributes (0 when made on a system without one). */
function unixType(entry: Entry): number {
  return ((entry.externalFileAttributes >>> 16) & S_IFMT) >>> 0;
}

function open(bytes: Buffer, label: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // decodeStrings (the default) makes yauzl refuse absolute and `..` names itself as well.
    // On an error yauzl passes no zip file, whatever @types/yauzl says: both are checked.
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (error: Error | null, zip: ZipFile | undefined) => {
      if (error !== null || zip === undefined) reject(new ConfigurationError(`${label} is not a zip PatchProof reads: ${oneLine(error)}`));
      else resolve(zip);
    });
  });
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300);
}

/** Every entry of the central directory, refused on the first bad one. */
function entries(zip: ZipFile, bounds: ZipEntryBounds): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const all: Entry[] = [];
    const refuse = (why: string): void => {
      zip.close();
      reject(new ConfigurationError(`${bounds.label} ${why}`));
    };
    zip.on('entry', (entry: Entry) => {
      const why = badName(entry.fileName);
      if (why !== undefined) {
        refuse(`holds an entry whose name has ${why} (${JSON.stringify(entry.fileName.slice(0, 100))}); refusing the artifact`);
        return;
      }
      const type = unixType(entry);
      const folder = entry.fileName.endsWith('/');
      if (type !== 0 && type !== (folder ? S_IFDIR : S_IFREG)) {
        refuse(`holds ${JSON.stringify(entry.fileName.slice(0, 100))}, which is not a regular file (a symbolic link or a special file); refusing the artifact`);
        return;
      }
      all.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(all));
    zip.on('error', (error: unknown) => refuse(`is not a zip PatchProof reads: ${oneLine(error)}`));
    zip.readEntry();
  });
}

/** The entry's bytes, inflated with a hard stop at maxBytes + 1. */
function inflate(zip: ZipFile, entry: Entry, bounds: ZipEntryBounds): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error !== null) {
        reject(new ConfigurationError(`${bounds.label}: ${entry.fileName} cannot be read: ${oneLine(error)}`));
        return;
      }
      const chunks: Buffer[] = [];
      let length = 0;
      let done = false;
      const finish = (result: Error | Buffer): void => {
        if (done) return;
        done = true;
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      stream.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length > bounds.maxBytes) {
          stream.destroy();
          finish(new ConfigurationError(`${bounds.label}: ${entry.fileName} inflates to more than ${bounds.maxBytes} bytes; refusing it`));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (streamError: unknown) => finish(new ConfigurationError(`${bounds.label}: ${entry.fileName} cannot be read: ${oneLine(streamError)}`)));
      stream.on('end', () => finish(Buffer.concat(chunks)));
    });
  });
}

/**
 * The bytes of one file of the zip `bytes`: `bounds.path`, or the only file. Refused (one-line
 * ConfigurationError) for more than maxEntries entries, any unsafe name, a symbolic link or special
 * file anywhere in the zip, a name given twice, a missing or ambiguous entry, and an entry that
 * inflates past maxBytes or to another size than its header says.
 */
export async function readZipEntry(bytes: Buffer, bounds: ZipEntryBounds): Promise<{ name: string; bytes: Buffer }> {
  const zip = await open(bytes, bounds.label);
  try {
    if (zip.entryCount > bounds.maxEntries) throw new ConfigurationError(`${bounds.label} holds ${zip.entryCount} entries, more than ${bounds.maxEntries}; refusing it`);
    const all = await entries(zip, bounds);
    const files = all.filter((entry) => !entry.fileName.endsWith('/'));
    const names = new Set<string>();
    for (const entry of files) {
      // Two entries of one name: extractors disagree on which one wins, so neither is taken.
      if (names.has(entry.fileName)) throw new ConfigurationError(`${bounds.label} holds ${JSON.stringify(entry.fileName.slice(0, 100))} twice; refusing it`);
      names.add(entry.fileName);
    }
    const listing = (): string =>
      `it holds ${files
        .slice(0, 10)
        .map((entry) => entry.fileName)
        .join(', ')}${files.length > 10 ? `, … (${files.length})` : ''}`;
    let chosen: Entry | undefined;
    if (bounds.path !== undefined) {
      const wanted = bounds.path.replace(/^\.\//, '');
      chosen = files.find((entry) => entry.fileName === wanted);
      if (chosen === undefined) throw new ConfigurationError(`${bounds.label} has no file ${JSON.stringify(wanted)}; ${files.length === 0 ? 'it holds no file' : listing()}`);
    } else {
      if (files.length !== 1)
        throw new ConfigurationError(
          `${bounds.label} holds ${files.length} files, so which one is the claim? ${files.length === 0 ? '' : `${listing()}; `}name it with the input claimed`
        );
      chosen = files[0]!;
    }
    if (chosen.uncompressedSize > bounds.maxBytes)
      throw new ConfigurationError(`${bounds.label}: ${chosen.fileName} is ${chosen.uncompressedSize} bytes, more than ${bounds.maxBytes}; refusing it`);
    return { name: chosen.fileName, bytes: await inflate(zip, chosen, bounds) };
  } finally {
    zip.close();
  }
}
