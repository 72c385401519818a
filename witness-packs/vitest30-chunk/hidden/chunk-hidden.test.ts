import { observe, observeBoth } from "./patchproof-oracle.cjs"; // sealed by patchproof witness seal
import { describe, expect, it } from 'vitest';
import { chunk } from '../../src/chunk';

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('chunk, every remainder', () => {
  it('keeps a remainder of two', () => {
    observe("hidden:chunk-hidden.test.ts/8", () => (chunk([1, 2, 3, 4, 5], 3)));
  });

  it('keeps every item for every size', () => {
    for (let length = 0; length <= 12; length += 1) {
      for (let size = 1; size <= 5; size += 1) {
        const groups = chunk(range(length), size);
        observeBoth("hidden:chunk-hidden.test.ts/15", () => (groups.flat()), () => (range(length)));
        observeBoth("hidden:chunk-hidden.test.ts/16", () => (groups.length), () => (Math.ceil(length / size)));
      }
    }
  });

  it('gives one short group when the size exceeds the length', () => {
    observe("hidden:chunk-hidden.test.ts/22", () => (chunk(['x', 'y'], 5)));
  });
});
