import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageCount } from '../../src/paginate.js';

// The bug report: 10 items at 3 a page show 3 pages, and the 10th item is never shown.
test('a partly filled last page is counted', () => {
  assert.equal(pageCount(10, 3), 4);
});

test('seven items at two a page fill four pages', () => {
  assert.equal(pageCount(7, 2), 4);
});
