/**
 * Host-side predicates of sealed assertion sites whose two sides are both observed (issue 28 items 1
 * and 10, issue 26 item 1): the container prints what it saw, the JS observer's safe encoding of
 * each side (src/oracle/observer.ts), and the assertion's predicate is applied here, to plain JSON,
 * never by code the candidate could have defined. Pure and total: anything unexpected is `false`.
 *
 * The encoding: JSON numbers, strings, booleans and null as themselves (NaN, ±Infinity as
 * `{"$number": …}`), `{"$undefined": true}`, `{"$bigint": …}`, `{"$symbol": …}`, `{"$function": …}`,
 * plain arrays and plain objects as JSON arrays and objects (an undefined property dropped), and
 * everything else tagged: `{"$date"}`, `{"$regexp": {source, flags}}`, `{"$map"}`, `{"$set"}`,
 * `{"$class": [constructor names of the prototype chain], "fields": {…}, "items"?: […]}`. A value the
 * observer could not read without running candidate code is `{"$unobservable": why}`: it satisfies
 * no predicate.
 */

import { canonicalJson } from './hashing.js';

export const PREDICATES = [
  /** Object.is, or for objects the identity the observer saw (`same`). */
  'same',
  /** Structural equality of the encodings (toEqual, deepEqual). */
  'equal',
  /** Structural equality (toStrictEqual, deepStrictEqual): the same, the encoding already carries the classes. */
  'strict_equal',
  /** `==` between primitives (assert.equal); for objects the identity the observer saw. */
  'loose_equal',
  /** A string contains a substring, an array or a set holds an element equal to the expected one. */
  'contains',
  /** A string matches the RegExp `pattern`/`flags` of the comparator, or contains the expected string. */
  'match',
  /** An array, string or typed array's length, or an own `length` data property, equals the expected number. */
  'length',
  /** |actual − expected| < 10^-digits / 2. */
  'close',
  /** toMatchObject: every property of the expected object is in the actual one, recursively. */
  'match_object',
  'truthy',
  'null',
  'undefined',
  'defined',
  /** The call threw: see `throwsMatches`. */
  'throws'
] as const;
export type PredicateName = (typeof PREDICATES)[number];

export interface PredicateSpec {
  predicate: PredicateName;
  negate?: boolean;
  digits?: number;
  /** throws: a class name the thrown value's prototype chain must hold. */
  type?: string;
  /** throws / match: a RegExp source (and flags) the message or string must match. */
  pattern?: string;
  flags?: string;
  /** throws: a substring the message must contain. */
  includes?: string;
  /** throws: what `pattern` is tested against: the message (toThrow), or `Name: message` (assert.throws, as String(error)). */
  subject?: 'message' | 'string';
  /** throws: properties the thrown value must have (assert.throws' validation object), encoded. */
  props?: Record<string, unknown>;
}

const MAX_MATCHED = 100_000;

type Json = unknown;
const isRecord = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const tag = (v: Json, key: string): Json => (isRecord(v) && Object.keys(v).includes(key) ? v[key] : undefined);

function canonical(value: Json): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}

/** Anything the observer could not read makes every predicate false. */
export function hasUnobservable(value: Json): boolean {
  const text = canonical(value);
  return text === undefined || text.includes('"$unobservable"');
}

function structuralEqual(a: Json, b: Json): boolean {
  const x = canonical(a);
  return x !== undefined && x === canonical(b);
}

function truthy(v: Json): boolean {
  if (v === false || v === null || v === 0 || v === '') return false;
  if (isRecord(v)) {
    if (tag(v, '$undefined') === true) return false;
    const n = tag(v, '$number');
    if (n === 'NaN') return false;
    if (tag(v, '$bigint') === '0') return false;
  }
  return true;
}

const isPrimitive = (v: Json): boolean =>
  !isRecord(v) && !Array.isArray(v) ? true : ['$undefined', '$number', '$bigint', '$symbol'].some((k) => tag(v, k) !== undefined) && Object.keys(v as object).length === 1;

function looseEqual(a: Json, b: Json): boolean {
  const absent = (v: Json): boolean => v === null || (isRecord(v) && tag(v, '$undefined') === true);
  if (absent(a) || absent(b)) return absent(a) && absent(b);
  if ((typeof a === 'number' || typeof a === 'string' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'string' || typeof b === 'boolean')) {
    // The abstract equality of primitives: both to numbers unless both are strings.
    if (typeof a === 'string' && typeof b === 'string') return a === b;
    const num = (v: number | string | boolean): number => (typeof v === 'string' ? (v.trim() === '' ? 0 : Number(v)) : Number(v));
    return num(a) === num(b);
  }
  return structuralEqual(a, b);
}

