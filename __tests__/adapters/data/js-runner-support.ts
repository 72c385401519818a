import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { canaryRunOrder } from '../../../src/adapters/shared/canary.js';
import type { CanaryOutcome, CanaryPlan, TestAdapter } from '../../../src/adapters/adapter.js';
import { countTests } from '../../../src/core/test-results.js';
import type { ParsedResults, TestCounts } from '../../../src/core/test-results.js';
import { judgeRegression, type RunEvidence } from '../../../src/core/verdict.js';
import { ConfigurationError } from '../../../src/errors.js';
import { DATA_DIR, removeCopy, runAdapter, stageCopy } from './run-adapter.js';
import type { AdapterRun, StagedCopy } from './run-adapter.js';

/**
 * Test support shared by the JavaScript runner adapters (jest, vitest): the recorded-results
 * conventions of data/<tool>, the case outcomes both sample projects share, the checks on
 * commands, wrappers and skip markers, and the real runs of the tool installed with `npm ci`
 * from data/<tool>/deps.
 */

type Parsed = ParsedResults & { canary: CanaryOutcome };

/** A test's status and its failure kind or skip reason. */
export type Outcome = [string, string | undefined];

/** The case file of data/<tool>/project. */
export const CASES = 'test/cases.test.js';

/** The command view every command test uses. */
export const VIEW = { workdir: '/w', resultsDir: '/r' };

/** Where the results in data/<tool>/results were made (this copy, with this nonce). */
export function recordedAt(tool: string): { workdir: string; canary: CanaryPlan } {
  return { workdir: `/tmp/patchproof-${tool}-data/repo`, canary: { nonce: '0123456789abcdeffedcba98765432100123456789abcdeffedcba9876543210' } };
}

/** The exit code recorded beside a recorded result. */
export function recordedExitCode(dir: string): number {
  return Number(readFileSync(path.join(dir, 'exit-code'), 'utf8').trim());
}

/** The outcomes both sample projects give, jest or vitest, in test/cases.test.js and beside it. */
const SHARED_CASE_OUTCOMES: Record<string, Outcome> = {
  [`${CASES} > calc > passes`]: ['passed', undefined],
  [`${CASES} > calc > assertion`]: ['failed', 'assertion'],
  [`${CASES} > calc > code raises`]: ['errored', 'exception_in_code'],
  [`${CASES} > calc > test raises`]: ['errored', 'exception_in_test'],
  [`${CASES} > calc > skipped`]: ['skipped', 'skipped'],
  [`${CASES} > calc > todo`]: ['skipped', 'todo'],
  [`${CASES} > calc > expected failure`]: ['skipped', 'expected_failure'],
  [`${CASES} > calc > unexpected success`]: ['failed', 'assertion'],
  [`${CASES} > calc > nested > node assert`]: ['failed', 'assertion'],
  [`${CASES} > hook before all > never runs`]: ['errored', 'setup_error'],
  [`${CASES} > hook before each > never runs either`]: ['errored', 'setup_error'],
  [`${CASES} > configuration > the repository setup file ran`]: ['passed', undefined],
  'test/missing-import.test.js': ['errored', 'import_error'],
  'test/syntax.test.js': ['errored', 'collection_error']
};

/** What a tool's run of its sample project says beyond the shared outcomes. */
export interface CaseExpectations {
  /** The tool's own outcomes, by test id. */
  outcomes: Record<string, Outcome>;
  total: number;
  messages: Record<string, string>;
  locations?: Record<string, string>;
  counts: TestCounts;
}

/** What every run of data/<tool>/project on its case files must say, real or recorded. */
export function expectCaseOutcomes(parsed: Parsed, expected: CaseExpectations): void {
  const tests = new Map(parsed.tests.map((test) => [test.id, test]));
  const outcome = (id: string): Outcome => [tests.get(id)?.status ?? 'absent', tests.get(id)?.failure_kind ?? tests.get(id)?.skip_reason];
  expect(parsed.problems).toEqual([]);
  expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
  for (const [id, want] of Object.entries({ ...SHARED_CASE_OUTCOMES, ...expected.outcomes })) {
    expect([id, outcome(id)]).toEqual([id, want]);
  }
  expect(parsed.tests).toHaveLength(expected.total);
  for (const [id, message] of Object.entries(expected.messages)) {
    expect(tests.get(id)?.message).toBe(message);
  }
  for (const [id, location] of Object.entries(expected.locations ?? {})) {
    expect(tests.get(id)?.location).toBe(location);
  }
  const counts = countTests(parsed.tests);
  expect(counts).toEqual(expected.counts);
  expect(parsed.claimed?.passed).toBe(counts.passed);
  expect((parsed.claimed?.failed ?? 0) + (parsed.claimed?.errored ?? 0)).toBe(counts.failed + counts.errored);
}

