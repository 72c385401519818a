const { formatCents, formatMoney } = require('../../src/money');

describe('cents below ten', () => {
  test('formatCents pads them to two digits', () => {
    expect(formatCents(5)).toBe('0.05');
  });

  test('formatMoney pads them after the symbol', () => {
    expect(formatMoney(1005, '€')).toBe('€10.05');
  });
});
