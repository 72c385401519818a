import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HARNESS_DIR } from '../../src/adapters/adapter.js';
import { canaryNames, canaryRunOrder } from '../../src/adapters/shared/canary.js';
import { nodeTestAdapter } from '../../src/adapters/node-test/index.js';
import { NODE_TEST_ENTRY_ID, nodeTestEntryPath } from '../../src/adapters/node-test/entry.js';
import { NODE_TEST_RESULTS_FILE } from '../../src/adapters/node-test/lines.js';
import { NODE_TEST_REPORTER_FILE } from '../../src/adapters/node-test/reporter.js';
import { v8StackFiles } from '../../src/adapters/node-test/results.js';
import { channelNonce } from '../../src/adapters/shared/results-channel.js';
import { countTests } from '../../src/core/test-results.js';
import type { TestCaseResult } from '../../src/core/test-results.js';
import { ConfigurationError } from '../../src/errors.js';
import { DUPLICATES, expectDuplicateIdRuns } from './data/js-runner-support.js';
import { judgeRegression, type RunEvidence } from '../../src/core/verdict.js';
import type { RealRuns } from './data/js-runner-support.js';
import { freshCanary, listFiles, removeCopy, runAdapter, stageCopy } from './data/run-adapter.js';
import type { AdapterRun, StagedCopy } from './data/run-adapter.js';

const ROOT = '.patchproof/reproduction';
const CASES = `${ROOT}/cases.test.js`;
const TLA = `${ROOT}/top-level-await.test.mjs`;
const CJS = `${ROOT}/common.test.cjs`;
const SHARED = `${ROOT}/uses-shared.test.mjs`;
const REPRODUCTION = ['cases.test.js', 'syntax.test.js', 'missing-import.test.js', 'top-level-await.test.mjs', 'common.test.cjs', 'uses-shared.test.mjs'];

/** Stages node-project with the given reproduction files (and helpers) and runs the test files through the adapter. */
async function runReproduction(files: string[], helpers: string[] = []): Promise<{ copy: StagedCopy; run: AdapterRun }> {
  const copy = await stageCopy(nodeTestAdapter, 'node-project', { from: 'node-reproduction', files: [...files, ...helpers], placement: ROOT });
  const run = await runAdapter(nodeTestAdapter, copy, { files: files.map((file) => `${ROOT}/${file}`), suite: false, testRoots: [ROOT] });
  return { copy, run };
}

/** Stages a project and runs its own suite, as chosen by suiteFiles() from the copy's files. */
async function runSuite(project: string): Promise<{ copy: StagedCopy; run: AdapterRun; files: string[] }> {
  const copy = await stageCopy(nodeTestAdapter, project);
  const files = nodeTestAdapter.suiteFiles(await listFiles(copy));
  const run = await runAdapter(nodeTestAdapter, copy, { files, suite: true, testRoots: [] });
  return { copy, run, files };
}

function byId(tests: readonly TestCaseResult[]): Map<string, TestCaseResult> {
  return new Map(tests.map((test) => [test.id, test]));
}

