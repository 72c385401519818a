import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { afterAll, describe, expect, it } from '@jest/globals';
import { checkDiff, type FileChange } from '../../src/core/diff-policy.js';
import { applyFileChanges, checkTargets, type TreeKind } from '../../src/core/patch-apply.js';
import { PolicyError } from '../../src/errors.js';
import { GitRepo } from '../helpers/git-repo.js';

/** A throwaway git repository: the base tree is committed, the diff is `git diff --cached`. */
/** The shared real-git helper, with this file's temp-folder prefix. */
const Repo = { create: (): GitRepo => GitRepo.create('patchproof-patch-apply-') };
type Repo = GitRepo;

const repos: Repo[] = [];
afterAll(() => {
  for (const r of repos) rmSync(r.dir, { recursive: true, force: true });
});

/** Commit `base`, then apply `edit` to the work tree; returns the base files and the staged diff. */
function scenario(base: Record<string, string | Buffer>, edit: (r: Repo) => void, ...diffArgs: string[]): { base: Map<string, Buffer>; diff: string; repo: Repo } {
  const r = Repo.create();
  repos.push(r);
  for (const [path, content] of Object.entries(base)) r.write(path, content);
  r.commit();
  const before = r.tree();
  edit(r);
  return { base: before, diff: r.diff(...diffArgs), repo: r };
}

function apply(base: Map<string, Buffer>, diff: string): Map<string, Buffer | null> {
  return applyFileChanges((path) => base.get(path), checkDiff(diff));
}

/** Apply and return the text of one changed file. */
function applyOne(base: Map<string, Buffer>, diff: string, path: string): string | null {
  const result = apply(base, diff);
  const content = result.get(path);
  if (content === undefined) throw new Error(`${path} was not changed`);
  return content === null ? null : content.toString('utf8');
}

function failure(run: () => unknown): PolicyError {
  try {
    run();
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    expect(error.message).not.toMatch(/[\r\n]/);
    return error;
  }
  throw new Error('the patch applied');
}

function expectInvalid(run: () => unknown, pattern: RegExp): void {
  const error = failure(run);
  expect({ code: error.code, message: error.message }).toEqual({ code: 'patch_invalid', message: expect.stringMatching(pattern) });
}

const files = (entries: Record<string, string>): Map<string, Buffer> => new Map(Object.entries(entries).map(([p, c]) => [p, Buffer.from(c, 'utf8')]));

