import type { TestSurface } from '../adapter.js';
import { selectSuiteFiles } from '../shared/test-files.js';

/**
 * Which files matter to the go adapter: the `_test.go` files `go test` compiles, the packages (folders)
 * of the repository's own suite, the test surface a candidate may not touch unreported, and the
 * source lines that skip a test.
 */

const GO_TEST_FILE = /^[^._][^/]*_test\.go$/;

/** Folders the go command never treats as packages of a `./...` pattern (besides `.x` and `_x`). */
const NOT_PACKAGES = ['testdata', 'vendor'];

/** True when the go command ignores a folder or file of this name (`.x`, `_x`, `testdata`). */
function ignoredByGo(segment: string): boolean {
  return segment.startsWith('.') || segment.startsWith('_') || segment === 'testdata';
}

/**
 * True for a `*_test.go` file the go command compiles: its name does not start with `.` or `_`
 * and no folder on its (pack- or repository-relative) path is `testdata` or starts with `.` or `_`.
 */
export function isGoTestFile(relativePath: string): boolean {
  const parts = relativePath.split(/[\\/]/);
  const name = parts.pop() ?? '';
  return GO_TEST_FILE.test(name) && !parts.some(ignoredByGo);
}

/** The folder of a repository-relative path ('' for the root). */
export function folderOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '' : file.slice(0, slash);
}

/**
 * The test files of the packages `go test ./...` from the root would test: `*_test.go` outside
 * `vendor/`, `testdata/`, folders starting with `.` or `_`, and nested modules (a folder below the
 * root holding its own go.mod, which `./...` does not cross). Sorted, never under .patchproof.
 */
export function goSuiteFiles(paths: readonly string[]): string[] {
  const nestedModules = paths.filter((file) => file.endsWith('/go.mod')).map(folderOf);
  const inNestedModule = (file: string): boolean => nestedModules.some((module) => file.startsWith(`${module}/`));
  const collected = (file: string): boolean => isGoTestFile(file) && !inNestedModule(file);
  return selectSuiteFiles(paths, collected, NOT_PACKAGES);
}

/** The suite's packages: the folders holding its test files ('' for the root), sorted. */
export function goPackageFolders(files: readonly string[]): string[] {
  return [...new Set(files.map(folderOf))].sort();
}

/** The go test surface (see TestSurface). go.mod, go.sum and vendored code are dependencies. */
export const GO_SURFACE: TestSurface = {
  tests: ['**/*_test.go', '**/testdata/**'],
  // A vendor/ folder replaces the module cache the graded build reads: test surface as well.
  config: ['.github/**', 'go.work', 'go.work.sum', '**/vendor/**'],
  dependencies: ['**/go.mod', '**/go.sum', '**/vendor/**']
};

/**
 * Lines that skip a Go test or keep it from being compiled: `Skip(`, `SkipNow(` and `Skipf(` on any
 * receiver (`t.`, `b.`, `tb.`, `f.`), `testing.Short()` guards, and build constraints
 * (`//go:build`, `// +build`), which can leave a whole test file out of the build.
 */
export const GO_SKIP_MARKERS: readonly RegExp[] = [/\.\s*Skip(?:Now|f)?\s*\(/, /\btesting\.Short\s*\(/, /^\s*\/\/\s*(?:go:build\b|\+build\s)/];