describe('node-test adapter on a real node --test run', () => {
  let copy: StagedCopy | undefined;
  let run: AdapterRun;
  let tests: Map<string, TestCaseResult>;

  beforeAll(async () => {
    ({ copy, run } = await runReproduction(REPRODUCTION, ['shared-cases.mjs']));
    tests = byId(run.parsed.tests);
  });
  afterAll(async () => {
    await removeCopy(copy);
  });

  it('runs one staged entry module and writes its results only as the JSON-lines file', () => {
    expect(Object.keys(run.command.stage)).toEqual([nodeTestEntryPath(run.canaryPlan)]);
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
        `${TLA} > awaited at top level`,
        `${TLA} > after the awaited test`,
        `${CJS} > commonjs passes`,
        `${CJS} > commonjs assertion fails`,
        `${SHARED} > shared > halves`,
        `${SHARED} > shared > own`
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
  });

  it('loads CommonJS test files and files with top-level await, an awaited test included', () => {
    expect(tests.get(`${TLA} > awaited at top level`)?.status).toBe('passed');
    expect(tests.get(`${TLA} > after the awaited test`)?.status).toBe('passed');
    expect(tests.get(`${CJS} > commonjs passes`)?.status).toBe('passed');
    expect(tests.get(`${CJS} > commonjs assertion fails`)).toMatchObject({ status: 'failed', failure_kind: 'assertion' });
  });

  it('ids a subtest defined in a helper module by its top-level test file, and locates it in the helper', () => {
    expect(tests.get(`${SHARED} > shared > halves`)).toEqual({ id: `${SHARED} > shared > halves`, status: 'passed', location: `${ROOT}/shared-cases.mjs:6` });
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
    expect(tests.get(`${CASES} > before hook fails > first`)?.message).toBe("'before hook fails' failed: failed running before hook: Error: database unavailable");
    expect(tests.get(`${CASES} > after hook fails > ran fine`)?.message).toBe("'after hook fails' failed: failed running after hook: Error: cleanup failed");
    expect(tests.get(`${ROOT}/syntax.test.js`)?.message).toBe("SyntaxError: Unexpected token ';'");
    expect(tests.get(`${ROOT}/missing-import.test.js`)?.message).toBe(
      `Error [ERR_MODULE_NOT_FOUND]: Cannot find module 'src/multiply.js' imported from ${ROOT}/missing-import.test.js`
    );
  });

  it('locates each test at its definition, relative to the copy; a file that did not import at the file', () => {
    expect(tests.get(`${CASES} > passes`)?.location).toBe(`${CASES}:5`);
    expect(tests.get(`${CASES} > suite > nested > deep assertion`)?.location).toBe(`${CASES}:37`);
    expect(tests.get(`${CASES} > parent > child throws in code`)?.location).toBe(`${CASES}:45`);
    expect(tests.get(`${ROOT}/syntax.test.js`)?.location).toBe(`${ROOT}/syntax.test.js`);
  });

  it('runs the canaries last, as designed on an honest run, and keeps them out of the tests', () => {
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    const { pass, fail } = canaryNames(run.canaryPlan);
    const names = [pass, fail];
    expect(run.parsed.tests.filter((test) => names.some((name) => test.id.includes(name)))).toEqual([]);
    expect(run.parsed.tests.some((test) => test.id.startsWith(HARNESS_DIR))).toBe(false);
    const spec = (run.stdout.split('✖ failing tests:')[0] ?? '').split('\n').filter((line) => /^[✔✖﹣] /.test(line));
    expect(spec.slice(-2).map((line) => line.split(' ')[1])).toEqual(canaryRunOrder(run.canaryPlan));
  });

  it("restates node's own totals, canaries left out, so they reconcile with the tests read", () => {
    expect(run.parsed.claimed).toEqual(countTests(run.parsed.tests));
    expect(countTests(run.parsed.tests)).toEqual({ passed: 8, failed: 3, errored: 12, skipped: 4 });
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
      testRoots: [ROOT],
      canary: run.canaryPlan
    });
    expect(parsed.problems).toEqual([]);
    expect(parsed.claimed?.passed).toBe(countTests(parsed.tests).passed + 1);
  });

  it('reads the canaries of its own plan only: under another nonce they are missing and the entry is unknown', () => {
    const parsed = nodeTestAdapter.parse({ files: run.files, exitCode: 1, workdir: copy?.workdir ?? '', testRoots: [ROOT], canary: freshCanary() });
    expect(parsed.canary).toEqual({ pass: 'missing', fail: 'missing' });
  });
});

