import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import type { FailureKind, ParsedResults, TestCaseResult, TestCounts, TestStatus } from '../core/test-results.js';
import { countTests } from '../core/test-results.js';
import { HARNESS_DIR, RESERVED_DIR } from './adapter.js';
import type { CommandRequest, ParseRequest, TestAdapter, TestCommand } from './adapter.js';
import { NODE_TEST_REPORT_FORMAT, NODE_TEST_REPORTER_FILE, NODE_TEST_REPORTER_SOURCE } from './node-test-reporter.js';

/**
 * The node-test adapter: node's built-in runner (`node --test`) with PatchProof's JSON-lines
 * reporter (see node-test-reporter.ts).
 *
 * Status mapping, the same for every adapter: an assertion failure is `failed`; every other way of
 * not passing (an exception, a hook, a timeout or cancellation, a file that does not load) is
 * `errored`; skip and todo (passing or failing) are `skipped`.
 *
 * What counts as a test: every leaf of node's test tree, so the ids of a tree do not depend on how
 * its tests ended. A parent (a describe, or a test with `t.test` subtests) is not a test of its
 * own: when it fails for a reason of its own (an `after` hook, a throw after its subtests; not
 * merely `subtestsFailed`) that failure goes to its leaves that passed, and the parent stands as a
 * test only when no leaf took it. Also tests: a skipped suite, whose tests node never reports, and
 * a file that failed as a whole (node reports a test named after the file: a SyntaxError, a missing
 * module, a crash or `process.exit` before its tests reported; `import_error` when stderr names a
 * missing module or export, else `collection_error`). A file that passed as a whole reported no
 * tests and is not one.
 *
 * Failure kinds: ERR_ASSERTION/AssertionError is `assertion`; a failed hook `setup_error`; a
 * timeout, or a cancellation not caused by a failed hook or suite body, `timeout`; a suite body
 * that throws `collection_error` (its cancelled tests too); any other exception
 * `exception_in_code` or `exception_in_test` by the innermost repository frame of its stack (see
 * exceptionSite).
 */

/** Result file the reporter writes, relative to the results directory. */
export const NODE_TEST_RESULTS_FILE = 'node-test.jsonl';

const MESSAGE_LIMIT = 500;
const PROBLEM_LIMIT = 20;
const ID_SEPARATOR = ' > ';
const JS_FILE = /\.[cm]?js$/;
const NODE_TEST_PATTERNS = [/\.test\.[cm]?js$/, /-test\.[cm]?js$/, /_test\.[cm]?js$/, /^test-.*\.[cm]?js$/, /^test\.[cm]?js$/];
const STDERR_ERROR_LINE = /^(?:[\w$.]*Error|Error)(?: \[[A-Z0-9_]+\])?: /;
const IMPORT_FAILURE = /ERR_MODULE_NOT_FOUND|Cannot find (?:module|package)|does not provide an export named/;
const LIBRARY_SEGMENTS = new Set(['node_modules', 'site-packages', 'dist-packages']);

/**
 * True for files node 20's `--test` picks up by default: `*.test.js`, `*-test.js`, `*_test.js`,
 * `test-*.js`, `test.js` (each also `.mjs`/`.cjs`) and any such script under a `test/` folder,
 * never inside node_modules.
 */
export function isNodeTestFile(relativePath: string): boolean {
  const segments = relativePath.split(/[\\/]/);
  const base = segments.pop() ?? '';
  if (segments.includes('node_modules')) {
    return false;
  }
  return NODE_TEST_PATTERNS.some((pattern) => pattern.test(base)) || (segments.includes('test') && JS_FILE.test(base));
}

/** `path` relative to `root` when it lies inside it (POSIX paths, as the test process saw them). */
export function repoRelative(root: string, file: string): string | undefined {
  const base = path.posix.normalize(root).replace(/\/+$/, '');
  const target = path.posix.normalize(file);
  return target.startsWith(`${base}/`) ? target.slice(base.length + 1) : undefined;
}

/** What a test run's own files are, to tell test code from the code under test. */
export interface TestScope {
  workdir: string;
  /** Repository-relative folders holding the run's test files. */
  testRoots: readonly string[];
  /** Repository-relative files known to be tests of this run. */
  testFiles: ReadonlySet<string>;
}

/**
 * Where an exception came from, judged by the innermost stack frame in the repository that is not
 * a dependency (node_modules, site-packages): a file outside the test roots, the run's test files
 * and `.patchproof/` is the code under test. Frames are absolute paths, innermost first; with no
 * usable frame the answer is `unknown`.
 */
