import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HARNESS_DIR } from '../../src/adapters/adapter.js';
import { canaryNames, canaryRunOrder } from '../../src/adapters/canary.js';
import { wrappedFile, wrapperPath } from '../../src/adapters/js-runner-wrapper.js';
import { vitestAdapter } from '../../src/adapters/vitest.js';
import { VITEST_CLAIMS_FILE, VITEST_RESULTS_FILE, VITEST_RUNNER_FILE, vitestWrapperSource } from '../../src/adapters/vitest-harness.js';
import { countTests } from '../../src/core/test-results.js';
import { ConfigurationError } from '../../src/errors.js';
import { DATA_DIR, freshCanary, listFiles, removeCopy, runAdapter, stageCopy } from './data/run-adapter.js';
import type { StagedCopy } from './data/run-adapter.js';

/**
 * The vitest adapter: its parser on vitest 3's real output (see data/vitest/README.md), its
 * command, runner script and wrappers, and real runs of vitest installed with `npm ci` from
 * data/vitest/deps.
 */

const DATA = path.join(DATA_DIR, 'vitest');
// The results in data/vitest/results were made in this copy, with this nonce.
const RECORDED = { workdir: '/tmp/patchproof-vitest-data/repo', canary: { nonce: '0123456789abcdeffedcba98765432100123456789abcdeffedcba9876543210' } };

function recordedFiles(name: string): Record<string, string> {
  const dir = path.join(DATA, 'results', name);
  return {
    [VITEST_RESULTS_FILE]: readFileSync(path.join(dir, VITEST_RESULTS_FILE), 'utf8'),
    [VITEST_CLAIMS_FILE]: readFileSync(path.join(dir, VITEST_CLAIMS_FILE), 'utf8')
  };
}

function recorded(name: string, testRoots: string[] = []): ReturnType<typeof vitestAdapter.parse> {
  const exitCode = Number(readFileSync(path.join(DATA, 'results', name, 'exit-code'), 'utf8').trim());
  return vitestAdapter.parse({ files: recordedFiles(name), exitCode, workdir: RECORDED.workdir, testRoots, canary: RECORDED.canary });
}

const CASES = 'test/cases.test.js';

/** What every run of data/vitest/project on the three case files must say, real or recorded. */
function expectCaseOutcomes(parsed: ReturnType<typeof vitestAdapter.parse>): void {
  const tests = new Map(parsed.tests.map((test) => [test.id, test]));
  const outcome = (id: string): [string, string | undefined] => [tests.get(id)?.status ?? 'absent', tests.get(id)?.failure_kind ?? tests.get(id)?.skip_reason];
  expect(parsed.problems).toEqual([]);
  expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
  expect(outcome(`${CASES} > calc > passes`)).toEqual(['passed', undefined]);
  expect(outcome(`${CASES} > calc > assertion`)).toEqual(['failed', 'assertion']);
  expect(outcome(`${CASES} > calc > code raises`)).toEqual(['errored', 'exception_in_code']);
  expect(outcome(`${CASES} > calc > test raises`)).toEqual(['errored', 'exception_in_test']);
  expect(outcome(`${CASES} > calc > skipped`)).toEqual(['skipped', 'skipped']);
  expect(outcome(`${CASES} > calc > skipped if`)).toEqual(['skipped', 'skipped']);
  expect(outcome(`${CASES} > calc > todo`)).toEqual(['skipped', 'todo']);
  expect(outcome(`${CASES} > calc > expected failure`)).toEqual(['skipped', 'expected_failure']);
  expect(outcome(`${CASES} > calc > unexpected success`)).toEqual(['failed', 'assertion']);
  expect(outcome(`${CASES} > calc > divides 9 by 3`)).toEqual(['passed', undefined]);
  expect(outcome(`${CASES} > calc > nested > node assert`)).toEqual(['failed', 'assertion']);
  expect(outcome(`${CASES} > hook before all > never runs`)).toEqual(['errored', 'setup_error']);
  expect(outcome(`${CASES} > hook before each > never runs either`)).toEqual(['errored', 'setup_error']);
  expect(outcome(`${CASES} > configuration > the repository setup file ran`)).toEqual(['passed', undefined]);
  expect(outcome(`${CASES} > hook after all > runs before the teardown`)).toEqual(['passed', undefined]);
  expect(outcome(`${CASES} > hook after all`)).toEqual(['errored', 'setup_error']);
  expect(outcome('test/missing-import.test.js')).toEqual(['errored', 'import_error']);
  expect(outcome('test/syntax.test.js')).toEqual(['errored', 'collection_error']);
  expect(parsed.tests).toHaveLength(19);
  expect(tests.get(`${CASES} > hook before all > never runs`)?.message).toBe('Error: no fixture directory');
  expect(tests.get('test/missing-import.test.js')?.message).toBe("Error: Cannot find module '../src/multiply.js' imported from 'test/missing-import.test.js'");
  const counts = countTests(parsed.tests);
  expect(counts).toEqual({ passed: 5, failed: 3, errored: 7, skipped: 4 });
  expect(parsed.claimed?.passed).toBe(counts.passed);
  expect((parsed.claimed?.failed ?? 0) + (parsed.claimed?.errored ?? 0)).toBe(counts.failed + counts.errored);
}

