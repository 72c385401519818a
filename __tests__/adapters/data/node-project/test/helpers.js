// Not a test file of its own, but node's default patterns run everything under test/.
export function approximately(actual, expected) {
  return Math.abs(actual - expected) < 0.001;
}
