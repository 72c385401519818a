import { describe, expect, test } from '@jest/globals';
import { compareValue, parseOracleFile, type Comparator } from '../../src/core/oracle.js';

/** The host-side predicates of two-sided sealed sites (src/core/predicates.ts): fail closed on anything odd. */

const both = (predicate: string, extra: object = {}): Comparator => ({ kind: 'predicate', predicate, observed: 'both', ...extra }) as Comparator;
const pair = (actual: unknown, expected: unknown, same = false): unknown => ({ actual, expected, same });

describe('host predicates', () => {
  test('equality of safe encodings; a tagged (lying) array is not the plain one', () => {
    const lie = { $class: ['Array', 'Object'], fields: { asymmetricMatch: { $function: 'value' } }, items: [[1, 2]] };
    expect(compareValue(pair([[1, 2]], [[1, 2]]), null, both('equal'))).toBe(true);
    expect(
      compareValue(
        pair(lie, [
          [1, 2],
          [2, 3]
        ]),
        null,
        both('equal')
      )
    ).toBe(false);
    expect(
      compareValue(
        pair(lie, [
          [1, 2],
          [2, 3]
        ]),
        null,
        both('match_object')
      )
    ).toBe(false);
    expect(
      compareValue(
        pair(lie, [
          [1, 2],
          [2, 3]
        ]),
        null,
        both('equal', { negate: true })
      )
    ).toBe(true);
  });

  test('unobservable, raised and malformed observations satisfy nothing, negated or not', () => {
    for (const negate of [false, true]) {
      expect(compareValue(pair({ $unobservable: 'proxy' }, 1), null, both('equal', { negate }))).toBe(false);
      expect(compareValue(pair([{ $unobservable: 'accessor x' }], [1]), null, both('contains', { negate }))).toBe(false);
      expect(compareValue({ $raised: 'TypeError', message: 'x' }, 1, { kind: 'predicate', predicate: 'same', observed: 'actual', negate })).toBe(false);
      expect(compareValue({ actual: 1, expected: 1 }, null, both('same', { negate }))).toBe(false);
      expect(compareValue({ actual: 1, expected: 1, same: true, extra: 1 }, null, both('same', { negate }))).toBe(false);
    }
  });

  test('identity for objects under toBe/strictEqual, value for primitives; == between primitives', () => {
    expect(compareValue(pair({ a: 1 }, { a: 1 }, false), null, both('same'))).toBe(false);
    expect(compareValue(pair({ a: 1 }, { a: 1 }, true), null, both('same'))).toBe(true);
    expect(compareValue(pair(3, 3), null, both('same'))).toBe(true);
    expect(compareValue(pair('3', 3), null, both('loose_equal'))).toBe(true);
    expect(compareValue(pair('3', 3), null, both('same'))).toBe(false);
  });

  test('throws: class chain, message pattern (message or Name: message), substring, properties', () => {
    const raised = { $raised: 'RangeError', chain: ['RangeError', 'Error', 'Object'], message: 'bad size', name: 'RangeError', fields: { code: 'E1' } };
    const t = (spec: object): boolean => compareValue(raised, null, { kind: 'predicate', predicate: 'throws', observed: 'actual', ...spec });
    expect([t({ type: 'Error' }), t({ type: 'TypeError' }), t({ pattern: '^bad' }), t({ pattern: '^RangeError: bad', subject: 'string' }), t({ pattern: '^RangeError' })]).toEqual([
      true,
      false,
      true,
      true,
      false
    ]);
    expect([t({ includes: 'size' }), t({ props: { code: 'E1', message: { $regexp: { source: 'bad', flags: '' } } } }), t({ props: { code: 'E2' } })]).toEqual([true, true, false]);
    expect(compareValue({ $returned: 3 }, null, { kind: 'predicate', predicate: 'throws', observed: 'actual' })).toBe(false);
    expect(compareValue({ $returned: 3 }, null, { kind: 'predicate', predicate: 'throws', observed: 'actual', negate: true })).toBe(true);
  });

  test('the comparator is part of the strict oracle format', () => {
    expect(() =>
      parseOracleFile({ schema: 'patchproof.oracle/v1', cases: [{ id: 'a', phase: 'hidden', expected: null, comparator: { kind: 'predicate', predicate: 'nope' } }] })
    ).toThrow();
    expect(() =>
      parseOracleFile({ schema: 'patchproof.oracle/v1', cases: [{ id: 'a', phase: 'hidden', expected: null, comparator: { kind: 'predicate', predicate: 'equal', run: 'x' } }] })
    ).toThrow();
  });

  test("one comparator for both sealers: each name reads its own observer's pair, anything else fails both ways", () => {
    const py = (predicate: string, negate = false): Comparator => ({ kind: 'predicate', predicate, observed: 'both', ...(negate ? { negate } : {}) }) as Comparator;
    // A JS pair given to a Python predicate (and the reverse) is malformed: neither the predicate nor its negation holds.
    for (const negate of [false, true]) {
      expect(compareValue(pair(1, 2), null, py('eq', negate))).toBe(false);
      expect(compareValue({ $left: 1, $right: 2 }, null, { ...both('equal'), ...(negate ? { negate } : {}) })).toBe(false);
      // Unobservable and raised operands, for both languages.
      expect(compareValue({ $left: { $unobservable: 'm.X' }, $right: 1 }, null, py('eq', negate))).toBe(false);
      expect(compareValue({ $left: { $raised: 'ValueError' }, $right: 1 }, null, py('lt', negate))).toBe(false);
      expect(compareValue(pair({ $unobservable: 'getter' }, 1), null, { ...both('equal'), ...(negate ? { negate } : {}) })).toBe(false);
      expect(compareValue(pair({ $raised: 'TypeError' }, 1), null, { ...both('equal'), ...(negate ? { negate } : {}) })).toBe(false);
    }
    expect([compareValue({ $left: 1, $right: 2 }, null, py('eq')), compareValue({ $left: 1, $right: 2 }, null, py('eq', true))]).toEqual([false, true]);
    // The two truths differ: an empty list is truthy in JS, false in Python.
    expect(compareValue([], null, { kind: 'predicate', predicate: 'truthy', observed: 'actual' })).toBe(true);
    expect(compareValue([], null, { kind: 'predicate', predicate: 'truth', observed: 'actual' })).toBe(false);
    expect(compareValue([], null, { kind: 'predicate', predicate: 'truth', observed: 'actual', negate: true })).toBe(true);
    // observed "right": the observation is the right operand (a literal member in an observed container).
    expect(compareValue(['x', 'y'], 'x', { kind: 'predicate', predicate: 'in', observed: 'right' })).toBe(true);
    expect(compareValue(['x', 'y'], 'x', { kind: 'predicate', predicate: 'in', observed: 'actual' })).toBe(false);
  });

  test('options belong to their predicate; the legacy Python `op` field is not a field of the comparator', () => {
    const parse = (comparator: object): unknown => parseOracleFile({ schema: 'patchproof.oracle/v1', cases: [{ id: 'a', phase: 'hidden', expected: null, comparator }] });
    expect(() => parse({ kind: 'predicate', predicate: 'almost', observed: 'both', places: 2 })).not.toThrow();
    expect(() => parse({ kind: 'predicate', predicate: 'close', digits: 3 })).not.toThrow();
    expect(() => parse({ kind: 'predicate', predicate: 'equal', places: 2 })).toThrow(/places is not an option of the equal predicate/);
    expect(() => parse({ kind: 'predicate', predicate: 'eq', pattern: 'x' })).toThrow(/pattern is not an option of the eq predicate/);
    expect(() => parse({ kind: 'predicate', op: 'ne', observed: 'both' })).toThrow();
    expect(() => parse({ kind: 'predicate', predicate: 'eq', observed: 'left' })).toThrow();
  });
});
