import picomatch from 'picomatch';
import { isNodeTestFile, NODE_TEST_SKIP_MARKERS, NODE_TEST_SURFACE, nodeTestSuiteFiles } from '../../src/adapters/shared/node-test-files.js';

const marks = (line: string): boolean => NODE_TEST_SKIP_MARKERS.some((marker) => marker.test(line));
const matches = (globs: readonly string[], file: string): boolean => picomatch([...globs], { dot: true })(file);

describe('isNodeTestFile', () => {
  it.each([
    ['a.test.js', true],
    ['a.test.mjs', true],
    ['a.test.cjs', true],
    ['a-test.js', true],
    ['a_test.mjs', true],
    ['test-a.cjs', true],
    ['test.js', true],
    ['lib/deep/test.mjs', true],
    ['test/helpers.js', true],
    ['unit/test/deep/x.mjs', true],
    ['.hidden/a.test.js', true],
    ['a.test.ts', false],
    ['a.spec.js', false],
    ['helpers.js', false],
    ['testing.js', false],
    ['tests/helpers.js', false],
    ['test/fixture.json', false],
    ['node_modules/x/a.test.js', false],
    ['pkg/node_modules/x/test/a.js', false],
    ['README.md', false]
  ])('%s → %s', (file, expected) => {
    expect(isNodeTestFile(file)).toBe(expected);
  });
});

describe('nodeTestSuiteFiles', () => {
  it("chooses node's default test files, sorted, leaving out node_modules, .git and .patchproof", () => {
    expect(
      nodeTestSuiteFiles([
        'test/z.test.js',
        'src/calc.js',
        'src/calc.test.mjs',
        'test/helpers.js',
        'package.json',
        'node_modules/dep/a.test.js',
        'packages/a/node_modules/dep/test/x.js',
        '.git/hooks/test-commit.js',
        '.patchproof/reproduction/repro.test.js',
        '.patchproof/harness/entry-0.test.mjs',
        'docs/.patchproof/kept.test.js',
        '.config/check_test.cjs',
        'a-test.js'
      ])
    ).toEqual(['.config/check_test.cjs', 'a-test.js', 'docs/.patchproof/kept.test.js', 'src/calc.test.mjs', 'test/helpers.js', 'test/z.test.js']);
  });

  it('returns nothing for a tree without tests, and lists a file once', () => {
    expect(nodeTestSuiteFiles(['src/a.js', 'README.md'])).toEqual([]);
    expect(nodeTestSuiteFiles(['a.test.js', 'a.test.js'])).toEqual(['a.test.js']);
  });
});

describe('NODE_TEST_SURFACE', () => {
  it.each([
    ['tests', 'src/calc.test.js'],
    ['tests', 'test/fixtures/data.json'],
    ['tests', 'packages/a/tests/helper.ts'],
    ['tests', 'src/__tests__/calc.js'],
    ['config', '.github/workflows/ci.yml'],
    ['config', 'package.json'],
    ['config', 'packages/a/.npmrc'],
    ['config', '.nvmrc'],
    ['config', '.node-version'],
    ['dependencies', 'package.json'],
    ['dependencies', 'packages/a/package.json'],
    ['dependencies', 'package-lock.json'],
    ['dependencies', 'npm-shrinkwrap.json'],
    ['dependencies', 'web/yarn.lock'],
    ['dependencies', 'pnpm-lock.yaml']
  ] as const)('%s: %s', (kind, file) => {
    expect(matches(NODE_TEST_SURFACE[kind], file)).toBe(true);
  });

  it.each([
    ['tests', 'src/calc.js'],
    ['tests', 'src/testing.js'],
    ['config', 'packages/a/package.json'],
    ['config', 'src/.github.js'],
    ['dependencies', 'src/package.js'],
    ['dependencies', 'yarn.lock.bak']
  ] as const)('not %s: %s', (kind, file) => {
    expect(matches(NODE_TEST_SURFACE[kind], file)).toBe(false);
  });
});

describe('NODE_TEST_SKIP_MARKERS', () => {
  it.each([
    "test.skip('slow', () => {});",
    "  it.skip('flaky', async () => {",
    "describe.skip('suite', () => {",
    "test.only('focus', () => {});",
    "  it.only('focus', () => {",
    "describe.only('suite', () => {",
    "test.todo('later');",
    "it.todo('later')",
    "describe.todo('later', () => {});",
    "test('x', { skip: true }, () => {});",
    "test('x', { skip: 'not on CI' }, () => {});",
    "test('x', { only: true }, () => {});",
    "test('x', { todo: 'later' }, () => {});",
    "test('x', { timeout: 10, skip }, () => {});",
    "test('x', {'skip': true}, () => {});",
    '  skip: process.platform === "win32",',
    "  t.skip('not here');",
    '  t.todo();',
    "  context.skip('not here');"
  ])('marks %s', (line) => {
    expect(marks(line)).toBe(true);
  });

  it.each([
    'const skipped = results.filter((r) => r.skipped);',
    "test('skips blank lines', () => {",
    "test('only digits', () => {});",
    'const onlyOnce = once(fn);',
    "test('x', { skipped: true, timeout: 5 }, () => {});",
    "assert.deepEqual(todos, ['a']);",
    'const { todoList } = state;',
    'parser.skipWhitespace();'
  ])('does not mark %s', (line) => {
    expect(marks(line)).toBe(false);
  });
});
