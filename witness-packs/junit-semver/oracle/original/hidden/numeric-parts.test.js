import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compare, latest, sortVersions } from '../../src/semver.js';

describe('hidden', () => {
  test('every part compares as a number, however many digits', () => {
    assert.equal(compare('1.0.100', '1.0.99'), 1);
    assert.equal(compare('2.0.0', '10.0.0'), -1);
    assert.equal(compare('1.100.0', '1.99.0'), 1);
  });
  test('picks the newest of multi-digit versions', () => {
    assert.equal(latest(['1.2.3', '1.12.0', '1.100.1', '1.99.9']), '1.100.1');
  });
  test('sorts across digit counts', () => {
    assert.deepEqual(sortVersions(['10.0.0', '9.0.0', '100.0.0']), ['9.0.0', '10.0.0', '100.0.0']);
  });
  test('a leading v still compares equal', () => {
    assert.equal(compare('v1.10.0', '1.10.0'), 0);
  });
});
