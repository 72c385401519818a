import { HARNESS_DIR } from '../../src/adapters/adapter.js';
import {
  exceptionSite,
  isNodeTestFile,
  messageLine,
  NODE_TEST_RESULTS_FILE,
  nodeTestAdapter,
  v8StackFiles
} from '../../src/adapters/node-test.js';
import { NODE_TEST_REPORTER_FILE } from '../../src/adapters/node-test-reporter.js';
import { countTests } from '../../src/core/test-results.js';
import type { TestCaseResult } from '../../src/core/test-results.js';
import { ConfigurationError } from '../../src/errors.js';
import { removeCopy, runAdapter, stageCopy } from './data/run-adapter.js';
import type { AdapterRun, StagedCopy } from './data/run-adapter.js';

const ROOT = '.patchproof/reproduction';
const CASES = `${ROOT}/cases.test.js`;

/** Stages node-project with the given reproduction files and runs them through the adapter. */
async function runReproduction(files: string[]): Promise<{ copy: StagedCopy; run: AdapterRun }> {
  const copy = await stageCopy(nodeTestAdapter, 'node-project', { from: 'node-reproduction', files, placement: ROOT });
  const run = await runAdapter(nodeTestAdapter, copy, { files: files.map((file) => `${ROOT}/${file}`), testRoot: ROOT });
  return { copy, run };
}

function byId(tests: readonly TestCaseResult[]): Map<string, TestCaseResult> {
  return new Map(tests.map((test) => [test.id, test]));
}