export function exceptionSite(framesInnermostFirst: readonly string[], scope: TestScope): FailureKind {
  for (const frame of framesInnermostFirst) {
    const relative = repoRelative(scope.workdir, frame);
    if (relative === undefined || relative.split('/').some((segment) => LIBRARY_SEGMENTS.has(segment))) {
      continue;
    }
    const isTest =
      relative.startsWith(`${RESERVED_DIR}/`) ||
      scope.testFiles.has(relative) ||
      scope.testRoots.some((root) => root !== '' && (relative === root || relative.startsWith(`${root.replace(/\/+$/, '')}/`)));
    return isTest ? 'exception_in_test' : 'exception_in_code';
  }
  return 'unknown';
}

/**
 * The first non-empty line of a message, at most 500 characters; with `workdir`, paths inside the
 * copy are made repository-relative so the message is the same in every copy.
 */
export function messageLine(text: string | undefined, workdir?: string): string | undefined {
  const line = text
    ?.split('\n')
    .map((part) => part.trim())
    .find((part) => part !== '');
  if (line === undefined) {
    return undefined;
  }
  const root = workdir === undefined ? undefined : `${path.posix.normalize(workdir).replace(/\/+$/, '')}/`;
  const relative = root === undefined ? line : line.split(`file://${root}`).join('').split(root).join('');
  return relative.slice(0, MESSAGE_LIMIT);
}

/** Status for a failure kind: only an assertion is `failed`. */
export function statusForFailure(kind: FailureKind): TestStatus {
  return kind === 'assertion' ? 'failed' : 'errored';
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

/**
 * Checks that a run has test files and that each is a repository-relative path staying inside the
 * copy (an empty list must never fall back to running the whole repository suite).
 */
export function checkTestFiles(files: readonly string[], testRoot: string | undefined): void {
  if (files.length === 0) {
    throw new ConfigurationError(`no test files to run under '${testRoot ?? '(no folder given)'}'; the adapter recognises none of the staged files as tests`);
  }
  for (const file of files) {
    if (file === '' || path.posix.isAbsolute(file) || file.split(/[\\/]/).includes('..')) {
      throw new ConfigurationError(`Invalid test file '${file}'. Expected a path relative to the repository root, without '..'.`);
    }
  }
}

const flagSchema = z.union([z.boolean(), z.string()]).optional();
const errorSchema = z.object({
  name: z.string().optional(),
  code: z.string().optional(),
  failureType: z.string().optional(),
  message: z.string().optional(),
  exitCode: z.number().int().optional(),
  signal: z.string().optional(),
  cause: z
    .object({ name: z.string().optional(), code: z.string().optional(), message: z.string().optional(), stack: z.string().optional() })
    .optional()
});
const lineSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('start'), format: z.string(), node: z.string() }),
  z.object({
    kind: z.literal('test'),
    event: z.enum(['pass', 'fail']),
    name: z.string(),
    nesting: z.number().int().nonnegative(),
    file: z.string().optional(),
    line: z.number().int().optional(),
    column: z.number().int().optional(),
    suite: z.boolean(),
    skip: flagSchema,
    todo: flagSchema,
    duration_ms: z.number().optional(),
    error: errorSchema.optional(),
    stderr: z.array(z.string()).optional()
  }),
  z.object({ kind: z.literal('diagnostic'), nesting: z.number().int(), file: z.string().optional(), message: z.string() }),
  z.object({ kind: z.literal('end'), format: z.string(), tests: z.number().int(), diagnostics: z.number().int() })
]);
type TestLine = Extract<z.infer<typeof lineSchema>, { kind: 'test' }>;

interface TestNode {
  event: TestLine;
  children: TestNode[];
}

/** Node's own totals, from its closing diagnostics. */
interface NodeTotals {
  tests: number;
  pass: number;
  fail: number;
  cancelled: number;
  skipped: number;
  todo: number;
}

type Category = 'passed' | 'notPassed' | 'skipped';

function readLines(text: string, problems: string[]): z.infer<typeof lineSchema>[] {
  const lines: z.infer<typeof lineSchema>[] = [];
  const raw = text.split('\n');
  if (raw.at(-1) === '') {
    raw.pop();
  }
  raw.forEach((line, index) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`${NODE_TEST_RESULTS_FILE} line ${index + 1} is not JSON`);
      return;
    }
    const parsed = lineSchema.safeParse(value);
    if (parsed.success) {
      lines.push(parsed.data);
    } else {
      problems.push(`${NODE_TEST_RESULTS_FILE} line ${index + 1} is malformed: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`);
    }
  });
  return lines;
}

