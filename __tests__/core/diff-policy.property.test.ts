import { createTwoFilesPatch, OMIT_HEADERS } from 'diff';
import fc from 'fast-check';
import { checkDiff, checkRepoPath, type DiffLimits, type FileChange } from '../../src/core/diff-policy.js';
import { applyFileChanges } from '../../src/core/patch-apply.js';
import { PolicyError } from '../../src/errors.js';

type Outcome = { ok: true; changes: FileChange[] } | { ok: false; code: string; message: string };

/** Run checkDiff; anything thrown that is not a one-line PolicyError fails the property. */
function outcome(text: string, limits?: DiffLimits): Outcome {
  try {
    return { ok: true, changes: checkDiff(text, limits) };
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    expect(['policy_violation', 'patch_invalid']).toContain(error.code);
    expect(error.message).toMatch(error.code === 'policy_violation' ? /^diff refused: / : /^diff invalid: /);
    expect(error.message).not.toMatch(/[\r\n]/);
    return { ok: false, code: error.code, message: error.message };
  }
}

const FRAGMENTS = [
  'diff --git a/x b/x',
  'diff --git a/x b/y',
  'diff --git "a/x" "b/x"',
  'diff --git a/x',
  '--- a/x',
  '+++ b/x',
  '--- /dev/null',
  '+++ /dev/null',
  '--- x\t2024-01-01 00:00:00',
  '+++ x',
  '--- a/.git/x',
  '+++ b/../x',
  '+++ b/.patchproof/x',
  '@@ -1 +1 @@',
  '@@ -1,2 +1,2 @@',
  '@@ -1,1 +1,1 @@ context',
  '@@ -0,0 +1 @@',
  '@@ -1 +0,0 @@',
  '@@ -0,0 +0,0 @@',
  '@@ -99999999999999999999 +1 @@',
  '@@@ -1 +1 @@@',
  '@@',
  '-a',
  '+b',
  ' c',
  '-',
  '+',
  ' ',
  '',
  '\\ No newline at end of file',
  'new file mode 100644',
  'deleted file mode 100644',
  'new file mode 100755',
  'index 1234567..89abcde 100644',
  'index 1234567..89abcde',
  'old mode 100644',
  'rename from x',
  'similarity index 90%',
  'Binary files a/x and b/x differ',
  'Index: x',
  '===================================================================',
  'diff -r 1 -r 2 x',
  '---',
  '-- ',
  '--- a/x\r'
];

const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'binary-ascii' }),
  fc.string({ unit: fc.constantFrom('\n', '-', '+', ' ', '@', 'a', 'b', '/', '"', '\\', '\t', '\r', '\0', '.', '1', ',') })
);
const line = fc.oneof(
  fc.constantFrom(...FRAGMENTS),
  fc.string({ unit: 'binary-ascii', maxLength: 12 }),
  fc.string({ maxLength: 6 }).map((s) => `+${s}`)
);
const lineArrays = fc.tuple(fc.array(line, { maxLength: 40 }), fc.boolean()).map(([lines, eol]) => lines.join('\n') + (eol ? '\n' : ''));

/** Diffs built from well-formed sections, then damaged at random: many pass, many do not. */
const PATH_POOL = ['x', 'y', 'sub/z', 'a b', '.git/x', 'sub/.Git/y', '../x', './x', 'x//y', '/abs', '.patchproof/r', 'c\u0001d', 'back\\slash'];
const hunkBody = (op: string): fc.Arbitrary<string[]> =>
  fc.array(op === 'add' ? fc.constant('+n') : op === 'delete' ? fc.constant('-o') : fc.constantFrom('-o', '+n', ' c', ''), { minLength: 1, maxLength: 4 });
const section = fc
  .record({
    path: fc.oneof({ arbitrary: fc.constantFrom(...PATH_POOL.slice(0, 4)), weight: 4 }, { arbitrary: fc.constantFrom(...PATH_POOL), weight: 1 }),
    op: fc.constantFrom('add', 'modify', 'modify', 'delete', 'rename'),
    git: fc.boolean(),
    extra: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 8 },
      { arbitrary: fc.constantFrom('index 1234567..89abcde 100644', 'old mode 100644', 'new file mode 120000', 'similarity index 50%'), weight: 1 }
    )
  })
  .chain((s) => fc.record({ s: fc.constant(s), bodies: fc.array(hunkBody(s.op), { minLength: 0, maxLength: 2 }) }))
  .map(({ s, bodies }) => {
    const oldName = s.op === 'add' ? '/dev/null' : `a/${s.path}`;
    const newName = s.op === 'delete' ? '/dev/null' : s.op === 'rename' ? 'b/renamed' : `b/${s.path}`;
    const out: string[] = [];
    if (s.git) out.push(`diff --git a/${s.path} b/${s.op === 'rename' ? 'renamed' : s.path}`);
    if (s.git && s.op === 'add') out.push('new file mode 100644');
    if (s.git && s.op === 'delete') out.push('deleted file mode 100644');
    if (s.extra !== undefined) out.push(s.extra);
    out.push(`--- ${oldName}`, `+++ ${newName}`);
    let start = 1;
    for (const body of bodies) {
      const oldCount = body.filter((l) => l[0] !== '+').length;
      const newCount = body.filter((l) => l[0] !== '-').length;
      out.push(`@@ -${oldCount === 0 ? start - 1 : start},${oldCount} +${newCount === 0 ? start - 1 : start},${newCount} @@`, ...body);
      start += oldCount + 10;
    }
    return out;
  });
