import type { TamperRule } from '../core/tamper.js';
import { FindingSink, type RawFinding } from './raw-finding.js';
import { child, childList, children, isCall, isMember, nameOf, stringValue, typeOnly, unwrap, type JsNode } from './js-ast.js';
import { isFunctionBinding, normaliseSpecifier, openScope, resolve, type JsScope } from './js-scope.js';
import {
  JS_ALWAYS_LYING_KEYS,
  JS_FRAMEWORK_NAME,
  JS_FRAMEWORK_STRING,
  JS_GLOBAL_OBJECTS,
  JS_INTROSPECTION_PROPERTIES,
  JS_LYING_STRING,
  JS_MODULE_WRAPPER,
  JS_PROPERTY_WRITERS,
  JS_QUALIFIED,
  JS_VALUE_BASES,
  JS_VALUE_TYPE_KEYS
} from './js-tables.js';
import { GRADER_NAME, matchesQualified } from './qualified.js';

/**
 * The tamper rules over a JavaScript or TypeScript file's AST (@babel/parser; the file parsed
 * without errors). Pure: an AST and its source in, findings out.
 */

/** An attribute chain (`globalThis.process.env.CI`) read from its head. */
interface Chain {
  /** What the root is: an import, a free global, or anything else (a local, `this`, a call). */
  kind: 'import' | 'global' | 'other';
  /** The chain's qualified name up to its first computed, non-literal part; undefined for a local root. */
  qualified: string | undefined;
  /** Every property name in the chain, with undefined for computed, non-literal ones. */
  props: (string | undefined)[];
  root: JsNode;
  /** The root is the global object and the next part is computed: `globalThis[name]`. */
  dynamicGlobal: boolean;
}

const LYING_SYMBOLS = new Set(['Symbol.toPrimitive', 'Symbol.hasInstance', 'Symbol.toStringTag']);

/** Whether an expression mentions the module's own file: `__filename`, `import.meta.url`, `import.meta.filename`. */
function namesOwnFile(node: JsNode): boolean {
  if (node.type === 'Identifier' && nameOf(node) === '__filename') return true;
  if (node.type === 'MetaProperty') return true;
  return children(node).some(([, c]) => namesOwnFile(c));
}

