// @babel/parser 7 (already used for twins and sealing): reads JS/TS config files as data, so a
// config is resolved on the host without ever being executed.
import { parse } from '@babel/parser';

/**
 * What a jest or vitest configuration file names, read statically: the module specifiers under the
 * keys that make the runner load a file (setup files, transforms, environments, reporters...), the
 * relative imports of the config module itself, and what could not be read as a literal. Pure:
 * source text in, data out.
 */

type Node = { type: string; [key: string]: unknown };

/** One specifier a config names, with the key it was found under. */
export interface ConfigReference {
  key: string;
  specifier: string;
  /**
   * `root`: resolved like the runner does, against the config's root (`<rootDir>` replaced);
   * `file`: a literal found inside a non-literal expression (`path.resolve(__dirname, './x')`),
   * resolved against the config file's own folder.
   */
  base: 'root' | 'file';
}

export interface ConfigScan {
  references: ConfigReference[];
  /** `rootDir` / `root` when given as a literal (relative to the config file's folder). */
  rootDir?: string;
  /** Relative module specifiers the file imports or requires (followed by the caller). */
  imports: string[];
  /** Keys whose value is not a literal: what was read from them is a best effort. */
  unresolved: string[];
  /**
   * Project entries named by path or glob: jest `projects`, vitest `projects` / `workspace`, and a
   * workspace file's default-exported array (inline project objects are read as options anyway).
   */
  projects: string[];
}

/** Keys whose string entries name further project configurations (folders, config files or globs). */
const PROJECT_KEYS = new Set(['projects', 'workspace']);

/** jest options whose values are modules jest loads (strings, [string, options] tuples, or maps to those). */
export const JEST_LOADING_KEYS: readonly string[] = Object.freeze([
  'setupFiles',
  'setupFilesAfterEnv',
  'globalSetup',
  'globalTeardown',
  'snapshotResolver',
  'snapshotSerializers',
  'testEnvironment',
  'testRunner',
  'testSequencer',
  'testResultsProcessor',
  'resolver',
  'runner',
  'dependencyExtractor',
  'preset',
  'reporters',
  'transform',
  'moduleNameMapper',
  'hasteImplModulePath'
]);

/** vitest options whose values are modules vitest loads. */
export const VITEST_LOADING_KEYS: readonly string[] = Object.freeze([
  'setupFiles',
  'globalSetup',
  'environment',
  'reporters',
  'snapshotSerializers',
  'sequencer',
  'runner',
  'diff'
]);

const ROOT_KEYS = new Set(['rootDir', 'root']);

function literalString(node: Node | undefined | null): string | undefined {
  if (node === undefined || node === null) return undefined;
  if (node.type === 'StringLiteral') return node.value as string;
  if (node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) {
    return (node.quasis as { value: { cooked: string } }[])[0]?.value.cooked;
  }
  return undefined;
}

function keyName(property: Node): string | undefined {
  if (property.computed === true) return literalString(property.key as Node);
  const key = property.key as Node;
  if (key.type === 'Identifier') return key.name as string;
  return literalString(key);
}

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const [field, value] of Object.entries(node)) {
    if (field === 'loc' || field === 'start' || field === 'end' || field === 'extra' || field.endsWith('Comments')) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object' && typeof (item as Node).type === 'string') out.push(item as Node);
    } else if (value !== null && typeof value === 'object' && typeof (value as Node).type === 'string') {
      out.push(value as Node);
    }
  }
  return out;
}

function walk(node: Node, visit: (node: Node) => void): void {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    visit(current);
    stack.push(...children(current));
  }
}

