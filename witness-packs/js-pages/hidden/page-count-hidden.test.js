import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageCount } from '../../src/paginate.js';

test('one more item than full pages', () => {
  assert.equal(pageCount(11, 5), 3);
});

test('fewer items than a page', () => {
  assert.equal(pageCount(1, 10), 1);
});

test('exact multiples and one short of them', () => {
  assert.equal(pageCount(100, 10), 10);
  assert.equal(pageCount(99, 10), 10);
});
