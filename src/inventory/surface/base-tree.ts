import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RegisteredAdapter } from '../../adapters/registry.js';
import type { SnapshotEntry } from '../../core/snapshot-record.js';
import { loadedSurface, type LoadedSurface } from './loaded-surface.js';

/** Files larger than this are not read as configuration (a config is small; a huge one is not parsed). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The loaded surface of the staged base tree (`dir`, a private copy of the base): only regular
 * files of the base snapshot are read, never a symlink, and never anything of the candidate's.
 * The candidate's changed paths are matched, never read, against what the configuration can route
 * to. What could only be resolved conservatively is logged.
 */
export function baseLoadedSurface(
  adapter: RegisteredAdapter,
  dir: string,
  entries: readonly SnapshotEntry[],
  log: (line: string) => void,
  candidatePaths: readonly string[] = []
): LoadedSurface {
  const files = new Map(entries.filter((e) => e.kind === 'file').map((e) => [e.path, e]));
  const surface = loadedSurface(adapter.name, {
    paths: entries.map((e) => e.path),
    // The candidate's paths are only matched (a mapping's folder), never read.
    extraPaths: candidatePaths,
    read(path) {
      const entry = files.get(path);
      if (entry === undefined || entry.size > MAX_CONFIG_BYTES) return undefined;
      try {
        return readFileSync(join(dir, ...path.split('/')), 'utf8');
      } catch {
        return undefined;
      }
    }
  });
  for (const note of surface.unresolved) log(`test surface: ${note}`);
  return surface;
}
