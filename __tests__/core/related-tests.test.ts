import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { jsImportGraph, jsImports, relatedTestFiles, resolveJs } from '../../src/core/related-tests.js';

/** L3's "related test files first": the import graph, on the real js-duration fixture and on edge cases. */

const REPO = join(import.meta.dirname, '..', '..', 'fixtures', 'js-duration', 'repo');
const files = ['src', 'test'].flatMap((dir) => readdirSync(join(REPO, dir)).map((f) => `${dir}/${f}`));
const read = (path: string): string | undefined => {
  try {
    return readFileSync(join(REPO, ...path.split('/')), 'utf8');
  } catch {
    return undefined;
  }
};
const suite = files.filter((f) => f.startsWith('test/'));

describe('related test files (JS/TS import graph)', () => {
  it('on js-duration: a change to src/format.js relates the tests that import it directly or through timeouts.js', () => {
    const graph = jsImportGraph(files, read);
    expect(graph('src/timeouts.js')).toEqual(['src/duration.js', 'src/format.js']);
    expect(relatedTestFiles(suite, ['src/format.js'], graph)).toEqual(['test/format.test.js', 'test/timeouts.test.js']);
    // duration.js is reached by every test file (directly, or through format.js and timeouts.js).
    expect(relatedTestFiles(suite, ['src/duration.js'], graph)).toEqual(['test/duration.test.js', 'test/format.test.js', 'test/timeouts.test.js']);
    expect(relatedTestFiles(suite, ['src/timeouts.js'], graph)).toEqual(['test/timeouts.test.js']);
    // A changed file no test reaches: no related tests (the full suite still runs).
    expect(relatedTestFiles(suite, ['README.md'], graph)).toEqual([]);
  });

  it('reads static imports, re-exports, require and import() with literals only; skips packages', () => {
    expect(
      jsImports(
        "import a from './a.js';\nexport * from '../b';\nexport { c } from './c.ts';\nconst d = require('./d');\nconst e = await import('./e.mjs');\nimport fs from 'node:fs';\nrequire(name);\n"
      )
    ).toEqual(['./a.js', '../b', './c.ts', './d', './e.mjs']);
    expect(jsImports('const x: number = 1 as number; import type { T } from "./types";')).toEqual(['./types']);
    expect(jsImports('this is ( not javascript')).toBeUndefined();
  });

  it("resolves like Node, with TypeScript's .js → .ts and index files", () => {
    const set = new Set(['src/a.ts', 'src/lib/index.js', 'src/b.mjs']);
    expect(resolveJs('src/x.ts', './a.js', set)).toBe('src/a.ts');
    expect(resolveJs('src/x.ts', './lib', set)).toBe('src/lib/index.js');
    expect(resolveJs('test/t.js', '../src/b.mjs', set)).toBe('src/b.mjs');
    expect(resolveJs('src/x.ts', './missing', set)).toBeUndefined();
  });

  it('a file it cannot parse on the way makes the answer unknown (the tier is skipped), and cycles end', () => {
    const graph = (file: string): string[] | undefined =>
      (({ 't.test.js': ['a.js'], 'a.js': ['b.js'], 'b.js': ['a.js'], 'u.test.js': ['bad.js'] }) as Record<string, string[]>)[file] ?? (file === 'bad.js' ? undefined : []);
    expect(relatedTestFiles(['t.test.js'], ['z.js'], graph)).toEqual([]);
    expect(relatedTestFiles(['t.test.js', 'u.test.js'], ['z.js'], graph)).toBeUndefined();
    expect(relatedTestFiles(['t.test.js'], ['b.js'], graph)).toEqual(['t.test.js']);
  });
});
