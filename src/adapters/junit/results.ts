import path from 'node:path';
import picomatch from 'picomatch';
import type { FailureKind, ParsedResults, TestCaseResult } from '../../core/test-results.js';
import type { CanaryOutcome, ParseRequest } from '../adapter.js';
import { takeCanaries } from '../shared/canary.js';
import { exceptionSite, messageLine, repoRelative, statusForFailure } from '../shared/exception-site.js';
import { parseJunitXml } from '../shared/junit-xml.js';
import { checkJunitChannel } from './channel.js';
import { channelNonce } from '../shared/results-channel.js';
import type { JunitCase, JunitCaseFields } from '../shared/junit-xml.js';

/**
 * Turns the JUnit XML of a runner PatchProof does not know into test results (pure: the files' text
 * in, results out). Read by the generic `junit` adapter (junit.ts).
 *
 * Ids: `[file >] [suite > ...] classname.name` — the case's `file` attribute when there is one, the
 * names of the enclosing `<testsuite>` elements, then `classname.name` (just `name` without a
 * classname), joined by ` > `; paths inside the copy are made repository-relative, so the id is the
 * same in every copy. node 20's reporter, for one, writes neither a file nor a per-file suite: two
 * files with a same-named test at the same suite path give one id twice, which is a problem (the
 * run fails closed), never a silent merge.
 *
 * Right reason: a `<failure>` whose exception type is an assertion (`AssertionError`,
 * `AssertionFailedError`, `ComparisonFailure`, ...) is `assertion`; a timeout is `timeout`; any other
 * failure or `<error>` is `exception_in_code` / `exception_in_test` by the innermost repository
 * frame of its stack (JavaScript `at ...` lines or Python `File "..."` lines), else `unknown`. The
 * exception type is read from node's `cause:` line when the runner is node's test runner (whose
 * `type` attribute is always `testCodeFailure`), else from the `type` attribute or the message.
 * A runner whose failures name no exception type (gotestsum, for one) reads as `unknown`.
 *
 * No `claimed` counts: JUnit producers disagree on what a suite's `tests`/`failures` attributes
 * count (node's count direct children, suites included), so they cannot be held against the cases.
 */

/** How to read one run's results. */
export interface JunitResultOptions {
  /** Glob of the report files, relative to the results folder. */
  report: string;
  /** True for a repository-relative path that is a test file (the pack's `tests` globs). */
  isTestPath: (relativePath: string) => boolean;
  /** The ids of the pack's canary tests. */
  canary: { pass: string; fail: string };
}

const IDENTIFIER = /^[A-Za-z_$][\w$.]*$/;
const NODE_WRAPPER = /ERR_TEST_FAILURE/;
const NODE_CAUSE = /^\s*cause: ([A-Za-z_$][\w$.]*)/m;
const MESSAGE_TYPE = /^([A-Za-z_$][\w$.]*(?:Error|Exception|Failure))(?::|\s|$)/;
const ASSERTION_TYPE = /(?:^|\.)(?:Assert\w*(?:Error|Failure|Exception)|ComparisonFailure|MultipleFailuresError)$/;
const TIMEOUT = /\btime(?:d)?[ _-]?out\b|TimeoutFailure/i;
// `at fn (file:///x/y.js:1:2)`, `at file:///x/y.js:1:2`, `at /x/y.js:1:2`.
const JS_FRAME = /^\s*at (?:.*? \()?((?:file:\/\/)?\/[^\s()]+?):\d+(?::\d+)?\)?\s*$/;
const PY_FRAME = /^\s*File "(\/[^"]+)", line \d+/;

/** Replaces the copy's root (as a path or a file URL) by nothing, so paths read repository-relative. */
function relativeText(text: string, workdir: string): string {
  const root = `${path.posix.normalize(workdir).replace(/\/+$/, '')}/`;
  return text.split(`file://${root}`).join('').split(root).join('');
}

/** The id maker for a copy at `workdir` (see the module comment). */
export function junitCaseId(workdir: string): (fields: JunitCaseFields) => string {
  return ({ file, suites, classname, name }) =>
    [...(file === undefined || file === '' ? [] : [file]), ...suites, classname === '' ? name : `${classname}.${name}`].map((part) => relativeText(part, workdir)).join(' > ');
}

function exceptionType(test: JunitCase): string | undefined {
  const detail = test.detail ?? '';
  if (NODE_WRAPPER.test(detail) || test.type === 'testCodeFailure') {
    // node wraps what the test threw; a cause that is a quoted string (a file that did not load) names none.
    return NODE_CAUSE.exec(detail)?.[1];
  }
  if (test.type !== undefined && IDENTIFIER.test(test.type)) {
    return test.type;
  }
  return MESSAGE_TYPE.exec(test.message ?? '')?.[1];
}

