import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compare, sortVersions } from '../../src/semver.js';

describe('reproduction', () => {
  test('1.10.0 is newer than 1.9.0', () => {
    assert.equal(compare('1.10.0', '1.9.0'), 1);
  });
  test('sorts 1.9.0 before 1.10.0', () => {
    assert.deepEqual(sortVersions(['1.10.0', '1.9.0', '1.2.0']), ['1.2.0', '1.9.0', '1.10.0']);
  });
});
