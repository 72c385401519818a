import { expect, test } from 'vitest';
import { multiply } from '../src/multiply.js';

test('multiplies', () => {
  expect(multiply(2, 3)).toBe(6);
});
