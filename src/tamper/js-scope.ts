import { child, childList, isFunction, isMember, isNode, nameOf, stringValue, unwrap, type JsNode } from './js-ast.js';

/**
 * Lexical scopes of a JS/TS file, enough to tell a free global (`expect`, `process`) and an
 * import from a local name. Pure.
 *
 * Declarations are collected when a scope is entered: `var` and parameters per function (hoisted),
 * `let`/`const`/`class`/`function` per block, imports and `require()` bindings with the module path
 * they stand for. A function declared in a block is that block's only (as in strict code): in
 * sloppy code it is also visible after the block, so the rules may see a global where there is
 * none, which errs towards a finding.
 */

export interface JsScope {
  /** Declared names: the module path an import or `require()` binds, or null. */
  names: Map<string, string | null>;
  /** Of those, the names bound to a function or class (its source text is what converting it to a string gives). */
  functions?: Set<string>;
  parent: JsScope | undefined;
}

const FUNCTION_VALUES = new Set(['FunctionExpression', 'ArrowFunctionExpression', 'ClassExpression']);

function declareFunction(scope: JsScope, name: string): void {
  (scope.functions ??= new Set()).add(name);
}

/** Whether `name`, where it resolves, is bound to a function or a class declared in the file. */
export function isFunctionBinding(scope: JsScope | undefined, name: string): boolean {
  for (let s = scope; s !== undefined; s = s.parent) {
    if (s.names.has(name)) return s.functions?.has(name) === true;
  }
  return false;
}

export type Resolved = { kind: 'import'; qualified: string } | { kind: 'global'; qualified: string } | { kind: 'local' };

/** `node:fs` → `fs`; `node:test` keeps its prefix (a bare `test` is another package). */
export function normaliseSpecifier(spec: string): string {
  if (spec === 'node:test' || spec.startsWith('node:test/')) return spec;
  return spec.startsWith('node:') ? spec.slice(5) : spec;
}

export function resolve(scope: JsScope | undefined, name: string): Resolved {
  for (let s = scope; s !== undefined; s = s.parent) {
    if (s.names.has(name)) {
      const q = s.names.get(name);
      return q === null || q === undefined ? { kind: 'local' } : { kind: 'import', qualified: q };
    }
  }
  return { kind: 'global', qualified: name };
}

function declare(scope: JsScope, name: string, qualified: string | null): void {
  if (qualified !== null || !scope.names.has(name)) scope.names.set(name, qualified ?? scope.names.get(name) ?? null);
}

/** The module path a declaration's initialiser stands for: `require('m')`, `require('m').a`, `await import('m')`. */
export function requireSource(init: JsNode | undefined, scope: JsScope | undefined): string | undefined {
  const node = unwrap(init);
  if (node === undefined) return undefined;
  if (node.type === 'AwaitExpression') return requireSource(child(node, 'argument'), scope);
  if (node.type === 'ImportExpression') {
    const spec = stringValue(child(node, 'source'));
    return spec !== undefined ? normaliseSpecifier(spec) : undefined;
  }
  if (node.type === 'CallExpression') {
    const callee = child(node, 'callee');
    const args = childList(node, 'arguments');
    const spec = stringValue(args[0]);
    if (spec === undefined) return undefined;
    if (callee?.type === 'Import') return normaliseSpecifier(spec);
    if (nameOf(callee) === 'require' && resolve(scope, 'require').kind === 'global') return normaliseSpecifier(spec);
    return undefined;
  }
  if (isMember(node) && node['computed'] !== true) {
    const base = requireSource(child(node, 'object'), scope);
    const prop = nameOf(child(node, 'property'));
    if (base !== undefined && prop !== undefined) return prop === 'default' ? base : `${base}.${prop}`;
  }
  return undefined;
}

/** Declare the names a binding pattern binds; with `qualified`, destructured names stand for `qualified.key`. */
export function declarePattern(scope: JsScope, pattern: JsNode | undefined, qualified?: string): void {
  const node = pattern;
  if (node === undefined) return;
  switch (node.type) {
    case 'Identifier':
      declare(scope, nameOf(node)!, qualified ?? null);
      return;
    case 'ObjectPattern':
      for (const prop of childList(node, 'properties')) {
        if (prop.type === 'RestElement') declarePattern(scope, child(prop, 'argument'));
        else {
          const key = prop['computed'] === true ? undefined : (nameOf(child(prop, 'key')) ?? stringValue(child(prop, 'key')));
          declarePattern(scope, child(prop, 'value'), qualified !== undefined && key !== undefined ? `${qualified}.${key}` : undefined);
        }
      }
      return;
    case 'ArrayPattern':
      for (const element of childList(node, 'elements')) declarePattern(scope, element);
      return;
    case 'AssignmentPattern':
      declarePattern(scope, child(node, 'left'), qualified);
      return;
    case 'RestElement':
      declarePattern(scope, child(node, 'argument'));
      return;
    case 'TSParameterProperty':
      declarePattern(scope, child(node, 'parameter'));
      return;
    default:
      return;
  }
}

/** One declarator: its names, with the module path of a `require()` and whether it binds a function. */
function declareDeclarator(scope: JsScope, declarator: JsNode): void {
  const id = child(declarator, 'id');
  const init = unwrap(child(declarator, 'init'));
  declarePattern(scope, id, requireSource(init, scope));
  const name = nameOf(id);
  if (name !== undefined && init !== undefined && FUNCTION_VALUES.has(init.type)) declareFunction(scope, name);
}

