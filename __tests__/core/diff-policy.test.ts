import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { checkDiff, checkRepoPath, DEFAULT_DIFF_LIMITS, type DiffLimits } from '../../src/core/diff-policy.js';
import { PolicyError } from '../../src/errors.js';
import { GitRepo } from '../helpers/git-repo.js';

/** A throwaway git repository whose `git diff` output the tests feed to checkDiff. */
/** The shared real-git helper, with this file's temp-folder prefix. */
const Repo = { create: (): GitRepo => GitRepo.create('patchproof-diff-policy-') };
type Repo = GitRepo;

const repos: Repo[] = [];
function repo(files: Record<string, string | Buffer> = {}): Repo {
  const r = Repo.create();
  repos.push(r);
  for (const [path, content] of Object.entries(files)) r.write(path, content);
  r.commit();
  return r;
}
afterAll(() => {
  for (const r of repos) rmSync(r.dir, { recursive: true, force: true });
});

/** The PolicyError checkDiff throws; fails the test when it accepts, or throws anything else. */
function refusal(text: string, limits?: DiffLimits): PolicyError {
  try {
    checkDiff(text, limits);
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    expect(error.message).not.toMatch(/[\r\n]/);
    return error;
  }
  throw new Error(`checkDiff accepted:\n${text}`);
}

function expectPolicy(text: string, pattern: RegExp, limits?: DiffLimits): void {
  const error = refusal(text, limits);
  expect({ code: error.code, message: error.message }).toEqual({ code: 'policy_violation', message: expect.stringMatching(pattern) });
  expect(error.message).toMatch(/^diff refused: /);
}

function expectInvalid(text: string, pattern: RegExp): void {
  const error = refusal(text);
  expect({ code: error.code, message: error.message }).toEqual({ code: 'patch_invalid', message: expect.stringMatching(pattern) });
}

describe('checkRepoPath', () => {
  it.each([
    'src/index.ts',
    'a',
    'dir with space/x y.txt',
    'café/ünï.txt',
    '.github/workflows/ci.yml',
    '.gitignore',
    '.gitmodules',
    'x.git',
    '...',
    '..foo',
    'foo..',
    'docs/.patchproof/x',
    '.patchproofrc'
  ])('accepts %j', (path) => {
    expect(checkRepoPath(path)).toBeUndefined();
  });

  it.each([
    ['', 'is empty'],
    ['/etc/passwd', 'is absolute'],
    ['C:/Windows/x', 'is absolute'],
    ['src/../../etc/passwd', "contains '..'"],
    ['..', "contains '..'"],
    ['a/..', "contains '..'"],
    ['./x', "has a '.' component"],
    ['a/./b', "has a '.' component"],
    ['a//b', 'has an empty component'],
    ['a/', 'has an empty component'],
    ['a\\b', 'contains a backslash'],
    ['..\\x', 'contains a backslash'],
    ['a\tb', 'contains a control character'],
    ['a\nb', 'contains a control character'],
    ['a\u007fb', 'contains a control character'],
    ['a\u0085b', 'contains a control character'],
    ['.git/config', "has a '.git' component"],
    ['sub/.GIT/hooks/pre-commit', "has a '.git' component"],
    ['x/.Git', "has a '.git' component"],
    ['.patchproof/receipt.json', "is under '.patchproof/'"],
    ['.PatchProof/x', "is under '.patchproof/'"],
    ['.PATCHPROOF', "is under '.patchproof/'"]
  ])('refuses %j: %s', (path, reason) => {
    expect(checkRepoPath(path)).toContain(reason);
  });
});

describe('DEFAULT_DIFF_LIMITS', () => {
  it('is 1 MiB and 200 files', () => {
    expect(DEFAULT_DIFF_LIMITS).toEqual({ maxBytes: 1048576, maxFiles: 200 });
  });
});

