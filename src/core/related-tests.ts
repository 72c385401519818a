import { parse } from '@babel/parser';
import { posix } from 'node:path';

/**
 * L3's first tier, "related test files first" (issue 14): the suite files that import a changed
 * module, directly or through other repository modules. Pure: file texts in, paths out. JS/TS by
 * the @babel/parser import graph (static `import`/`export … from`, `require('…')` and `import('…')`
 * with a string literal; relative specifiers only, resolved like Node with the usual extensions and
 * `index` files). Python's graph is src/adapters/shared/python-imports.ts (the host's `ast`, like python-twins.ts).
 * Undefined means the adapter cannot tell: the tier is skipped, never taken as "no related tests".
 *
 * The tier validate.ts runs is `planRelatedTier`: the suite files that import a changed file
 * directly (one hop). The transitive closure (`relatedTestFiles`) of a core module is usually the
 * whole suite (on js-duration every test file reaches src/duration.js), and a tier that is the whole
 * suite saves nothing; the full suite after the tier still runs every file (docs/screen.md).
 */

const JS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx'];

/** The relative specifiers a JS/TS file imports; undefined when it does not parse. */
export function jsImports(text: string): string[] | undefined {
  let ast: ReturnType<typeof parse>;
  try {
    ast = parse(text, { sourceType: 'unambiguous', plugins: ['typescript', 'jsx'], errorRecovery: false });
  } catch {
    return undefined;
  }
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    const n = node as { type?: string; source?: { type?: string; value?: unknown }; callee?: { type?: string; name?: string }; arguments?: { type?: string; value?: unknown }[] };
    if ((n.type === 'ImportDeclaration' || n.type === 'ExportNamedDeclaration' || n.type === 'ExportAllDeclaration') && typeof n.source?.value === 'string')
      found.push(n.source.value);
    if (n.type === 'CallExpression' && (n.callee?.type === 'Import' || (n.callee?.type === 'Identifier' && n.callee.name === 'require'))) {
      const first = n.arguments?.[0];
      if (first?.type === 'StringLiteral' && typeof first.value === 'string') found.push(first.value);
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'loc' && key !== 'start' && key !== 'end') visit(value);
  };
  visit(ast.program);
  return found.filter((s) => s.startsWith('./') || s.startsWith('../'));
}

/** Resolve a relative specifier from `from` against the repository's files, as Node would (with TS's `.js` → `.ts`). */
export function resolveJs(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  const stem = base.replace(/\.(c|m)?js$/, '');
  const candidates = [base, ...JS_EXTENSIONS.map((e) => `${base}${e}`), ...JS_EXTENSIONS.map((e) => `${stem}${e}`), ...JS_EXTENSIONS.map((e) => `${base}/index${e}`)];
  return candidates.find((c) => files.has(c));
}

/**
 * The suite files that reach a changed file through the import graph (a changed suite file is
 * related to itself). `importsOf` gives a file's repository-relative imports, or undefined when it
 * cannot tell (then the whole answer is undefined: the tier is skipped).
 */
export function relatedTestFiles(suite: readonly string[], changed: readonly string[], importsOf: (file: string) => string[] | undefined): string[] | undefined {
  const changedSet = new Set(changed);
  const memo = new Map<string, boolean>();
  let unknown = false;
  const reaches = (file: string, seen: Set<string>): boolean => {
    if (changedSet.has(file)) return true;
    const known = memo.get(file);
    if (known !== undefined) return known;
    if (seen.has(file)) return false;
    seen.add(file);
    const imports = importsOf(file);
    if (imports === undefined) {
      unknown = true;
      return false;
    }
    const result = imports.some((i) => reaches(i, seen));
    memo.set(file, result);
    return result;
  };
  const related = suite.filter((file) => reaches(file, new Set()));
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- reaches() sets `unknown` inside the closure, which TypeScript's narrowing does not see
  return unknown ? undefined : related.sort();
}

/** The JS/TS graph over a tree's files: `read` gives a file's text (undefined for none). */
export function jsImportGraph(files: readonly string[], read: (path: string) => string | undefined): (file: string) => string[] | undefined {
  const set = new Set(files);
  return (file) => {
    if (!JS_EXTENSIONS.some((e) => file.endsWith(e))) return [];
    const text = read(file);
    if (text === undefined) return [];
    const specifiers = jsImports(text);
    if (specifiers === undefined) return undefined;
    return specifiers.flatMap((s) => {
      const resolved = resolveJs(file, s, set);
      return resolved === undefined ? [] : [resolved];
    });
  };
}

/** Why L3's first tier was skipped (recorded in the receipt's `gates.related.skipped`). */
export const RELATED_SKIP_REASONS = ['adapter_cannot_tell', 'imports_unknown', 'no_related_files', 'whole_suite'] as const;
export type RelatedSkipReason = (typeof RELATED_SKIP_REASONS)[number];

/** The tier's plan: the suite files to run first, or why there is no tier. */
export type RelatedTierPlan = { files: string[] } | { skipped: RelatedSkipReason };

/**
 * The suite files that import a changed file directly, or are changed themselves. Undefined when a
 * suite file's imports cannot be read (it does not parse): then the adapter cannot tell.
 */
export function directTestFiles(suite: readonly string[], changed: readonly string[], importsOf: (file: string) => string[] | undefined): string[] | undefined {
  const changedSet = new Set(changed);
  const related: string[] = [];
  for (const file of new Set(suite)) {
    if (changedSet.has(file)) {
      related.push(file);
      continue;
    }
    const imports = importsOf(file);
    if (imports === undefined) return undefined;
    if (imports.some((i) => changedSet.has(i))) related.push(file);
  }
  return related.sort();
}

/**
 * Plan L3's first tier for one candidate. `graph` is the adapter's import graph over the candidate's
 * graded tree (undefined: the adapter cannot tell), `suite` that tree's suite files, `changed` the
 * paths the graded tree changes. A tier of no file, or of every suite file, is skipped: the full suite decides alone.
 */
export function planRelatedTier(suite: readonly string[], changed: readonly string[], graph: ((file: string) => string[] | undefined) | undefined): RelatedTierPlan {
  if (graph === undefined) return { skipped: 'adapter_cannot_tell' };
  const files = directTestFiles(suite, changed, graph);
  if (files === undefined) return { skipped: 'imports_unknown' };
  if (files.length === 0) return { skipped: 'no_related_files' };
  if (files.length >= new Set(suite).size) return { skipped: 'whole_suite' };
  return { files };
}
