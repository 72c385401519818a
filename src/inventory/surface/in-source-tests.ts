import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestAdapter } from '../../adapters/adapter.js';
import type { FileChange } from '../../core/diff-policy.js';
import { addedLines, type SurfaceAllowances, type SurfaceFinding } from '../../core/surface.js';
import { PolicyError } from '../../errors.js';

/**
 * Unit tests in the code's own files (cargo's `#[cfg(test)]` modules in `src/*.rs`): a path glob
 * cannot put them on the test surface, so the adapter compares the base's test items with the
 * candidate's (cargo-unit-tests.ts). A file whose base unit tests the candidate removed or changed
 * becomes a `test` finding (`grader_tampered` for an edit, `tests_removed` for a deleted file,
 * `tests_skipped` for an added skip marker), like an edit to a test file.
 *
 * Such a file is NOT reset: it is the code under test as well, and putting the base's file back
 * would undo the fix. That is safe only because the finding fails the candidate. A pack that
 * relaxes test edits (or removal) would let the candidate's own tests judge it, so the validation
 * is refused instead (fail closed).
 */
export interface InSourceTestFindings {
  findings: SurfaceFinding[];
  /** Paths of these findings: not to be reset to the base. */
  paths: Set<string>;
  /** One line per file, for the log. */
  notes: string[];
}

export function inSourceTestFindings(
  adapter: TestAdapter,
  baseDir: string,
  basePaths: readonly string[],
  changes: readonly FileChange[],
  applied: ReadonlyMap<string, Buffer | null>,
  existing: readonly SurfaceFinding[],
  allow: SurfaceAllowances,
  skipMarkers: readonly RegExp[]
): InSourceTestFindings {
  const none: InSourceTestFindings = { findings: [], paths: new Set(), notes: [] };
  const spec = adapter.inSourceTests;
  if (spec === undefined) return none;
  const candidates = new Set(spec.files(basePaths));
  // Files already on the surface (a pack's protected src/**) are reset like any other finding.
  const onSurface = new Set(existing.map((f) => f.path));
  const touched = changes.filter((c) => c.op !== 'add' && candidates.has(c.path) && !onSurface.has(c.path));
  if (touched.length === 0) return none;
  const baseFiles = new Map<string, string>();
  for (const path of candidates) baseFiles.set(path, readFileSync(join(baseDir, ...path.split('/')), 'utf8'));
  const patched = new Map<string, string | undefined>();
  for (const change of touched) {
    const after = applied.get(change.path);
    patched.set(change.path, after === null || after === undefined ? undefined : after.toString('utf8'));
  }
  const changed = spec.changed(baseFiles, patched);
  const byPath = new Map(touched.map((c) => [c.path, c]));
  const out: InSourceTestFindings = { findings: [], paths: new Set(), notes: [] };
  for (const { path, changed: keys } of changed) {
    const change = byPath.get(path)!;
    const relaxed = change.op === 'delete' ? allow.test_removal : allow.test_edits;
    if (relaxed) {
      throw new PolicyError(
        'policy_violation',
        `the candidate ${change.op === 'delete' ? 'deletes' : 'changes'} unit tests in ${path} (${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''}); they live in the code's own file, which cannot be reset to the base without undoing the fix, so the pack's allow.${change.op === 'delete' ? 'test_removal' : 'test_edits'} cannot apply: leave those tests as they are, or move them to tests/`
      );
    }
    const skip_markers = addedLines(change).filter(({ text }) => skipMarkers.some((re) => re.test(text)));
    out.findings.push({ path, change: change.op, categories: ['test'], skip_markers });
    out.paths.add(path);
    out.notes.push(
      `test surface: ${path} ${change.op === 'delete' ? 'deleted with' : 'changes'} its unit test(s) ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ` and ${keys.length - 5} more` : ''} (not reset: the file is also the code under test)`
    );
  }
  return out;
}
