// An external test, staged at .patchproof/reproduction/ in the copy.
import { describe, expect, test } from 'vitest';
import { divide, mean } from '../../src/calc.js';

describe('reproduction', () => {
  test('the mean of nothing is zero', () => {
    expect(mean([])).toBe(0);
  });

  test('dividing by zero gives infinity', () => {
    expect(divide(1, 0)).toBe(Infinity);
  });

  test('a broken test', () => {
    JSON.parse('{');
  });
});
