import type { FailureKind, ParsedResults, TestCaseResult, TestCounts } from '../../core/test-results.js';
import { HARNESS_DIR } from '../adapter.js';
import type { CanaryOutcome, CanaryPlan, ParseRequest } from '../adapter.js';
import { canaryNames, takeCanaries } from '../shared/canary.js';
import { exceptionSite, messageLine, statusForFailure } from '../shared/exception-site.js';
import type { TestScope } from '../shared/exception-site.js';
import { parseJunitXml } from '../shared/junit-xml.js';
import type { JunitCase } from '../shared/junit-xml.js';
import { PYTEST_PLUGIN_FILE } from './harness.js';
import { channelNonce, checkChannel, FRAME_MARK } from '../shared/results-channel.js';

/**
 * Turns pytest's JUnit XML (xunit1 family, `--tb=native`) into PatchProof's test results.
 *
 * Status mapping, as for every adapter: an assertion is `failed`; any other exception, a fixture
 * (setup/teardown) error or a module that did not collect is `errored`; skips and xfails are
 * `skipped` (skip_reason `expected_failure` for xfail). A strict xfail that passed is `failed`
 * with kind `assertion`, as unittest's unexpected success is.
 *
 * Failure kinds: a `<failure>` (the test body raised) is `assertion` when the exception is an
 * AssertionError or pytest's own `Failed` (`pytest.fail`, `pytest.raises` that did not raise),
 * else `exception_in_code` / `exception_in_test` by the innermost repository frame of the native
 * traceback (see exceptionSite); the exception type comes from that traceback, else the message.
 * An `<error>` is `collection_error` (`import_error` for an ImportError) when pytest reports a
 * collection failure, else `setup_error`.
 */

/** Result file pytest writes, relative to the results directory. */
export const PYTEST_RESULTS_FILE = 'pytest.xml';

const FRAME = /^\s*File "(.+)", line \d+/;
const EXCEPTION_LINE = /^([A-Za-z_][\w.]*)(?::|$)/;
const IMPORT_ERROR = /^E\s+(?:ModuleNotFoundError|ImportError)\b|^ImportError while importing test module/m;
const PYTEST_OUTCOMES = /\/_pytest\/outcomes\.py$/;

/** The pytest ids of a plan's canaries: test functions of the staged plugin file. */
export function pytestCanaryIds(plan: CanaryPlan): { pass: string; fail: string } {
  const names = canaryNames(plan);
  const file = `${HARNESS_DIR}/${PYTEST_PLUGIN_FILE}`;
  return { pass: `${file}::${names.pass}`, fail: `${file}::${names.fail}` };
}

/** The last native traceback of a failure: its frames (innermost last) and exception type. */
function nativeTraceback(detail: string): { frames: string[]; type: string | undefined } {
  const lines = detail.split('\n');
  const start = lines.lastIndexOf('Traceback (most recent call last):');
  const frames: string[] = [];
  let type: string | undefined;
  for (const line of lines.slice(start + 1)) {
    const frame = FRAME.exec(line);
    if (frame?.[1] !== undefined) {
      frames.push(frame[1]);
      type = undefined;
    } else if (type === undefined && frames.length > 0 && !/^\s/.test(line)) {
      type = EXCEPTION_LINE.exec(line)?.[1];
    }
  }
  return { frames, type };
}

function isCollectionFailure(test: JunitCase): boolean {
  return test.outcome === 'error' && test.message === 'collection failure';
}

function failureKind(test: JunitCase, scope: TestScope): FailureKind {
  if (isCollectionFailure(test)) {
    return IMPORT_ERROR.test(test.detail ?? '') ? 'import_error' : 'collection_error';
  }
  if (test.outcome === 'error') {
    return 'setup_error';
  }
  if (test.message?.startsWith('[XPASS(strict)]') === true) {
    return 'assertion';
  }
  const traceback = nativeTraceback(test.detail ?? '');
  const frames = traceback.frames;
  // Without a native traceback (a plugin's own report), the message may still name the exception.
  const type = traceback.type ?? EXCEPTION_LINE.exec(test.message ?? '')?.[1];
  const innermost = frames[frames.length - 1];
  if (type === 'AssertionError' || (type === 'Failed' && innermost !== undefined && PYTEST_OUTCOMES.test(innermost))) {
    return 'assertion';
  }
  return exceptionSite([...frames].reverse(), scope);
}

