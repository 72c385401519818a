import { checkDiff } from '../../src/core/diff-policy.js';
import { analyseSurface, resetPlan, surfaceReasons, type SurfaceAllowances, type SurfaceRules } from '../../src/core/surface.js';

const rules: SurfaceRules = {
  tests: ['test/**', '**/*.test.js'],
  config: ['package.json', '.github/**'],
  dependencies: ['package.json', 'package-lock.json'],
  protected: ['src/grader/**'],
  placements: ['.patchproof/reproduction', 'test/witness'],
  skipMarkers: [/\.skip\s*\(/, /\.only\s*\(/, /\{\s*skip\s*:/]
};
const none: SurfaceAllowances = { test_edits: false, test_removal: false, skips: false, config_edits: false, dependency_changes: false };

const modify = (path: string, minus: string, plus: string): string => `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1,2 +1,2 @@\n ctx\n-${minus}\n+${plus}\n`;
const add = (path: string, line: string): string => `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+${line}\n`;
const del = (path: string, line: string): string => `diff --git a/${path} b/${path}\ndeleted file mode 100644\n--- a/${path}\n+++ /dev/null\n@@ -1 +0,0 @@\n-${line}\n`;

const findingsOf = (diff: string) => analyseSurface(checkDiff(diff), rules);

describe('test surface', () => {
  it('ignores changes to the code under test', () => {
    expect(findingsOf(modify('src/duration.js', 'a', 'b'))).toEqual([]);
  });

  it('fails an edited test file with grader_tampered, unless test edits are allowed', () => {
    const findings = findingsOf(modify('test/a.test.js', 'assert.equal(x, 1)', 'assert.equal(x, 2)'));
    expect(findings).toEqual([{ path: 'test/a.test.js', change: 'modify', categories: ['test'], skip_markers: [] }]);
    expect(surfaceReasons(findings, none)).toEqual({ reasons: ['grader_tampered'], relaxed: [] });
    expect(surfaceReasons(findings, { ...none, test_edits: true })).toEqual({ reasons: [], relaxed: ['test_edits'] });
  });

  it('fails a deleted test file with tests_removed', () => {
    expect(surfaceReasons(findingsOf(del('test/b.test.js', 'x')), none).reasons).toEqual(['tests_removed']);
  });

  it('finds skip and only markers on added lines, with their line numbers', () => {
    const findings = findingsOf(modify('test/a.test.js', "test('x', () => {", "test.skip('x', () => {"));
    expect(findings[0]!.skip_markers).toEqual([{ line: 2, text: "test.skip('x', () => {" }]);
    expect(surfaceReasons(findings, none).reasons).toEqual(['grader_tampered', 'tests_skipped']);
    expect(surfaceReasons(findings, { ...none, test_edits: true, skips: true }).reasons).toEqual([]);
  });

  it('only reports a new test file: it is removed before judging', () => {
    const findings = findingsOf(add('test/new.test.js', "test('new', () => {});"));
    expect(findings).toHaveLength(1);
    expect(surfaceReasons(findings, none).reasons).toEqual([]);
  });

  it('treats test configuration as grader_tampered and dependency manifests as dependency_changed', () => {
    expect(surfaceReasons(findingsOf(modify('.github/workflows/ci.yml', 'a', 'b')), none).reasons).toEqual(['grader_tampered']);
    expect(findingsOf(modify('package.json', 'a', 'b'))[0]!.categories).toEqual(['config', 'dependency']);
    expect(surfaceReasons(findingsOf(modify('package-lock.json', 'a', 'b')), none).reasons).toEqual(['dependency_changed']);
    expect(surfaceReasons(findingsOf(modify('package-lock.json', 'a', 'b')), { ...none, dependency_changes: true })).toEqual({ reasons: [], relaxed: ['dependency_changes'] });
  });

  it('never relaxes protected paths or files planted where witness tests go', () => {
    const all: SurfaceAllowances = { test_edits: true, test_removal: true, skips: true, config_edits: true, dependency_changes: true };
    expect(surfaceReasons(findingsOf(modify('src/grader/check.js', 'a', 'b')), all).reasons).toEqual(['grader_tampered']);
    const planted = findingsOf(add('test/witness/repro.test.js', 'fake'));
    expect(planted[0]!.categories).toEqual(['placement', 'test']);
    expect(surfaceReasons(planted, all).reasons).toEqual(['grader_tampered']);
  });

  it('restores touched files from the base and removes the ones the candidate added', () => {
    const findings = findingsOf(
      modify('test/a.test.js', 'a', 'b') + del('test/b.test.js', 'x') + add('test/witness/repro.test.js', 'fake') + modify('package-lock.json', 'a', 'b')
    );
    const base = new Set(['test/a.test.js', 'test/b.test.js', 'package-lock.json']);
    expect(resetPlan(findings, (p) => base.has(p))).toEqual({ restore: ['test/a.test.js', 'test/b.test.js'], remove: ['test/witness/repro.test.js'] });
  });
});

describe('importable files and shadowing modules count as test surface', () => {
  it.each([
    'evil-1.0.dist-info/entry_points.txt',
    'lib/x.egg-info/PKG-INFO',
    'zz_hook.pth',
    'sitecustomize.py',
    'src/usercustomize.py',
    'deep/down/conftest.py',
    'node_modules/jest-circus/runner.js',
    'packages/a/node_modules/expect/build/index.js'
  ])('%s is test configuration: reset, grader_tampered unless config edits are allowed', (path) => {
    const findings = findingsOf(add(path, 'x'));
    expect(findings).toEqual([{ path, change: 'add', categories: ['config'], skip_markers: [] }]);
    expect(surfaceReasons(findings, none).reasons).toEqual(['grader_tampered']);
    expect(resetPlan(findings, () => false)).toEqual({ restore: [], remove: [path] });
  });

  it('a top-level module or package named like a staged test is reported under its own path, removed, and never relaxed', () => {
    const staged = { ...rules, stagedModules: ['test_hidden_associativity', 'hidden.test'] };
    const changes = checkDiff(add('test_hidden_associativity/__init__.py', 'x') + add('hidden.test.js', 'y') + add('src/test_hidden_associativity.py', 'z'));
    const findings = analyseSurface(changes, staged);
    expect(findings.map((f) => [f.path, f.categories])).toEqual([
      ['hidden.test.js', ['test', 'shadow']],
      ['test_hidden_associativity/__init__.py', ['shadow']]
    ]);
    const everything: SurfaceAllowances = { test_edits: true, test_removal: true, skips: true, config_edits: true, dependency_changes: true };
    expect(surfaceReasons(findings, everything).reasons).toEqual(['grader_tampered']);
    expect(resetPlan(findings, () => false).remove).toEqual(['hidden.test.js', 'test_hidden_associativity/__init__.py']);
    // Without staged names nothing collides.
    expect(analyseSurface(changes, rules).filter((f) => f.categories.includes('shadow'))).toEqual([]);
  });
});
