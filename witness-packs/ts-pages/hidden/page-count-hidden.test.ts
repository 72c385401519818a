import { expect, it } from 'vitest';
import { pageCount } from '../../src/paginate';

it('one item fills one page', () => {
  expect(pageCount(1, 10)).toBe(1);
});

it('a large list', () => {
  expect(pageCount(1001, 100)).toBe(11);
});
