const { observe } = require("./patchproof-oracle.cjs"); // sealed by patchproof witness seal
const { formatCents, formatMoney } = require('../../src/money');

describe('two decimals, always', () => {
  test.each([
    [0, "#r1"],
    [100, "#r2"],
    [7, "#r3"],
    [-7, "#r4"],
    [200000, "#r5"],
    [123401, "#r6"],
    [99, "#r7"]
  ])('formatCents(%i) is %s', (cents, expected) => {
    observe("hidden:money-hidden.test.js/13" + expected, () => (formatCents(cents)));
  });

  test('formatMoney of whole amounts', () => {
    observe("hidden:money-hidden.test.js/17", () => (formatMoney(-300, '$')));
  });
});
