/**
 * A value that TypeScript holds to be set but that may not be at run time, as a guard has to see it:
 * a `let` that a beforeAll assigns (still undefined in the afterAll when the beforeAll threw before
 * the assignment), or a property narrowed by an assignment that a callback may since have deleted.
 * This widens the type (it casts nothing), so the guard reads as the check it is:
 * `if (mayBeUnset(work) !== undefined) rmSync(work, …)`, `await mayBeUnset(server)?.close()`.
 */
export function mayBeUnset<T>(value: T): T | undefined {
  return value;
}
