import { fileURLToPath } from 'node:url';
import type { FailureKind, TestCaseResult, TestStatus } from '../../core/test-results.js';
import type { CanaryOutcome } from '../adapter.js';
import { exceptionSite, messageLine, repoRelative, statusForFailure } from './exception-site.js';
import type { TestScope } from './exception-site.js';
import { mergeChanged } from './tripwire.js';

/**
 * Failure classification shared by the jest and vitest parsers: V8 stack frames, the hook and
 * import-error signals, and the canaries of many wrapper files folded into one outcome.
 */

/** One V8 stack frame: the function name (when V8 printed one), the absolute file and line. */
export interface StackFrame {
  fn: string | undefined;
  file: string;
  line: number;
}

const FRAME = /^\s*at (?:(?:async )?(.*?) \()?((?:file:\/\/)?\/[^()]*?):(\d+):\d+\)?\s*$/;

/** The frames of a V8 stack trace with an absolute file, innermost first (node internals left out). */
export function stackFrames(stack: string | undefined): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of stack?.split('\n') ?? []) {
    const match = FRAME.exec(line);
    const location = match?.[2];
    if (match === null || location === undefined) {
      continue;
    }
    let file = location;
    if (location.startsWith('file://')) {
      try {
        file = fileURLToPath(location);
      } catch {
        continue;
      }
    }
    frames.push({ fn: match[1], file, line: Number(match[3]) });
  }
  return frames;
}

/** A module that could not be found or linked: the load failure is an import error. */
export const IMPORT_FAILURE =
  /Cannot find (?:module|package)|ERR_MODULE_NOT_FOUND|MODULE_NOT_FOUND|Failed to (?:load url|resolve import)|does not provide an export named|is not exported by/;

/** A test file that did not load: `import_error` for a missing module or export, else `collection_error`. */
export function loadFailureKind(message: string): FailureKind {
  return IMPORT_FAILURE.test(message) ? 'import_error' : 'collection_error';
}

/**
 * Where an exception that is not an assertion came from: the code under test or the test code,
 * by the innermost repository frame outside dependencies (see exceptionSite).
 */
export function thrownFrom(frames: readonly StackFrame[], scope: TestScope): FailureKind {
  return exceptionSite(
    frames.map((frame) => frame.file),
    scope
  );
}

/**
 * True when the failure was thrown from a hook by the test-file line rule: the outermost frame in
 * the test's own file lies above the line where the test is declared, so it is not the test's body
 * (hooks are declared before their tests). Used only when the runner's own frames do not say.
 */
export function thrownAboveTest(frames: readonly StackFrame[], workdir: string, file: string, testLine: number | undefined): boolean {
  if (testLine === undefined) {
    return false;
  }
  const own = frames.filter((frame) => repoRelative(workdir, frame.file) === file);
  const outermost = own[own.length - 1];
  return outermost !== undefined && outermost.line < testLine;
}

/** `result` as a failure of `kind`, with the message as one repository-relative line. */
export function failedResult(result: TestCaseResult, kind: FailureKind, message: string | undefined, workdir: string): TestCaseResult {
  const line = messageLine(message, workdir);
  return { ...result, status: statusForFailure(kind), failure_kind: kind, ...(line === undefined ? {} : { message: line }) };
}

/** What the canaries did in one wrapper file. */
export interface FileCanaries {
  pass: TestStatus | 'missing';
  fail: TestStatus | 'missing';
  /** The tripwire's changes, named by this file's failed must-pass canary (tripwire.ts). */
  changed?: string[];
}

/**
 * The canaries of every wrapper folded into one outcome: the must-pass canary counts as `passed`
 * only when it passed in every file, the must-fail canary as `failed` only when it failed (an
 * assertion) in every file; otherwise the first file's deviation (or `missing`) stands, so one
 * compromised module environment is enough to show. The tripwire's changes of every file, each once.
 */
export function foldCanaries(files: readonly FileCanaries[]): CanaryOutcome {
  if (files.length === 0) {
    return { pass: 'missing', fail: 'missing' };
  }
  const fold = (key: 'pass' | 'fail', expected: TestStatus): TestStatus | 'missing' =>
    files.find((file) => file[key] === 'missing')?.[key] ?? files.find((file) => file[key] !== expected)?.[key] ?? expected;
  const changed = mergeChanged(...files.map((file) => file.changed));
  return { pass: fold('pass', 'passed'), fail: fold('fail', 'failed'), ...(changed === undefined ? {} : { changed }) };
}
