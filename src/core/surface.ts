import picomatch from 'picomatch';
import type { FileChange } from './diff-policy.js';

/**
 * The test surface: which of the candidate's changes touch tests, test configuration, protected
 * paths, the places where witness tests go, or dependency manifests; what that means for the
 * verdict; and which files are reset to the base before anything is judged. Pure.
 *
 * Globs are matched with picomatch (maintained, the matcher behind micromatch and chokidar), with
 * `dot: true` so `.github/**` and `.patchproof/**` match like any other folder.
 */

export type SurfaceCategory = 'test' | 'config' | 'protected' | 'placement' | 'dependency' | 'shadow';

/**
 * Files that change how tests run in any ecosystem, wherever they are: Python's importable
 * metadata and startup hooks (a `*.dist-info` on `sys.path` autoloads pytest plugins; a `.pth` or
 * `sitecustomize.py` runs at interpreter start), `conftest.py` anywhere, and a `node_modules`
 * inside the repository (it would stand in for the test runner's own dependencies). They count as
 * test configuration: reset to the base, and `grader_tampered` unless the pack allows config edits.
 */
export const IMPORTABLE_SURFACE: readonly string[] = Object.freeze([
  '**/*.dist-info/**',
  '**/*.egg-info/**',
  '**/*.egg-link',
  '**/*.pth',
  '**/sitecustomize.py',
  '**/usercustomize.py',
  '**/conftest.py',
  '**/node_modules/**'
]);

/** File extensions a staged test's top-level name is compared without (`test_x.py` → `test_x`). */
const MODULE_EXTENSION = /\.(py|pyc|pyi|so|pyd|js|mjs|cjs|ts|mts|cts|jsx|tsx)$/;

/** The top-level module or package a repository path defines (`test_x.py`, `test_x/…` → `test_x`). */
export function topLevelModule(path: string): string {
  const first = path.split('/')[0] ?? '';
  return path.includes('/') ? first : first.replace(MODULE_EXTENSION, '').replace(/\.cpython-[^.]*$/, '');
}

/** One changed path on the test surface. */
export interface SurfaceFinding {
  path: string;
  change: FileChange['op'];
  categories: SurfaceCategory[];
  /** Lines the candidate added to a test file that skip, focus or expect-fail a test (1-based, new file). */
  skip_markers: { line: number; text: string }[];
}

/** What a witness pack allows a candidate to do; everything is forbidden by default. */
export interface SurfaceAllowances {
  test_edits: boolean;
  test_removal: boolean;
  skips: boolean;
  config_edits: boolean;
  dependency_changes: boolean;
}

export interface SurfaceRules {
  tests: readonly string[];
  config: readonly string[];
  dependencies: readonly string[];
  /** The pack's protected globs. */
  protected: readonly string[];
  /** Repository-relative folders where witness tests are staged. */
  placements: readonly string[];
  skipMarkers: readonly RegExp[];
  /**
   * Top-level module names of the staged tests (see `topLevelModule`). A candidate's top-level
   * module or package of the same name could be imported in place of the staged test: it is
   * reported under the candidate's own path (never the hidden name), removed, and always fails.
   */
  stagedModules?: readonly string[];
  /**
   * Repository paths the base tree's resolved test configuration loads (src/inventory/surface/
   * loaded-surface.ts: jest/vitest setup files, transforms, pytest plugins...). They count as
   * test configuration, like the config files that name them.
   */
  loaded?: readonly string[];
}

export type SurfaceReason = 'tests_removed' | 'tests_skipped' | 'grader_tampered' | 'dependency_changed';

/** Glob syntax in a literal path, escaped so picomatch matches the path itself. */
function literalGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@]/g, '\\$&');
}

/**
 * Protected by default, whatever the pack lists: `.github/**` (the workflows that run the gate),
 * unless the pack sets `allow.workflow_edits`, and the pack's own folder in the repository (for
 * path and ref packs), which is the grader of every later pull request.
 */
export function defaultProtected(allowWorkflowEdits: boolean, packRepoPath: string | undefined): string[] {
  const globs = allowWorkflowEdits ? [] : ['.github', '.github/**'];
  const pack = packRepoPath?.replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (pack !== undefined && pack !== '' && pack !== '.') globs.push(literalGlob(pack), `${literalGlob(pack)}/**`);
  return globs;
}

function matcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  return picomatch([...globs], { dot: true });
}

function underAny(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => path === folder || path.startsWith(`${folder.replace(/\/+$/, '')}/`));
}

/** The lines a change adds (1-based, in the new file). */
export function addedLines(change: FileChange): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  for (const hunk of change.hunks) {
    let line = hunk.newStart;
    for (const raw of hunk.lines) {
      const op = raw[0];
      if (op === '+') out.push({ line, text: raw.slice(1) });
      if (op === '+' || op === ' ') line += 1;
    }
  }
  return out;
}

/** Classify every change that touches the test surface; changes elsewhere are not listed. */
export function analyseSurface(changes: readonly FileChange[], rules: SurfaceRules): SurfaceFinding[] {
  const isTest = matcher(rules.tests);
  const loaded = new Set(rules.loaded ?? []);
  const configGlob = matcher([...rules.config, ...IMPORTABLE_SURFACE]);
  const isConfig = (path: string): boolean => loaded.has(path) || configGlob(path);
  const staged = new Set(rules.stagedModules ?? []);
  const isDependency = matcher(rules.dependencies);
  const isProtected = matcher(rules.protected);
  const findings: SurfaceFinding[] = [];
  for (const change of changes) {
    const categories: SurfaceCategory[] = [];
    if (underAny(change.path, rules.placements)) categories.push('placement');
    if (isProtected(change.path)) categories.push('protected');
    if (isConfig(change.path)) categories.push('config');
    if (isTest(change.path)) categories.push('test');
    if (isDependency(change.path)) categories.push('dependency');
    if (change.op !== 'delete' && staged.has(topLevelModule(change.path)) && !underAny(change.path, rules.placements)) categories.push('shadow');
    if (categories.length === 0) continue;
    const skip_markers = categories.includes('test') ? addedLines(change).filter(({ text }) => rules.skipMarkers.some((re) => re.test(text))) : [];
    findings.push({ path: change.path, change: change.op, categories, skip_markers });
  }
  return findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The reasons the findings give, and the relaxations that were used. A new test file is only
 * reported (it is removed before judging and judges nothing); editing or deleting an existing one,
 * adding skip markers, touching test configuration, protected paths or the witness placement fail.
 */
export function surfaceReasons(findings: readonly SurfaceFinding[], allow: SurfaceAllowances): { reasons: SurfaceReason[]; relaxed: (keyof SurfaceAllowances)[] } {
  const reasons = new Set<SurfaceReason>();
  const relaxed = new Set<keyof SurfaceAllowances>();
  const rule = (allowed: keyof SurfaceAllowances, reason: SurfaceReason): void => {
    if (allow[allowed]) relaxed.add(allowed);
    else reasons.add(reason);
  };
  for (const finding of findings) {
    const has = (category: SurfaceCategory): boolean => finding.categories.includes(category);
    // Placement and protected paths, and modules shadowing staged tests, cannot be relaxed: they are the grader itself.
    if (has('placement') || has('protected') || has('shadow')) reasons.add('grader_tampered');
    if (has('config')) rule('config_edits', 'grader_tampered');
    if (has('test')) {
      if (finding.change === 'delete') rule('test_removal', 'tests_removed');
      if (finding.change === 'modify') rule('test_edits', 'grader_tampered');
      if (finding.skip_markers.length > 0) rule('skips', 'tests_skipped');
    }
    if (has('dependency')) rule('dependency_changes', 'dependency_changed');
  }
  return { reasons: [...reasons].sort(), relaxed: [...relaxed].sort() };
}

/**
 * Reset, don't only detect: every touched test, test configuration, protected or placement path
 * goes back to its base version (restore) or, when the base had none, is removed. Dependency
 * manifests are left to the dependency stage.
 */
export function resetPlan(findings: readonly SurfaceFinding[], inBase: (path: string) => boolean): { restore: string[]; remove: string[] } {
  const restore: string[] = [];
  const remove: string[] = [];
  for (const finding of findings) {
    const resettable = finding.categories.some((c) => c !== 'dependency');
    if (!resettable) continue;
    if (inBase(finding.path)) restore.push(finding.path);
    else remove.push(finding.path);
  }
  return { restore, remove };
}
