const { describe, it } = require('node:test');
const assert = require('node:assert');
const { slugify } = require('../lib/slug.js');

describe('slugify', () => {
  it('joins words', () => {
    assert.strictEqual(slugify(' Hello World '), 'hello-world');
  });
});
