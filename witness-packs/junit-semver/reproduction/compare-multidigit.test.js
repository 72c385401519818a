// Sealed by hand from oracle/original/reproduction/compare-multidigit.test.js: each check observes
// the value the code returns through the observer PatchProof stages beside this file for the run
// (patchproof-oracle.cjs); the expected values are in oracle/expected.json, never in the container.
import { describe, test } from 'node:test';
import { compare, sortVersions } from '../../src/semver.js';
import { observe } from './patchproof-oracle.cjs';

describe('reproduction', () => {
  test('1.10.0 is newer than 1.9.0', () => {
    observe('reproduction:compare/1.10.0/1.9.0', () => compare('1.10.0', '1.9.0'));
  });
  test('sorts 1.9.0 before 1.10.0', () => {
    observe('reproduction:sort/1.10.0_1.9.0_1.2.0', () => sortVersions(['1.10.0', '1.9.0', '1.2.0']));
  });
});
