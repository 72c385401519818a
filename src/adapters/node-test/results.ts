import { fileURLToPath } from 'node:url';
import type { FailureKind, ParsedResults, TestCaseResult, TestCounts } from '../../core/test-results.js';
import { countTests, indexDuplicateIds } from '../../core/test-results.js';
import type { CanaryOutcome, ParseRequest } from '../adapter.js';
import { canaryNames, takeCanaries } from '../shared/canary.js';
import type { CanaryNames } from '../shared/canary.js';
import { exceptionSite, messageLine, repoRelative, statusForFailure } from '../shared/exception-site.js';
import type { TestScope } from '../shared/exception-site.js';
import { NODE_TEST_ENTRY_ID, nodeTestEntryPath } from './entry.js';
import { buildTrees, NODE_TEST_RESULTS_FILE, readLines, readTotals } from './lines.js';
import type { NodeTotals, TestLine, TestNode } from './lines.js';
import { NODE_TEST_REPORT_FORMAT, nodeTestFrameId } from './reporter.js';
import { channelNonce, checkChannel, FRAME_MARK } from '../shared/results-channel.js';

/**
 * Turns a node --test run's reporter lines into PatchProof's test results.
 *
 * Status mapping, the same for every adapter: an assertion failure is `failed`; every other way of
 * not passing (an exception, a hook, a timeout or cancellation, a file that does not load) is
 * `errored`; skip and todo (passing or failing) are `skipped`.
 *
 * What counts as a test: every leaf of node's test tree, so the ids of a tree do not depend on how
 * its tests ended. An id is the file of the leaf's top-level test, then the names down to the leaf.
 * A parent (a describe, or a test with `t.test` subtests) is not a test of its own: when it fails
 * for a reason of its own (an `after` hook, a throw after its subtests; not merely
 * `subtestsFailed`) that failure goes to its leaves that passed, and the parent stands as a test
 * only when no leaf took it. Also tests: a skipped suite, whose tests node never reports; a test
 * file that did not import (the entry reports it under the file's own name: `import_error` for a
 * missing module or export, else `collection_error`); and the entry's process failing as a whole
 * (a crash or `process.exit()` with a non-zero code; id NODE_TEST_ENTRY_ID). A process that ended
 * with code 0 before reporting anything reported no test. The canaries are taken out of the tests.
 *
 * Failure kinds: ERR_ASSERTION/AssertionError is `assertion`; a failed hook `setup_error`; a
 * timeout, or a cancellation not caused by a failed hook or suite body, `timeout`; a suite body
 * that throws `collection_error` (its cancelled tests too); any other exception
 * `exception_in_code` or `exception_in_test` by the innermost repository frame of its stack (see
 * exceptionSite).
 */

const PROBLEM_LIMIT = 20;
const ID_SEPARATOR = ' > ';
const STDERR_ERROR_LINE = /^(?:[\w$.]*Error|Error)(?: \[[A-Z0-9_]+\])?: /;
const IMPORT_FAILURE = /ERR_MODULE_NOT_FOUND|\bMODULE_NOT_FOUND|Cannot find (?:module|package)|does not provide an export named/;

type Category = 'passed' | 'notPassed' | 'skipped';

/** What a parse needs besides the events: the scope, and which file is the run's entry. */
interface ParseContext {
  scope: TestScope;
  /** The entry module of the run, repository-relative (its name holds the nonce). */
  entry: string;
  canaries: CanaryNames;
}

/** Absolute file paths of a V8 stack trace, innermost first (node internals and eval frames left out). */
export function v8StackFiles(stack: string | undefined): string[] {
  const files: string[] = [];
  for (const line of stack?.split('\n') ?? []) {
    const match = /^\s*at (?:.*?\()?([^()]+?):\d+:\d+\)?\s*$/.exec(line);
    const location = match?.[1];
    if (location === undefined) {
      continue;
    }
    if (location.startsWith('file://')) {
      try {
        files.push(fileURLToPath(location));
      } catch {
        continue;
      }
    } else if (location.startsWith('/')) {
      files.push(location);
    }
  }
  return files;
}

/** The event's file, repository-relative; the entry under its stable id, since its name changes every run. */
function fileOf(event: TestLine, context: ParseContext): string {
  if (event.file === undefined) {
    return '<no file>';
  }
  const file = repoRelative(context.scope.workdir, event.file) ?? event.file;
  return file === context.entry ? NODE_TEST_ENTRY_ID : file;
}

function isFileLevel(event: TestLine): boolean {
  return event.nesting === 0 && event.file !== undefined && event.name === event.file;
}

