import { test } from 'node:test';
import assert from 'node:assert/strict';
import { divide, sleep } from '../../src/calc.js';

// Top-level await: the entry waits for this module, timers included, before importing the next.
await sleep(20);
const ratio = divide(9, 3);

// Awaiting a test at top level must not deadlock the entry.
await test('awaited at top level', () => {
  assert.equal(ratio, 3);
});

test('after the awaited test', () => {
  assert.equal(divide(1, 4), 0.25);
});
