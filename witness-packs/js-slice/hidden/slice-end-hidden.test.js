import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sliceEnd } from '../../src/range.js';

test('the whole list without an end', () => {
  assert.equal(sliceEnd(5), 5);
  assert.equal(sliceEnd(0), 0);
});

test('negative ends', () => {
  assert.equal(sliceEnd(5, -2), 3);
  assert.equal(sliceEnd(5, -5), 0);
  assert.equal(sliceEnd(5, -6), 0);
});
