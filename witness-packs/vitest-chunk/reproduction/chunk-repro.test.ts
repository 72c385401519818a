import { observe, observeBoth } from "./patchproof-oracle.cjs"; // sealed by patchproof witness seal
import { describe, expect, it } from 'vitest';
import { chunk } from '../../src/chunk';

describe('chunk keeps the items left over', () => {
  it('puts the last item in a group of its own', () => {
    observe("reproduction:chunk-repro.test.ts/6", () => (chunk([1, 2, 3, 4, 5], 2)));
  });

  it('loses no item', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    observeBoth("reproduction:chunk-repro.test.ts/11", () => (chunk(items, 3).flat()), () => (items));
  });
});
