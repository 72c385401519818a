import { canonicalJson } from './hashing.js';

/**
 * Host-side predicates of sealed assertion sites (issue 28 items 1 and 10, issue 26 item 1): the
 * container prints what it saw, an observer's safe encoding of one or both sides, and the
 * assertion's predicate is applied here, to plain JSON, never by code the candidate could have
 * defined. One comparator (`{"kind": "predicate"}` in the oracle file) serves both sealers; the
 * predicate's name says whose semantics apply, since each language's observer has its own encoding:
 *
 * - JS names (`same` … `throws`) read the JS observer's forms (src/oracle/observer.ts): JSON numbers,
 *   strings, booleans and null as themselves (NaN, ±Infinity as `{"$number": …}`),
 *   `{"$undefined": true}`, `{"$bigint"}`, `{"$symbol"}`, `{"$function"}`, plain arrays and objects as
 *   JSON, everything else tagged (`{"$date"}`, `{"$regexp"}`, `{"$map"}`, `{"$set"}`, `{"$class":
 *   [prototype chain], "fields", "items"?}`). A pair is `{"actual", "expected", "same"}`.
 * - Python names (`eq` … `almost`) read the Python observer's forms (src/oracle/observer-python.ts):
 *   plain JSON for builtin values, `{"$type", "value"}` for an instance of a builtin type's subclass
 *   (judged by its base value, which its own `__eq__`, `__lt__`, `__contains__` or `__bool__` cannot
 *   change), `{"$type", "fields"}` for other objects, `{"$set"}`, `{"$bytes"}`, `{"$dict"}`, `{"$float"}`…
 *   A pair is `{"$left", "$right"}` (plus `"$inprocess"`, see `decidePredicate`).
 *
 * Fail closed, for a predicate and its negation alike: an unobservable operand (`{"$unobservable"}`,
 * a cycle), a raise in place of a value, a malformed pair, or anything the host cannot decide (the
 * truth of an object that may define `__bool__`, an ordering between unlike values) satisfies
 * neither. `negate` flips only a decided answer. Pure and total.
 */

/** Predicates with JavaScript semantics, over the JS observer's forms. */
export const JS_PREDICATES = [
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
  /** JavaScript truthiness (an empty array or object is truthy). */
  'truthy',
  'null',
  'undefined',
  'defined',
  /** The call threw: see `throwsMatches`. */
  'throws'
] as const;

/** Predicates with Python semantics, over the Python observer's forms (negations by `negate`: `!=` is `eq` negated). */
export const PYTHON_PREDICATES = [
  /** `==` on base content (builtin subclasses unwrapped, objects field by field). */
  'eq',
  /** Python's ordering (`<`, `<=`, `>`, `>=`): numbers, strings by code point, lists element-wise. */
  'lt',
  'le',
  'gt',
  'ge',
  /** `left in right` (substring, list element, set member, dict key). */
  'in',
  /** Python's truth value (`bool(x)`: an empty list, dict or set is false); undecided for objects. */
  'truth',
  /** `is None`. */
  'is_none',
  /** unittest's assertAlmostEqual: `places` (default 7) or `delta`. */
  'almost'
] as const;

export const PREDICATES = [...JS_PREDICATES, ...PYTHON_PREDICATES] as const;
export type PredicateName = (typeof PREDICATES)[number];
export type PythonPredicateName = (typeof PYTHON_PREDICATES)[number];

/**
 * What the observation of a predicate site holds: `actual` — one side (the assertion's actual, or
 * left, operand) and the case's `expected` is the other (a literal); `right` — the right operand, the
 * literal being the left one (Python's `"x" in f(a)`); `both` — the observer's pair of both sides.
 */
export const PREDICATE_SIDES = ['actual', 'both', 'right'] as const;