describe('checkDiff accepts', () => {
  it('a real git modification, with its hunks', () => {
    const r = repo({ 'src/a.txt': 'one\ntwo\nthree\n' });
    r.write('src/a.txt', 'one\n2\nthree\n');
    expect(checkDiff(r.diff())).toEqual([
      {
        path: 'src/a.txt',
        op: 'modify',
        hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' one', '-two', '+2', ' three'] }]
      }
    ]);
  });

  it('real git adds and deletes, empty files (which have no hunks) and names with spaces', () => {
    const r = repo({ 'gone.txt': 'bye\n', 'empty-gone': '', 'kept.txt': 'x\n' });
    unlinkSync(join(r.dir, 'gone.txt'));
    unlinkSync(join(r.dir, 'empty-gone'));
    r.write('new dir/new file.txt', 'hello\n');
    r.write('pkg/__init__.py', '');
    const changes = checkDiff(r.diff());
    expect(changes.map(({ path, op, hunks }) => [path, op, hunks.length])).toEqual([
      ['empty-gone', 'delete', 0],
      ['gone.txt', 'delete', 1],
      ['new dir/new file.txt', 'add', 1],
      ['pkg/__init__.py', 'add', 0]
    ]);
    expect(changes[2]!.hunks[0]).toEqual({ oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, lines: ['+hello'] });
  });

  it('a real git diff whose hunk lines look like headers', () => {
    const tricky = ['-- "quoted"', '++ b/x', '@@ not a hunk', 'diff --git a/x b/y', 'rename from y', 'Binary files a and b differ', '\\ odd', ''].join('\n');
    const r = repo({ 'notes.md': tricky });
    r.write('notes.md', tricky.replace('-- "quoted"', '-- "requoted"').replace('++ b/x', '++ b/z'));
    const diff = r.diff();
    expect(diff).toContain('\n--- "quoted"\n');
    expect(diff).toContain('\n+++ b/z\n');
    expect(checkDiff(diff).map((c) => [c.path, c.op])).toEqual([['notes.md', 'modify']]);
  });

  it('a real plain `diff -ruN a b` with timestamps, stripping the a/ and b/ directories', () => {
    const dir = mkdtempSync(join(tmpdir(), 'patchproof-plain-'));
    try {
      mkdirSync(join(dir, 'a/src'), { recursive: true });
      mkdirSync(join(dir, 'b/src'), { recursive: true });
      writeFileSync(join(dir, 'a/src/x.txt'), 'one\ntwo\n');
      writeFileSync(join(dir, 'b/src/x.txt'), 'one\nTWO\n');
      let diff = '';
      try {
        execFileSync('diff', ['-ruN', 'a', 'b'], { cwd: dir, encoding: 'utf8' });
      } catch (error) {
        diff = (error as { stdout: string }).stdout; // diff exits 1 when the trees differ
      }
      expect(diff).toMatch(/^--- a\/src\/x\.txt\t\d{4}-/m);
      expect(checkDiff(diff)).toEqual([{ path: 'src/x.txt', op: 'modify', hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' one', '-two', '+TWO'] }] }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a plain diff without prefixes, keeping a real a/ directory when not every file carries the prefixes', () => {
    const plain = [
      '--- a/x.txt\t2024-01-01 00:00:00.000000000 +0000',
      '+++ a/x.txt\t2024-01-02 00:00:00.000000000 +0000',
      '@@ -1 +1 @@',
      '-old',
      '+new',
      '--- /dev/null\t1970-01-01 00:00:00.000000000 +0000',
      '+++ b/y.txt\t2024-01-02 00:00:00.000000000 +0000',
      '@@ -0,0 +1 @@',
      '+y',
      ''
    ].join('\n');
    expect(checkDiff(plain).map((c) => [c.path, c.op])).toEqual([
      ['a/x.txt', 'modify'],
      ['b/y.txt', 'add']
    ]);
  });

  it('a real `git diff --no-prefix`', () => {
    const r = repo({ 'lib/m.py': 'a = 1\n' });
    r.write('lib/m.py', 'a = 2\n');
    const diff = r.diff('--no-renames', '--no-prefix');
    expect(diff).toContain('--- lib/m.py\n');
    expect(checkDiff(diff).map((c) => c.path)).toEqual(['lib/m.py']);
  });

  it('a non-ASCII name when git prints it unquoted (core.quotePath=false)', () => {
    const r = repo({ 'café.txt': 'a\n' });
    r.write('café.txt', 'b\n');
    r.git('add', '-A');
    const diff = r.git('-c', 'core.quotePath=false', 'diff', '--cached');
    expect(checkDiff(diff).map((c) => c.path)).toEqual(['café.txt']);
  });

  it("the repository's candidate diffs", () => {
    const dirs = readdirSync('fixtures')
      .map((f) => join('fixtures', f, 'candidates'))
      .filter((d) => existsSync(d));
    const diffs = dirs.flatMap((d) => readdirSync(d).map((f) => readFileSync(join(d, f), 'utf8')));
    expect(diffs.length).toBeGreaterThan(0);
    for (const diff of diffs) {
      expect(checkDiff(diff).length).toBeGreaterThan(0);
    }
  });

  it('exactly maxBytes bytes and exactly maxFiles files', () => {
    const r = repo({ 'a.txt': '1\n', 'b.txt': '1\n', 'c.txt': '1\n' });
    for (const f of ['a.txt', 'b.txt', 'c.txt']) r.write(f, 'é\n');
    const diff = r.diff();
    expect(checkDiff(diff, { maxBytes: Buffer.byteLength(diff), maxFiles: 3 })).toHaveLength(3);
  });
});

