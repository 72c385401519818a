/**
 * Whether a qualified name (`os.environ.get`, `chai/lib/assert.expect`) falls under a table entry:
 * the entry itself and every name below it (`os.environ` matches `os.environ.get`; a module entry
 * matches its subpaths, `vitest` matches `vitest/config`), or, for an entry ending in `*`, every
 * name that starts with what comes before the `*` (`os.exec*` matches `os.execv`); an entry
 * starting with `=` matches that name alone (`=eval`). Pure.
 */
export function matchesQualified(qualified: string, entry: string): boolean {
  if (entry.startsWith('=')) return qualified === entry.slice(1);
  if (entry.endsWith('*')) return qualified.startsWith(entry.slice(0, -1));
  return qualified === entry || qualified.startsWith(`${entry}.`) || qualified.startsWith(`${entry}/`);
}

/**
 * A string that names the grader (its staging folder `.patchproof/`, its environment variables, its
 * harness): code under test has no business knowing it, in any language.
 */
export const GRADER_NAME = /patchproof/i;
