import type { SyntaxNode } from '../formal/python-parser.js';
import type { TamperRule } from '../core/tamper.js';
import { FindingSink, type RawFinding } from './raw-finding.js';
import {
  PY_ALWAYS_LYING,
  PY_BUILTINS,
  PY_FRAMEWORK_ATTRIBUTE,
  PY_FRAMEWORK_MARKERS,
  PY_FRAMEWORK_STRING,
  PY_HARMLESS_DUNDERS,
  PY_IMPORT_STATE,
  PY_INTROSPECTION_ATTRIBUTES,
  PY_LYING_STRINGS,
  PY_MUTATORS,
  PY_QUALIFIED,
  PY_VALUE_BASES
} from './python-tables.js';
import { GRADER_NAME, matchesQualified } from './qualified.js';

/**
 * The tamper rules over a Python file's syntax tree (tree-sitter's Python grammar; the file was
 * parsed without errors). Pure: a tree in, findings out.
 *
 * Names are resolved the way Python scopes them (module, function, lambda, comprehension; a class
 * body is not seen from its methods): an imported name stands for its module path (`from unittest
 * import TestCase as T` makes `T.assertEqual` `unittest.TestCase.assertEqual`), an unbound name in
 * the builtins for `builtins.<name>`. A name bound anywhere in a scope is that scope's, so a local
 * never hides a builtin or import from the rules in another scope. Over-approximations go towards
 * a finding: a binding missed (a `match` capture) leaves the name global.
 */

interface Scope {
  kind: 'module' | 'function' | 'class' | 'comprehension';
  /** Bound names: the module path an import binds, or null for any other binding. */
  bindings: Map<string, string | null>;
  /** Names declared `global` (resolved in the module) and `nonlocal` (resolved outside this scope). */
  globals: Set<string>;
  nonlocals: Set<string>;
  parent: Scope | undefined;
}

function newScope(kind: Scope['kind'], parent: Scope | undefined): Scope {
  return { kind, bindings: new Map(), globals: new Set(), nonlocals: new Set(), parent };
}

/** What a name or an attribute chain's root stands for. */
type Root = { kind: 'import' | 'builtin'; qualified: string } | { kind: 'local' | 'other' };

const SCOPE_TYPES = new Set(['function_definition', 'lambda', 'class_definition', 'list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression']);
const PATTERN_TYPES = new Set(['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list', 'parenthesized_expression', 'list_splat_pattern', 'as_pattern_target']);

const kids = (node: SyntaxNode): SyntaxNode[] => node.children.filter((c): c is SyntaxNode => c !== null);
const named = (node: SyntaxNode): SyntaxNode[] => node.namedChildren.filter((c): c is SyntaxNode => c !== null);
const line = (node: SyntaxNode): number => node.startPosition.row + 1;
const endLine = (node: SyntaxNode): number => node.endPosition.row + 1;

/** The identifiers a target binds (`a`, `a, (b, *c)`), not attributes or subscripts. */
function targetNames(node: SyntaxNode | null, out: string[] = []): string[] {
  if (node === null) return out;
  if (node.type === 'identifier') out.push(node.text);
  else if (PATTERN_TYPES.has(node.type)) for (const child of named(node)) targetNames(child, out);
  return out;
}

/** The names an import statement binds, with the module path each stands for. */
function importBindings(node: SyntaxNode): [string, string][] {
  const out: [string, string][] = [];
  if (node.type === 'import_statement') {
    for (const name of node.childrenForFieldName('name')) {
      if (name === null) continue;
      if (name.type === 'aliased_import') {
        const alias = name.childForFieldName('alias')?.text;
        const dotted = name.childForFieldName('name')?.text;
        if (alias !== undefined && dotted !== undefined) out.push([alias, dotted]);
      } else {
        // `import a.b.c` binds `a`, and `a.b.c` is then reached through it.
        const first = name.text.split('.')[0]!;
        out.push([first, first]);
      }
    }
  } else if (node.type === 'import_from_statement') {
    const module = node.childForFieldName('module_name')?.text ?? '';
    for (const name of node.childrenForFieldName('name')) {
      if (name === null) continue;
      if (name.type === 'aliased_import') {
        const alias = name.childForFieldName('alias')?.text;
        const dotted = name.childForFieldName('name')?.text;
        if (alias !== undefined && dotted !== undefined) out.push([alias, `${module}.${dotted}`]);
      } else out.push([name.text, `${module}.${name.text}`]);
    }
  }
  return out;
}

