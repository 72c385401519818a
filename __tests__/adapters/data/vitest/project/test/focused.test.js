import { expect, test } from 'vitest';
import { divide } from '../src/calc.js';

test.only('focused', () => {
  expect(divide(4, 2)).toBe(2);
});

test('left out by only', () => {
  expect(divide(4, 2)).toBe(2);
});
