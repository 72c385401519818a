import { describe, expect, it } from 'vitest';
import { chunk } from '../../src/chunk';

describe('chunk keeps the items left over', () => {
  it('puts the last item in a group of its own', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('loses no item', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(chunk(items, 3).flat()).toEqual(items);
  });
});
