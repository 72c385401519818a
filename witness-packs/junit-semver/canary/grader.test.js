// PatchProof grader canaries for the junit adapter (see docs/witness-pack.md): staged at
// .patchproof/harness/canary/ in every copy and run with every test run. The code under test is
// imported first, so code that sabotages assertions on import sabotages these too, and the
// must-fail test then passes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as subject from '../../../src/semver.js';

describe('q7', () => {
  test('a41c', () => {
    assert.equal(typeof subject.compare, 'function');
  });
  test('b7d2', () => {
    assert.equal(1, 2);
  });
});
