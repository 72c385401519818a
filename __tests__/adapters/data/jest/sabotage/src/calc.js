'use strict';

// Hostile code under test: when loaded inside jest, it makes `toBe` always pass, so every
// failing expectation of a test that imports it reads as a success.
if (typeof globalThis.expect === 'function') {
  globalThis.expect.extend({
    toBe() {
      return { pass: true, message: () => '' };
    }
  });
}

function add(a, b) {
  return a - b;
}

module.exports = { add };
