import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quoteForMessage } from '../../core/diff-policy.js';
import { DIGEST_PATTERN, type Digest } from '../../core/hashing.js';
import type { SnapshotEntry } from '../../core/snapshot-record.js';
import { ConfigurationError, InfrastructureError, VerificationError } from '../../errors.js';
import { readWitnessArchive, writeWitnessEntries } from './archive.js';
import { digestWitnessEntries, witnessRecords } from './digest.js';
import { packLimits, unsafe, type PackLimits, type WitnessEntry } from './entries.js';
import { readWitnessFolder } from './folder.js';
import { isSealed, openSealedEntries } from './sealed.js';
import { manifestEntryOf, plainSecretProblem, restoreSecretParts } from './sealed-parts.js';
import { WITNESS_MANIFEST_FILE, type WitnessManifest } from './manifest.js';
import type { OracleFile } from '../../core/oracle.js';
import { createToolCachePackCache, type PackCache } from './pack-cache.js';

/**
 * Resolving a witness pack: from a folder, a `.tar.gz` file or a URL, to a private, verified copy
 * on disk. The digest is checked before anything is written: a pack that is not the one the run is
 * bound to never reaches the disk.
 */

/** Where a pack came from. */
export type WitnessSourceKind = 'dir' | 'archive' | 'url';

/** A verified pack, unpacked into a folder of its own. */
export interface ResolvedWitness {
  /** The folder holding `witness.json`: a fresh copy of exactly the files the digest covers. */
  dir: string;
  /** The pack digest, equal to the one expected. */
  digest: Digest;
  manifest: WitnessManifest;
  source: { kind: WitnessSourceKind; location: string };
  /** The pack's file records, sorted by path as UTF-8 bytes (a sealed pack: with hidden.age, as digested). */
  files: readonly SnapshotEntry[];
  /** A sealed pack's `sealed/…` files, decrypted, in memory only (never on disk); empty otherwise. */
  sealed: readonly WitnessEntry[];
  /** A sealed pack's oracle half for the hidden phase, restored from hidden.age (in memory only). */
  hiddenOracle?: OracleFile;
  /** The witness key, when the pack was sealed (it keys the receipt's hidden ids). */
  witnessKey?: string;
  /** Removes the folders this resolution created. */
  dispose(): Promise<void>;
}

/** How to resolve a pack. */
export interface ResolveWitnessOptions {
  limits?: Partial<PackLimits>;
  /** Where to create the unpacked copy and download folders: the action passes RUNNER_TEMP; default the OS temp folder (TMPDIR). */
  tempDir?: string;
  /** Download and cache for URL sources. Default `createToolCachePackCache()`. */
  cache?: PackCache;
  /** The witness key (an age identity) that opens a sealed pack's hidden.age. */
  witnessKey?: string;
  /** Check a sealed pack without its key (witness digest): hidden.age stays closed and nothing is written. */
  leaveSealed?: boolean;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Resolve the pack at `source` and check it is the one bound to the run: its digest must equal
 * `expectedDigest` (`sha256:` and 64 lowercase hex digits, else ConfigurationError).
 *
 * `source` is a folder (what `takeSnapshot` lists: the tracked files inside a git work tree), a
 * `.tar.gz`/`.tgz` file, or an `https://` URL. Plain `http://` is accepted only for 127.0.0.1,
 * localhost and [::1], for tests: integrity comes from the digest, not the transport, but https keeps
 * what is fetched private and stops a network attacker from even trying. URL packs are downloaded with
 * `@actions/tool-cache` and cached by digest; a cache hit is verified again like a download.
 *
 * Order: read the bytes into memory, vet every entry, compute the digest, compare, parse the
 * manifest and check its test folders hold files, and only then write the copy. Throws
 * VerificationError `witness_digest_mismatch` (nothing written), `witness_unsafe` (see
 * `readWitnessArchive`), ConfigurationError for a bad source or manifest, InfrastructureError for
 * download and file system faults.
 */
export async function resolveWitness(source: string, expectedDigest: string, options: ResolveWitnessOptions = {}): Promise<ResolvedWitness> {
  if (!DIGEST_PATTERN.test(expectedDigest)) {
    throw new ConfigurationError(
      `witness digest ${quoteForMessage(expectedDigest, 80)} is not valid; expected 'sha256:' followed by 64 lowercase hex digits, the digest the pack's author published`
    );
  }
  const expected = expectedDigest as Digest;
  const limits = packLimits(options.limits);
  const tempRoot = options.tempDir ?? tmpdir();
  const kind = await classify(source);
  let entries: WitnessEntry[];
  if (kind === 'url') {
    entries = await fromUrl(source, expected, limits, tempRoot, options.cache ?? createToolCachePackCache());
  } else {
    entries = kind === 'dir' ? await readWitnessFolder(source, limits) : await readWitnessArchive(await readArchive(source, limits), limits);
    checkDigest(entries, expected, source);
  }
  const files = witnessRecords(entries);
  let manifest = manifestEntryOf(entries).manifest;
  // A sealed pack is opened in memory, before anything is written: a wrong or missing key leaves nothing behind.
  const sealedPack = isSealed(entries);
  if (sealedPack) {
    // Its plain part must not give a hidden test away (checked with or without the key).
    const problem = plainSecretProblem(entries);
    if (problem !== undefined) throw new ConfigurationError(`the witness pack's hidden tests are encrypted, but ${problem}`);
  }
  const leave = sealedPack && options.leaveSealed === true && options.witnessKey === undefined;
  const opened = leave ? { entries, sealed: [] } : await openSealedEntries(entries, manifest.hidden.path, options.witnessKey, limits);
  const restored = sealedPack && !leave ? restoreSecretParts(entries, opened.sealed) : undefined;
  if (restored !== undefined) manifest = restored.manifest;
  entries = opened.entries;
  checkTestFolders(manifest, entries, leave ? ['reproduction'] : ['reproduction', 'hidden']);
  const dir = await mkdtemp(join(tempRoot, 'patchproof-witness-'));
  try {
    await writeWitnessEntries(entries, dir);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    digest: expected,
    manifest,
    source: { kind, location: source },
    files,
    sealed: opened.sealed,
    ...(restored?.hiddenOracle !== undefined ? { hiddenOracle: restored.hiddenOracle } : {}),
    ...(sealedPack && options.witnessKey !== undefined ? { witnessKey: options.witnessKey } : {}),
    dispose: () => rm(dir, { recursive: true, force: true, maxRetries: 3 })
  };
}

/** What kind of source this is; refuses plain http to anything but loopback before any request. */
async function classify(source: string): Promise<WitnessSourceKind> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      throw new ConfigurationError(`witness source ${quoteForMessage(source)} is not a valid URL; expected an https:// URL, a folder or a .tar.gz file`);
    }
    if (url.protocol === 'https:') return 'url';
    if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return 'url';
    throw new ConfigurationError(
      `witness source ${quoteForMessage(source)} is not https; expected an https:// URL (plain http:// only for 127.0.0.1 or localhost), a folder or a .tar.gz file`
    );
  }
  let info;
  try {
    info = await stat(source);
  } catch {
    throw new ConfigurationError(`witness source ${quoteForMessage(source)} does not exist; expected a folder, a .tar.gz file or an https:// URL`);
  }
  if (info.isDirectory()) return 'dir';
  if (info.isFile() && /\.(?:tar\.gz|tgz)$/i.test(source)) return 'archive';
  throw new ConfigurationError(`witness source ${quoteForMessage(source)} is neither a folder nor a .tar.gz/.tgz file; expected a folder, a .tar.gz file or an https:// URL`);
}