/** The module paths an import statement names (a `*` import names its module). */
function importedPaths(node: SyntaxNode): string[] {
  const paths = importBindings(node).map(([, path]) => path);
  if (node.type === 'import_statement') for (const name of node.childrenForFieldName('name')) if (name?.type === 'dotted_name') paths.push(name.text);
  if (node.type === 'import_from_statement' && named(node).some((c) => c.type === 'wildcard_import')) paths.push(node.childForFieldName('module_name')?.text ?? '');
  return [...new Set(paths)];
}

/** Build the scope tree: every scope node's bindings, found before any name in it is resolved. */
function collectScopes(root: SyntaxNode): Map<number, Scope> {
  const scopes = new Map<number, Scope>();
  const bind = (scope: Scope, name: string, path: string | null): void => {
    // An import wins over another binding of the same name: the rules then see the module.
    if (path !== null || !scope.bindings.has(name)) scope.bindings.set(name, path ?? scope.bindings.get(name) ?? null);
  };
  const functionScope = (scope: Scope): Scope => {
    let s = scope;
    while (s.kind === 'comprehension' && s.parent !== undefined) s = s.parent;
    return s;
  };
  const visit = (node: SyntaxNode, scope: Scope): void => {
    switch (node.type) {
      case 'import_statement':
      case 'import_from_statement':
        for (const [name, path] of importBindings(node)) bind(scope, name, path);
        return;
      case 'function_definition':
      case 'class_definition': {
        const name = node.childForFieldName('name')?.text;
        if (name !== undefined) bind(scope, name, null);
        const inner = newScope(node.type === 'class_definition' ? 'class' : 'function', scope);
        scopes.set(node.id, inner);
        for (const child of kids(node)) {
          const field = child.id === node.childForFieldName('parameters')?.id;
          if (field) collectParameters(child, inner, scope, visit, bind);
          else if (child.id === node.childForFieldName('superclasses')?.id) visit(child, scope);
          else if (child.id !== node.childForFieldName('name')?.id) visit(child, inner);
        }
        return;
      }
      case 'lambda': {
        const inner = newScope('function', scope);
        scopes.set(node.id, inner);
        for (const child of kids(node)) {
          if (child.type === 'lambda_parameters') collectParameters(child, inner, scope, visit, bind);
          else visit(child, inner);
        }
        return;
      }
      case 'list_comprehension':
      case 'set_comprehension':
      case 'dictionary_comprehension':
      case 'generator_expression': {
        const inner = newScope('comprehension', scope);
        scopes.set(node.id, inner);
        for (const child of kids(node)) visit(child, inner);
        return;
      }
      case 'for_in_clause':
        for (const name of targetNames(node.childForFieldName('left'))) bind(scope, name, null);
        break;
      case 'named_expression': {
        // The walrus binds in the enclosing function, not the comprehension.
        const name = node.childForFieldName('name')?.text;
        if (name !== undefined) bind(functionScope(scope), name, null);
        break;
      }
      case 'assignment':
      case 'augmented_assignment':
      case 'for_statement':
        for (const name of targetNames(node.childForFieldName('left'))) bind(scope, name, null);
        break;
      case 'as_pattern_target':
        for (const name of targetNames(node)) bind(scope, name, null);
        break;
      case 'global_statement':
      case 'nonlocal_statement':
        for (const id of named(node)) if (id.type === 'identifier') (node.type === 'global_statement' ? scope.globals : scope.nonlocals).add(id.text);
        return;
      default:
        break;
    }
    for (const child of kids(node)) visit(child, scope);
  };
  const module = newScope('module', undefined);
  scopes.set(root.id, module);
  visit(root, module);
  return scopes;
}