/** The comparator's fields, as the oracle file holds them (src/core/oracle.ts validates them). */
export interface PredicateSpec {
  predicate: PredicateName;
  negate?: boolean | undefined;
  observed?: (typeof PREDICATE_SIDES)[number] | undefined;
  /** JS close: the digits of toBeCloseTo (default 2). */
  digits?: number | undefined;
  /** JS throws: a class name the thrown value's prototype chain must hold. */
  type?: string | undefined;
  /** JS throws / match: a RegExp source (and flags) the message or string must match. */
  pattern?: string | undefined;
  flags?: string | undefined;
  /** JS throws: a substring the message must contain. */
  includes?: string | undefined;
  /** JS throws: what `pattern` is tested against: the message (toThrow), or `Name: message` (assert.throws, as String(error)). */
  subject?: 'message' | 'string' | undefined;
  /** JS throws: properties the thrown value must have (assert.throws' validation object), encoded. */
  props?: Record<string, unknown> | undefined;
  /** Python almost: decimal places (default 7). */
  places?: number | undefined;
  /** Python almost: the largest difference allowed, instead of places. */
  delta?: number | undefined;
}

/** The options each predicate may carry (the schema refuses the others). */
export const PREDICATE_OPTIONS: Readonly<Record<string, readonly PredicateName[]>> = {
  digits: ['close'],
  type: ['throws'],
  pattern: ['throws', 'match'],
  flags: ['throws', 'match'],
  includes: ['throws'],
  subject: ['throws'],
  props: ['throws'],
  places: ['almost'],
  delta: ['almost']
};

const PYTHON_NAMES: ReadonlySet<string> = new Set(PYTHON_PREDICATES);
export const isPythonPredicate = (name: PredicateName): name is PythonPredicateName => PYTHON_NAMES.has(name);

type Json = unknown;
const isRecord = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

function canonical(value: Json): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}

// ---- JavaScript semantics ----

const MAX_MATCHED = 100_000;

const tag = (v: Json, key: string): Json => (isRecord(v) && Object.keys(v).includes(key) ? v[key] : undefined);

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

// ---- Python semantics ----

const keysAre = (v: Record<string, unknown>, ...keys: string[]): boolean => Object.keys(v).sort().join(',') === [...keys].sort().join(',');
const markerKey = (v: Record<string, unknown>): boolean => Object.keys(v).some((k) => k.startsWith('$'));

/** The base content of a value: builtin subclasses unwrapped, recursively; everything else kept. */
export function untag(value: Json): Json {
  if (Array.isArray(value)) return value.map(untag);
  if (!isRecord(value)) return value;
  if (keysAre(value, '$type', 'value')) return untag(value.value);
  if (markerKey(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, untag(v)]));
}

/** A form the host can read fully: no unobservable part, no cycle. */
function observable(value: Json): boolean {
  const text = canonical(value);
  return text !== undefined && !/"\$(unobservable|cycle|raised|returned)"/.test(text);
}

function equal(a: Json, b: Json): boolean | undefined {
  if (!observable(a) || !observable(b)) return undefined;
  return canonical(untag(a)) === canonical(untag(b));
}

