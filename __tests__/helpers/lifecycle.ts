/**
 * A `let` that a beforeAll assigns, as an afterAll has to see it. Its declared type says it is set,
 * but it is still undefined when the beforeAll threw before the assignment, and the afterAll's
 * cleanup must not then fail on it as well. This widens the type (it casts nothing), so the guard
 * reads as the check it is: `if (mayBeUnset(work) !== undefined) rmSync(work, …)`,
 * `await mayBeUnset(server)?.close()`.
 */
export function mayBeUnset<T>(value: T): T | undefined {
  return value;
}
