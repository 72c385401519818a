import type { FailureKind, ParsedResults, TestCaseResult, TestStatus } from '../../core/test-results.js';
import type { CanaryOutcome, CanaryPlan, ParseRequest } from '../adapter.js';
import { exceptionSite, messageLine, repoRelative, statusForFailure } from '../shared/exception-site.js';
import { goCanaryTestNames } from './canary.js';
import { GO_SIGSYS_OUTPUT, SECOND_PROCESS_FINDING, supervisionChannel } from '../shared/supervisor.js';

/**
 * Turns the event stream of `go test -json` (Go 1.24 or later) into PatchProof's test results.
 *
 * Ids: `<package>/<Test>[/<subtest>]`, where the package is its import path; the package that
 * `go test` makes of test files named on the command line (`command-line-arguments`) is named by
 * the folder holding them (the run's one test root). A package that failed to build is one result
 * with the package as its id. Parent tests are left out when they have subtests, unless they
 * failed while no subtest did (a failure of their own).
 *
 * Status and failure kind: `t.Error`/`t.Fatal` (a test failing without a panic) is `failed` with
 * kind `assertion`; a panic is `errored`, `exception_in_code` when the innermost frame of the
 * panicking goroutine inside the repository (vendor excluded) is not a `_test.go` file nor under
 * a test root, else `exception_in_test`; the testing package's own timeout panic is `timeout`; a
 * test the binary left unfinished (it exited mid-test) is `errored` with kind `unknown`; `t.Skip`
 * is `skipped`. A package that did not build is `collection_error` (`import_error` when an import
 * could not be resolved); a package that failed with no failing test (a panic in `init`, a
 * TestMain that did not run the tests) is `setup_error`.
 *
 * Fail closed: the stream must be JSON lines of known actions, every terminal test event must
 * follow that test's `run` event exactly once (test2json frames its own lines with ^V since Go
 * 1.24's `-test.v=test2json`, so plain `--- PASS` lines printed by a test stay output; a
 * forged framed line still has no `run` of its own, or duplicates a real result), every package
 * must end with its own result and agree with its tests, the exit code must agree with the
 * results, and the Go version the harness recorded must be 1.24 or later.
 */

/** The JSON event stream, relative to the results directory. */
export const GO_RESULTS_FILE = 'go-test.json';
/** `go env GOVERSION`, written by the harness before the tests run. */
export const GO_VERSION_FILE = 'go-version.txt';
/** The oldest Go whose `go test -json` frames test2json lines and reports build failures as events. */
export const GO_MIN_MINOR = 24;

/** The package `go test` makes of test files named on the command line. */
const COMMAND_LINE_PACKAGE = 'command-line-arguments';
const KNOWN_ACTIONS = new Set(['start', 'run', 'pause', 'cont', 'pass', 'bench', 'fail', 'output', 'skip', 'build-output', 'build-fail']);
const FRAMING = /^(?:=== (?:RUN|PAUSE|CONT|NAME)\b|--- (?:PASS|FAIL|SKIP|BENCH):|PASS$|FAIL$|ok\s|FAIL\s)/;
const TRACE_FRAME = /^\t(\/.+?\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;
const IMPORT_FAILURE =
  /cannot find (?:module providing )?package|no required module provides package|is not in (?:std|GOROOT)|package .+ is not in std|could not import|import cycle not allowed/;

interface GoEvent {
  Action: string;
  Package?: string;
  Test?: string;
  Output?: string;
  ImportPath?: string;
  FailedBuild?: string;
}

interface TestRecord {
  name: string;
  ran: boolean;
  result?: 'pass' | 'fail' | 'skip';
  output: string[];
}

interface PackageRecord {
  name: string;
  started: boolean;
  result?: 'pass' | 'fail' | 'skip';
  failedBuild?: string;
  output: string[];
  tests: Map<string, TestRecord>;
}

interface Stream {
  packages: Map<string, PackageRecord>;
  buildOutput: Map<string, string[]>;
  problems: string[];
}

function toEvent(value: unknown): GoEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.Action !== 'string' || !KNOWN_ACTIONS.has(record.Action)) return undefined;
  for (const key of ['Package', 'Test', 'Output', 'ImportPath', 'FailedBuild']) {
    if (record[key] !== undefined && typeof record[key] !== 'string') return undefined;
  }
  return record as unknown as GoEvent;
}

