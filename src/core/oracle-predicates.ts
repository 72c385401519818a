import { canonicalJson } from './hashing.js';

/**
 * The predicates of sealed assertion sites, applied on the host to what the observers printed
 * (issue 28 item 1). The operands are the observers' safe forms (src/oracle/observer-python.ts):
 * plain JSON for builtin values, `{"$type", "value"}` for an instance of a builtin type's subclass,
 * `{"$type", "fields"}` for other objects, `{"$set"}`, `{"$bytes"}`, `{"$dict"}`, `{"$float"}`…
 *
 * Every predicate reads the operands' *content*: a subclass of a builtin type is judged by its
 * base value (which its own `__eq__`, `__lt__`, `__contains__` or `__bool__` cannot change), an object
 * field by field. Anything the host cannot decide (the truth of an object that may define
 * `__bool__`, an ordering between unlike values, an unobservable operand) is `false`: it fails closed,
 * for a predicate and for its negation alike. Pure and total.
 */

export interface PredicateComparator {
  op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'in' | 'not_in' | 'truthy' | 'falsy' | 'is_none' | 'is_not_none' | 'almost' | 'not_almost';
  observed: 'both' | 'left' | 'right';
  places?: number | undefined;
  delta?: number | undefined;
}

type Json = unknown;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
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

function canonical(value: Json): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
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

/** Does an observation satisfy a predicate site (on the host, or decided in-process where allowed)? `expected` is the literal operand when only one side was observed. */
export function applyPredicate(actual: Json, expected: Json, comparator: PredicateComparator): boolean {
  return decide(actual, expected, comparator) !== false;
}

/**
 * How a predicate site is decided: `'host'` (the predicate holds on the observed forms), `'in-process'`
 * (the forms hold objects whose classes define `__eq__`, the host's structural reading says no, and
 * the observer's in-process answer says yes — accepted only when no part of either side is an
 * instance of a builtin type's subclass, whose own methods could lie), or `false`.
 */
export function decide(actual: Json, expected: Json, comparator: PredicateComparator): 'host' | 'in-process' | false {
  if (evaluate(actual, expected, comparator)) return 'host';
  if (comparator.observed !== 'both' || !isRecord(actual) || actual.$inprocess !== true || !keysAre(actual, '$left', '$right', '$inprocess')) return false;
  if (!['eq', 'ne', 'in', 'not_in', 'lt', 'le', 'gt', 'ge', 'truthy', 'falsy'].includes(comparator.op)) return false;
  const text = canonical([actual.$left, actual.$right]);
  if (text === undefined || !text.includes('"fields"') || /"\$(unobservable|cycle|raised|returned)"/.test(text) || hasBuiltinSubclass([actual.$left, actual.$right])) return false;
  return 'in-process';
}

function hasBuiltinSubclass(value: Json): boolean {
  if (Array.isArray(value)) return value.some(hasBuiltinSubclass);
  if (!isRecord(value)) return false;
  if (typeof value.$type === 'string' && Object.hasOwn(value, 'value')) return true;
  return Object.values(value).some(hasBuiltinSubclass);
}

function evaluate(actual: Json, expected: Json, comparator: PredicateComparator): boolean {
  let left: Json;
  let right: Json;
  if (comparator.observed === 'both') {
    if (!isRecord(actual) || !(keysAre(actual, '$left', '$right') || keysAre(actual, '$left', '$right', '$inprocess'))) return false;
    left = actual.$left;
    right = actual.$right;
  } else if (comparator.observed === 'left') {
    left = actual;
    right = expected;
  } else {
    left = expected;
    right = actual;
  }
  if (isRecord(left) && typeof left.$raised === 'string') return false;
  if (isRecord(right) && typeof right.$raised === 'string') return false;
  const ord = (): number | undefined => (observable(left) && observable(right) ? order(left, right) : undefined);
  let result: boolean | undefined;
  switch (comparator.op) {
    case 'eq':
      result = equal(left, right);
      break;
    case 'ne': {
      const eq = equal(left, right);
      result = eq === undefined ? undefined : !eq;
      break;
    }
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge': {
      const o = ord();
      if (o !== undefined) result = comparator.op === 'lt' ? o < 0 : comparator.op === 'le' ? o <= 0 : comparator.op === 'gt' ? o > 0 : o >= 0;
      break;
    }
    case 'in':
      result = contains(left, right);
      break;
    case 'not_in': {
      const c = contains(left, right);
      result = c === undefined ? undefined : !c;
      break;
    }
    case 'truthy':
      result = observable(left) ? truth(left) : undefined;
      break;
    case 'falsy': {
      const t = observable(left) ? truth(left) : undefined;
      result = t === undefined ? undefined : !t;
      break;
    }
    case 'is_none':
      result = observable(left) ? left === null : undefined;
      break;
    case 'is_not_none':
      result = observable(left) ? left !== null && left !== undefined : undefined;
      break;
    case 'almost':
      result = almost(left, right, comparator.places, comparator.delta);
      break;
    case 'not_almost': {
      const a = almost(left, right, comparator.places, comparator.delta);
      result = a === undefined ? undefined : !a;
      break;
    }
  }
  return result === true;
}
