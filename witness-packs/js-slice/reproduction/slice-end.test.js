import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sliceEnd } from '../../src/range.js';

// The bug report: sliceEnd(3, -5) is -2, and the view shows an empty page with a negative end.
test('a negative end past the start is clamped to 0', () => {
  assert.equal(sliceEnd(3, -5), 0);
});
