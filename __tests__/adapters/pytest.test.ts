import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HARNESS_DIR } from '../../src/adapters/adapter.js';
import { canaryNames, canaryRunOrder } from '../../src/adapters/shared/canary.js';
import { pytestAdapter } from '../../src/adapters/pytest/index.js';
import { PYTEST_RESULTS_FILE, pytestCanaryIds } from '../../src/adapters/pytest/results.js';
import { countTests } from '../../src/core/test-results.js';
import type { TestCaseResult } from '../../src/core/test-results.js';
import { judgeRegression, type RunEvidence } from '../../src/core/verdict.js';
import { ConfigurationError } from '../../src/errors.js';
import { freshCanary, listFiles, removeCopy, runAdapter, stageCopy } from './data/run-adapter.js';
import type { AdapterRun, StagedCopy } from './data/run-adapter.js';

// The adapter runs `python3`; Debian's python3 (with python3-pytest) is in /usr/bin, which may be
// shadowed by another python3 without pytest (pyenv), so /usr/bin goes first for these runs.
const ORIGINAL_PATH = process.env.PATH ?? '';
const TEST_PATH = `/usr/bin:${ORIGINAL_PATH}`;
const probe = spawnSync('python3', ['-m', 'pytest', '--version'], { env: { ...process.env, PATH: TEST_PATH }, encoding: 'utf8' });
const PYTEST_MISSING = probe.status === 0 ? undefined : `python3 -m pytest is not runnable here (${(probe.stderr || String(probe.error)).trim()})`;
if (PYTEST_MISSING !== undefined) {
  console.warn(`SKIPPING the real pytest runs: ${PYTEST_MISSING}. Install python3-pytest to run them.`);
}
const describeWithPytest = PYTEST_MISSING === undefined ? describe : describe.skip;

beforeAll(() => {
  process.env.PATH = TEST_PATH;
});
afterAll(() => {
  process.env.PATH = ORIGINAL_PATH;
});

const CASES = 'tests/test_cases.py';

async function runSuite(project: string): Promise<{ copy: StagedCopy; run: AdapterRun }> {
  const copy = await stageCopy(pytestAdapter, project);
  const files = pytestAdapter.suiteFiles(await listFiles(copy));
  const run = await runAdapter(pytestAdapter, copy, { files, suite: true, testRoots: [] });
  return { copy, run };
}

