import { existsSync } from 'node:fs';
import path from 'node:path';
import { HARNESS_DIR } from '../../src/adapters/adapter.js';
import { canaryNames, canaryRunOrder } from '../../src/adapters/shared/canary.js';
import { unittestAdapter } from '../../src/adapters/unittest/index.js';
import { isUnittestFile } from '../../src/adapters/shared/unittest-files.js';
import { UNITTEST_HARNESS_FILE } from '../../src/adapters/unittest/harness.js';
import { UNITTEST_RESULTS_FILE, unittestCanaryIds } from '../../src/adapters/unittest/results.js';
import { countTests } from '../../src/core/test-results.js';
import type { TestCaseResult } from '../../src/core/test-results.js';
import { ConfigurationError } from '../../src/errors.js';
import { freshCanary, listFiles, removeCopy, runAdapter, stageCopy } from './data/run-adapter.js';
import type { AdapterRun, StagedCopy } from './data/run-adapter.js';

const ROOT = '.patchproof/reproduction';
const CASES = `${ROOT}/test_cases.py`;
const REPRODUCTION = ['test_cases.py', 'test_module_fixture.py', 'test_missing_import.py', 'test_syntax.py', 'helpers.py'];

/** Stages python-project with reproduction files and runs the test modules among them. */
async function runReproduction(files: string[]): Promise<{ copy: StagedCopy; run: AdapterRun }> {
  const copy = await stageCopy(unittestAdapter, 'python-project', { from: 'python-reproduction', files, placement: ROOT });
  const tests = files.filter(isUnittestFile).map((file) => `${ROOT}/${file}`);
  const run = await runAdapter(unittestAdapter, copy, { files: tests, suite: false, testRoots: [ROOT] });
  return { copy, run };
}

/** Runs one test folder of python-sabotage as external tests. */
async function runSabotage(folder: string): Promise<{ copy: StagedCopy; run: AdapterRun }> {
  const copy = await stageCopy(unittestAdapter, 'python-sabotage');
  const files = (await listFiles(copy)).filter((file) => file.startsWith(`${folder}/`) && isUnittestFile(file));
  const run = await runAdapter(unittestAdapter, copy, { files, suite: false, testRoots: [folder] });
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
    expect(tests.get('test_cases.CasesTest.test_code_raises')?.message).toBe("TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'");
    expect(tests.get('test_cases.CasesTest.test_subtests')?.message).toBe("(b=0): TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'");
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

  it("reconciles with unittest's own tallies (subtests folded into their test), canaries left out", () => {
    expect(run.parsed.claimed).toEqual(countTests(run.parsed.tests));
    expect(countTests(run.parsed.tests)).toEqual({ passed: 1, failed: 3, errored: 9, skipped: 2 });
    // unittest's own summary counts the must-fail canary: one failure more.
    expect(run.output).toContain('FAILED (failures=4, errors=9, skipped=1, expected failures=1, unexpected successes=1)');
  });

  it('runs the canaries last, as designed on an honest run, and keeps them out of the tests', () => {
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    const { pass, fail } = canaryNames(run.canaryPlan);
    const names = [pass, fail];
    expect(run.parsed.tests.filter((test) => names.some((name) => test.id.includes(name)))).toEqual([]);
    // In the order canary.ts decides, which the Python harness mirrors, read from the results
    // channel's frames on stdout (unittest's verbose lines on stderr interleave with them). Whether
    // they come last is not asserted: module-level error frames can be written after them.
    const ran = [...run.stdout.matchAll(/^@@patchproof-frame \S+ test \{"id": "([^"]+)"/gm)].map((match) => match[1]?.split('.').pop() ?? '');
    const canaryLines = ran.filter((name) => names.includes(name));
    expect(canaryLines).toEqual(canaryRunOrder(run.canaryPlan));
  });
});

describe('unittest adapter problems with the results', () => {
  let copy: StagedCopy | undefined;
  let run: AdapterRun;
  let text: string;

  beforeAll(async () => {
    ({ copy, run } = await runReproduction(['test_cases.py']));
    text = run.files[UNITTEST_RESULTS_FILE] ?? '';
  });
  afterAll(async () => {
    await removeCopy(copy);
  });

  const parse = (results: Record<string, string>, exitCode: number | null = 1) =>
    unittestAdapter.parse({ files: results, exitCode, workdir: copy?.workdir ?? '', testRoots: [ROOT], canary: run.canaryPlan });

  it('fails closed when the results file is missing, canaries missing too', () => {
    expect(parse({})).toEqual({
      tests: [],
      problems: [`${UNITTEST_RESULTS_FILE} is missing: the unittest harness wrote no results`],
      canary: { pass: 'missing', fail: 'missing' }
    });
  });

  it('fails closed on truncated JSON', () => {
    expect(parse({ [UNITTEST_RESULTS_FILE]: text.slice(0, -10) }).problems).toEqual([`${UNITTEST_RESULTS_FILE} is not valid JSON (truncated or corrupted)`]);
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
    expect(parse({ [UNITTEST_RESULTS_FILE]: JSON.stringify(document) }).problems).toEqual([`duplicate test id '${(document.tests[0] as { id: string }).id}'`]);
  });

  it('notices an exit code that contradicts the results', () => {
    expect(parse({ [UNITTEST_RESULTS_FILE]: text }, 0).problems).toEqual(['the unittest harness exited 0; its results imply exit code 1']);
  });

  it('reports a discovery failure as a problem, with no tests', async () => {
    const broken = await stageCopy(unittestAdapter, 'python-project');
    try {
      const failed = await runAdapter(unittestAdapter, broken, { files: [`${ROOT}/test_x.py`], suite: false, testRoots: [ROOT] });
      expect(failed.exitCode).toBe(2);
      expect(failed.parsed.tests).toEqual([]);
      expect(failed.parsed.problems).toEqual([expect.stringMatching(/^unittest harness: discovery failed: /)]);
      expect(failed.parsed.canary).toEqual({ pass: 'missing', fail: 'missing' });
    } finally {
      await removeCopy(broken);
    }
  });
});