describe('node-test adapter problems with the results', () => {
  let copy: StagedCopy | undefined;
  let run: AdapterRun;
  let text: string;

  beforeAll(async () => {
    ({ copy, run } = await runReproduction(['cases.test.js']));
    text = run.files[NODE_TEST_RESULTS_FILE] ?? '';
  });
  afterAll(async () => {
    await removeCopy(copy);
  });

  const parse = (results: Record<string, string>, exitCode: number | null = 1) =>
    nodeTestAdapter.parse({ files: results, exitCode, workdir: copy?.workdir ?? '', testRoots: [ROOT], canary: run.canaryPlan });

  it('fails closed when the results file is missing, canaries missing too', () => {
    expect(parse({})).toEqual({
      tests: [],
      problems: [`${NODE_TEST_RESULTS_FILE} is missing: node --test wrote no results`],
      canary: { pass: 'missing', fail: 'missing' }
    });
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
    expect(parsed.canary).toEqual({ pass: 'missing', fail: 'missing' });
  });

  it('notices a line missing from between the start and end lines', () => {
    const lines = text.split('\n');
    lines.splice(
      lines.findIndex((line) => line.includes('"name":"skipped"')),
      1
    );
    const parsed = parse({ [NODE_TEST_RESULTS_FILE]: lines.join('\n') });
    expect(parsed.problems).toEqual([expect.stringMatching(/^node-test\.jsonl end line counts (\d+) tests and 8 diagnostics; read \d+ and 8$/)]);
  });

  it('notices lines that do not have the reporter shape', () => {
    const lines = text.split('\n');
    lines.splice(2, 0, '{"kind":"test","event":"pass","name":7}');
    const parsed = parse({ [NODE_TEST_RESULTS_FILE]: lines.join('\n') });
    expect(parsed.problems[0]).toMatch(/^node-test\.jsonl line 3 is malformed: /);
  });

  it('notices an exit code that contradicts the results, counting the canaries', () => {
    expect(parse({ [NODE_TEST_RESULTS_FILE]: text }, 0).problems).toEqual(['node --test exited 0 although tests failed']);
    expect(parse({ [NODE_TEST_RESULTS_FILE]: text }, null).problems).toEqual(['node --test did not exit normally']);
  });

  it('numbers two tests of one title by occurrence instead of refusing the run', async () => {
    const duplicate = await runReproduction(['duplicates.test.js']);
    try {
      // The must-fail canary alone makes an honest run exit 1.
      expect(duplicate.run.exitCode).toBe(1);
      expect(duplicate.run.parsed.problems).toEqual([]);
      expect(duplicate.run.parsed.tests.map((test) => [test.id, test.status])).toEqual([
        [`${ROOT}/duplicates.test.js > same name`, 'passed'],
        [`${ROOT}/duplicates.test.js > same name #2`, 'passed']
      ]);
    } finally {
      await removeCopy(duplicate.copy);
    }
  });

  it('still refuses an occurrence index that collides with a reported title', () => {
    const lines = text.split('\n');
    const passes = lines.find((line) => line.includes('"name":"passes"'))!;
    const copies = [passes, passes, passes.replace('"name":"passes"', '"name":"passes #2"')];
    lines.splice(lines.indexOf(passes), 1, ...copies);
    const at = lines.findIndex((line) => line.includes('"kind":"end"'));
    const end = JSON.parse(lines[at]!) as { tests: number };
    lines[at] = JSON.stringify({ ...end, tests: end.tests + 2 });
    const parsed = parse({ [NODE_TEST_RESULTS_FILE]: lines.join('\n') });
    expect(parsed.problems).toContain(`duplicate test id '${CASES} > passes': its occurrence index 2 collides with a reported id`);
  });
});

describe('node-test adapter on repeated titles (issue 12 item 1)', () => {
  const copies: StagedCopy[] = [];
  afterAll(async () => {
    for (const copy of copies) await removeCopy(copy);
  });

  it('tells repeated titles apart by an occurrence index, and a regression in any copy counts', async () => {
    const real: RealRuns = {
      deps: () => '',
      stage: async (project) => {
        const copy = await stageCopy(nodeTestAdapter, `node-${project}`);
        copies.push(copy);
        return copy;
      }
    };
    await expectDuplicateIdRuns(nodeTestAdapter, real, 'divides $label');
  });

  it('does not let code under test push a real test to "#2" by registering its title first (hostile)', async () => {
    const copy = await stageCopy(nodeTestAdapter, 'node-duplicates');
    copies.push(copy);
    const tests = { files: [DUPLICATES], suite: true, testRoots: [] };
    const base = await runAdapter(nodeTestAdapter, copy, tests);
    // The candidate breaks divide(4, 2) and, when its module loads (before the test file declares
    // its tests), registers a passing test of the title that checks it.
    await writeFile(
      path.join(copy.workdir, 'src', 'calc.js'),
      "import { test } from 'node:test';\ntest('divides once', () => {});\nexport function divide(a, b) {\n  return a === 4 ? 3 : a / b;\n}\n"
    );
    const after = await runAdapter(nodeTestAdapter, copy, tests);
    expect(after.parsed.problems).toEqual([]);
    const byTitle = after.parsed.tests.filter((t) => t.id.includes('divides once')).map((t) => [t.id, t.status]);
    // node:test ids name the file that declares the test, so the decoy is a new test of its own
    // (src/calc.js) and the real one keeps its id: no occurrence index moves (for jest and vitest,
    // which id by test file, verdict.ts holds such a moved copy to the base).
    expect(byTitle).toEqual([
      ['src/calc.js > divides once', 'passed'],
      [`${DUPLICATES} > divides once`, 'failed']
    ]);
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
      regressions: [`${DUPLICATES} > divides once`]
    });
  });
});

