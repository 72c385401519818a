import { observe } from "./patchproof-oracle.cjs"; // sealed by patchproof witness seal
// Same behaviour as the reproduction, on inputs the candidate never saw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../src/duration.js';
import { formatDuration } from '../../src/format.js';
import { resolveTimeouts } from '../../src/timeouts.js';

test('milliseconds combined with larger units', () => {
  observe("hidden:millisecond-unit-hidden.test.js/9", () => (parseDuration('2m500ms')));
  observe("hidden:millisecond-unit-hidden.test.js/10", () => (parseDuration('1s1ms')));
});

test('single-digit and upper-case milliseconds', () => {
  observe("hidden:millisecond-unit-hidden.test.js/14", () => (parseDuration('1ms')));
  observe("hidden:millisecond-unit-hidden.test.js/15", () => (parseDuration(' 750 MS ')));
});

test('decimal minutes followed by milliseconds', () => {
  observe("hidden:millisecond-unit-hidden.test.js/19", () => (parseDuration('0.5m20ms')));
});

test('formatted durations parse back to the same value', () => {
  // One assertion per value, each with a literal expectation, so that `witness seal` can seal it.
  observe("hidden:millisecond-unit-hidden.test.js/24", () => (parseDuration(formatDuration(1))));
  observe("hidden:millisecond-unit-hidden.test.js/25", () => (parseDuration(formatDuration(999))));
  observe("hidden:millisecond-unit-hidden.test.js/26", () => (parseDuration(formatDuration(1_500))));
  observe("hidden:millisecond-unit-hidden.test.js/27", () => (parseDuration(formatDuration(3_723_004))));
  observe("hidden:millisecond-unit-hidden.test.js/28", () => (parseDuration(formatDuration(90_061_001))));
});

test('timeouts mixing seconds and milliseconds', () => {
  observe("hidden:millisecond-unit-hidden.test.js/32", () => (resolveTimeouts({ connect: '1s250ms', request: '300ms' })));
});
