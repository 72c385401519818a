import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HARNESS_DIR } from '../../src/adapters/adapter.js';
import type { TestAdapter } from '../../src/adapters/adapter.js';
import { junitAdapter, JUNIT_SKIP_MARKERS } from '../../src/adapters/junit/index.js';
import { readJunitCanaryFiles } from '../../src/adapters/junit/generic-canary.js';
import { expandJunitArgv, junitArgvProblem } from '../../src/adapters/junit/config.js';
import type { JunitConfig } from '../../src/adapters/junit/config.js';
import { parseJunitGenericResults } from '../../src/adapters/junit/results.js';
import { JUNIT_CHANNEL_FILE, JUNIT_CHANNEL_SOURCE } from '../../src/adapters/junit/channel.js';
import { junitFileCanaries } from '../../src/adapters/junit/file-canaries.js';
import { jsTwins } from '../../src/adapters/shared/js-twins.js';
import { CHANNEL_ENV, channelNonce } from '../../src/adapters/shared/results-channel.js';
import { getAdapter, witnessAdapter } from '../../src/adapters/registry.js';
import { twinBehaved } from '../../src/core/twins.js';
import { runAnomalies } from '../../src/core/verdict.js';
import { ConfigurationError } from '../../src/errors.js';
import { parseWitnessManifest } from '../../src/fetch/witness/manifest.js';
import { DATA_DIR, runAdapter } from './data/run-adapter.js';

/**
 * The generic junit adapter: its parser on JUnit XML written by node 20's real test runner (see
 * data/junit-generic/README.md), its command, and one real run of the junit-semver fixture.
 */

const ROOT = path.join(DATA_DIR, '..', '..', '..');
const DATA = path.join(DATA_DIR, 'junit-generic');
const PACK = path.join(ROOT, 'witness-packs', 'junit-semver');
const REPO = path.join(ROOT, 'fixtures', 'junit-semver', 'repo');
const MANIFEST = parseWitnessManifest(JSON.parse(readFileSync(path.join(PACK, 'witness.json'), 'utf8')), 'witness.json');
const CONFIG = MANIFEST.junit as JunitConfig;
const CANARY = { pass: 'q7 > test.a41c', fail: 'q7 > test.b7d2' };
const isTestPath = picomatch(['**/*.test.js'], { dot: true });

/** Parses one of the recorded files as the run in /tmp/pp-junit-generic/<copy> that wrote it. */
function parseRecorded(files: Record<string, string>, copy: string, testRoots: string[] = [], report = 'junit.xml', exitCode: number | null = 1) {
  const texts = Object.fromEntries(Object.entries(files).map(([name, data]) => [name, readFileSync(path.join(DATA, `${data}.xml`), 'utf8')]));
  return parseJunitGenericResults(
    { files: texts, exitCode, workdir: `/tmp/pp-junit-generic/${copy}`, testRoots, canary: { nonce: '0'.repeat(32) } },
    { report, isTestPath, canary: CANARY }
  );
}

