import path from 'node:path';
import type { FailureKind, TestStatus } from '../../core/test-results.js';
import { RESERVED_DIR } from '../adapter.js';

/**
 * How every adapter reports a failure: where the exception came from (test code or the code under
 * test), the status its kind implies, and its message as one repository-relative line.
 */

const MESSAGE_LIMIT = 500;
const LIBRARY_SEGMENTS = new Set(['node_modules', 'site-packages', 'dist-packages']);

/** `file` relative to `root` when it lies inside it (POSIX paths, as the test process saw them). */
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