describe('checkDiff refuses by policy', () => {
  it('text over maxBytes, counted in UTF-8 bytes', () => {
    const r = repo({ 'a.txt': '1\n' });
    r.write('a.txt', 'ééé\n');
    const diff = r.diff();
    expectPolicy(diff, /is \d+ bytes, more than the limit of \d+; send a smaller diff/, { maxBytes: Buffer.byteLength(diff) - 1, maxFiles: 10 });
    expect(diff.length).toBeLessThan(Buffer.byteLength(diff));
  });

  it('more than maxFiles files', () => {
    const r = repo({ 'a.txt': '1\n', 'b.txt': '1\n', 'c.txt': '1\n' });
    for (const f of ['a.txt', 'b.txt', 'c.txt']) r.write(f, '2\n');
    expectPolicy(r.diff(), /changes 3 files, more than the limit of 2; split the change/, { maxBytes: 1 << 20, maxFiles: 2 });
  });

  it('a NUL byte anywhere, even inside a hunk line', () => {
    const r = repo({ 'a.txt': 'x\n' });
    r.write('a.txt', 'y\n');
    const diff = r.diff().replace('+y', '+y\0');
    expectPolicy(diff, /^diff refused: line \d+ contains a NUL byte; binary content is not supported/);
  });

  it("a real binary change ('Binary files ... differ')", () => {
    const r = repo({ 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) });
    r.write('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 3]));
    const diff = r.diff();
    expect(diff).toContain('Binary files a/logo.png and b/logo.png differ');
    expectPolicy(diff, /^diff refused: 'logo\.png' \(line 3\) is a binary change; binary files are not supported/);
  });

  it("a real binary patch ('GIT binary patch' with literal and delta sections)", () => {
    const r = repo({ 'data.bin': Buffer.alloc(3000, 7) });
    r.write('data.bin', Buffer.concat([Buffer.alloc(3000, 7), Buffer.from([0, 1, 2])]));
    r.write('new.bin', Buffer.from([0, 1, 2, 3]));
    const diff = r.diff('--no-renames', '--binary');
    expect(diff).toMatch(/^GIT binary patch$/m);
    expectPolicy(diff, /'data\.bin' \(line \d+\) is a binary change/);
    const bodies = diff
      .split('\n')
      .filter((l) => l !== 'GIT binary patch')
      .join('\n');
    expect(bodies).toMatch(/^(literal|delta) \d+$/m);
    expectPolicy(bodies, /is a binary change/);
  });

  it("a real binary change from GNU diff ('Binary files x and y differ')", () => {
    const dir = mkdtempSync(join(tmpdir(), 'patchproof-plain-'));
    try {
      mkdirSync(join(dir, 'a'));
      mkdirSync(join(dir, 'b'));
      writeFileSync(join(dir, 'a/x.bin'), Buffer.from([0, 1]));
      writeFileSync(join(dir, 'b/x.bin'), Buffer.from([0, 2]));
      let diff = '';
      try {
        execFileSync('diff', ['-ruN', 'a', 'b'], { cwd: dir, encoding: 'utf8' });
      } catch (error) {
        diff = (error as { stdout: string }).stdout;
      }
      expect(diff).toContain('Binary files a/x.bin and b/x.bin differ');
      expectPolicy(diff, /^diff refused: line 1 is a binary change/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a real rename (git mv, git diff -M), with or without content changes', () => {
    const r = repo({ 'old.txt': 'a\nb\nc\nd\ne\nf\ng\nh\n' });
    r.git('mv', 'old.txt', 'new.txt');
    const pure = r.diff('-M');
    expect(pure).toContain('rename from old.txt');
    expectPolicy(
      pure,
      /^diff refused: 'new\.txt' \(line 2\) is a rename or copy .*; renames and copies are not supported, give the old path as a delete and the new one as an add/
    );
    r.write('new.txt', 'a\nb\nc\nd\ne\nf\ng\nH\n');
    expectPolicy(r.diff('-M'), /'new\.txt' \(line 2\) is a rename or copy \('similarity index \d+%'\)/);
    expect(checkDiff(r.diff('--no-renames')).map((c) => [c.path, c.op])).toEqual([
      ['new.txt', 'add'],
      ['old.txt', 'delete']
    ]);
  });

  it('rename lines alone, without the similarity index line', () => {
    const r = repo({ 'old.txt': 'a\nb\nc\n' });
    r.git('mv', 'old.txt', 'new.txt');
    const diff = r.diff('-M').replace(/^similarity index.*\n/m, '');
    expectPolicy(diff, /is a rename or copy \('rename from old\.txt'\)/);
  });

  it('a real copy (git diff -C --find-copies-harder)', () => {
    const r = repo({ 'src.txt': Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n') });
    r.write('copy.txt', readFileSync(join(r.dir, 'src.txt')));
    const diff = r.diff('-C', '--find-copies-harder');
    expect(diff).toContain('copy from src.txt');
    expectPolicy(diff, /'copy\.txt' \(line 2\) is a rename or copy/);
    expectPolicy(diff.replace(/^similarity index.*\n/m, ''), /'copy\.txt' \(line 2\) is a copy/);
  });

  it('a real complete rewrite (git diff -B: dissimilarity index)', () => {
    const r = repo({ 'f.txt': Array.from({ length: 500 }, (_, i) => `${i}`).join('\n') });
    r.write('f.txt', Array.from({ length: 500 }, (_, i) => `x${i}`).join('\n'));
    const diff = r.diff('-B');
    expect(diff).toMatch(/^dissimilarity index \d+%$/m);
    expectPolicy(diff, /'f\.txt' \(line 2\) is a rewrite \(git diff -B\)/);
  });

  it('old path != new path on a modification, with or without a diff --git line', () => {
    const plain = '--- a/x.txt\n+++ b/y.txt\n@@ -1 +1 @@\n-a\n+b\n';
    expectPolicy(plain, /^diff refused: 'x\.txt' becomes 'y\.txt' \(line 1\); renames and copies are not supported/);
    expectPolicy(`diff --git a/x.txt b/y.txt\n${plain}`, /^diff refused: line 1 \('diff --git a\/x\.txt b\/y\.txt'\) does not name the same file twice; renames/);
  });

  it('a real new symlink, deleted symlink and changed symlink target (mode 120000)', () => {
    const r = repo({ 'target.txt': 'x\n' });
    symlinkSync('target.txt', join(r.dir, 'link'));
    const added = r.diff();
    expect(added).toContain('new file mode 120000');
    expectPolicy(added, /^diff refused: 'link' \(line 2\) is a symbolic link \(mode 120000\); only regular files are supported/);
    r.commit();
    unlinkSync(join(r.dir, 'link'));
    symlinkSync('elsewhere.txt', join(r.dir, 'link'));
    const changed = r.diff();
    expect(changed).toMatch(/^index [0-9a-f]+\.\.[0-9a-f]+ 120000$/m);
    expectPolicy(changed, /'link' \(line 2\) is a symbolic link/);
    unlinkSync(join(r.dir, 'link'));
    const deleted = r.diff();
    expect(deleted).toContain('deleted file mode 120000');
    expectPolicy(deleted, /'link' \(line 2\) is a symbolic link/);
  });

  it('a real file replaced by a symlink (a type change)', () => {
    const r = repo({ 'a.txt': 'x\n', 'b.txt': 'y\n' });
    unlinkSync(join(r.dir, 'a.txt'));
    symlinkSync('b.txt', join(r.dir, 'a.txt'));
    expectPolicy(r.diff(), /'a\.txt' \(line \d+\) is a symbolic link/);
  });

  it('a real submodule (gitlink, mode 160000) added and updated', () => {
    const r = repo({ 'a.txt': 'x\n' });
    const head = r.git('rev-parse', 'HEAD').trim();
    r.git('update-index', '--add', '--cacheinfo', `160000,${head},vendor/lib`);
    const added = r.git('diff', '--cached');
    expect(added).toContain('new file mode 160000');
    expectPolicy(added, /^diff refused: 'vendor\/lib' \(line 2\) is a submodule \(mode 160000\)/);
    r.git('commit', '-q', '-m', 'gitlink');
    r.git('update-index', '--cacheinfo', `160000,${'1234567'.repeat(5)}12345,vendor/lib`);
    const updated = r.git('diff', '--cached');
    expect(updated).toMatch(/^index [0-9a-f]+\.\.[0-9a-f]+ 160000$/m);
    expectPolicy(updated, /'vendor\/lib' \(line 2\) is a submodule/);
  });

  it('a real mode-only change and a real mode change with content (chmod +x)', () => {
    const r = repo({ 'run.sh': 'echo hi\n' });
    chmodSync(join(r.dir, 'run.sh'), 0o755);
    const modeOnly = r.diff();
    expect(modeOnly).toContain('old mode 100644\nnew mode 100755');
    expectPolicy(modeOnly, /^diff refused: 'run\.sh' \(line 2\) changes the file mode \('old mode 100644'\); mode changes are not supported/);
    r.write('run.sh', 'echo bye\n');
    expectPolicy(r.diff(), /'run\.sh' \(line 2\) changes the file mode/);
  });

  it('a real new executable file (new file mode 100755)', () => {
    const r = repo();
    r.write('tool.sh', '#!/bin/sh\n');
    chmodSync(join(r.dir, 'tool.sh'), 0o755);
    const diff = r.diff();
    expect(diff).toContain('new file mode 100755');
    expectPolicy(diff, /^diff refused: 'tool\.sh' \(line 2\) is added with mode '100755'; only plain files \(mode 100644\) may be added/);
  });

  it('a real git-quoted path (a tab in the name) and a real non-ASCII name quoted by default', () => {
    const r = repo();
    r.write('tab\tname.txt', 'x\n');
    const tab = r.diff();
    expect(tab).toContain('"b/tab\\tname.txt"');
    expectPolicy(tab, /^diff refused: line 1 names a git-quoted path \('"a\/tab\\tname\.txt" "b\/tab\\tname\.txt"'\); rename files .*core\.quotePath=false/);
    const r2 = repo();
    r2.write('café.txt', 'x\n');
    expectPolicy(r2.diff(), /names a git-quoted path \('"a\/caf\\303\\251\.txt"/);
  });

  it('a git-quoted path on the ---/+++ lines of a plain diff', () => {
    expectPolicy('--- "a/x\\ty"\n+++ "b/x\\ty"\n@@ -1 +1 @@\n-a\n+b\n', /^diff refused: line 1 names a git-quoted path/);
  });

  it("the example from the policy: '..' in a git diff", () => {
    const diff = 'diff --git a/src/../../etc/passwd b/src/../../etc/passwd\n--- a/src/../../etc/passwd\n+++ b/src/../../etc/passwd\n@@ -1 +1 @@\n-root\n+toor\n';
    const error = refusal(diff);
    expect(error.code).toBe('policy_violation');
    expect(error.message).toBe("diff refused: 'src/../../etc/passwd' contains '..'; give repository-relative paths without '..'");
  });

  const add = (name: string): string => `--- /dev/null\n+++ ${name}\n@@ -0,0 +1 @@\n+x\n`;
  it.each([
    ['an absolute path (plain diff)', add('/etc/cron.d/evil'), /^diff refused: '\/etc\/cron\.d\/evil' is absolute; give repository-relative paths$/],
    ['an absolute path behind b/', add('b//etc/passwd'), /'\/etc\/passwd' is absolute/],
    ["a '..' component", add('b/../outside.txt'), /'\.\.\/outside\.txt' contains '\.\.'/],
    ["a '.' component", add('b/./x.txt'), /'\.\/x\.txt' has a '\.' component; give paths without '\.\/'/],
    ['an empty component', add('b/src//x.txt'), /'src\/\/x\.txt' has an empty component/],
    ['a trailing slash', add('b/src/'), /'src\/' has an empty component/],
    ['a backslash', add('b/src\\x.txt'), /'src\\x\.txt' contains a backslash; separate directories with '\/'/],
    ['a control character', add('b/a\u0001b'), /'a\\u0001b' contains a control character/],
    ['an escape sequence', add('b/a\u001b[31mred'), /'a\\u001b\[31mred' contains a control character/],
    ['a .git component', add('b/.git/hooks/pre-commit'), /'\.git\/hooks\/pre-commit' has a '\.git' component; leave git's own files out/],
    ['a .GIT component', add('b/.GIT/config'), /has a '\.git' component/],
    ['a nested .Git component', add('b/sub/.Git/config'), /'sub\/\.Git\/config' has a '\.git' component/],
    ['a .patchproof first component', add('b/.patchproof/receipt.json'), /'\.patchproof\/receipt\.json' is under '\.patchproof\/', which PatchProof reserves/],
    ['a .PatchProof first component', add('b/.PatchProof/x'), /is under '\.patchproof\/'/],
    ['leading whitespace', add('b/ x.txt').replace('+++ b/ x.txt', '+++  x.txt'), /' x\.txt' \(line 2\) begins or ends with whitespace/]
  ])('%s', (_name, diff, pattern) => {
    expectPolicy(diff, pattern);
  });

  it('a path refused on the old side of a deletion', () => {
    expectPolicy('--- a/.git/config\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n', /'\.git\/config' has a '\.git' component/);
  });

  it('a real .patchproof/ file', () => {
    const r = repo();
    r.write('.patchproof/approval.json', '{}\n');
    expectPolicy(r.diff(), /^diff refused: '\.patchproof\/approval\.json' is under '\.patchproof\/'/);
  });
});

describe('checkDiff rejects text that is not a usable diff', () => {
  it.each([
    ['empty text', ''],
    ['prose', 'Fixed the bug by changing the parser.\nThanks!\n'],
    ['a diff --git line alone with no change', 'diff --git a/x b/x\nindex 1234567..89abcde 100644\n']
  ])('%s', (_name, text) => {
    expectInvalid(text, /changes no files|changes nothing/);
  });

  it('a hunk whose lines do not match its header counts', () => {
    const r = repo({ 'a.txt': 'one\ntwo\nthree\n' });
    r.write('a.txt', 'one\n2\nthree\n');
    const diff = r.diff();
    expectInvalid(diff.replace(' three\n', ''), /^diff invalid: 'a\.txt' \(line 5\): the hunk's lines do not match its header '@@ -1,3 \+1,3 @@'/);
    expectInvalid(diff.replace('+2\n', '+2\n+extra\n'), /'a\.txt' \(line 5\): the hunk's lines do not match its header/);
    expectInvalid(diff.replace(' three\n', ' three\n four\n'), /'a\.txt' \(line 10\) looks like a hunk line but lies outside every hunk/);
  });

  it('a line that jsdiff would silently skip after a blank line', () => {
    expectInvalid('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n\n+c\n', /'b\/x' \(line 7\) looks like a hunk line but lies outside every hunk/);
  });

  it('a malformed hunk header', () => {
    expectInvalid('--- a/x\n+++ b/x\n@@ -1,a +1 @@\n-a\n+b\n', /^diff invalid: 'b\/x' \(line 3\): malformed hunk header '@@ -1,a \+1 @@'/);
  });

  it('a hunk with no file header', () => {
    expectInvalid('@@ -1 +1 @@\n-a\n+b\n', /^diff invalid: line 1: a hunk with no '---'\/'\+\+\+' file header/);
  });

  it("a '---' header without '+++', and a stray '+++'", () => {
    expectInvalid('--- a/x\n@@ -1 +1 @@\n-a\n+b\n', /line 1: the '---' header is not followed by a '\+\+\+' header/);
    expectInvalid('+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', /line 1: a '\+\+\+' header without a '---' header/);
  });

  it('headers with no hunks', () => {
    expectInvalid('--- a/x\n+++ b/x\n', /'x' \(line 1\) has '---'\/'\+\+\+' headers but no hunks/);
  });

  it('the same file changed twice', () => {
    const r = repo({ 'a.txt': 'one\ntwo\n' });
    r.write('a.txt', 'one\n2\n');
    const diff = r.diff();
    expectInvalid(diff + diff, /^diff invalid: 'a\.txt' is changed twice \(lines 1 and 9\); give one section per file$/);
  });

  it('CRLF line endings on header lines', () => {
    const r = repo({ 'a.txt': 'one\n' });
    r.write('a.txt', 'two\n');
    expectInvalid(r.diff().replace(/\n/g, '\r\n'), /^diff invalid: line 1 ends with a carriage return; save the diff with LF line endings/);
  });

  it("a 'diff --git' line that disagrees with the ---/+++ headers", () => {
    expectInvalid('diff --git a/x b/x\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n', /'y' \(line 1\): the 'diff --git' line and the '---'\/'\+\+\+' headers name different files/);
  });

  it("'new file mode' on a file whose old side is not /dev/null", () => {
    expectInvalid('diff --git a/x b/x\nnew file mode 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', /'new file mode'\/'deleted file mode' disagree/);
  });

  it('an added file whose hunk keeps or removes lines', () => {
    expectInvalid('--- /dev/null\n+++ b/x\n@@ -1 +1,2 @@\n a\n+b\n', /'x' \(line 1\): a file that is added may only gain lines/);
    expectInvalid('--- a/x\n+++ /dev/null\n@@ -1,2 +1 @@\n a\n-b\n', /'x' \(line 1\): a file that is deleted may only lose lines/);
  });

  it('an added file with two hunks', () => {
    expectInvalid('--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+a\n@@ -0,0 +2 @@\n+b\n', /a file that is added must have a single hunk/);
  });

  it('both sides /dev/null', () => {
    expectInvalid('--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n', /^diff invalid: line 1: both sides are \/dev\/null/);
  });

  it('text with an unpaired surrogate', () => {
    expectInvalid('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+\ud800\n', /unpaired UTF-16 surrogate/);
  });

  it('a combined (merge) diff', () => {
    expectInvalid('diff --cc x\n--- a/x\n+++ b/x\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n -b\n++c\n', /malformed hunk header '@@@ -1,1 -1,1 \+1,1 @@@'/);
  });
});

describe('checkDiff ordering', () => {
  it('refuses by policy before it complains about structure', () => {
    const diff = 'diff --git a/x b/x\nold mode 100644\nnew mode 100755\n--- a/x\n+++ b/x\n@@ -1,9 +1 @@\n-a\n';
    expect(refusal(diff).code).toBe('policy_violation');
  });

  it('refuses an oversized diff before reading it', () => {
    expect(refusal('x'.repeat(101), { maxBytes: 100, maxFiles: 1 }).message).toMatch(/is 101 bytes, more than the limit of 100/);
  });
});