describe('vitest results parser on recorded vitest 3 output', () => {
  it('reads every test by file, describe path and title, for the right reason', () => {
    expectCaseOutcomes(recorded('cases'));
  });

  it('sees through code under test that makes every expectation pass: the must-fail canary passes', () => {
    const parsed = recorded('sabotage');
    expect(parsed.tests).toEqual([{ id: 'test/calc.test.js > adds', status: 'passed', location: 'test/calc.test.js' }]);
    expect(parsed.canary).toEqual({ pass: 'passed', fail: 'passed' });
  });

  it('refuses .only (CI mode): the focused test errs and the canaries are skipped', () => {
    const parsed = recorded('focused');
    expect(parsed.canary).toEqual({ pass: 'skipped', fail: 'skipped' });
    expect(parsed.tests.map((test) => [test.id, test.status])).toEqual([
      ['test/focused.test.js > focused', 'errored'],
      ['test/focused.test.js > left out by only', 'skipped']
    ]);
    expect(parsed.tests[0]?.message).toMatch(/Unexpected \.only modifier/);
  });

  it('fails closed on missing, malformed or contradicting results', () => {
    const request = { exitCode: 1, workdir: RECORDED.workdir, testRoots: [], canary: RECORDED.canary };
    expect(vitestAdapter.parse({ ...request, files: {} })).toEqual({
      tests: [],
      problems: ['vitest-tasks.json is missing: vitest wrote no results', 'vitest.json is missing: vitest wrote no results'],
      canary: { pass: 'missing', fail: 'missing' }
    });
    const files = recordedFiles('cases');
    expect(vitestAdapter.parse({ ...request, files: { ...files, [VITEST_RESULTS_FILE]: '{"format": 1' } }).problems[0]).toMatch(/^vitest-tasks\.json is not JSON/);
    expect(vitestAdapter.parse({ ...request, files: { ...files, [VITEST_RESULTS_FILE]: '{"format": "other", "files": [], "unhandled": []}' } }).problems[0]).toMatch(
      /^vitest-tasks\.json does not have the expected shape/
    );
    expect(vitestAdapter.parse({ ...request, exitCode: 0, files }).problems).toEqual(['vitest exited 0 although tests failed']);
    // A task tree that lost a failing test no longer agrees with vitest's own tallies.
    const tree = JSON.parse(files[VITEST_RESULTS_FILE] ?? '') as { files: { tasks: unknown[] }[] };
    const cases = tree.files.find((file) => JSON.stringify(file).includes('"calc"'));
    cases?.tasks.shift();
    const parsed = vitestAdapter.parse({ ...request, files: { ...files, [VITEST_RESULTS_FILE]: JSON.stringify(tree) } });
    const counts = countTests(parsed.tests);
    expect(parsed.claimed?.passed).not.toBe(counts.passed);
  });

  it('reports an unhandled error and a file PatchProof did not wrap', () => {
    const files = recordedFiles('sabotage');
    const tree = JSON.parse(files[VITEST_RESULTS_FILE] ?? '') as { files: { file: string }[]; unhandled: unknown[] };
    tree.unhandled.push({ name: 'Error', message: `late failure in ${RECORDED.workdir}/src/calc.js` });
    tree.files.push({ ...(tree.files[0] as { file: string }), file: `${RECORDED.workdir}/test/calc.test.js` });
    const parsed = vitestAdapter.parse({ files: { ...files, [VITEST_RESULTS_FILE]: JSON.stringify(tree) }, exitCode: 0, workdir: RECORDED.workdir, testRoots: [], canary: RECORDED.canary });
    expect(parsed.problems).toEqual([
      `vitest reported a test file PatchProof did not wrap: ${RECORDED.workdir}/test/calc.test.js`,
      'vitest reported an unhandled error: Error: late failure in src/calc.js'
    ]);
  });
});