/** What lenient.py replaces, as the tripwire names it. */
const CHANGED_ASSERTIONS = ['unittest.TestCase.assertTrue replaced', 'unittest.TestCase.assertEqual replaced'];

describe('unittest grader canaries against code that fights the grader', () => {
  it('sees code under test that turns assertEqual/assertTrue into no-ops at import: the must-fail canary passes, the tripwire names both', async () => {
    const { copy, run } = await runSabotage('assertions');
    try {
      // The must-pass canary fails on the tripwire: exit 1.
      expect(run.exitCode).toBe(1);
      expect(run.parsed.tests).toEqual([{ id: 'test_add.AddTest.test_adds', status: 'passed', location: 'assertions/test_add.py:7' }]);
      expect(run.parsed.problems).toEqual([]);
      expect(run.parsed.canary).toEqual({ pass: 'failed', fail: 'passed', changed: CHANGED_ASSERTIONS });
    } finally {
      await removeCopy(copy);
    }
  });

  it("is not fooled by a TestResult.addFailure that reports a success; unittest's own tallies are", async () => {
    const { copy, run } = await runSabotage('results');
    try {
      expect(run.parsed.tests).toEqual([
        { id: 'test_add.AddTest.test_adds', status: 'failed', failure_kind: 'assertion', message: 'AssertionError: 0 != 4', location: 'results/test_add.py:7' }
      ]);
      // The tripwire names the replaced method too.
      expect(run.parsed.canary).toEqual({ pass: 'failed', fail: 'failed', changed: ['unittest.TestResult.addFailure replaced'] });
      // The claim no longer reconciles with the tests read: the lead's reconciliation catches it.
      expect(run.parsed.claimed).toEqual({ passed: 1, failed: 0, errored: 0, skipped: 0 });
    } finally {
      await removeCopy(copy);
    }
  });

  it('loses the canaries (and every result) when code under test calls os._exit(0) at import', async () => {
    const { copy, run } = await runSabotage('exits');
    try {
      expect(run.exitCode).toBe(0);
      expect(run.parsed).toEqual({
        tests: [],
        problems: [`${UNITTEST_RESULTS_FILE} is missing: the unittest harness wrote no results`],
        canary: { pass: 'missing', fail: 'missing' }
      });
    } finally {
      await removeCopy(copy);
    }
  });

  it('keeps the canaries when a module raises SystemExit at import: unittest reports a load failure', async () => {
    const { copy, run } = await runSabotage('leaves');
    try {
      expect(run.exitCode).toBe(1);
      expect(run.parsed.tests).toEqual([{ id: 'test_leave', status: 'errored', failure_kind: 'collection_error', message: 'SystemExit: 0', location: 'leave.py:4' }]);
      expect(run.parsed.problems).toEqual([]);
      expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    } finally {
      await removeCopy(copy);
    }
  });
});

