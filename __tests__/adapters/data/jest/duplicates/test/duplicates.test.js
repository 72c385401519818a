const { divide } = require('../src/calc');

describe.each([{ a: 6, b: 3 }, { a: 8, b: 4 }])('divides $label', ({ a, b }) => {
  test('gives the quotient', () => {
    expect(divide(a, b)).toBe(2);
  });
});

test.each([
  [6, 3, 2],
  [8, 4, 2],
  [9, 3, 3]
])('divides', (a, b, quotient) => {
  expect(divide(a, b)).toBe(quotient);
});

test('divides once', () => {
  expect(divide(4, 2)).toBe(2);
});