describe('node-test adapter on a real node --test run', () => {
  let copy: StagedCopy | undefined;
  let run: AdapterRun;
  let tests: Map<string, TestCaseResult>;

  beforeAll(async () => {
    ({ copy, run } = await runReproduction(['cases.test.js', 'syntax.test.js', 'missing-import.test.js', 'exits-early.test.js']));
    tests = byId(run.parsed.tests);
  });
  afterAll(async () => {
    await removeCopy(copy);
  });

  it('writes its results only as the JSON-lines file in the results folder', () => {
    expect(Object.keys(run.files)).toEqual([NODE_TEST_RESULTS_FILE]);
    expect(run.exitCode).toBe(1);
    expect(run.parsed.problems).toEqual([]);
  });

  it('reads every test by its stable id: file, parents, name', () => {
    expect([...tests.keys()].sort()).toEqual(
      [
        `${CASES} > passes`,
        `${CASES} > assertion fails`,
        `${CASES} > code under test throws`,
        `${CASES} > test body throws`,
        `${CASES} > skipped`,
        `${CASES} > todo`,
        `${CASES} > failing todo`,
        `${CASES} > times out`,
        `${CASES} > suite > inner passes`,
        `${CASES} > suite > nested > deep assertion`,
        `${CASES} > parent > child passes`,
        `${CASES} > parent > child throws in code`,
        `${CASES} > before hook fails > first`,
        `${CASES} > before hook fails > second`,
        `${CASES} > beforeEach hook fails > guarded`,
        `${CASES} > after hook fails > ran fine`,
        `${CASES} > suite body throws > never defined properly`,
        `${CASES} > skipped suite`,
        `${CASES} > unhandled rejection in code`,
        `${ROOT}/syntax.test.js`,
        `${ROOT}/missing-import.test.js`,
        `${ROOT}/exits-early.test.js`
      ].sort()
    );
  });

  it('classifies how each test ended', () => {
    const outcome = (name: string): [string, string | undefined] => {
      const test = tests.get(name.startsWith(ROOT) ? name : `${CASES} > ${name}`);
      return [test?.status ?? 'absent', test?.failure_kind];
    };
    expect(outcome('passes')).toEqual(['passed', undefined]);
    expect(outcome('assertion fails')).toEqual(['failed', 'assertion']);
    expect(outcome('code under test throws')).toEqual(['errored', 'exception_in_code']);
    expect(outcome('test body throws')).toEqual(['errored', 'exception_in_test']);
    expect(outcome('times out')).toEqual(['errored', 'timeout']);
    expect(outcome('suite > inner passes')).toEqual(['passed', undefined]);
    expect(outcome('suite > nested > deep assertion')).toEqual(['failed', 'assertion']);
    expect(outcome('parent > child passes')).toEqual(['passed', undefined]);
    expect(outcome('parent > child throws in code')).toEqual(['errored', 'exception_in_code']);
    expect(outcome('before hook fails > first')).toEqual(['errored', 'setup_error']);
    expect(outcome('before hook fails > second')).toEqual(['errored', 'setup_error']);
    expect(outcome('beforeEach hook fails > guarded')).toEqual(['errored', 'setup_error']);
    expect(outcome('after hook fails > ran fine')).toEqual(['errored', 'setup_error']);
    expect(outcome('suite body throws > never defined properly')).toEqual(['errored', 'collection_error']);
    expect(outcome('unhandled rejection in code')).toEqual(['errored', 'exception_in_code']);
    expect(outcome(`${ROOT}/syntax.test.js`)).toEqual(['errored', 'collection_error']);
    expect(outcome(`${ROOT}/missing-import.test.js`)).toEqual(['errored', 'import_error']);
    expect(outcome(`${ROOT}/exits-early.test.js`)).toEqual(['errored', 'collection_error']);
  });

  it('keeps skip and todo reasons, a failing todo included', () => {
    expect(tests.get(`${CASES} > skipped`)).toMatchObject({ status: 'skipped', skip_reason: 'not today' });
    expect(tests.get(`${CASES} > todo`)).toMatchObject({ status: 'skipped', skip_reason: 'todo: no reason given' });
    expect(tests.get(`${CASES} > failing todo`)).toMatchObject({ status: 'skipped', skip_reason: 'todo: later' });
    expect(tests.get(`${CASES} > skipped suite`)).toMatchObject({ status: 'skipped', skip_reason: 'skipped' });
  });

  it('gives messages from the real error, with copy paths made relative', () => {
    expect(tests.get(`${CASES} > assertion fails`)?.message).toBe('AssertionError: Expected values to be strictly equal:');
    expect(tests.get(`${CASES} > code under test throws`)?.message).toBe("TypeError: Cannot read properties of null (reading 'value')");
    expect(tests.get(`${CASES} > times out`)?.message).toBe('test timed out after 100ms');
    expect(tests.get(`${CASES} > beforeEach hook fails > guarded`)?.message).toBe('failed running beforeEach hook: Error: fixture missing');
    expect(tests.get(`${CASES} > before hook fails > first`)?.message).toBe(
      "'before hook fails' failed: failed running before hook: Error: database unavailable"
    );
    expect(tests.get(`${CASES} > after hook fails > ran fine`)?.message).toBe(
      "'after hook fails' failed: failed running after hook: Error: cleanup failed"
    );
    expect(tests.get(`${ROOT}/syntax.test.js`)?.message).toBe("SyntaxError: Unexpected token ';'");
    expect(tests.get(`${ROOT}/missing-import.test.js`)?.message).toBe(
      `Error [ERR_MODULE_NOT_FOUND]: Cannot find module 'src/multiply.js' imported from ${ROOT}/missing-import.test.js`
    );
    expect(tests.get(`${ROOT}/exits-early.test.js`)?.message).toBe('test file failed to run (exit code 3)');
  });

  it('locates each test at its definition, relative to the copy', () => {
    expect(tests.get(`${CASES} > passes`)?.location).toBe(`${CASES}:5`);
    expect(tests.get(`${CASES} > suite > nested > deep assertion`)?.location).toBe(`${CASES}:37`);
    expect(tests.get(`${CASES} > parent > child throws in code`)?.location).toBe(`${CASES}:45`);
    expect(tests.get(`${ROOT}/syntax.test.js`)?.location).toBe(`${ROOT}/syntax.test.js:1`);
  });

  it("restates node's own totals so they reconcile with the tests read", () => {
    expect(run.parsed.claimed).toEqual(countTests(run.parsed.tests));
    expect(countTests(run.parsed.tests)).toEqual({ passed: 3, failed: 2, errored: 13, skipped: 4 });
  });

  it('reports a lost test line as a difference between the claim and the tests', () => {
    const lines = (run.files[NODE_TEST_RESULTS_FILE] ?? '').split('\n');
    const index = lines.findIndex((line) => line.includes('"name":"passes"'));
    const end = lines.findIndex((line) => line.startsWith('{"kind":"end"'));
    const endLine = JSON.parse(lines[end] ?? '{}') as { tests: number };
    const edited = lines.map((line, i) => (i === end ? JSON.stringify({ ...endLine, tests: endLine.tests - 1 }) : line));
    edited.splice(index, 1);
    const parsed = nodeTestAdapter.parse({
      files: { [NODE_TEST_RESULTS_FILE]: edited.join('\n') },
      exitCode: 1,
      workdir: copy?.workdir ?? '',
      testRoots: [ROOT]
    });
    expect(parsed.problems).toEqual([]);
    expect(parsed.claimed?.passed).toBe(countTests(parsed.tests).passed + 1);
  });
});

