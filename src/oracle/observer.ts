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

// Safe observation (issue 26 item 1, issue 28 item 10): a value's real content, read without running
// code the candidate could have defined — no toJSON, valueOf, toString, Symbol.toPrimitive, getters,
// Proxy traps, iterators or asymmetricMatch. Every intrinsic used is captured here, when the observer
// loads (a sealed test imports it first), and called with Reflect.apply. An accessor property, a
// Proxy or a cycle is recorded as unobservable; the host compares the JSON text structurally.
const I = {
  apply: Reflect.apply,
  ownKeys: Reflect.ownKeys,
  getPrototypeOf: Reflect.getPrototypeOf,
  getOwnPropertyDescriptor: Reflect.getOwnPropertyDescriptor,
  hasOwn: Object.prototype.hasOwnProperty,
  isArray: Array.isArray,
  is: Object.is,
  stringify: JSON.stringify,
  isProxy: require('node:util').types.isProxy,
  isDate: require('node:util').types.isDate,
  isRegExp: require('node:util').types.isRegExp,
  isMap: require('node:util').types.isMap,
  isSet: require('node:util').types.isSet,
  isPromise: require('node:util').types.isPromise,
  isTypedArray: require('node:util').types.isTypedArray,
  isBoxed: require('node:util').types.isBoxedPrimitive,
  isNativeError: require('node:util').types.isNativeError,
  dateGetTime: Date.prototype.getTime,
  dateToISO: Date.prototype.toISOString,
  regexpSource: Reflect.getOwnPropertyDescriptor(RegExp.prototype, 'source').get,
  regexpFlags: Reflect.getOwnPropertyDescriptor(RegExp.prototype, 'flags').get,
  mapForEach: Map.prototype.forEach,
  setForEach: Set.prototype.forEach,
  typedLength: Reflect.getOwnPropertyDescriptor(Reflect.getPrototypeOf(Uint8Array.prototype), 'length').get,
  symbolDescription: Reflect.getOwnPropertyDescriptor(Symbol.prototype, 'description').get,
  numberIsFinite: Number.isFinite,
  numberIsInteger: Number.isInteger,
  StringCtor: String,
  ObjectProto: Object.prototype,
  ArrayProto: Array.prototype,
  DateProto: Date.prototype,
  RegExpProto: RegExp.prototype,
  MapProto: Map.prototype,
  SetProto: Set.prototype
};
const str = (s) => I.stringify(s);
const own = (object, key) => I.apply(I.hasOwn, object, [key]);
function dataValue(object, key) {
  // The own property's value when it is a data property; { get: true } for an accessor.
  const d = I.getOwnPropertyDescriptor(object, key);
  if (d === undefined) return { absent: true };
  if (own(d, 'get') || own(d, 'set')) return { accessor: true };
  return { value: d.value, enumerable: d.enumerable };
}
function unobservable(why) {
  return '{"$unobservable":' + str(why) + '}';
}
/** The constructor names of the exact prototype chain, read as own data properties. */
function chainOf(value) {
  const names = [];
  let proto = I.getPrototypeOf(value);
  for (let n = 0; proto !== null && n < 50; n++) {
    if (I.isProxy(proto)) return undefined;
    const ctor = dataValue(proto, 'constructor');
    let name = '?';
    if (typeof ctor.value === 'function' && !I.isProxy(ctor.value)) {
      const nm = dataValue(ctor.value, 'name');
      if (typeof nm.value === 'string') name = nm.value;
    }
    names[names.length] = name;
    proto = I.getPrototypeOf(proto);
  }
  return names;
}
function number(n) {
  if (n === 0) return '0';
  return I.numberIsFinite(n) ? str(n) : '{"$number":' + str(I.StringCtor(n)) + '}';
}
function encode(value, depth, seen) {
  if (value === undefined) return '{"$undefined":true}';
  if (value === null) return 'null';
  const t = typeof value;
  if (t === 'number') return number(value);
  if (t === 'string' || t === 'boolean') return str(value);
  if (t === 'bigint') return '{"$bigint":' + str(I.StringCtor(value)) + '}';
  if (t === 'symbol') {
    const d = I.apply(I.symbolDescription, value, []);
    return '{"$symbol":' + str(d === undefined ? null : d) + '}';
  }
  if (I.isProxy(value)) return unobservable('proxy');
  if (t === 'function') {
    const nm = dataValue(value, 'name');
    return '{"$function":' + str(typeof nm.value === 'string' ? nm.value : '?') + '}';
  }
  if (depth > 100) return unobservable('depth');
  for (let i = 0; i < seen.length; i++) if (seen[i] === value) return unobservable('cycle');
  seen[seen.length] = value;
  try {
    return encodeObject(value, depth, seen);
  } finally {
    seen.length = seen.length - 1;
  }
}
/** Own properties, data only: indices skipped for arrays; non-enumerable ones only when they are asymmetricMatch. */
function fieldsOf(value, depth, seen, skipIndices, keepMessage) {
  const keys = I.ownKeys(value);
  let out = '';
  let count = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== 'string') continue;
    if (skipIndices && (key === 'length' || (key !== '' && I.StringCtor(key >>> 0) === key && key !== '4294967295'))) continue;
    if (keepMessage && key === 'stack') continue;
    const d = dataValue(value, key);
    if (d.accessor) return { unobservable: 'accessor ' + key };
    if (!d.enumerable && key !== 'asymmetricMatch' && !(keepMessage && (key === 'message' || key === 'code' || key === 'name'))) continue;
    if (d.value === undefined && key !== 'asymmetricMatch') continue;
    out += (count++ > 0 ? ',' : '') + str(key) + ':' + encode(d.value, depth + 1, seen);
  }
  return { text: '{' + out + '}', count };
}
function itemsOf(array, depth, seen) {
  const len = dataValue(array, 'length').value;
  let out = '';
  for (let i = 0; i < len; i++) {
    const d = dataValue(array, I.StringCtor(i));
    if (d.accessor) return { unobservable: 'accessor ' + i };
    out += (i > 0 ? ',' : '') + (d.absent ? '{"$hole":true}' : encode(d.value, depth + 1, seen));
  }
  return { text: '[' + out + ']' };
}
function encodeObject(value, depth, seen) {
  const chain = chainOf(value);
  if (chain === undefined) return unobservable('proxy');
  const proto = I.getPrototypeOf(value);
  if (I.isPromise(value)) return '{"$promise":true}';
  const tagged = (extra, fields) => '{"$class":' + str(chain) + ',"fields":' + fields.text + extra + '}';
  if (I.isArray(value)) {
    const items = itemsOf(value, depth, seen);
    if (items.unobservable) return unobservable(items.unobservable);
    const fields = fieldsOf(value, depth, seen, true, false);
    if (fields.unobservable) return unobservable(fields.unobservable);
    if (proto === I.ArrayProto && fields.count === 0) return items.text;
    return tagged(',"items":' + items.text, fields);
  }
  if (I.isTypedArray(value)) {
    const len = I.apply(I.typedLength, value, []);
    let out = '';
    for (let i = 0; i < len; i++) out += (i > 0 ? ',' : '') + encode(value[i], depth + 1, seen);
    return tagged(',"items":[' + out + ']', { text: '{}' });
  }
  const fields = fieldsOf(value, depth, seen, false, I.isNativeError(value));
  if (fields.unobservable) return unobservable(fields.unobservable);
  const plain = fields.count === 0 ? (p) => proto === p : () => false;
  if (I.isDate(value)) {
    const time = I.apply(I.dateGetTime, value, []);
    const text = '{"$date":' + str(time !== time ? 'invalid' : I.apply(I.dateToISO, value, [])) + '}';
    return plain(I.DateProto) ? text : tagged(',"value":' + text, fields);
  }
  if (I.isRegExp(value)) {
    const text = '{"$regexp":{"flags":' + str(I.apply(I.regexpFlags, value, [])) + ',"source":' + str(I.apply(I.regexpSource, value, [])) + '}}';
    return plain(I.RegExpProto) ? text : tagged(',"value":' + text, fields);
  }
  if (I.isMap(value)) {
    let out = '';
    let n = 0;
    I.apply(I.mapForEach, value, [(v, k) => { out += (n++ > 0 ? ',' : '') + '[' + encode(k, depth + 1, seen) + ',' + encode(v, depth + 1, seen) + ']'; }]);
    const text = '{"$map":[' + out + ']}';
    return plain(I.MapProto) ? text : tagged(',"value":' + text, fields);
  }
  if (I.isSet(value)) {
    let out = '';
    let n = 0;
    I.apply(I.setForEach, value, [(v) => { out += (n++ > 0 ? ',' : '') + encode(v, depth + 1, seen); }]);
    const text = '{"$set":[' + out + ']}';
    return plain(I.SetProto) ? text : tagged(',"value":' + text, fields);
  }
  if (I.isBoxed(value)) return tagged('', fields);
  if (proto === I.ObjectProto || proto === null) return fields.text;
  return tagged('', fields);
}
function safeEncode(value) {
  try {
    return encode(value, 0, []);
  } catch (error) {
    return unobservable('threw while read');
  }
}
/** A thrown value: its class chain, and its message and own data properties. */
function raisedText(error) {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return '{"$raised":' + str(typeof error) + ',"value":' + safeEncode(error) + '}';
  if (I.isProxy(error)) return '{"$raised":"?","chain":[],"fields":' + unobservable('proxy') + '}';
  const chain = chainOf(error) || [];
  const msg = dataValue(error, 'message');
  let name;
  for (let p = error, n = 0; p !== null && n < 50 && name === undefined; p = I.getPrototypeOf(p), n++) {
    if (I.isProxy(p)) break;
    const d = dataValue(p, 'name');
    if (typeof d.value === 'string') name = d.value;
  }
  return (
    '{"$raised":' + str(chain[0] === undefined ? '?' : chain[0]) + ',"chain":' + str(chain) +
    (typeof msg.value === 'string' ? ',"message":' + str(msg.value) : '') +
    (name !== undefined ? ',"name":' + str(name) : '') +
    ',"fields":' + safeEncode(fieldsOnly(error)) + '}'
  );
}
function fieldsOnly(error) {
  // Own data properties, as a plain object built here (never the candidate's object).
  const out = {};
  const keys = I.ownKeys(error);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== 'string' || key === 'stack') continue;
    const d = dataValue(error, key);
    if (d.accessor) { out[key] = { $accessor: true }; continue; }
    if (d.enumerable || key === 'code') out[key] = d.value;
  }
  return out;
}

