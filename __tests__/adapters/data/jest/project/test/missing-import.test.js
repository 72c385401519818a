const { multiply } = require('../src/multiply');

test('multiplies', () => {
  expect(multiply(2, 3)).toBe(6);
});
