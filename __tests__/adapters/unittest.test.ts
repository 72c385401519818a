import { existsSync } from 'node:fs';
import path from 'node:path';
import { HARNESS_DIR } from '../../src/adapters/adapter.js';
import { isUnittestFile, UNITTEST_RESULTS_FILE, unittestAdapter } from '../../src/adapters/unittest.js';
import { UNITTEST_HARNESS_FILE } from '../../src/adapters/unittest-harness.js';
import { countTests } from '../../src/core/test-results.js';
import type { TestCaseResult } from '../../src/core/test-results.js';
import { ConfigurationError } from '../../src/errors.js';
import { removeCopy, runAdapter, stageCopy } from './data/run-adapter.js';
import type { AdapterRun, StagedCopy } from './data/run-adapter.js';

const ROOT = '.patchproof/reproduction';
const CASES = `${ROOT}/test_cases.py`;
const REPRODUCTION = ['test_cases.py', 'test_module_fixture.py', 'test_missing_import.py', 'test_syntax.py', 'helpers.py'];

/** Stages python-project with reproduction files and runs the test modules among them. */
async function runReproduction(files: string[]): Promise<{ copy: StagedCopy; run: AdapterRun }> {
  const copy = await stageCopy(unittestAdapter, 'python-project', { from: 'python-reproduction', files, placement: ROOT });
  const tests = files.filter(isUnittestFile).map((file) => `${ROOT}/${file}`);
  const run = await runAdapter(unittestAdapter, copy, { files: tests, testRoot: ROOT });
  return { copy, run };
}

describe('unittest adapter on a real unittest run', () => {
  let copy: StagedCopy | undefined;
  let run: AdapterRun;
  let tests: Map<string, TestCaseResult>;

  beforeAll(async () => {
    ({ copy, run } = await runReproduction(REPRODUCTION));
    tests = new Map(run.parsed.tests.map((test) => [test.id, test]));
  });
  afterAll(async () => {
    await removeCopy(copy);
  });

  it('writes its results only as the JSON file in the results folder, leaving no bytecode', () => {
    expect(Object.keys(run.files)).toEqual([UNITTEST_RESULTS_FILE]);
    expect(run.exitCode).toBe(1);
    expect(run.parsed.problems).toEqual([]);
    for (const folder of ['', ROOT, HARNESS_DIR]) {
      expect(existsSync(path.join(copy?.workdir ?? '', folder, '__pycache__'))).toBe(false);
    }
  });

  it('reads every test by its unittest id; import failures by module, fixtures by name', () => {
    expect([...tests.keys()].sort()).toEqual(
      [
        'test_cases.CasesTest.test_passes',
        'test_cases.CasesTest.test_assertion',
        'test_cases.CasesTest.test_bare_assert',
        'test_cases.CasesTest.test_code_raises',
        'test_cases.CasesTest.test_test_raises',
        'test_cases.CasesTest.test_skipped',
        'test_cases.CasesTest.test_expected_failure',
        'test_cases.CasesTest.test_unexpected_success',
        'test_cases.CasesTest.test_subtests',
        'test_cases.SetUpFailsTest.test_never_reached',
        'test_cases.TearDownFailsTest.test_asserts_then_teardown_fails',
        'setUpClass (test_cases.ClassFixtureTest)',
        'setUpModule (test_module_fixture)',
        'test_missing_import',
        'test_syntax'
      ].sort()
    );
  });

  it('classifies how each test ended', () => {
    const outcome = (id: string): [string, string | undefined] => [tests.get(id)?.status ?? 'absent', tests.get(id)?.failure_kind];
    expect(outcome('test_cases.CasesTest.test_passes')).toEqual(['passed', undefined]);
    expect(outcome('test_cases.CasesTest.test_assertion')).toEqual(['failed', 'assertion']);
    expect(outcome('test_cases.CasesTest.test_bare_assert')).toEqual(['failed', 'assertion']);
    expect(outcome('test_cases.CasesTest.test_code_raises')).toEqual(['errored', 'exception_in_code']);
    expect(outcome('test_cases.CasesTest.test_test_raises')).toEqual(['errored', 'exception_in_test']);
    expect(outcome('test_cases.CasesTest.test_unexpected_success')).toEqual(['failed', 'assertion']);
    expect(outcome('test_cases.CasesTest.test_subtests')).toEqual(['errored', 'exception_in_code']);
    expect(outcome('test_cases.SetUpFailsTest.test_never_reached')).toEqual(['errored', 'setup_error']);
    expect(outcome('setUpClass (test_cases.ClassFixtureTest)')).toEqual(['errored', 'setup_error']);
    // unittest counts both the failure and the tearDown error; the error outranks, as in its tallies.
    expect(outcome('test_cases.TearDownFailsTest.test_asserts_then_teardown_fails')).toEqual(['errored', 'setup_error']);
    expect(outcome('setUpModule (test_module_fixture)')).toEqual(['errored', 'setup_error']);
    expect(outcome('test_missing_import')).toEqual(['errored', 'import_error']);
    expect(outcome('test_syntax')).toEqual(['errored', 'collection_error']);
  });

  it('treats skips and expected failures as skipped, with the reason', () => {
    expect(tests.get('test_cases.CasesTest.test_skipped')).toMatchObject({ status: 'skipped', skip_reason: 'not today' });
    expect(tests.get('test_cases.CasesTest.test_expected_failure')).toMatchObject({ status: 'skipped', skip_reason: 'expected_failure' });
  });

  it('gives messages from the real exception, with copy paths made relative', () => {
    expect(tests.get('test_cases.CasesTest.test_assertion')?.message).toBe('AssertionError: 2.0 != 3');
    expect(tests.get('test_cases.CasesTest.test_code_raises')?.message).toBe(
      "TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'"
    );
    expect(tests.get('test_cases.CasesTest.test_subtests')?.message).toBe(
      "(b=0): TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'"
    );
    expect(tests.get('test_missing_import')?.message).toBe("ImportError: cannot import name 'multiply' from 'calculator' (calculator.py)");
    expect(tests.get('test_syntax')?.message).toMatch(/^SyntaxError: /);
    expect(tests.get('setUpModule (test_module_fixture)')?.message).toBe('OSError: no fixtures directory');
  });

  it('locates tests at their method, and load or fixture failures at their innermost repository frame', () => {
    expect(tests.get('test_cases.CasesTest.test_passes')?.location).toBe(`${CASES}:11`);
    expect(tests.get('test_cases.SetUpFailsTest.test_never_reached')?.location).toBe(`${CASES}:48`);
    expect(tests.get('setUpClass (test_cases.ClassFixtureTest)')?.location).toBe(`${CASES}:55`);
    expect(tests.get('test_missing_import')?.location).toBe(`${ROOT}/test_missing_import.py:3`);
    expect(tests.get('test_syntax')?.location).toBe(`${ROOT}/test_syntax.py:5`);
  });

  it("reconciles with unittest's own tallies (subtests folded into their test)", () => {
    expect(run.parsed.claimed).toEqual(countTests(run.parsed.tests));
    expect(countTests(run.parsed.tests)).toEqual({ passed: 1, failed: 3, errored: 9, skipped: 2 });
    expect(run.output).toContain('FAILED (failures=3, errors=9, skipped=1, expected failures=1, unexpected successes=1)');
  });
});