describe('vitest adapter command, runner script and wrappers, without a run', () => {
  const view = { workdir: '/w', resultsDir: '/r' };

  it('runs the staged runner script on one wrapper per file', () => {
    const canary = freshCanary();
    const command = vitestAdapter.command({ view, files: ['test/a.test.ts', '.patchproof/hidden/b.test.ts'], suite: false, testRoots: ['.patchproof/hidden'], canary });
    expect(command.argv).toEqual([
      'node',
      `/w/${HARNESS_DIR}/${VITEST_RUNNER_FILE}`,
      `/r/${VITEST_RESULTS_FILE}`,
      `/r/${VITEST_CLAIMS_FILE}`,
      '.patchproof/harness/vitest/test/a.test.ts.patchproof.mjs',
      '.patchproof/harness/vitest/.patchproof/hidden/b.test.ts.patchproof.mjs'
    ]);
    expect(Object.keys(command.stage)).toEqual(command.argv.slice(-2));
    expect(command.env).toMatchObject({ CI: 'true', TZ: 'UTC' });
    const script = vitestAdapter.harness[VITEST_RUNNER_FILE] ?? '';
    for (const option of ['include: wrappers', 'exclude: []', "configLoader: 'runner'", 'cache: false', 'allowOnly: false', 'watch: false', 'coverage: { enabled: false }']) {
      expect([option, script.includes(option)]).toEqual([option, true]);
    }
  });

  it('writes a wrapper that imports the file, then declares the canaries in run order', () => {
    const canary = freshCanary();
    const source = vitestWrapperSource('src/x.test.ts', canary, '/**\n * @vitest-environment jsdom\n */\n');
    expect(source.startsWith('/**\n * @vitest-environment jsdom\n */\n')).toBe(true);
    expect(source).toContain('await import("../../../../src/x.test.ts");');
    const [first, second] = canaryRunOrder(canary);
    expect(source.indexOf(`test(${JSON.stringify(first)}`)).toBeLessThan(source.indexOf(`test(${JSON.stringify(second)}`));
    expect(source).toContain(`test(${JSON.stringify(canaryNames(canary).fail)}, () => {\n  const e = globalThis.expect ?? patchproofVitest.expect;\n  const a = patchproofAssert;`);
    expect(source).toContain('  if (held === checks.length) {\n    e(1).toBe(2);\n  }\n});');
    expect(wrappedFile('vitest', wrapperPath('vitest', 'src/x.test.ts'))).toBe('src/x.test.ts');
    expect(wrappedFile('vitest', wrapperPath('jest', 'src/x.test.ts'))).toBeUndefined();
  });

  it('refuses no files, escaping paths and a bad nonce', () => {
    const canary = freshCanary();
    expect(() => vitestAdapter.command({ view, files: [], suite: true, testRoots: [], canary })).toThrow(ConfigurationError);
    expect(() => vitestAdapter.command({ view, files: ['../x.test.ts'], suite: true, testRoots: [], canary })).toThrow(ConfigurationError);
    expect(() => vitestAdapter.command({ view, files: ['x.test.ts'], suite: true, testRoots: [], canary: { nonce: 'abc' } })).toThrow(ConfigurationError);
  });

  it("finds vitest's default test files, outside its default excludes", () => {
    expect(
      vitestAdapter.suiteFiles(['src/a.test.ts', 'src/b.spec.tsx', 'src/__tests__/c.ts', 'dist/d.test.js', 'node_modules/x/e.test.js', '.patchproof/hidden/f.test.ts', '.cache/g.test.ts'])
    ).toEqual(['src/a.test.ts', 'src/b.spec.tsx']);
    expect(vitestAdapter.isTestFile('chunk-repro.test.ts')).toBe(true);
  });

  it('flags vitest-only markers too', () => {
    const marks = (line: string): boolean => vitestAdapter.skipMarkers.some((re) => re.test(line));
    for (const line of ["test.fails('x', () => {", "it.skipIf(process.env.CI)('y'", "describe.runIf(false)('z'", '  ctx.skip();', "test.concurrent.only('w'"]) {
      expect([line, marks(line)]).toEqual([line, true]);
    }
    expect(marks("test('fails loudly', () => {")).toBe(false);
  });
});

