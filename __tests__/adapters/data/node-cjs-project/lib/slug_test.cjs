const { test } = require('node:test');
const assert = require('node:assert');
const { slugify } = require('./slug.js');

test('keeps digits', () => {
  assert.strictEqual(slugify('Route 66'), 'route-66');
});