describe('parseJunitGenericResults on node 20 JUnit XML', () => {
  it('reads the reproduction at base: two assertion failures, the canaries apart', () => {
    const parsed = parseRecorded({ 'junit.xml': 'base-reproduction' }, 'base', ['.patchproof/reproduction']);
    expect(parsed.problems).toEqual([]);
    expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    expect(parsed.tests).toEqual([
      { id: 'reproduction > test.1.10.0 is newer than 1.9.0', status: 'failed', failure_kind: 'assertion', message: 'Expected values to be strictly equal:-1 !== 1' },
      {
        id: 'reproduction > test.sorts 1.9.0 before 1.10.0',
        status: 'failed',
        failure_kind: 'assertion',
        message: expect.stringContaining('Expected values to be strictly deep-equal')
      }
    ]);
    expect(parsed).not.toHaveProperty('claimed');
  });

  it('reads the suite with suite names in the ids', () => {
    const parsed = parseRecorded({ 'junit.xml': 'base-suite' }, 'base');
    expect(parsed.problems).toEqual([]);
    expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    expect(parsed.tests.map((test) => test.id)).toEqual([
      'parse > test.reads the three parts',
      'parse > test.allows a leading v',
      'parse > test.refuses a partial version',
      'isValid > test.tells versions from other text',
      'compare > test.orders by major, then minor, then patch',
      'compare > test.equal versions compare as 0',
      'sortVersions and latest > test.sorts oldest first without changing the input',
      'sortVersions and latest > test.picks the newest',
      'sortVersions and latest > test.refuses an empty list'
    ]);
    expect(parsed.tests.every((test) => test.status === 'passed')).toBe(true);
  });

  it('tells the fix from the wrong fix on the hidden tests', () => {
    const fixed = parseRecorded({ 'junit.xml': 'fix-hidden' }, 'fix', ['.patchproof/hidden']);
    expect(fixed.problems).toEqual([]);
    expect(fixed.tests.map((test) => test.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    const wrong = parseRecorded({ 'junit.xml': 'wrong-fix-hidden' }, 'wrong-fix', ['.patchproof/hidden']);
    expect(wrong.problems).toEqual([]);
    expect(wrong.tests.filter((test) => test.status !== 'passed').map((test) => [test.id, test.failure_kind])).toEqual([
      ['hidden > test.every part compares as a number, however many digits', 'assertion'],
      ['hidden > test.picks the newest of multi-digit versions', 'assertion']
    ]);
    expect(wrong.canary).toEqual({ pass: 'passed', fail: 'failed' });
  });

  it('shows sabotaged assertions through the must-fail canary, which the judge calls grader_compromised', () => {
    const parsed = parseRecorded({ 'junit.xml': 'sabotage-reproduction' }, 'sabotage', ['.patchproof/reproduction'], 'junit.xml', 0);
    expect(parsed.problems).toEqual([]);
    expect(parsed.tests.map((test) => test.status)).toEqual(['passed', 'passed']);
    expect(parsed.canary).toEqual({ pass: 'passed', fail: 'passed' });
    const { canary, ...results } = parsed;
    expect(runAnomalies({ label: 'reproduction_after', attempt: 1, exitCode: 0, timedOut: false, outputTruncated: false, parsed: results, canary })).toEqual([
      'grader_compromised'
    ]);
  });

  it('classifies every kind of failure node reports', () => {
    const parsed = parseRecorded({ 'junit.xml': 'mixed' }, 'project');
    expect(parsed.problems).toEqual([]);
    expect(parsed.canary).toEqual({ pass: 'missing', fail: 'missing' });
    const byId = Object.fromEntries(parsed.tests.map(({ id, ...rest }) => [id, rest]));
    expect(byId).toEqual({
      'test.subtracts': { status: 'failed', failure_kind: 'assertion', message: 'Expected values to be strictly equal:4 !== 2' },
      'test.passes': { status: 'passed' },
      'test.throws in the code under test': { status: 'errored', failure_kind: 'exception_in_code', message: "Cannot read properties of null (reading 'split')" },
      'test.throws in the test': { status: 'errored', failure_kind: 'exception_in_test', message: "Cannot read properties of null (reading 'length')" },
      'test.is skipped': { status: 'skipped', skip_reason: 'skipped' },
      'test.is todo': { status: 'skipped', skip_reason: 'todo' },
      'test.times out': { status: 'errored', failure_kind: 'timeout', message: 'test timed out after 20ms' },
      'outer > test.inner passes': { status: 'passed' },
      'outer > deeper > test.inner fails': { status: 'failed', failure_kind: 'assertion', message: 'not ok' },
      // A file that did not load is named by its path (made repository-relative), with no exception to blame.
      'test.test/broken-import.test.js': { status: 'errored', failure_kind: 'unknown', message: 'test failed' }
    });
  });

  it('reports one id twice as a problem (node 20 writes no file per test)', () => {
    const parsed = parseRecorded({ 'junit.xml': 'same-name' }, 'project');
    expect(parsed.problems).toEqual(["duplicate test id 'test.passes' in junit.xml"]);
  });

  it('reads every file the report glob matches, and an id in two files is a problem', () => {
    const parsed = parseRecorded({ 'a/one.xml': 'base-suite', 'b/two.xml': 'base-reproduction', 'other.txt': 'base-suite' }, 'base', [], '**/*.xml');
    expect(parsed.tests).toHaveLength(11);
    expect(parsed.problems).toEqual([
      "duplicate test id 'q7 > test.a41c' across the JUnit files (b/two.xml)",
      "duplicate test id 'q7 > test.b7d2' across the JUnit files (b/two.xml)"
    ]);
  });

  it('fails closed without a report, with an empty one, or with a DOCTYPE', () => {
    const run = (files: Record<string, string>) =>
      parseJunitGenericResults({ files, exitCode: 1, workdir: '/w', testRoots: [], canary: { nonce: '0'.repeat(32) } }, { report: 'junit.xml', isTestPath, canary: CANARY });
    expect(run({ 'other.xml': '<testsuites/>' })).toEqual({
      tests: [],
      problems: ["no result file matches junit.report 'junit.xml': the runner wrote no JUnit XML"],
      canary: { pass: 'missing', fail: 'missing' }
    });
    expect(run({ 'junit.xml': '<testsuites></testsuites>' }).problems).toEqual(['the JUnit XML (junit.xml) holds no test cases']);
    expect(run({ 'junit.xml': '<!DOCTYPE x><testsuites/>' }).problems).toEqual(['junit.xml declares a DOCTYPE, which JUnit XML never needs']);
    expect(run({ 'junit.xml': '<testsuites><testcase' }).problems[0]).toMatch(/^junit.xml is not well-formed XML/);
  });

  it('reads types from other producers: a JUnit 5 assertion, an <error> with a stack in the code', () => {
    const xml = `<testsuites><testsuite name="calc.CalcTest" tests="2" failures="1" errors="1" skipped="0">
      <testcase name="adds" classname="calc.CalcTest"><failure type="org.opentest4j.AssertionFailedError" message="expected: &lt;3&gt; but was: &lt;-1&gt;">trace</failure></testcase>
      <testcase name="divides" classname="calc.CalcTest" file="/w/tests/test_calc.py"><error message="ZeroDivisionError: division by zero">Traceback (most recent call last):
  File "/w/tests/test_calc.py", line 9, in test_divides
    calc.divide(1, 0)
  File "/w/calc.py", line 4, in divide
    return a / b
ZeroDivisionError: division by zero</error></testcase>
    </testsuite></testsuites>`;
    const parsed = parseJunitGenericResults(
      { files: { 'junit.xml': xml }, exitCode: 1, workdir: '/w', testRoots: [], canary: { nonce: '0'.repeat(32) } },
      { report: 'junit.xml', isTestPath: picomatch(['tests/**'], { dot: true }), canary: CANARY }
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.tests).toEqual([
      { id: 'calc.CalcTest > calc.CalcTest.adds', status: 'failed', failure_kind: 'assertion', message: 'expected: <3> but was: <-1>' },
      {
        id: 'tests/test_calc.py > calc.CalcTest > calc.CalcTest.divides',
        location: 'tests/test_calc.py',
        status: 'errored',
        failure_kind: 'exception_in_code',
        message: 'ZeroDivisionError: division by zero'
      }
    ]);
  });
});

describe('junitAdapter', () => {
  const canaryFiles = { 'grader.test.js': 'test code', 'helper.js': 'helper' };
  const adapter = junitAdapter(CONFIG, canaryFiles);

  it('stages the canary folder as harness and appends its tests to {files}', () => {
    expect(adapter.name).toBe('junit');
    expect(adapter.harness).toEqual({ 'canary/grader.test.js': 'test code', 'canary/helper.js': 'helper', [JUNIT_CHANNEL_FILE]: JUNIT_CHANNEL_SOURCE });
    expect(adapter.pid1).toBe(true);
    const command = adapter.command({
      view: { workdir: '/work', resultsDir: '/results' },
      files: ['.patchproof/reproduction/a.test.js'],
      suite: false,
      testRoots: ['.patchproof/reproduction'],
      canary: { nonce: '0'.repeat(32) }
    });
    expect(command).toEqual({
      // The pack's argv, under the results channel's wrapper, which alone gets the nonce.
      argv: [
        'python3',
        '-I',
        `/work/${HARNESS_DIR}/${JUNIT_CHANNEL_FILE}`,
        '/results',
        '--',
        ...[
          'node',
          '--test',
          '--test-reporter=junit',
          '--test-reporter-destination=/results/junit.xml',
          '.patchproof/reproduction/a.test.js',
          `${HARNESS_DIR}/canary/grader.test.js`
        ]
      ],
      env: { TZ: 'UTC', LANG: 'C.UTF-8', [CHANNEL_ENV]: channelNonce({ nonce: '0'.repeat(32) }) },
      stage: {},
      resultFiles: ['junit.xml']
    });
    expect(() => adapter.command({ view: { workdir: '/w', resultsDir: '/r' }, files: [], suite: true, testRoots: [], canary: { nonce: '0'.repeat(32) } })).toThrow(
      ConfigurationError
    );
  });

  it('takes its tests, suite and surface from the pack', () => {
    expect(adapter.isTestFile('x.test.js')).toBe(true);
    expect(adapter.isTestFile('sub/x.test.js')).toBe(true);
    expect(adapter.isTestFile('x.js')).toBe(false);
    expect(adapter.suiteFiles(['test/b.test.js', 'test/a.test.js', 'src/a.js', 'node_modules/p/x.test.js', '.patchproof/hidden/h.test.js', '.cache/c.test.js'])).toEqual([
      'test/a.test.js',
      'test/b.test.js'
    ]);
    expect(adapter.surface).toEqual({ tests: ['**/*.test.js'], config: [], dependencies: [] });
  });

  it('refuses a canary folder without a test, or with a path leaving it', () => {
    expect(() => junitAdapter(CONFIG, { 'README.md': 'x' })).toThrow("junit.canary.path folder 'canary' holds no test file matching junit.tests");
    expect(() => junitAdapter(CONFIG, { '../x.test.js': 'x' })).toThrow(ConfigurationError);
  });

  it.each([
    ["test.skip('x', () => {})", true],
    ["it.only('x', () => {})", true],
    ["test('x', { skip: true }, () => {})", true],
    ["test('x', { todo: 'later' }, () => {})", true],
    ["xit('x', () => {})", true],
    ['  @Disabled("flaky")', true],
    ['  @Ignore', true],
    ['@unittest.skip("x")', true],
    ['\tt.Skip("later")', true],
    ['#[ignore]', true],
    ['@pytest.mark.xfail(strict=True)', true],
    ['pytest.skip("x")', true],
    ['assert.equal(skipped, 1);', false],
    ["test('skips nothing', () => {})", false],
    ['const options = { skip: false };', false]
  ])('skip markers: %j -> %s', (line, marked) => {
    expect(JUNIT_SKIP_MARKERS.some((marker) => marker.test(line))).toBe(marked);
  });
});

describe('junit argv', () => {
  it.each([
    [[], 'is empty'],
    [['{files}'], 'does not start with a program name'],
    [['node', '--test'], 'has {files} nowhere (exactly once is needed, or the tests would not run)'],
    [['node', '{files}', '{files}'], 'has {files} 2 times (exactly once is needed, or the tests would not run)'],
    [['sh', '-c', 'run {files}'], 'has {files} inside a longer element (it must be an element of its own)']
  ])('refuses %j', (argv, problem) => {
    expect(junitArgvProblem(argv)).toBe(problem);
  });

  it('expands {workdir} and {results} inside elements and {files} into one element per file', () => {
    const argv = ['sh', '-c', 'cd {workdir} && run --out={results}/r.xml "$@"', 'sh', '{files}'];
    expect(junitArgvProblem(argv)).toBeUndefined();
    expect(expandJunitArgv(argv, { workdir: '/w', results: '/r', files: ['a b.test.js', 'c.test.js'] })).toEqual([
      'sh',
      '-c',
      'cd /w && run --out=/r/r.xml "$@"',
      'sh',
      'a b.test.js',
      'c.test.js'
    ]);
  });
});

describe('the junit adapter from its witness pack', () => {
  it('is built from the manifest and the pack folder, never by name alone', async () => {
    const adapter = await witnessAdapter(MANIFEST, PACK);
    expect(Object.keys(adapter.harness)).toEqual(['canary/grader.test.js', JUNIT_CHANNEL_FILE]);
    expect(() => getAdapter('junit')).toThrow(ConfigurationError);
    expect((await witnessAdapter({ adapter: 'node-test' }, PACK)).name).toBe('node-test');
    await expect(readJunitCanaryFiles(PACK, { ...CONFIG, canary: { ...CONFIG.canary, path: 'missing' } })).rejects.toThrow("no files in junit.canary.path 'missing'");
  });

  describe('canaries inside each test file of node --test (junit-file-canaries.ts), on real runs', () => {
    let root: string;
    let adapter: TestAdapter;

    beforeAll(async () => {
      adapter = junitAdapter(CONFIG, await readJunitCanaryFiles(PACK, CONFIG));
      root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'pp-junit-file-canaries-')));
    });

    afterAll(async () => {
      await rm(root, { recursive: true, force: true });
    });

    async function suiteRun(label: string, diff?: string) {
      const copy = { root: path.join(root, label), workdir: path.join(root, label, 'repo'), resultsDir: path.join(root, label, 'results') };
      await cp(REPO, copy.workdir, { recursive: true });
      if (diff !== undefined) execFileSync('git', ['apply', diff], { cwd: copy.workdir });
      for (const [name, text] of Object.entries(adapter.harness)) {
        await mkdir(path.dirname(path.join(copy.workdir, HARNESS_DIR, name)), { recursive: true });
        await writeFile(path.join(copy.workdir, HARNESS_DIR, name), text);
      }
      await mkdir(copy.resultsDir);
      return runAdapter(adapter, copy, { files: ['test/semver.test.js'], suite: true, testRoots: ['test'] });
    }

    it("appends a must-pass and a must-fail test through the file's own bindings; an honest run keeps its 9 tests and the canaries behave", async () => {
      const run = await suiteRun('honest');
      const staged = run.command.stage['test/semver.test.js'] ?? '';
      const twins = run.command.twins ?? [];
      const pass = twins.find((t) => t.name === t.of)!;
      const own = twins.filter((t) => t === pass || t.of === pass.name);
      expect(own.map((t) => t.kind).sort()).toEqual(['mutant', 'twin']);
      for (const twin of own) expect(staged).toContain(`test(${JSON.stringify(twin.name)}, () => {`);
      expect(run.parsed.problems).toEqual([]);
      expect(run.parsed.tests).toHaveLength(9);
      expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
      expect(run.twins.every(twinBehaved)).toBe(true);
      expect(run.twins.filter((t) => t.kind === 'mutant' && t.status === 'failed' && t.original === 'passed').length).toBeGreaterThan(0);
    }, 60_000);

    it("never gives a canary a twin's title: with few words in a file's titles they collided, two test cases of one id (seen in a CI run)", () => {
      // junit-semver's reproduction file: five title words, so two generators drawing from them met often.
      const file = '.patchproof/reproduction/compare-multidigit.test.js';
      const original = readFileSync(path.join(ROOT, 'witness-packs', 'junit-semver', 'oracle', 'original', 'reproduction', 'compare-multidigit.test.js'), 'utf8');
      for (let i = 0; i < 200; i++) {
        const nonce = createHash('sha256').update(`titles ${i}`).digest('hex');
        const twinned = jsTwins({ [file]: original }, { nonce }, { mutants: 'all', twins: 1 });
        const own = junitFileCanaries({ [file]: original }, twinned.stage, { nonce }, twinned.twins);
        const names = [...twinned.twins, ...own.twins].map((t) => t.name);
        expect([i, new Set(names).size]).toEqual([i, names.length]);
      }
    });

    it("puts the canaries between the file's own tests, two of them before and two after, wherever the nonce puts them", () => {
      const file = 'test/semver.test.js';
      const original = readFileSync(path.join(REPO, file), 'utf8');
      const starts = original.split('\n').flatMap((line, index) => (/^\s*(test|it)\(/.test(line) ? [index + 1] : []));
      const seen = new Set<number>();
      for (let i = 0; i < 24; i++) {
        const nonce = createHash('sha256').update(`slot ${i}`).digest('hex');
        const { stage, twins } = junitFileCanaries({ [file]: original }, { [file]: original }, { nonce });
        const [block] = twins.filter((t) => t.lines > 0);
        const at = block!.after;
        seen.add(at);
        expect([at, starts.filter((line) => line <= at).length >= 2, starts.filter((line) => line > at).length >= 2]).toEqual([at, true, true]);
        // The block is whole lines at that place: taken out, the file is the original again.
        const lines = stage[file]!.split('\n');
        lines.splice(at, block!.lines);
        expect(lines.join('\n')).toBe(original);
      }
      expect(seen.size).toBeGreaterThan(1);
    });

    it.each([
      [
        'sabotage that spares the last two tests declared in each file (by source line): the canaries are not there, the must-fail one passes: grader_compromised',
        'junit-spare-canary-order'
      ],
      ["sabotage that spares the pack canaries' process: the canary inside the file passes, which the judge calls grader_compromised", 'junit-spare-canary-throws']
    ])(
      '%s',
      async (_title, diff) => {
        const run = await suiteRun(diff, path.join(ROOT, 'fixtures', 'hostile', `${diff}.diff`));
        // The regression reads as a pass and the pack's canaries behaved: without the file's own canaries this run is clean.
        expect(run.parsed.tests.filter((t) => t.status !== 'passed')).toEqual([]);
        expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
        expect(run.twins.filter((t) => !twinBehaved(t))).toEqual([{ kind: 'mutant', status: 'passed', original: 'passed' }]);
        expect(
          runAnomalies({
            label: 'regression_after',
            attempt: 1,
            exitCode: run.exitCode,
            timedOut: false,
            outputTruncated: false,
            parsed: run.parsed,
            canary: { ...run.parsed.canary, twins: run.twins }
          })
        ).toContain('grader_compromised');
      },
      60_000
    );
  });

  describe('a real run of node --test on the junit-semver fixture', () => {
    let root: string;
    let adapter: TestAdapter;

    beforeAll(async () => {
      adapter = junitAdapter(CONFIG, await readJunitCanaryFiles(PACK, CONFIG));
      root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'pp-junit-generic-')));
      await cp(REPO, path.join(root, 'repo'), { recursive: true });
      // The pack is sealed; the adapter's own judging is shown on the author's unsealed originals.
      await cp(path.join(PACK, 'oracle', 'original', 'reproduction'), path.join(root, 'repo', '.patchproof', 'reproduction'), { recursive: true });
      for (const [name, text] of Object.entries(adapter.harness)) {
        await mkdir(path.dirname(path.join(root, 'repo', HARNESS_DIR, name)), { recursive: true });
        await writeFile(path.join(root, 'repo', HARNESS_DIR, name), text);
      }
      await mkdir(path.join(root, 'results'));
    });

    afterAll(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it('fails the reproduction at base for the right reason, with both canaries right', async () => {
      const copy = { root, workdir: path.join(root, 'repo'), resultsDir: path.join(root, 'results') };
      const run = await runAdapter(adapter, copy, { files: ['.patchproof/reproduction/compare-multidigit.test.js'], suite: false, testRoots: ['.patchproof/reproduction'] });
      expect(run.exitCode).toBe(1);
      expect(Object.keys(run.files)).toEqual(['junit.xml']);
      expect(run.parsed.problems).toEqual([]);
      expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
      expect(run.parsed.tests.map((test) => [test.id, test.status, test.failure_kind])).toEqual([
        ['reproduction > test.1.10.0 is newer than 1.9.0', 'failed', 'assertion'],
        ['reproduction > test.sorts 1.9.0 before 1.10.0', 'failed', 'assertion']
      ]);
    });
  });
});
