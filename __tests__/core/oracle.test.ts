import { describe, expect, test } from '@jest/globals';
import {
  compareValue,
  judgeObservations,
  OBSERVATION_MARKER,
  parseObservations,
  parseOracleFile,
  phaseIsSealed,
  sealedTestResults,
  type OracleCase
} from '../../src/core/oracle.js';

const NONCE = 'a'.repeat(32);
const line = (value: unknown, nonce = NONCE): string => `${OBSERVATION_MARKER} ${nonce} ${JSON.stringify(value)}`;
const cases: OracleCase[] = [
  { id: 'hidden:a/1', phase: 'hidden', expected: 3, comparator: { kind: 'exact' } },
  { id: 'hidden:a/2', phase: 'hidden', expected: [1, 2], comparator: { kind: 'exact' } }
];

describe('comparators', () => {
  test('exact is canonical JSON equality: key order does not matter, types and values do', () => {
    expect(compareValue({ b: 1, a: [1, 'x'] }, { a: [1, 'x'], b: 1 }, { kind: 'exact' })).toBe(true);
    expect(compareValue(1, 1.0, { kind: 'exact' })).toBe(true);
    expect(compareValue('3', 3, { kind: 'exact' })).toBe(false);
    expect(compareValue(true, 1, { kind: 'exact' })).toBe(false);
    expect(compareValue([1, 2], [2, 1], { kind: 'exact' })).toBe(false);
    expect(compareValue(null, 0, { kind: 'exact' })).toBe(false);
    expect(compareValue({ a: 1, extra: 2 }, { a: 1 }, { kind: 'exact' })).toBe(false);
  });

  test('float accepts within the tolerance only, anywhere in the value, and never a non-number', () => {
    const c = { kind: 'float', abs: 1e-6, rel: 0 } as const;
    expect(compareValue(0.1 + 0.2, 0.3, c)).toBe(true);
    expect(compareValue([0.30001, { x: 1 }], [0.3, { x: 1 }], c)).toBe(false);
    expect(compareValue([0.3000000001, { x: 1 }], [0.3, { x: 1 }], c)).toBe(true);
    expect(compareValue('0.3', 0.3, c)).toBe(false);
    expect(compareValue({ $number: 'NaN' }, 0.3, c)).toBe(false);
    expect(compareValue(110, 100, { kind: 'float', abs: 0, rel: 0.1 })).toBe(true);
    expect(compareValue(111, 100, { kind: 'float', abs: 0, rel: 0.1 })).toBe(false);
  });

  test('unordered compares multisets: order ignored, counts kept', () => {
    const c = { kind: 'unordered' } as const;
    expect(compareValue([3, 1, 2], [1, 2, 3], c)).toBe(true);
    expect(compareValue([1, 1, 2], [1, 2, 2], c)).toBe(false);
    expect(compareValue([1, 2], [1, 2, 3], c)).toBe(false);
    expect(compareValue('123', [1, 2, 3], c)).toBe(false);
  });

  test('raises needs the class name and a message match', () => {
    const c = { kind: 'raises', type: 'CalculatorError', pattern: 'division by zero' } as const;
    expect(compareValue({ $raised: 'CalculatorError', message: 'division by zero at 3' }, null, c)).toBe(true);
    expect(compareValue({ $raised: 'ZeroDivisionError', message: 'division by zero' }, null, c)).toBe(false);
    expect(compareValue({ $raised: 'CalculatorError', message: 'bad input' }, null, c)).toBe(false);
    expect(compareValue({ $returned: 0 }, null, c)).toBe(false);
    expect(compareValue(0, null, c)).toBe(false);
  });
});