/** Absolute frame paths of the thrown error, innermost first. */
function frames(detail: string): string[] {
  const lines = detail.split('\n');
  // node: the test runner's own wrapper stack comes before the cause's.
  const cause = lines.findIndex((line) => NODE_CAUSE.test(line));
  const own = cause === -1 ? lines : lines.slice(cause + 1);
  const js = own.flatMap((line) => {
    const found = JS_FRAME.exec(line)?.[1];
    return found === undefined ? [] : [found.startsWith('file://') ? decodeURIComponent(found.slice('file://'.length)) : found];
  });
  if (js.length > 0) return js;
  return own.flatMap((line) => PY_FRAME.exec(line)?.[1] ?? []).reverse();
}

function failureKind(test: JunitCase, workdir: string, testRoots: readonly string[], isTestPath: (file: string) => boolean): FailureKind {
  if (TIMEOUT.test(test.type ?? '') || TIMEOUT.test(test.message ?? '')) {
    return 'timeout';
  }
  const type = exceptionType(test);
  if (test.outcome === 'failure' && type !== undefined && ASSERTION_TYPE.test(type)) {
    return 'assertion';
  }
  const stack = frames(test.detail ?? '');
  const testFiles = new Set(
    stack.flatMap((frame) => {
      const relative = repoRelative(workdir, frame);
      return relative !== undefined && isTestPath(relative) ? [relative] : [];
    })
  );
  return exceptionSite(stack, { workdir, testRoots, testFiles });
}

function toResult(test: JunitCase, request: ParseRequest, isTestPath: (file: string) => boolean): TestCaseResult {
  const file = test.file === undefined ? undefined : relativeText(test.file, request.workdir);
  const location = file === undefined ? undefined : test.line === undefined ? file : `${file}:${test.line}`;
  const base = { id: test.id, ...(location === undefined ? {} : { location }) };
  switch (test.outcome) {
    case 'passed':
      return { ...base, status: 'passed' };
    case 'skipped':
      return { ...base, status: 'skipped', skip_reason: [test.message, test.type].find((text) => text !== undefined && text !== '' && text !== 'true') ?? 'skipped' };
    case 'failure':
    case 'error': {
      const kind = failureKind(test, request.workdir, request.testRoots, isTestPath);
      const message = messageLine(test.message ?? test.type, request.workdir);
      return { ...base, status: statusForFailure(kind), failure_kind: kind, ...(message === undefined ? {} : { message }) };
    }
  }
}

/** Parses every report file of a run (pure). */
export function parseJunitGenericResults(request: ParseRequest, options: JunitResultOptions): ParsedResults & { canary: CanaryOutcome } {
  const isReport = picomatch(options.report, { dot: true });
  const names = Object.keys(request.files)
    .filter((name) => isReport(name))
    .sort();
  if (names.length === 0) {
    return { tests: [], problems: [`no result file matches junit.report '${options.report}': the runner wrote no JUnit XML`], canary: { pass: 'missing', fail: 'missing' } };
  }
  const problems: string[] = [];
  const results: TestCaseResult[] = [];
  const seen = new Set<string>();
  const idOf = junitCaseId(request.workdir);
  for (const name of names) {
    const report = parseJunitXml(request.files[name] ?? '', name, idOf);
    problems.push(...report.problems);
    for (const test of report.cases) {
      if (seen.has(test.id)) {
        problems.push(`duplicate test id '${test.id}' across the JUnit files (${name})`);
        continue;
      }
      seen.add(test.id);
      results.push(toResult(test, request, options.isTestPath));
    }
  }
  if (results.length === 0 && problems.length === 0) {
    problems.push(`the JUnit XML (${names.join(', ')}) holds no test cases`);
  }
  const { tests, canary } = takeCanaries(results, options.canary);
  // The wrapper's seal (junit-channel.ts), when the host collected the run's stdout.
  const channel =
    request.output === undefined
      ? undefined
      : checkJunitChannel({
          output: request.output,
          nonce: channelNonce(request.canary),
          reports: Object.fromEntries(names.map((name) => [name, request.files[name] ?? ''])),
          isReport,
          exitCode: request.exitCode,
          ...(request.resultDigests !== undefined ? { digests: request.resultDigests } : {})
        });
  return { tests, problems, canary, ...(channel ? { channel } : {}) };
}