/** A recorded run of data/<tool>/sabotage: its one test passes, and so does the must-fail canary. */
export function expectRecordedSabotage(parsed: Parsed, location: string): void {
  expect(parsed.tests).toEqual([{ id: 'test/calc.test.js > adds', status: 'passed', location }]);
  expect(parsed.canary).toEqual({ pass: 'passed', fail: 'passed' });
}

/** A recorded run of a file with .only: the canaries are skipped, so the run cannot pass. */
export function expectRecordedFocused(parsed: Parsed, focusedStatus: string): void {
  expect(parsed.canary).toEqual({ pass: 'skipped', fail: 'skipped' });
  expect(parsed.tests.map((test) => [test.id, test.status])).toEqual([
    ['test/focused.test.js > focused', focusedStatus],
    ['test/focused.test.js > left out by only', 'skipped']
  ]);
}

/** The wrapper keeps the file's leading docblock, and declares the canaries in run order, the must-fail one failing only when every check held. */
export function expectWrapperCanaries(source: string, canary: CanaryPlan, docblock: string): void {
  expect(source.startsWith(docblock)).toBe(true);
  const [first, second] = canaryRunOrder(canary);
  expect(source.indexOf(`test(${JSON.stringify(first)}`)).toBeLessThan(source.indexOf(`test(${JSON.stringify(second)}`));
  expect(source).toContain('  if (held === checks.length) {\n    e(1).toBe(2);\n  }\n});');
}

/** The command refuses no files, an escaping path and a bad nonce. */
export function expectCommandRefusals(adapter: TestAdapter, canary: CanaryPlan, files: { valid: string; escaping: string }): void {
  expect(() => adapter.command({ view: VIEW, files: [], suite: true, testRoots: [], canary })).toThrow(ConfigurationError);
  expect(() => adapter.command({ view: VIEW, files: [files.escaping], suite: true, testRoots: [], canary })).toThrow(ConfigurationError);
  expect(() => adapter.command({ view: VIEW, files: [files.valid], suite: true, testRoots: [], canary: { nonce: 'abc' } })).toThrow(ConfigurationError);
}

/** Whether the adapter's skip markers flag the line. */
export function marked(adapter: TestAdapter, line: string): boolean {
  return adapter.skipMarkers.some((re) => re.test(line));
}

/** A sample project staged for a real run, with the installed node_modules linked in. */
export interface RealRuns {
  /** The folder the tool was installed into. */
  deps(): string;
  stage(project: string, external?: { from: string; files: readonly string[]; placement: string }): Promise<StagedCopy>;
}

/**
 * Declares `title` for real runs of the adapter's tool, installed once from data/<tool>/deps with
 * npm ci (skipped, with a warning, where npm is not runnable); the copies staged are removed after.
 */