// Real runs: vitest 3 installed once per test file from data/vitest/deps with npm ci.
const npmProbe = spawnSync('npm', ['--version'], { encoding: 'utf8' });
const describeWithNpm = npmProbe.status === 0 ? describe : describe.skip;
if (npmProbe.status !== 0) {
  console.warn('SKIPPING the real vitest runs: npm is not runnable here.');
}

describeWithNpm('vitest adapter on real vitest runs', () => {
  let deps: string;
  const copies: StagedCopy[] = [];

  beforeAll(async () => {
    deps = await mkdtemp(path.join(os.tmpdir(), 'patchproof-vitest-deps-'));
    await cp(path.join(DATA, 'deps'), deps, { recursive: true });
    const install = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: deps, encoding: 'utf8', timeout: 280_000 });
    if (install.status !== 0) {
      throw new Error(`npm ci failed: ${install.stderr}`);
    }
  }, 300_000);

  afterAll(async () => {
    for (const copy of copies) {
      await removeCopy(copy);
    }
    await rm(deps, { recursive: true, force: true });
  });

  async function stage(project: string, external?: { from: string; files: readonly string[]; placement: string }): Promise<StagedCopy> {
    const copy = await stageCopy(vitestAdapter, path.join('vitest', project), external);
    copies.push(copy);
    await symlink(path.join(deps, 'node_modules'), path.join(copy.workdir, 'node_modules'));
    return copy;
  }

  it("runs the files through wrappers under the repository's own config, leaving the copy and node_modules as they were", async () => {
    const copy = await stage('project');
    const before = await listFiles(copy);
    const run = await runAdapter(vitestAdapter, copy, { files: [CASES, 'test/syntax.test.js', 'test/missing-import.test.js'], suite: true, testRoots: [] });
    expect(Object.keys(run.files).sort()).toEqual([VITEST_CLAIMS_FILE, VITEST_RESULTS_FILE].sort());
    expect(run.exitCode).toBe(1);
    expectCaseOutcomes(run.parsed);
    const added = (await listFiles(copy)).filter((file) => !before.includes(file));
    expect(added.filter((file) => !file.startsWith('.patchproof/harness/vitest/'))).toEqual([]);
    // vite's config bundle (.vite-temp) and vitest's results cache (.vite) would go into node_modules.
    expect([existsSync(path.join(deps, 'node_modules', '.vite')), existsSync(path.join(deps, 'node_modules', '.vite-temp'))]).toEqual([false, false]);
  }, 120_000);

  it('runs external tests staged in a dot folder, which the repository include does not match', async () => {
    const copy = await stage('project', { from: 'vitest/reproduction', files: ['calc-repro.test.js'], placement: '.patchproof/reproduction' });
    const file = '.patchproof/reproduction/calc-repro.test.js';
    const run = await runAdapter(vitestAdapter, copy, { files: [file], suite: false, testRoots: ['.patchproof/reproduction'] });
    expect(run.parsed.problems).toEqual([]);
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    expect(run.parsed.tests.map((test) => [test.id, test.status, test.failure_kind])).toEqual([
      [`${file} > reproduction > the mean of nothing is zero`, 'failed', 'assertion'],
      [`${file} > reproduction > dividing by zero gives infinity`, 'errored', 'exception_in_code'],
      [`${file} > reproduction > a broken test`, 'errored', 'exception_in_test']
    ]);
  }, 120_000);

  it('catches code under test that makes every expectation pass', async () => {
    const copy = await stage('sabotage');
    const run = await runAdapter(vitestAdapter, copy, { files: ['test/calc.test.js'], suite: true, testRoots: [] });
    expect(run.exitCode).toBe(0);
    expect(run.parsed.tests.map((test) => [test.id, test.status])).toEqual([['test/calc.test.js > adds', 'passed']]);
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'passed' });
  }, 120_000);
});