describe('node-test grader canaries against code that fights the grader', () => {
  it('sees code under test that neutralises node:assert at import: the must-fail canary passes, the tripwire names each function', async () => {
    const { copy, run, files } = await runSuite('node-sabotage');
    try {
      expect(files).toEqual(['test/add.test.js']);
      // The buggy add() "passes" its test...
      expect(run.parsed.tests).toEqual([{ id: 'test/add.test.js > adds', status: 'passed', location: 'test/add.test.js:5' }]);
      expect(run.parsed.problems).toEqual([]);
      // ...but the canary that asserts 1 === 2 passed too, and the must-pass canary failed on the
      // tripwire, naming every function replaced (the process exits 1 for it).
      expect(run.exitCode).toBe(1);
      expect(run.parsed.canary).toEqual({
        pass: 'errored',
        fail: 'passed',
        changed: [
          'node:assert.ok replaced',
          'node:assert.equal replaced',
          'node:assert.deepEqual replaced',
          'node:assert.deepStrictEqual replaced',
          'node:assert.strictEqual replaced'
        ]
      });
    } finally {
      await removeCopy(copy);
    }
  });

  it('loses the canaries when a test file ends the process with code 0 while loading', async () => {
    const { copy, run } = await runReproduction(['exits-at-import.test.js', 'duplicates.test.js']);
    try {
      expect(run.exitCode).toBe(0);
      expect(run.parsed).toEqual({
        tests: [],
        claimed: { passed: 0, failed: 0, errored: 0, skipped: 0 },
        problems: [],
        canary: { pass: 'missing', fail: 'missing' }
      });
    } finally {
      await removeCopy(copy);
    }
  });

  it('loses the canaries, and reports the process under a stable id, when a test exits with code 3', async () => {
    const { copy, run } = await runReproduction(['exits-early.test.js']);
    try {
      expect(run.exitCode).toBe(1);
      expect(run.parsed.canary).toEqual({ pass: 'missing', fail: 'missing' });
      expect(run.parsed.tests).toEqual([
        {
          id: NODE_TEST_ENTRY_ID,
          status: 'errored',
          location: NODE_TEST_ENTRY_ID,
          failure_kind: 'collection_error',
          message: 'the test process failed (exit code 3)'
        }
      ]);
      expect(run.parsed.problems).toEqual([]);
    } finally {
      await removeCopy(copy);
    }
  });
});

describe('node-test adapter regression run (the repository suite)', () => {
  it('runs exactly the files suiteFiles() chose, never staged harness or external tests', async () => {
    const copy = await stageCopy(nodeTestAdapter, 'node-project', { from: 'node-reproduction', files: ['duplicates.test.js'], placement: ROOT });
    try {
      const files = nodeTestAdapter.suiteFiles(await listFiles(copy));
      expect(files).toEqual(['test/calc.test.js', 'test/helpers.js']);
      const run = await runAdapter(nodeTestAdapter, copy, { files, suite: true, testRoots: [] });
      expect(run.exitCode).toBe(1);
      expect(run.parsed.problems).toEqual([]);
      // test/helpers.js is imported too (it is under test/) but defines no tests.
      expect(run.parsed.tests).toEqual([
        { id: 'test/calc.test.js > divide > divides', status: 'passed', location: 'test/calc.test.js:7' },
        { id: 'test/calc.test.js > divide > keeps fractions', status: 'passed', location: 'test/calc.test.js:10' }
      ]);
      expect(run.parsed.claimed).toEqual({ passed: 2, failed: 0, errored: 0, skipped: 0 });
      expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
      expect(run.output).toContain('✔ divides');
    } finally {
      await removeCopy(copy);
    }
  });

  it('runs a CommonJS package, .js and .cjs test files alike', async () => {
    const { copy, run, files } = await runSuite('node-cjs-project');
    try {
      expect(files).toEqual(['lib/slug_test.cjs', 'test/slug.test.js']);
      expect(run.parsed.problems).toEqual([]);
      expect(run.parsed.tests).toEqual([
        { id: 'lib/slug_test.cjs > keeps digits', status: 'passed', location: 'lib/slug_test.cjs:5' },
        { id: 'test/slug.test.js > slugify > joins words', status: 'passed', location: 'test/slug.test.js:6' }
      ]);
      expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    } finally {
      await removeCopy(copy);
    }
  });

  it('imports files whose names need URL encoding', async () => {
    const copy = await stageCopy(nodeTestAdapter, 'node-project');
    try {
      const odd = 'test/odd name #1 %20?.test.js';
      await writeFile(path.join(copy.workdir, odd), "import { test } from 'node:test';\ntest('odd', () => {});\n");
      const run = await runAdapter(nodeTestAdapter, copy, { files: [odd], suite: true, testRoots: [] });
      expect(run.parsed.tests).toEqual([{ id: `${odd} > odd`, status: 'passed', location: `${odd}:2` }]);
      expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    } finally {
      await removeCopy(copy);
    }
  });
});