describe('unittest adapter problems with the results', () => {
  let copy: StagedCopy | undefined;
  let text: string;

  beforeAll(async () => {
    let run: AdapterRun;
    ({ copy, run } = await runReproduction(['test_cases.py']));
    text = run.files[UNITTEST_RESULTS_FILE] ?? '';
  });
  afterAll(async () => {
    await removeCopy(copy);
  });

  const parse = (results: Record<string, string>, exitCode: number | null = 1) =>
    unittestAdapter.parse({ files: results, exitCode, workdir: copy?.workdir ?? '', testRoots: [ROOT] });

  it('fails closed when the results file is missing', () => {
    expect(parse({})).toEqual({ tests: [], problems: [`${UNITTEST_RESULTS_FILE} is missing: the unittest harness wrote no results`] });
  });

  it('fails closed on truncated JSON', () => {
    expect(parse({ [UNITTEST_RESULTS_FILE]: text.slice(0, -10) }).problems).toEqual([
      `${UNITTEST_RESULTS_FILE} is not valid JSON (truncated or corrupted)`
    ]);
  });

  it('fails closed on JSON of the wrong shape', () => {
    const document = JSON.parse(text) as { tests: { status: string }[] };
    document.tests[0] = { ...document.tests[0], status: 'passed-ish' };
    const parsed = parse({ [UNITTEST_RESULTS_FILE]: JSON.stringify(document) });
    expect(parsed.tests).toEqual([]);
    expect(parsed.problems[0]).toMatch(/^unittest\.json is malformed: .*tests\[0\]\.status/);
  });

  it('reports duplicate ids', () => {
    const document = JSON.parse(text) as { tests: unknown[] };
    document.tests.push(document.tests[0]);
    expect(parse({ [UNITTEST_RESULTS_FILE]: JSON.stringify(document) }).problems).toEqual([
      `duplicate test id '${(document.tests[0] as { id: string }).id}'`
    ]);
  });

  it('notices an exit code that contradicts the results', () => {
    expect(parse({ [UNITTEST_RESULTS_FILE]: text }, 0).problems).toEqual([
      'the unittest harness exited 0; its results imply exit code 1'
    ]);
  });

  it('reports a discovery failure as a problem, with no tests', async () => {
    const broken = await stageCopy(unittestAdapter, 'python-project');
    try {
      const run = await runAdapter(unittestAdapter, broken, { files: [`${ROOT}/test_x.py`], testRoot: ROOT });
      expect(run.exitCode).toBe(2);
      expect(run.parsed.tests).toEqual([]);
      expect(run.parsed.problems).toEqual([expect.stringMatching(/^unittest harness: discovery failed: /)]);
    } finally {
      await removeCopy(broken);
    }
  });
});

