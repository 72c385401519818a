import { expect, test } from 'vitest';
import { divide } from '../src/calc.js';

test('broken', () => {
  expect(divide(4, 2).toBe(2);
});
