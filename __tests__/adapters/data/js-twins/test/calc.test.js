import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { add, greet, pair } from '../src/calc.js';

test('adds small numbers', () => {
  assert.equal(add(2, 3), 5);
});

test('greets by name', () => {
  assert.equal(greet('ada'), 'hello ada');
});

describe('pairs', () => {
  test('keeps both values', () => {
    assert.deepEqual(pair(1, 2), { a: 1, b: 2 });
  });

  test('sum of a pair is positive', () => {
    const { a, b } = pair(1, 2);
    assert.ok(add(a, b) > 0);
  });
});