const damage = fc.oneof(fc.constant([]), fc.array(fc.tuple(fc.nat(), fc.constantFrom('drop', 'insert', 'replace'), line), { maxLength: 2 }));
const diffLike = fc.tuple(fc.array(section, { minLength: 1, maxLength: 3 }), damage).map(([sections, ops]) => {
  const lines = sections.flat();
  for (const [at, kind, l] of ops) {
    const i = at % (lines.length + 1);
    if (kind === 'insert') lines.splice(i, 0, l);
    else lines.splice(i, 1, ...(kind === 'replace' ? [l] : []));
  }
  return `${lines.join('\n')}\n`;
});
const limits = fc.record({ maxBytes: fc.integer({ min: 0, max: 2000 }), maxFiles: fc.integer({ min: 0, max: 5 }) });

describe('checkDiff on arbitrary input', () => {
  it('throws nothing but a one-line PolicyError on arbitrary strings', () => {
    fc.assert(
      fc.property(anyText, fc.option(limits, { nil: undefined }), (text, l) => {
        outcome(text, l);
      }),
      { numRuns: 500 }
    );
  });

  it('throws nothing but a one-line PolicyError on arbitrary arrays of diff-like lines', () => {
    fc.assert(
      fc.property(fc.oneof(lineArrays, diffLike), (text) => {
        outcome(text);
      }),
      { numRuns: 2000 }
    );
  });

  it('accepts only paths that satisfy checkRepoPath, each once', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(lineArrays, diffLike), (text) => {
        const result = outcome(text);
        if (!result.ok) return;
        accepted++;
        for (const change of result.changes) {
          expect(checkRepoPath(change.path)).toBeUndefined();
          expect(['add', 'modify', 'delete']).toContain(change.op);
        }
        expect(new Set(result.changes.map((c) => c.path)).size).toBe(result.changes.length);
      }),
      { numRuns: 2000 }
    );
    // The property says nothing unless some inputs pass.
    expect(accepted).toBeGreaterThan(20);
  });

  it('is deterministic: the same input gives a deep-equal result or the same refusal', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, lineArrays, diffLike), (text) => {
        expect(outcome(text)).toEqual(outcome(text));
      }),
      { numRuns: 500 }
    );
  });
});

const COMPONENTS = ['src', 'a', 'b', 'x.txt', 'sp ace', 'é', '...', '.github', '.', '..', '', '.git', '.GIT', '.patchproof', '.PatchProof', 'C:', 'a\\b', 'c\u0001d', '"q'];

