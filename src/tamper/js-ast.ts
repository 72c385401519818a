/**
 * A loose view of @babel/parser's AST, and the walk the JS rules share: which keys hold child
 * nodes (type positions of TypeScript and Flow are left out: they run nothing). Pure.
 */

export interface JsNode {
  type: string;
  start?: number | null;
  end?: number | null;
  loc?: { start: { line: number }; end: { line: number } } | null;
  [key: string]: unknown;
}

const NOT_CHILDREN = new Set([
  'type',
  'start',
  'end',
  'loc',
  'range',
  'extra',
  'comments',
  'leadingComments',
  'trailingComments',
  'innerComments',
  'errors',
  'tokens',
  // Type positions: nothing in them runs.
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'superTypeParameters',
  'typeArguments',
  'implements',
  'predicate'
]);

/** Declarations that exist only for the type checker. */
const TYPE_ONLY = new Set([
  'TSTypeAliasDeclaration',
  'TSInterfaceDeclaration',
  'TSDeclareFunction',
  'TSDeclareMethod',
  'TSTypeAnnotation',
  'TSTypeParameterDeclaration',
  'TSTypeParameterInstantiation',
  'TSIndexSignature',
  'TypeAlias',
  'OpaqueType',
  'InterfaceDeclaration',
  'DeclareVariable',
  'DeclareFunction',
  'DeclareClass',
  'DeclareModule',
  'DeclareTypeAlias',
  'TypeAnnotation'
]);

export function isNode(value: unknown): value is JsNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** A child node by key, if it is one. */
export function child(node: JsNode, key: string): JsNode | undefined {
  const value = node[key];
  return isNode(value) ? value : undefined;
}

/** A list of child nodes by key (holes dropped). */
export function childList(node: JsNode, key: string): JsNode[] {
  const value = node[key];
  return Array.isArray(value) ? value.filter(isNode) : [];
}

/** True for code the type checker alone reads (`declare`, type-only imports and exports). */
export function typeOnly(node: JsNode): boolean {
  return TYPE_ONLY.has(node.type) || node['declare'] === true || node['importKind'] === 'type' || node['exportKind'] === 'type';
}

/** The child nodes of `node` with the key each sits under, type positions left out. */
export function children(node: JsNode): [string, JsNode][] {
  const out: [string, JsNode][] = [];
  for (const key of Object.keys(node)) {
    if (NOT_CHILDREN.has(key)) continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item) && !typeOnly(item)) out.push([key, item]);
    } else if (isNode(value) && !typeOnly(value)) out.push([key, value]);
  }
  return out;
}

export function nameOf(node: JsNode | undefined): string | undefined {
  return node?.type === 'Identifier' && typeof node['name'] === 'string' ? node['name'] : undefined;
}

/** A string literal's value, or a template literal's without substitutions. */
export function stringValue(node: JsNode | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (node.type === 'StringLiteral' && typeof node['value'] === 'string') return node['value'];
  if (node.type === 'TemplateLiteral' && childList(node, 'expressions').length === 0) {
    const quasi = childList(node, 'quasis')[0];
    const cooked = (quasi?.['value'] as { cooked?: unknown } | undefined)?.cooked;
    return typeof cooked === 'string' ? cooked : undefined;
  }
  return undefined;
}

export const isFunction = (node: JsNode): boolean =>
  ['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod', 'StaticBlock'].includes(node.type);

export const isMember = (node: JsNode | undefined): boolean => node?.type === 'MemberExpression' || node?.type === 'OptionalMemberExpression';

export const isCall = (node: JsNode | undefined): boolean => node?.type === 'CallExpression' || node?.type === 'OptionalCallExpression' || node?.type === 'NewExpression';

/** Through wrappers that only change types or grouping: `x!`, `x as T`, `(x)`. */
export function unwrap(node: JsNode | undefined): JsNode | undefined {
  let n = node;
  while (
    n !== undefined &&
    ['TSNonNullExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSTypeAssertion', 'TypeCastExpression', 'ParenthesizedExpression'].includes(n.type)
  ) {
    n = child(n, 'expression');
  }
  return n;
}
