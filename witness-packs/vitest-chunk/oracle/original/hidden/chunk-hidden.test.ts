import { describe, expect, it } from 'vitest';
import { chunk } from '../../src/chunk';

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('chunk, every remainder', () => {
  it('keeps a remainder of two', () => {
    expect(chunk([1, 2, 3, 4, 5], 3)).toEqual([[1, 2, 3], [4, 5]]);
  });

  it('keeps every item for every size', () => {
    for (let length = 0; length <= 12; length += 1) {
      for (let size = 1; size <= 5; size += 1) {
        const groups = chunk(range(length), size);
        expect(groups.flat()).toEqual(range(length));
        expect(groups.length).toBe(Math.ceil(length / size));
      }
    }
  });

  it('gives one short group when the size exceeds the length', () => {
    expect(chunk(['x', 'y'], 5)).toEqual([['x', 'y']]);
  });
});