describeWithPytest('pytest adapter on a real pytest run', () => {
  let copy: StagedCopy | undefined;
  let run: AdapterRun;
  let tests: Map<string, TestCaseResult>;

  beforeAll(async () => {
    ({ copy, run } = await runSuite('pytest-project'));
    tests = new Map(run.parsed.tests.map((test) => [test.id, test]));
  });
  afterAll(async () => {
    await removeCopy(copy);
  });

  it('writes its results only as JUnit XML in the results folder, leaving no bytecode or cache', () => {
    expect(Object.keys(run.files)).toEqual([PYTEST_RESULTS_FILE]);
    expect(run.exitCode).toBe(1);
    expect(run.parsed.problems).toEqual([]);
    for (const folder of ['', 'tests', HARNESS_DIR, '.pytest_cache']) {
      expect(existsSync(path.join(copy?.workdir ?? '', folder, '__pycache__'))).toBe(false);
    }
    expect(existsSync(path.join(copy?.workdir ?? '', '.pytest_cache'))).toBe(false);
  });

  it('reads every test by its pytest node id; collection failures by file', () => {
    expect([...tests.keys()].sort()).toEqual(
      [
        `${CASES}::test_passes`,
        `${CASES}::test_assertion`,
        `${CASES}::test_code_raises`,
        `${CASES}::test_test_raises`,
        `${CASES}::test_fixture_fails`,
        `${CASES}::test_skipped`,
        `${CASES}::test_expected_failure`,
        `${CASES}::test_unexpected_success`,
        `${CASES}::test_pytest_fail`,
        `${CASES}::TestGrouped::test_in_class`,
        'tests/test_missing_import.py',
        'tests/test_syntax.py'
      ].sort()
    );
  });

  it('classifies how each test ended, for the right reason', () => {
    const outcome = (id: string): [string, string | undefined] => [tests.get(id)?.status ?? 'absent', tests.get(id)?.failure_kind];
    expect(outcome(`${CASES}::test_passes`)).toEqual(['passed', undefined]);
    expect(outcome(`${CASES}::TestGrouped::test_in_class`)).toEqual(['passed', undefined]);
    expect(outcome(`${CASES}::test_assertion`)).toEqual(['failed', 'assertion']);
    expect(outcome(`${CASES}::test_code_raises`)).toEqual(['errored', 'exception_in_code']);
    expect(outcome(`${CASES}::test_test_raises`)).toEqual(['errored', 'exception_in_test']);
    expect(outcome(`${CASES}::test_fixture_fails`)).toEqual(['errored', 'setup_error']);
    expect(outcome(`${CASES}::test_unexpected_success`)).toEqual(['failed', 'assertion']);
    expect(outcome(`${CASES}::test_pytest_fail`)).toEqual(['failed', 'assertion']);
    expect(outcome('tests/test_missing_import.py')).toEqual(['errored', 'import_error']);
    expect(outcome('tests/test_syntax.py')).toEqual(['errored', 'collection_error']);
  });

  it('treats skips and xfails as skipped, with the reason', () => {
    expect(tests.get(`${CASES}::test_skipped`)).toMatchObject({ status: 'skipped', skip_reason: 'not today' });
    expect(tests.get(`${CASES}::test_expected_failure`)).toMatchObject({ status: 'skipped', skip_reason: 'expected_failure' });
  });

  it('gives messages from the real exception, and 1-based locations', () => {
    expect(tests.get(`${CASES}::test_assertion`)?.message).toBe('assert 2.0 == 3');
    expect(tests.get(`${CASES}::test_code_raises`)?.message).toBe('ZeroDivisionError: division by zero');
    expect(tests.get(`${CASES}::test_fixture_fails`)?.message).toBe('failed on setup with "OSError: no fixtures directory"');
    expect(tests.get('tests/test_missing_import.py')?.message).toMatch(/^ImportError: cannot import name 'multiply' from 'calc' \(calc\.py\)$/);
    expect(tests.get('tests/test_syntax.py')?.message).toBe('SyntaxError: invalid syntax');
    expect(tests.get(`${CASES}::test_passes`)?.location).toBe(`${CASES}:11`);
  });

  it("reconciles with pytest's own tallies, canaries left out", () => {
    const counts = countTests(run.parsed.tests);
    expect(counts).toEqual({ passed: 2, failed: 3, errored: 5, skipped: 2 });
    expect(run.parsed.claimed?.passed).toBe(counts.passed);
    expect((run.parsed.claimed?.failed ?? 0) + (run.parsed.claimed?.errored ?? 0)).toBe(counts.failed + counts.errored);
    // pytest's own summary counts the must-fail canary and passing canary: one more each.
    expect(run.output).toContain('6 failed, 3 passed, 1 skipped, 1 xfailed, 3 errors');
  });

  it('runs the canaries last, in the order canary.ts decides, and keeps them out of the tests', () => {
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    const { pass, fail } = canaryNames(run.canaryPlan);
    const names = [pass, fail];
    expect(run.parsed.tests.filter((test) => names.some((name) => test.id.includes(name)))).toEqual([]);
    const order = canaryRunOrder(run.canaryPlan).map((name) => run.files[PYTEST_RESULTS_FILE]?.indexOf(`name="${name}"`) ?? -1);
    const lastCase = run.files[PYTEST_RESULTS_FILE]?.lastIndexOf('<testcase ') ?? -1;
    expect(order[0]).toBeGreaterThan(0);
    expect(order[1]).toBeGreaterThan(order[0] ?? Infinity);
    expect(lastCase).toBeLessThan(order[1] ?? -1);
  });
});

