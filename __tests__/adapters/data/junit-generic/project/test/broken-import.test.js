import { test } from 'node:test';
import { missing } from '../src/missing.js';

test('never runs', () => {
  missing();
});