describe('unittest adapter regression run (the repository suite)', () => {
  it('discovers the repository suite from its root, never the staged harness or external tests', async () => {
    const copy = await stageCopy(unittestAdapter, 'python-project', { from: 'python-reproduction', files: REPRODUCTION, placement: ROOT });
    try {
      const files = unittestAdapter.suiteFiles(await listFiles(copy));
      expect(files).toEqual(['tests/test_calculator.py']);
      const run = await runAdapter(unittestAdapter, copy, { files, suite: true, testRoots: [] });
      // The must-fail canary alone makes an honest run exit 1.
      expect(run.exitCode).toBe(1);
      expect(run.parsed).toEqual({
        tests: [
          { id: 'tests.test_calculator.DivideTest.test_divides', status: 'passed', location: 'tests/test_calculator.py:7' },
          { id: 'tests.test_calculator.DivideTest.test_mean', status: 'passed', location: 'tests/test_calculator.py:10' }
        ],
        claimed: { passed: 2, failed: 0, errored: 0, skipped: 0 },
        problems: [],
        canary: { pass: 'passed', fail: 'failed' }
      });
    } finally {
      await removeCopy(copy);
    }
  });

  it.each(['0', 'f'])('runs the canaries in the order canary.ts gives for a nonce ending in %s', async (digit) => {
    const copy = await stageCopy(unittestAdapter, 'python-project');
    try {
      const canary = { nonce: `${freshCanary().nonce.slice(0, -1)}${digit}` };
      const run = await runAdapter(unittestAdapter, copy, { files: ['tests/test_calculator.py'], suite: true, testRoots: [] }, canary);
      // The order is read from the results channel's frames, which the harness writes to stdout one
      // test at a time as each ends; unittest's own verbose lines go to stderr and interleave with
      // them unpredictably, so they cannot tell the order. Where the canaries stand among the real
      // tests is not fixed (discovery order follows the copy): only their order among themselves is.
      const ran = [...run.stdout.matchAll(/^@@patchproof-frame \S+ test \{"id": "patchproof\.Checks\.([^"]+)"/gm)].map((match) => match[1]);
      const order = canaryRunOrder(canary);
      expect(ran).toEqual(order);
      expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    } finally {
      await removeCopy(copy);
    }
  });

  it('runs the canaries even when discovery finds no test', async () => {
    const copy = await stageCopy(unittestAdapter, 'python-project', { from: 'python-reproduction', files: ['helpers.py'], placement: ROOT });
    try {
      const run = await runAdapter(unittestAdapter, copy, { files: [`${ROOT}/test_none.py`], suite: false, testRoots: [ROOT] });
      expect(run.exitCode).toBe(1);
      expect(run.parsed).toEqual({
        tests: [],
        claimed: { passed: 0, failed: 0, errored: 0, skipped: 0 },
        problems: [],
        canary: { pass: 'passed', fail: 'failed' }
      });
    } finally {
      await removeCopy(copy);
    }
  });
});

describe('unittest command', () => {
  const view = { workdir: '/patchproof/repo', resultsDir: '/patchproof/results' };
  const canary = { nonce: '0123456789abcdeffedcba9876543210' };
  const env = {
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONHASHSEED: '0',
    PYTHONNOUSERSITE: '1',
    PYTHONIOENCODING: 'utf-8',
    TZ: 'UTC',
    LANG: 'C.UTF-8'
  };
  const base = [
    'python3',
    '-B',
    `/patchproof/repo/${HARNESS_DIR}/${UNITTEST_HARNESS_FILE}`,
    '--repo',
    '/patchproof/repo',
    '--results',
    `/patchproof/results/${UNITTEST_RESULTS_FILE}`,
    '--seed',
    canary.nonce
  ];

  it('discovers the repository suite from the root, whatever files it is told about', () => {
    expect(unittestAdapter.command({ view, files: ['tests/test_a.py'], suite: true, testRoots: [], canary })).toEqual({
      argv: base,
      env,
      stage: {},
      resultFiles: ['unittest.json']
    });
  });

  it('discovers staged tests from their folder', () => {
    expect(unittestAdapter.command({ view, files: [`${ROOT}/test_a.py`], suite: false, testRoots: [ROOT], canary })).toEqual({
      argv: [...base, '--start', `/patchproof/repo/${ROOT}`, '--top', `/patchproof/repo/${ROOT}`],
      env,
      stage: {},
      resultFiles: ['unittest.json']
    });
  });

  it('refuses files discovery would silently leave out, a missing or escaping folder, no files, a bad nonce', () => {
    const external = { view, suite: false, testRoots: [ROOT], canary };
    expect(() => unittestAdapter.command({ ...external, files: [`${ROOT}/check_a.py`] })).toThrow(
      `unittest discovers test*.py modules under '${ROOT}' only; would not run: ${ROOT}/check_a.py`
    );
    expect(() => unittestAdapter.command({ ...external, files: ['elsewhere/test_a.py'] })).toThrow(ConfigurationError);
    expect(() => unittestAdapter.command({ ...external, files: [`${ROOT}/test_a.py`], testRoots: [] })).toThrow(ConfigurationError);
    expect(() => unittestAdapter.command({ ...external, files: ['test_a.py'], testRoots: ['../elsewhere'] })).toThrow(ConfigurationError);
    expect(() => unittestAdapter.command({ ...external, files: [] })).toThrow(ConfigurationError);
    expect(() => unittestAdapter.command({ ...external, suite: true, files: [] })).toThrow(ConfigurationError);
    expect(() => unittestAdapter.command({ ...external, files: [`${ROOT}/test_a.py`], canary: { nonce: 'no' } })).toThrow(ConfigurationError);
  });

  it('stages a harness whose name discovery does not match, and names canaries by the plan', () => {
    expect(Object.keys(unittestAdapter.harness)).toEqual([UNITTEST_HARNESS_FILE]);
    expect(isUnittestFile(UNITTEST_HARNESS_FILE)).toBe(false);
    expect(unittestCanaryIds(canary)).toEqual({ pass: 'patchproof.Checks.c0123456789abcdef', fail: 'patchproof.Checks.cfedcba9876543210' });
  });
});
