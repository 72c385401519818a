import { z } from 'zod';
import type { FailureKind, ParsedResults, TestCaseResult } from '../../core/test-results.js';
import type { CanaryOutcome, CanaryPlan, ParseRequest } from '../adapter.js';
import { canaryNames, takeCanaries } from '../shared/canary.js';
import { exceptionSite, messageLine, repoRelative, statusForFailure } from '../shared/exception-site.js';
import type { TestScope } from '../shared/exception-site.js';
import { UNITTEST_FRAME_MARK, UNITTEST_REPORT_FORMAT } from './harness.js';
import { checkChannel } from '../shared/results-channel.js';

/**
 * Turns the unittest harness's JSON (unittest-harness.ts) into PatchProof's test results.
 *
 * Status mapping, as for every adapter: an assertion (the test's failureException) is `failed`;
 * any other exception, an import failure, a fixture error is `errored`; skips and expected
 * failures are `skipped` (skip_reason `expected_failure` for the latter). An unexpected success is
 * `failed` with kind `assertion`: the test's own claim that it fails did not hold.
 *
 * Failure kinds: a test module that did not import is `import_error` (ImportError,
 * ModuleNotFoundError) or `collection_error` (SyntaxError or anything else raised while loading);
 * setUpClass/setUpModule/tearDown* fixtures and a test's setUp/tearDown/cleanups are
 * `setup_error`; other exceptions are `exception_in_code` or `exception_in_test` by the innermost
 * traceback frame in the repository (see exceptionSite). The canaries are taken out of the tests.
 */

/** Result file the harness writes, relative to the results directory. */
export const UNITTEST_RESULTS_FILE = 'unittest.json';

const IMPORT_ERRORS = new Set(['ImportError', 'ModuleNotFoundError']);
const TEST_FIXTURE_PHASES = new Set(['setUp', 'tearDown', 'asyncSetUp', 'asyncTearDown', 'cleanup']);

const frameSchema = z.object({ file: z.string(), line: z.number().int().nullable(), function: z.string().nullable() });
const recordSchema = z.object({
  id: z.string().min(1),
  origin: z.enum(['test', 'load_failure', 'fixture']),
  status: z.enum(['passed', 'failed', 'errored', 'skipped', 'expected_failure', 'unexpected_success']),
  exception: z.object({ type: z.string(), failure_exception: z.boolean(), message: z.string(), frames: z.array(frameSchema) }).nullable(),
  skip_reason: z.string().nullable(),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  phase: z.string().nullable(),
  subtests_failed: z.number().int().nonnegative()
});
const countSchema = z.number().int().nonnegative();
const documentSchema = z.object({
  format: z.literal(UNITTEST_REPORT_FORMAT),
  python: z.string(),
  complete: z.boolean(),
  fatal: z.string().nullable(),
  tests: z.array(recordSchema),
  testsRun: countSchema,
  claimed: z.object({ passed: countSchema, failed: countSchema, errored: countSchema, skipped: countSchema }).optional()
});
type TestRecord = z.infer<typeof recordSchema>;

function failureKind(record: TestRecord, scope: TestScope): FailureKind {
  const exception = record.exception;
  if (record.origin === 'load_failure') {
    return exception !== null && IMPORT_ERRORS.has(exception.type) ? 'import_error' : 'collection_error';
  }
  if (record.origin === 'fixture' || (record.phase !== null && TEST_FIXTURE_PHASES.has(record.phase))) {
    return 'setup_error';
  }
  if (record.status === 'unexpected_success' || exception?.failure_exception === true) {
    return 'assertion';
  }
  const frames = (exception?.frames ?? []).map((frame) => frame.file).reverse();
  return exceptionSite(frames, scope);
}

function location(record: TestRecord, workdir: string): string | undefined {
  if (record.file !== null) {
    const file = repoRelative(workdir, record.file) ?? record.file;
    return record.line === null ? file : `${file}:${record.line}`;
  }
  // Import failures and class fixtures have no test method: point at the innermost repository frame.
  const frame = [...(record.exception?.frames ?? [])].reverse().find((candidate) => repoRelative(workdir, candidate.file) !== undefined);
  if (frame === undefined) {
    return undefined;
  }
  const file = repoRelative(workdir, frame.file) ?? frame.file;
  return frame.line === null ? file : `${file}:${frame.line}`;
}

