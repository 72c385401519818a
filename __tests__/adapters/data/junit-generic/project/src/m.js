export function subtract(a, b) {
  return a + b;
}
export function parseList(text) {
  return text.split(',').map((item) => item.trim().toUpperCase());
}
