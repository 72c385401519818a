// Sealed by hand from oracle/original/hidden/numeric-parts.test.js: each check observes the value
// the code returns through the observer PatchProof stages beside this file for the run
// (patchproof-oracle.cjs); the expected values are in oracle/expected.json, never in the container.
import { describe, test } from 'node:test';
import { compare, latest, sortVersions } from '../../src/semver.js';
import { observe } from './patchproof-oracle.cjs';

describe('hidden', () => {
  test('every part compares as a number, however many digits', () => {
    observe('hidden:compare/1.0.100/1.0.99', () => compare('1.0.100', '1.0.99'));
    observe('hidden:compare/2.0.0/10.0.0', () => compare('2.0.0', '10.0.0'));
    observe('hidden:compare/1.100.0/1.99.0', () => compare('1.100.0', '1.99.0'));
  });
  test('picks the newest of multi-digit versions', () => {
    observe('hidden:latest/1.2.3_1.12.0_1.100.1_1.99.9', () => latest(['1.2.3', '1.12.0', '1.100.1', '1.99.9']));
  });
  test('sorts across digit counts', () => {
    observe('hidden:sort/10.0.0_9.0.0_100.0.0', () => sortVersions(['10.0.0', '9.0.0', '100.0.0']));
  });
  test('a leading v still compares equal', () => {
    observe('hidden:compare/v1.10.0/1.10.0', () => compare('v1.10.0', '1.10.0'));
  });
});
