import picomatch from 'picomatch';
import { isPytestFile, PYTEST_SKIP_MARKERS, PYTEST_SURFACE, pytestSuiteFiles } from '../../src/adapters/pytest/files.js';

describe('pytest files', () => {
  it('recognises the modules pytest collects by default', () => {
    expect(['test_calc.py', 'tests/test_calc.py', 'pkg/calc_test.py'].map(isPytestFile)).toEqual([true, true, true]);
    expect(['testcalc.py', 'test_calc.txt', 'tests/helpers.py', 'test-calc.py', 'conftest.py'].map(isPytestFile)).toEqual([false, false, false, false, false]);
  });

  it("chooses the suite as pytest's default collection would, never .patchproof or hidden folders", () => {
    const paths = [
      'tests/test_b.py',
      'test_a.py',
      'src/calc_test.py',
      'src/calc.py',
      '.patchproof/reproduction/test_x.py',
      '.venv/lib/test_y.py',
      'venv/lib/test_z.py',
      'node_modules/pkg/test_n.py',
      'build/test_build.py',
      'thing.egg/test_egg.py',
      'lib/python3.11/site-packages/pkg/test_s.py'
    ];
    expect(pytestSuiteFiles(paths)).toEqual(['src/calc_test.py', 'test_a.py', 'tests/test_b.py']);
  });

  it('puts tests, conftest.py and pytest configuration on the test surface', () => {
    const isTest = picomatch(PYTEST_SURFACE.tests as string[], { dot: true });
    const isConfig = picomatch(PYTEST_SURFACE.config as string[], { dot: true });
    const isDependency = picomatch(PYTEST_SURFACE.dependencies as string[], { dot: true });
    expect(['test_a.py', 'pkg/a_test.py', 'tests/data/x.json', 'test/helpers.py'].every((file) => isTest(file))).toBe(true);
    expect(isTest('src/calc.py')).toBe(false);
    expect(['conftest.py', 'tests/conftest.py', 'pytest.ini', 'tox.ini', 'setup.cfg', 'pyproject.toml', '.github/workflows/ci.yml'].every((file) => isConfig(file))).toBe(true);
    expect(['requirements-dev.txt', 'poetry.lock', 'setup.py'].every((file) => isDependency(file))).toBe(true);
  });

  it('finds the lines that skip or expect-fail a test', () => {
    const marked = [
      '@pytest.mark.skip(reason="later")',
      '@pytest.mark.skipif(sys.platform == "win32", reason="posix")',
      '@pytest.mark.xfail',
      'pytestmark = pytest.mark.skip',
      '    pytest.param(1, marks=pytest.mark.xfail),',
      '@mark.xfail(strict=False)',
      '    pytest.skip("no network")',
      '    pytest.xfail("known")',
      'np = pytest.importorskip("numpy")',
      '@unittest.skip("later")',
      '        self.skipTest("later")'
    ];
    const plain = ['@pytest.mark.parametrize("a", [1, 2])', 'def test_skip_list():', '    assert skipped == []', '@pytest.fixture'];
    const matches = (line: string): boolean => PYTEST_SKIP_MARKERS.some((marker) => marker.test(line));
    expect(marked.filter((line) => !matches(line))).toEqual([]);
    expect(plain.filter(matches)).toEqual([]);
  });
});