/** Rebuilds node's test tree from its post-order events, per file. */
function buildTrees(events: readonly TestLine[], problems: string[]): TestNode[] {
  const pendingByFile = new Map<string, Map<number, TestNode[]>>();
  const roots: TestNode[] = [];
  for (const event of events) {
    const key = event.file ?? '';
    const pending = pendingByFile.get(key) ?? new Map<number, TestNode[]>();
    pendingByFile.set(key, pending);
    const node: TestNode = { event, children: pending.get(event.nesting + 1) ?? [] };
    pending.delete(event.nesting + 1);
    if (event.nesting === 0) {
      roots.push(node);
    } else {
      pending.set(event.nesting, [...(pending.get(event.nesting) ?? []), node]);
    }
  }
  for (const [file, pending] of pendingByFile) {
    for (const [nesting, nodes] of pending) {
      problems.push(`${nodes.length} test(s) at nesting ${nesting} in '${file}' were never closed by a parent`);
    }
  }
  return roots;
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

function fileFailure(event: TestLine): { kind: FailureKind; message: string } {
  const stderr = event.stderr ?? [];
  const errorLine = stderr.map((line) => line.trim()).find((line) => STDERR_ERROR_LINE.test(line));
  const kind: FailureKind = stderr.some((line) => IMPORT_FAILURE.test(line)) ? 'import_error' : 'collection_error';
  const exit = event.error?.signal ? `signal ${event.error.signal}` : `exit code ${event.error?.exitCode ?? 'unknown'}`;
  return { kind, message: messageLine(errorLine) ?? `test file failed to run (${exit})` };
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

function toResult(node: TestNode, ancestors: readonly TestLine[], scope: TestScope): TestCaseResult {
  const { event } = node;
  const file = event.file === undefined ? '<no file>' : (repoRelative(scope.workdir, event.file) ?? event.file);
  const fileLevel = isFileLevel(event);
  const id = fileLevel ? file : [file, ...ancestors.map((parent) => parent.name), event.name].join(ID_SEPARATOR);
  const location = event.line === undefined ? file : `${file}:${event.line}`;
  if (event.todo !== undefined) {
    return { id, status: 'skipped', location, skip_reason: `todo: ${reason(event.todo, 'no reason given')}` };
  }
  if (event.skip !== undefined) {
    return { id, status: 'skipped', location, skip_reason: reason(event.skip, 'skipped') };
  }
  if (event.event === 'pass') {
    return { id, status: 'passed', location };
  }
  const failure = fileLevel ? fileFailure(event) : { kind: failureKind(event, ancestors, scope), message: failureMessage(event) };
  return failed({ id, status: 'errored', location }, failure.kind, failure.message, scope.workdir);
}

/** `result` as a failure of `kind`, with its message's copy paths made repository-relative. */
function failed(result: TestCaseResult, kind: FailureKind, message: string | undefined, workdir: string): TestCaseResult {
  const line = messageLine(message, workdir);
  return { ...result, status: statusForFailure(kind), failure_kind: kind, ...(line === undefined ? {} : { message: line }) };
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
  inherited: ParentFailure | undefined,
  scope: TestScope,
  out: TestCaseResult[]
): number {
  const { event } = node;
  if (node.children.length === 0) {
    const ranNothing = event.event === 'pass' && event.skip === undefined && event.todo === undefined;
    if ((isFileLevel(event) || event.suite) && ranNothing) {
      return 0;
    }
    let result = toResult(node, ancestors, scope);
    const cancelled = event.error?.failureType === 'cancelledByParent';
    if (inherited !== undefined && (result.status === 'passed' || cancelled)) {
      const message = `'${inherited.name}' failed: ${inherited.message ?? inherited.kind}`;
      // A cancelled test keeps its own kind (a cancelled test never asserted anything); it only learns why.
      result = failed(result, cancelled ? (result.failure_kind ?? 'unknown') : inherited.kind, message, scope.workdir);
    }
    out.push(result);
    return isFailing(result) ? 1 : 0;
  }
  const own: ParentFailure | undefined = ownFailure(event)
    ? { name: event.name, kind: failureKind(event, ancestors, scope), message: failureMessage(event) }
    : undefined;
  let failing = 0;
  for (const child of node.children) {
    failing += collectResults(child, [...ancestors, event], own ?? inherited, scope, out);
  }
  if (own !== undefined && failing === 0) {
    out.push(toResult(node, ancestors, scope));
    return 1;
  }
  return failing;
}

function readTotals(diagnostics: readonly { nesting: number; file?: string; message: string }[]): NodeTotals | undefined {
  const found = new Map<string, number>();
  for (const diagnostic of diagnostics) {
    const match = /^(tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(diagnostic.message);
    if (diagnostic.nesting === 0 && diagnostic.file === undefined && match?.[1] !== undefined && match[2] !== undefined) {
      found.set(match[1], Number(match[2]));
    }
  }
  const value = (key: string): number | undefined => found.get(key);
  const [tests, pass, fail, cancelled, skipped, todo] = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'].map(value);
  if (tests === undefined || pass === undefined || fail === undefined || cancelled === undefined || skipped === undefined || todo === undefined) {
    return undefined;
  }
  return { tests, pass, fail, cancelled, skipped, todo };
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
 * and adds the parsed tests, so it equals the parsed counts exactly when node's totals agree with
 * the lines, and a lost or forged line shows as a difference. Node does not tell an assertion
 * failure from another error, so its not-passed total is split the way the parsed tests split it.
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

function checkExitCode(exitCode: number | null, tests: readonly TestCaseResult[], problems: string[]): void {
  const failing = tests.some((test) => test.status === 'failed' || test.status === 'errored');
  if (exitCode === null) {
    problems.push('node --test did not exit normally');
  } else if (exitCode === 0 && failing) {
    problems.push('node --test exited 0 although tests failed');
  } else if (exitCode !== 0 && !failing) {
    problems.push(`node --test exited ${exitCode} although no test failed`);
  }
}

function capProblems(problems: string[]): string[] {
  return problems.length <= PROBLEM_LIMIT
    ? problems
    : [...problems.slice(0, PROBLEM_LIMIT), `and ${problems.length - PROBLEM_LIMIT} more problems`];
}

function parseNodeTest(request: ParseRequest): ParsedResults {
  const text = request.files[NODE_TEST_RESULTS_FILE];
  if (text === undefined) {
    return { tests: [], problems: [`${NODE_TEST_RESULTS_FILE} is missing: node --test wrote no results`] };
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

  const roots = buildTrees(events, problems);
  const testFiles = new Set(
    events.flatMap((event) => (event.file === undefined ? [] : [repoRelative(request.workdir, event.file) ?? event.file]))
  );
  const scope: TestScope = { workdir: request.workdir, testRoots: request.testRoots, testFiles };
  const collected: TestCaseResult[] = [];
  for (const root of roots) {
    collectResults(root, [], undefined, scope, collected);
  }
  const tests: TestCaseResult[] = [];
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const result of collected) {
    if (seen.has(result.id)) {
      duplicates.add(result.id);
    } else {
      seen.add(result.id);
      tests.push(result);
    }
  }
  for (const id of duplicates) {
    problems.push(`duplicate test id '${id}'`);
  }
  for (const event of events) {
    if (event.file === undefined) {
      problems.push(`test '${event.name}' has no file`);
    }
  }

  const totals = readTotals(diagnostics);
  if (totals === undefined) {
    problems.push("node's closing totals (tests/pass/fail/cancelled/skipped/todo) are missing");
  }
  checkExitCode(request.exitCode, tests, problems);
  return {
    tests,
    ...(totals === undefined ? {} : { claimed: claimedCounts(totals, events, tests) }),
    problems: capProblems(problems)
  };
}

function nodeTestCommand(request: CommandRequest): TestCommand {
  const { workdir, resultsDir } = request.view;
  const files = request.files ?? [];
  if (request.files !== undefined) {
    checkTestFiles(request.files, request.testRoot);
  }
  return {
    argv: [
      'node',
      '--test',
      `--test-reporter=${path.posix.join(workdir, HARNESS_DIR, NODE_TEST_REPORTER_FILE)}`,
      `--test-reporter-destination=${path.posix.join(resultsDir, NODE_TEST_RESULTS_FILE)}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      // A relative path starting with '-' would read as an option.
      ...files.map((file) => (file.startsWith('-') ? `./${file}` : file))
    ],
    env: { TZ: 'UTC', LANG: 'C.UTF-8', NO_COLOR: '1' }
  };
}

/** The node-test adapter (stateless). */
export const nodeTestAdapter: TestAdapter = {
  name: 'node-test',
  harness: { [NODE_TEST_REPORTER_FILE]: NODE_TEST_REPORTER_SOURCE },
  isTestFile: isNodeTestFile,
  command: nodeTestCommand,
  parse: parseNodeTest
};
