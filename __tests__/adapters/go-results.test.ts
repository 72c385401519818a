import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ParseRequest } from '../../src/adapters/adapter.js';
import { GO_RESULTS_FILE, GO_VERSION_FILE, goCanaryIds, parseGoResults } from '../../src/adapters/go/results.js';
import type { TestCaseResult } from '../../src/core/test-results.js';
import { judgeRegression, type RunEvidence } from '../../src/core/verdict.js';
import { DATA_DIR } from './data/run-adapter.js';

/**
 * The go parser on real `go test -json` output (Go 1.24.4), recorded by data/go/generate.mjs from
 * the adapter's own command: see data/go/README.md.
 */

interface RunMeta {
  nonce: string;
  workdir: string;
  testRoots: string[];
  exitCode: number;
}

function recorded(run: string): ParseRequest {
  const folder = path.join(DATA_DIR, 'go', 'results', run);
  const meta = JSON.parse(readFileSync(path.join(folder, 'run.json'), 'utf8')) as RunMeta;
  return {
    files: {
      [GO_RESULTS_FILE]: readFileSync(path.join(folder, GO_RESULTS_FILE), 'utf8'),
      [GO_VERSION_FILE]: readFileSync(path.join(folder, GO_VERSION_FILE), 'utf8')
    },
    exitCode: meta.exitCode,
    workdir: meta.workdir,
    testRoots: meta.testRoots,
    canary: { nonce: meta.nonce }
  };
}

function byId(tests: readonly TestCaseResult[]): Record<string, TestCaseResult> {
  return Object.fromEntries(tests.map((test) => [test.id, test]));
}

const PKG = 'example.com/gocases';