/** A parameter list: names bind in the function, defaults and annotations are evaluated outside it. */
function collectParameters(
  params: SyntaxNode,
  inner: Scope,
  outer: Scope,
  visit: (node: SyntaxNode, scope: Scope) => void,
  bind: (scope: Scope, name: string, path: string | null) => void
): void {
  for (const param of named(params)) {
    if (param.type === 'identifier') bind(inner, param.text, null);
    else if (param.type === 'list_splat_pattern' || param.type === 'dictionary_splat_pattern') {
      for (const name of named(param)) if (name.type === 'identifier') bind(inner, name.text, null);
    } else {
      const name = param.childForFieldName('name');
      if (name?.type === 'identifier') bind(inner, name.text, null);
      else for (const id of named(param)) if (id.type === 'identifier') bind(inner, id.text, null);
      for (const field of ['value', 'type']) {
        const part = param.childForFieldName(field);
        if (part !== null) visit(part, outer);
      }
    }
  }
}

/** The Python rules over a parsed module. */
export function pythonFindings(root: SyntaxNode): RawFinding[] {
  const scopes = collectScopes(root);
  const moduleScope = scopes.get(root.id)!;
  const sink = new FindingSink();
  const flag = (rule: TamperRule, node: SyntaxNode, source: string = node.text): void => sink.add(rule, source, line(node), endLine(node), node.startIndex, node.endIndex);

  const resolveName = (name: string, scope: Scope): Root => {
    let s: Scope | undefined = scope;
    let first = true;
    while (s !== undefined) {
      if (s.kind === 'class' && !first) {
        s = s.parent;
        continue;
      }
      if (s.nonlocals.has(name) && s.parent !== undefined) {
        s = s.parent;
        first = false;
        continue;
      }
      if (s.globals.has(name)) s = moduleScope;
      const bound = s.bindings.get(name);
      if (bound !== undefined) return bound === null ? { kind: 'local' } : { kind: 'import', qualified: bound };
      if (s.bindings.has(name)) return { kind: 'local' };
      first = false;
      s = s.parent;
    }
    return PY_BUILTINS.has(name) ? { kind: 'builtin', qualified: `builtins.${name}` } : { kind: 'other' };
  };

  /** A chain's qualified name (`os.environ.get`) when its root is an import or a builtin. */
  const qualify = (node: SyntaxNode, scope: Scope): Root => {
    if (node.type === 'identifier') return resolveName(node.text, scope);
    if (node.type === 'attribute') {
      const object = node.childForFieldName('object');
      const attr = node.childForFieldName('attribute')?.text;
      if (object === null || attr === undefined) return { kind: 'other' };
      const base = qualify(object, scope);
      return base.kind === 'import' || base.kind === 'builtin' ? { kind: base.kind, qualified: `${base.qualified}.${attr}` } : base;
    }
    return { kind: 'other' };
  };

  /** Where a written chain is rooted, through subscripts, `getattr`/`vars`/`type` and dynamic imports. */
  const rootOf = (node: SyntaxNode | null, scope: Scope): Root => {
    let n = node;
    while (n !== null) {
      if (n.type === 'attribute') n = n.childForFieldName('object');
      else if (n.type === 'subscript') n = n.childForFieldName('value');
      else if (n.type === 'parenthesized_expression') n = named(n)[0] ?? null;
      else if (n.type === 'call') {
        const fn = qualify(n.childForFieldName('function')!, scope);
        const q = 'qualified' in fn ? fn.qualified : '';
        if (q === 'builtins.__import__' || q === 'importlib.import_module') return { kind: 'import', qualified: '(dynamic import)' };
        if (q === 'builtins.getattr' || q === 'builtins.vars' || q === 'builtins.type') n = firstArgument(n);
        else return { kind: 'other' };
      } else if (n.type === 'identifier') return resolveName(n.text, scope);
      else return { kind: 'other' };
    }
    return { kind: 'other' };
  };

  const matchTables = (qualified: string, node: SyntaxNode): void => {
    for (const [rule, entries] of Object.entries(PY_QUALIFIED) as [TamperRule, readonly string[]][]) {
      if (entries.some((entry) => matchesQualified(qualified, entry))) flag(rule, node);
    }
  };

  /** The construct a reference is part of: its call, or its subscript. */
  const extent = (node: SyntaxNode, parent: SyntaxNode | undefined): SyntaxNode => {
    if (parent?.type === 'call' && parent.childForFieldName('function')?.id === node.id) return parent;
    if (parent?.type === 'subscript' && parent.childForFieldName('value')?.id === node.id) return parent;
    return node;
  };

  /** A written target: monkeypatching an import or builtin, import state, lying methods. */
  const checkTarget = (target: SyntaxNode, statement: SyntaxNode, scope: Scope): void => {
    if (target.type !== 'attribute' && target.type !== 'subscript') {
      if (PATTERN_TYPES.has(target.type)) for (const child of named(target)) checkTarget(child, statement, scope);
      return;
    }
    const root = rootOf(target, scope);
    if (root.kind === 'import' || root.kind === 'builtin') flag('monkeypatch', statement);
    const chain = target.type === 'subscript' ? target.childForFieldName('value') : target;
    const q = chain !== null ? qualify(chain, scope) : { kind: 'other' as const };
    if ('qualified' in q && PY_IMPORT_STATE.some((entry) => matchesQualified(q.qualified, entry))) flag('import_hook', statement);
    if (target.type === 'attribute') {
      const attr = target.childForFieldName('attribute')?.text ?? '';
      if (PY_ALWAYS_LYING.has(attr) || PY_LYING_STRINGS.has(attr)) flag('lying_type', statement);
    }
  };

  const classFindings = (node: SyntaxNode, scope: Scope): void => {
    const bases = node.childForFieldName('superclasses');
    const valueType = (bases !== null ? named(bases) : [])
      .filter((b) => b.type !== 'keyword_argument')
      .some((base) => {
        const target = base.type === 'call' ? base.childForFieldName('function') : base;
        const q = target !== null ? qualify(target, scope) : { kind: 'other' as const };
        return 'qualified' in q && PY_VALUE_BASES.some((entry) => matchesQualified(q.qualified, entry));
      });
    const body = node.childForFieldName('body');
    const header = node.text.slice(0, (body?.startIndex ?? node.endIndex) - node.startIndex).trim();
    for (const statement of body !== null ? named(body) : []) {
      const definition = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
      let names: string[] = [];
      if (definition?.type === 'function_definition') names = [definition.childForFieldName('name')?.text ?? ''];
      else if (statement.type === 'expression_statement') {
        const assignment = named(statement)[0];
        if (assignment?.type === 'assignment') names = targetNames(assignment.childForFieldName('left'));
      }
      for (const name of names) {
        const dunder = name.startsWith('__') && name.endsWith('__') && name.length > 4;
        if (PY_ALWAYS_LYING.has(name) || (valueType && dunder && !PY_HARMLESS_DUNDERS.has(name))) flag('lying_type', statement, `${header} ${statement.text}`);
      }
    }
  };

  const stringFindings = (node: SyntaxNode): void => {
    const content = named(node)
      .filter((c) => c.type === 'string_content')
      .map((c) => c.text)
      .join('');
    // An f-string's literal parts can still name the grader; its whole value is unknown.
    if (named(node).some((c) => c.type === 'interpolation')) {
      if (GRADER_NAME.test(content)) flag('test_framework_reference', node);
      return;
    }
    if (PY_LYING_STRINGS.has(content)) flag('lying_type', node);
    if (PY_FRAMEWORK_STRING.test(content) || PY_FRAMEWORK_MARKERS.has(content) || GRADER_NAME.test(content)) flag('test_framework_reference', node);
    if (PY_INTROSPECTION_ATTRIBUTES.has(content) || content === '_getframe' || content === 'settrace' || content === 'setprofile') flag('introspection', node);
    if (content === 'environ' || content === 'getenv' || content === 'argv') flag('env_argv_read', node);
    if (content === 'meta_path' || content === 'path_hooks' || content === '__import__' || content === '__builtins__') flag('import_hook', node);
  };

  const callFindings = (node: SyntaxNode, scope: Scope): void => {
    const fn = node.childForFieldName('function');
    if (fn === null) return;
    const q = qualify(fn, scope);
    const name = 'qualified' in q ? q.qualified : '';
    const first = firstArgument(node);
    if (['builtins.setattr', 'builtins.delattr', 'builtins.object.__setattr__', 'builtins.object.__delattr__', 'builtins.type.__setattr__'].includes(name)) {
      const root = rootOf(first, scope);
      if (root.kind === 'import' || root.kind === 'builtin') flag('monkeypatch', node);
    }
    if (name === 'builtins.getattr') {
      const root = rootOf(first, scope);
      const attribute = argumentAt(node, 1);
      if ((root.kind === 'import' || root.kind === 'builtin') && attribute !== null && attribute.type !== 'string') flag('dynamic_code', node);
    }
    if (name === 'importlib.import_module' && first !== null && first.type !== 'string') flag('dynamic_code', node);
    // Its own file read back (comments and layout with it): open(__file__), Path(__file__).read_text().
    if (['builtins.open', 'io.open', 'codecs.open', 'tokenize.open', 'io.FileIO'].includes(name) && first !== null && mentionsOwnFile(first)) flag('introspection', node);
    if (fn.type === 'attribute' && ['read_text', 'read_bytes', 'open'].includes(fn.childForFieldName('attribute')?.text ?? '')) {
      const object = fn.childForFieldName('object');
      if (object?.type === 'call') {
        const made = qualify(object.childForFieldName('function')!, scope);
        const arg = firstArgument(object);
        if ('qualified' in made && /^pathlib\.(?:Pure)?(?:Posix|Windows)?Path$/.test(made.qualified) && arg !== null && mentionsOwnFile(arg)) flag('introspection', node);
      }
    }
    if (fn.type === 'attribute') {
      const method = fn.childForFieldName('attribute')?.text ?? '';
      const object = fn.childForFieldName('object');
      const oq = object !== null ? qualify(object, scope) : { kind: 'other' as const };
      if (PY_MUTATORS.has(method) && 'qualified' in oq && PY_IMPORT_STATE.some((entry) => matchesQualified(oq.qualified, entry))) flag('import_hook', node);
    }
  };

  const visit = (node: SyntaxNode, scope: Scope, parent: SyntaxNode | undefined): void => {
    const own = SCOPE_TYPES.has(node.type) ? (scopes.get(node.id) ?? scope) : scope;
    switch (node.type) {
      case 'import_statement':
      case 'import_from_statement':
        for (const path of importedPaths(node)) matchTables(path, node);
        for (const [name] of importBindings(node)) if (PY_FRAMEWORK_MARKERS.has(name)) flag('test_framework_reference', node);
        return;
      case 'identifier': {
        if (PY_FRAMEWORK_MARKERS.has(node.text)) flag('test_framework_reference', node);
        // The module's loader hands out its source (__loader__.get_source).
        if (node.text === '__loader__') flag('introspection', extent(node, parent));
        const root = resolveName(node.text, scope);
        if (root.kind === 'import' || root.kind === 'builtin') matchTables(root.qualified, extent(node, parent));
        return;
      }
      case 'attribute': {
        // The head of a chain (a.b.c): its root is resolved once, here; objects that are not
        // names (calls, subscripts) are walked as expressions of their own.
        const attr = node.childForFieldName('attribute')?.text ?? '';
        if (PY_INTROSPECTION_ATTRIBUTES.has(attr)) flag('introspection', extent(node, parent));
        if (attr === '__dict__') {
          // A module's or builtin's namespace by name: what the qualified rules match could be read through it.
          const root = rootOf(node, scope);
          if (root.kind === 'import' || root.kind === 'builtin') flag('dynamic_code', extent(node, parent));
        }
        if (PY_FRAMEWORK_MARKERS.has(attr) || PY_FRAMEWORK_ATTRIBUTE.test(attr)) flag('test_framework_reference', extent(node, parent));
        const isHead = !(parent?.type === 'attribute' && parent.childForFieldName('object')?.id === node.id);
        const object0 = node.childForFieldName('object');
        if (object0?.type === 'identifier' && object0.text === '__loader__') flag('introspection', extent(node, parent));
        if (isHead) {
          const q = qualify(node, scope);
          if (q.kind === 'import' || q.kind === 'builtin') matchTables(q.qualified, extent(node, parent));
        }
        const object = node.childForFieldName('object');
        if (object !== null && object.type !== 'identifier') visit(object, scope, node);
        return;
      }
      case 'assignment':
      case 'augmented_assignment': {
        const left = node.childForFieldName('left');
        if (left !== null) checkTarget(left, node, scope);
        break;
      }
      case 'delete_statement':
        for (const target of named(node)) checkTarget(target, node, scope);
        break;
      case 'call':
        callFindings(node, scope);
        break;
      case 'class_definition':
        classFindings(node, scope);
        break;
      case 'string':
        stringFindings(node);
        break;
      case 'keyword_argument': {
        const value = node.childForFieldName('value');
        if (value !== null) visit(value, scope, node);
        return;
      }
      case 'exec_statement':
        flag('dynamic_code', node);
        break;
      case 'global_statement':
      case 'nonlocal_statement':
        return;
      default:
        break;
    }
    walkChildren(node, own, scope);
  };

  /** Children of a node, with definitions' names and parameters skipped and defaults in the outer scope. */
  const walkChildren = (node: SyntaxNode, own: Scope, outer: Scope): void => {
    const skip = new Set<number>();
    if (node.type === 'function_definition' || node.type === 'class_definition') {
      const name = node.childForFieldName('name');
      if (name !== null) skip.add(name.id);
      const bases = node.childForFieldName('superclasses');
      if (bases !== null) {
        skip.add(bases.id);
        visit(bases, outer, node);
      }
    }
    const params = node.type === 'function_definition' ? node.childForFieldName('parameters') : node.type === 'lambda' ? node.childForFieldName('parameters') : null;
    if (params !== null) {
      skip.add(params.id);
      for (const param of named(params)) {
        for (const field of ['value', 'type']) {
          const part = param.childForFieldName(field);
          if (part !== null) visit(part, outer, param);
        }
      }
    }
    for (const child of kids(node)) if (!skip.has(child.id)) visit(child, own, node);
  };

  visit(root, moduleScope, undefined);
  return sink.findings;
}