function regexpTest(pattern: string, flags: string | undefined, text: string): boolean {
  if (text.length > MAX_MATCHED) return false;
  try {
    return new RegExp(pattern, (flags ?? '').replace(/[gy]/g, '')).test(text);
  } catch {
    return false;
  }
}

function matchObject(actual: Json, expected: Json): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => matchObject(actual[i], e));
  if (isRecord(expected) && !Object.keys(expected).some((k) => k.startsWith('$'))) {
    if (!isRecord(actual) || Object.keys(actual).some((k) => k.startsWith('$'))) return false;
    return Object.keys(expected).every((k) => Object.keys(actual).includes(k) && matchObject(actual[k], expected[k]));
  }
  return structuralEqual(actual, expected);
}

/** The thrown value as the observer reports it: `{"$raised": name, "chain": […], "message": …, "fields": {…}}`. */
function throwsMatches(observed: Json, spec: PredicateSpec): boolean {
  if (!isRecord(observed) || typeof observed.$raised !== 'string') return false;
  const chain = Array.isArray(observed.chain) ? observed.chain.filter((c): c is string => typeof c === 'string') : [observed.$raised];
  const message = typeof observed.message === 'string' ? observed.message : undefined;
  if (spec.type !== undefined && !chain.includes(spec.type)) return false;
  if (spec.pattern !== undefined) {
    const name = typeof observed.name === 'string' ? observed.name : observed.$raised;
    const subject = spec.subject === 'string' ? (message === undefined || message === '' ? name : `${name}: ${message}`) : message;
    if (subject === undefined || !regexpTest(spec.pattern, spec.flags, subject)) return false;
  }
  if (spec.includes !== undefined && (message === undefined || !message.includes(spec.includes))) return false;
  if (spec.props !== undefined) {
    const fields = isRecord(observed.fields) ? observed.fields : {};
    for (const [key, want] of Object.entries(spec.props)) {
      const have = key === 'message' ? message : key === 'name' && !Object.keys(fields).includes('name') ? observed.name : fields[key];
      const re = tag(want, '$regexp');
      if (isRecord(re) && typeof re.source === 'string') {
        if (typeof have !== 'string' || !regexpTest(re.source, typeof re.flags === 'string' ? re.flags : '', have)) return false;
      } else if (!structuralEqual(have, want)) return false;
    }
  }
  return true;
}

function lengthOf(v: Json): number | undefined {
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v)) return v.length;
  const items = tag(v, 'items');
  if (Array.isArray(items)) return items.length;
  const fields = tag(v, 'fields');
  if (isRecord(fields) && typeof fields.length === 'number') return fields.length;
  if (isRecord(v) && typeof v.length === 'number') return v.length;
  return undefined;
}

/**
 * Apply a predicate to the observed actual side and the expected side (observed, or the pack's
 * literal). `same` and `loose_equal` between objects need the identity the observer saw.
 */
export function applyPredicate(spec: PredicateSpec, actual: Json, expected: Json, identical?: boolean): boolean {
  if (spec.predicate === 'throws') return throwsMatches(actual, spec) !== (spec.negate === true);
  if (hasUnobservable(actual) || hasUnobservable(expected)) return false;
  // A raise in place of a value satisfies nothing, negated or not.
  if (isRecord(actual) && typeof actual.$raised === 'string') return false;
  const held = ((): boolean => {
    switch (spec.predicate) {
      case 'same':
        if (isPrimitive(actual) && isPrimitive(expected)) return structuralEqual(actual, expected);
        return identical === true;
      case 'loose_equal':
        if (isPrimitive(actual) && isPrimitive(expected)) return looseEqual(actual, expected);
        return identical === true;
      case 'equal':
      case 'strict_equal':
        return structuralEqual(actual, expected);
      case 'contains': {
        if (typeof actual === 'string') return typeof expected === 'string' && actual.includes(expected);
        const list = Array.isArray(actual) ? actual : (tag(actual, '$set') ?? tag(actual, 'items'));
        return Array.isArray(list) && list.some((item) => structuralEqual(item, expected));
      }
      case 'match':
        if (typeof actual !== 'string') return false;
        if (spec.pattern !== undefined) return regexpTest(spec.pattern, spec.flags, actual);
        return typeof expected === 'string' && actual.includes(expected);
      case 'length':
        return typeof expected === 'number' && lengthOf(actual) === expected;
      case 'close': {
        if (typeof actual !== 'number' || typeof expected !== 'number') return false;
        const digits = spec.digits ?? 2;
        return Math.abs(actual - expected) < 10 ** -digits / 2;
      }
      case 'match_object':
        return matchObject(actual, expected);
      case 'truthy':
        return truthy(actual);
      case 'null':
        return actual === null;
      case 'undefined':
        return isRecord(actual) && tag(actual, '$undefined') === true;
      case 'defined':
        return !(isRecord(actual) && tag(actual, '$undefined') === true);
    }
  })();
  return held !== (spec.negate === true);
}