describeWithPytest('pytest adapter against a conftest.py that rewrites every outcome to passed', () => {
  let copy: StagedCopy | undefined;
  let run: AdapterRun;

  beforeAll(async () => {
    ({ copy, run } = await runSuite('pytest-sabotage'));
  });
  afterAll(async () => {
    await removeCopy(copy);
  });

  it('is fooled on the tests, as pytest itself is, but the must-fail canary shows the lie', () => {
    expect(run.exitCode).toBe(0);
    expect(run.parsed.tests).toEqual([{ id: 'test_calc.py::test_add', status: 'passed', location: 'test_calc.py:4' }]);
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'passed' });
  });
});

describeWithPytest('pytest adapter on staged external tests', () => {
  let copy: StagedCopy | undefined;
  afterAll(async () => {
    await removeCopy(copy);
  });

  it('runs only the given files and judges test-root frames as test code', async () => {
    copy = await stageCopy(pytestAdapter, 'pytest-project');
    const run = await runAdapter(pytestAdapter, copy, { files: [CASES], suite: false, testRoots: ['tests'] });
    expect(run.parsed.problems).toEqual([]);
    expect(run.parsed.tests.map((test) => test.id)).not.toContain('tests/test_syntax.py');
    expect(run.parsed.tests.find((test) => test.id === `${CASES}::test_test_raises`)?.failure_kind).toBe('exception_in_test');
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
  });
});

describe('pytest adapter command and parse, without a run', () => {
  const view = { workdir: '/w', resultsDir: '/r' };

  it('builds python3 -m pytest with the canary plugin, JUnit XML and the files', () => {
    const canary = freshCanary();
    const command = pytestAdapter.command({ view, files: [CASES], suite: true, testRoots: [], canary });
    expect(command.argv.slice(0, 4)).toEqual(['python3', '-B', '-m', 'pytest']);
    expect(command.argv).toEqual(expect.arrayContaining(['-p', 'patchproof_canary', '--junitxml=/r/pytest.xml', 'junit_family=xunit1', '--rootdir=/w']));
    expect(command.argv.slice(-2)).toEqual(['--', `/w/${CASES}`]);
    expect(command.env.PYTHONPATH).toBe(`/w/${HARNESS_DIR}`);
    const names = canaryNames(canary);
    const order = canaryRunOrder(canary).map((name) => `${name}=${name === names.pass ? 'pass' : 'fail'}`);
    expect(command.env.PATCHPROOF_CANARY_ORDER).toBe(order.join(','));
  });

  it('refuses no files, escaping paths and a bad nonce', () => {
    const canary = freshCanary();
    expect(() => pytestAdapter.command({ view, files: [], suite: true, testRoots: [], canary })).toThrow(ConfigurationError);
    expect(() => pytestAdapter.command({ view, files: ['../x_test.py'], suite: true, testRoots: [], canary })).toThrow(ConfigurationError);
    expect(() => pytestAdapter.command({ view, files: [CASES], suite: true, testRoots: [], canary: { nonce: 'abc' } })).toThrow(ConfigurationError);
  });

  it('fails closed on missing or malformed results', () => {
    const canary = freshCanary();
    const missing = pytestAdapter.parse({ files: {}, exitCode: 0, workdir: '/w', testRoots: [], canary });
    expect(missing.problems).toEqual(['pytest.xml is missing: pytest wrote no JUnit XML']);
    expect(missing.canary).toEqual({ pass: 'missing', fail: 'missing' });
    const broken = pytestAdapter.parse({ files: { 'pytest.xml': '<testsuites><testsuite' }, exitCode: 1, workdir: '/w', testRoots: [], canary });
    expect(broken.tests).toEqual([]);
    expect(broken.problems).toHaveLength(1);
  });

  it('reports an exit code that contradicts the results', () => {
    const canary = freshCanary();
    const ids = pytestCanaryIds(canary);
    const file = `${HARNESS_DIR}/patchproof_canary.py`;
    const xml =
      '<testsuites><testsuite tests="2" failures="1" errors="0" skipped="0">' +
      `<testcase classname=".patchproof.harness.patchproof_canary" name="${ids.pass.split('::')[1] ?? ''}" file="${file}" line="1"/>` +
      `<testcase classname=".patchproof.harness.patchproof_canary" name="${ids.fail.split('::')[1] ?? ''}" file="${file}" line="1"><failure message="AssertionError">x</failure></testcase>` +
      '</testsuite></testsuites>';
    const parsed = pytestAdapter.parse({ files: { 'pytest.xml': xml }, exitCode: 0, workdir: '/w', testRoots: [], canary });
    expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    expect(parsed.problems).toEqual(['pytest exited 0; its results imply exit code 1']);
    expect(parsed.claimed).toEqual({ passed: 0, failed: 0, errored: 0, skipped: 0 });
  });
});