/** The JS/TS rules over a parsed program. */
export function jsFindings(program: JsNode, code: string): RawFinding[] {
  const sink = new FindingSink();
  const handledStrings = new Set<JsNode>();
  const text = (node: JsNode): string => code.slice(node.start ?? 0, node.end ?? 0);
  const flag = (rule: TamperRule, node: JsNode, source: string = text(node)): void =>
    sink.add(rule, source, node.loc?.start.line ?? 1, node.loc?.end.line ?? 1, node.start ?? 0, node.end ?? 0);

  /** A computed key's name when it is a literal or a well-known symbol (`Symbol.toPrimitive`). */
  const keyName = (node: JsNode, scope: JsScope): string | undefined => {
    const key = child(node, 'key') ?? child(node, 'property');
    if (key === undefined) return undefined;
    if (node['computed'] !== true) return nameOf(key) ?? stringValue(key) ?? (key.type === 'PrivateName' ? `#${nameOf(child(key, 'id')) ?? ''}` : undefined);
    const literal = stringValue(key);
    if (literal !== undefined) return literal;
    const inner = unwrap(key);
    if (isMember(inner)) return chainOf(inner!, scope).qualified;
    return undefined;
  };

  const chainOf = (head: JsNode, scope: JsScope): Chain => {
    const props: (string | undefined)[] = [];
    let node: JsNode | undefined = head;
    while (isMember(node)) {
      props.unshift(keyName(node!, scope));
      node = unwrap(child(node!, 'object'));
    }
    const root = node ?? head;
    let kind: Chain['kind'] = 'other';
    let base: string | undefined;
    let dynamicGlobal = false;
    if (root.type === 'Identifier') {
      const resolved = resolve(scope, nameOf(root)!);
      if (resolved.kind !== 'local') {
        kind = resolved.kind;
        base = resolved.qualified;
      }
      // globalThis.x, window.self.x: the global object's properties are globals.
      while (kind === 'global' && base !== undefined && JS_GLOBAL_OBJECTS.has(base)) {
        if (props.length === 0) break;
        if (props[0] === undefined) {
          dynamicGlobal = true;
          break;
        }
        base = props.shift();
      }
    } else if (root.type === 'MetaProperty') {
      kind = 'global';
      base = `${nameOf(child(root, 'meta')) ?? ''}.${nameOf(child(root, 'property')) ?? ''}`;
    } else if (root.type === 'CallExpression' && nameOf(child(root, 'callee')) === 'require' && resolve(scope, 'require').kind === 'global') {
      const spec = stringValue(childList(root, 'arguments')[0]);
      if (spec !== undefined) {
        kind = 'import';
        base = normaliseSpecifier(spec);
      }
    }
    let qualified = base;
    if (qualified !== undefined) {
      for (const prop of props) {
        if (prop === undefined) break;
        qualified = `${qualified}.${prop}`;
      }
    }
    return { kind, qualified, props, root, dynamicGlobal };
  };

  const matchTables = (qualified: string, node: JsNode): void => {
    for (const [rule, entries] of Object.entries(JS_QUALIFIED) as [TamperRule, readonly string[]][]) {
      if (entries.some((entry) => matchesQualified(qualified, entry))) flag(rule, node);
    }
    if (LYING_SYMBOLS.has(qualified)) flag('lying_type', node);
  };

  /** The construct a reference is part of: the call it is the callee of, else itself. */
  const extent = (node: JsNode, parent: JsNode | undefined): JsNode => {
    if (parent !== undefined && (isCall(parent) || parent.type === 'TaggedTemplateExpression') && (child(parent, 'callee') === node || child(parent, 'tag') === node))
      return parent;
    return node;
  };

  /** Whether writing through this chain changes something outside the file: an import, a global, a prototype. */
  const patchesShared = (chain: Chain, scope: JsScope): boolean => {
    if (chain.kind === 'import') return true;
    if (chain.kind === 'global') {
      const first = chain.qualified?.split('.')[0] ?? '';
      if (!JS_MODULE_WRAPPER.has(first)) return true;
    }
    if (chain.dynamicGlobal) return true;
    if (chain.props.includes('__proto__')) return true;
    const constructorAt = chain.props.indexOf('constructor');
    if (constructorAt >= 0 && chain.props[constructorAt + 1] === 'prototype') return true;
    const root = chain.root;
    if (root.type === 'CallExpression') {
      const callee = unwrap(child(root, 'callee'));
      const q = callee !== undefined && isMember(callee) ? chainOf(callee, scope).qualified : undefined;
      if (q === 'Object.getPrototypeOf' || q === 'Reflect.getPrototypeOf') return true;
    }
    return false;
  };

  const checkWrite = (target: JsNode | undefined, statement: JsNode, scope: JsScope): void => {
    const node = unwrap(target);
    if (node === undefined) return;
    if (node.type === 'Identifier') {
      const resolved = resolve(scope, nameOf(node)!);
      if (resolved.kind === 'global' && !JS_MODULE_WRAPPER.has(resolved.qualified)) flag('monkeypatch', statement);
      return;
    }
    if (isMember(node)) {
      const chain = chainOf(node, scope);
      if (patchesShared(chain, scope)) flag('monkeypatch', statement);
      const last = chain.props[chain.props.length - 1];
      if (last !== undefined && JS_ALWAYS_LYING_KEYS.has(last)) flag('lying_type', statement);
      return;
    }
    if (node.type === 'ObjectPattern') {
      for (const prop of childList(node, 'properties')) checkWrite(prop.type === 'RestElement' ? child(prop, 'argument') : child(prop, 'value'), statement, scope);
    } else if (node.type === 'ArrayPattern') {
      for (const element of childList(node, 'elements')) checkWrite(element, statement, scope);
    } else if (node.type === 'AssignmentPattern') checkWrite(child(node, 'left'), statement, scope);
    else if (node.type === 'RestElement') checkWrite(child(node, 'argument'), statement, scope);
  };

  const moduleSource = (spec: string, node: JsNode): void => {
    const q = normaliseSpecifier(spec);
    matchTables(q, node);
  };

  const checkCall = (node: JsNode, scope: JsScope): void => {
    const callee = unwrap(child(node, 'callee'));
    const args = childList(node, 'arguments');
    const isNew = node.type === 'NewExpression';
    if (callee === undefined) return;
    if (callee.type === 'Import' || (nameOf(callee) === 'require' && resolve(scope, 'require').kind === 'global')) {
      const spec = stringValue(args[0]);
      if (spec !== undefined) {
        handledStrings.add(args[0]!);
        moduleSource(spec, node);
      } else if (args.length > 0) flag('dynamic_code', node);
      return;
    }
    const chain = isMember(callee) ? chainOf(callee, scope) : callee.type === 'Identifier' ? chainOf(callee, scope) : undefined;
    if (chain === undefined) return;
    const q = chain.qualified;
    if (q !== undefined && JS_PROPERTY_WRITERS.has(q)) {
      const target = unwrap(args[0]);
      const targetChain = target === undefined ? undefined : isMember(target) || target.type === 'Identifier' ? chainOf(target, scope) : undefined;
      if (targetChain !== undefined && (patchesShared(targetChain, scope) || targetChain.props.includes('prototype'))) flag('monkeypatch', node);
    }
    if (chain.kind === 'global' && (q === 'setTimeout' || q === 'setInterval' || q === 'setImmediate') && stringValue(args[0]) !== undefined) flag('dynamic_code', node);
    // Its own file read back (its comments and layout with it): readFileSync(__filename), readFile(new URL(import.meta.url)).
    if (
      q !== undefined &&
      chain.kind === 'import' &&
      /^fs(?:\/promises)?\.(?:promises\.)?(?:readFileSync|readFile|createReadStream|openSync|open)$/.test(q) &&
      args[0] !== undefined &&
      namesOwnFile(args[0])
    ) {
      flag('introspection', node);
    }
    const props = chain.props;
    const last = props[props.length - 1];
    if ((last === 'constructor' && !isNew) || (last === 'constructor' && props[props.length - 2] === 'constructor')) flag('dynamic_code', node);
  };

  const checkMembers = (node: JsNode, scope: JsScope): void => {
    const isClass = node.type === 'ClassDeclaration' || node.type === 'ClassExpression';
    const members = isClass ? childList(child(node, 'body')!, 'body') : childList(node, 'properties');
    let valueType = false;
    let header = '';
    if (isClass) {
      const superClass = unwrap(child(node, 'superClass'));
      const chain = superClass !== undefined && (superClass.type === 'Identifier' || isMember(superClass)) ? chainOf(superClass, scope) : undefined;
      valueType = chain?.kind === 'global' && chain.qualified !== undefined && JS_VALUE_BASES.has(chain.qualified);
      const body = child(node, 'body')!;
      header = code.slice(node.start ?? 0, body.start ?? 0).trim();
    }
    for (const member of members) {
      if (member.type === 'SpreadElement' || member.type === 'RestElement' || typeOnly(member)) continue;
      const key = keyName(member, scope);
      if (key === undefined) continue;
      if (JS_ALWAYS_LYING_KEYS.has(key) || (valueType && JS_VALUE_TYPE_KEYS.has(key))) {
        flag('lying_type', member, isClass ? `${header} { ${text(member)} }` : text(member));
      }
    }
  };

  const visitPattern = (pattern: JsNode | undefined, scope: JsScope, parent: JsNode): void => {
    // In a binding pattern only defaults and computed keys are evaluated.
    const node = pattern;
    if (node === undefined) return;
    switch (node.type) {
      case 'ObjectPattern':
        for (const prop of childList(node, 'properties')) {
          if (prop.type === 'RestElement') visitPattern(child(prop, 'argument'), scope, prop);
          else {
            if (prop['computed'] === true) visit(child(prop, 'key')!, scope, prop);
            visitPattern(child(prop, 'value'), scope, prop);
          }
        }
        return;
      case 'ArrayPattern':
        for (const element of childList(node, 'elements')) visitPattern(element, scope, node);
        return;
      case 'AssignmentPattern':
        visitPattern(child(node, 'left'), scope, node);
        visit(child(node, 'right')!, scope, node);
        return;
      case 'RestElement':
        visitPattern(child(node, 'argument'), scope, node);
        return;
      case 'TSParameterProperty':
        visitPattern(child(node, 'parameter'), scope, node);
        return;
      case 'Identifier':
        return;
      default:
        visit(node, scope, parent);
    }
  };

  /**
   * Whether a function's name stands where it is turned into a string (its source, comments
   * included): `String(f)`, `${f}`, `'' + f`.
   */
  const toStringContext = (node: JsNode, parent: JsNode | undefined, scope: JsScope): boolean => {
    if (parent === undefined) return false;
    if (parent.type === 'TemplateLiteral') return true;
    if (parent.type === 'BinaryExpression' && parent['operator'] === '+') {
      const other = child(parent, 'left') === node ? child(parent, 'right') : child(parent, 'left');
      return other !== undefined && (other.type === 'StringLiteral' || other.type === 'TemplateLiteral');
    }
    if (parent.type === 'CallExpression' && childList(parent, 'arguments')[0] === node) {
      const callee = unwrap(child(parent, 'callee'));
      return nameOf(callee) === 'String' && resolve(scope, 'String').kind === 'global';
    }
    return false;
  };

  /** An assignment's target: its names and members are references (writes); defaults and computed keys are evaluated. */
  const visitTarget = (target: JsNode | undefined, scope: JsScope, parent: JsNode): void => {
    if (target === undefined) return;
    switch (target.type) {
      case 'ObjectPattern':
        for (const prop of childList(target, 'properties')) {
          if (prop.type === 'RestElement') visitTarget(child(prop, 'argument'), scope, prop);
          else {
            if (prop['computed'] === true) visit(child(prop, 'key')!, scope, prop);
            visitTarget(child(prop, 'value'), scope, prop);
          }
        }
        return;
      case 'ArrayPattern':
        for (const element of childList(target, 'elements')) visitTarget(element, scope, target);
        return;
      case 'AssignmentPattern':
        visitTarget(child(target, 'left'), scope, target);
        visit(child(target, 'right')!, scope, target);
        return;
      case 'RestElement':
        visitTarget(child(target, 'argument'), scope, target);
        return;
      default:
        visit(target, scope, parent);
    }
  };

  const visit = (node: JsNode, outer: JsScope, parent: JsNode | undefined): void => {
    if (typeOnly(node)) return;
    const scope = openScope(node, outer) ?? outer;
    switch (node.type) {
      case 'ImportDeclaration': {
        const spec = stringValue(child(node, 'source')) ?? '';
        moduleSource(spec, node);
        const normalised = normaliseSpecifier(spec);
        for (const s of childList(node, 'specifiers')) {
          if (s.type !== 'ImportSpecifier' || s['importKind'] === 'type') continue;
          const imported = nameOf(child(s, 'imported')) ?? stringValue(child(s, 'imported'));
          if (imported !== undefined && imported !== 'default') matchTables(`${normalised}.${imported}`, node);
        }
        return;
      }
      case 'ExportAllDeclaration':
      case 'ExportNamedDeclaration': {
        const source = stringValue(child(node, 'source'));
        if (source !== undefined) {
          moduleSource(source, node);
          return;
        }
        break;
      }
      case 'TSImportEqualsDeclaration': {
        const ref = child(node, 'moduleReference');
        const spec = ref?.type === 'TSExternalModuleReference' ? stringValue(child(ref, 'expression')) : undefined;
        if (spec !== undefined) moduleSource(spec, node);
        return;
      }
      case 'Identifier': {
        const name = nameOf(node)!;
        const resolved = resolve(scope, name);
        if (isFunctionBinding(scope, name) && toStringContext(node, parent, scope)) flag('introspection', parent ?? node);
        if (resolved.kind === 'local') return;
        const unary = parent?.type === 'UnaryExpression' && parent['operator'] === 'typeof';
        if (resolved.kind === 'global' && JS_GLOBAL_OBJECTS.has(name) && !unary) flag('dynamic_code', node);
        if (resolved.qualified === 'process' && !unary) flag('env_argv_read', node);
        matchTables(resolved.qualified, extent(node, parent));
        if (JS_FRAMEWORK_NAME.test(name)) flag('test_framework_reference', node);
        return;
      }
      case 'MemberExpression':
      case 'OptionalMemberExpression': {
        const isHead = !(parent !== undefined && isMember(parent) && unwrap(child(parent, 'object')) === node);
        const chain = chainOf(node, scope);
        if (isHead) {
          if (chain.qualified !== undefined) matchTables(chain.qualified, extent(node, parent));
          if (chain.dynamicGlobal) flag('dynamic_code', extent(node, parent));
          if (chain.kind === 'global' && chain.qualified === 'process' && chain.props.length === 0) flag('env_argv_read', node);
          if (chain.root.type === 'Identifier' && nameOf(chain.root) === 'arguments' && (chain.props[0] === 'callee' || chain.props[0] === 'caller')) {
            flag('introspection', extent(node, parent));
          }
          // A function of the file turned into its source: f.toString(), f.toLocaleString().
          if (chain.root.type === 'Identifier' && isFunctionBinding(scope, nameOf(chain.root)!) && (chain.props[0] === 'toString' || chain.props[0] === 'toLocaleString')) {
            flag('introspection', extent(node, parent));
          }
          for (const prop of chain.props) {
            if (prop === undefined) continue;
            if (JS_INTROSPECTION_PROPERTIES.has(prop)) flag('introspection', extent(node, parent));
            if (prop === 'asymmetricMatch') flag('lying_type', extent(node, parent));
            if (JS_FRAMEWORK_NAME.test(prop)) flag('test_framework_reference', extent(node, parent));
          }
        }
        // The root name was resolved with the chain; computed parts and other roots are expressions of their own.
        const object = unwrap(child(node, 'object'));
        if (object !== undefined && object.type !== 'Identifier' && !isMember(object)) visit(object, scope, node);
        else if (object !== undefined && isMember(object)) visit(object, scope, node);
        if (node['computed'] === true) visit(child(node, 'property')!, scope, node);
        return;
      }
      case 'AssignmentExpression':
        checkWrite(child(node, 'left'), node, scope);
        visitTarget(child(node, 'left'), scope, node);
        visit(child(node, 'right')!, scope, node);
        return;
      case 'UpdateExpression':
        checkWrite(child(node, 'argument'), node, scope);
        break;
      case 'UnaryExpression':
        if (node['operator'] === 'delete') checkWrite(child(node, 'argument'), node, scope);
        break;
      case 'CallExpression':
      case 'OptionalCallExpression':
      case 'NewExpression':
        checkCall(node, scope);
        break;
      case 'ImportExpression': {
        const spec = stringValue(child(node, 'source'));
        if (spec !== undefined) {
          handledStrings.add(child(node, 'source')!);
          moduleSource(spec, node);
        } else flag('dynamic_code', node);
        break;
      }
      case 'ObjectExpression':
      case 'ClassDeclaration':
      case 'ClassExpression':
        checkMembers(node, scope);
        break;
      case 'StringLiteral':
      case 'TemplateLiteral': {
        const value = stringValue(node);
        if (value === undefined && node.type === 'TemplateLiteral') {
          const literal = childList(node, 'quasis')
            .map((q) => {
              const raw = (q['value'] as { raw?: unknown } | undefined)?.raw;
              return typeof raw === 'string' ? raw : '';
            })
            .join('');
          if (GRADER_NAME.test(literal)) flag('test_framework_reference', node);
        }
        if (value !== undefined && !handledStrings.has(node)) {
          if (JS_FRAMEWORK_NAME.test(value) || JS_FRAMEWORK_STRING.test(value) || GRADER_NAME.test(value)) flag('test_framework_reference', node);
          if (JS_LYING_STRING.test(value)) flag('lying_type', node);
        }
        break;
      }
      case 'VariableDeclarator':
        visitPattern(child(node, 'id'), scope, node);
        if (child(node, 'init') !== undefined) visit(child(node, 'init')!, scope, node);
        return;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
      case 'ObjectMethod':
      case 'ClassMethod':
      case 'ClassPrivateMethod':
        for (const param of childList(node, 'params')) visitPattern(param, scope, node);
        if (node['computed'] === true && child(node, 'key') !== undefined) visit(child(node, 'key')!, outer, node);
        if (child(node, 'body') !== undefined) visit(child(node, 'body')!, scope, node);
        for (const decorator of childList(node, 'decorators')) visit(decorator, outer, node);
        return;
      case 'CatchClause':
        visitPattern(child(node, 'param'), scope, node);
        visit(child(node, 'body')!, scope, node);
        return;
      case 'ForInStatement':
      case 'ForOfStatement': {
        const left = child(node, 'left');
        if (left?.type === 'VariableDeclaration') visit(left, scope, node);
        else {
          checkWrite(left, node, scope);
          visitTarget(left, scope, node);
        }
        visit(child(node, 'right')!, scope, node);
        visit(child(node, 'body')!, scope, node);
        return;
      }
      case 'LabeledStatement':
        visit(child(node, 'body')!, scope, node);
        return;
      case 'BreakStatement':
      case 'ContinueStatement':
      case 'MetaProperty':
      case 'PrivateName':
      case 'TSEnumMember':
      case 'JSXIdentifier':
      case 'JSXMemberExpression':
      case 'JSXNamespacedName':
        return;
      default:
        break;
    }
    for (const [key, value] of children(node)) {
      // Names that are not references: non-computed keys, class and function names, labels.
      if (key === 'key' && node['computed'] !== true) continue;
      if (key === 'id' && (node.type.startsWith('Class') || node.type === 'TSEnumDeclaration' || node.type === 'TSModuleDeclaration')) continue;
      if ((key === 'exported' || key === 'local') && node.type.startsWith('Export')) continue;
      visit(value, scope, node);
    }
  };

  const root: JsScope = { names: new Map(), parent: undefined };
  visit(program, root, undefined);
  return sink.findings;
}
