import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HARNESS_DIR } from '../../src/adapters/adapter.js';
import { canaryNames } from '../../src/adapters/shared/canary.js';
import { wrappedFile, wrapperPath } from '../../src/adapters/shared/js-runner-wrapper.js';
import { vitestAdapter } from '../../src/adapters/vitest/index.js';
import { VITEST_CLAIMS_FILE, VITEST_RESULTS_FILE, VITEST_RUNNER_FILE, vitestWrapperSource } from '../../src/adapters/vitest/harness.js';
import { countTests } from '../../src/core/test-results.js';
import {
  CASES,
  describeRealRuns,
  expectCaseOutcomes as expectSharedCaseOutcomes,
  expectCommandRefusals,
  expectDuplicateIdRuns,
  expectRecordedFocused,
  expectRecordedSabotage,
  expectReproductionRun,
  expectSabotageRun,
  expectWrapperCanaries,
  marked,
  recordedAt,
  recordedExitCode,
  VIEW
} from './data/js-runner-support.js';
import { DATA_DIR, freshCanary, listFiles, runAdapter } from './data/run-adapter.js';

/**
 * The vitest adapter: its parser on vitest 3's real output (see data/vitest/README.md), its
 * command, runner script and wrappers, and real runs of vitest installed with `npm ci` from
 * data/vitest/deps.
 */

const DATA = path.join(DATA_DIR, 'vitest');
// The results in data/vitest/results were made in this copy, with this nonce.
const RECORDED = recordedAt('vitest');

function recordedFiles(name: string): Record<string, string> {
  const dir = path.join(DATA, 'results', name);
  return {
    [VITEST_RESULTS_FILE]: readFileSync(path.join(dir, VITEST_RESULTS_FILE), 'utf8'),
    [VITEST_CLAIMS_FILE]: readFileSync(path.join(dir, VITEST_CLAIMS_FILE), 'utf8')
  };
}

function recorded(name: string, testRoots: string[] = []): ReturnType<typeof vitestAdapter.parse> {
  return vitestAdapter.parse({
    files: recordedFiles(name),
    exitCode: recordedExitCode(path.join(DATA, 'results', name)),
    workdir: RECORDED.workdir,
    testRoots,
    canary: RECORDED.canary
  });
}

/** What every run of data/vitest/project on the three case files must say, real or recorded. */
function expectCaseOutcomes(parsed: ReturnType<typeof vitestAdapter.parse>): void {
  expectSharedCaseOutcomes(parsed, {
    outcomes: {
      [`${CASES} > calc > skipped if`]: ['skipped', 'skipped'],
      [`${CASES} > calc > divides 9 by 3`]: ['passed', undefined],
      [`${CASES} > hook after all > runs before the teardown`]: ['passed', undefined],
      [`${CASES} > hook after all`]: ['errored', 'setup_error']
    },
    total: 19,
    messages: {
      [`${CASES} > hook before all > never runs`]: 'Error: no fixture directory',
      'test/missing-import.test.js': "Error: Cannot find module '../src/multiply.js' imported from 'test/missing-import.test.js'"
    },
    counts: { passed: 5, failed: 3, errored: 7, skipped: 4 }
  });
}

describe('vitest results parser on recorded vitest 3 output', () => {
  it('reads every test by file, describe path and title, for the right reason', () => {
    expectCaseOutcomes(recorded('cases'));
  });

  it('sees through code under test that makes every expectation pass: the must-fail canary passes', () => {
    expectRecordedSabotage(recorded('sabotage'), 'test/calc.test.js');
  });

  it('refuses .only (CI mode): the focused test errs and the canaries are skipped', () => {
    const parsed = recorded('focused');
    expectRecordedFocused(parsed, 'errored');
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
    const parsed = vitestAdapter.parse({
      files: { ...files, [VITEST_RESULTS_FILE]: JSON.stringify(tree) },
      exitCode: 0,
      workdir: RECORDED.workdir,
      testRoots: [],
      canary: RECORDED.canary
    });
    expect(parsed.problems).toEqual([
      `vitest reported a test file PatchProof did not wrap: ${RECORDED.workdir}/test/calc.test.js`,
      'vitest reported an unhandled error: Error: late failure in src/calc.js'
    ]);
  });
});

