import picomatch from 'picomatch';
import type { TestSurface } from '../adapter.js';
import { NODE_TEST_SURFACE } from './node-test-files.js';
import { selectSuiteFiles } from './test-files.js';

/**
 * What the jest and vitest adapters share about files: the test file patterns both runners use by
 * default, the test surface a candidate may not touch unreported, and the source lines that skip,
 * focus or expect-fail a test. Globs are picomatch's, with `dot: true` like the rest of PatchProof.
 */

/** The extensions both runners treat as test modules by default. */
const EXTENSIONS = '{js,jsx,ts,tsx,mjs,cjs,mts,cts}';

/**
 * Test files by name: `*.test.*` / `*.spec.*` (both runners' default) and, for jest, any module
 * under a `__tests__` folder.
 */
export const JS_TEST_FILE_GLOBS: readonly string[] = [`**/*.{test,spec}.${EXTENSIONS}`, `**/__tests__/**/*.${EXTENSIONS}`];

const JEST_DEFAULT = picomatch([...JS_TEST_FILE_GLOBS], { dot: true });
const VITEST_DEFAULT = picomatch([`**/*.{test,spec}.${EXTENSIONS}`], { dot: true });

function isTestModule(relativePath: string, matches: (path: string) => boolean): boolean {
  const normalised = relativePath.replace(/\\/g, '/');
  return !normalised.split('/').slice(0, -1).includes('node_modules') && matches(normalised);
}

/** True for files jest's default `testMatch` picks up (never inside node_modules). */
export function isJestTestFile(relativePath: string): boolean {
  return isTestModule(relativePath, JEST_DEFAULT);
}

/** True for files vitest's default `include` picks up (never inside node_modules). */
export function isVitestTestFile(relativePath: string): boolean {
  return isTestModule(relativePath, VITEST_DEFAULT);
}

/**
 * The repository's jest suite: default `testMatch` files outside node_modules and dot folders (jest
 * does not crawl `.git`, and a dot folder is tool state, not tests), sorted. A repository whose own
 * `testMatch` or `roots` differ sets `regression.include` in its witness pack.
 */
export function jestSuiteFiles(paths: readonly string[]): string[] {
  return selectSuiteFiles(paths, (file) => isJestTestFile(file) && !inDotFolder(file), ['node_modules']);
}

/**
 * The repository's vitest suite: default `include` files outside vitest's default `exclude`
 * (node_modules, dist, cypress, dot folders such as .git and .cache), sorted.
 */
export function vitestSuiteFiles(paths: readonly string[]): string[] {
  return selectSuiteFiles(paths, (file) => isVitestTestFile(file) && !inDotFolder(file), ['node_modules', 'dist', 'cypress']);
}

function inDotFolder(file: string): boolean {
  return file
    .split('/')
    .slice(0, -1)
    .some((folder) => folder.startsWith('.'));
}

const TEST_SURFACE: readonly string[] = [...JS_TEST_FILE_GLOBS, '**/__tests__/**', '**/__mocks__/**', '**/__snapshots__/**', '**/*.snap'];
const SHARED_CONFIG: readonly string[] = ['.github/**', 'package.json', '**/.npmrc', '.node-version', '.nvmrc', 'tsconfig*.json', '**/tsconfig*.json'];

/** The jest test surface: test modules, manual mocks and snapshots; jest and Babel configuration. */
export const JEST_SURFACE: TestSurface = {
  tests: TEST_SURFACE,
  config: [...SHARED_CONFIG, 'jest.config.*', '**/jest.config.*', 'jest.setup.*', 'babel.config.*', '**/.babelrc', '**/.babelrc.*'],
  dependencies: NODE_TEST_SURFACE.dependencies
};

/** The vitest test surface: test modules, mocks and snapshots; vitest, vite and workspace configuration. */
export const VITEST_SURFACE: TestSurface = {
  tests: TEST_SURFACE,
  config: [...SHARED_CONFIG, 'vitest.config.*', '**/vitest.config.*', 'vite.config.*', '**/vite.config.*', 'vitest.workspace.*', 'vitest.setup.*', 'babel.config.*'],
  dependencies: NODE_TEST_SURFACE.dependencies
};

/**
 * Lines that skip, focus or expect-fail a jest or vitest test: the `.skip`, `.only`, `.todo`,
 * `.failing` (jest), `.fails`, `.skipIf`, `.runIf` (vitest) modifiers on any receiver (so
 * `test.skip.each(`, `describe.only(` and a context's `ctx.skip()` count), and jasmine's
 * `xit`/`xtest`/`xdescribe`/`fit`/`fdescribe` and `pending(`.
 */
export const JS_RUNNER_SKIP_MARKERS: readonly RegExp[] = [
  /\.\s*(?:skip|only|todo|failing|fails|skipIf|runIf)\b/,
  /(?:^|[^\w$.])(?:xit|xtest|xdescribe|fit|fdescribe|pending)\s*[.(`]/
];
