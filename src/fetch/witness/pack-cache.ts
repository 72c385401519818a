import { homedir } from 'node:os';
import { join } from 'node:path';
import * as toolCache from '@actions/tool-cache';
import { digestHex, type Digest } from '../../core/hashing.js';
import { InfrastructureError } from '../../errors.js';

/**
 * Downloading witness packs and keeping them by digest. The only code that talks to the network or
 * the tool cache for packs; `resolveWitness` receives this interface. It verifies nothing itself:
 * every byte it returns is checked against the digest by the caller, cache hits included.
 */
export interface PackCache {
  /** The cached archive for this digest, or undefined when there is none. */
  find(digest: Digest): Promise<string | undefined>;
  /** Keep a downloaded archive (already verified) under its digest; returns the cached file. */
  store(archive: string, digest: Digest): Promise<string>;
  /** Download `url` into the new file `dest`. HTTP and network faults throw InfrastructureError. */
  download(url: string, dest: string): Promise<void>;
}

/** Where packs are cached. */
export interface PackCacheOptions {
  /**
   * The tool cache folder. Default: RUNNER_TOOL_CACHE when set (on a runner), else
   * `$XDG_CACHE_HOME/patchproof/tool-cache` or `~/.cache/patchproof/tool-cache` (CLI use).
   */
  toolCacheDir?: string;
}

/** The tool name packs are cached under. */
export const PACK_TOOL_NAME = 'patchproof-witness';
/** Packs are the same on every architecture. */
const PACK_ARCH = 'any';
const PACK_FILE = 'witness.tar.gz';

/**
 * The tool-cache version of a pack: `0.0.0-sha256-<hex>`. One hyphenated pre-release identifier, so
 * it is valid semver whatever the hex (an all-digit identifier with a leading zero would not be).
 */
export function packVersion(digest: Digest): string {
  return `0.0.0-sha256-${digestHex(digest)}`;
}

/** The default tool cache folder when RUNNER_TOOL_CACHE is unset. */
export function defaultToolCacheDir(): string {
  const base = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return join(base, 'patchproof', 'tool-cache');
}

/**
 * A PackCache on `@actions/tool-cache`: `downloadTool` (which retries 5xx, 408, 429 and network
 * faults), `cacheFile` and `find`.
 *
 * tool-cache reads RUNNER_TOOL_CACHE from process.env on every call (not at import). So that CLI use
 * works without it, and without changing it for anything else, each cache call runs with the variable
 * set to this cache's folder and restored afterwards; such calls are serialised, so two caches with
 * different folders never see each other's. (Other code that reads the variable while a `store` is in
 * flight may see this folder.) Downloads are given their destination file, so RUNNER_TEMP is never read.
 */
export function createToolCachePackCache(options: PackCacheOptions = {}): PackCache {
  const folder = options.toolCacheDir ?? (process.env['RUNNER_TOOL_CACHE'] || defaultToolCacheDir());
  return {
    async find(digest) {
      const found = await withToolCacheDir(folder, () => toolCache.find(PACK_TOOL_NAME, packVersion(digest), PACK_ARCH));
      return found === '' ? undefined : join(found, PACK_FILE);
    },
    async store(archive, digest) {
      try {
        const stored = await withToolCacheDir(folder, () => toolCache.cacheFile(archive, PACK_FILE, PACK_TOOL_NAME, packVersion(digest), PACK_ARCH));
        return join(stored, PACK_FILE);
      } catch (error) {
        throw new InfrastructureError(`Could not cache the witness pack in '${folder}': ${messageOf(error)}`, { cause: error });
      }
    },
    async download(url, dest) {
      try {
        await toolCache.downloadTool(url, dest);
      } catch (error) {
        throw new InfrastructureError(`Could not download the witness pack from ${url}: ${messageOf(error)}`, { cause: error });
      }
    }
  };
}

let queue: Promise<unknown> = Promise.resolve();

async function withToolCacheDir<T>(folder: string, work: () => T | Promise<T>): Promise<T> {
  const run = queue.then(async () => {
    const previous = process.env['RUNNER_TOOL_CACHE'];
    process.env['RUNNER_TOOL_CACHE'] = folder;
    try {
      return await work();
    } finally {
      if (previous === undefined) {
        delete process.env['RUNNER_TOOL_CACHE'];
      } else {
        process.env['RUNNER_TOOL_CACHE'] = previous;
      }
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