function packageRecord(stream: Stream, name: string): PackageRecord {
  let record = stream.packages.get(name);
  if (record === undefined) {
    record = { name, started: false, output: [], tests: new Map() };
    stream.packages.set(name, record);
  }
  return record;
}

function applyTestEvent(stream: Stream, pkg: PackageRecord, test: string, event: GoEvent): void {
  let record = pkg.tests.get(test);
  if (record === undefined) {
    record = { name: test, ran: false, output: [] };
    pkg.tests.set(test, record);
  }
  switch (event.Action) {
    case 'run':
      if (record.ran) stream.problems.push(`${GO_RESULTS_FILE}: ${pkg.name} ${test} started twice`);
      record.ran = true;
      break;
    case 'output':
      record.output.push(event.Output ?? '');
      break;
    case 'pass':
    case 'fail':
    case 'skip':
      if (!record.ran) {
        stream.problems.push(`${GO_RESULTS_FILE}: ${pkg.name} ${test} reported '${event.Action}' without having run (a forged framing line?)`);
      } else if (record.result !== undefined) {
        stream.problems.push(`${GO_RESULTS_FILE}: ${pkg.name} ${test} has more than one result`);
      }
      record.result ??= event.Action;
      break;
    default:
      break;
  }
}

function applyPackageEvent(stream: Stream, pkg: PackageRecord, event: GoEvent): void {
  switch (event.Action) {
    case 'start':
      if (pkg.started) stream.problems.push(`${GO_RESULTS_FILE}: package ${pkg.name} started twice`);
      pkg.started = true;
      break;
    case 'output':
      pkg.output.push(event.Output ?? '');
      break;
    case 'pass':
    case 'fail':
    case 'skip':
      if (pkg.result !== undefined) stream.problems.push(`${GO_RESULTS_FILE}: package ${pkg.name} has more than one result`);
      pkg.result ??= event.Action;
      if (event.FailedBuild !== undefined) pkg.failedBuild = event.FailedBuild;
      break;
    default:
      break;
  }
}

/** Reads the JSON lines into packages and tests; anything unexpected is a problem. */
function readStream(text: string): Stream {
  const stream: Stream = { packages: new Map(), buildOutput: new Map(), problems: [] };
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  else if (lines.length > 0) stream.problems.push(`${GO_RESULTS_FILE}: the last line is incomplete (output cut short?)`);
  lines.forEach((line, index) => {
    let event: GoEvent | undefined;
    try {
      event = toEvent(JSON.parse(line));
    } catch {
      event = undefined;
    }
    if (event === undefined) {
      stream.problems.push(`${GO_RESULTS_FILE}: line ${index + 1} is not a go test -json event`);
      return;
    }
    if (event.Action === 'build-output' || event.Action === 'build-fail') {
      if (event.ImportPath === undefined) {
        stream.problems.push(`${GO_RESULTS_FILE}: line ${index + 1}: a build event without ImportPath`);
      } else if (event.Action === 'build-output') {
        stream.buildOutput.set(event.ImportPath, [...(stream.buildOutput.get(event.ImportPath) ?? []), event.Output ?? '']);
      }
      return;
    }
    if (event.Package === undefined) {
      stream.problems.push(`${GO_RESULTS_FILE}: line ${index + 1}: a '${event.Action}' event without Package`);
      return;
    }
    const pkg = packageRecord(stream, event.Package);
    if (event.Test !== undefined) applyTestEvent(stream, pkg, event.Test, event);
    else applyPackageEvent(stream, pkg, event);
  });
  return stream;
}

