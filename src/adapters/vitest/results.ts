import { z } from 'zod';
import type { FailureKind, ParsedResults, TestCaseResult, TestCounts } from '../../core/test-results.js';
import { countTests, indexDuplicateIds } from '../../core/test-results.js';
import type { CanaryOutcome, ParseRequest } from '../adapter.js';
import { canaryNames } from '../shared/canary.js';
import { changedOf } from '../shared/tripwire.js';
import { messageLine, repoRelative } from '../shared/exception-site.js';
import type { TestScope } from '../shared/exception-site.js';
import { failedResult, foldCanaries, loadFailureKind, stackFrames, thrownFrom } from '../shared/js-runner-failure.js';
import type { FileCanaries } from '../shared/js-runner-failure.js';
import { wrappedFile } from '../shared/js-runner-wrapper.js';
import { VITEST_CLAIMS_FILE, VITEST_RESULTS_FILE, VITEST_RESULTS_FORMAT, vitestFrameId } from './harness.js';
import { channelNonce, checkChannel, FRAME_MARK } from '../shared/results-channel.js';

/**
 * Turns the vitest runner script's task tree (vitest-harness.ts) into PatchProof's test results,
 * cross-checked against vitest's own JSON reporter tallies.
 *
 * Ids: `<test file> > <describe>… > <test>`, the test file being the one the wrapper imported.
 *
 * Status mapping: an assertion failure is `failed`; any other way of not passing is `errored`;
 * `skip`/`skipIf`/`runIf` and tests left out by `.only`, `todo`, and a `.fails` test that failed as
 * expected are `skipped`. A test that was to run but was skipped because a `beforeAll` of an
 * enclosing suite failed is `errored` (`setup_error`), with the hook's error. A test file that did
 * not load (caught by its wrapper) is one `errored` test named by the file; errors of a suite or
 * file that no test took (an `afterAll`, a throwing `describe` body) stand as a test of their own.
 *
 * Failure kinds: a hook (vitest's `callSuiteHook` on the stack) is `setup_error`; an
 * `AssertionError` (vitest's `expect`, chai, node's `assert`), `expect.assertions` and a `.fails`
 * test that passed are `assertion`; any other exception is `exception_in_code` or
 * `exception_in_test` by its innermost repository frame (see exceptionSite).
 */

const PROBLEM_LIMIT = 20;

const errorSchema = z.object({ name: z.string(), message: z.string(), stack: z.string().optional() });
type VitestError = z.infer<typeof errorSchema>;

interface VitestTask {
  type: string;
  name: string;
  mode: string;
  fails: boolean;
  line?: number | undefined;
  state?: string | undefined;
  errors: VitestError[];
  tasks?: VitestTask[] | undefined;
}

const taskSchema: z.ZodType<VitestTask> = z.lazy(() =>
  z.object({
    type: z.string(),
    name: z.string(),
    mode: z.string(),
    fails: z.boolean(),
    line: z.number().int().optional(),
    state: z.string().optional(),
    errors: z.array(errorSchema),
    tasks: z.array(taskSchema).optional()
  })
);
const reportSchema = z.object({
  format: z.literal(VITEST_RESULTS_FORMAT),
  files: z.array(z.object({ file: z.string(), state: z.string().optional(), errors: z.array(errorSchema), tasks: z.array(taskSchema).optional() })),
  unhandled: z.array(errorSchema)
});
const claimsSchema = z.object({
  numPassedTests: z.number().int().nonnegative(),
  numFailedTests: z.number().int().nonnegative(),
  numPendingTests: z.number().int().nonnegative(),
  numTodoTests: z.number().int().nonnegative(),
  success: z.boolean()
});

const HOOK_FRAME = /(?:^|\.)(?:callSuiteHook|runHook)$/;
const ASSERTION_NAME = /^AssertionError$/;
const ASSERTION_MESSAGE = /^(?:expected number of assertions|expected any number of assertion|Expect test to fail)/;

function errorText(error: VitestError | undefined): string {
  return error === undefined ? '' : `${error.name}: ${error.message}`;
}

function failureKind(error: VitestError | undefined, scope: TestScope): FailureKind {
  const frames = stackFrames(error?.stack);
  if (frames.some((frame) => frame.fn !== undefined && HOOK_FRAME.test(frame.fn))) {
    return 'setup_error';
  }
  if (error !== undefined && (ASSERTION_NAME.test(error.name) || ASSERTION_MESSAGE.test(error.message))) {
    return 'assertion';
  }
  return thrownFrom(frames, scope);
}

interface Adjustments {
  canaryPassed: number;
  canaryFailed: number;
  canarySkipped: number;
  expectedFailures: number;
  hookSkipped: number;
  extra: number;
}

