const { divide } = require('../src/calc');

test.only('focused', () => {
  expect(divide(4, 2)).toBe(2);
});

test('left out by only', () => {
  expect(divide(4, 2)).toBe(2);
});
