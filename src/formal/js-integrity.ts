import { parse } from '@babel/parser';
import { Unsupported } from './symbolic.js';

/**
 * What a JS/TS file must not do for a proof about its target to be about the code that runs
 * (issue 29): the file-level scans of the formal gate's JS front end, read on the host from Babel's
 * AST, never executed. Pure.
 *
 * - `integrityProblems`: a rebound, aliased or shadowed builtin the subset calls (`Math`, and the
 *   global objects it hangs from), code built from strings (`eval`, `Function`, `vm`), `with`,
 *   decorators, getters and setters, the top-level `this` of a script;
 * - `globalProblems`: the part of those that reaches other files (run on every changed file);
 * - `findTarget`: the one definition of the target, refusing every other way its name can be bound
 *   or written (destructuring, `for … of`, `var` in a block, a sloppy-mode block function that
 *   Annex B hoists over it, CommonJS exports other than the plain forms).
 */

// Babel's AST, loosely: every node's `type` is checked before a field is read.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Node = { type: string; loc?: { start: { line: number; column: number } } | null; start?: number | null; end?: number | null; [key: string]: any };

const JS_EXT = /\.(c|m)?jsx?$/;
const TS_EXT = /\.(c|m)?tsx?$/;

/** Parse a candidate's file; a syntax error is `unknown` (the gate cannot say what runs). */
export function parseSource(text: string, file: string): Node {
  if (!JS_EXT.test(file) && !TS_EXT.test(file)) throw new Unsupported(`${file} is not a JavaScript or TypeScript file`);
  const typed = TS_EXT.test(file);
  const jsx = file.endsWith('x');
  try {
    return parse(text, {
      // A .cjs file is never a module; .mjs/.mts always; otherwise what the syntax says.
      sourceType: /\.c[jt]s$/.test(file) ? 'script' : /\.m[jt]s$/.test(file) ? 'module' : 'unambiguous',
      errorRecovery: false,
      plugins: [...(typed ? (['typescript'] as const) : []), ...(jsx ? (['jsx'] as const) : []), 'decorators']
    }).program;
  } catch (error) {
    throw new Unsupported(`${file} does not parse: ${(error as Error).message}`);
  }
}

/** Whether the file's code is strict: an ES module, or a script whose first directive is 'use strict'. */
export function isStrict(program: Node): boolean {
  return program.sourceType === 'module' || (program.directives as Node[] | undefined)?.some((d) => d.value?.value === 'use strict') === true;
}

/** Builtins the subset calls: their meaning is the standard one only if nothing rebinds them. */
export const BUILTIN_OBJECTS = new Set(['Math']);
/** Names of the global object. */
export const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);
/** Global bindings the subset reads as constants (`undefined`): shadowing one changes what the code means. */
export const GLOBAL_CONSTANTS = new Set(['undefined']);
const MUTATORS = new Set(['defineProperty', 'defineProperties', 'assign', 'setPrototypeOf', 'set', 'deleteProperty']);
/** Members of the global object that hand out the builtins or evaluate code. */
const DANGEROUS_GLOBAL_MEMBERS = new Set([...BUILTIN_OBJECTS, ...GLOBAL_OBJECTS, 'eval', 'Function', 'Reflect']);
const SKIPPED_KEYS = new Set(['loc', 'start', 'end', 'extra', 'leadingComments', 'trailingComments', 'innerComments']);

/** Where a node is, in words: " (line N)". */
export function at(node: Node | undefined): string {
  return node?.loc ? ` (line ${node.loc.start.line})` : '';
}

/** What a visit sees besides the node: its parent, and whether it sits inside a function. */
interface Context {
  parent: Node | undefined;
  /** Inside any function (arrow or not). */
  inFunction: boolean;
  /** Inside a non-arrow function (where `this` is the call's). */
  inOwnThis: boolean;
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod']);

/** Visit every node of a tree with its context. */
export function walk(node: unknown, visit: (node: Node, context: Context) => void, context: Context = { parent: undefined, inFunction: false, inOwnThis: false }): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit, context);
    return;
  }
  if (typeof node !== 'object' || node === null || typeof (node as Node).type !== 'string') return;
  const n = node as Node;
  visit(n, context);
  const isFunction = FUNCTIONS.has(n.type);
  const inner: Context = {
    parent: n,
    inFunction: context.inFunction || isFunction,
    inOwnThis: context.inOwnThis || (isFunction && n.type !== 'ArrowFunctionExpression') || n.type === 'ClassBody'
  };
  for (const key of Object.keys(n)) {
    if (SKIPPED_KEYS.has(key)) continue;
    walk(n[key], visit, inner);
  }
}