/** The frames (absolute file paths) of the first panicking goroutine after a `panic:` line, innermost first. */
function panicFrames(lines: readonly string[]): string[] {
  const start = lines.findIndex((line) => line.startsWith('panic: ') || line.startsWith('fatal error: '));
  if (start < 0) return [];
  const goroutine = lines.findIndex((line, index) => index > start && /^goroutine \d+ \[running\]:$/.test(line));
  if (goroutine < 0) return [];
  const frames: string[] = [];
  for (const line of lines.slice(goroutine + 1)) {
    if (line === '' || line.startsWith('goroutine ')) break;
    const frame = TRACE_FRAME.exec(line);
    if (frame?.[1] !== undefined) frames.push(frame[1]);
  }
  return frames;
}

/** Output split into lines (test2json emits one event per line, but be tolerant). */
function outputLines(output: readonly string[]): string[] {
  return output.join('').split('\n');
}

interface Judged {
  kind: FailureKind;
  message?: string;
  location?: string;
}

function judgePanic(lines: readonly string[], request: ParseRequest): Judged | undefined {
  const panicLine = lines.find((line) => line.startsWith('panic: ') || line.startsWith('fatal error: '));
  if (panicLine === undefined) return undefined;
  if (panicLine.startsWith('panic: test timed out after ')) return { kind: 'timeout', message: panicLine };
  // Vendored modules are dependencies, not the code under test.
  const frames = panicFrames(lines).filter((frame) => !(repoRelative(request.workdir, frame) ?? '').split('/').includes('vendor'));
  const relative = frames.flatMap((frame) => {
    const file = repoRelative(request.workdir, frame);
    return file === undefined ? [] : [file];
  });
  const testFiles = new Set(relative.filter((file) => file.endsWith('_test.go')));
  const kind = exceptionSite(frames, { workdir: request.workdir, testRoots: request.testRoots, testFiles });
  const inner = lines
    .slice(lines.indexOf(panicLine))
    .map((line) => TRACE_FRAME.exec(line))
    .find((m) => m?.[1] !== undefined && repoRelative(request.workdir, m[1]) !== undefined);
  const location = inner?.[1] === undefined ? undefined : `${repoRelative(request.workdir, inner[1])}:${inner[2]}`;
  return { kind, message: panicLine.replace(/ \[recovered\]$/, ''), ...(location === undefined ? {} : { location }) };
}

/** The first line of a test's own output that is not test2json framing. */
function firstMessage(lines: readonly string[]): string | undefined {
  return lines.map((line) => line.trim()).find((line) => line !== '' && !FRAMING.test(line));
}

function testResult(id: string, test: TestRecord, request: ParseRequest): TestCaseResult {
  const lines = outputLines(test.output);
  if (test.result === 'pass') return { id, status: 'passed' };
  if (test.result === 'skip') return { id, status: 'skipped', skip_reason: messageLine(firstMessage(lines), request.workdir) ?? 'skipped' };
  const panic = judgePanic(lines, request);
  let judged: Judged;
  if (panic !== undefined) judged = panic;
  else if (test.result === 'fail') judged = { kind: 'assertion', ...withMessage(firstMessage(lines)) };
  else judged = { kind: 'unknown', message: 'the test binary exited before this test finished' };
  const message = messageLine(judged.message, request.workdir);
  return {
    id,
    status: statusForFailure(judged.kind),
    failure_kind: judged.kind,
    ...(message === undefined ? {} : { message }),
    ...(judged.location === undefined ? {} : { location: judged.location })
  };
}

function withMessage(message: string | undefined): { message?: string } {
  return message === undefined ? {} : { message };
}

/** The id prefix of a package: its import path, or for command-line files the folder holding them. */
function packageId(name: string, request: ParseRequest, problems: string[]): string {
  if (name !== COMMAND_LINE_PACKAGE) return name;
  const root = request.testRoots[0];
  if (request.testRoots.length !== 1 || root === undefined) {
    problems.push(`${GO_RESULTS_FILE}: test files named on the command line need exactly one test root to be named`);
    return name;
  }
  return root.replace(/\/+$/, '');
}

function buildFailure(id: string, pkg: PackageRecord, stream: Stream, request: ParseRequest): TestCaseResult {
  const output = [...(stream.buildOutput.get(pkg.failedBuild ?? '') ?? []), ...pkg.output];
  const lines = outputLines(output);
  const kind: FailureKind = lines.some((line) => IMPORT_FAILURE.test(line)) ? 'import_error' : 'collection_error';
  const message = messageLine(
    lines.find((line) => line.trim() !== '' && !line.startsWith('#')),
    request.workdir
  );
  return { id, status: 'errored', failure_kind: kind, ...withMessage(message) };
}