/** An archive's bytes, refusing one over the size limit before reading it. */
async function readArchive(path: string, limits: PackLimits): Promise<Buffer> {
  try {
    const { size } = await stat(path);
    if (size > limits.maxBytes) {
      throw unsafe(`the archive is ${size} bytes, more than the limit of ${limits.maxBytes}`);
    }
    return await readFile(path);
  } catch (error) {
    if (error instanceof VerificationError) throw error;
    throw new InfrastructureError(`Could not read the witness pack '${path}': ${(error as Error).message}`, { cause: error });
  }
}

function checkDigest(entries: readonly WitnessEntry[], expected: Digest, location: string, hint?: string): void {
  const actual = digestWitnessEntries(entries);
  if (actual !== expected) {
    throw new VerificationError(
      'witness_digest_mismatch',
      `witness pack digest is ${actual}, expected ${expected}; ${hint ?? `the pack at ${quoteForMessage(location, 400)} is not the one this run is bound to: check the source and the digest`}`
    );
  }
}

async function fromUrl(url: string, expected: Digest, limits: PackLimits, tempRoot: string, cache: PackCache): Promise<WitnessEntry[]> {
  const cached = await cache.find(expected);
  if (cached !== undefined) {
    const entries = await readWitnessArchive(await readArchive(cached, limits), limits);
    checkDigest(entries, expected, cached, `the cached copy ${quoteForMessage(cached, 400)} was changed after it was cached: remove it and run again`);
    return entries;
  }
  const folder = await mkdtemp(join(tempRoot, 'patchproof-download-'));
  try {
    const file = join(folder, 'witness.tar.gz');
    await cache.download(url, file);
    const entries = await readWitnessArchive(await readArchive(file, limits), limits);
    checkDigest(entries, expected, url);
    await cache.store(file, expected);
    return entries;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Check that the manifest's test folders hold files (a sealed pack: once opened). */
function checkTestFolders(manifest: WitnessManifest, entries: readonly WitnessEntry[], sets: readonly ('reproduction' | 'hidden')[]): void {
  for (const set of sets) {
    const folder = manifest[set].path;
    if (!entries.some((entry) => entry.path.startsWith(`${folder}/`))) {
      throw new ConfigurationError(
        `witness pack ${WITNESS_MANIFEST_FILE}: ${set}.path ${quoteForMessage(folder)} is not a folder of files in the pack; expected the pack folder holding the ${set} tests`
      );
    }
  }
}
