import { observe } from "./patchproof-oracle.cjs"; // sealed by patchproof witness seal
// Reported bug: "timeout: '250ms'" in the config gives a 4-hour timeout.
// A duration in milliseconds ("ms") is read as minutes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../src/duration.js';
import { resolveTimeouts } from '../../src/timeouts.js';

test('parses "250ms" as 250 milliseconds', () => {
  observe("reproduction:millisecond-unit.test.js/9", () => (parseDuration('250ms')));
});

test('resolves a connect timeout given in milliseconds', () => {
  observe("reproduction:millisecond-unit.test.js/13", () => (resolveTimeouts({ connect: '800ms' }).connect));
});
