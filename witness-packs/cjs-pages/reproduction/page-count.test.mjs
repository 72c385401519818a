import { test } from 'node:test';
import assert from 'node:assert/strict';
import pages from '../../lib/pages.js';

// The bug report: 10 items at 3 a page show 3 pages, and the 10th item is never shown.
test('a partly filled last page is counted', () => {
  assert.equal(pages.pageCount(10, 3), 4);
});