/** Whether an identifier is a reference to a binding (not a property name, a label, an import's or export's outer name). */
export function isReference(node: Node, parent: Node | undefined): boolean {
  if (parent === undefined) return true;
  switch (parent.type) {
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      return parent.object === node || parent.computed === true;
    case 'ObjectProperty':
    case 'ObjectMethod':
    case 'ClassProperty':
    case 'ClassMethod':
    case 'ClassPrivateProperty':
    case 'ClassAccessorProperty':
      return parent.key !== node || parent.computed === true;
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
      return false;
    case 'ImportSpecifier':
      return parent.local === node;
    case 'ExportSpecifier':
      return parent.local === node && parent.exported !== node;
    case 'MetaProperty':
      return false;
    default:
      return true;
  }
}

/** A Math reference: the identifier `Math`, or `G.Math` for a global object G. */
function mathReference(node: Node, parent: Node | undefined): boolean {
  if (node.type === 'Identifier') return BUILTIN_OBJECTS.has(node.name) && isReference(node, parent);
  return node.type === 'MemberExpression' && !node.computed && node.object.type === 'Identifier' && GLOBAL_OBJECTS.has(node.object.name) && BUILTIN_OBJECTS.has(node.property.name);
}

/** The member expression's static property name (`a.b`, `a['b']`), if it has one. */
export function staticProperty(member: Node): string | undefined {
  const prop = member.property as Node;
  if (!member.computed && prop.type === 'Identifier') return prop.name;
  if (prop.type === 'StringLiteral') return prop.value;
  return undefined;
}

/** Every identifier (and member expression) a pattern binds or writes (`[a, { b: c }, ...d, o.p] = …`). */
export function patternNames(pattern: Node | null | undefined): Node[] {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier':
    case 'MemberExpression':
      return [pattern];
    case 'ArrayPattern':
      return (pattern.elements as (Node | null)[]).flatMap((e) => patternNames(e));
    case 'ObjectPattern':
      return (pattern.properties as Node[]).flatMap((p) => (p.type === 'RestElement' ? patternNames(p.argument) : patternNames(p.value)));
    case 'RestElement':
      return patternNames(pattern.argument);
    case 'AssignmentPattern':
      return patternNames(pattern.left);
    case 'TSParameterProperty':
      return patternNames(pattern.parameter);
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'TSSatisfiesExpression':
    case 'ParenthesizedExpression':
      return patternNames(pattern.expression);
    default:
      return [];
  }
}

/** A problem found by the scans, and whether it changes other files' code too (a global). */
interface Problem {
  text: string;
  global: boolean;
}