/** Python's truth value of a form, or undefined when it depends on code (an object's __bool__/__len__). */
function truth(value: Json): boolean | undefined {
  const v = untag(value);
  if (v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (!isRecord(v)) return undefined;
  if (keysAre(v, '$set')) return Array.isArray(v.$set) ? v.$set.length > 0 : undefined;
  if (keysAre(v, '$dict')) return Array.isArray(v.$dict) ? v.$dict.length > 0 : undefined;
  if (keysAre(v, '$bytes')) return typeof v.$bytes === 'string' ? v.$bytes.length > 0 : undefined;
  if (keysAre(v, '$float')) return true;
  if (keysAre(v, '$class') || keysAre(v, '$function') || keysAre(v, '$module')) return true;
  if (markerKey(v)) return undefined;
  return Object.keys(v).length > 0;
}

function codePoints(s: string): number[] {
  // Python orders strings by code point (not by UTF-16 unit, as JS's < does).
  return Array.from(s, (c) => c.codePointAt(0) ?? 0);
}

/** Python's ordering of two forms (-1, 0, 1), or undefined when Python would raise or it depends on code. */
function order(a: Json, b: Json): number | undefined {
  const x = untag(a);
  const y = untag(b);
  const num = (v: Json): number | undefined => (typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : undefined);
  const nx = num(x);
  const ny = num(y);
  if (nx !== undefined && ny !== undefined) return nx < ny ? -1 : nx > ny ? 1 : 0;
  if (typeof x === 'string' && typeof y === 'string') {
    const p = codePoints(x);
    const q = codePoints(y);
    for (let i = 0; i < Math.min(p.length, q.length); i++) if (p[i] !== q[i]) return (p[i] as number) < (q[i] as number) ? -1 : 1;
    return p.length === q.length ? 0 : p.length < q.length ? -1 : 1;
  }
  if (Array.isArray(x) && Array.isArray(y)) {
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const eq = equal(x[i], y[i]);
      if (eq === undefined) return undefined;
      if (!eq) return order(x[i], y[i]);
    }
    return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
  }
  return undefined;
}

/** Python's `member in container` on forms, or undefined when the container is not one the host reads. */
function contains(member: Json, container: Json): boolean | undefined {
  const c = untag(container);
  const m = untag(member);
  if (!observable(container) || !observable(member)) return undefined;
  if (typeof c === 'string') return typeof m === 'string' ? c.includes(m) : undefined;
  if (Array.isArray(c)) return c.some((e) => equal(e, m) === true);
  if (!isRecord(c)) return undefined;
  if (keysAre(c, '$set') && Array.isArray(c.$set)) {
    const want = canonical(m);
    return c.$set.some((text) => {
      try {
        return typeof text === 'string' && canonical(untag(JSON.parse(text))) === want;
      } catch {
        return false;
      }
    });
  }
  if (keysAre(c, '$dict') && Array.isArray(c.$dict)) return c.$dict.some((pair) => Array.isArray(pair) && equal(pair[0], m) === true);
  if (keysAre(c, '$bytes') && typeof c.$bytes === 'string') {
    if (!isRecord(m) || !keysAre(m, '$bytes') || typeof m.$bytes !== 'string') return undefined;
    const needle = m.$bytes;
    for (let at = c.$bytes.indexOf(needle); at >= 0; at = c.$bytes.indexOf(needle, at + 1)) if (at % 2 === 0) return true;
    return false;
  }
  if (markerKey(c)) return undefined;
  // a dict with builtin keys, observed as a JSON object (keys as json.dumps writes them)
  if (typeof m === 'string') return Object.hasOwn(c, m);
  if (typeof m === 'number' && Number.isSafeInteger(m)) return Object.hasOwn(c, String(m));
  return undefined;
}

function almost(a: Json, b: Json, places: number | undefined, delta: number | undefined): boolean | undefined {
  if (equal(a, b) === true) return true;
  const x = untag(a);
  const y = untag(b);
  if (typeof x !== 'number' || typeof y !== 'number') return undefined;
  const diff = Math.abs(x - y);
  if (delta !== undefined) return diff <= delta;
  const p = places ?? 7;
  return Number(diff.toFixed(Math.max(0, Math.min(100, p)))) === 0;
}

/** JS semantics on two operands; `undefined` when the host cannot decide (fails both ways). */
function jsHolds(spec: PredicateSpec, actual: Json, expected: Json, identical: boolean | undefined): boolean | undefined {
  if (spec.predicate === 'throws') return throwsMatches(actual, spec);
  if (hasUnobservable(actual) || hasUnobservable(expected)) return undefined;
  // A raise in place of a value satisfies nothing, negated or not.
  if (isRecord(actual) && typeof actual.$raised === 'string') return undefined;
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
    default:
      return undefined;
  }
}

