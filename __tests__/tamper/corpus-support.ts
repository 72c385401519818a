import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDiff } from '../../src/core/diff-policy.js';
import { applyFileChanges } from '../../src/core/patch-apply.js';
import { analyseSurface, resetPlan } from '../../src/core/surface.js';
import { witnessAdapter } from '../../src/adapters/registry.js';
import { parseWitnessManifest } from '../../src/fetch/witness/manifest.js';
import type { ChangedFile } from '../../src/tamper/index.js';

/**
 * A candidate diff against a real tree, as the validation pipeline hands it to the tamper screen:
 * the diff applied exactly (src/core/patch-apply.ts), test files and test configuration left out by
 * the adapter's own surface (they are reset to the base before judging), base and patched texts.
 */
export async function changedNonTestFiles(repoDir: string, diff: string, packDir: string): Promise<ChangedFile[]> {
  const manifest = parseWitnessManifest(JSON.parse(readFileSync(join(packDir, 'witness.json'), 'utf8')), join(packDir, 'witness.json'));
  const adapter = await witnessAdapter(manifest, packDir);
  const changes = checkDiff(diff, { maxBytes: 8 * 1024 * 1024, maxFiles: 1000 });
  const read = (path: string): Buffer | undefined => {
    const file = join(repoDir, ...path.split('/'));
    return existsSync(file) && lstatSync(file).isFile() ? readFileSync(file) : undefined;
  };
  const applied = applyFileChanges(read, changes);
  const findings = analyseSurface(changes, {
    ...adapter.surface,
    protected: manifest.protected,
    placements: [manifest.reproduction.placement, manifest.hidden.placement],
    skipMarkers: adapter.skipMarkers
  });
  const reset = resetPlan(findings, (path) => read(path) !== undefined);
  const resetPaths = new Set([...reset.restore, ...reset.remove]);
  return [...applied]
    .filter(([path]) => !resetPaths.has(path))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, content]) => ({ path, base: read(path)?.toString('utf8') ?? null, patched: content === null ? null : content.toString('utf8') }));
}

/** Does the diff apply to this tree? */
export function appliesTo(repoDir: string, diff: string): boolean {
  try {
    const changes = checkDiff(diff, { maxBytes: 8 * 1024 * 1024, maxFiles: 1000 });
    applyFileChanges((path) => {
      const file = join(repoDir, ...path.split('/'));
      return existsSync(file) && lstatSync(file).isFile() ? readFileSync(file) : undefined;
    }, changes);
    return true;
  } catch {
    return false;
  }
}
