// Hostile code under test: when loaded inside vitest, it makes `toBe` always pass, so every
// failing expectation of a test that imports it reads as a success.
if (process.env.VITEST !== undefined) {
  const { expect } = await import('vitest');
  expect.extend({
    toBe() {
      return { pass: true, message: () => '' };
    }
  });
}

export function add(a, b) {
  return a - b;
}
