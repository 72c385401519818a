import { spawnSync } from 'node:child_process';
import type { TestAdapter } from '../../src/adapters/adapter.js';
import { jestAdapter } from '../../src/adapters/jest/index.js';
import { JEST_RESULTS_FILE } from '../../src/adapters/jest/results.js';
import { nodeTestAdapter } from '../../src/adapters/node-test/index.js';
import { NODE_TEST_RESULTS_FILE } from '../../src/adapters/node-test/lines.js';
import { pytestAdapter } from '../../src/adapters/pytest/index.js';
import { PYTEST_RESULTS_FILE } from '../../src/adapters/pytest/results.js';
import { channelNonce, checkChannel, FRAME_MARK, sealOf } from '../../src/adapters/shared/results-channel.js';
import { vitestAdapter } from '../../src/adapters/vitest/index.js';
import { VITEST_RESULTS_FILE } from '../../src/adapters/vitest/harness.js';
import { CASES, describeRealRuns } from './data/js-runner-support.js';
import { listFiles, removeCopy, runAdapter, stageCopy } from './data/run-adapter.js';
import type { AdapterRun } from './data/run-adapter.js';

/**
 * The results channel of the in-process adapters (src/adapters/shared/results-channel.ts): the pure
 * cross-check, and real runs of pytest, node:test, jest and vitest whose result file is then
 * rewritten the way code under test would rewrite it at exit (a failure turned into a pass). The
 * control: parsed without the stream, the rewritten file reads as a pass; with the stream, the
 * channel disagrees (grader_compromised in src/core/verdict.ts).
 */

const NONCE = 'a'.repeat(64);
const frame = (kind: string, value: unknown): string => `\n${FRAME_MARK} ${NONCE} ${kind} ${JSON.stringify(value)}\n`;

describe('checkChannel (pure)', () => {
  const file = '{"tests": 2}';
  const records = [
    { id: 'a', status: 'passed' },
    { id: 'b', status: 'failed' }
  ];
  const honest = frame('test', { id: 'b', status: 'failed' }) + 'noise\n' + frame('test', { id: 'a', status: 'passed' }) + frame('end', { tests: 2, sha256: sealOf(file) });
  const check = (output: string, text: string | undefined = file, recs = records) =>
    checkChannel({ output, mark: FRAME_MARK, nonce: NONCE, sealed: { 'r.json': text }, records: recs });

  it('agrees with a stream that framed every test and sealed the file', () => {
    expect(check(honest)).toEqual({ frames: 3, disagreements: [], after_end_bytes: 0 });
  });

  it('finds a rewritten file, a flipped outcome, a missing or repeated final frame, a malformed frame, another nonce', () => {
    expect(check(honest, '{"tests": 3}').disagreements).toEqual(['the results file r.json is not the one the harness sealed in its final frame (rewritten after the run)']);
    expect(check(honest, file, [records[0]!, { id: 'b', status: 'passed' }]).disagreements).toEqual([
      'the tests streamed as they finished differ from the results file (ids or outcomes)'
    ]);
    expect(check(honest.slice(0, honest.lastIndexOf(FRAME_MARK))).disagreements).toEqual([
      "the harness's final frame is missing from the results channel"
      // the cut-off final frame's remainder is no frame, so both tests still count as streamed
    ]);
    expect(check(honest + frame('end', { tests: 2, sha256: sealOf(file) })).disagreements).toEqual(["1 frame(s) after the harness's final frame"]);
    expect(check(`${honest}\n${FRAME_MARK} ${NONCE} test {not json\n`).disagreements).toContain('a frame of the results channel is malformed');
    expect(check(honest.split(NONCE).join('b'.repeat(64))).disagreements).toContain("the harness's final frame is missing from the results channel");
  });

  it('counts what came after the final frame, and checks the files a final frame names in files', () => {
    expect(check(`${honest}late output\n`).after_end_bytes).toBe('late output\n'.length);
    const two = { 'x.json': 'x', 'y.json': undefined };
    const sealed = frame('end', { tests: 0, files: { 'x.json': sealOf('x'), 'y.json': null } });
    expect(checkChannel({ output: sealed, mark: FRAME_MARK, nonce: NONCE, sealed: two, records: [] }).disagreements).toEqual([]);
    expect(checkChannel({ output: sealed, mark: FRAME_MARK, nonce: NONCE, sealed: { ...two, 'y.json': 'forged' }, records: [] }).disagreements).toEqual([
      'the results file y.json is not the one the harness sealed in its final frame (the harness saw none)'
    ]);
  });

  it("checks the seal against the file's digest as the run wrote it, when its text was changed since (the run's names put back)", () => {
    const written = '{"id": ".qwertyuiop/reproduction/x"}';
    const revealed = '{"id": ".patchproof/reproduction/x"}';
    const sealed = frame('end', { tests: 0, sha256: sealOf(written) });
    const run = (digests?: Record<string, string>) =>
      checkChannel({ output: sealed, mark: FRAME_MARK, nonce: NONCE, sealed: { 'r.json': revealed }, records: [], ...(digests ? { digests } : {}) }).disagreements;
    expect(run({ 'r.json': sealOf(written)! })).toEqual([]);
    // Without the written digest the revealed text is not what the harness sealed; a rewrite still shows.
    expect(run()).toEqual(['the results file r.json is not the one the harness sealed in its final frame (rewritten after the run)']);
    expect(run({ 'r.json': sealOf('{"id": "rewritten"}')! })).toEqual(['the results file r.json is not the one the harness sealed in its final frame (rewritten after the run)']);
  });

  it('derives the nonce one way from the canary nonce', () => {
    const plan = { nonce: '0123456789abcdeffedcba98765432100123456789abcdeffedcba9876543210' };
    expect(channelNonce(plan)).toMatch(/^[0-9a-f]{64}$/);
    expect(channelNonce(plan)).not.toContain(plan.nonce.slice(-16));
  });
});

