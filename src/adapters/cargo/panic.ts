import path from 'node:path';
import type { FailureKind } from '../../core/test-results.js';
import { RESERVED_DIR } from '../adapter.js';

/**
 * Why a libtest test failed, read from its `failed` event: the `message` libtest adds for
 * `#[should_panic]` tests, and the captured `stdout`, which holds the panic (`thread 'name'
 * panicked at FILE:LINE:COL:`, the message, and with `RUST_BACKTRACE=1` the stack frames, innermost
 * first, each `N: symbol` and `at FILE:LINE:COL`).
 *
 * - `assertion`: `assert!` (`assertion failed: …`), `assert_eq!`/`assert_ne!` (``assertion `left
 *   == right` failed``), or a `#[should_panic]` test that did not panic or panicked with another
 *   message.
 * - otherwise the innermost stack frame inside the repository decides (the panic location when
 *   there is no backtrace): any repository file outside the run's test files (the witness
 *   placements, `.patchproof/`, `tests/`, `benches/`) and outside the failing test's own module
 *   (unit tests inside `src/`) is the code under test, `exception_in_code`. In test code, a panic
 *   the test raised itself (`assert!(cond, "message")`, `panic!`: only the panic machinery above
 *   it) is an `assertion`, any other (`unwrap()`, an index out of bounds) `exception_in_test`.
 *   Frames of the standard library and of dependencies (outside the repository) are skipped.
 * - a failure without a panic (a test returning `Err`) or without a repository frame is `unknown`.
 */

/** What the classifier needs to know about the failing test. */
export interface PanicContext {
  /** The libtest name of the test (`tests::it_works`, `f2e…::case`). */
  testName: string;
  /** The copy root as the test process saw it (its working directory). */
  workdir: string;
  /** Repository-relative folders holding the run's external tests. */
  testRoots: readonly string[];
}

/** One failure, classified. */
export interface PanicReading {
  kind: FailureKind;
  /** The panic message (or libtest's note), on one line. */
  message?: string;
}

interface Frame {
  symbol?: string;
  file?: string;
}

interface Panic {
  thread: string;
  location: string;
  message: string;
  frames: Frame[];
}

const PANIC_HEADER = /^thread '(.*?)'(?: \(\d+\))? panicked at (.+):\d+:\d+:$/;
const FRAME_SYMBOL = /^\s*\d+: (.+)$/;
const FRAME_AT = /^\s+at (.+):\d+(?::\d+)?$/;
const ASSERTION = /^assertion (?:failed: |`left (?:==|!=|matches) right` failed)/;
const SHOULD_PANIC = /^(?:test did not panic as expected|panic did not contain expected string)/;
const TEST_FOLDERS = [RESERVED_DIR, 'tests', 'benches'];
// What `panic!` itself goes through, in every edition (not `panic_bounds_check`, `unwrap_failed`...).
const PANIC_MACHINERY =
  /^(?:(?:__rustc::)?rust_begin_unwind|core::panicking::(?:panic_fmt|panic|panic_display|panic_str_2015|panic_explicit)|std::panicking::(?:begin_panic(?:_handler|_fmt)?(?:::\{\{closure\}\})?|rust_panic_with_hook)|std::sys(?:_common)?::backtrace::__rust_end_short_backtrace(?:::<.*>)?)$/;

/** The panics in a test's captured output, in order. */
function panicsIn(stdout: string): Panic[] {
  const panics: Panic[] = [];
  let current: Panic | undefined;
  let state: 'message' | 'frames' | 'done' = 'done';
  for (const line of stdout.split('\n')) {
    const header = PANIC_HEADER.exec(line);
    if (header?.[1] !== undefined && header[2] !== undefined) {
      current = { thread: header[1], location: header[2], message: '', frames: [] };
      panics.push(current);
      state = 'message';
      continue;
    }
    if (current === undefined) continue;
    if (state === 'message') {
      if (line === 'stack backtrace:') state = 'frames';
      else if (line.startsWith('note: ')) state = 'done';
      else current.message += `${current.message === '' ? '' : '\n'}${line}`;
    } else if (state === 'frames') {
      const at = FRAME_AT.exec(line);
      const sym = FRAME_SYMBOL.exec(line);
      const last = current.frames[current.frames.length - 1];
      if (at?.[1] !== undefined && last !== undefined && last.file === undefined) last.file = at[1];
      else if (sym?.[1] !== undefined) current.frames.push({ symbol: sym[1] });
      else if (at === null) state = 'done';
    }
  }
  return panics;
}

