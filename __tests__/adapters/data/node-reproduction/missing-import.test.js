import { test } from 'node:test';
import { multiply } from '../../src/multiply.js';

test('multiplies', () => {
  multiply(2, 3);
});
