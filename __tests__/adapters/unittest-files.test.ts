import picomatch from 'picomatch';
import { isUnittestFile, UNITTEST_SKIP_MARKERS, UNITTEST_SURFACE, unittestSuiteFiles } from '../../src/adapters/shared/unittest-files.js';

const marks = (line: string): boolean => UNITTEST_SKIP_MARKERS.some((marker) => marker.test(line));
const matches = (globs: readonly string[], file: string): boolean => picomatch([...globs], { dot: true })(file);

describe('isUnittestFile', () => {
  it.each([
    ['test_calc.py', true],
    ['tests/test_calc.py', true],
    ['test.py', true],
    ['testCalc.py', true],
    ['test-calc.py', false],
    ['calc_test.py', false],
    ['test_calc.txt', false],
    ['helpers.py', false]
  ])('%s → %s', (file, expected) => {
    expect(isUnittestFile(file)).toBe(expected);
  });
});

describe('unittestSuiteFiles', () => {
  it('chooses the test*.py modules discovery from the root imports: every folder on the way a package', () => {
    expect(
      unittestSuiteFiles([
        'test_root.py',
        'calculator.py',
        'tests/__init__.py',
        'tests/test_b.py',
        'tests/test_a.py',
        'tests/helpers.py',
        'tests/unit/__init__.py',
        'tests/unit/test_deep.py',
        'tests/loose/test_unreached.py',
        'scripts/test_tool.py',
        'pkg/__init__.py',
        'pkg/sub/test_no_init_in_sub.py',
        'tests/test-dashed.py',
        '.patchproof/__init__.py',
        '.patchproof/reproduction/test_repro.py'
      ])
    ).toEqual(['test_root.py', 'tests/test_a.py', 'tests/test_b.py', 'tests/unit/test_deep.py']);
  });

  it('returns nothing for a tree without test modules', () => {
    expect(unittestSuiteFiles(['calculator.py', 'tests/helpers.py', 'tests/__init__.py'])).toEqual([]);
  });
});

describe('UNITTEST_SURFACE', () => {
  it.each([
    ['tests', 'test_calc.py'],
    ['tests', 'pkg/test_calc.py'],
    ['tests', 'pkg/calc_test.py'],
    ['tests', 'tests/fixtures/data.json'],
    ['tests', 'src/test/helpers.py'],
    ['config', '.github/workflows/ci.yml'],
    ['config', 'tests/conftest.py'],
    ['config', 'conftest.py'],
    ['config', 'setup.cfg'],
    ['config', 'tox.ini'],
    ['config', 'pytest.ini'],
    ['config', 'pyproject.toml'],
    ['config', 'tests/__init__.py'],
    ['config', 'pkg/tests/unit/__init__.py'],
    ['dependencies', 'requirements.txt'],
    ['dependencies', 'requirements-dev.txt'],
    ['dependencies', 'docs/requirements.txt'],
    ['dependencies', 'pyproject.toml'],
    ['dependencies', 'setup.py'],
    ['dependencies', 'setup.cfg'],
    ['dependencies', 'Pipfile'],
    ['dependencies', 'Pipfile.lock'],
    ['dependencies', 'poetry.lock'],
    ['dependencies', 'uv.lock']
  ] as const)('%s: %s', (kind, file) => {
    expect(matches(UNITTEST_SURFACE[kind], file)).toBe(true);
  });

  it.each([
    ['tests', 'calculator.py'],
    ['tests', 'pkg/contest.py'],
    ['config', 'pkg/__init__.py'],
    ['config', 'sub/pyproject.toml'],
    ['dependencies', 'requirements.md'],
    ['dependencies', 'sub/setup.py']
  ] as const)('not %s: %s', (kind, file) => {
    expect(matches(UNITTEST_SURFACE[kind], file)).toBe(false);
  });
});

describe('UNITTEST_SKIP_MARKERS', () => {
  it.each([
    '    @unittest.skip("slow")',
    '@unittest.skipIf(sys.platform == "win32", "posix only")',
    '    @unittest.skipUnless(HAS_NET, "needs network")',
    '    @skip("later")',
    '    @skipIf(True, "never")',
    '    @unittest.expectedFailure',
    '    @expectedFailure',
    '        self.skipTest("not here")',
    '        raise unittest.SkipTest("no database")',
    '        raise SkipTest("no database")',
    '    raise unittest.case.SkipTest("deep")',
    'test_adds = unittest.skip("later")(test_adds)',
    '    __unittest_skip__ = True',
    '    __unittest_expecting_failure__ = True'
  ])('marks %s', (line) => {
    expect(marks(line)).toBe(true);
  });

  it.each([
    '        skipped = [r for r in results if r.skipped]',
    '    def test_skip_blank_lines(self):',
    '    @skipper_fixture',
    '    @expected_failures_logged',
    '        self.assertEqual(parse("skipTest"), 1)',
    '        raise SkipTestError("not a unittest skip")',
    '        expectedFailure = compute()'
  ])('does not mark %s', (line) => {
    expect(marks(line)).toBe(false);
  });
});
