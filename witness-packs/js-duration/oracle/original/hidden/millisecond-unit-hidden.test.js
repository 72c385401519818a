// Same behaviour as the reproduction, on inputs the candidate never saw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../src/duration.js';
import { formatDuration } from '../../src/format.js';
import { resolveTimeouts } from '../../src/timeouts.js';

test('milliseconds combined with larger units', () => {
  assert.equal(parseDuration('2m500ms'), 120_500);
  assert.equal(parseDuration('1s1ms'), 1_001);
});

test('single-digit and upper-case milliseconds', () => {
  assert.equal(parseDuration('1ms'), 1);
  assert.equal(parseDuration(' 750 MS '), 750);
});

test('decimal minutes followed by milliseconds', () => {
  assert.equal(parseDuration('0.5m20ms'), 30_020);
});

test('formatted durations parse back to the same value', () => {
  // One assertion per value, each with a literal expectation, so that `witness seal` can seal it.
  assert.equal(parseDuration(formatDuration(1)), 1);
  assert.equal(parseDuration(formatDuration(999)), 999);
  assert.equal(parseDuration(formatDuration(1_500)), 1_500);
  assert.equal(parseDuration(formatDuration(3_723_004)), 3_723_004);
  assert.equal(parseDuration(formatDuration(90_061_001)), 90_061_001);
});

test('timeouts mixing seconds and milliseconds', () => {
  assert.deepEqual(resolveTimeouts({ connect: '1s250ms', request: '300ms' }), {
    connect: 1_250,
    request: 300,
    idle: 120_000
  });
});
