import assert from 'node:assert/strict';
import { divide } from '../../src/calc.js';

/** Subtests defined here, in a helper module: node names this file as theirs. */
export async function sharedCases(t) {
  await t.test('halves', () => {
    assert.equal(divide(1, 2), 0.5);
  });
}
