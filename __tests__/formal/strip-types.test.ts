import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { readRegularFile, writeNewFile } from '../../src/formal/replay-run.js';
import { strippedPath } from '../../src/formal/replay.js';
import { needsStripping, stripTypes } from '../../src/formal/strip-types.js';

/**
 * The TypeScript replay's host side: amaro strips the target's types (nothing runs), refuses what it
 * cannot erase and what would not load soundly on Node 20 (relative imports), and the stripped copy
 * is read and written in the replay's copy without following a link the candidate planted.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('stripTypes', () => {
  test('strips ts-pages to the same program, types blanked, positions kept', async () => {
    const text = await readFile(join(ROOT, 'fixtures', 'ts-pages', 'repo', 'src', 'paginate.ts'), 'utf8');
    const stripped = stripTypes(text, 'src/paginate.ts');
    if ('refused' in stripped) throw new Error(stripped.refused);
    expect(stripped.extension).toBe('.mjs');
    expect(stripped.text).toContain('export function pageCount(total        , perPage        )         {');
    expect(stripped.text).not.toMatch(/interface|satisfies|: number/);
    expect(stripped.text.split('\n')).toHaveLength(text.split('\n').length);
    // It runs as JavaScript on this Node, and computes what the TypeScript says.
    const dir = await mkdtemp(join(tmpdir(), 'pp-strip-'));
    dirs.push(dir);
    await writeFile(join(dir, 'paginate.mjs'), stripped.text);
    const mod = (await import(join(dir, 'paginate.mjs'))) as { pageCount(a: number, b: number): number };
    expect(mod.pageCount(10, 3)).toBe(3);
  });

  test.each([
    ['an enum', 'enum E { A }\nexport function f(x: number): number { return x; }', /enum/],
    ['a namespace', 'namespace N { export const a = 1; }\nexport function f(x: number): number { return x; }', /namespace/],
    ['a parameter property', 'class C { constructor(private x: number) {} }\nexport function f(x: number): number { return x; }', /parameter property/],
    ['an angle-bracket assertion', 'export function f(x: number): number { return <number>x; }', /angle-bracket/],
    ['a relative import', "import { g } from './g.js';\nexport function f(x: number): number { return g(x); }", /relative import of \.\/g\.js/],
    ['a relative re-export', "export { g } from '../g';\nexport function f(x: number): number { return x; }", /relative import of \.\.\/g/],
    ['a computed import', 'export async function h(p: string) { return import(p); }\nexport function f(x: number): number { return x; }', /computed import/],
    ['a relative require', "const g = require('./g.cjs');\nexport function f(x: number): number { return g(x); }", /relative import/]
  ])('refuses %s (the target stays unknown)', (_what, text, reason) => {
    const stripped = stripTypes(text, 'src/f.ts');
    expect('refused' in stripped ? stripped.refused : 'stripped').toMatch(reason);
  });

  test('type-only imports vanish and package imports stay: both replay', () => {
    const stripped = stripTypes(
      "import type { T } from './types.js';\nimport { strict } from 'node:assert';\nexport function f(x: number): number { strict.ok(true); return x; }",
      'src/f.ts'
    );
    expect('text' in stripped ? stripped.text : stripped.refused).toMatch(/^\s+import \{ strict \} from 'node:assert';/);
  });

  test('picks the module kind: .mts and ESM syntax run as .mjs, .cts and scripts as .cjs; .tsx and .js are not stripped', () => {
    expect(stripTypes('export const f = (x: number): number => x;', 'a.mts')).toMatchObject({ extension: '.mjs' });
    expect(stripTypes('exports.f = (x: number): number => x;', 'a.cts')).toMatchObject({ extension: '.cjs' });
    expect(stripTypes('function f(x: number): number { return x; }', 'a.ts')).toMatchObject({ extension: '.cjs' });
    expect(needsStripping('a.tsx')).toBe(false);
    expect(needsStripping('a.js')).toBe(false);
    expect(stripTypes('const a = <div/>;', 'a.tsx')).toMatchObject({ refused: expect.stringMatching(/not a \.ts/) });
  });

  test('the stripped copy is named with the nonce beside the target', () => {
    expect(strippedPath('src/lib/paginate.ts', 'abc123', '.mjs')).toBe('src/lib/paginate.patchproof-replay-abc123.mjs');
    expect(strippedPath('paginate.cts', 'n', '.cjs')).toBe('paginate.patchproof-replay-n.cjs');
  });
});

describe('the stripped copy in the replay copy (hostile trees)', () => {
  async function copy(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'pp-strip-copy-'));
    dirs.push(dir);
    return dir;
  }

  test('a target that is a link to a host file is not read: without the check the host file would be staged into the container', async () => {
    const dir = await copy();
    const secret = join(await copy(), 'secret.ts');
    await writeFile(secret, 'export const token = "host secret";');
    await mkdir(join(dir, 'src'));
    await symlink(secret, join(dir, 'src', 'paginate.ts'));
    await expect(readRegularFile(dir, 'src/paginate.ts')).rejects.toThrow(/not a regular file of the tree/);
  });

  test('a folder that is a link out of the copy is neither read through nor written through', async () => {
    const dir = await copy();
    const outside = await copy();
    await writeFile(join(outside, 'paginate.ts'), 'export function pageCount(a: number, b: number): number { return a; }');
    await symlink(outside, join(dir, 'src'));
    await expect(readRegularFile(dir, 'src/paginate.ts')).rejects.toThrow(/src is not a folder of the tree/);
    await expect(writeNewFile(dir, 'src/paginate.patchproof-replay-n.mjs', 'x')).rejects.toThrow(/src is not a folder of the tree/);
    await expect(readFile(join(outside, 'paginate.patchproof-replay-n.mjs'))).rejects.toThrow();
  });

  test('a planted file or link at the stripped name is never written through', async () => {
    const dir = await copy();
    const outside = join(await copy(), 'victim.txt');
    await writeFile(outside, 'untouched');
    await mkdir(join(dir, 'src'));
    await symlink(outside, join(dir, 'src', 'paginate.patchproof-replay-n.mjs'));
    await expect(writeNewFile(dir, 'src/paginate.patchproof-replay-n.mjs', 'export const x = 1;')).rejects.toThrow(/cannot be created in the copy \(EEXIST\)/);
    expect(await readFile(outside, 'utf8')).toBe('untouched');
    await writeNewFile(dir, 'src/paginate.patchproof-replay-m.mjs', 'export const x = 1;');
    expect(await readFile(join(dir, 'src', 'paginate.patchproof-replay-m.mjs'), 'utf8')).toBe('export const x = 1;');
  });
});
