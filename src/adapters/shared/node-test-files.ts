import picomatch from 'picomatch';
import type { TestSurface } from '../adapter.js';
import { selectSuiteFiles } from './test-files.js';

/**
 * Which files matter to the node-test adapter: the files node 20's `--test` runs by default, the
 * test surface a candidate may not touch unreported, and the source lines that skip or focus a
 * test. Globs are picomatch's (already the project's matcher, see core/surface.ts), with
 * `dot: true` as node's own discovery also walks dot folders.
 */

/** Node 20's default `--test` patterns: `*.test.js`, `*-test.js`, `*_test.js`, `test-*.js`, `test.js` (each also .mjs/.cjs) and any script under a `test/` folder. */
export const NODE_TEST_FILE_GLOBS: readonly string[] = [
  '**/*.test.{js,mjs,cjs}',
  '**/*-test.{js,mjs,cjs}',
  '**/*_test.{js,mjs,cjs}',
  '**/test-*.{js,mjs,cjs}',
  '**/test.{js,mjs,cjs}',
  '**/test/**/*.{js,mjs,cjs}'
];

/** Folders node's discovery leaves out (node_modules), with git's and PatchProof's own. */
const EXCLUDED_FOLDERS = ['node_modules', '.git'];

const matchesTestGlob = picomatch([...NODE_TEST_FILE_GLOBS], { dot: true });

/** True for files node 20's `--test` picks up by default, never inside node_modules. */
export function isNodeTestFile(relativePath: string): boolean {
  const normalised = relativePath.replace(/\\/g, '/');
  return !normalised.split('/').slice(0, -1).includes('node_modules') && matchesTestGlob(normalised);
}

/** The repository's own node:test suite among the tree's files (sorted; no node_modules, .git or .patchproof). */
export function nodeTestSuiteFiles(paths: readonly string[]): string[] {
  return selectSuiteFiles(paths, isNodeTestFile, EXCLUDED_FOLDERS);
}

/** The node-test test surface (see TestSurface). */
export const NODE_TEST_SURFACE: TestSurface = {
  tests: [...NODE_TEST_FILE_GLOBS, '**/test/**', '**/tests/**', '**/__tests__/**'],
  config: ['.github/**', 'package.json', '**/.npmrc', '.node-version', '.nvmrc'],
  dependencies: ['**/package.json', '**/package-lock.json', '**/npm-shrinkwrap.json', '**/yarn.lock', '**/pnpm-lock.yaml']
};

/**
 * Lines that skip, focus or mark as todo a node:test test: `test.skip(`, `it.only(`,
 * `describe.todo(`, `t.skip(`, `t.todo(` (any receiver: the context is not always called `t`), and
 * the `{ skip }`, `{ only }`, `{ todo }` options, on one line or as a line of a multi-line object.
 */
export const NODE_TEST_SKIP_MARKERS: readonly RegExp[] = [
  /\.\s*(?:skip|only|todo)\s*\(/,
  /(?:^|[{,])\s*(?:skip|only|todo)\s*[,}]/,
  /(?:^|[{,])\s*(?:skip|only|todo|'(?:skip|only|todo)'|"(?:skip|only|todo)")\s*:/
];