interface Walk {
  file: string;
  scope: TestScope;
  names: { pass: string; fail: string };
  results: TestCaseResult[];
  canaries: FileCanaries;
  /** What vitest counts differently: canaries, `.fails` tests (passed to vitest), tests a failed beforeAll skipped, and errors no test took (not counted by vitest). */
  adjust: Adjustments;
}

function testResult(task: VitestTask, ancestors: readonly string[], inherited: VitestError | undefined, walk: Walk): TestCaseResult {
  const { file, scope } = walk;
  const base: TestCaseResult = { id: [file, ...ancestors, task.name].join(' > '), status: 'passed', location: file };
  if (task.mode === 'todo') {
    return { ...base, status: 'skipped', skip_reason: 'todo' };
  }
  if (task.state === 'skip' && inherited !== undefined) {
    // vitest marks the tests of a suite whose beforeAll failed as skipped (mode and state).
    walk.adjust.hookSkipped += 1;
    return failedResult(base, 'setup_error', errorText(inherited), scope.workdir);
  }
  if (task.mode === 'skip' || task.state === 'skip') {
    return { ...base, status: 'skipped', skip_reason: 'skipped' };
  }
  if (task.state === 'pass') {
    return task.fails ? { ...base, status: 'skipped', skip_reason: 'expected_failure' } : base;
  }
  if (task.state === 'fail') {
    const error = task.errors[0];
    return failedResult(base, failureKind(error, scope), errorText(error), scope.workdir);
  }
  return failedResult(base, 'unknown', `the test did not finish (state ${task.state ?? 'none'})`, scope.workdir);
}

/** Collects the results under a suite; returns how many tests took `inherited` (a failed beforeAll). */
function walkTasks(tasks: readonly VitestTask[], ancestors: readonly string[], inherited: VitestError | undefined, walk: Walk): void {
  for (const task of tasks) {
    const atRoot = ancestors.length === 0;
    if (task.type === 'suite') {
      const own = task.errors[0];
      const before = walk.results.length;
      walkTasks(task.tasks ?? [], [...ancestors, task.name], own ?? inherited, walk);
      const took = walk.results.slice(before).some((result) => result.failure_kind === 'setup_error');
      if (own !== undefined && !took) {
        const id = [walk.file, ...ancestors, task.name].join(' > ');
        const kind = failureKind(own, walk.scope) === 'setup_error' ? 'setup_error' : 'collection_error';
        walk.adjust.extra += 1;
        walk.results.push(failedResult({ id, status: 'errored', location: walk.file }, kind, errorText(own), walk.scope.workdir));
      }
      continue;
    }
    if (atRoot && (task.name === walk.names.pass || task.name === walk.names.fail)) {
      const result = testResult(task, [], undefined, walk);
      walk.canaries[task.name === walk.names.pass ? 'pass' : 'fail'] = result.status;
      const changed = task.name === walk.names.pass && result.status !== 'passed' ? changedOf(errorText(task.errors[0])) : undefined;
      if (changed !== undefined) walk.canaries.changed = changed;
      const counted = task.state === 'pass' ? 'canaryPassed' : task.state === 'fail' ? 'canaryFailed' : 'canarySkipped';
      walk.adjust[counted] += 1;
      continue;
    }
    if (atRoot && task.name === walk.file) {
      const error = task.errors[0];
      const base: TestCaseResult = { id: walk.file, status: 'passed', location: walk.file };
      walk.results.push(task.state === 'pass' ? base : failedResult({ ...base, status: 'errored' }, loadFailureKind(errorText(error)), errorText(error), walk.scope.workdir));
      continue;
    }
    const result = testResult(task, ancestors, inherited, walk);
    walk.adjust.expectedFailures += result.skip_reason === 'expected_failure' ? 1 : 0;
    walk.results.push(result);
  }
}

function readJson<T>(text: string | undefined, name: string, schema: z.ZodType<T>, problems: string[]): T | undefined {
  if (text === undefined) {
    problems.push(`${name} is missing: vitest wrote no results`);
    return undefined;
  }
  try {
    const checked = schema.safeParse(JSON.parse(text));
    if (checked.success) {
      return checked.data;
    }
    problems.push(`${name} does not have the expected shape: ${checked.error.issues[0]?.message ?? 'bad shape'}`);
  } catch (error) {
    problems.push(`${name} is not JSON: ${(error as Error).message}`);
  }
  return undefined;
}

