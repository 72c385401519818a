import * as cache from '@actions/cache';
import { mkdir, rm } from 'node:fs/promises';
import { digestHex } from '../core/hashing.js';
import { baselineCacheKey, openBaselineCache, type BaselineCache } from '../phases/baseline-cache.js';

/**
 * The action's baseline store: the GitHub Actions cache, through `@actions/cache` (the toolkit's own
 * client: twirp CacheService v2, the archive through the Azure Blob SDK), behind the same
 * `BaselineCache` interface as the CLI's `--baseline-cache DIR`.
 *
 * An Actions cache entry is a tar archive of one folder: the folder cache's own layout
 * (`keys/<key hex>` naming `objects/<sha256>.json`). A restore goes into a fresh, empty folder, and
 * the folder cache then reads it with exactly the checks it makes on the user's machine: the object
 * re-hashed against the name its key file gives, the key and the key fields re-derived, the runs
 * parsed. Anything else (no entry, a service that does not answer, an archive that does not unpack,
 * a damaged entry) is a miss and the base side runs again: a miss costs time, never a verdict.
 *
 * Re-hashing proves an entry intact, not honest, and GitHub's cache has no signatures: whoever may
 * write the cache scope a job restores from can write a consistent entry that says anything. So this
 * store is only opened in a job whose cache scope is the default branch (src/action/baseline-scope.ts).
 */

/** The fixed prefix of every key: `patchproof-baseline-v1-<hex of the BaselineKeyFields digest>`. */
export const ACTIONS_CACHE_KEY_PREFIX = 'patchproof-baseline-v1-';

/** The two calls of `@actions/cache` this store makes, so a test can see what was asked. */
export interface ActionsCacheClient {
  /** Restore the entry of exactly `key` (no restore keys) into `paths`; the key restored, or undefined. */
  restore(paths: string[], key: string): Promise<string | undefined>;
  /** Save `paths` under `key`; the entry id, or -1 when the service did not take it. */
  save(paths: string[], key: string): Promise<number>;
  /** Whether the job has the variables the client needs (ACTIONS_RESULTS_URL, ACTIONS_RUNTIME_TOKEN). */
  available(): boolean;
}

/** The real client. It reads ACTIONS_RESULTS_URL, ACTIONS_RUNTIME_TOKEN and ACTIONS_CACHE_SERVICE_V2 from the step's environment. */
export function actionsCacheClient(): ActionsCacheClient {
  return {
    // No restore keys: a prefix match would hand back another key's entry.
    restore: (paths, key) => cache.restoreCache(paths, key, []),
    save: (paths, key) => cache.saveCache(paths, key),
    available: () => cache.isFeatureAvailable() && (process.env['ACTIONS_RUNTIME_TOKEN'] ?? '') !== ''
  };
}

/** The Actions cache key of a BaselineKeyFields digest. */
export function actionsCacheKey(fields: Parameters<typeof baselineCacheKey>[0]): string {
  return `${ACTIONS_CACHE_KEY_PREFIX}${digestHex(baselineCacheKey(fields))}`;
}

/** What the store says while it works: `info` for hits and misses, `warning` for a service that failed. */
export interface StoreLog {
  info(line: string): void;
  warning(line: string): void;
}

/**
 * The Actions cache as a BaselineCache. `folder` is the one path archived and restored (the cache
 * version hashes the paths, so it must be the same in every job: RUNNER_TEMP/patchproof-baseline-cache);
 * it is emptied before every restore and every save.
 */
export function openActionsBaselineCache(folder: string, log: StoreLog, client: ActionsCacheClient = actionsCacheClient()): BaselineCache {
  const fresh = async (): Promise<void> => {
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true, mode: 0o700 });
  };
  return {
    async read(fields) {
      const key = actionsCacheKey(fields);
      if (!client.available()) return { miss: 'the Actions cache is not available to this step (no ACTIONS_RESULTS_URL or ACTIONS_RUNTIME_TOKEN)' };
      try {
        await fresh();
        // @actions/cache reports a failed service as a warning of its own and returns undefined.
        const restored = await client.restore([folder], key);
        if (restored !== key) return { miss: `no entry ${key} in the Actions cache of this scope (or the cache service did not answer: see the log above)` };
        return await (await openBaselineCache(folder, 'baseline-cache')).read(fields);
      } catch (error) {
        log.warning(`baseline cache: the Actions cache entry ${key} could not be read (${error instanceof Error ? error.message : String(error)}); the base side runs`);
        return { miss: `entry ${key} could not be read` };
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
    async write(fields, baselineDigest, baseline) {
      const key = actionsCacheKey(fields);
      if (!client.available()) return undefined;
      try {
        await fresh();
        const address = await (await openBaselineCache(folder, 'baseline-cache')).write(fields, baselineDigest, baseline);
        if (address === undefined) return undefined;
        const id = await client.save([folder], key);
        if (id === -1) {
          log.warning(`baseline cache: the Actions cache did not take entry ${key} (saved by another job already, or the service failed: see the log above)`);
          return undefined;
        }
        log.info(`baseline cache: saved ${address} as Actions cache entry ${key} (id ${id})`);
        return address;
      } catch (error) {
        log.warning(`baseline cache: entry ${key} could not be saved (${error instanceof Error ? error.message : String(error)})`);
        return undefined;
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    }
  };
}