/** A frame's file relative to the repository, or undefined outside it. */
function repoFile(file: string, workdir: string): string | undefined {
  const root = path.posix.normalize(workdir).replace(/\/+$/, '');
  const absolute = path.posix.isAbsolute(file) ? path.posix.normalize(file) : path.posix.join(root, file);
  return absolute.startsWith(`${root}/`) ? absolute.slice(root.length + 1) : undefined;
}

/** The path of a symbol without its crate (`textclip::tests::case` → `tests::case`). */
function symbolPath(symbol: string): string {
  const plain = symbol.replace(/^</, '');
  const cut = plain.indexOf('::');
  return cut < 0 ? plain : plain.slice(cut + 2);
}

function isTestFrame(frame: Frame, file: string, context: PanicContext): boolean {
  const folders = [...TEST_FOLDERS, ...context.testRoots.map((root) => root.replace(/\/+$/, ''))].filter((f) => f !== '');
  if (folders.some((folder) => file === folder || file.startsWith(`${folder}/`))) return true;
  const module = context.testName.includes('::') ? context.testName.slice(0, context.testName.lastIndexOf('::')) : '';
  return module !== '' && frame.symbol !== undefined && symbolPath(frame.symbol).startsWith(`${module}::`);
}

/**
 * Where the panic came from. A panic the test code raised itself (`assert!` with a message,
 * `panic!`, `unreachable!`: nothing but the panic machinery between it and the panic) is the test
 * failing on purpose, an `assertion`; one raised inside an operation the test called (`unwrap`,
 * indexing, slicing) is `exception_in_test`.
 */
function siteOf(panic: Panic, context: PanicContext): FailureKind {
  const frames = panic.frames.some((frame) => frame.file !== undefined) ? panic.frames : [{ file: panic.location }];
  let explicit = panic.frames.length > 0;
  for (const frame of frames) {
    const file = frame.file === undefined ? undefined : repoFile(frame.file, context.workdir);
    if (file === undefined) {
      if (frame.symbol === undefined || !PANIC_MACHINERY.test(frame.symbol)) explicit = false;
      continue;
    }
    if (!isTestFrame(frame, file, context)) return 'exception_in_code';
    return explicit ? 'assertion' : 'exception_in_test';
  }
  return 'unknown';
}

/** One line: the text's lines trimmed and joined with spaces. */
function oneLine(text: string): string | undefined {
  const joined = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  return joined === '' ? undefined : joined;
}

/** Classifies a libtest `failed` event (its `stdout` and `message` fields). */
export function readFailure(stdout: string | undefined, note: string | undefined, context: PanicContext): PanicReading {
  if (note !== undefined && SHOULD_PANIC.test(note)) {
    const message = oneLine(note);
    return { kind: 'assertion', ...(message === undefined ? {} : { message }) };
  }
  const panics = panicsIn(stdout ?? '');
  // The test's own thread; a panic in a thread the test spawned is the cause only when alone.
  const panic = panics.find((p) => p.thread === context.testName) ?? panics[panics.length - 1];
  if (panic === undefined) {
    const message = oneLine(stdout ?? '') ?? oneLine(note ?? '');
    return { kind: 'unknown', ...(message === undefined ? {} : { message }) };
  }
  const message = oneLine(panic.message);
  const kind = ASSERTION.test(panic.message) ? 'assertion' : siteOf(panic, context);
  return { kind, ...(message === undefined ? {} : { message }) };
}