/** Python semantics on two operands (`left` the left operand, the member of `in`); `undefined` when undecided. */
function pythonHolds(spec: PredicateSpec, left: Json, right: Json): boolean | undefined {
  if (isRecord(left) && typeof left.$raised === 'string') return undefined;
  if (isRecord(right) && typeof right.$raised === 'string') return undefined;
  switch (spec.predicate) {
    case 'eq':
      return equal(left, right);
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge': {
      const o = observable(left) && observable(right) ? order(left, right) : undefined;
      if (o === undefined) return undefined;
      return spec.predicate === 'lt' ? o < 0 : spec.predicate === 'le' ? o <= 0 : spec.predicate === 'gt' ? o > 0 : o >= 0;
    }
    case 'in':
      return contains(left, right);
    case 'truth':
      return observable(left) ? truth(left) : undefined;
    case 'is_none':
      return observable(left) ? left === null : undefined;
    case 'almost':
      return almost(left, right, spec.places, spec.delta);
    default:
      return undefined;
  }
}

/** The two operands of an observation, by `observed`; undefined for a malformed pair. */
function operands(spec: PredicateSpec, observation: Json, expected: Json): { left: Json; right: Json; identical?: boolean } | undefined {
  const observed = spec.observed ?? 'actual';
  if (observed === 'actual') return { left: observation, right: expected };
  if (observed === 'right') return { left: expected, right: observation };
  if (!isRecord(observation)) return undefined;
  if (isPythonPredicate(spec.predicate)) {
    if (!(keysAre(observation, '$left', '$right') || keysAre(observation, '$left', '$right', '$inprocess'))) return undefined;
    return { left: observation.$left, right: observation.$right };
  }
  if (!keysAre(observation, 'actual', 'expected', 'same') || typeof observation.same !== 'boolean') return undefined;
  return { left: observation.actual, right: observation.expected, identical: observation.same };
}

/**
 * How a predicate site's observation is decided: `'host'` (the predicate, negated or not, holds on
 * the observed forms), `'in-process'` (Python only: a pair holding objects whose classes define
 * `__eq__`, where the host's structural reading says no and the observer's in-process answer for
 * the assertion's own operator says yes — accepted only when no part of either side is an instance of
 * a builtin type's subclass, whose own methods could lie), or `false`.
 */
export function decidePredicate(spec: PredicateSpec, observation: Json, expected: Json): 'host' | 'in-process' | false {
  const sides = operands(spec, observation, expected);
  if (sides === undefined) return false;
  const held = isPythonPredicate(spec.predicate) ? pythonHolds(spec, sides.left, sides.right) : jsHolds(spec, sides.left, sides.right, sides.identical);
  if (held !== undefined && held !== (spec.negate === true)) return 'host';
  if (!isPythonPredicate(spec.predicate) || spec.observed !== 'both' || !isRecord(observation)) return false;
  if (observation.$inprocess !== true || !keysAre(observation, '$left', '$right', '$inprocess')) return false;
  if (!['eq', 'in', 'lt', 'le', 'gt', 'ge', 'truth'].includes(spec.predicate)) return false;
  const text = canonical([observation.$left, observation.$right]);
  if (text === undefined || !text.includes('"fields"') || /"\$(unobservable|cycle|raised|returned)"/.test(text) || hasBuiltinSubclass([observation.$left, observation.$right]))
    return false;
  return 'in-process';
}

/** Does an observation satisfy a predicate site? `expected` is the case's literal operand (null for a pair). */
export function applyPredicate(spec: PredicateSpec, observation: Json, expected: Json): boolean {
  return decidePredicate(spec, observation, expected) !== false;
}

function hasBuiltinSubclass(value: Json): boolean {
  if (Array.isArray(value)) return value.some(hasBuiltinSubclass);
  if (!isRecord(value)) return false;
  if (typeof value.$type === 'string' && Object.hasOwn(value, 'value')) return true;
  return Object.values(value).some(hasBuiltinSubclass);
}