describe('go test -json parser on real runs', () => {
  it('reads a passing package: leaf subtests by their full names, the parent left out, canaries taken out', () => {
    const request = recorded('passing');
    const parsed = parseGoResults(request);
    expect(parsed.problems).toEqual([]);
    expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    expect(parsed.tests).toEqual([
      { id: `${PKG}/passing/TestSumOfNothing`, status: 'passed' },
      { id: `${PKG}/passing/TestSumTable/one_value`, status: 'passed' },
      { id: `${PKG}/passing/TestSumTable/two_values`, status: 'passed' }
    ]);
    const canaryIds = goCanaryIds(request.canary, `${PKG}/passing`);
    expect(parsed.tests.map((test) => test.id)).not.toContain(canaryIds.pass);
    expect(parsed.tests.map((test) => test.id)).not.toContain(canaryIds.fail);
  });

  it('reads t.Error and t.Fatal as assertions, t.Skip as skipped, and keeps printed result lines as output', () => {
    const parsed = parseGoResults(recorded('failing'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    const tests = byId(parsed.tests);
    expect(Object.keys(tests).sort()).toEqual(
      ['TestPasses', 'TestAssertion', 'TestFatal', 'TestSkipped', 'TestSubtests/ok', 'TestSubtests/bad_case', 'TestSubtests/later', 'TestPrintsFakeResults']
        .map((name) => `${PKG}/failing/${name}`)
        .sort()
    );
    expect(tests[`${PKG}/failing/TestAssertion`]).toEqual({
      id: `${PKG}/failing/TestAssertion`,
      status: 'failed',
      failure_kind: 'assertion',
      message: 'failing_test.go:11: got 9, want 3'
    });
    expect(tests[`${PKG}/failing/TestFatal`]).toMatchObject({ status: 'failed', failure_kind: 'assertion', message: 'failing_test.go:15: stopped here' });
    expect(tests[`${PKG}/failing/TestSkipped`]).toEqual({ id: `${PKG}/failing/TestSkipped`, status: 'skipped', skip_reason: 'failing_test.go:19: needs a network' });
    expect(tests[`${PKG}/failing/TestSubtests/bad_case`]).toMatchObject({ status: 'failed', failure_kind: 'assertion' });
    expect(tests[`${PKG}/failing/TestSubtests/later`]).toMatchObject({ status: 'skipped' });
    // The test printed "--- PASS: TestPrintsFakeResults" and "--- PASS: TestAssertion": both stay failed.
    expect(tests[`${PKG}/failing/TestPrintsFakeResults`]).toMatchObject({ status: 'failed', failure_kind: 'assertion' });
    expect(tests[`${PKG}/failing/TestAssertion`]?.status).toBe('failed');
    expect(tests[`${PKG}/failing/TestInvented`]).toBeUndefined();
  });

  it('reads a panic raised in the code under test as exception_in_code, located in the code', () => {
    const parsed = parseGoResults(recorded('panic-in-code'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    expect(parsed.tests).toEqual([
      {
        id: `${PKG}/codepanic/TestThirdOfTwo`,
        status: 'errored',
        failure_kind: 'exception_in_code',
        message: 'panic: runtime error: index out of range [2] with length 2',
        location: 'codepanic/index.go:5'
      }
    ]);
  });

  it('reads a panic raised in test code as exception_in_test', () => {
    const parsed = parseGoResults(recorded('panic-in-test'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.tests).toEqual([
      {
        id: `${PKG}/testpanic/TestWritesNilMap`,
        status: 'errored',
        failure_kind: 'exception_in_test',
        message: 'panic: assignment to entry in nil map',
        location: 'testpanic/nilmap_test.go:7'
      }
    ]);
  });

  it('reads build failures as one errored result per package, never a right-reason failure, and still runs the rest', () => {
    const parsed = parseGoResults(recorded('build-failure'));
    expect(parsed.problems).toEqual([]);
    const tests = byId(parsed.tests);
    expect(tests[`${PKG}/broken`]).toEqual({
      id: `${PKG}/broken`,
      status: 'errored',
      failure_kind: 'collection_error',
      message: 'broken/broken.go:4:28: cannot use "forty-two" (untyped string constant) as int value in return statement'
    });
    expect(tests[`${PKG}/noimport`]).toMatchObject({ status: 'errored', failure_kind: 'import_error' });
    expect(tests[`${PKG}/passing/TestSumOfNothing`]?.status).toBe('passed');
    // Only the package that built ran canaries, and they behaved.
    expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
  });

  it('reads a test the binary never finished as errored (unknown), and a failed package initialisation as setup_error', () => {
    const parsed = parseGoResults(recorded('exits'));
    expect(parsed.problems).toEqual([]);
    const tests = byId(parsed.tests);
    expect(tests[`${PKG}/exits/TestFirst`]?.status).toBe('passed');
    expect(tests[`${PKG}/exits/TestExitsMidway`]).toMatchObject({ status: 'errored', failure_kind: 'unknown' });
    expect(tests[`${PKG}/exits/TestAfterExit`]).toBeUndefined();
    expect(tests[`${PKG}/initpanic`]).toEqual({
      id: `${PKG}/initpanic`,
      status: 'errored',
      failure_kind: 'setup_error',
      message: 'panic: assignment to entry in nil map'
    });
    // initpanic ran no test at all, so its canaries are missing: the run cannot be trusted.
    expect(parsed.canary).toEqual({ pass: 'missing', fail: 'missing' });
  });

  it('does not count a framed result line a test printed for a test that never ran', () => {
    const parsed = parseGoResults(recorded('forged'));
    expect(parsed.problems).toEqual([`${GO_RESULTS_FILE}: ${PKG}/forged TestNeverRan reported 'pass' without having run (a forged framing line?)`]);
    const tests = byId(parsed.tests);
    expect(tests[`${PKG}/forged/TestNeverRan`]).toBeUndefined();
    expect(tests[`${PKG}/forged/TestForgesAFramedPass`]).toMatchObject({ status: 'failed', failure_kind: 'assertion' });
  });

  it('names external test files run on the command line by their folder, and tells code from test frames there', () => {
    const parsed = parseGoResults(recorded('external'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    expect(parsed.tests).toEqual([
      { id: '.patchproof/reproduction/TestSumAssertion', status: 'failed', failure_kind: 'assertion', message: 'repro_test.go:12: Sum(2, 2) = 4, want 5' },
      {
        id: '.patchproof/reproduction/TestThirdPanicsInCode',
        status: 'errored',
        failure_kind: 'exception_in_code',
        message: 'panic: runtime error: index out of range [2] with length 0',
        location: 'codepanic/index.go:5'
      }
    ]);
  });
});

describe('go test -json parser fails closed', () => {
  const lines = (request: ParseRequest): string[] => (request.files[GO_RESULTS_FILE] ?? '').split('\n').filter((line) => line !== '');
  const withLines = (request: ParseRequest, kept: string[]): ParseRequest => ({ ...request, files: { ...request.files, [GO_RESULTS_FILE]: `${kept.join('\n')}\n` } });

  it('reports a missing stream', () => {
    const parsed = parseGoResults({ ...recorded('passing'), files: {} });
    expect(parsed.tests).toEqual([]);
    expect(parsed.problems).toEqual([`${GO_RESULTS_FILE} is missing: go test wrote no JSON events`]);
    expect(parsed.canary).toEqual({ pass: 'missing', fail: 'missing' });
  });

  it('reports a missing or old Go version', () => {
    const request = recorded('passing');
    expect(parseGoResults({ ...request, files: { [GO_RESULTS_FILE]: request.files[GO_RESULTS_FILE] ?? '' } }).problems).toEqual([
      `${GO_VERSION_FILE} is missing: the harness did not record the Go version`
    ]);
    expect(parseGoResults({ ...request, files: { ...request.files, [GO_VERSION_FILE]: 'go1.19.8\n' } }).problems[0]).toMatch(/older than go1\.24/);
  });

  it('reports a stream cut short: an incomplete last line, and a package without its result', () => {
    const request = recorded('passing');
    const text = request.files[GO_RESULTS_FILE] ?? '';
    const cut = parseGoResults({ ...request, files: { ...request.files, [GO_RESULTS_FILE]: text.slice(0, -20) } });
    expect(cut.problems).toEqual(
      expect.arrayContaining([
        `${GO_RESULTS_FILE}: the last line is incomplete (output cut short?)`,
        `${GO_RESULTS_FILE}: package ${PKG}/passing has no result (the stream ended early)`
      ])
    );
  });

  it('reports lines that are not go test events', () => {
    const request = recorded('passing');
    const parsed = parseGoResults(withLines(request, [...lines(request), '--- PASS: TestSumOfNothing (0.00s)', '{"Action":"explode"}']));
    expect(parsed.problems.filter((problem) => problem.includes('is not a go test -json event'))).toHaveLength(2);
  });

  it('reports a result given twice for one test, and a package that passed with a failing test', () => {
    const request = recorded('failing');
    const all = lines(request);
    const assertionFail = all.find((line) => line.includes('"Action":"fail"') && line.includes('"Test":"TestAssertion"')) ?? '';
    const duplicated = parseGoResults(withLines(request, [...all.slice(0, -1), assertionFail.replace('"fail"', '"pass"'), all.at(-1) ?? '']));
    expect(duplicated.problems).toContain(`${GO_RESULTS_FILE}: ${PKG}/failing TestAssertion has more than one result`);
    const passedPackage = parseGoResults(withLines(request, [...all.slice(0, -1), (all.at(-1) ?? '').replace('"fail"', '"pass"')]));
    expect(passedPackage.problems).toContain(`${GO_RESULTS_FILE}: package ${PKG}/failing passed although some of its tests failed`);
  });

  it('reports an exit code that disagrees with the results (exit 0 with failures)', () => {
    const parsed = parseGoResults({ ...recorded('failing'), exitCode: 0 });
    expect(parsed.problems).toEqual(['go test exited 0; its results imply exit code 1']);
  });

  it('sees a must-fail canary reported as passed in any package', () => {
    const request = recorded('build-failure');
    const failLine = lines(request).find((line) => line.includes('"Action":"fail"') && line.includes('"Test":"Test_cfedcba9876543210"')) ?? '';
    const parsed = parseGoResults(
      withLines(
        request,
        lines(request).map((line) => (line === failLine ? line.replace('"fail"', '"pass"') : line))
      )
    );
    expect(parsed.canary.fail).toBe('passed');
  });

  it('needs exactly one test root to name command-line test files', () => {
    const parsed = parseGoResults({ ...recorded('external'), testRoots: [] });
    expect(parsed.problems).toContain(`${GO_RESULTS_FILE}: test files named on the command line need exactly one test root to be named`);
  });
});

describe('go subtests with duplicate names, on real runs', () => {
  const evidence = (label: 'regression_before' | 'regression_after', run: string): RunEvidence => {
    const request = recorded(run);
    const parsed = parseGoResults(request);
    return { label, attempt: 1, exitCode: request.exitCode, timedOut: false, outputTruncated: false, parsed, canary: parsed.canary };
  };

  it('keeps the ids go test gives each copy (same, same#01, same#02), and a regression in any copy counts', () => {
    const base = evidence('regression_before', 'duplicates');
    expect(base.parsed).toMatchObject({
      problems: [],
      tests: [
        { id: `${PKG}/duplicates/TestDivide/same`, status: 'passed' },
        { id: `${PKG}/duplicates/TestDivide/same#01`, status: 'passed' },
        { id: `${PKG}/duplicates/TestDivide/same#02`, status: 'passed' }
      ]
    });
    const after = evidence('regression_after', 'duplicates-broken');
    expect(after.parsed?.problems).toEqual([]);
    expect(judgeRegression(base, [after])).toMatchObject({ status: 'failed', reasons: ['regression'], regressions: [`${PKG}/duplicates/TestDivide/same#02`] });
  });
});

describe('go test -json parser: supervision (src/adapters/shared/supervisor.ts)', () => {
  const lines = (request: ParseRequest): string[] => (request.files[GO_RESULTS_FILE] ?? '').split('\n').filter((line) => line !== '');
  const withLines = (request: ParseRequest, kept: string[]): ParseRequest => ({ ...request, files: { ...request.files, [GO_RESULTS_FILE]: `${kept.join('\n')}\n` } });

  it("reports a binary the supervisor's filter killed (the go command's 'signal: bad system call') as a channel disagreement", () => {
    const request = recorded('external');
    const all = lines(request);
    const killed = JSON.stringify({ Action: 'output', Package: 'command-line-arguments', Output: 'signal: bad system call\n' });
    const parsed = parseGoResults(withLines(request, [...all.slice(0, -1), killed, all.at(-1) ?? '']));
    expect(parsed.channel?.disagreements).toEqual([expect.stringMatching(/^command-line-arguments: the test binary tried to start a second process/)]);
    expect(parseGoResults(request).channel).toBeUndefined();
  });

  it('counts a declared top-level test that never ran as failed when the binary ran to its end, never when it stopped early', () => {
    const request = recorded('external');
    // Without the panicking test, the binary ran to its end: a declared test missing was left out in-process.
    const skipped = withLines(
      request,
      lines(request).filter((line) => !line.includes('"Test":"TestThirdPanicsInCode"'))
    );
    const declared = ['TestSumAssertion', 'TestThirdPanicsInCode'];
    const parsed = parseGoResults({ ...skipped, declared });
    expect(parsed.tests.map((t) => [t.id, t.status, t.failure_kind])).toEqual([
      ['.patchproof/reproduction/TestSumAssertion', 'failed', 'assertion'],
      ['.patchproof/reproduction/TestThirdPanicsInCode', 'failed', 'unknown']
    ]);
    expect(parsed.tests[1]?.message).toMatch(/declared in the staged test files but never ran/);
    // The recorded run panics in TestThirdPanicsInCode, so tests after it never ran: nothing is added.
    expect(parseGoResults({ ...request, declared: [...declared, 'TestAfterThePanic'] }).tests.map((t) => t.id)).toEqual([
      '.patchproof/reproduction/TestSumAssertion',
      '.patchproof/reproduction/TestThirdPanicsInCode'
    ]);
  });
});
