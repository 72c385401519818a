'use strict';

function divide(a, b) {
  if (b === 0) {
    throw new RangeError('division by zero');
  }
  return a / b;
}

function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

module.exports = { divide, mean };