/** The message: for a collection failure, pytest's last `E   ` line (the exception) instead of "collection failure". */
function failureMessage(test: JunitCase, workdir: string): string | undefined {
  if (isCollectionFailure(test)) {
    // The harness's own refusal of a staged module (pytest-harness.ts) is a bare `ForeignTest: …` line.
    const last = (test.detail ?? '')
      .split('\n')
      .filter((line) => line.startsWith('E ') || line.startsWith('ForeignTest: '))
      .pop();
    return messageLine(last?.replace(/^E\s+/, '') ?? test.message, workdir);
  }
  return messageLine(test.message, workdir);
}

function toResult(test: JunitCase, scope: TestScope): TestCaseResult {
  // A collection failure's "name" is the dotted module: the file is its id, as pytest's node id.
  const id = isCollectionFailure(test) && test.file !== undefined ? test.file : test.id;
  // xunit1 lines are 0-based.
  const where = test.file === undefined ? undefined : test.line === undefined ? test.file : `${test.file}:${test.line + 1}`;
  const base = { id, ...(where === undefined ? {} : { location: where }) };
  switch (test.outcome) {
    case 'passed':
      return { ...base, status: 'passed' };
    case 'skipped':
      return { ...base, status: 'skipped', skip_reason: test.type === 'pytest.xfail' ? 'expected_failure' : (test.message ?? 'skipped') };
    case 'failure':
    case 'error': {
      const kind = failureKind(test, scope);
      const message = failureMessage(test, scope.workdir);
      return { ...base, status: statusForFailure(kind), failure_kind: kind, ...(message === undefined ? {} : { message }) };
    }
  }
}

const CLAIM_KEY = { passed: 'passed', failure: 'failed', error: 'errored', skipped: 'skipped' } as const;

/** pytest's own tallies without the canaries, which it counts like any test. */
function claimedWithoutCanaries(claimed: TestCounts | undefined, canaries: readonly JunitCase[], problems: string[]): TestCounts | undefined {
  if (claimed === undefined) {
    return undefined;
  }
  const rest = { ...claimed };
  for (const canary of canaries) {
    rest[CLAIM_KEY[canary.outcome]] -= 1;
  }
  if (Object.values(rest).some((count) => count < 0)) {
    problems.push(`${PYTEST_RESULTS_FILE}: the suite's counts do not cover its own test cases`);
    return undefined;
  }
  return rest;
}

function expectedExitCode(tests: readonly TestCaseResult[]): number {
  if (tests.some((test) => test.status === 'failed' || test.status === 'errored')) {
    return 1;
  }
  return tests.length === 0 ? 5 : 0;
}

/** Parses pytest's JUnit XML (pure: the file's text in, results out). */
export function parsePytestResults(request: ParseRequest): ParsedResults & { canary: CanaryOutcome } {
  const canaryIds = pytestCanaryIds(request.canary);
  const text = request.files[PYTEST_RESULTS_FILE];
  if (text === undefined) {
    return { tests: [], problems: [`${PYTEST_RESULTS_FILE} is missing: pytest wrote no JUnit XML`], canary: { pass: 'missing', fail: 'missing' } };
  }
  const report = parseJunitXml(text, PYTEST_RESULTS_FILE);
  const problems = [...report.problems];
  const testFiles = new Set(report.cases.flatMap((test) => (test.file === undefined ? [] : [test.file])));
  const scope: TestScope = { workdir: request.workdir, testRoots: request.testRoots, testFiles };
  const results = report.cases.map((test) => toResult(test, scope));
  // Canaries included: the must-fail canary alone makes an honest run exit 1.
  const expected = expectedExitCode(results);
  if (report.problems.length === 0 && request.exitCode !== expected) {
    problems.push(`pytest exited ${request.exitCode ?? 'abnormally'}; its results imply exit code ${expected}`);
  }
  const canaryCases = report.cases.filter((test) => test.id === canaryIds.pass || test.id === canaryIds.fail);
  const claimed = claimedWithoutCanaries(report.claimed, canaryCases, problems);
  // The channel frames every test (canaries and twins included) with a coarse outcome.
  const records = results.map((test) => ({ id: test.id, status: test.status === 'errored' ? 'failed' : test.status }));
  const channel =
    request.output === undefined
      ? undefined
      : checkChannel({
          output: request.output,
          mark: FRAME_MARK,
          nonce: channelNonce(request.canary),
          sealed: { [PYTEST_RESULTS_FILE]: text },
          records,
          ...(request.resultDigests !== undefined ? { digests: request.resultDigests } : {})
        });
  const { tests, canary } = takeCanaries(results, canaryIds);
  return { tests, ...(claimed === undefined ? {} : { claimed }), problems, canary, ...(channel ? { channel } : {}) };
}
