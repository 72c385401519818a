import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lookup, register } from '../src/registry.js';

test('registers a user schema', () => {
  register('user', { type: 'object' });
  assert.equal(lookup('user').type, 'object');
});

test('registers a post schema', () => {
  register('post', { type: 'string' });
  assert.equal(lookup('post').type, 'string');
});