describe('vitest adapter command, runner script and wrappers, without a run', () => {
  it('runs the staged runner script on one wrapper per file', () => {
    const canary = freshCanary();
    const command = vitestAdapter.command({ view: VIEW, files: ['test/a.test.ts', '.patchproof/hidden/b.test.ts'], suite: false, testRoots: ['.patchproof/hidden'], canary });
    expect(command.argv).toEqual([
      'node',
      `/w/${HARNESS_DIR}/${VITEST_RUNNER_FILE}`,
      `/r/${VITEST_RESULTS_FILE}`,
      `/r/${VITEST_CLAIMS_FILE}`,
      '.patchproof/harness/vitest/test/a.test.ts.patchproof.mjs',
      '.patchproof/harness/vitest/.patchproof/hidden/b.test.ts.patchproof.mjs'
    ]);
    expect(Object.keys(command.stage)).toEqual(command.argv.slice(-2));
    expect(Object.keys(command.env).sort()).toEqual(['LANG', 'PATCHPROOF_CHANNEL', 'TZ']);
    const script = vitestAdapter.harness[VITEST_RUNNER_FILE] ?? '';
    for (const option of ['include: wrappers', 'exclude: []', "configLoader: 'runner'", 'cache: false', 'allowOnly: false', 'watch: false', 'coverage: { enabled: false }']) {
      expect([option, script.includes(option)]).toEqual([option, true]);
    }
  });

  it('writes a wrapper that imports the file, then declares the canaries in run order', () => {
    const canary = freshCanary();
    const source = vitestWrapperSource('src/x.test.ts', canary, '/**\n * @vitest-environment jsdom\n */\n');
    expectWrapperCanaries(source, canary, '/**\n * @vitest-environment jsdom\n */\n');
    expect(source).toContain('await import("../../../../src/x.test.ts");');
    expect(source).toContain(`test(${JSON.stringify(canaryNames(canary).fail)}, () => {\n  const e = globalThis.expect ?? patchproofVitest.expect;\n  const a = patchproofAssert;`);
    expect(wrappedFile('vitest', wrapperPath('vitest', 'src/x.test.ts'))).toBe('src/x.test.ts');
    expect(wrappedFile('vitest', wrapperPath('jest', 'src/x.test.ts'))).toBeUndefined();
  });

  it('refuses no files, escaping paths and a bad nonce', () => {
    expectCommandRefusals(vitestAdapter, freshCanary(), { valid: 'x.test.ts', escaping: '../x.test.ts' });
  });

  it("finds vitest's default test files, outside its default excludes", () => {
    expect(
      vitestAdapter.suiteFiles([
        'src/a.test.ts',
        'src/b.spec.tsx',
        'src/__tests__/c.ts',
        'dist/d.test.js',
        'node_modules/x/e.test.js',
        '.patchproof/hidden/f.test.ts',
        '.cache/g.test.ts'
      ])
    ).toEqual(['src/a.test.ts', 'src/b.spec.tsx']);
    expect(vitestAdapter.isTestFile('chunk-repro.test.ts')).toBe(true);
  });

  it('flags vitest-only markers too', () => {
    const marks = (line: string): boolean => marked(vitestAdapter, line);
    for (const line of ["test.fails('x', () => {", "it.skipIf(process.env.CI)('y'", "describe.runIf(false)('z'", '  ctx.skip();', "test.concurrent.only('w'"]) {
      expect([line, marks(line)]).toEqual([line, true]);
    }
    expect(marks("test('fails loudly', () => {")).toBe(false);
  });
});

// Real runs: vitest 3 installed once per test file from data/vitest/deps with npm ci.
describeRealRuns(vitestAdapter, 'vitest adapter on real vitest runs', (real) => {
  it("runs the files through wrappers under the repository's own config, leaving the copy and node_modules as they were", async () => {
    const copy = await real.stage('project');
    const before = await listFiles(copy);
    const run = await runAdapter(vitestAdapter, copy, { files: [CASES, 'test/syntax.test.js', 'test/missing-import.test.js'], suite: true, testRoots: [] });
    expect(Object.keys(run.files).sort()).toEqual([VITEST_CLAIMS_FILE, VITEST_RESULTS_FILE].sort());
    expect(run.exitCode).toBe(1);
    expectCaseOutcomes(run.parsed);
    const added = (await listFiles(copy)).filter((file) => !before.includes(file));
    expect(added.filter((file) => !file.startsWith('.patchproof/harness/vitest/'))).toEqual([]);
    // vite's config bundle (.vite-temp) and vitest's results cache (.vite) would go into node_modules.
    expect([existsSync(path.join(real.deps(), 'node_modules', '.vite')), existsSync(path.join(real.deps(), 'node_modules', '.vite-temp'))]).toEqual([false, false]);
  }, 120_000);

  it('runs external tests staged in a dot folder, which the repository include does not match', async () => {
    await expectReproductionRun(vitestAdapter, real);
  }, 120_000);

  it('tells duplicated titles apart by an occurrence index, and a regression in any copy counts', async () => {
    await expectDuplicateIdRuns(vitestAdapter, real, 'divides undefined');
  }, 120_000);

  it('catches code under test that makes every expectation pass', async () => {
    await expectSabotageRun(vitestAdapter, real, ['expect matcher.toBe replaced', 'expect(value).toBe replaced']);
  }, 120_000);
});
