import { test } from 'node:test';
import { sharedCases } from './shared-cases.mjs';

test('shared', async (t) => {
  await sharedCases(t);
  await t.test('own', () => {});
});
