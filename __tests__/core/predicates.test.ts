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
});