describe('observations', () => {
  test('each case observed once with the right value matches', () => {
    const parsed = parseObservations(['noise', line({ case: 'hidden:a/1', value: 3 }), `  prefix ${line({ case: 'hidden:a/2', value: [1, 2] })}`].join('\n'), NONCE);
    const judged = judgeObservations(cases, parsed);
    expect(judged.problems).toEqual([]);
    expect(judged.cases.map((c) => c.outcome)).toEqual(['matched', 'matched']);
  });

  test('missing, duplicated, extra and malformed observations fail', () => {
    const output = [
      line({ case: 'hidden:a/1', value: 3 }),
      line({ case: 'hidden:a/1', value: 3 }),
      line({ case: 'hidden:zz', value: 1 }),
      `${OBSERVATION_MARKER} ${NONCE} {not json`,
      line({ case: 'hidden:a/2', value: [1, 2] }, 'b'.repeat(32)),
      line({ case: 'hidden:a/2', value: [1, 2], extra: 1 })
    ].join('\n');
    const judged = judgeObservations(cases, parseObservations(output, NONCE));
    expect(judged.cases.map((c) => c.outcome)).toEqual(['duplicated', 'missing']);
    expect(judged.problems.join('\n')).toMatch(/cases the pack does not have: hidden:zz/);
    expect(judged.problems.join('\n')).toMatch(/3 malformed observation line/);
    expect(judged.problems.join('\n')).toMatch(/observed 2 times/);
  });

  test("a line with another run's nonce is malformed, not an observation", () => {
    const parsed = parseObservations(line({ case: 'hidden:a/1', value: 3 }, 'c'.repeat(32)), NONCE);
    expect(parsed.observations).toEqual([]);
    expect(parsed.malformed).toHaveLength(1);
  });

  test('as test results: mismatch is an assertion failure, raise an exception in the code, missing unknown (but on the base after an earlier failure)', () => {
    const judged = judgeObservations(cases, parseObservations(line({ case: 'hidden:a/1', value: 9 }), NONCE));
    expect(sealedTestResults(judged, false).map((r) => [r.id, r.status, r.failure_kind])).toEqual([
      ['oracle > hidden:a/1', 'failed', 'assertion'],
      ['oracle > hidden:a/2', 'failed', 'unknown']
    ]);
    expect(sealedTestResults(judged, true)[1]?.failure_kind).toBe('assertion');
    const none = judgeObservations(cases, parseObservations('', NONCE));
    expect(sealedTestResults(none, true).every((r) => r.failure_kind === 'unknown')).toBe(true);
    const raised = judgeObservations(cases.slice(0, 1), parseObservations(line({ case: 'hidden:a/1', value: { $raised: 'KeyError', message: 'x' } }), NONCE));
    expect(sealedTestResults(raised, false)[0]?.failure_kind).toBe('exception_in_code');
  });
});

describe('the oracle file', () => {
  test('is strict, ids are unique, comparators come from the fixed set', () => {
    const file = parseOracleFile({ schema: 'patchproof.oracle/v1', cases: [{ id: 'x:1', phase: 'hidden', expected: 1 }] });
    expect(file.cases[0]?.comparator).toEqual({ kind: 'exact' });
    expect(() =>
      parseOracleFile({
        schema: 'patchproof.oracle/v1',
        cases: [
          { id: 'x', phase: 'hidden', expected: 1 },
          { id: 'x', phase: 'hidden', expected: 2 }
        ]
      })
    ).toThrow(/twice/);
    expect(() => parseOracleFile({ schema: 'patchproof.oracle/v1', cases: [{ id: 'x', phase: 'hidden', expected: 1, comparator: { kind: 'regex' } }] })).toThrow();
    expect(() => parseOracleFile({ schema: 'patchproof.oracle/v1', cases: [], extra: 1 })).toThrow();
  });

  test('a phase is sealed only with cases and nothing left unsealed in it', () => {
    const file = parseOracleFile({
      schema: 'patchproof.oracle/v1',
      cases: [
        { id: 'h', phase: 'hidden', expected: 1 },
        { id: 'r', phase: 'reproduction', expected: 1 }
      ],
      unsealed: [{ phase: 'reproduction', file: 't.py', line: 3, text: 'self.assertIn(x, y)' }]
    });
    expect(phaseIsSealed(file, 'hidden')).toBe(true);
    expect(phaseIsSealed(file, 'reproduction')).toBe(false);
    expect(phaseIsSealed(undefined, 'hidden')).toBe(false);
  });
});