const charCodeAt = String.prototype.charCodeAt;
const bufferFrom = Buffer.from;
const HEX = '0123456789abcdef';
function emitText(id, text) {
  const line = PREFIX + '{"case":' + str(id) + ',"value":' + text + '}';
  let ascii = '';
  for (let i = 0; i < line.length; i++) {
    const c = I.apply(charCodeAt, line, [i]);
    ascii += c >= 0x7f ? '\\\\u' + HEX[(c >> 12) & 15] + HEX[(c >> 8) & 15] + HEX[(c >> 4) & 15] + HEX[c & 15] : line[i];
  }
  const data = I.apply(bufferFrom, Buffer, [ascii + '\\n', 'ascii']);
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset);
}

// A site observed again (a loop, a table row) observes id#2, id#3, ... in order.
const counts = new Map();
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
function occurrence(id) {
  const n = (I.apply(mapGet, counts, [id]) || 0) + 1;
  I.apply(mapSet, counts, [id, n]);
  return n === 1 ? id : id + '#' + n;
}

/** Observe the value of thunk(); an exception is observed as {"$raised": name} and thrown again. */
function observe(id, thunk) {
  id = occurrence(id);
  let value;
  try {
    value = thunk();
  } catch (error) {
    emitText(id, raisedText(error));
    throw error;
  }
  emitText(id, safeEncode(value));
  return value;
}

