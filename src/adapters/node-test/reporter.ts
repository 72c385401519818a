import { CHANNEL_ENV, FRAME_MARK } from '../shared/results-channel.js';

/**
 * The custom reporter PatchProof hands to `node --test`. Node's built-in junit reporter names no
 * file per test and flattens errors to text; this one writes one JSON object per line with the
 * test's file, position, nesting and its error's failure type, code and cause.
 *
 * Lines, in order: one `start`; a `test` per test:pass/test:fail event (post-order: a test's
 * subtests come before it); a `diagnostic` per test:diagnostic (node's own totals come last); one
 * `end` with the number of lines of each kind written, so a cut-off file is recognisable.
 * A whole-file failure (node reports a test named after the file) carries the last lines that
 * file wrote to stderr, where node 20 puts the SyntaxError or the missing module.
 *
 * The results channel (results-channel.ts): the reporter runs in `node --test`'s own process, not
 * in the test file's child process. With the nonce in PATCHPROOF_CHANNEL it writes, straight to
 * that process's fd 1, a frame per test line (`nodeTestFrameId`) as the event arrives, and, just
 * before the `end` line, a final frame with the SHA-256 of every byte it handed to the results
 * file. A rewrite of the file by the test process (`process.on('exit')`) or by a child it left
 * behind disagrees.
 */

/**
 * The channel's id of a reporter `test` line: its file, position, nesting and name (with the
 * suite, skip and todo flags). The reporter computes the same (FRAME_ID_SOURCE), and a real run
 * in the adapter tests holds the two to agreement.
 */
export function nodeTestFrameId(line: Record<string, unknown>): string {
  return JSON.stringify([line.file ?? null, line.line ?? null, line.column ?? null, line.nesting ?? null, line.name, line.suite === true, line.skip ?? null, line.todo ?? null]);
}

const FRAME_ID_SOURCE =
  '(line) => JSON.stringify([line.file ?? null, line.line ?? null, line.column ?? null, line.nesting ?? null, line.name, line.suite === true, line.skip ?? null, line.todo ?? null])';

/** Name of the staged reporter; it must not match node's default test-file patterns. */
export const NODE_TEST_REPORTER_FILE = 'patchproof-reporter.mjs';

/** The `format` tag of the reporter's `start` and `end` lines. */
export const NODE_TEST_REPORT_FORMAT = 'patchproof-node-test/1';

/** Source of the reporter module (ESM; runs inside `node --test`, so plain JavaScript). */
export const NODE_TEST_REPORTER_SOURCE = String.raw`// PatchProof reporter for node --test (generated; see src/adapters/node-test/reporter.ts).
import { createHash } from 'node:crypto';
import { writeSync } from 'node:fs';

const FORMAT = '${NODE_TEST_REPORT_FORMAT}';
const NONCE = /^[0-9a-f]{64}$/.test(process.env.${CHANNEL_ENV} ?? '') ? process.env.${CHANNEL_ENV} : undefined;

const frameId = ${FRAME_ID_SOURCE};

function frame(kind, value) {
  if (NONCE === undefined) return;
  try {
    writeSync(1, '\n${FRAME_MARK} ' + NONCE + ' ' + kind + ' ' + JSON.stringify(value) + '\n');
  } catch {
    // a closed stdout loses the frames: the host then finds the final frame missing
  }
}

const MAX_TEXT = 8000;
const STDERR_LINES = 40;

function text(value) {
  if (value === undefined || value === null) return undefined;
  let result;
  try {
    result = typeof value === 'string' ? value : String(value);
  } catch {
    return '<unprintable>';
  }
  return result.length > MAX_TEXT ? result.slice(0, MAX_TEXT) : result;
}

function read(object, key) {
  try {
    return object[key];
  } catch {
    return undefined;
  }
}

function cause(value) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') return { message: text(value) };
  return {
    name: text(read(value, 'name')),
    code: text(read(value, 'code')),
    message: text(read(value, 'message')),
    stack: text(read(value, 'stack'))
  };
}

function error(value) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') return { message: text(value) };
  const exitCode = read(value, 'exitCode');
  return {
    name: text(read(value, 'name')),
    code: text(read(value, 'code')),
    failureType: text(read(value, 'failureType')),
    message: text(read(value, 'message')),
    exitCode: Number.isInteger(exitCode) ? exitCode : undefined,
    signal: text(read(value, 'signal')),
    cause: cause(read(value, 'cause'))
  };
}

function flag(value) {
  if (value === undefined || value === null || value === false) return undefined;
  return typeof value === 'string' ? text(value) : true;
}

export default async function* patchproofReporter(source) {
  const stderr = new Map();
  const digest = createHash('sha256');
  const out = (text) => {
    digest.update(text, 'utf8');
    return text;
  };
  let tests = 0;
  let diagnostics = 0;
  yield out(JSON.stringify({ kind: 'start', format: FORMAT, node: process.version }) + '\n');
  for await (const event of source) {
    const data = event.data ?? {};
    if (event.type === 'test:stderr' && typeof data.file === 'string') {
      const lines = stderr.get(data.file) ?? [];
      lines.push(text(data.message) ?? '');
      if (lines.length > STDERR_LINES) lines.shift();
      stderr.set(data.file, lines);
    } else if (event.type === 'test:pass' || event.type === 'test:fail') {
      const details = data.details ?? {};
      const line = {
        kind: 'test',
        event: event.type === 'test:pass' ? 'pass' : 'fail',
        name: text(data.name) ?? '',
        nesting: data.nesting,
        file: text(data.file),
        line: data.line,
        column: data.column,
        suite: details.type === 'suite',
        skip: flag(data.skip),
        todo: flag(data.todo),
        duration_ms: details.duration_ms,
        error: error(details.error)
      };
      if (data.nesting === 0 && data.name === data.file && stderr.has(data.file)) {
        line.stderr = stderr.get(data.file);
      }
      tests += 1;
      frame('test', { id: frameId(line), status: line.event });
      yield out(JSON.stringify(line) + '\n');
    } else if (event.type === 'test:diagnostic') {
      diagnostics += 1;
      yield out(JSON.stringify({ kind: 'diagnostic', nesting: data.nesting, file: text(data.file), message: text(data.message) ?? '' }) + '\n');
    }
  }
  const end = out(JSON.stringify({ kind: 'end', format: FORMAT, tests, diagnostics }) + '\n');
  frame('end', { tests, sha256: digest.digest('hex') });
  yield end;
}
`;