function toResult(record: TestRecord, scope: TestScope): TestCaseResult {
  const where = location(record, scope.workdir);
  const base = { id: record.id, ...(where === undefined ? {} : { location: where }) };
  switch (record.status) {
    case 'passed':
      return { ...base, status: 'passed' };
    case 'skipped':
      return { ...base, status: 'skipped', skip_reason: record.skip_reason ?? 'skipped' };
    case 'expected_failure':
      return { ...base, status: 'skipped', skip_reason: 'expected_failure' };
    case 'failed':
    case 'errored':
    case 'unexpected_success': {
      const kind = failureKind(record, scope);
      const message =
        record.status === 'unexpected_success' ? 'unexpected success: the test is marked expectedFailure but passed' : messageLine(record.exception?.message, scope.workdir);
      return { ...base, status: statusForFailure(kind), failure_kind: kind, ...(message === undefined ? {} : { message }) };
    }
  }
}

function expectedExitCode(fatal: boolean, tests: readonly TestCaseResult[]): number {
  if (fatal) {
    return 2;
  }
  if (tests.some((test) => test.status === 'failed' || test.status === 'errored')) {
    return 1;
  }
  return tests.length === 0 ? 5 : 0;
}

/** The unittest ids of a plan's canaries (the harness's generated `patchproof.Checks` class). */
export function unittestCanaryIds(plan: CanaryPlan): { pass: string; fail: string } {
  const names = canaryNames(plan);
  return { pass: `patchproof.Checks.${names.pass}`, fail: `patchproof.Checks.${names.fail}` };
}

function unreadable(problem: string): ParsedResults & { canary: CanaryOutcome } {
  return { tests: [], problems: [problem], canary: { pass: 'missing', fail: 'missing' } };
}

/** Parses the unittest harness's results (pure: the file's text in, results out). */
export function parseUnittestResults(request: ParseRequest): ParsedResults & { canary: CanaryOutcome } {
  const canaryIds = unittestCanaryIds(request.canary);
  const text = request.files[UNITTEST_RESULTS_FILE];
  if (text === undefined) {
    return unreadable(`${UNITTEST_RESULTS_FILE} is missing: the unittest harness wrote no results`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return unreadable(`${UNITTEST_RESULTS_FILE} is not valid JSON (truncated or corrupted)`);
  }
  const parsed = documentSchema.safeParse(value);
  if (!parsed.success) {
    return unreadable(`${UNITTEST_RESULTS_FILE} is malformed: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`);
  }
  const document = parsed.data;
  const problems: string[] = [];
  if (document.fatal !== null) {
    problems.push(`unittest harness: ${document.fatal}`);
  } else if (!document.complete) {
    problems.push(`${UNITTEST_RESULTS_FILE} says the run did not complete`);
  }
  const testFiles = new Set(document.tests.flatMap((record) => (record.file === null ? [] : [repoRelative(request.workdir, record.file) ?? record.file])));
  const scope: TestScope = { workdir: request.workdir, testRoots: request.testRoots, testFiles };
  const results: TestCaseResult[] = [];
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const record of document.tests) {
    if (seen.has(record.id)) {
      duplicates.add(record.id);
      continue;
    }
    seen.add(record.id);
    results.push(toResult(record, scope));
  }
  for (const id of duplicates) {
    problems.push(`duplicate test id '${id}'`);
  }
  // Canaries included: the must-fail canary alone makes an honest run exit 1.
  const expected = expectedExitCode(document.fatal !== null, results);
  if (request.exitCode !== expected) {
    problems.push(`the unittest harness exited ${request.exitCode ?? 'abnormally'}; its results imply exit code ${expected}`);
  }
  const { tests, canary } = takeCanaries(results, canaryIds);
  const channel =
    request.output === undefined
      ? undefined
      : checkChannel({
          output: request.output,
          mark: UNITTEST_FRAME_MARK,
          nonce: request.canary.nonce,
          sealed: { [UNITTEST_RESULTS_FILE]: text },
          records: document.tests,
          ...(request.resultDigests !== undefined ? { digests: request.resultDigests } : {})
        });
  return { tests, ...(document.claimed === undefined ? {} : { claimed: document.claimed }), problems, canary, ...(channel ? { channel } : {}) };
}
