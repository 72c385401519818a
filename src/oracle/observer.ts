import { OBSERVATION_MARKER } from '../core/oracle.js';

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

function pythonObserver(nonce: string): string {
  return `"""Observer of a sealed oracle (generated for one run). The expected values are not here."""

import json as _json
import os as _os

_PREFIX = ${JSON.stringify(`${OBSERVATION_MARKER} ${nonce} `)}
_write = _os.write


def _open_stream():
    # The stream the host reads: the stdout of the run's first process, the topmost ancestor
    # working in this same folder (Docker's init, or the process the runner started), past any
    # runner's output capture in this process, a worker or a child.
    try:
        cwd = _os.getcwd()
        pid = _os.getpid()
        top = None
        while True:
            with open("/proc/%d/stat" % pid) as handle:
                ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
            try:
                where = _os.readlink("/proc/%d/cwd" % ppid) if ppid > 0 else None
            except OSError:
                # A non-dumpable ancestor (the junit wrapper as PID 1): the climb ends below it.
                where = None
            if where != cwd:
                break
            pid = top = ppid
        if top is not None:
            return _os.open("/proc/%d/fd/1" % top, _os.O_WRONLY | _os.O_APPEND)
    except (OSError, ValueError, IndexError):
        pass
    return 1


_FD = _open_stream()


def _default(value):
    if isinstance(value, (set, frozenset)):
        return {"$set": sorted(_json.dumps(v, sort_keys=True, default=_default) for v in value)}
    if isinstance(value, (bytes, bytearray, memoryview)):
        # bytearray == bytes in Python: they observe alike
        return {"$bytes": bytes(value).hex()}
    return {"$repr": repr(value)}


def _emit(case, value):
    try:
        text = _json.dumps({"case": case, "value": value}, allow_nan=False, sort_keys=True, ensure_ascii=True, default=_default)
    except (TypeError, ValueError, RecursionError):
        text = _json.dumps({"case": case, "value": {"$unencodable": type(value).__name__}}, ensure_ascii=True)
    data = (_PREFIX + text + "\\n").encode("ascii")
    while data:
        data = data[_write(_FD, data):]


_COUNTS = {}


def _occurrence(case):
    # A site observed again (a loop, a parametrized test) observes case#2, case#3, ... in order.
    n = _COUNTS.get(case, 0) + 1
    _COUNTS[case] = n
    return case if n == 1 else "%s#%d" % (case, n)


def observe(case, thunk):
    """Observe the value of thunk(); an exception is observed as {"$raised": name} and raised again."""
    case = _occurrence(case)
    try:
        value = thunk()
    except Exception as error:
        _emit(case, {"$raised": type(error).__name__, "message": str(error)})
        raise
    _emit(case, value)
    return value


def observe_raises(case, thunk):
    """Observe that thunk() raises (the host checks which exception); a return is observed as such."""
    case = _occurrence(case)
    try:
        value = thunk()
    except Exception as error:
        _emit(case, {"$raised": type(error).__name__, "message": str(error)})
        return
    _emit(case, {"$returned": value})
`;
}

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