function ownFailure(event: TestLine): boolean {
  return event.event === 'fail' && event.error?.failureType !== 'subtestsFailed';
}

function reason(flag: string | boolean | undefined, fallback: string): string {
  return typeof flag === 'string' && flag !== '' ? flag : fallback;
}

/** The entry's process failed as a whole: node names the file and keeps what it wrote to stderr. */
function processFailure(event: TestLine): { kind: FailureKind; message: string } {
  const stderr = event.stderr ?? [];
  const errorLine = stderr.map((line) => line.trim()).find((line) => STDERR_ERROR_LINE.test(line));
  const kind: FailureKind = stderr.some((line) => IMPORT_FAILURE.test(line)) ? 'import_error' : 'collection_error';
  const exit = event.error?.signal ? `signal ${event.error.signal}` : `exit code ${event.error?.exitCode ?? 'unknown'}`;
  return { kind, message: messageLine(errorLine) ?? `the test process failed (${exit})` };
}

/** A test file that did not import: the entry rethrew the import's own error. */
function importFailure(event: TestLine): { kind: FailureKind; message: string | undefined } {
  const cause = event.error?.cause;
  const kind: FailureKind = IMPORT_FAILURE.test(`${cause?.code ?? ''} ${cause?.message ?? ''}`) ? 'import_error' : 'collection_error';
  if (cause?.name === undefined) {
    return { kind, message: cause?.message ?? event.error?.message };
  }
  const head = cause.code === undefined ? cause.name : `${cause.name} [${cause.code}]`;
  return { kind, message: `${head}: ${messageLine(cause.message) ?? ''}` };
}

function failureKind(event: TestLine, ancestors: readonly TestLine[], scope: TestScope): FailureKind {
  const error = event.error;
  switch (error?.failureType) {
    case 'hookFailed':
      return 'setup_error';
    case 'testTimeoutFailure':
      return 'timeout';
    case 'cancelledByParent': {
      // A test cancelled because its suite's `before` hook or body failed never ran at all.
      const cause = [...ancestors].reverse().find(ownFailure);
      if (cause?.error?.failureType === 'hookFailed') {
        return 'setup_error';
      }
      return cause?.suite && cause.error?.failureType === 'testCodeFailure' ? 'collection_error' : 'timeout';
    }
  }
  if (event.suite) {
    return 'collection_error';
  }
  const cause = error?.cause;
  if (error?.code === 'ERR_ASSERTION' || cause?.code === 'ERR_ASSERTION' || cause?.name === 'AssertionError') {
    return 'assertion';
  }
  return exceptionSite(v8StackFiles(cause?.stack), scope);
}

function failureMessage(event: TestLine): string | undefined {
  const error = event.error;
  const cause = error?.cause;
  if (cause?.name === undefined || cause.message === undefined) {
    return messageLine(error?.message ?? cause?.message);
  }
  const thrown = `${cause.name}: ${messageLine(cause.message) ?? ''}`;
  // Node's own message says which hook failed ("failed running before hook"); the cause says why.
  return messageLine(error?.failureType === 'hookFailed' && error.message ? `${messageLine(error.message)}: ${thrown}` : thrown);
}

/** `result` as a failure of `kind`, with its message's copy paths made repository-relative. */
function failed(result: TestCaseResult, kind: FailureKind, message: string | undefined, workdir: string): TestCaseResult {
  const line = messageLine(message, workdir);
  return { ...result, status: statusForFailure(kind), failure_kind: kind, ...(line === undefined ? {} : { message: line }) };
}

/** One test's result; `idFile` is the file of its top-level test, which starts its id. */
function toResult(node: TestNode, ancestors: readonly TestLine[], idFile: string, context: ParseContext): TestCaseResult {
  const { event } = node;
  const file = fileOf(event, context);
  const fileLevel = isFileLevel(event);
  const id = fileLevel ? idFile : [idFile, ...ancestors.map((parent) => parent.name), event.name].join(ID_SEPARATOR);
  const location = event.line === undefined || file === NODE_TEST_ENTRY_ID ? file : `${file}:${event.line}`;
  if (event.todo !== undefined) {
    return { id, status: 'skipped', location, skip_reason: `todo: ${reason(event.todo, 'no reason given')}` };
  }
  if (event.skip !== undefined) {
    return { id, status: 'skipped', location, skip_reason: reason(event.skip, 'skipped') };
  }
  if (event.event === 'pass') {
    return { id, status: 'passed', location };
  }
  const failure = fileLevel ? processFailure(event) : { kind: failureKind(event, ancestors, context.scope), message: failureMessage(event) };
  return failed({ id, status: 'errored', location }, failure.kind, failure.message, context.scope.workdir);
}