function scan(program: Node): Problem[] {
  const problems: Problem[] = [];
  const add = (text: string, global: boolean): void => {
    problems.push({ text, global });
  };
  const script = program.sourceType !== 'module';
  // `self`, `window` and `global` are common names of locals (`const self = this`): a file that
  // declares one means its own binding there, not the global object (the binding check still
  // sees what runs). `globalThis` is never taken for a local.
  const local = new Set<string>();
  walk(program, (node, { parent }) => {
    if (
      node.type === 'Identifier' &&
      GLOBAL_OBJECTS.has(node.name) &&
      node.name !== 'globalThis' &&
      parent !== undefined &&
      isBindingPosition(node, parent) &&
      parent.type !== 'AssignmentExpression'
    ) {
      local.add(node.name);
    }
  });
  walk(program, (node, { parent, inOwnThis }) => {
    if (node.type === 'Decorator') add(`a decorator${at(node)}`, false);
    if ((node.type === 'ObjectMethod' || node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod') && (node.kind === 'get' || node.kind === 'set')) {
      add(`a ${node.kind}ter${at(node)}`, false);
    }
    if (node.type === 'WithStatement') add(`a with statement${at(node)}`, true);
    if (node.type === 'Identifier' && node.name === 'eval') add(`eval${at(node)}, which runs code built from a string`, true);
    if (node.type === 'Identifier' && node.name === 'Function' && isReference(node, parent)) add(`the Function constructor${at(node)}, which runs code built from a string`, true);
    // The top-level `this` of a script is the global object (module.exports in CommonJS).
    if (node.type === 'ThisExpression' && !inOwnThis && script)
      add(`this at the top level${at(node)}, which is the global object in a script and module.exports in CommonJS`, true);
    // `(() => {}).constructor('…')` reaches the Function constructor without naming it.
    if ((node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') && staticProperty(node) === 'constructor' && parent !== undefined) {
      const called = (parent.type === 'CallExpression' || parent.type === 'NewExpression') && parent.callee === node;
      const chained = (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.object === node && staticProperty(parent) === 'constructor';
      if (called || chained) add(`a constructor reached through .constructor${at(node)} (the Function constructor runs code built from a string)`, true);
    }
    // The vm module evaluates code in this realm.
    if (node.type === 'ImportDeclaration' && /^(node:)?vm$/.test(node.source.value)) add(`an import of the vm module${at(node)}, which runs code built from a string`, true);
    if (
      node.type === 'CallExpression' &&
      ((node.callee.type === 'Identifier' && node.callee.name === 'require') || node.callee.type === 'Import') &&
      node.arguments[0]?.type === 'StringLiteral' &&
      /^(node:)?vm$/.test(node.arguments[0].value)
    ) {
      add(`a require of the vm module${at(node)}, which runs code built from a string`, true);
    }
    // A binding or a value of a global constant the subset reads (`undefined`).
    if (node.type === 'Identifier' && GLOBAL_CONSTANTS.has(node.name) && parent !== undefined && isReference(node, parent) && isBindingPosition(node, parent)) {
      add(`a binding named ${node.name}${at(node)}, which shadows the global one`, false);
    }
    // A reference to a global object other than reading a harmless member of it: an alias or a
    // computed access reaches Math (or anything) by a name the scan cannot read.
    if (node.type === 'Identifier' && GLOBAL_OBJECTS.has(node.name) && !local.has(node.name) && isReference(node, parent)) {
      const member = parent !== undefined && (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.object === node;
      if (!member) add(`${node.name} aliased or passed around${at(node)}: what is reached through it cannot be followed`, true);
      else if (parent.computed) add(`computed access to ${node.name}${at(node)}`, true);
      else if (DANGEROUS_GLOBAL_MEMBERS.has(parent.property.name) && !BUILTIN_OBJECTS.has(parent.property.name)) add(`${node.name}.${parent.property.name}${at(node)}`, true);
    }
    // `x.Math` on anything but a global object's name: an alias of the global object (or a lookalike).
    if ((node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') && BUILTIN_OBJECTS.has(staticProperty(node) ?? '') && !mathReference(node, parent)) {
      add(`a member named ${staticProperty(node) ?? ''} of something other than the global object${at(node)} (an alias of the global object?)`, true);
    }
    // A Math reference used as anything but the object of a member read or a method call: bound,
    // aliased or passed around (`const M = globalThis.Math`, `f(Math)`, `{ Math }`).
    if (mathReference(node, parent) && parent !== undefined) {
      const objectOfMember = (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.object === node;
      if (!objectOfMember) add(`Math is bound, aliased or passed around${at(node)}`, true);
    }
    // A write to Math or one of its members.
    if (node.type === 'AssignmentExpression' || node.type === 'UpdateExpression' || (node.type === 'UnaryExpression' && node.operator === 'delete')) {
      const target: Node = node.type === 'AssignmentExpression' ? node.left : node.argument;
      const written = [target, ...(target.type === 'MemberExpression' ? [target.object as Node] : []), ...patternNames(target)];
      if (written.some((w) => mathReference(w, undefined) || (w.type === 'MemberExpression' && mathReference(w.object, w)))) add(`a write to Math${at(node)}`, true);
    }
    // Object.defineProperty(Math, …), Reflect.set(Math, …), Object.assign(Math, …).
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && !node.callee.computed && node.callee.property.type === 'Identifier') {
      const first = node.arguments[0] as Node | undefined;
      if (
        MUTATORS.has(node.callee.property.name) &&
        first !== undefined &&
        (mathReference(first, node) || (first.type === 'MemberExpression' && mathReference(first.object, first)))
      ) {
        add(`${node.callee.property.name} on Math${at(node)}`, true);
      }
    }
  });
  const seen = new Set<string>();
  return problems.filter((p) => !seen.has(p.text) && seen.add(p.text));
}

/** Whether an identifier sits where a binding is made (a declaration, a parameter, a pattern being written). */
function isBindingPosition(node: Node, parent: Node): boolean {
  switch (parent.type) {
    case 'VariableDeclarator':
      return parent.id === node;
    case 'FunctionDeclaration':
    case 'FunctionExpression':
    case 'ClassDeclaration':
    case 'ClassExpression':
      return parent.id === node || (parent.params as Node[] | undefined)?.includes(node) === true;
    case 'ArrowFunctionExpression':
    case 'ObjectMethod':
    case 'ClassMethod':
      return (parent.params as Node[]).includes(node);
    case 'CatchClause':
      return parent.param === node;
    case 'ImportSpecifier':
    case 'ImportDefaultSpecifier':
    case 'ImportNamespaceSpecifier':
      return parent.local === node;
    case 'AssignmentExpression':
      return parent.left === node;
    case 'UpdateExpression':
      return true;
    case 'ArrayPattern':
    case 'RestElement':
    case 'AssignmentPattern':
      return parent.left === node || parent.argument === node || (parent.elements as Node[] | undefined)?.includes(node) === true;
    case 'ObjectProperty':
      return parent.value === node;
    default:
      return false;
  }
}

/**
 * The file-level reasons the proof would not be about the code that runs: a rebound, aliased or
 * shadowed builtin (`Math.max = …`, a binding named `Math`, `const M = globalThis.Math`,
 * `Object.defineProperty(Math, …)`), a global object aliased or reached by a computed name, code
 * built from strings (`eval`, `Function`, `.constructor(…)`, `vm`), `with`, a decorator, a getter or
 * setter, the top-level `this` of a script, a binding named `undefined`.
 */
export function integrityProblems(program: Node): string[] {
  return scan(program).map((p) => p.text);
}

/**
 * The problems of a file that change what code in other files computes (a write to Math, an alias
 * of the global object, code built from strings): run on every other JS/TS file the candidate changes.
 */
export function globalProblems(program: Node): string[] {
  return scan(program)
    .filter((p) => p.global)
    .map((p) => p.text);
}

function exportedName(specifier: Node): string | undefined {
  const exported = specifier.exported as Node | undefined;
  if (exported === undefined) return undefined;
  return exported.type === 'Identifier' ? exported.name : exported.value;
}

/**
 * Why a CommonJS export in this file could make `name` something other than its definition, or
 * undefined. The plain forms are followed: `module.exports = { name, … }` (or `name: name`),
 * `module.exports.name = name`, `exports.name = name`, and any export of other names. Everything
 * else that touches `module` or `exports` (`Object.assign(module.exports, …)`, a spread or a
 * computed key in the object, `exports = …`, an alias of either) is refused.
 */
function commonJsProblem(node: Node, parent: Node | undefined, grand: Node | undefined, name: string): string | undefined {
  const isModuleExports = (n: Node): boolean => n.type === 'MemberExpression' && n.object.type === 'Identifier' && n.object.name === 'module' && staticProperty(n) === 'exports';
  // The member `E.x` of E = module.exports or exports, as used by its parent.
  const memberUse = (member: Node, user: Node | undefined): string | undefined => {
    const key = staticProperty(member);
    const written =
      user !== undefined &&
      ((user.type === 'AssignmentExpression' && user.left === member) || user.type === 'UpdateExpression' || (user.type === 'UnaryExpression' && user.operator === 'delete'));
    if (!written) return key === undefined ? `an export read by a computed name${at(member)}` : undefined;
    if (key === undefined) return `an export written by a computed name${at(member)}`;
    if (key !== name) return undefined;
    if (user.type === 'AssignmentExpression' && user.operator === '=' && user.right.type === 'Identifier' && user.right.name === name) return undefined;
    return `the export ${name} is set to something other than the function ${name}${at(member)}`;
  };
  // An object literal of exports: `name` may only be the function itself (`{ f }`, `{ f: f }`).
  const literalProblem = (object: Node, form: string): string | undefined => {
    for (const property of object.properties as Node[]) {
      if (property.type === 'SpreadElement') return `a spread in ${form}${at(property)}: it may carry ${name}`;
      if (property.computed) return `a computed key in ${form}${at(property)}`;
      const key = property.key.type === 'Identifier' ? property.key.name : property.key.value;
      if (key !== name) continue;
      if (property.type !== 'ObjectProperty' || property.value.type !== 'Identifier' || property.value.name !== name) {
        return `the export ${name} in ${form} is something other than the function ${name}${at(property)}`;
      }
    }
    return undefined;
  };
  // `Object.assign(E, { … }, …)`, E = module.exports or exports: each source an object literal.
  const assignProblem = (holder: Node, call: Node | undefined, form: string): string | undefined => {
    if (call?.type !== 'CallExpression' || call.arguments[0] !== holder || call.callee.type !== 'MemberExpression') {
      return `${form} used other than by a plain export${at(holder)} (passed to a function, aliased, or assigned in place)`;
    }
    const callee = call.callee as Node;
    if (callee.object.type !== 'Identifier' || callee.object.name !== 'Object' || staticProperty(callee) !== 'assign') {
      return `${form} passed to a function${at(call)}: the gate cannot tell what it does to the exports`;
    }
    for (const source of (call.arguments as Node[]).slice(1)) {
      if (source.type !== 'ObjectExpression') return `Object.assign(${form}, …) with a source that is not an object literal${at(source)}: the gate cannot tell what it exports`;
      const problem = literalProblem(source, `Object.assign(${form}, { … })`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
  if (node.type === 'Identifier' && node.name === 'module' && isReference(node, parent)) {
    if (parent === undefined || !isModuleExports(parent) || parent.object !== node) return `module used other than as module.exports${at(node)}`;
    const user = grand;
    if (user?.type === 'AssignmentExpression' && user.left === parent) {
      if (user.operator !== '=' || user.right.type !== 'ObjectExpression')
        return `module.exports set to something other than an object literal${at(user)}: the gate cannot tell what it exports`;
      return literalProblem(user.right, 'module.exports = { … }');
    }
    if (user !== undefined && (user.type === 'MemberExpression' || user.type === 'OptionalMemberExpression') && user.object === parent) return undefined;
    return assignProblem(parent, user, 'module.exports');
  }
  if (node.type === 'Identifier' && node.name === 'exports' && isReference(node, parent)) {
    if (parent !== undefined && (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.object === node) return memberUse(parent, grand);
    if (parent?.type === 'CallExpression') return assignProblem(node, parent, 'exports');
    return `exports used other than as exports.x${at(node)} (aliased, or assigned)`;
  }
  // module.exports.x as used by its parent.
  if ((node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') && isModuleExports(node.object)) return memberUse(node, parent);
  return undefined;
}

/** The target's one definition in the file, or why there is not exactly one that the gate can follow. */
export function findTarget(program: Node, name: string): Node {
  const definitions: Node[] = [];
  const others: string[] = [];
  for (const raw of program.body as Node[]) {
    let statement = raw;
    if (statement.type === 'ExportNamedDeclaration') {
      if (statement.source) {
        if ((statement.specifiers as Node[]).some((s) => exportedName(s) === name)) others.push(`a re-export of ${name} from ${statement.source.value}${at(statement)}`);
        continue;
      }
      for (const specifier of statement.specifiers as Node[]) {
        if (exportedName(specifier) === name && specifier.local?.name !== name) others.push(`another binding exported as ${name}${at(specifier)}`);
      }
      if (statement.declaration) statement = statement.declaration;
      else continue;
    }
    if (statement.type === 'ExportAllDeclaration') {
      others.push(`export * from ${statement.source.value}${at(statement)}`);
      continue;
    }
    if (statement.type === 'ExportDefaultDeclaration') statement = statement.declaration;
    if (statement.type === 'FunctionDeclaration' && statement.id?.name === name) definitions.push(statement);
    if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations as Node[]) {
        if (declarator.id.type === 'Identifier' && declarator.id.name === name) {
          const init = declarator.init;
          if (statement.kind === 'const' && init && (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression')) definitions.push(init);
          else others.push(`${name} declared as a ${statement.kind} that is not a function${at(declarator)}`);
        }
      }
    }
    if (statement.type === 'ClassDeclaration' && statement.id?.name === name) others.push(`a class named ${name}${at(statement)}`);
    if (statement.type === 'ImportDeclaration' && (statement.specifiers as Node[]).some((s) => s.local?.name === name)) others.push(`${name} imported${at(statement)}`);
  }
  const strict = isStrict(program);
  const parents = new Map<Node, Node | undefined>();
  walk(program, (node, { parent, inFunction }) => {
    parents.set(node, parent);
    const problem = commonJsProblem(node, parent, parent === undefined ? undefined : parents.get(parent), name);
    if (problem !== undefined) others.push(problem);
    // Writes of the name, in any form: `f = …`, `[f] = …`, `({ f } = …)`, `f++`, `for (f of …)`.
    if (node.type === 'AssignmentExpression' && patternNames(node.left).some((id) => id.name === name)) {
      others.push(`${node.left.type === 'Identifier' ? 'an assignment' : 'a destructuring assignment'} to ${name}${at(node)}`);
    }
    if (node.type === 'UpdateExpression' && node.argument.type === 'Identifier' && node.argument.name === name) others.push(`${node.operator} on ${name}${at(node)}`);
    if ((node.type === 'ForInStatement' || node.type === 'ForOfStatement') && node.left.type !== 'VariableDeclaration' && patternNames(node.left).some((id) => id.name === name)) {
      others.push(`a for loop that assigns ${name}${at(node)}`);
    }
    // A `var` outside any function is the top-level binding again, wherever its block.
    if (node.type === 'VariableDeclaration' && node.kind === 'var' && !inFunction && parent !== program) {
      if ((node.declarations as Node[]).some((d) => patternNames(d.id).some((id) => id.name === name)))
        others.push(`a var ${name} inside a block${at(node)}: it is the top-level ${name} again`);
    }
    // Top-level destructuring declarations (`var [f] = …`, `let { f } = …`).
    if (node.type === 'VariableDeclaration' && parent === program) {
      for (const d of node.declarations as Node[])
        if (d.id.type !== 'Identifier' && patternNames(d.id).some((id) => id.name === name)) others.push(`${name} declared by destructuring${at(d)}`);
    }
    // Annex B: in sloppy code a function declared in a block outside any function also assigns
    // the top-level binding of its name when the block runs (strict code keeps it in the block).
    if (
      node.type === 'FunctionDeclaration' &&
      node.id?.name === name &&
      !definitions.includes(node) &&
      !inFunction &&
      parent !== program &&
      parent?.type !== 'ExportNamedDeclaration' &&
      parent?.type !== 'ExportDefaultDeclaration'
    ) {
      if (!strict) others.push(`a function ${name} declared in a block${at(node)}: in sloppy code (Annex B) it replaces the top-level ${name} when the block runs`);
    }
    // A write to a property named like the target (`obj.f = …`, `require('./self').f = …`) other than the plain exports.
    if (node.type === 'AssignmentExpression' && (node.left.type === 'MemberExpression' || node.left.type === 'OptionalMemberExpression')) {
      const left = node.left as Node;
      const key = staticProperty(left);
      const holder = left.object as Node;
      const plainExport =
        (holder.type === 'Identifier' && holder.name === 'exports') ||
        (holder.type === 'MemberExpression' && holder.object.type === 'Identifier' && holder.object.name === 'module' && staticProperty(holder) === 'exports');
      if (key === name && !plainExport) others.push(`an assignment to .${name}${at(node)}`);
      const exportsLike = (holder.type === 'Identifier' && GLOBAL_OBJECTS.has(holder.name)) || holder.type === 'CallExpression';
      if (key === undefined && exportsLike) others.push(`a member written by a computed name${at(node)}`);
    }
  });
  if (definitions.length === 0 && others.length === 0) throw new Unsupported(`no top-level function ${name} (renamed or deleted?)`);
  if (definitions.length > 1) throw new Unsupported(`${definitions.length} definitions of ${name}`);
  if (others.length > 0) throw new Unsupported(`${name} is defined in a way the gate does not follow: ${[...new Set(others)][0]}`);
  return definitions[0]!;
}

/**
 * Writes in another file to a property named like a target (`pages.pageCount = …`,
 * `require('./pages').pageCount = …`, `Object.assign(lib, { pageCount })`,
 * `Object.defineProperty(lib, 'pageCount', …)`): a module's exports can be replaced from outside.
 */
export function targetWriteProblems(program: Node, names: readonly string[]): string[] {
  const problems: string[] = [];
  walk(program, (node) => {
    if (node.type === 'AssignmentExpression') {
      for (const written of patternNames(node.left)) {
        if (written.type === 'MemberExpression' && names.includes(staticProperty(written) ?? '')) problems.push(`an assignment to .${staticProperty(written) ?? ''}${at(node)}`);
      }
    }
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && MUTATORS.has(staticProperty(node.callee) ?? '')) {
      const named = (node.arguments as Node[]).some(
        (a) =>
          (a.type === 'StringLiteral' && names.includes(a.value)) ||
          (a.type === 'ObjectExpression' && (a.properties as Node[]).some((p) => p.type === 'SpreadElement' || p.computed || names.includes(p.key?.name ?? p.key?.value)))
      );
      if (named) problems.push(`${staticProperty(node.callee) ?? ''} that may set a target's name${at(node)}`);
    }
  });
  return [...new Set(problems)];
}