/** Parses a vitest wrapper run's task tree and tallies (pure: the files' text in, results out). */
export function parseVitestResults(request: ParseRequest): ParsedResults & { canary: CanaryOutcome } {
  const names = canaryNames(request.canary);
  const problems: string[] = [];
  const report = readJson(request.files[VITEST_RESULTS_FILE], VITEST_RESULTS_FILE, reportSchema, problems);
  const claims = readJson(request.files[VITEST_CLAIMS_FILE], VITEST_CLAIMS_FILE, claimsSchema, problems);
  if (report === undefined) {
    return { tests: [], problems, canary: { pass: 'missing', fail: 'missing' } };
  }
  const entries: { entry: (typeof report.files)[number]; file: string }[] = [];
  for (const entry of report.files) {
    const relative = repoRelative(request.workdir, entry.file);
    const file = relative === undefined ? undefined : wrappedFile('vitest', relative);
    if (file === undefined) {
      problems.push(`vitest reported a test file PatchProof did not wrap: ${entry.file}`);
    } else {
      entries.push({ entry, file });
    }
  }
  const scope: TestScope = { workdir: request.workdir, testRoots: request.testRoots, testFiles: new Set(entries.map(({ file }) => file)) };
  const collected: TestCaseResult[] = [];
  const perFile: FileCanaries[] = [];
  const adjust: Adjustments = { canaryPassed: 0, canaryFailed: 0, canarySkipped: 0, expectedFailures: 0, hookSkipped: 0, extra: 0 };
  for (const { entry, file } of entries) {
    const walk: Walk = { file, scope, names, results: [], canaries: { pass: 'missing', fail: 'missing' }, adjust };
    walkTasks(entry.tasks ?? [], [], undefined, walk);
    const own = entry.errors[0];
    if (own !== undefined) {
      // An error of the file itself: an afterAll at its top level, or a file that did not collect.
      const kind = failureKind(own, scope) === 'setup_error' ? 'setup_error' : loadFailureKind(errorText(own));
      adjust.extra += 1;
      walk.results.push(failedResult({ id: file, status: 'errored', location: file }, kind, errorText(own), request.workdir));
    }
    collected.push(...walk.results);
    perFile.push(walk.canaries);
  }
  for (const error of report.unhandled) {
    problems.push(`vitest reported an unhandled error: ${messageLine(errorText(error), request.workdir) ?? error.name}`);
  }
  const tests = indexDuplicateIds(collected, problems);
  const canary = foldCanaries(perFile);
  const failing = tests.some((test) => test.status === 'failed' || test.status === 'errored') || canary.fail === 'failed' || canary.fail === 'errored';
  if (request.exitCode === null) {
    problems.push('vitest did not exit normally');
  } else if ((request.exitCode === 0) === failing || (claims !== undefined && claims.success === failing)) {
    problems.push(`vitest exited ${request.exitCode} although ${failing ? 'tests failed' : 'no test failed'}`);
  }
  const claimed = claims === undefined ? undefined : claimedCounts(claims, adjust, tests);
  const channel =
    request.output === undefined
      ? undefined
      : checkChannel({
          output: request.output,
          mark: FRAME_MARK,
          nonce: channelNonce(request.canary),
          sealed: { [VITEST_RESULTS_FILE]: request.files[VITEST_RESULTS_FILE], [VITEST_CLAIMS_FILE]: request.files[VITEST_CLAIMS_FILE] },
          records: report.files.flatMap((entry) => channelRecords(entry.file, entry.tasks ?? [], [])),
          ...(request.resultDigests !== undefined ? { digests: request.resultDigests } : {})
        });
  return {
    tests,
    ...(claimed === undefined ? {} : { claimed }),
    problems: problems.length <= PROBLEM_LIMIT ? problems : [...problems.slice(0, PROBLEM_LIMIT), `and ${problems.length - PROBLEM_LIMIT} more problems`],
    canary,
    ...(channel ? { channel } : {})
  };
}

/** The tests of a task tree as the runner script frames them (vitest-harness.ts). */
function channelRecords(file: string, tasks: readonly VitestTask[], suites: readonly string[]): { id: string; status: string | null }[] {
  return tasks.flatMap((task) =>
    task.type === 'suite' ? channelRecords(file, task.tasks ?? [], [...suites, task.name]) : [{ id: vitestFrameId(file, suites, task.name), status: task.state ?? null }]
  );
}

/**
 * vitest's own tallies restated for PatchProof's tests: without the canaries; `.fails` tests that
 * failed as expected moved from passed to skipped; tests a failed beforeAll skipped, and suite or
 * file errors no test took, counted as not passed. vitest does not tell an assertion from another
 * error, so its failures are split the way the parsed tests split.
 */
function claimedCounts(claims: z.infer<typeof claimsSchema>, adjust: Adjustments, tests: readonly TestCaseResult[]): TestCounts {
  const parsed = countTests(tests);
  const notPassed = claims.numFailedTests - adjust.canaryFailed + adjust.hookSkipped + adjust.extra;
  const failed = Math.max(0, Math.min(parsed.failed, notPassed));
  return {
    passed: claims.numPassedTests - adjust.canaryPassed - adjust.expectedFailures,
    failed,
    errored: notPassed - failed,
    skipped: claims.numPendingTests + claims.numTodoTests - adjust.canarySkipped + adjust.expectedFailures - adjust.hookSkipped
  };
}