/** A parent's own failure (a hook, its body, a timeout; not merely its subtests'). */
interface ParentFailure {
  name: string;
  kind: FailureKind;
  message: string | undefined;
}

function isFailing(result: TestCaseResult): boolean {
  return result.status === 'failed' || result.status === 'errored';
}

/**
 * Collects the results under `node` and returns how many of them fail. Only leaves are tests, so
 * the set of ids does not depend on outcomes; a parent's own failure is handed down to its leaves
 * that passed (an `after` hook that throws fails the tests it serves), and only when no leaf
 * took it (all skipped) does the parent stand as a test of its own.
 */
function collectResults(
  node: TestNode,
  ancestors: readonly TestLine[],
  idFile: string,
  inherited: ParentFailure | undefined,
  context: ParseContext,
  out: TestCaseResult[]
): number {
  const { event } = node;
  const { scope } = context;
  if (node.children.length === 0) {
    const ranNothing = event.event === 'pass' && event.skip === undefined && event.todo === undefined;
    if ((isFileLevel(event) || event.suite) && ranNothing) {
      return 0;
    }
    let result = toResult(node, ancestors, idFile, context);
    const cancelled = event.error?.failureType === 'cancelledByParent';
    if (inherited !== undefined && (result.status === 'passed' || cancelled)) {
      const message = `'${inherited.name}' failed: ${inherited.message ?? inherited.kind}`;
      // A cancelled test keeps its own kind (a cancelled test never asserted anything); it only learns why.
      result = failed(result, cancelled ? (result.failure_kind ?? 'unknown') : inherited.kind, message, scope.workdir);
    }
    out.push(result);
    return isFailing(result) ? 1 : 0;
  }
  const own: ParentFailure | undefined = ownFailure(event) ? { name: event.name, kind: failureKind(event, ancestors, scope), message: failureMessage(event) } : undefined;
  let failing = 0;
  for (const child of node.children) {
    failing += collectResults(child, [...ancestors, event], idFile, own ?? inherited, context, out);
  }
  if (own !== undefined && failing === 0) {
    out.push(toResult(node, ancestors, idFile, context));
    return 1;
  }
  return failing;
}

/**
 * The results of one top-level test. A top-level test the entry defined, other than a canary or
 * the process as a whole, is a test file that did not import, named after that file.
 */
function collectRoot(root: TestNode, context: ParseContext, out: TestCaseResult[]): void {
  const { event } = root;
  const file = fileOf(event, context);
  const isImportFailure =
    file === NODE_TEST_ENTRY_ID && root.children.length === 0 && !isFileLevel(event) && event.name !== context.canaries.pass && event.name !== context.canaries.fail;
  if (!isImportFailure) {
    collectResults(root, [], file, undefined, context, out);
    return;
  }
  const base: TestCaseResult = { id: event.name, status: 'passed', location: event.name };
  const failure = importFailure(event);
  out.push(event.event === 'pass' ? base : failed(base, failure.kind, failure.message, context.scope.workdir));
}

function category(event: TestLine): Category {
  if (event.todo !== undefined || event.skip !== undefined) {
    return 'skipped';
  }
  return event.event === 'pass' ? 'passed' : 'notPassed';
}

/**
 * Node's totals restated for the tests PatchProof counts. Node counts every non-suite test,
 * parents and whole files included; the restatement takes away what node counted in the lines read
 * and adds the parsed tests (without the canaries), so it equals the parsed counts exactly when
 * node's totals agree with the lines, and a lost or forged line shows as a difference. Node does
 * not tell an assertion failure from another error, so its not-passed total is split the way the
 * parsed tests split it.
 */
function claimedCounts(totals: NodeTotals, events: readonly TestLine[], tests: readonly TestCaseResult[]): TestCounts {
  const restated: Record<Category, number> = {
    passed: totals.pass,
    notPassed: totals.fail + totals.cancelled,
    skipped: totals.skipped + totals.todo
  };
  for (const event of events) {
    if (!event.suite) {
      restated[category(event)] -= 1;
    }
  }
  const parsed = countTests(tests);
  restated.passed += parsed.passed;
  restated.notPassed += parsed.failed + parsed.errored;
  restated.skipped += parsed.skipped;
  const failed = Math.max(0, Math.min(parsed.failed, restated.notPassed));
  return { passed: restated.passed, failed, errored: restated.notPassed - failed, skipped: restated.skipped };
}

