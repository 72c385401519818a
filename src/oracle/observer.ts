import { OBSERVATION_MARKER } from '../core/oracle.js';
import { pythonObserver } from './observer-python.js';

/**
 * The in-container half of a sealed oracle: tiny observers, generated for each run with its nonce,
 * staged beside the sealed tests of a phase (never the expected values). A test calls
 * `observe(caseId, () => actual)`; the observer computes the value and writes one framed line
 * (`PATCHPROOF-OBS/1 <nonce> {"case":…,"value":…}`) straight to the stream the host reads as the run
 * produces it: the stdout of the run's first process (the topmost ancestor in the same working
 * folder: Docker's init, or what the runner started) — past any test runner's output capture,
 * worker or child process — and otherwise the process's own stdout.
 *
 * Nothing here needs to be trusted: the code under test can suppress, duplicate or forge lines,
 * but the host compares them with values it never showed the container, so the only way to pass is
 * to compute the right values. Suppressed lines are missing cases, and missing, extra, duplicated
 * or malformed observations fail.
 *
 * The generic form, for any language: print the same line from the test (the nonce is in the
 * staged file `patchproof-oracle.nonce`), one line per case, the JSON on one line.
 */

export const PY_OBSERVER_FILE = 'patchproof_oracle.py';
export const JS_OBSERVER_FILE = 'patchproof-oracle.cjs';
export const NONCE_FILE = 'patchproof-oracle.nonce';

function jsObserver(nonce: string): string {
  return `'use strict';
// Observer of a sealed oracle (generated for one run). The expected values are not here.
const fs = require('node:fs');
const PREFIX = ${JSON.stringify(`${OBSERVATION_MARKER} ${nonce} `)};
const writeSync = fs.writeSync;
// The stream the host reads: the stdout of the run's first process, the topmost ancestor working
// in this same folder (Docker's init, or the process the runner started), past any runner's output
// capture in this process, a worker or a child.
let fd = 1;
try {
  const cwd = process.cwd();
  let pid = process.pid;
  let top;
  for (;;) {
    const stat = fs.readFileSync('/proc/' + pid + '/stat', 'latin1');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    let where;
    try {
      // A non-dumpable ancestor (the junit wrapper as PID 1) ends the climb below it.
      where = ppid > 0 ? fs.readlinkSync('/proc/' + ppid + '/cwd') : undefined;
    } catch {}
    if (where !== cwd) break;
    pid = top = ppid;
  }
  if (top !== undefined) fd = fs.openSync('/proc/' + top + '/fd/1', 'a');
} catch {}

function encode(value, depth) {
  if (depth > 100) return { $unencodable: 'depth' };
  if (value === undefined) return { $undefined: true };
  if (typeof value === 'number') return Number.isFinite(value) ? value : { $number: String(value) };
  if (typeof value === 'bigint') return { $bigint: String(value) };
  if (typeof value === 'function' || typeof value === 'symbol') return { $repr: String(value) };
  if (value === null || typeof value !== 'object') return value;
  if (typeof value.then === 'function') return { $promise: true };
  if (Array.isArray(value)) return value.map((v) => encode(v, depth + 1));
  if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString() };
  if (value instanceof Map) return { $map: [...value].map(([k, v]) => [encode(k, depth + 1), encode(v, depth + 1)]) };
  if (value instanceof Set) return { $set: [...value].map((v) => encode(v, depth + 1)) };
  const out = {};
  for (const key of Object.keys(value)) {
    if (value[key] !== undefined) out[key] = encode(value[key], depth + 1);
  }
  return out;
}

function emit(id, value) {
  let text;
  try {
    text = JSON.stringify({ case: id, value: encode(value, 0) });
  } catch {
    text = JSON.stringify({ case: id, value: { $unencodable: typeof value } });
  }
  const data = Buffer.from(PREFIX + text.replace(/[\\u007f-\\uffff]/g, (c) => '\\\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) + '\\n', 'ascii');
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset);
}

// A site observed again (a loop, a table row) observes id#2, id#3, ... in order.
const counts = new Map();
function occurrence(id) {
  const n = (counts.get(id) || 0) + 1;
  counts.set(id, n);
  return n === 1 ? id : id + '#' + n;
}

/** Observe the value of thunk(); an exception is observed as {"$raised": name} and thrown again. */
function observe(id, thunk) {
  id = occurrence(id);
  let value;
  try {
    value = thunk();
  } catch (error) {
    emit(id, { $raised: error && error.constructor ? error.constructor.name : typeof error, message: String(error && error.message) });
    throw error;
  }
  emit(id, value);
  return value;
}

/** Observe that thunk() throws (the host checks which error); a return is observed as such. */
function observeThrows(id, thunk) {
  id = occurrence(id);
  try {
    const value = thunk();
    emit(id, { $returned: value });
  } catch (error) {
    emit(id, { $raised: error && error.constructor ? error.constructor.name : typeof error, message: String(error && error.message) });
  }
}

module.exports = { observe, observeThrows };
`;
}

/** The files staged beside a sealed phase's tests for one run, by folder-relative name. */
export function observerFiles(nonce: string): Record<string, string> {
  return { [PY_OBSERVER_FILE]: pythonObserver(nonce), [JS_OBSERVER_FILE]: jsObserver(nonce), [NONCE_FILE]: `${nonce}\n` };
}