export function describeRealRuns(adapter: TestAdapter, title: string, body: (real: RealRuns) => void): void {
  const tool = adapter.name;
  const npmProbe = spawnSync('npm', ['--version'], { encoding: 'utf8' });
  if (npmProbe.status !== 0) {
    console.warn(`SKIPPING the real ${tool} runs: npm is not runnable here.`);
  }
  (npmProbe.status === 0 ? describe : describe.skip)(title, () => {
    let deps: string;
    const copies: StagedCopy[] = [];

    beforeAll(async () => {
      deps = await mkdtemp(path.join(os.tmpdir(), `patchproof-${tool}-deps-`));
      await cp(path.join(DATA_DIR, tool, 'deps'), deps, { recursive: true });
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

    body({
      deps: () => deps,
      async stage(project, external) {
        const copy = await stageCopy(adapter, path.join(tool, project), external);
        copies.push(copy);
        await symlink(path.join(deps, 'node_modules'), path.join(copy.workdir, 'node_modules'));
        return copy;
      }
    });
  });
}

/** Runs the reproduction tests of data/<tool>/reproduction, staged in a dot folder, and checks every outcome. */
export async function expectReproductionRun(adapter: TestAdapter, real: RealRuns): Promise<void> {
  const copy = await real.stage('project', { from: path.join(adapter.name, 'reproduction'), files: ['calc-repro.test.js'], placement: '.patchproof/reproduction' });
  const file = '.patchproof/reproduction/calc-repro.test.js';
  const run = await runAdapter(adapter, copy, { files: [file], suite: false, testRoots: ['.patchproof/reproduction'] });
  expect(run.parsed.problems).toEqual([]);
  expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
  expect(run.parsed.tests.map((test) => [test.id, test.status, test.failure_kind])).toEqual([
    [`${file} > reproduction > the mean of nothing is zero`, 'failed', 'assertion'],
    [`${file} > reproduction > dividing by zero gives infinity`, 'errored', 'exception_in_code'],
    [`${file} > reproduction > a broken test`, 'errored', 'exception_in_test']
  ]);
}

/**
 * Runs data/<tool>/sabotage, whose code makes every expectation pass: the must-fail canary passes
 * too, and the must-pass canary fails on the tripwire, which names `toBe` replaced in the matcher
 * table `expect.extend` wrote to (and in `changed`, whatever else it names).
 */
export async function expectSabotageRun(adapter: TestAdapter, real: RealRuns, changed: readonly string[]): Promise<void> {
  const copy = await real.stage('sabotage');
  const run = await runAdapter(adapter, copy, { files: ['test/calc.test.js'], suite: true, testRoots: [] });
  expect(run.exitCode).toBe(1);
  expect(run.parsed.tests.map((test) => [test.id, test.status])).toEqual([['test/calc.test.js > adds', 'passed']]);
  expect(run.parsed.canary).toEqual({ pass: 'errored', fail: 'passed', changed });
}

/** The file of data/<tool>/duplicates: `describe.each` titles with a missing field, `test.each` without a placeholder. */
export const DUPLICATES = 'test/duplicates.test.js';

/**
 * Runs data/<tool>/duplicates twice with the real runner, the second time with `divide` broken
 * for the third `test.each` row only: every copy of a duplicated title gets its own id (an
 * occurrence index in file order), both runs give the same ids, and the regression phase, judged
 * on the two real runs, blames exactly the broken copy.
 */
export async function expectDuplicateIdRuns(adapter: TestAdapter, real: RealRuns, describeTitle: string): Promise<void> {
  const copy = await real.stage('duplicates');
  const tests = { files: [DUPLICATES], suite: true, testRoots: [] };
  const base = await runAdapter(adapter, copy, tests);
  const again = await runAdapter(adapter, copy, tests);
  const suite = `${DUPLICATES} > ${describeTitle} > gives the quotient`;
  const expected = [
    [suite, 'passed'],
    [`${suite} #2`, 'passed'],
    [`${DUPLICATES} > divides`, 'passed'],
    [`${DUPLICATES} > divides #2`, 'passed'],
    [`${DUPLICATES} > divides #3`, 'passed'],
    [`${DUPLICATES} > divides once`, 'passed']
  ];
  expect({ problems: base.parsed.problems, tests: base.parsed.tests.map((t) => [t.id, t.status]) }).toEqual({ problems: [], tests: expected });
  expect(again.parsed.tests.map((t) => t.id)).toEqual(expected.map(([id]) => id));
  const calc = path.join(copy.workdir, 'src', 'calc.js');
  await writeFile(calc, readFileSync(calc, 'utf8').replace('return a / b;', 'return a === 9 ? 2 : a / b;'));
  const after = await runAdapter(adapter, copy, tests);
  expect(after.parsed.problems).toEqual([]);
  const evidence = (label: 'regression_before' | 'regression_after', run: AdapterRun): RunEvidence => ({
    label,
    attempt: 1,
    exitCode: run.exitCode,
    timedOut: false,
    outputTruncated: false,
    parsed: run.parsed,
    canary: run.parsed.canary
  });
  expect(judgeRegression(evidence('regression_before', base), [evidence('regression_after', after)])).toMatchObject({
    status: 'failed',
    reasons: ['regression'],
    regressions: [`${DUPLICATES} > divides #3`]
  });
}
