import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { divide } from '../src/calc.js';
import { approximately } from './helpers.js';

describe('divide', () => {
  it('divides', () => {
    assert.equal(divide(6, 3), 2);
  });
  it('keeps fractions', () => {
    assert.ok(approximately(divide(1, 3), 0.3333));
  });
});
