import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const { pageCount } = createRequire(import.meta.url)('../../lib/pages.js');

test('one more item than full pages', () => {
  assert.equal(pageCount(11, 5), 3);
});

test('exact multiples and one short of them', () => {
  assert.equal(pageCount(100, 10), 10);
  assert.equal(pageCount(99, 10), 10);
  assert.equal(pageCount(1, 10), 1);
});
