#!/usr/bin/env node
// Ships Z3 beside the bundles for the formal gate (src/formal/solver.ts, locateZ3): ncc cannot
// bundle z3-solver (its Emscripten module finds its wasm and starts worker threads from its own
// file), so dist/z3 holds its low-level API and z3-built.js as files, CommonJS by a package.json of
// their own, and the wasm brotli-compressed (35 MB -> about 5 MB; the solver's child inflates it).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = dirname(createRequire(import.meta.url).resolve('z3-solver'));
const out = join(root, 'dist', 'z3');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'low-level'), { recursive: true });
for (const name of readdirSync(join(build, 'low-level')).filter((n) => n.endsWith('.js'))) copyFileSync(join(build, 'low-level', name), join(out, 'low-level', name));
copyFileSync(join(build, 'z3-built.js'), join(out, 'z3-built.js'));
const wasm = readFileSync(join(build, 'z3-built.wasm'));
writeFileSync(join(out, 'z3-built.wasm.br'), brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: wasm.length } }));
writeFileSync(
  join(out, 'package.json'),
  `${JSON.stringify({ type: 'commonjs', private: true, description: `z3-solver ${JSON.parse(readFileSync(join(build, '..', 'package.json'), 'utf8')).version} (MIT), for the formal gate` }, null, 2)}\n`
);
copyFileSync(join(build, '..', 'LICENSE.txt'), join(out, 'LICENSE.txt'));
console.log(
  `dist/z3: z3-solver's low-level API, z3-built.js and the wasm (${(wasm.length / 1048576).toFixed(1)} MB, brotli ${(readFileSync(join(out, 'z3-built.wasm.br')).length / 1048576).toFixed(1)} MB)`
);