/** A package that failed although none of its tests did: its own output says why. */
function packageFailure(id: string, pkg: PackageRecord, request: ParseRequest): TestCaseResult {
  const lines = outputLines(pkg.output);
  const panic = lines.find((line) => line.startsWith('panic: ') || line.startsWith('fatal error: '));
  const message = messageLine(panic ?? firstMessage(lines) ?? 'the package failed without a failing test', request.workdir);
  return { id, status: 'errored', failure_kind: 'setup_error', ...withMessage(message) };
}

/** Tests to report: leaves, and parents that failed without a failing subtest. */
function reported(tests: readonly TestCaseResult[], names: readonly string[]): TestCaseResult[] {
  const failing = (test: TestCaseResult): boolean => test.status === 'failed' || test.status === 'errored';
  return tests.filter((test, index) => {
    const name = names[index] ?? '';
    const children = tests.filter((_, other) => (names[other] ?? '').startsWith(`${name}/`));
    return children.length === 0 || (failing(test) && !children.some(failing));
  });
}

interface CanarySeen {
  pass: TestStatus | 'missing';
  fail: TestStatus | 'missing';
}

/** One outcome for the run from each package's canaries (see parseGoResults). */
function combineCanaries(seen: readonly CanarySeen[]): CanaryOutcome {
  if (seen.length === 0) return { pass: 'missing', fail: 'missing' };
  const pass = seen.every((c) => c.pass === 'passed') ? 'passed' : (seen.find((c) => c.pass !== 'passed')?.pass ?? 'missing');
  const wrongFail = seen.find((c) => c.fail === 'passed') ?? seen.find((c) => c.fail === 'missing') ?? seen.find((c) => c.fail !== 'failed');
  return { pass, fail: wrongFail === undefined ? 'failed' : wrongFail.fail };
}

function versionProblem(text: string | undefined): string | undefined {
  if (text === undefined) return `${GO_VERSION_FILE} is missing: the harness did not record the Go version`;
  const match = /^go1\.(\d+)(?:[.\w-]*)$/.exec(text.trim());
  if (match?.[1] === undefined) return `${GO_VERSION_FILE}: '${text.trim().slice(0, 40)}' is not a Go version`;
  if (Number(match[1]) < GO_MIN_MINOR) {
    return `Go ${text.trim()} is older than go1.${GO_MIN_MINOR}: its test2json cannot tell framing lines from test output, so results could be forged`;
  }
  return undefined;
}

/**
 * Parses a `go test -json` run (pure: the files' text in, results out). The canaries of every
 * package that ran are combined: the must-pass canary counts as passed only when it passed in every
 * such package, the must-fail canary as failed only when it failed in every one (one that passed
 * anywhere is reported as passed). A package that failed to build ran no canaries.
 */