describe('checkDiff on generated paths', () => {
  const paths = fc.array(fc.constantFrom(...COMPONENTS), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
  const diffFor = (path: string, op: 'add' | 'modify' | 'delete', gitStyle: boolean): string => {
    if (op === 'add') return `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+new\n`;
    if (op === 'delete') return `diff --git a/${path} b/${path}\ndeleted file mode 100644\n--- a/${path}\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n`;
    if (gitStyle) return `diff --git a/${path} b/${path}\nindex 1234567..89abcde 100644\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-old\n+new\n`;
    return `--- ${path}\t2024-01-01 00:00:00\n+++ ${path}\t2024-01-02 00:00:00\n@@ -1 +1 @@\n-old\n+new\n`;
  };

  it('refuses by policy every path checkRepoPath refuses, and accepts the others exactly', () => {
    fc.assert(
      fc.property(paths, fc.constantFrom('add' as const, 'modify' as const, 'delete' as const), fc.boolean(), (path, op, gitStyle) => {
        // '/dev/null' is how a diff says "no file", never a path; a plain '---' line with no name is a
        // malformed header (patch_invalid) rather than a path.
        fc.pre(path !== '/dev/null' && (path !== '' || gitStyle || op !== 'modify'));
        const result = outcome(diffFor(path, op, gitStyle));
        if (checkRepoPath(path) !== undefined || path.includes('"')) {
          expect(result).toMatchObject({ ok: false, code: 'policy_violation' });
        } else {
          expect(result).toEqual({ ok: true, changes: [expect.objectContaining({ path, op })] });
        }
      }),
      { numRuns: 1000 }
    );
  });
});

describe('applying a generated diff', () => {
  const PATHS = ['a.txt', 'src/b.ts', 'dir x/c d.md', 'é/ü.txt', 'deep/er/f.py'];
  const textLine = fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      'a',
      'b',
      'x',
      '-',
      '+',
      '---',
      '--- a/x',
      '+++ b/x',
      '@@ -1 +1 @@',
      '\\ No newline at end of file',
      'a\r',
      '\r',
      'diff --git a/x b/y',
      'rename from x',
      'Binary files a and b differ',
      'é',
      '🙂'
    ),
    fc.string({ maxLength: 8 }).filter((s) => !s.includes('\n') && !s.includes('\0'))
  );
  const lines = fc.array(textLine, { maxLength: 12 });
  const content = fc.tuple(lines, fc.boolean()).map(([ls, eol]) => (ls.length === 0 ? '' : ls.join('\n') + (eol ? '\n' : '')));
  const edits = fc.array(fc.tuple(fc.nat(), fc.constantFrom('drop', 'replace', 'insert'), textLine), { maxLength: 5 });
  const mutate = (text: string, ops: [number, string, string][], flipEol: boolean): string => {
    const eol = text === '' || text.endsWith('\n');
    const ls = text === '' ? [] : (eol ? text.slice(0, -1) : text).split('\n');
    for (const [at, kind, l] of ops) {
      const i = ls.length === 0 ? 0 : at % (ls.length + (kind === 'insert' ? 1 : 0));
      if (kind === 'insert') ls.splice(i, 0, l);
      else if (ls.length > 0) ls.splice(i, 1, ...(kind === 'replace' ? [l] : []));
    }
    return ls.length === 0 ? '' : ls.join('\n') + (eol !== flipEol ? '\n' : '');
  };
  const fileState = fc.record({
    before: fc.option(content, { nil: undefined }),
    after: fc.oneof(
      fc.constant({ kind: 'same' as const }),
      fc.record({ kind: fc.constant('edit' as const), ops: edits, flip: fc.boolean() }),
      fc.record({ kind: fc.constant('fresh' as const), text: content }),
      fc.constant({ kind: 'gone' as const })
    )
  });

  /** One file's git-style diff: headers written here (git with core.quotePath=false), hunks by jsdiff. */
  const gitDiff = (path: string, before: string | undefined, after: string | undefined): string => {
    if (before === after) return '';
    const header = `diff --git a/${path} b/${path}\n`;
    const hunks = (a: string, b: string): string => createTwoFilesPatch('', '', a, b, undefined, undefined, { headerOptions: OMIT_HEADERS });
    if (before === undefined) {
      return `${header}new file mode 100644\n${after === '' ? '' : `--- /dev/null\n+++ b/${path}\n${hunks('', after!)}`}`;
    }
    if (after === undefined) {
      return `${header}deleted file mode 100644\n${before === '' ? '' : `--- a/${path}\n+++ /dev/null\n${hunks(before, '')}`}`;
    }
    return `${header}--- a/${path}\n+++ b/${path}\n${hunks(before, after)}`;
  };

  it('reproduces the new content exactly', () => {
    fc.assert(
      fc.property(fc.array(fileState, { minLength: PATHS.length, maxLength: PATHS.length }), (states) => {
        const before = new Map<string, string>();
        const after = new Map<string, string>();
        states.forEach((state, i) => {
          const path = PATHS[i]!;
          if (state.before !== undefined) before.set(path, state.before);
          const next =
            state.after.kind === 'same'
              ? state.before
              : state.after.kind === 'edit'
                ? mutate(state.before ?? '', state.after.ops, state.after.flip)
                : state.after.kind === 'fresh'
                  ? state.after.text
                  : undefined;
          if (next !== undefined) after.set(path, next);
        });
        const diff = PATHS.map((p) => gitDiff(p, before.get(p), after.get(p))).join('');
        fc.pre(diff !== '');
        const changes = checkDiff(diff);
        const applied = applyFileChanges((p) => (before.has(p) ? Buffer.from(before.get(p)!, 'utf8') : undefined), changes);
        for (const path of PATHS) {
          const expected = after.has(path) ? after.get(path)! : null;
          const got = applied.has(path) ? applied.get(path) : before.has(path) ? Buffer.from(before.get(path)!, 'utf8') : null;
          expect([path, got === null || got === undefined ? null : got.toString('utf8')]).toEqual([path, expected]);
        }
        expect(checkDiff(diff)).toEqual(changes);
      }),
      { numRuns: 500 }
    );
  });
});