describe('unittest adapter regression run (the repository suite)', () => {
  it('discovers the repository suite from its root, never the staged harness or external tests', async () => {
    const copy = await stageCopy(unittestAdapter, 'python-project', { from: 'python-reproduction', files: REPRODUCTION, placement: ROOT });
    try {
      const run = await runAdapter(unittestAdapter, copy);
      expect(run.exitCode).toBe(0);
      expect(run.parsed).toEqual({
        tests: [
          { id: 'tests.test_calculator.DivideTest.test_divides', status: 'passed', location: 'tests/test_calculator.py:7' },
          { id: 'tests.test_calculator.DivideTest.test_mean', status: 'passed', location: 'tests/test_calculator.py:10' }
        ],
        claimed: { passed: 2, failed: 0, errored: 0, skipped: 0 },
        problems: []
      });
    } finally {
      await removeCopy(copy);
    }
  });

  it('exits non-zero when no test ran, and says so consistently', async () => {
    const copy = await stageCopy(unittestAdapter, 'python-project', { from: 'python-reproduction', files: ['helpers.py'], placement: ROOT });
    try {
      const run = await runAdapter(unittestAdapter, copy, { files: [`${ROOT}/test_none.py`], testRoot: ROOT });
      expect(run.exitCode).toBe(5);
      expect(run.parsed).toEqual({ tests: [], claimed: { passed: 0, failed: 0, errored: 0, skipped: 0 }, problems: [] });
    } finally {
      await removeCopy(copy);
    }
  });
});

describe('unittest command', () => {
  const view = { workdir: '/patchproof/repo', resultsDir: '/patchproof/results' };
  const env = {
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONHASHSEED: '0',
    PYTHONNOUSERSITE: '1',
    PYTHONIOENCODING: 'utf-8',
    TZ: 'UTC',
    LANG: 'C.UTF-8'
  };
  const base = ['python3', '-B', `/patchproof/repo/${HARNESS_DIR}/${UNITTEST_HARNESS_FILE}`, '--repo', '/patchproof/repo', '--results', `/patchproof/results/${UNITTEST_RESULTS_FILE}`];

  it('discovers the repository suite from the root when no files are given', () => {
    expect(unittestAdapter.command({ view })).toEqual({ argv: base, env });
  });

  it('discovers staged tests from their folder', () => {
    expect(unittestAdapter.command({ view, files: [`${ROOT}/test_a.py`], testRoot: ROOT })).toEqual({
      argv: [...base, '--start', `/patchproof/repo/${ROOT}`, '--top', `/patchproof/repo/${ROOT}`],
      env
    });
  });

  it('refuses files discovery would silently leave out, and a missing or escaping folder', () => {
    expect(() => unittestAdapter.command({ view, files: [`${ROOT}/check_a.py`], testRoot: ROOT })).toThrow(
      `unittest discovers test*.py modules only; would not run: ${ROOT}/check_a.py`
    );
    expect(() => unittestAdapter.command({ view, files: [`${ROOT}/test_a.py`] })).toThrow(ConfigurationError);
    expect(() => unittestAdapter.command({ view, files: ['test_a.py'], testRoot: '../elsewhere' })).toThrow(ConfigurationError);
    expect(() => unittestAdapter.command({ view, files: [], testRoot: ROOT })).toThrow(ConfigurationError);
  });

  it('stages a harness whose name discovery does not match', () => {
    expect(Object.keys(unittestAdapter.harness)).toEqual([UNITTEST_HARNESS_FILE]);
    expect(isUnittestFile(UNITTEST_HARNESS_FILE)).toBe(false);
  });
});

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