describeWithPytest('pytest adapter on parametrised tests with duplicate ids', () => {
  let copy: StagedCopy | undefined;
  afterAll(async () => {
    await removeCopy(copy);
  });

  it('gives every copy an id of its own, stable between runs, and a regression in any copy counts', async () => {
    let base: AdapterRun;
    ({ copy, run: base } = await runSuite('pytest-duplicates'));
    const tests = { files: pytestAdapter.suiteFiles(await listFiles(copy)), suite: true, testRoots: [] };
    const ids = base.parsed.tests.map((test) => test.id);
    expect({ problems: base.parsed.problems, statuses: base.parsed.tests.map((test) => test.status) }).toEqual({ problems: [], statuses: Array(6).fill('passed') });
    expect(new Set(ids).size).toBe(6);
    expect(ids.filter((id) => id.startsWith('tests/test_duplicates.py::test_divides['))).toHaveLength(3);
    expect((await runAdapter(pytestAdapter, copy, tests)).parsed.tests.map((test) => test.id)).toEqual(ids);
    await writeFile(path.join(copy.workdir, 'calc.py'), 'def divide(a, b):\n    return 2 if a == 9 else a / b\n');
    const after = await runAdapter(pytestAdapter, copy, tests);
    const evidence = (label: 'regression_before' | 'regression_after', run: AdapterRun): RunEvidence => ({
      label,
      attempt: 1,
      exitCode: run.exitCode,
      timedOut: false,
      outputTruncated: false,
      parsed: run.parsed,
      canary: run.parsed.canary
    });
    const phase = judgeRegression(evidence('regression_before', base), [evidence('regression_after', after)]);
    expect(phase).toMatchObject({ status: 'failed', reasons: ['regression'] });
    expect(phase.regressions).toHaveLength(1);
    expect(phase.regressions?.[0]).toMatch(/^tests\/test_duplicates\.py::test_divides\[same2?\]$/);
  });
});

