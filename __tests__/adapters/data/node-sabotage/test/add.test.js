import { test } from 'node:test';
import assert from 'node:assert';
import { add } from '../src/add.js';

test('adds', () => {
  assert.strictEqual(add(2, 2), 4);
});
