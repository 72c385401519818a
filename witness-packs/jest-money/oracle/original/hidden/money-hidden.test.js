const { formatCents, formatMoney } = require('../../src/money');

describe('two decimals, always', () => {
  test.each([
    [0, '0.00'],
    [100, '1.00'],
    [7, '0.07'],
    [-7, '-0.07'],
    [200000, '2,000.00'],
    [123401, '1,234.01'],
    [99, '0.99']
  ])('formatCents(%i) is %s', (cents, expected) => {
    expect(formatCents(cents)).toBe(expected);
  });

  test('formatMoney of whole amounts', () => {
    expect(formatMoney(-300, '$')).toBe('-$3.00');
  });
});
