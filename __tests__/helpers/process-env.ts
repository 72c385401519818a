/** Helpers for tests that run toolkit code in process: environment variables and its stdout. */

/** Sets variables in process.env and returns a function that puts the previous values back. */
export function setEnv(vars: Record<string, string>): () => void {
  const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  return () => {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) Reflect.deleteProperty(process.env, k);
      else process.env[k] = v;
    }
  };
}

/**
 * Runs `fn` with the toolkit's stdout lines (::debug:: and the like) kept out of the test output.
 * On failure they go to stderr and the error is rethrown unchanged, so tests can match its class.
 */
export async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const write = process.stdout.write.bind(process.stdout);
  const captured: string[] = [];
  process.stdout.write = (chunk: string | Uint8Array) => {
    captured.push(String(chunk));
    return true;
  };
  try {
    return await fn();
  } catch (e) {
    process.stderr.write(`--- toolkit output ---\n${captured.join('')}`);
    throw e;
  } finally {
    process.stdout.write = write;
  }
}
