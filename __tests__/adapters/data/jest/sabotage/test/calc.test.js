const { add } = require('../src/calc');

test('adds', () => {
  expect(add(1, 1)).toBe(2);
});