export function parseGoResults(request: ParseRequest): ParsedResults & { canary: CanaryOutcome } {
  const canaryNames = goCanaryTestNames(request.canary);
  const text = request.files[GO_RESULTS_FILE];
  if (text === undefined) {
    return { tests: [], problems: [`${GO_RESULTS_FILE} is missing: go test wrote no JSON events`], canary: { pass: 'missing', fail: 'missing' } };
  }
  const stream = readStream(text);
  const problems = [...stream.problems];
  const version = versionProblem(request.files[GO_VERSION_FILE]);
  if (version !== undefined) problems.push(version);
  const tests: TestCaseResult[] = [];
  const canaries: CanarySeen[] = [];
  const findings: string[] = [];
  let anyFailed = false;
  for (const pkg of stream.packages.values()) {
    // The go command's own line for a binary the supervisor's filter killed (supervisor.ts).
    if ([...pkg.output, ...[...pkg.tests.values()].flatMap((t) => t.output)].some((line) => line.trim() === GO_SIGSYS_OUTPUT)) {
      findings.push(`${pkg.name}: ${SECOND_PROCESS_FINDING}`);
    }
    const id = packageId(pkg.name, request, problems);
    if (pkg.result === undefined) {
      problems.push(`${GO_RESULTS_FILE}: package ${pkg.name} has no result (the stream ended early)`);
      continue;
    }
    if (pkg.result === 'fail') anyFailed = true;
    if (pkg.failedBuild !== undefined) {
      if (pkg.tests.size > 0) problems.push(`${GO_RESULTS_FILE}: package ${pkg.name} failed to build yet reported tests`);
      tests.push(buildFailure(id, pkg, stream, request));
      continue;
    }
    const ran = [...pkg.tests.values()].filter((test) => test.ran);
    const results = ran.map((test) => testResult(`${id}/${test.name}`, test, request));
    // The must-fail canary counts here: it is why an honest package fails.
    const failing = results.filter((test) => test.status === 'failed' || test.status === 'errored');
    if (pkg.result === 'pass' && failing.length > 0) {
      problems.push(`${GO_RESULTS_FILE}: package ${pkg.name} passed although some of its tests failed`);
    }
    const canaryOf = (name: string): TestStatus | 'missing' => results[ran.findIndex((test) => test.name === name)]?.status ?? 'missing';
    if (ran.length > 0 || pkg.result === 'fail') canaries.push({ pass: canaryOf(canaryNames.pass), fail: canaryOf(canaryNames.fail) });
    const own = results.filter((_, index) => ran[index]?.name !== canaryNames.pass && ran[index]?.name !== canaryNames.fail);
    tests.push(
      ...reported(
        own,
        own.map((test) => test.id.slice(id.length + 1))
      )
    );
    if (pkg.name === COMMAND_LINE_PACKAGE) tests.push(...neverRan(id, ran, results, request.declared));
    if (pkg.result === 'fail' && failing.length === 0) tests.push(packageFailure(id, pkg, request));
  }
  const ids = new Set<string>();
  for (const test of tests) {
    if (ids.has(test.id)) problems.push(`${GO_RESULTS_FILE}: test id '${test.id}' occurs more than once`);
    ids.add(test.id);
  }
  const expected = anyFailed ? 1 : 0;
  if (problems.length === 0 && request.exitCode !== expected) {
    problems.push(`go test exited ${request.exitCode ?? 'abnormally'}; its results imply exit code ${expected}`);
  }
  return { tests, problems, canary: combineCanaries(canaries), ...(findings.length > 0 ? { channel: supervisionChannel(findings) } : {}) };
}

/** Failure kinds after which a test binary stops: later tests never ran, and that is no sabotage. */
const STOPS_THE_BINARY: readonly FailureKind[] = ['exception_in_code', 'exception_in_test', 'timeout', 'unknown'];

/**
 * The staged tests' declared top-level tests that never ran although the binary ran to its end:
 * left out by a -test.run or -test.skip the code under test set in-process (flag.Set from init).
 * Each counts as failed. Nothing is added when the binary stopped early (a panic, a timeout, an
 * exit mid-test): its failing test already fails the run.
 */
function neverRan(id: string, ran: readonly TestRecord[], results: readonly TestCaseResult[], declared: readonly string[] | undefined): TestCaseResult[] {
  if (declared === undefined || results.some((test) => STOPS_THE_BINARY.includes(test.failure_kind ?? 'assertion'))) return [];
  const seen = new Set(ran.map((test) => test.name.split('/')[0]));
  return declared
    .filter((name) => !seen.has(name))
    .map((name): TestCaseResult => ({
      id: `${id}/${name}`,
      status: 'failed',
      failure_kind: 'unknown',
      message: 'declared in the staged test files but never ran (left out by a -test.run or -test.skip set in-process?)'
    }));
}

/** The ids a plan's canaries get in a package (for tests and documentation). */
export function goCanaryIds(plan: CanaryPlan, packageIdPrefix: string): { pass: string; fail: string } {
  const names = goCanaryTestNames(plan);
  return { pass: `${packageIdPrefix}/${names.pass}`, fail: `${packageIdPrefix}/${names.fail}` };
}
