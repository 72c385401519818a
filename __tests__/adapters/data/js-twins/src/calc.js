// A tiny module under test for the twin canaries' adapter tests.
export function add(a, b) {
  return a + b;
}

export function greet(name) {
  return `hello ${name}`;
}

export function pair(a, b) {
  return { a, b };
}