describe('applyFileChanges applies', () => {
  it('a real modification, addition and deletion', () => {
    const { base, diff } = scenario({ 'src/a.txt': 'one\ntwo\nthree\n', 'old.txt': 'bye\nnow\n' }, (r) => {
      r.write('src/a.txt', 'one\n2\nthree\n');
      r.write('src/new.txt', 'fresh\nlines\n');
      r.remove('old.txt');
    });
    expect(apply(base, diff)).toEqual(
      new Map([
        ['old.txt', null],
        ['src/a.txt', Buffer.from('one\n2\nthree\n')],
        ['src/new.txt', Buffer.from('fresh\nlines\n')]
      ])
    );
  });

  it('an empty file added and an empty file deleted (hunkless git sections)', () => {
    const { base, diff } = scenario({ gone: '' }, (r) => {
      r.remove('gone');
      r.write('pkg/__init__.py', '');
    });
    expect(apply(base, diff)).toEqual(
      new Map([
        ['gone', null],
        ['pkg/__init__.py', Buffer.alloc(0)]
      ])
    );
  });

  it('a file with several hunks', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const changed = [...lines];
    changed[2] = 'third';
    changed.splice(20, 1);
    changed[35] = 'near the end';
    const { base, diff } = scenario({ 'f.txt': `${lines.join('\n')}\n` }, (r) => r.write('f.txt', `${changed.join('\n')}\n`));
    expect(checkDiff(diff)[0]!.hunks).toHaveLength(3);
    expect(applyOne(base, diff, 'f.txt')).toBe(`${changed.join('\n')}\n`);
  });

  it('a CRLF file, keeping its CRLF line endings', () => {
    const { base, diff } = scenario({ 'win.txt': 'hello\r\nworld\r\n' }, (r) => r.write('win.txt', 'hello\r\nthere\r\n'));
    expect(diff).toContain('-world\r\n+there\r\n');
    expect(applyOne(base, diff, 'win.txt')).toBe('hello\r\nthere\r\n');
  });

  it('a file with mixed line endings and a lone CR inside a line', () => {
    const { base, diff } = scenario({ 'mixed.txt': 'a\r\nb\nc\rd\n' }, (r) => r.write('mixed.txt', 'a\r\nB\nc\rd\n'));
    expect(applyOne(base, diff, 'mixed.txt')).toBe('a\r\nB\nc\rd\n');
  });

  it('UTF-8 text, keeping a byte-order mark', () => {
    const { base, diff } = scenario({ 'bom.txt': '\ufeffcafé\nnaïve\n' }, (r) => r.write('bom.txt', '\ufeffcafé\nnaïf\n'));
    const result = apply(base, diff).get('bom.txt')!;
    expect([...result.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(result.toString('utf8')).toBe('\ufeffcafé\nnaïf\n');
  });
});

describe('"\\ No newline at end of file"', () => {
  it.each([
    ['adds the final newline', 'a\nb', 'a\nb\n'],
    ['removes the final newline', 'a\nb\n', 'a\nb'],
    ['changes a last line that has none on either side', 'a\nb', 'a\nc'],
    ['keeps an unterminated last line that is only context', 'x\n1\n2\nlast', 'y\n1\n2\nlast'],
    ['deletes an unterminated last line', 'a\nb', 'a\n'],
    ['appends after an unterminated last line', 'a', 'a\nb\nc'],
    ['empties the file', 'a\nb', '']
  ])('%s', (_name, before, after) => {
    const { base, diff } = scenario({ 'f.txt': before }, (r) => r.write('f.txt', after));
    expect(diff).toContain('\\ No newline at end of file');
    expect(applyOne(base, diff, 'f.txt')).toBe(after);
  });

  it('adds and deletes files without a final newline', () => {
    const { base, diff } = scenario({ 'old.txt': 'one\ntwo' }, (r) => {
      r.remove('old.txt');
      r.write('new.txt', 'solo');
    });
    expect(apply(base, diff)).toEqual(
      new Map([
        ['new.txt', Buffer.from('solo')],
        ['old.txt', null]
      ])
    );
  });

  it('refuses a marker that says there is no newline when the file has one', () => {
    const { diff } = scenario({ 'f.txt': 'a\nb' }, (r) => r.write('f.txt', 'a\nc'));
    expectInvalid(
      () => apply(files({ 'f.txt': 'a\nb\n' }), diff),
      /^patch does not apply: 'f\.txt' hunk 1 \(@@ -1,2 \+1,2 @@\) says line 2 has no newline at end of file, but the file ends with a newline; regenerate/
    );
  });

  it('refuses a hunk that reaches an unterminated last line without saying so', () => {
    const { diff } = scenario({ 'f.txt': 'a\nb\n' }, (r) => r.write('f.txt', 'a\nc\n'));
    expectInvalid(
      () => apply(files({ 'f.txt': 'a\nb' }), diff),
      /'f\.txt' hunk 1 \(@@ -1,2 \+1,2 @@\): the file's last line has no newline at end of file, but the hunk does not say/
    );
  });

  it('refuses an addition after an unterminated last line', () => {
    const diff = '--- a/f.txt\n+++ b/f.txt\n@@ -1,0 +2 @@\n+b\n';
    expectInvalid(() => apply(files({ 'f.txt': 'a' }), diff), /the file's last line has no newline at end of file/);
    expect(applyOne(files({ 'f.txt': 'a\n' }), diff, 'f.txt')).toBe('a\nb\n');
  });
});

describe('applyFileChanges refuses', () => {
  const ten = Array.from({ length: 10 }, (_, i) => `${i + 1}`).join('\n') + '\n';

  it('a hunk that fails by one context line, naming the file, hunk and line', () => {
    const { diff } = scenario({ 'f.txt': ten }, (r) => r.write('f.txt', ten.replace('5\n', 'five\n')));
    const base = files({ 'f.txt': ten.replace('3\n', 'three\n') });
    const error = failure(() => apply(base, diff));
    expect(error.code).toBe('patch_invalid');
    expect(error.message).toBe(
      "patch does not apply: 'f.txt' hunk 1 (@@ -2,7 +2,7 @@) expects '3' at line 3 but the file has 'three'; regenerate the diff against the base tree with 'git diff'"
    );
  });

  it('a hunk whose removed line differs', () => {
    const { diff } = scenario({ 'f.txt': ten }, (r) => r.write('f.txt', ten.replace('5\n', 'five\n')));
    expectInvalid(() => apply(files({ 'f.txt': ten.replace('5\n', '5 \n') }), diff), /expects '5' at line 5 but the file has '5 '/);
  });

  it('a hunk that jsdiff alone would apply at an offset', () => {
    const { diff } = scenario({ 'f.txt': ten }, (r) => r.write('f.txt', ten.replace('5\n', 'five\n')));
    const shifted = `0\n${ten}`;
    expect(applyPatch(shifted, diff, { fuzzFactor: 0, autoConvertLineEndings: false })).toBe(`0\n${ten.replace('5\n', 'five\n')}`);
    expectInvalid(() => apply(files({ 'f.txt': shifted }), diff), /'f\.txt' hunk 1 \(@@ -2,7 \+2,7 @@\) expects '2' at line 2 but the file has '1'/);
  });

  it('the second hunk failing, by number', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `${i + 1}`);
    const { diff } = scenario({ 'f.txt': `${lines.join('\n')}\n` }, (r) => r.write('f.txt', `${lines.join('\n').replace('2\n', 'two\n').replace('25\n', 'x\n')}\n`));
    const base = files({ 'f.txt': `${lines.join('\n').replace('26\n', '26!\n')}\n` });
    expectInvalid(() => apply(base, diff), /^patch does not apply: 'f\.txt' hunk 2 \(@@ -22,7 \+22,7 @@\) expects '26' at line 26 but the file has '26!'/);
  });

  it('an LF diff on the CRLF version of the file (no line-ending conversion)', () => {
    const { diff } = scenario({ 'f.txt': 'hello\nworld\n' }, (r) => r.write('f.txt', 'hello\nthere\n'));
    expectInvalid(() => apply(files({ 'f.txt': 'hello\r\nworld\r\n' }), diff), /expects 'hello' at line 1 but the file has 'hello\\u000d'/);
  });

  it('a hunk past the end of the file', () => {
    const { diff } = scenario({ 'f.txt': ten }, (r) => r.write('f.txt', ten.replace('9\n', 'nine\n')));
    expectInvalid(() => apply(files({ 'f.txt': '1\n2\n3\n4\n5\n6\n' }), diff), /'f\.txt' hunk 1 \(@@ -6,5 \+6,5 @@\) reaches past the end of the file, which has 6 lines/);
  });

  it('an add whose target already exists', () => {
    const { diff } = scenario({}, (r) => r.write('new.txt', 'x\n'));
    expectInvalid(() => apply(files({ 'new.txt': 'x\n' }), diff), /^patch does not apply: 'new\.txt' is added but already exists in the base tree/);
  });

  it('a modify or delete whose target is missing', () => {
    const { diff: modify } = scenario({ 'f.txt': 'a\n' }, (r) => r.write('f.txt', 'b\n'));
    expectInvalid(() => apply(new Map(), modify), /^patch does not apply: 'f\.txt' is modified but does not exist in the base tree/);
    const { diff: remove } = scenario({ 'f.txt': 'a\n' }, (r) => r.remove('f.txt'));
    expectInvalid(() => apply(new Map(), remove), /'f\.txt' is deleted but does not exist in the base tree/);
  });

  it('a delete that does not remove the whole file exactly', () => {
    const { diff } = scenario({ 'f.txt': 'a\nb\n' }, (r) => r.remove('f.txt'));
    expectInvalid(() => apply(files({ 'f.txt': 'a\nb\nc\n' }), diff), /^patch does not apply: 'f\.txt' is deleted, but its hunks do not remove all of its content exactly/);
    const { diff: empty } = scenario({ e: '' }, (r) => r.remove('e'));
    expectInvalid(() => apply(files({ e: 'not empty\n' }), empty), /'e' is deleted, but its hunks do not remove all of its content exactly/);
  });

  it('a target file that is not valid UTF-8', () => {
    const { diff } = scenario({ 'latin.txt': 'café\nb\n' }, (r) => r.write('latin.txt', 'café\nc\n'));
    const base = new Map([['latin.txt', Buffer.from('caf\xe9\nb\n', 'latin1')]]);
    expectInvalid(() => apply(base, diff), /^patch does not apply: 'latin\.txt' is not valid UTF-8 text; only UTF-8 text files can be patched/);
  });

  it('the same path twice in the change list', () => {
    const change: FileChange = { path: 'a.txt', op: 'add', hunks: [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, lines: ['+x'] }] };
    expectInvalid(() => applyFileChanges(() => undefined, [change, change]), /'a\.txt' is changed twice/);
  });

  it('a change list with an unsafe path, whatever built it', () => {
    const error = failure(() => applyFileChanges(() => undefined, [{ path: '../escape', op: 'add', hunks: [] }]));
    expect([error.code, error.message]).toEqual(['policy_violation', "diff refused: '../escape' contains '..'"]);
  });

  it('a marker that follows no line, and overlapping hunks', () => {
    const marker: FileChange = { path: 'f', op: 'modify', hunks: [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 0, lines: ['\\ No newline at end of file'] }] };
    expectInvalid(() => applyFileChanges(() => Buffer.from('a\n'), [marker]), /'f' hunk 1 \(@@ -0,0 \+0,0 @@\) has a '\\ No newline at end of file' marker that follows no line/);
    const hunk = { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] };
    const overlap: FileChange = { path: 'f', op: 'modify', hunks: [hunk, hunk] };
    expectInvalid(() => applyFileChanges(() => Buffer.from('a\n'), [overlap]), /'f' hunk 2 \(@@ -1,1 \+1,1 @@\) starts before the end of the hunk before it/);
  });
});