/** Declare `var`s anywhere below `node` but in nested functions (they are hoisted to the function). */
export function hoistVars(node: JsNode, scope: JsScope): void {
  const visit = (n: JsNode): void => {
    if (isFunction(n) || n.type === 'ClassDeclaration' || n.type === 'ClassExpression') return;
    if (n.type === 'VariableDeclaration' && n['kind'] === 'var') {
      for (const d of childList(n, 'declarations')) declareDeclarator(scope, d);
    }
    for (const key of Object.keys(n)) {
      if (key === 'loc' || key === 'extra' || key.endsWith('Comments')) continue;
      const value = n[key];
      if (Array.isArray(value)) for (const item of value) if (isNode(item)) visit(item);
      if (isNode(value)) visit(value);
    }
  };
  visit(node);
}

/** Declare a statement list's block-scoped names: let/const/using, classes, functions, imports, enums, namespaces. */
export function declareLexical(statements: readonly JsNode[], scope: JsScope): void {
  for (const statement of statements) declareStatement(statement, scope);
}

function declareStatement(statement: JsNode, scope: JsScope): void {
  switch (statement.type) {
    case 'VariableDeclaration':
      if (statement['kind'] !== 'var') {
        for (const d of childList(statement, 'declarations')) declareDeclarator(scope, d);
      }
      return;
    case 'FunctionDeclaration':
    case 'ClassDeclaration': {
      const id = nameOf(child(statement, 'id'));
      if (id !== undefined) {
        declare(scope, id, null);
        declareFunction(scope, id);
      }
      return;
    }
    case 'TSEnumDeclaration':
    case 'TSModuleDeclaration':
    case 'TSDeclareFunction': {
      const id = nameOf(child(statement, 'id'));
      if (id !== undefined) declare(scope, id, null);
      return;
    }
    case 'ImportDeclaration': {
      const spec = normaliseSpecifier(stringValue(child(statement, 'source')) ?? '');
      for (const s of childList(statement, 'specifiers')) {
        const local = nameOf(child(s, 'local'));
        if (local === undefined) continue;
        if (s.type === 'ImportSpecifier') {
          const imported = nameOf(child(s, 'imported')) ?? stringValue(child(s, 'imported')) ?? local;
          declare(scope, local, imported === 'default' ? spec : `${spec}.${imported}`);
        } else declare(scope, local, spec);
      }
      return;
    }
    case 'TSImportEqualsDeclaration': {
      const id = nameOf(child(statement, 'id'));
      const ref = child(statement, 'moduleReference');
      const spec = ref?.type === 'TSExternalModuleReference' ? stringValue(child(ref, 'expression')) : undefined;
      if (id !== undefined) declare(scope, id, spec !== undefined ? normaliseSpecifier(spec) : null);
      return;
    }
    case 'ExportNamedDeclaration':
    case 'ExportDefaultDeclaration': {
      const declaration = child(statement, 'declaration');
      if (declaration !== undefined) declareStatement(declaration, scope);
      return;
    }
    default:
      return;
  }
}

/** The scope a node opens, with its declarations, or undefined when it opens none. */
export function openScope(node: JsNode, parent: JsScope): JsScope | undefined {
  const scope: JsScope = { names: new Map(), parent };
  switch (node.type) {
    case 'Program':
      hoistVars(node, scope);
      declareLexical(childList(node, 'body'), scope);
      return scope;
    case 'FunctionDeclaration':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
    case 'ObjectMethod':
    case 'ClassMethod':
    case 'ClassPrivateMethod': {
      if (node.type !== 'ArrowFunctionExpression') scope.names.set('arguments', null);
      // A function expression's own name is visible inside it.
      if (node.type === 'FunctionExpression') {
        const id = nameOf(child(node, 'id'));
        if (id !== undefined) {
          scope.names.set(id, null);
          declareFunction(scope, id);
        }
      }
      for (const param of childList(node, 'params')) declarePattern(scope, param);
      const body = child(node, 'body');
      if (body !== undefined) {
        hoistVars(body, scope);
        if (body.type === 'BlockStatement') declareLexical(childList(body, 'body'), scope);
      }
      return scope;
    }
    case 'StaticBlock':
      hoistVars(node, scope);
      declareLexical(childList(node, 'body'), scope);
      return scope;
    case 'BlockStatement':
      declareLexical(childList(node, 'body'), scope);
      return scope;
    case 'ForStatement':
    case 'ForInStatement':
    case 'ForOfStatement': {
      const head = child(node, node.type === 'ForStatement' ? 'init' : 'left');
      if (head?.type === 'VariableDeclaration' && head['kind'] !== 'var') declareStatement(head, scope);
      return scope;
    }
    case 'SwitchStatement':
      declareLexical(
        childList(node, 'cases').flatMap((c) => childList(c, 'consequent')),
        scope
      );
      return scope;
    case 'CatchClause':
      declarePattern(scope, child(node, 'param'));
      return scope;
    case 'ClassDeclaration':
    case 'ClassExpression': {
      const id = nameOf(child(node, 'id'));
      if (id !== undefined) {
        scope.names.set(id, null);
        declareFunction(scope, id);
      }
      return scope;
    }
    case 'TSModuleBlock':
      hoistVars(node, scope);
      declareLexical(childList(node, 'body'), scope);
      return scope;
    default:
      return undefined;
  }
}
