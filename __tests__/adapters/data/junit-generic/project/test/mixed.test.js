import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseList, subtract } from '../src/m.js';

test('subtracts', () => {
  assert.equal(subtract(3, 1), 2);
});
test('passes', () => {
  assert.equal(1, 1);
});
test('throws in the code under test', () => {
  parseList(null);
});
test('throws in the test', () => {
  const value = null;
  value.length;
});
test('is skipped', { skip: true }, () => {});
test('is todo', { todo: true }, () => {});
test('times out', { timeout: 20 }, async () => {
  await new Promise((resolve) => setTimeout(resolve, 300));
});
describe('outer', () => {
  test('inner passes', () => {});
  describe('deeper', () => {
    test('inner fails', () => {
      assert.ok(false, 'not ok');
    });
  });
});
