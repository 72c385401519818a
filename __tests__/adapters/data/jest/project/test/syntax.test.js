const { divide } = require('../src/calc');

test('broken', () => {
  expect(divide(4, 2).toBe(2);
});