/** The exit code against all results, canaries included (the must-fail canary alone makes it 1). */
function checkExitCode(exitCode: number | null, results: readonly TestCaseResult[], problems: string[]): void {
  const failing = results.some(isFailing);
  if (exitCode === null) {
    problems.push('node --test did not exit normally');
  } else if (exitCode === 0 && failing) {
    problems.push('node --test exited 0 although tests failed');
  } else if (exitCode !== 0 && !failing) {
    problems.push(`node --test exited ${exitCode} although no test failed`);
  }
}

function capProblems(problems: string[]): string[] {
  return problems.length <= PROBLEM_LIMIT ? problems : [...problems.slice(0, PROBLEM_LIMIT), `and ${problems.length - PROBLEM_LIMIT} more problems`];
}

/** Parses a node --test run's results (pure: the file's text in, results out). */
export function parseNodeTestResults(request: ParseRequest): ParsedResults & { canary: CanaryOutcome } {
  const canaries = canaryNames(request.canary);
  const text = request.files[NODE_TEST_RESULTS_FILE];
  if (text === undefined) {
    return {
      tests: [],
      problems: [`${NODE_TEST_RESULTS_FILE} is missing: node --test wrote no results`],
      canary: { pass: 'missing', fail: 'missing' }
    };
  }
  const problems: string[] = [];
  const lines = readLines(text, problems);
  const start = lines[0];
  const end = lines.at(-1);
  if (start?.kind !== 'start' || start.format !== NODE_TEST_REPORT_FORMAT) {
    problems.push(`${NODE_TEST_RESULTS_FILE} does not begin with a ${NODE_TEST_REPORT_FORMAT} start line`);
  }
  const events = lines.filter((line): line is TestLine => line.kind === 'test');
  const diagnostics = lines.flatMap((line) => (line.kind === 'diagnostic' ? [line] : []));
  if (end?.kind !== 'end') {
    problems.push(`${NODE_TEST_RESULTS_FILE} has no end line: the run was cut off or the file truncated`);
  } else if (end.tests !== events.length || end.diagnostics !== diagnostics.length) {
    problems.push(`${NODE_TEST_RESULTS_FILE} end line counts ${end.tests} tests and ${end.diagnostics} diagnostics; read ${events.length} and ${diagnostics.length}`);
  }

  const testFiles = new Set(events.flatMap((event) => (event.file === undefined ? [] : [repoRelative(request.workdir, event.file) ?? event.file])));
  const context: ParseContext = {
    scope: { workdir: request.workdir, testRoots: request.testRoots, testFiles },
    entry: nodeTestEntryPath(request.canary),
    canaries
  };
  const collected: TestCaseResult[] = [];
  for (const root of buildTrees(events, problems)) {
    collectRoot(root, context, collected);
  }
  // node:test allows two tests of one title (find-my-way's suite has eight such files): each copy
  // keeps its own id, an occurrence index in file order, as for jest and vitest.
  const results = indexDuplicateIds(collected, problems);
  for (const event of events) {
    if (event.file === undefined) {
      problems.push(`test '${event.name}' has no file`);
    }
  }

  const totals = readTotals(diagnostics);
  if (totals === undefined) {
    problems.push("node's closing totals (tests/pass/fail/cancelled/skipped/todo) are missing");
  }
  checkExitCode(request.exitCode, results, problems);
  const { tests, canary } = takeCanaries(results, {
    pass: `${NODE_TEST_ENTRY_ID}${ID_SEPARATOR}${canaries.pass}`,
    fail: `${NODE_TEST_ENTRY_ID}${ID_SEPARATOR}${canaries.fail}`
  });
  const channel =
    request.output === undefined
      ? undefined
      : checkChannel({
          output: request.output,
          mark: FRAME_MARK,
          nonce: channelNonce(request.canary),
          sealed: { [NODE_TEST_RESULTS_FILE]: text },
          records: channelRecords(text),
          ...(request.resultDigests !== undefined ? { digests: request.resultDigests } : {})
        });
  return {
    tests,
    ...(totals === undefined ? {} : { claimed: claimedCounts(totals, events, tests) }),
    problems: capProblems(problems),
    canary,
    ...(channel ? { channel } : {})
  };
}

/** The reporter's test lines as the channel frames them (raw, before any reading of their fields). */
function channelRecords(text: string): { id: string; status: string | null }[] {
  const records: { id: string; status: string | null }[] = [];
  for (const line of text.split('\n')) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'test') {
      const raw = value as Record<string, unknown>;
      records.push({ id: nodeTestFrameId(raw), status: typeof raw.event === 'string' ? raw.event : null });
    }
  }
  return records;
}
