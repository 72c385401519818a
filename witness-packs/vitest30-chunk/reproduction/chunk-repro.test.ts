import { describe, expect, it } from 'vitest';
import { chunk } from '../../src/chunk';
import { observe, observeThrows } from "./patchproof-oracle.cjs"; // sealed by patchproof witness seal

describe('chunk keeps the items left over', () => {
  it('puts the last item in a group of its own', () => {
    observe("reproduction:chunk-repro.test.ts/6", () => (chunk([1, 2, 3, 4, 5], 2)));
  });

  it('loses no item', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    observe("reproduction:chunk-repro.test.ts/11", () => (chunk(items, 3).flat()));
  });
});
