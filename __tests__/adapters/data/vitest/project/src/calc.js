export function divide(a, b) {
  if (b === 0) {
    throw new RangeError('division by zero');
  }
  return a / b;
}

export function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
