// node:test allows repeated titles: two suites of one title (a loop, like jest's describe.each with
// a missing field), three tests of one title declared on one line, and a title repeated by hand.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { divide } from '../src/calc.js';

for (const { a, b } of [{ a: 6, b: 3 }, { a: 8, b: 4 }]) {
  describe('divides $label', () => {
    test('gives the quotient', () => {
      assert.equal(divide(a, b), 2);
    });
  });
}

for (const [a, b, quotient] of [[6, 3, 2], [8, 4, 2], [9, 3, 3]]) {
  test('divides', () => {
    assert.equal(divide(a, b), quotient);
  });
}

test('divides once', () => {
  assert.equal(divide(4, 2), 2);
});
