const { observe } = require("./patchproof-oracle.cjs"); // sealed by patchproof witness seal
const { formatCents, formatMoney } = require('../../src/money');

describe('cents below ten', () => {
  test('formatCents pads them to two digits', () => {
    observe("reproduction:money-repro.test.js/5", () => (formatCents(5)));
  });

  test('formatMoney pads them after the symbol', () => {
    observe("reproduction:money-repro.test.js/9", () => (formatMoney(1005, '€')));
  });
});