type Parsed = ReturnType<TestAdapter['parse']>;

/** The run parsed again, as validate.ts parses it (with the stream), with one result file replaced. */
function reparse(adapter: TestAdapter, run: AdapterRun, copy: { workdir: string }, file: string, text: string, withStream = true): Parsed {
  return adapter.parse({
    files: { ...run.files, [file]: text },
    exitCode: run.exitCode,
    workdir: copy.workdir,
    testRoots: ['.patchproof/reproduction'],
    canary: run.canaryPlan,
    ...(withStream ? { output: run.output } : {})
  });
}

function statusOf(parsed: Parsed, id: string): string | undefined {
  return parsed.tests.find((test) => test.id === id)?.status;
}

/**
 * The control and the check of one real run: the honest stream agrees; the rewritten file, read
 * without the stream, passes the failing test `id`; with the stream it disagrees.
 */
function expectRewriteCaught(adapter: TestAdapter, run: AdapterRun, copy: { workdir: string }, file: string, rewritten: string, id: string): void {
  const honest = reparse(adapter, run, copy, file, run.files[file]!);
  expect(honest.channel?.disagreements).toEqual([]);
  expect(honest.channel!.frames).toBeGreaterThan(2);
  expect(statusOf(honest, id)).not.toBe('passed');
  const control = reparse(adapter, run, copy, file, rewritten, false);
  expect(control.channel).toBeUndefined();
  expect(statusOf(control, id)).toBe('passed');
  const caught = reparse(adapter, run, copy, file, rewritten);
  expect(caught.channel!.disagreements.length).toBeGreaterThan(0);
  expect(caught.channel!.disagreements).toContain('the tests streamed as they finished differ from the results file (ids or outcomes)');
}

const ORIGINAL_PATH = process.env.PATH ?? '';
const TEST_PATH = `/usr/bin:${ORIGINAL_PATH}`;
const pytestProbe = spawnSync('python3', ['-m', 'pytest', '--version'], { env: { ...process.env, PATH: TEST_PATH }, encoding: 'utf8' });

(pytestProbe.status === 0 ? describe : describe.skip)('pytest: the plugin frames each test and seals the JUnit XML after junitxml wrote it', () => {
  beforeAll(() => {
    process.env.PATH = TEST_PATH;
  });
  afterAll(() => {
    process.env.PATH = ORIGINAL_PATH;
  });

  it('agrees on a real run (collection errors included); a failure rewritten into a pass disagrees', async () => {
    const copy = await stageCopy(pytestAdapter, 'pytest-project');
    try {
      const run = await runAdapter(pytestAdapter, copy, { files: pytestAdapter.suiteFiles(await listFiles(copy)), suite: true, testRoots: [] });
      const xml = run.files[PYTEST_RESULTS_FILE]!;
      const id = 'tests/test_cases.py::test_assertion';
      expect(statusOf(reparse(pytestAdapter, run, copy, PYTEST_RESULTS_FILE, xml), id)).toBe('failed');
      // What a rewrite at exit does: the <failure> element of that test removed.
      const rewritten = xml.replace(/(<testcase [^>]*name="test_assertion"[^>]*>)<failure[\s\S]*?<\/failure>/, '$1');
      expect(rewritten).not.toBe(xml);
      expectRewriteCaught(pytestAdapter, run, copy, PYTEST_RESULTS_FILE, rewritten, id);
      // The seal alone catches a rewrite that leaves every outcome as it was.
      expect(reparse(pytestAdapter, run, copy, PYTEST_RESULTS_FILE, `${xml}\n`).channel!.disagreements).toEqual([
        `the results file ${PYTEST_RESULTS_FILE} is not the one the harness sealed in its final frame (rewritten after the run)`
      ]);
    } finally {
      await removeCopy(copy);
    }
  }, 120_000);
});