describe('node-test adapter problems with the results', () => {
  let copy: StagedCopy | undefined;
  let text: string;

  beforeAll(async () => {
    let run: AdapterRun;
    ({ copy, run } = await runReproduction(['cases.test.js']));
    text = run.files[NODE_TEST_RESULTS_FILE] ?? '';
  });
  afterAll(async () => {
    await removeCopy(copy);
  });

  const parse = (results: Record<string, string>, exitCode: number | null = 1) =>
    nodeTestAdapter.parse({ files: results, exitCode, workdir: copy?.workdir ?? '', testRoots: [ROOT] });

  it('fails closed when the results file is missing', () => {
    const parsed = parse({});
    expect(parsed.tests).toEqual([]);
    expect(parsed.problems).toEqual([`${NODE_TEST_RESULTS_FILE} is missing: node --test wrote no results`]);
  });

  it('notices a file cut off mid-line', () => {
    const parsed = parse({ [NODE_TEST_RESULTS_FILE]: text.slice(0, Math.floor(text.length / 2)) });
    expect(parsed.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^node-test\.jsonl line \d+ is not JSON$/),
        `${NODE_TEST_RESULTS_FILE} has no end line: the run was cut off or the file truncated`,
        "node's closing totals (tests/pass/fail/cancelled/skipped/todo) are missing"
      ])
    );
    expect(parsed.claimed).toBeUndefined();
  });

  it('notices a line missing from between the start and end lines', () => {
    const lines = text.split('\n');
    lines.splice(lines.findIndex((line) => line.includes('"name":"skipped"')), 1);
    const parsed = parse({ [NODE_TEST_RESULTS_FILE]: lines.join('\n') });
    expect(parsed.problems).toEqual([expect.stringMatching(/^node-test\.jsonl end line counts (\d+) tests and 8 diagnostics; read \d+ and 8$/)]);
  });

  it('notices lines that do not have the reporter shape', () => {
    const lines = text.split('\n');
    lines.splice(2, 0, '{"kind":"test","event":"pass","name":7}');
    const parsed = parse({ [NODE_TEST_RESULTS_FILE]: lines.join('\n') });
    expect(parsed.problems[0]).toMatch(/^node-test\.jsonl line 3 is malformed: /);
  });

  it('notices an exit code that contradicts the results', () => {
    expect(parse({ [NODE_TEST_RESULTS_FILE]: text }, 0).problems).toEqual(['node --test exited 0 although tests failed']);
    expect(parse({ [NODE_TEST_RESULTS_FILE]: text }, null).problems).toEqual(['node --test did not exit normally']);
  });

  it('reports duplicate ids from a real run', async () => {
    const duplicate = await runReproduction(['duplicates.test.js']);
    try {
      expect(duplicate.run.exitCode).toBe(0);
      expect(duplicate.run.parsed.problems).toEqual([`duplicate test id '${ROOT}/duplicates.test.js > same name'`]);
    } finally {
      await removeCopy(duplicate.copy);
    }
  });
});

describe('node-test adapter regression run (the repository suite)', () => {
  let copy: StagedCopy | undefined;
  afterAll(async () => {
    await removeCopy(copy);
  });

  it("runs node's default discovery without picking up the staged reporter or helper modules", async () => {
    copy = await stageCopy(nodeTestAdapter, 'node-project');
    const run = await runAdapter(nodeTestAdapter, copy);
    expect(run.exitCode).toBe(0);
    expect(run.parsed.problems).toEqual([]);
    // test/helpers.js runs as a file too (it is under test/) but reports no tests of its own.
    expect(run.parsed.tests).toEqual([
      { id: 'test/calc.test.js > divide > divides', status: 'passed', location: 'test/calc.test.js:7' },
      { id: 'test/calc.test.js > divide > keeps fractions', status: 'passed', location: 'test/calc.test.js:10' }
    ]);
    expect(run.parsed.claimed).toEqual({ passed: 2, failed: 0, errored: 0, skipped: 0 });
    expect(run.output).toContain('✔ divides');
  });

  it('also discovers tests staged under .patchproof/: regression copies must not hold external tests', async () => {
    const staged = await stageCopy(nodeTestAdapter, 'node-project', { from: 'node-reproduction', files: ['duplicates.test.js'], placement: ROOT });
    try {
      const run = await runAdapter(nodeTestAdapter, staged);
      expect(run.parsed.tests.map((test) => test.id)).toContain(`${ROOT}/duplicates.test.js > same name`);
    } finally {
      await removeCopy(staged);
    }
  });
});

