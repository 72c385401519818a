import type { TestSurface } from '../adapter.js';
import { selectSuiteFiles } from './test-files.js';

/**
 * Which files matter to the unittest adapter: the modules `python -m unittest discover` imports
 * from the repository root, the test surface a candidate may not touch unreported, and the source
 * lines that skip or expect-fail a test.
 */

const PYTHON_TEST_FILE = /^test\w*\.py$/;

/**
 * True for files unittest discovery runs by default: `test*.py` whose name is an importable
 * module name. (Discovery also needs every folder between the start folder and the file to be a
 * package with an `__init__.py`; see unittestSuiteFiles.)
 */
export function isUnittestFile(relativePath: string): boolean {
  return PYTHON_TEST_FILE.test(relativePath.split(/[\\/]/).pop() ?? '');
}

/**
 * The modules `unittest discover` from the root would import: `test*.py` files whose every folder
 * below the root is a package (holds an `__init__.py`), sorted, never under .patchproof.
 */
export function unittestSuiteFiles(paths: readonly string[]): string[] {
  const present = new Set(paths);
  const inPackages = (file: string): boolean => {
    const folders = file.split('/').slice(0, -1);
    return folders.every((_, index) => present.has(`${folders.slice(0, index + 1).join('/')}/__init__.py`));
  };
  return selectSuiteFiles(paths, (file) => isUnittestFile(file) && inPackages(file), []);
}

/** The unittest test surface (see TestSurface). */
export const UNITTEST_SURFACE: TestSurface = {
  tests: ['**/test*.py', '**/*_test.py', '**/tests/**', '**/test/**'],
  config: ['.github/**', '**/conftest.py', 'setup.cfg', 'tox.ini', 'pytest.ini', 'pyproject.toml', '**/tests/**/__init__.py', '**/test/**/__init__.py'],
  dependencies: ['**/requirements*.txt', 'pyproject.toml', 'setup.py', 'setup.cfg', 'Pipfile', 'Pipfile.lock', 'poetry.lock', 'uv.lock']
};

/**
 * Lines that skip or expect-fail a unittest test: the `@skip`, `@skipIf`, `@skipUnless` and
 * `@expectedFailure` decorators (bare or as `unittest.`), `unittest.skip…(` used as a call,
 * `self.skipTest(`, `raise SkipTest` (any qualification), and setting unittest's own
 * `__unittest_skip__` / `__unittest_expecting_failure__` attributes.
 */
export const UNITTEST_SKIP_MARKERS: readonly RegExp[] = [
  /^\s*@\s*(?:unittest\.)?skip(?:If|Unless)?\b/,
  /\bunittest\.skip(?:If|Unless)?\s*\(/,
  /^\s*@\s*(?:unittest\.)?expectedFailure\b/,
  /\.skipTest\s*\(/,
  /\braise\s+(?:[\w.]+\.)?SkipTest\b/,
  /__unittest_(?:skip|expecting_failure)__/
];