describe('node-test command', () => {
  const view = { workdir: '/patchproof/repo', resultsDir: '/patchproof/results' };
  const canary = { nonce: '0123456789abcdeffedcba9876543210' };
  const entry = `${HARNESS_DIR}/entry-${canary.nonce}.test.mjs`;

  it('runs the staged entry with the reporter into the results folder, and spec to stdout', () => {
    const command = nodeTestAdapter.command({ view, files: [`${ROOT}/a.test.js`, `${ROOT}/-odd.test.js`], suite: false, testRoots: [ROOT], canary });
    expect(command.argv).toEqual([
      'node',
      '--test',
      `--test-reporter=/patchproof/repo/${HARNESS_DIR}/${NODE_TEST_REPORTER_FILE}`,
      `--test-reporter-destination=/patchproof/results/${NODE_TEST_RESULTS_FILE}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      entry
    ]);
    // The reporter gets the results channel's nonce (derived from the canary nonce, not the nonce itself).
    expect(command.env).toEqual({ TZ: 'UTC', LANG: 'C.UTF-8', PATCHPROOF_CHANNEL: channelNonce(canary) });
    expect(Object.keys(command.stage)).toEqual([entry]);
  });

  it('stages an entry that imports the files in order, then registers the canaries', () => {
    const source = nodeTestAdapter.command({ view, files: ['test/b.test.js', 'test/a.test.js'], suite: true, testRoots: [], canary }).stage[entry] ?? '';
    expect(source.indexOf('"../../test/b.test.js"')).toBeGreaterThan(0);
    expect(source.indexOf('"../../test/b.test.js"')).toBeLessThan(source.indexOf('"../../test/a.test.js"'));
    const names = canaryNames(canary);
    expect(source.indexOf(`test("${names.pass}"`)).toBeGreaterThan(source.indexOf('await import(specifier)'));
    expect(source).toContain(`test("${names.fail}", () => {\n  assert.strictEqual(1, 2);\n});`);
  });

  it('refuses an empty file list, paths that leave the copy and a malformed nonce', () => {
    const request = { view, suite: false, testRoots: [ROOT], canary };
    expect(() => nodeTestAdapter.command({ ...request, files: [] })).toThrow(ConfigurationError);
    expect(() => nodeTestAdapter.command({ ...request, files: ['../x.test.js'] })).toThrow(/Invalid test file '\.\.\/x\.test\.js'/);
    expect(() => nodeTestAdapter.command({ ...request, files: ['/etc/x.test.js'] })).toThrow(ConfigurationError);
    expect(() => nodeTestAdapter.command({ ...request, files: ['a.test.js'], canary: { nonce: 'ABC' } })).toThrow(ConfigurationError);
  });

  it("stages a reporter whose name node's discovery does not match", () => {
    expect(Object.keys(nodeTestAdapter.harness)).toEqual([NODE_TEST_REPORTER_FILE]);
    expect(nodeTestAdapter.isTestFile(`${HARNESS_DIR}/${NODE_TEST_REPORTER_FILE}`)).toBe(false);
  });
});

describe('v8StackFiles', () => {
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
});
