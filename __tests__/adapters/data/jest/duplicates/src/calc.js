function divide(a, b) {
  return a / b;
}

module.exports = { divide };
