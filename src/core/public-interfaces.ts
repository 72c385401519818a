import { parse } from '@babel/parser';

/**
 * The ranking's `changed_public_interfaces`: exported JS/TS symbols, and public top-level Python
 * names (no leading underscore), whose definition text changed, was added or was removed. JS/TS
 * goes through @babel/parser; Python through its top-level blocks (a definition starts at column
 * 0, so the block is exact without a Python parser). Other files have no interface here.
 */

const JS_FILE = /\.(?:[cm]?[jt]sx?)$/;

function jsExports(path: string, source: string): Map<string, string> | undefined {
  const plugins: ('typescript' | 'jsx')[] = path.endsWith('x') ? ['typescript', 'jsx'] : /\.[cm]?ts$/.test(path) ? ['typescript'] : ['jsx'];
  let program;
  try {
    program = parse(source, { sourceType: 'module', plugins, errorRecovery: false }).program;
  } catch {
    return undefined;
  }
  const byName = new Map<string, string>();
  const textOf = (node: { start?: number | null; end?: number | null }): string => source.slice(node.start ?? 0, node.end ?? 0);
  const local = new Map<string, string>();
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
    if (declaration === null || declaration === undefined) continue;
    const names: string[] = [];
    if ('id' in declaration && declaration.id !== null && declaration.id !== undefined && declaration.id.type === 'Identifier') names.push(declaration.id.name);
    if (declaration.type === 'VariableDeclaration') {
      for (const d of declaration.declarations) if (d.id.type === 'Identifier') names.push(d.id.name);
    }
    for (const name of names) local.set(name, textOf(declaration));
    if (statement.type === 'ExportDefaultDeclaration') byName.set('default', textOf(declaration));
    else if (statement.type === 'ExportNamedDeclaration' && statement.declaration) for (const name of names) byName.set(name, textOf(declaration));
  }
  for (const statement of program.body) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.declaration) continue;
    for (const spec of statement.specifiers) {
      if (spec.type !== 'ExportSpecifier') continue;
      const exported = spec.exported.type === 'Identifier' ? spec.exported.name : spec.exported.value;
      byName.set(exported, statement.source ? textOf(statement) : (local.get(spec.local.name) ?? textOf(spec)));
    }
  }
  return byName;
}

function pythonPublic(source: string): Map<string, string> {
  const byName = new Map<string, string>();
  const lines = source.split('\n');
  let current: { name: string; lines: string[] } | undefined;
  const close = (): void => {
    if (current !== undefined) byName.set(current.name, current.lines.join('\n').trimEnd());
    current = undefined;
  };
  for (const line of lines) {
    const top = /^(?:async\s+def|def|class)\s+([A-Za-z_][A-Za-z0-9_]*)|^([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]*)?=(?!=)/.exec(line);
    if (top !== null) {
      close();
      const name = top[1] ?? top[2] ?? '';
      current = name.startsWith('_') ? undefined : { name, lines: [line] };
    } else if (line !== '' && !/^[ \t#]/.test(line) && !/^[)\]}]/.test(line)) {
      close();
    } else if (current !== undefined) {
      current.lines.push(line);
    }
  }
  close();
  return byName;
}

/** Public names of one file whose definition changed; `before`/`after` undefined or null: absent. */
export function changedPublicInterfaces(path: string, before: Buffer | undefined, after: Buffer | null | undefined): string[] {
  const read = (content: Buffer | null | undefined): Map<string, string> | undefined => {
    if (content === null || content === undefined) return new Map();
    if (JS_FILE.test(path)) return jsExports(path, content.toString('utf8'));
    if (/\.py$/.test(path)) return pythonPublic(content.toString('utf8'));
    return new Map();
  };
  const a = read(before);
  const b = read(after);
  // A file that does not parse: its interface is unknown, and counted as changed once.
  if (a === undefined || b === undefined) return [`${path}#?`];
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names]
    .filter((name) => a.get(name) !== b.get(name))
    .sort()
    .map((name) => `${path}#${name}`);
}
