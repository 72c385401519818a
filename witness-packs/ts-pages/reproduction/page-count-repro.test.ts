import { expect, it } from 'vitest';
import { pageCount } from '../../src/paginate';

// The bug report: 10 items at 3 a page show 3 pages, and the 10th item is never shown.
it('counts a partly filled last page', () => {
  expect(pageCount(10, 3)).toBe(4);
});

it('seven items at two a page fill four pages', () => {
  expect(pageCount(7, 2)).toBe(4);
});