describe('node:test: the reporter frames each test from the runner process and seals its file', () => {
  it('agrees on a real run; a failure rewritten into a pass disagrees', async () => {
    const root = '.patchproof/reproduction';
    const files = ['cases.test.js', 'syntax.test.js', 'missing-import.test.js'];
    const copy = await stageCopy(nodeTestAdapter, 'node-project', { from: 'node-reproduction', files, placement: root });
    try {
      const run = await runAdapter(nodeTestAdapter, copy, { files: files.map((file) => `${root}/${file}`), suite: false, testRoots: [root] });
      const text = run.files[NODE_TEST_RESULTS_FILE]!;
      const parsedHonest = reparse(nodeTestAdapter, run, copy, NODE_TEST_RESULTS_FILE, text);
      const failing = parsedHonest.tests.find((test) => test.status === 'failed');
      expect(failing).toBeDefined();
      const name = failing!.id.split(' > ').at(-1)!;
      // What a process.on('exit') rewrite does: the failing test's line turned into a pass.
      const rewritten = text
        .split('\n')
        .map((line) => {
          if (line === '') return line;
          const value = JSON.parse(line) as Record<string, unknown>;
          if (value.kind !== 'test' || value.name !== name) return line;
          const { error: _error, ...rest } = value;
          return JSON.stringify({ ...rest, event: 'pass' });
        })
        .join('\n');
      expectRewriteCaught(nodeTestAdapter, run, copy, NODE_TEST_RESULTS_FILE, rewritten, failing!.id);
    } finally {
      await removeCopy(copy);
    }
  }, 120_000);
});

describeRealRuns(jestAdapter, 'jest: the reporter frames each test file as it finishes, from the main process', (real) => {
  it('agrees on a real run; a failure rewritten into a pass disagrees', async () => {
    const copy = await real.stage('project');
    const run = await runAdapter(jestAdapter, copy, { files: [CASES, 'test/syntax.test.js', 'test/missing-import.test.js', 'test/after.test.js'], suite: true, testRoots: [] });
    const report = JSON.parse(run.files[JEST_RESULTS_FILE]!) as { testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[] };
    for (const entry of report.testResults) {
      for (const test of entry.assertionResults) {
        if (test.title === 'assertion') Object.assign(test, { status: 'passed', failureMessages: [], failureDetails: [] });
      }
    }
    expectRewriteCaught(jestAdapter, run, copy, JEST_RESULTS_FILE, JSON.stringify(report), `${CASES} > calc > assertion`);
  }, 120_000);
});

describeRealRuns(vitestAdapter, 'vitest: the runner script frames the task tree and seals both files', (real) => {
  it('agrees on a real run; a failure rewritten into a pass disagrees', async () => {
    const copy = await real.stage('project');
    const run = await runAdapter(vitestAdapter, copy, { files: [CASES, 'test/syntax.test.js', 'test/missing-import.test.js'], suite: true, testRoots: [] });
    interface Task {
      name: string;
      state?: string;
      errors: unknown[];
      tasks?: Task[];
    }
    const report = JSON.parse(run.files[VITEST_RESULTS_FILE]!) as { files: Task[] };
    const flip = (tasks: Task[]): void => {
      for (const task of tasks) {
        if (task.name === 'assertion') Object.assign(task, { state: 'pass', errors: [] });
        flip(task.tasks ?? []);
      }
    };
    flip(report.files);
    expectRewriteCaught(vitestAdapter, run, copy, VITEST_RESULTS_FILE, JSON.stringify(report), `${CASES} > calc > assertion`);
  }, 120_000);
});