describeWithPytest('pytest plugin: staged tests are their staged files own', () => {
  let copy: StagedCopy | undefined;
  afterAll(async () => {
    await removeCopy(copy);
  });

  it('fails every staged test whose function the code under test replaced, whatever it reported', async () => {
    copy = await stageCopy(pytestAdapter, 'pytest-project');
    // The code under test, imported by the staged module, makes pytest collect its own passing
    // function in place of each test function of that module.
    await writeFile(
      path.join(copy.workdir, 'calc.py'),
      [
        'def div(a, b):',
        '    return a // b',
        '',
        'import _pytest.python as _pp',
        '_orig = _pp.Function._getobj',
        'def _passes(*args, **kwargs):',
        '    pass',
        'def _getobj(self):',
        '    return _passes if self.originalname.startswith("test_") else _orig(self)',
        '_pp.Function._getobj = _getobj',
        ''
      ].join('\n')
    );
    const run = await runAdapter(pytestAdapter, copy, { files: [CASES], suite: false, testRoots: ['tests'] });
    // (junitxml files a test under its function's file: the forged ones read as calc.py's.)
    const assertion = run.parsed.tests.find((test) => test.id.endsWith('::test_assertion'));
    expect(assertion?.status).toBe('errored');
    expect(assertion?.message).toMatch(/ForeignTest: test tests\/test_cases\.py::test_assertion is defined in calc\.py, not in a staged file/);
    // Every test the module declares ran as the forged function: none passes.
    expect(run.parsed.tests.length).toBeGreaterThan(5);
    expect(run.parsed.tests.filter((test) => test.status === 'passed')).toEqual([]);
    // The suite is not checked (a suite's tests may come from shared base classes): the same forgery passes there.
    const suite = await runAdapter(pytestAdapter, copy, { files: [CASES], suite: true, testRoots: [] });
    expect(suite.parsed.tests.find((test) => test.id.endsWith('::test_assertion'))?.status).toBe('passed');
  });

  // The forgery that got past the `__file__`/`co_filename` check (fixtures/hostile/py-pytest-forge-staged-module.diff).
  const FORGE_IMPORTER = [
    'def _forge():',
    '    import ast, os, sys, types',
    '    frame = sys._getframe(1)',
    '    while frame is not None:',
    '        where, name = frame.f_globals.get("__file__") or "", frame.f_globals.get("__name__") or ""',
    '        if frame.f_code.co_name == "<module>" and os.path.basename(where).startswith("test_") and name in sys.modules:',
    '            break',
    '        frame = frame.f_back',
    '    if frame is None:',
    '        return',
    '    tree = ast.parse(open(where).read(), where)',
    '    for node in ast.walk(tree):',
    '        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):',
    '            node.body = [ast.copy_location(ast.Pass(), node.body[0])]',
    '    forged = types.ModuleType(name)',
    '    forged.__file__ = where',
    '    exec(compile(tree, where, "exec"), forged.__dict__)',
    '    SWAP(name, forged)',
    ''
  ];

  it("refuses a forged module planted in sys.modules under the staged module's name (its __file__ and co_filename the staged file's)", async () => {
    const calc = ['def div(a, b):', '    return a // b', '', ...FORGE_IMPORTER, 'def SWAP(name, forged):', '    import sys', '    sys.modules[name] = forged', '', '_forge()', ''];
    await writeFile(path.join(copy!.workdir, 'calc.py'), calc.join('\n'));
    const run = await runAdapter(pytestAdapter, copy!, { files: [CASES], suite: false, testRoots: ['tests'] });
    expect(run.parsed.tests.filter((test) => test.status === 'passed')).toEqual([]);
    expect(run.parsed.tests.map((test) => [test.id, test.status, test.message])).toContainEqual([
      CASES,
      'errored',
      'ForeignTest: staged test module test_cases.py was replaced while it was imported'
    ]);
  });

  it('refuses the same forgery when the staged file sits in a package (an __init__.py beside it)', async () => {
    const calc = ['def div(a, b):', '    return a // b', '', ...FORGE_IMPORTER, 'def SWAP(name, forged):', '    import sys', '    sys.modules[name] = forged', '', '_forge()', ''];
    await writeFile(path.join(copy!.workdir, 'calc.py'), calc.join('\n'));
    const init = path.join(copy!.workdir, path.dirname(CASES), '__init__.py');
    await writeFile(init, '');
    try {
      const run = await runAdapter(pytestAdapter, copy!, { files: [CASES], suite: false, testRoots: ['tests'] });
      expect(run.parsed.tests.filter((test) => test.status === 'passed')).toEqual([]);
      expect(run.parsed.tests.map((test) => [test.id, test.status, test.message])).toContainEqual([
        CASES,
        'errored',
        'ForeignTest: staged test module test_cases.py was replaced while it was imported'
      ]);
    } finally {
      await rm(init, { force: true });
    }
  });

  it('a staged file in a package still imports its siblings relatively, and its tests are its own', async () => {
    await writeFile(path.join(copy!.workdir, 'calc.py'), 'def div(a, b):\n    return a // b\n');
    const dir = path.join(copy!.workdir, path.dirname(CASES));
    const made = ['__init__.py', 'relhelper.py', 'test_rel.py'].map((name) => path.join(dir, name));
    await writeFile(made[0]!, '');
    await writeFile(made[1]!, 'VALUE = 3\n');
    await writeFile(
      made[2]!,
      'from .relhelper import VALUE\nfrom calc import div\n\ndef test_rel():\n    assert div(7, 2) == VALUE\n\ndef test_rel_fails():\n    assert div(7, 2) == VALUE + 1\n'
    );
    try {
      const rel = path.join(path.dirname(CASES), 'test_rel.py');
      const run = await runAdapter(pytestAdapter, copy!, { files: [rel], suite: false, testRoots: ['tests'] });
      expect(run.parsed.tests.map((test) => [test.id, test.status])).toEqual([
        [`${rel}::test_rel`, 'passed'],
        [`${rel}::test_rel_fails`, 'failed']
      ]);
    } finally {
      await Promise.all(made.map((file) => rm(file, { force: true })));
    }
  });

  it('fails a test whose function names the staged file but runs in another namespace', async () => {
    // The plugin's module object is kept; its test functions are swapped, once its code ran, for
    // the forged module's (compiled under the staged file's name), through pytest's collector.
    const calc = [
      'def div(a, b):',
      '    return a // b',
      '',
      ...FORGE_IMPORTER,
      'def SWAP(name, forged):',
      '    import _pytest.python as pp',
      '    original = pp.Function._getobj',
      '    def _getobj(self):',
      '        real = original(self)',
      '        return getattr(forged, self.originalname, real) if self.originalname.startswith("test_") else real',
      '    pp.Function._getobj = _getobj',
      '',
      '_forge()',
      ''
    ];
    await writeFile(path.join(copy!.workdir, 'calc.py'), calc.join('\n'));
    const run = await runAdapter(pytestAdapter, copy!, { files: [CASES], suite: false, testRoots: ['tests'] });
    const assertion = run.parsed.tests.find((test) => test.id.endsWith('::test_assertion'));
    expect([assertion?.status, assertion?.message]).toEqual([
      'errored',
      expect.stringMatching(/ForeignTest: test tests\/test_cases\.py::test_assertion was not defined by its staged file's module/)
    ]);
    expect(run.parsed.tests.filter((test) => test.status === 'passed' && test.id.startsWith(`${CASES}::test_`))).toEqual([]);
  });
});

describeWithPytest("pytest adapter on unittest tests inherited into other modules (as tornado's httpclient_test.py)", () => {
  let copy: StagedCopy | undefined;
  afterAll(async () => {
    await removeCopy(copy);
  });

  it('gives each inheriting class its own ids, and the results channel agrees with them', async () => {
    copy = await stageCopy(pytestAdapter, 'pytest-inherited');
    const run = await runAdapter(pytestAdapter, copy, { files: pytestAdapter.suiteFiles(await listFiles(copy)), suite: true, testRoots: [] });
    // Before: both inheriting classes' tests were named by the defining file alone, 'duplicate test id'.
    expect(run.parsed.problems).toEqual([]);
    const outcomes = Object.fromEntries(run.parsed.tests.map((test) => [test.id, test.status]));
    expect(outcomes).toEqual({
      'tests/test_common.py::CommonCase::test_shared': 'passed',
      'tests/test_common.py::CommonCase::test_fails_for_two': 'passed',
      'tests.test_one.OneCase::test_shared': 'passed',
      'tests.test_one.OneCase::test_fails_for_two': 'passed',
      'tests.test_two.TwoCase::test_shared': 'passed',
      'tests.test_two.TwoCase::test_fails_for_two': 'failed'
    });
    // The harness frames each test under the same id (src/adapters/pytest/harness.ts, _junit_id).
    const withStream = pytestAdapter.parse({ files: run.files, exitCode: run.exitCode, workdir: copy.workdir, testRoots: [], canary: run.canaryPlan, output: run.output });
    expect(withStream.channel?.disagreements).toEqual([]);
  }, 120_000);
});
