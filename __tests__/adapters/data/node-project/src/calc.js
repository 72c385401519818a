/** Divides a by b; the bug: dividing by zero dereferences null instead of throwing a RangeError. */
export function divide(a, b) {
  if (b === 0) {
    const result = null;
    return result.value;
  }
  return a / b;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
