// Reported bug: "timeout: '250ms'" in the config gives a 4-hour timeout.
// A duration in milliseconds ("ms") is read as minutes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../src/duration.js';
import { resolveTimeouts } from '../../src/timeouts.js';

test('parses "250ms" as 250 milliseconds', () => {
  assert.equal(parseDuration('250ms'), 250);
});

test('resolves a connect timeout given in milliseconds', () => {
  assert.equal(resolveTimeouts({ connect: '800ms' }).connect, 800);
});
