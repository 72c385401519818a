// A CommonJS test file in an ESM package: the entry's import() loads it as CommonJS.
const { test } = require('node:test');
const assert = require('node:assert');

test('commonjs passes', () => {
  assert.strictEqual(typeof require, 'function');
});

test('commonjs assertion fails', () => {
  assert.strictEqual(2 + 2, 5);
});
