#!/usr/bin/env node
// Ships tree-sitter's Python grammar beside the bundles for the formal gate's Python front end
// (src/formal/python-parser.ts, locatePythonGrammar): ncc bundles web-tree-sitter's JavaScript but
// not the two wasm files it loads at run time (and its ESM build breaks inside the bundle), so
// OUT/tree-sitter holds web-tree-sitter's CommonJS build and runtime (tree-sitter.cjs,
// tree-sitter.wasm) and the tree-sitter-python package's grammar, with their licences.
// Usage: node scripts/bundle-tree-sitter.mjs [OUT] (default: dist).
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const out = join(resolve(process.argv[2] ?? join(root, 'dist')), 'tree-sitter');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const versions = {};
for (const [pkg, wasm] of [
  ['web-tree-sitter', 'tree-sitter.wasm'],
  ['tree-sitter-python', 'tree-sitter-python.wasm']
]) {
  const dir = dirname(require.resolve(`${pkg}/${wasm}`));
  copyFileSync(join(dir, wasm), join(out, wasm));
  if (pkg === 'web-tree-sitter') copyFileSync(join(dir, 'tree-sitter.cjs'), join(out, 'tree-sitter.cjs'));
  const licence = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].find((n) => existsSync(join(dir, n)));
  if (licence !== undefined) copyFileSync(join(dir, licence), join(out, `${pkg}.LICENSE`));
  versions[pkg] = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
}
writeFileSync(join(out, 'versions.json'), `${JSON.stringify(versions, null, 2)}\n`);
console.log(
  `${out}: tree-sitter.cjs, tree-sitter.wasm and tree-sitter-python.wasm (${Object.entries(versions)
    .map(([p, v]) => `${p} ${v}`)
    .join(', ')})`
);