/** Whether an expression mentions the module's own file (`__file__`, `__loader__`, `__spec__.origin`). */
function mentionsOwnFile(node: SyntaxNode): boolean {
  if (node.type === 'identifier') return node.text === '__file__' || node.text === '__cached__';
  return named(node).some(mentionsOwnFile);
}

function argumentAt(call: SyntaxNode, index: number): SyntaxNode | null {
  const args = call.childForFieldName('arguments');
  if (args === null) return null;
  return named(args).filter((a) => a.type !== 'keyword_argument' && a.type !== 'comment')[index] ?? null;
}

function firstArgument(call: SyntaxNode): SyntaxNode | null {
  return argumentAt(call, 0);
}

/** The line and text of a parse error, for an `unparsed` finding (the tree has an error). */
export function pythonParseError(root: SyntaxNode, text: string): RawFinding {
  let found: SyntaxNode | undefined;
  const search = (node: SyntaxNode): void => {
    if (found !== undefined) return;
    if (node.isError || node.isMissing) {
      found = node;
      return;
    }
    for (const child of kids(node)) if (child.hasError || child.isError || child.isMissing) search(child);
  };
  search(root);
  const at = found !== undefined ? line(found) : 1;
  return { rule: 'unparsed', line: at, endLine: at, source: `Python syntax error: ${text.split('\n')[at - 1] ?? ''}` };
}