describe('end to end: a real git diff applied to the old tree gives exactly the new tree', () => {
  const base: Record<string, string> = {
    'README.md': '# Demo\n\nSome text.\n',
    'src/main.ts': Array.from({ length: 60 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n',
    'src/win.bat': '@echo off\r\necho one\r\necho two\r\n',
    'src/no-eol.txt': 'first\nsecond\nthird',
    'src/unicode.txt': 'naïve café\n日本語\n🙂 emoji\n',
    'docs/old.md': 'to be removed\n',
    'docs/empty.txt': '',
    'tests/test_x.py': 'def test_x():\n    assert 1 == 1\n',
    'weird/lines.txt': '--- a/x\n+++ b/x\n@@ -1 +1 @@\n\\ No newline\n\n \n'
  };
  const edit = (r: Repo): void => {
    r.write('README.md', '# Demo\n\nSome better text.\nAnd more.\n');
    const main = base['src/main.ts']!.split('\n');
    main[4] = 'export const v4 = 40;';
    main.splice(30, 3);
    main.splice(50, 0, '// inserted');
    r.write('src/main.ts', main.join('\n'));
    r.write('src/win.bat', '@echo off\r\necho ONE\r\necho two\r\necho three\r\n');
    r.write('src/no-eol.txt', 'first\nSECOND\nthird');
    r.write('src/unicode.txt', 'naïve café\n日本語 text\n🙂 emoji\n');
    r.remove('docs/old.md');
    r.remove('docs/empty.txt');
    r.write('docs/new.md', 'brand new\n');
    r.write('docs/blank.txt', '');
    r.write('tests/test_x.py', 'def test_x():\n    assert 1 + 1 == 2\n');
    r.write('weird/lines.txt', '--- a/y\n+++ b/x\n@@ -1 +1 @@\n\\ No newline\n\n \n-\n');
  };

  it.each([[[]], [['-U0']], [['-U1']], [['-U10']], [['--minimal']], [['--patience']], [['--histogram']]])('git diff %j', (args) => {
    const { base: before, diff, repo } = scenario(base, edit, ...args);
    const after = repo.tree();
    const applied = apply(before, diff);
    const result = new Map(before);
    for (const [path, content] of applied) {
      if (content === null) result.delete(path);
      else result.set(path, content);
    }
    expect([...result.keys()].sort()).toEqual([...after.keys()].sort());
    for (const [path, content] of after) {
      expect([path, result.get(path)!.toString('utf8')]).toEqual([path, content.toString('utf8')]);
      expect(result.get(path)!.equals(content)).toBe(true);
    }
  });

  it("applies the repository's candidate diffs to their fixture repositories", () => {
    for (const fixture of readdirSync('fixtures').filter((f) => existsSync(join('fixtures', f, 'candidates')))) {
      const root = join('fixtures', fixture, 'repo');
      const read = (path: string): Buffer | undefined => {
        try {
          return readFileSync(join(root, path));
        } catch {
          return undefined;
        }
      };
      for (const name of readdirSync(join('fixtures', fixture, 'candidates'))) {
        const applied = applyFileChanges(read, checkDiff(readFileSync(join('fixtures', fixture, 'candidates', name), 'utf8')));
        expect(applied.size).toBeGreaterThan(0);
        for (const [path, content] of applied) {
          expect(content === null || !content.equals(read(path) ?? Buffer.alloc(0))).toBe(true);
        }
      }
    }
  });
});

describe('checkTargets', () => {
  const change = (path: string, op: 'add' | 'modify' | 'delete' = 'modify'): FileChange => ({ path, op, hunks: [] });
  const tree = new Map<string, TreeKind>([
    ['src/a.js', 'file'],
    ['link.js', 'symlink'],
    ['linkdir', 'symlink']
  ]);
  it('accepts changes to regular files and new files in new or existing folders', () => {
    expect(() => checkTargets([change('src/a.js'), change('src/new.js', 'add'), change('lib/x.js', 'add')], tree)).not.toThrow();
  });
  it('refuses a change to a symlink and beneath one', () => {
    expect(() => checkTargets([change('link.js')], tree)).toThrow(/is the symlink 'link.js'/);
    expect(() => checkTargets([change('linkdir/evil.js', 'add')], tree)).toThrow(/lies beneath the symlink 'linkdir'/);
  });
  it('refuses a file beneath a file and a file added over a folder', () => {
    expect(() => checkTargets([change('src/a.js/x', 'add')], tree)).toThrow(/lies beneath the file/);
    expect(() => checkTargets([change('src', 'add')], tree)).toThrow(/is a folder in the base tree/);
  });
});