/** Every string literal under a node that looks like a relative path (`./x`, `../x`). */
function relativeLiterals(node: Node): string[] {
  const found: string[] = [];
  walk(node, (n) => {
    const text = literalString(n);
    if (text !== undefined && /^\.\.?\//.test(text)) found.push(text);
  });
  return found;
}

/**
 * Read one option's value: literal strings (alone, in arrays, as the first element of a
 * `[module, options]` tuple, or as the values of a map such as `transform`) are references; any
 * other expression makes the key unresolved, and the relative-path literals inside it are kept.
 */
function readValue(key: string, value: Node, scan: ConfigScan): void {
  const direct = literalString(value);
  if (direct !== undefined) {
    scan.references.push({ key, specifier: direct, base: 'root' });
    return;
  }
  if (value.type === 'ArrayExpression') {
    for (const element of value.elements as (Node | null)[]) {
      if (element === null) continue;
      if (element.type === 'ArrayExpression') {
        const first = (element.elements as (Node | null)[])[0];
        if (first !== null && first !== undefined) readValue(key, first, scan);
        continue;
      }
      readValue(key, element, scan);
    }
    return;
  }
  if (value.type === 'ObjectExpression') {
    for (const property of value.properties as Node[]) {
      if (property.type === 'ObjectProperty') readValue(key, property.value as Node, scan);
      else readOpaque(key, property, scan);
    }
    return;
  }
  if (value.type === 'BooleanLiteral' || value.type === 'NullLiteral' || value.type === 'NumericLiteral') return;
  if (value.type === 'Identifier' && value.name === 'undefined') return;
  readOpaque(key, value, scan);
}

function readOpaque(key: string, value: Node, scan: ConfigScan): void {
  if (!scan.unresolved.includes(key)) scan.unresolved.push(key);
  for (const specifier of relativeLiterals(value)) scan.references.push({ key, specifier, base: 'file' });
}

/** The relative module specifiers a module imports, re-exports, requires or dynamically imports. */
function relativeImports(program: Node): string[] {
  const found = new Set<string>();
  walk(program, (node) => {
    let source: string | undefined;
    if (node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || node.type === 'ExportNamedDeclaration') {
      source = literalString(node.source as Node | undefined);
    } else if (node.type === 'ImportExpression') {
      source = literalString(node.source as Node | undefined);
    } else if (node.type === 'CallExpression') {
      const callee = node.callee as Node;
      const args = node.arguments as Node[];
      const isRequire = callee.type === 'Identifier' && callee.name === 'require';
      const isRequireResolve = callee.type === 'MemberExpression' && (callee.object as Node).type === 'Identifier' && (callee.object as Node).name === 'require';
      if (isRequire || isRequireResolve || callee.type === 'Import') source = literalString(args[0]);
    }
    if (source !== undefined && /^\.\.?(\/|$)/.test(source)) found.add(source);
  });
  return [...found].sort();
}

function isModuleExports(node: Node): boolean {
  return (
    node.type === 'MemberExpression' &&
    (node.object as Node).type === 'Identifier' &&
    (node.object as Node).name === 'module' &&
    (node.property as Node).type === 'Identifier' &&
    (node.property as Node).name === 'exports'
  );
}

function parseModule(source: string, typescript: boolean): Node | undefined {
  try {
    return parse(source, {
      sourceType: 'unambiguous',
      allowReturnOutsideFunction: true,
      errorRecovery: true,
      plugins: typescript ? ['typescript', 'jsx'] : ['jsx']
    }) as unknown as Node;
  } catch {
    return undefined;
  }
}

/** A project list: literal strings are entries; inline objects are options (read by the key walk); anything else is unresolved. */
function readProjects(key: string, value: Node, scan: ConfigScan): void {
  const direct = literalString(value);
  if (direct !== undefined) {
    scan.projects.push(direct);
    return;
  }
  if (value.type === 'ArrayExpression') {
    for (const element of value.elements as (Node | null)[]) {
      if (element === null || element.type === 'ObjectExpression') continue;
      readProjects(key, element, scan);
    }
    return;
  }
  // `defineWorkspace([...])`, `defineProject(...)`: the call's arguments.
  const callee = value.type === 'CallExpression' ? (value.callee as Node) : undefined;
  if (callee?.type === 'Identifier' && /^define/.test(callee.name as string)) {
    for (const argument of value.arguments as Node[]) if (argument.type !== 'ObjectExpression') readProjects(key, argument, scan);
    return;
  }
  if (value.type === 'ObjectExpression') return;
  // Not a literal (`path.join(__dirname, './c')`, a glob call): its relative-path literals are entries.
  if (!scan.unresolved.includes(key)) scan.unresolved.push(key);
  scan.projects.push(...relativeLiterals(value));
}

/**
 * Scan a config module (JS, TS, or JSON text) for the options in `keys`, at any depth: options sit
 * under `test` (vitest), in `projects` entries or inside `defineConfig(...)`/`mergeConfig(...)`
 * calls, and reading every occurrence is the conservative choice. Returns undefined when the file
 * does not parse at all (the caller then treats the whole config as unresolved).
 */
export function scanConfigSource(source: string, keys: readonly string[], options: { typescript?: boolean; json?: boolean; workspace?: boolean } = {}): ConfigScan | undefined {
  const program = parseModule(options.json === true ? `(${source}\n)` : source, options.typescript === true);
  if (program === undefined) return undefined;
  const wanted = new Set(keys);
  const scan: ConfigScan = { references: [], imports: options.json === true ? [] : relativeImports(program), unresolved: [], projects: [] };
  walk(program, (node) => {
    // A workspace file (vitest.workspace.*) default-exports its project list.
    if (options.workspace === true && node.type === 'ExportDefaultDeclaration') readProjects('workspace', node.declaration as Node, scan);
    if (options.workspace === true && node.type === 'AssignmentExpression' && isModuleExports(node.left as Node)) readProjects('workspace', node.right as Node, scan);
    if (node.type !== 'ObjectProperty') return;
    const name = keyName(node);
    if (name === undefined) return;
    if (ROOT_KEYS.has(name)) {
      const root = literalString(node.value as Node);
      if (root !== undefined && scan.rootDir === undefined) scan.rootDir = root;
      return;
    }
    if (PROJECT_KEYS.has(name)) readProjects(name, node.value as Node, scan);
    if (wanted.has(name)) readValue(name, node.value as Node, scan);
  });
  scan.projects.sort();
  scan.references.sort((a, b) => (a.key + a.specifier < b.key + b.specifier ? -1 : 1));
  scan.unresolved.sort();
  return scan;
}

/** The relative imports of any JS/TS module (for following what a loaded file loads); undefined when it does not parse. */
export function moduleImports(source: string, typescript: boolean): string[] | undefined {
  const program = parseModule(source, typescript);
  return program === undefined ? undefined : relativeImports(program);
}