describe('node-test command', () => {
  const view = { workdir: '/patchproof/repo', resultsDir: '/patchproof/results' };

  it('runs the staged reporter into the results folder, and spec to stdout', () => {
    expect(nodeTestAdapter.command({ view, files: [`${ROOT}/a.test.js`, `${ROOT}/-odd.test.js`], testRoot: ROOT })).toEqual({
      argv: [
        'node',
        '--test',
        `--test-reporter=/patchproof/repo/${HARNESS_DIR}/${NODE_TEST_REPORTER_FILE}`,
        `--test-reporter-destination=/patchproof/results/${NODE_TEST_RESULTS_FILE}`,
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `${ROOT}/a.test.js`,
        `${ROOT}/-odd.test.js`
      ],
      env: { TZ: 'UTC', LANG: 'C.UTF-8', NO_COLOR: '1' }
    });
  });

  it("leaves files out for the repository suite, so node discovers it", () => {
    expect(nodeTestAdapter.command({ view }).argv.slice(-1)).toEqual(['--test-reporter-destination=stdout']);
  });

  it('refuses an empty file list and paths that leave the copy', () => {
    expect(() => nodeTestAdapter.command({ view, files: [], testRoot: ROOT })).toThrow(ConfigurationError);
    expect(() => nodeTestAdapter.command({ view, files: ['../x.test.js'], testRoot: ROOT })).toThrow(/Invalid test file '\.\.\/x\.test\.js'/);
    expect(() => nodeTestAdapter.command({ view, files: ['/etc/x.test.js'], testRoot: ROOT })).toThrow(ConfigurationError);
  });

  it("stages a reporter whose name node's discovery does not match", () => {
    expect(Object.keys(nodeTestAdapter.harness)).toEqual([NODE_TEST_REPORTER_FILE]);
    expect(isNodeTestFile(`${HARNESS_DIR}/${NODE_TEST_REPORTER_FILE}`)).toBe(false);
  });
});

describe('isNodeTestFile', () => {
  it.each([
    ['a.test.js', true],
    ['a.test.mjs', true],
    ['a.test.cjs', true],
    ['a-test.js', true],
    ['a_test.mjs', true],
    ['test-a.cjs', true],
    ['test.js', true],
    ['test/helpers.js', true],
    ['unit/test/deep/x.mjs', true],
    ['a.test.ts', false],
    ['a.spec.js', false],
    ['helpers.js', false],
    ['testing.js', false],
    ['node_modules/x/a.test.js', false],
    ['README.md', false]
  ])('%s → %s', (file, expected) => {
    expect(isNodeTestFile(file)).toBe(expected);
  });
});

describe('exceptionSite', () => {
  const scope = { workdir: '/w/repo', testRoots: ['.patchproof/reproduction'], testFiles: new Set(['test/a.test.js']) };

  it('reads frames from a real V8 stack, innermost first, skipping node internals', () => {
    const stack = [
      "TypeError: Cannot read properties of null (reading 'value')",
      '    at divide (file:///w/repo/src/calc.js:5:19)',
      '    at TestContext.<anonymous> (file:///w/repo/.patchproof/reproduction/cases.test.js:14:3)',
      '    at Test.runInAsyncScope (node:async_hooks:206:9)',
      '    at new Promise (<anonymous>)',
      '    at Object.<anonymous> (/w/repo/lib/x.cjs:1:6)'
    ].join('\n');
    expect(v8StackFiles(stack)).toEqual(['/w/repo/src/calc.js', '/w/repo/.patchproof/reproduction/cases.test.js', '/w/repo/lib/x.cjs']);
  });

  it('skips dependencies and code outside the copy, and tells code from tests', () => {
    expect(exceptionSite(['/usr/lib/x.js', '/w/repo/node_modules/dep/i.js', '/w/repo/src/calc.js'], scope)).toBe('exception_in_code');
    expect(exceptionSite(['/w/repo/node_modules/dep/i.js', '/w/repo/.patchproof/reproduction/t.js'], scope)).toBe('exception_in_test');
    expect(exceptionSite(['/w/repo/test/a.test.js', '/w/repo/src/calc.js'], scope)).toBe('exception_in_test');
    expect(exceptionSite(['/w/repository/src/calc.js'], scope)).toBe('unknown');
    expect(exceptionSite([], scope)).toBe('unknown');
  });

  it('keeps messages to one relative line', () => {
    expect(messageLine('\n  Error: in /w/repo/src/a.js and file:///w/repo/b.js\nmore', '/w/repo/')).toBe('Error: in src/a.js and b.js');
    expect(messageLine('x'.repeat(600))).toHaveLength(500);
  });
});
