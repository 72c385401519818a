import { readFileSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { jsTripwireCheck } from '../../src/adapters/shared/tripwire.js';
import { canaryNames } from '../../src/adapters/shared/canary.js';
import { jestAdapter, JEST_CACHE_DIR } from '../../src/adapters/jest/index.js';
import { jestWrapperSource } from '../../src/adapters/jest/entry.js';
import { JEST_RESULTS_FILE } from '../../src/adapters/jest/results.js';
import { wrappedFile, wrapperPath } from '../../src/adapters/shared/js-runner-wrapper.js';
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
import type { AdapterRun } from './data/run-adapter.js';

/**
 * The jest adapter: its parser on jest 30's real `--json` output (see data/jest/README.md), its
 * command and wrappers, and real runs of jest installed with `npm ci` from data/jest/deps.
 */

const DATA = path.join(DATA_DIR, 'jest');
// The results in data/jest/results were made in this copy, with this nonce.
const RECORDED = recordedAt('jest');

function recorded(name: string, testRoots: string[] = []): ReturnType<typeof jestAdapter.parse> {
  const dir = path.join(DATA, 'results', name);
  const files = { [JEST_RESULTS_FILE]: readFileSync(path.join(dir, JEST_RESULTS_FILE), 'utf8') };
  return jestAdapter.parse({ files, exitCode: recordedExitCode(dir), workdir: RECORDED.workdir, testRoots, canary: RECORDED.canary });
}

/** What every run of data/jest/project on the four case files must say, real or recorded. */
function expectCaseOutcomes(parsed: ReturnType<typeof jestAdapter.parse>): void {
  expectSharedCaseOutcomes(parsed, {
    outcomes: {
      [`${CASES} > calc > divides 4 by 2`]: ['passed', undefined],
      'test/after.test.js > fine': ['passed', undefined],
      'test/after.test.js': ['errored', 'setup_error']
    },
    total: 18,
    messages: {
      [`${CASES} > calc > code raises`]: 'RangeError: division by zero',
      'test/missing-import.test.js': "Error: Cannot find module '../src/multiply' from 'test/missing-import.test.js'"
    },
    locations: { [`${CASES} > calc > passes`]: `${CASES}:4` },
    counts: { passed: 5, failed: 3, errored: 7, skipped: 3 }
  });
}

describe('jest results parser on recorded jest 30 output', () => {
  it('reads every test by file, describe path and title, for the right reason', () => {
    expectCaseOutcomes(recorded('cases'));
  });

  it('judges frames in the test roots as test code', () => {
    const parsed = recorded('cases', ['test']);
    expect(parsed.tests.find((test) => test.id === `${CASES} > calc > code raises`)?.failure_kind).toBe('exception_in_code');
    expect(parsed.tests.find((test) => test.id === `${CASES} > calc > test raises`)?.failure_kind).toBe('exception_in_test');
  });

  it('sees through code under test that makes every expectation pass: the must-fail canary passes', () => {
    expectRecordedSabotage(recorded('sabotage'), 'test/calc.test.js:3');
  });

  it('reports a file with .only: jest skipped the canaries too, so the run cannot pass', () => {
    expectRecordedFocused(recorded('focused'), 'passed');
  });

  it('fails closed on missing, malformed or contradicting results', () => {
    const request = { exitCode: 1, workdir: RECORDED.workdir, testRoots: [], canary: RECORDED.canary };
    expect(jestAdapter.parse({ ...request, files: {} })).toEqual({
      tests: [],
      problems: ['jest.json is missing: jest wrote no JSON results'],
      canary: { pass: 'missing', fail: 'missing' }
    });
    expect(jestAdapter.parse({ ...request, files: { [JEST_RESULTS_FILE]: '{"testResults": [' } }).problems[0]).toMatch(/^jest\.json is not JSON/);
    expect(jestAdapter.parse({ ...request, files: { [JEST_RESULTS_FILE]: '{"testResults": []}' } }).problems[0]).toMatch(/^jest\.json is not jest's JSON results/);
    const text = readFileSync(path.join(DATA, 'results', 'cases', JEST_RESULTS_FILE), 'utf8');
    expect(jestAdapter.parse({ ...request, exitCode: 0, files: { [JEST_RESULTS_FILE]: text } }).problems).toEqual(['jest exited 0 (success: false) although tests failed']);
    const report = JSON.parse(text) as { testResults: { name: string }[] };
    const first = report.testResults[0];
    if (first !== undefined) {
      first.name = `${RECORDED.workdir}/test/cases.test.js`;
    }
    expect(jestAdapter.parse({ ...request, files: { [JEST_RESULTS_FILE]: JSON.stringify(report) } }).problems).toContain(
      `jest reported a test file PatchProof did not wrap: ${RECORDED.workdir}/test/cases.test.js`
    );
  });

  it('numbers a duplicated test id by occurrence instead of dropping the copy', () => {
    const report = JSON.parse(readFileSync(path.join(DATA, 'results', 'sabotage', JEST_RESULTS_FILE), 'utf8')) as {
      testResults: { assertionResults: unknown[] }[];
    };
    const file = report.testResults[0];
    if (file !== undefined) {
      file.assertionResults.push(file.assertionResults[0]);
    }
    const parsed = jestAdapter.parse({ files: { [JEST_RESULTS_FILE]: JSON.stringify(report) }, exitCode: 0, workdir: RECORDED.workdir, testRoots: [], canary: RECORDED.canary });
    expect(parsed.problems.filter((problem) => problem.includes('duplicate'))).toEqual([]);
    expect(parsed.tests.map((test) => test.id).filter((id) => id.startsWith('test/calc.test.js > adds'))).toEqual(['test/calc.test.js > adds', 'test/calc.test.js > adds #2']);
  });
});

describe('jest adapter command, wrappers and files, without a run', () => {
  it('runs the local jest on one wrapper per file, selecting nothing else and writing nothing into the copy', () => {
    const canary = freshCanary();
    const launched = jestAdapter.command({ view: VIEW, files: [CASES, '.patchproof/reproduction/a.test.js'], suite: false, testRoots: ['.patchproof/reproduction'], canary });
    // The flags go to the launcher as one JSON argument: the test process's argv stays a plain run's.
    expect(launched.argv.slice(0, 2)).toEqual(['node', '/w/.patchproof/harness/patchproof-jest-launch.cjs']);
    expect(launched.argv).toHaveLength(3);
    const command = { ...launched, argv: JSON.parse(launched.argv[2] ?? '[]') as string[] };
    expect(command.argv).toEqual(
      expect.arrayContaining([
        '--ci',
        '--json',
        '--outputFile=/r/jest.json',
        '--testLocationInResults',
        '--no-cache',
        `--cacheDirectory=${JEST_CACHE_DIR}`,
        '--watchman=false',
        '--coverage=false',
        '--roots=/w',
        '--testMatch=/w/.patchproof/harness/jest/**/*.cjs',
        '--runTestsByPath'
      ])
    );
    expect(command.argv.slice(-2)).toEqual([
      '/w/.patchproof/harness/jest/test/cases.test.js.patchproof.cjs',
      '/w/.patchproof/harness/jest/.patchproof/reproduction/a.test.js.patchproof.cjs'
    ]);
    expect(Object.keys(command.stage)).toEqual(command.argv.slice(-2).map((file) => file.slice('/w/'.length)));
    // A plain run's environment (plain-env.ts): no NO_COLOR, CI or NODE_ENV of the adapter's.
    expect(Object.keys(command.env).sort()).toEqual(['LANG', 'PATCHPROOF_CHANNEL', 'TZ']);
    expect(picomatch('/w/.patchproof/harness/jest/**/*.cjs', { dot: true })(command.argv.at(-1) ?? '')).toBe(true);
  });

  it('writes a wrapper that requires the file, then declares the canaries in run order', () => {
    const canary = freshCanary();
    const source = jestWrapperSource('src/a b/x.test.ts', canary, '/**\n * @jest-environment jsdom\n */\nimport x from "y";');
    expectWrapperCanaries(source, canary, '/**\n * @jest-environment jsdom\n */\n');
    expect(source).toContain('require("../../../../../src/a b/x.test.ts");');
    const names = canaryNames(canary);
    expect(source).toContain(
      `test(${JSON.stringify(names.pass)}, () => {\n  const e = globalThis.expect ?? patchproofGlobals.expect;\n  const a = require('node:assert');\n  ${jsTripwireCheck('patchproofHeld', 'patchproofGroups')}\n  e(1).toBe(1);\n});`
    );
    // The tripwire's identities are taken before the test file is required.
    expect(source.indexOf('const patchproofHeld = patchproofTake(patchproofGroups());')).toBeLessThan(source.indexOf('require("../../../../../src/a b/x.test.ts");'));
    expect(source).toContain(`test(${JSON.stringify(names.fail)}, () => {\n  const e = globalThis.expect ?? patchproofGlobals.expect;`);
    expect(source).toContain('    () => e([1]).toEqual([2]),\n');
    expect(jestWrapperSource('x.test.js', canary, '/** plain */')).not.toContain('plain');
    expect(wrappedFile('jest', wrapperPath('jest', 'src/a b/x.test.ts'))).toBe('src/a b/x.test.ts');
    expect(wrappedFile('jest', 'src/x.test.ts')).toBeUndefined();
  });

  it('refuses no files, escaping paths and a bad nonce', () => {
    expectCommandRefusals(jestAdapter, freshCanary(), { valid: CASES, escaping: '../x.test.js' });
  });

  it("finds jest's default test files, outside node_modules and dot folders", () => {
    expect(
      jestAdapter.suiteFiles([
        'src/a.test.ts',
        'src/b.spec.jsx',
        'src/__tests__/c.js',
        'src/d.js',
        'node_modules/x/e.test.js',
        '.patchproof/reproduction/f.test.js',
        '.cache/g.test.js',
        'h.test.mts'
      ])
    ).toEqual(['h.test.mts', 'src/__tests__/c.js', 'src/a.test.ts', 'src/b.spec.jsx']);
    expect(jestAdapter.isTestFile('money-repro.test.js')).toBe(true);
    expect(jestAdapter.isTestFile('helpers.js')).toBe(false);
  });

  it('flags skip, focus and expected-failure markers on added lines, not ordinary code', () => {
    const marks = (line: string): boolean => marked(jestAdapter, line);
    for (const line of [
      "test.skip('x', () => {",
      "it.only('x'",
      "describe.skip('y'",
      "test.todo('z')",
      "test.failing('w'",
      "xit('a'",
      "fdescribe('b'",
      "test.skip.each([1])('c'",
      "xtest('d'"
    ]) {
      expect([line, marks(line)]).toEqual([line, true]);
    }
    for (const line of ["test('skips nothing', () => {", 'const onlyOne = list.filter(Boolean);', 'expect(fit(3)).toBe(2);'.replace('fit(', 'fitted(')]) {
      expect([line, marks(line)]).toEqual([line, false]);
    }
  });
});

// Real runs: jest 30 installed once per test file from data/jest/deps with npm ci.
describeRealRuns(jestAdapter, 'jest adapter on real jest runs', (real) => {
  it('runs the suite files through wrappers and reads every outcome, leaving the copy as it was', async () => {
    const copy = await real.stage('project');
    const before = (await listFiles(copy)).filter((file) => !file.startsWith('node_modules/'));
    const run: AdapterRun = await runAdapter(jestAdapter, copy, {
      files: [CASES, 'test/syntax.test.js', 'test/missing-import.test.js', 'test/after.test.js'],
      suite: true,
      testRoots: []
    });
    expect(Object.keys(run.files)).toEqual([JEST_RESULTS_FILE]);
    expect(run.exitCode).toBe(1);
    expectCaseOutcomes(run.parsed);
    const after = (await listFiles(copy)).filter((file) => !file.startsWith('node_modules/'));
    expect(after.filter((file) => !before.includes(file)).every((file) => file.startsWith('.patchproof/harness/jest/'))).toBe(true);
  }, 120_000);

  it('runs external tests staged in a dot folder, whatever the repository configuration selects', async () => {
    await expectReproductionRun(jestAdapter, real);
  }, 120_000);

  it('tells duplicated titles apart by an occurrence index, and a regression in any copy counts', async () => {
    await expectDuplicateIdRuns(jestAdapter, real, 'divides $label');
  }, 120_000);

  it('catches code under test that makes every expectation pass', async () => {
    await expectSabotageRun(jestAdapter, real, ['expect matcher.toBe replaced']);
  }, 120_000);
});
