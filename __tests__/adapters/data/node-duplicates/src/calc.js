export function divide(a, b) {
  return a / b;
}
