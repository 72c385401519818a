import type { TestSurface } from '../adapter.js';
import { selectSuiteFiles } from '../shared/test-files.js';
import { UNITTEST_SKIP_MARKERS, UNITTEST_SURFACE } from '../shared/unittest-files.js';

/**
 * Which files matter to the pytest adapter: the modules pytest collects by default
 * (`python_files = test_*.py *_test.py`), the test surface a candidate may not touch unreported,
 * and the source lines that skip or expect-fail a test.
 */

const PYTEST_FILE = /^(?:test_\w*|\w+_test)\.py$/;
// pytest's default norecursedirs (besides '.*' and '*.egg', matched below), and installed packages.
const NOT_COLLECTED = ['_darcs', 'build', 'CVS', 'dist', 'node_modules', 'venv', '{arch}', 'site-packages', '__pycache__'];

/** True for files pytest collects by default: `test_*.py` or `*_test.py` with an importable name. */
export function isPytestFile(relativePath: string): boolean {
  return PYTEST_FILE.test(relativePath.split(/[\\/]/).pop() ?? '');
}

/**
 * The files pytest run from the root would collect: `test_*.py` / `*_test.py` outside hidden
 * folders, `*.egg` folders and pytest's other default norecursedirs, sorted, never under .patchproof.
 */
export function pytestSuiteFiles(paths: readonly string[]): string[] {
  const collected = (file: string): boolean =>
    isPytestFile(file) &&
    file
      .split('/')
      .slice(0, -1)
      .every((folder) => !folder.startsWith('.') && !folder.endsWith('.egg'));
  return selectSuiteFiles(paths, collected, NOT_COLLECTED);
}

/** The pytest test surface (see TestSurface). */
export const PYTEST_SURFACE: TestSurface = {
  tests: ['**/test_*.py', '**/*_test.py', '**/tests/**', '**/test/**'],
  config: ['.github/**', '**/conftest.py', 'pytest.ini', 'tox.ini', 'setup.cfg', 'pyproject.toml'],
  dependencies: UNITTEST_SURFACE.dependencies
};

/**
 * Lines that skip or expect-fail a pytest test: the `skip`, `skipif` and `xfail` marks (as
 * `pytest.mark.` anywhere, so `pytestmark = …` and `marks=` count, or `@mark.` after
 * `from pytest import mark`), the `pytest.skip(`, `pytest.xfail(` and `pytest.importorskip(`
 * calls, and unittest's markers, since pytest runs unittest tests too.
 */
export const PYTEST_SKIP_MARKERS: readonly RegExp[] = [
  /\bpytest\.mark\.(?:skip|skipif|xfail)\b/,
  /^\s*@\s*mark\.(?:skip|skipif|xfail)\b/,
  /\bpytest\.(?:skip|xfail|importorskip)\s*\(/,
  ...UNITTEST_SKIP_MARKERS
];