/** Observe both sides of an assertion; the host applies its predicate. Returns nothing the test uses. */
function observeBoth(id, actualThunk, expectedThunk) {
  id = occurrence(id);
  let actual;
  try {
    actual = actualThunk();
  } catch (error) {
    emitText(id, raisedText(error));
    throw error;
  }
  const expected = expectedThunk();
  emitText(id, '{"actual":' + safeEncode(actual) + ',"expected":' + safeEncode(expected) + ',"same":' + (I.is(actual, expected) ? 'true' : 'false') + '}');
}

/** Observe that thunk() throws (the host checks which error); a return is observed as such. */
function observeThrows(id, thunk) {
  id = occurrence(id);
  let value;
  try {
    value = thunk();
  } catch (error) {
    emitText(id, raisedText(error));
    return;
  }
  emitText(id, '{"$returned":' + safeEncode(value) + '}');
}

/** Observe that a promise (or a function returning one) rejects; awaited by the sealed test. */
const promiseThen = Promise.prototype.then;
const NativePromise = Promise;
const resolved = () => I.apply(promiseThen, NativePromise.resolve(), [() => undefined]);
function observeRejects(id, subject) {
  id = occurrence(id);
  let promise;
  try {
    promise = typeof subject === 'function' ? subject() : subject;
  } catch (error) {
    emitText(id, raisedText(error));
    return resolved();
  }
  if (!I.isPromise(promise) || I.isProxy(promise)) {
    emitText(id, '{"$returned":' + safeEncode(promise) + '}');
    return resolved();
  }
  return new NativePromise((resolve) => {
    I.apply(promiseThen, promise, [
      (value) => { emitText(id, '{"$returned":' + safeEncode(value) + '}'); resolve(); },
      (error) => { emitText(id, raisedText(error)); resolve(); }
    ]);
  });
}

module.exports = { observe, observeBoth, observeThrows, observeRejects };
`;
}

/** The files staged beside a sealed phase's tests for one run, by folder-relative name. */
export function observerFiles(nonce: string): Record<string, string> {
  return { [PY_OBSERVER_FILE]: pythonObserver(nonce), [JS_OBSERVER_FILE]: jsObserver(nonce), [NONCE_FILE]: `${nonce}\n` };
}
