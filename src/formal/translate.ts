import { parse, parseExpression } from '@babel/parser';
import type { FormalTarget } from './spec.js';
import { and, app, inSafeRange, int, ite, jsRem, not, or, truncDiv } from './smt.js';
import { SAFE_INTEGER, SpecError, SymbolicExecution, Unsupported, type Formula, type Value, type Where } from './symbolic.js';

export { SpecError, Unsupported, type Formula, type Obligation, type ParamSymbol } from './symbolic.js';

/**
 * The formal gate's translator: the Babel AST of a JavaScript or TypeScript file, read on the host
 * and never executed, is executed symbolically into SMT-LIB 2 terms for a documented subset
 * (docs/witness-pack.md, "The formal block"). Pure.
 *
 * Anything outside the subset throws `Unsupported` with a reason: the gate's status is then
 * `unknown`, never `not_applicable`, so a candidate cannot escape the gate by writing code the
 * translator does not know.
 */

// Babel's AST, loosely: the translator checks every node's `type` before it reads a field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = { type: string; loc?: { start: { line: number } } | null; [key: string]: any };

const JS_EXT = /\.(c|m)?jsx?$/;
const TS_EXT = /\.(c|m)?tsx?$/;

/** Parse a candidate's file; a syntax error is `unknown` (the gate cannot say what runs). */
export function parseSource(text: string, file: string): Node {
  if (!JS_EXT.test(file) && !TS_EXT.test(file)) throw new Unsupported(`${file} is not a JavaScript or TypeScript file`);
  const typed = TS_EXT.test(file);
  const jsx = file.endsWith('x');
  try {
    return parse(text, {
      sourceType: 'unambiguous',
      errorRecovery: false,
      plugins: [...(typed ? (['typescript'] as const) : []), ...(jsx ? (['jsx'] as const) : []), 'decorators']
    }).program;
  } catch (error) {
    throw new Unsupported(`${file} does not parse: ${(error as Error).message}`);
  }
}

/** Builtins the subset calls: their meaning is the standard one only if nothing rebinds them. */
const BUILTIN_OBJECTS = new Set(['Math']);
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);
const MUTATORS = new Set(['defineProperty', 'defineProperties', 'assign', 'setPrototypeOf', 'set', 'deleteProperty']);

/** Visit every node of a tree. */
function walk(node: unknown, visit: (node: Node, parent: Node | undefined) => void, parent?: Node): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit, parent);
    return;
  }
  if (typeof node !== 'object' || node === null || typeof (node as Node).type !== 'string') return;
  const n = node as Node;
  visit(n, parent);
  for (const key of Object.keys(n)) {
    if (key === 'loc' || key === 'start' || key === 'end' || key === 'extra' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
    walk(n[key], visit, n);
  }
}

function isMathRef(node: Node): boolean {
  if (node.type === 'Identifier') return BUILTIN_OBJECTS.has(node.name);
  if (node.type === 'MemberExpression' && !node.computed && node.object.type === 'Identifier' && GLOBAL_OBJECTS.has(node.object.name)) {
    return node.property.type === 'Identifier' && BUILTIN_OBJECTS.has(node.property.name);
  }
  return false;
}

/**
 * The file-level reasons the proof would not be about the code that runs: a rebound or shadowed
 * builtin (`Math.max = …`, a binding named `Math`, `Object.defineProperty(Math, …)`), a decorator,
 * a getter or setter, and `eval`/`with`. The same scan runs on every JS/TS file the candidate
 * changes (a file that rebinds `Math.max` elsewhere changes what the target computes).
 */
export function integrityProblems(program: Node): string[] {
  const problems: string[] = [];
  const at = (node: Node): string => (node.loc ? ` (line ${node.loc.start.line})` : '');
  walk(program, (node, parent) => {
    if (node.type === 'Decorator') problems.push(`a decorator${at(node)}`);
    if ((node.type === 'ObjectMethod' || node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod') && (node.kind === 'get' || node.kind === 'set')) {
      problems.push(`a ${node.kind}ter${at(node)}`);
    }
    if (node.type === 'WithStatement') problems.push(`a with statement${at(node)}`);
    if (node.type === 'Identifier' && node.name === 'eval') problems.push(`eval${at(node)}`);
    // A binding named Math anywhere (a parameter, a variable, an import, a function, a class).
    if (node.type === 'Identifier' && BUILTIN_OBJECTS.has(node.name) && parent !== undefined) {
      const member = parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression';
      const asProperty = (member && parent.property === node && !parent.computed) || (parent.type === 'ObjectProperty' && parent.key === node && !parent.computed);
      if (!(member && parent.object === node) && !asProperty) problems.push(`${node.name} is bound or passed around${at(node)}`);
    }
    // A write to Math or one of its members.
    if (node.type === 'AssignmentExpression' || node.type === 'UpdateExpression' || node.type === 'UnaryExpression') {
      const target: Node | undefined =
        node.type === 'AssignmentExpression' ? node.left : node.type === 'UpdateExpression' ? node.argument : node.operator === 'delete' ? node.argument : undefined;
      if (target !== undefined) {
        const base = target.type === 'MemberExpression' ? target.object : target;
        if (isMathRef(base) || isMathRef(target)) problems.push(`a write to Math${at(node)}`);
      }
    }
    // Object.defineProperty(Math, …), Reflect.set(Math, …), Object.assign(Math, …).
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && !node.callee.computed && node.callee.property.type === 'Identifier') {
      const first = node.arguments[0];
      if (MUTATORS.has(node.callee.property.name) && first !== undefined && (isMathRef(first) || (first.type === 'MemberExpression' && isMathRef(first.object)))) {
        problems.push(`${node.callee.property.name} on Math${at(node)}`);
      }
    }
    // A global object's Math reached by computed access (globalThis['Ma' + 'th']).
    if (node.type === 'MemberExpression' && node.computed && node.object.type === 'Identifier' && GLOBAL_OBJECTS.has(node.object.name)) {
      problems.push(`computed access to ${node.object.name}${at(node)}`);
    }
  });
  return [...new Set(problems)];
}

/** The target's one definition in the file, or why there is not exactly one. */
export function findTarget(program: Node, name: string): Node {
  const definitions: Node[] = [];
  const others: string[] = [];
  const at = (node: Node): string => (node.loc ? ` (line ${node.loc.start.line})` : '');
  for (const raw of program.body as Node[]) {
    let statement = raw;
    if (statement.type === 'ExportNamedDeclaration') {
      if (statement.source) {
        if ((statement.specifiers as Node[]).some((s) => exportedName(s) === name)) others.push(`a re-export of ${name} from ${statement.source.value}${at(statement)}`);
        continue;
      }
      for (const specifier of statement.specifiers as Node[]) {
        if (exportedName(specifier) === name && specifier.local?.name !== name) others.push(`${name} exported as another binding${at(specifier)}`);
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
  // A write to the name anywhere (name = …, exports.name = …, module.exports = …) redefines what runs.
  walk(program, (node) => {
    if (node.type !== 'AssignmentExpression') return;
    const left = node.left as Node;
    if (left.type === 'Identifier' && left.name === name) others.push(`an assignment to ${name}${at(node)}`);
    if (left.type === 'MemberExpression') {
      const prop = left.property as Node;
      const propName = !left.computed && prop.type === 'Identifier' ? prop.name : prop.type === 'StringLiteral' ? prop.value : undefined;
      if (propName === name) others.push(`an assignment to .${name}${at(node)}`);
      // exports[k] = …, module.exports[k] = …, globalThis[k] = …: which name is written is not known.
      const holder = left.object as Node;
      const exportsLike = (holder.type === 'Identifier' && (holder.name === 'exports' || GLOBAL_OBJECTS.has(holder.name))) || holder.type === 'MemberExpression';
      if (left.computed && prop.type !== 'StringLiteral' && prop.type !== 'NumericLiteral' && exportsLike) others.push(`a computed member assignment${at(node)}`);
      if (left.object.type === 'Identifier' && left.object.name === 'module' && propName === 'exports') others.push(`an assignment to module.exports${at(node)}`);
    }
  });
  if (definitions.length === 0 && others.length === 0) throw new Unsupported(`no top-level function ${name} (renamed or deleted?)`);
  if (definitions.length > 1) throw new Unsupported(`${definitions.length} definitions of ${name}`);
  if (others.length > 0) throw new Unsupported(`${name} is defined in a way the gate does not follow: ${others[0]}`);
  return definitions[0]!;
}

function exportedName(specifier: Node): string | undefined {
  const exported = specifier.exported as Node | undefined;
  if (exported === undefined) return undefined;
  return exported.type === 'Identifier' ? exported.name : exported.value;
}

interface Binding {
  value: Value;
  constant: boolean;
}

const MATH_FUNCTIONS = new Set(['min', 'max', 'abs', 'trunc']);

/** Translate a target: its candidate source (or a spec-only formula when `source` is undefined). */
export function translate(target: FormalTarget, source: { text: string; file: string } | undefined): Formula {
  return new Translator(target).run(source);
}

/** JS semantics over the shared symbolic state (src/formal/symbolic.ts): safe integers, block scopes. */
class Translator extends SymbolicExecution<Node> {
  private scopes: Map<string, Binding>[] = [];

  constructor(target: FormalTarget) {
    super(target, 'safe', 'array');
  }

  protected where(node: Node): Where {
    return node;
  }

  /** The spec's own expressions: JavaScript, parsed with Babel, over the entry values and `result`. */
  protected spec(text: string, entry: ReadonlyMap<string, Value>, result: Value | undefined): string {
    let node: Node;
    try {
      node = parseExpression(text, { plugins: [] });
    } catch (error) {
      throw new SpecError(`${JSON.stringify(text)} does not parse: ${(error as Error).message}`);
    }
    const scope = new Map([...entry].map(([name, value]): [string, Binding] => [name, { value, constant: false }]));
    if (result !== undefined) scope.set('result', { value: result, constant: true });
    this.scopes = [scope];
    try {
      return this.truthy(this.expr(node, 'true'), node);
    } catch (error) {
      if (error instanceof Unsupported) throw new SpecError(`${JSON.stringify(text)} is outside the subset: ${error.message}`);
      throw error;
    }
  }

  protected body(source: { text: string; file: string }, entry: ReadonlyMap<string, Value>): string {
    const program = parseSource(source.text, source.file);
    const problems = integrityProblems(program);
    if (problems.length > 0) throw new Unsupported(`${source.file}: ${problems[0]}`);
    const fn = findTarget(program, this.target.function);
    if (fn.async || fn.generator) throw new Unsupported(`${this.target.function} is async or a generator`, fn);
    if (fn.params.length !== this.target.params.length)
      throw new Unsupported(`${this.target.function} takes ${fn.params.length} parameters, the spec ${this.target.params.length}`, fn);
    const scope = new Map<string, Binding>();
    (fn.params as Node[]).forEach((param, index) => {
      const p = param.type === 'TSParameterProperty' ? param.parameter : param;
      if (p.type !== 'Identifier') throw new Unsupported(`parameter ${index + 1} is not a plain name`, p);
      const specName = this.target.params[index]!.name;
      // Positions bind: the spec's name for parameter i is the code's parameter i.
      scope.set(p.name, { value: entry.get(specName)!, constant: false });
    });
    this.scopes = [scope];
    if (fn.body.type !== 'BlockStatement') {
      const value = this.expr(fn.body, 'true');
      this.returnValue(value, 'true', fn.body);
    } else {
      this.block(fn.body.body, 'true');
    }
    return this.finish(`${this.target.function} returns on every path`, fn);
  }

  private lookup(name: string, node: Node): Binding {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const binding = this.scopes[i]!.get(name);
      if (binding !== undefined) return binding;
    }
    throw new Unsupported(`${name} is not a parameter or local of the target`, node);
  }

  private block(statements: Node[], guard: string): void {
    this.scopes.push(new Map());
    for (const statement of statements) this.statement(statement, guard);
    this.scopes.pop();
  }

  private statement(node: Node, guard: string): void {
    switch (node.type) {
      case 'EmptyStatement':
        return;
      case 'BlockStatement':
        this.block(node.body, guard);
        return;
      case 'VariableDeclaration': {
        if (node.kind !== 'let' && node.kind !== 'const') throw new Unsupported(`a ${node.kind} declaration`, node);
        for (const declarator of node.declarations as Node[]) {
          if (declarator.id.type !== 'Identifier') throw new Unsupported('a destructuring declaration', declarator);
          if (!declarator.init) throw new Unsupported(`${declarator.id.name} declared without a value`, declarator);
          if (declarator.init.type === 'Identifier' && this.lookup(declarator.init.name, declarator.init).value.k === 'arr') {
            throw new Unsupported('an array bound to a second name (aliasing)', declarator);
          }
          const value = this.expr(declarator.init, this.active(guard));
          if (value.k === 'arr') throw new Unsupported('an array value in a local', declarator);
          const scope = this.scopes[this.scopes.length - 1]!;
          if (scope.has(declarator.id.name)) throw new Unsupported(`${declarator.id.name} declared twice`, declarator);
          scope.set(declarator.id.name, { value: this.named(value), constant: node.kind === 'const' });
        }
        return;
      }
      case 'ExpressionStatement':
        this.effect(node.expression, guard);
        return;
      case 'IfStatement': {
        const condition = this.define('c', 'Bool', this.truthy(this.expr(node.test, this.active(guard)), node.test));
        this.scoped(node.consequent, and(guard, condition));
        if (node.alternate) this.scoped(node.alternate, and(guard, not(condition)));
        return;
      }
      case 'ReturnStatement': {
        if (!node.argument) throw new Unsupported('a return without a value', node);
        const g = this.active(guard);
        this.returnValue(this.expr(node.argument, g), g, node);
        return;
      }
      case 'WhileStatement':
        this.loop(guard, node.test, node.body, undefined, node);
        return;
      case 'ForStatement': {
        this.scopes.push(new Map());
        if (node.init) {
          if (node.init.type === 'VariableDeclaration') this.statement(node.init, guard);
          else this.effect(node.init, guard);
        }
        this.loop(guard, node.test ?? undefined, node.body, node.update ?? undefined, node);
        this.scopes.pop();
        return;
      }
      case 'BreakStatement':
      case 'ContinueStatement': {
        if (node.label) throw new Unsupported('a labelled break or continue', node);
        const kind = node.type === 'BreakStatement' ? 'break' : 'continue';
        this.jump(kind, guard, node, kind);
        return;
      }
      default:
        throw new Unsupported(`a ${node.type}`, node);
    }
  }

  /** A branch body: its own block scope when it is a single statement too. */
  private scoped(node: Node, guard: string): void {
    if (node.type === 'BlockStatement') this.block(node.body, guard);
    else this.block([node], guard);
  }

  /** `for`/`while`: the test before each iteration, the body, then the update. */
  private loop(guard: string, test: Node | undefined, body: Node, update: Node | undefined, node: Node): void {
    this.unroll(
      guard,
      {
        condition: (entry) => (test === undefined ? 'true' : this.define('c', 'Bool', this.truthy(this.expr(test, this.active(entry)), test))),
        iteration: (_k, entry) => {
          this.scoped(body, entry);
          this.flags.cnt = 'false';
          if (update !== undefined) this.effect(update, entry);
        },
        iterations: this.target.bounds.unroll,
        bounded: false
      },
      node
    );
  }

  /** Statements that are expressions: assignments and ++/--, alone or in a sequence (for updates). */
  private effect(node: Node, guard: string): void {
    if (node.type === 'SequenceExpression') {
      for (const e of node.expressions as Node[]) this.effect(e, guard);
      return;
    }
    const g = this.active(guard);
    if (node.type === 'UpdateExpression') {
      const current = this.expr(node.argument, g);
      if (current.k !== 'int') throw new Unsupported(`${node.operator} on a non-integer`, node);
      const next = this.define('v', 'Int', app(node.operator === '++' ? '+' : '-', current.t, '1'));
      this.oblige('model', g, inSafeRange(next), SAFE_INTEGER, node);
      this.assign(node.argument, { k: 'int', t: next }, g);
      return;
    }
    if (node.type === 'AssignmentExpression') {
      let value: Value;
      if (node.operator === '=') value = this.expr(node.right, g);
      else {
        const op = node.operator.slice(0, -1);
        if (!['+', '-', '*', '%'].includes(op)) throw new Unsupported(`the ${node.operator} operator`, node);
        value = this.binary(op, node.left, node.right, g, node);
      }
      if (value.k === 'arr') throw new Unsupported('an array assigned', node);
      this.assign(node.left, value, g);
      return;
    }
    throw new Unsupported(`a ${node.type} as a statement`, node);
  }

  private assign(left: Node, value: Value, guard: string): void {
    if (left.type === 'Identifier') {
      const binding = this.lookup(left.name, left);
      if (binding.constant) throw new Unsupported(`an assignment to the constant ${left.name}`, left);
      if (binding.value.k !== value.k) throw new Unsupported(`${left.name} changes type`, left);
      binding.value = { k: value.k, t: this.define('v', value.k === 'int' ? 'Int' : 'Bool', ite(guard, (value as { t: string }).t, (binding.value as { t: string }).t)) } as Value;
      return;
    }
    if (left.type === 'MemberExpression' && left.computed && left.object.type === 'Identifier') {
      const binding = this.lookup(left.object.name, left.object);
      if (binding.value.k !== 'arr') throw new Unsupported('an indexed write to a non-array', left);
      if (value.k !== 'int') throw new Unsupported('a non-integer written into an integer array', left);
      const index = this.expr(left.property, guard);
      if (index.k !== 'int') throw new Unsupported('a non-integer index', left);
      const array = binding.value;
      this.oblige('bounds', guard, and(`(<= 0 ${index.t})`, `(< ${index.t} ${array.len})`), `the write ${left.object.name}[…] is inside the array`, left);
      const elems = array.elems.map((e, i) => this.define('e', 'Int', ite(and(guard, `(= ${index.t} ${i})`), value.t, e)));
      binding.value = { k: 'arr', elems, len: array.len };
      return;
    }
    throw new Unsupported('an assignment to something other than a local or an array element', left);
  }

  private truthy(value: Value, node: Node): string {
    if (value.k === 'bool') return value.t;
    if (value.k === 'int') return `(not (= ${value.t} 0))`;
    throw new Unsupported('an array used as a condition', node);
  }

  private integer(node: Node, guard: string): string {
    const value = this.expr(node, guard);
    if (value.k !== 'int') throw new Unsupported(`a ${value.k === 'arr' ? 'array' : 'boolean'} where an integer is needed`, node);
    return value.t;
  }

  private arith(term: string, guard: string, node: Node): Value {
    const name = this.define('v', 'Int', term);
    this.oblige('model', guard, inSafeRange(name), SAFE_INTEGER, node);
    return { k: 'int', t: name };
  }

  private binary(op: string, leftNode: Node, rightNode: Node, guard: string, node: Node): Value {
    const left = this.expr(leftNode, guard);
    const right = this.expr(rightNode, guard);
    switch (op) {
      case '+':
      case '-':
      case '*':
        if (left.k !== 'int' || right.k !== 'int') throw new Unsupported(`${op} on a non-integer`, node);
        return this.arith(app(op, left.t, right.t), guard, node);
      case '%':
        if (left.k !== 'int' || right.k !== 'int') throw new Unsupported('% on a non-integer', node);
        this.oblige('model', guard, `(not (= ${right.t} 0))`, 'no remainder by zero (NaN)', node);
        return { k: 'int', t: this.define('v', 'Int', jsRem(left.t, right.t)) };
      case '<':
      case '<=':
      case '>':
      case '>=':
        if (left.k !== 'int' || right.k !== 'int') throw new Unsupported(`${op} on a non-integer`, node);
        return { k: 'bool', t: app(op, left.t, right.t) };
      case '===':
      case '!==':
      case '==':
      case '!=':
        return { k: 'bool', t: this.equality(op, left, right, node) };
      default:
        throw new Unsupported(`the ${op} operator`, node);
    }
  }

  private expr(node: Node, guard: string): Value {
    switch (node.type) {
      case 'NumericLiteral': {
        if (!Number.isSafeInteger(node.value)) throw new Unsupported(`the number ${node.value} (not a safe integer)`, node);
        return { k: 'int', t: int(node.value) };
      }
      case 'BooleanLiteral':
        return { k: 'bool', t: node.value ? 'true' : 'false' };
      case 'Identifier':
        return this.lookup(node.name, node).value;
      case 'ParenthesizedExpression':
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
      case 'TSSatisfiesExpression':
        return this.expr(node.expression, guard);
      case 'UnaryExpression': {
        if (node.operator === '!') return { k: 'bool', t: not(this.truthy(this.expr(node.argument, guard), node.argument)) };
        if (node.operator === '-') return { k: 'int', t: this.define('v', 'Int', `(- ${this.integer(node.argument, guard)})`) };
        throw new Unsupported(`the unary ${node.operator} operator`, node);
      }
      case 'BinaryExpression':
        return this.binary(node.operator, node.left, node.right, guard, node);
      case 'LogicalExpression': {
        if (node.operator === '??') throw new Unsupported('the ?? operator', node);
        const left = this.expr(node.left, guard);
        if (left.k !== 'bool') throw new Unsupported(`${node.operator} on a non-boolean (it yields an operand, not a boolean)`, node);
        const right = this.expr(node.right, and(guard, node.operator === '&&' ? left.t : not(left.t)));
        if (right.k !== 'bool') throw new Unsupported(`${node.operator} on a non-boolean`, node);
        return { k: 'bool', t: node.operator === '&&' ? and(left.t, right.t) : or(left.t, right.t) };
      }
      case 'ConditionalExpression': {
        const test = this.define('c', 'Bool', this.truthy(this.expr(node.test, guard), node.test));
        const a = this.expr(node.consequent, and(guard, test));
        const b = this.expr(node.alternate, and(guard, not(test)));
        return this.choice(test, a, b, 'a ternary', node);
      }
      case 'MemberExpression': {
        if (node.object.type !== 'Identifier') throw new Unsupported('a member of something other than a local', node);
        const binding = this.lookup(node.object.name, node.object);
        if (binding.value.k !== 'arr') throw new Unsupported(`a member of the non-array ${node.object.name}`, node);
        const array = binding.value;
        if (!node.computed) {
          if (node.property.type === 'Identifier' && node.property.name === 'length') return { k: 'int', t: array.len };
          throw new Unsupported(`the member ${node.property.name ?? '?'} of an array`, node);
        }
        const index = this.integer(node.property, guard);
        this.oblige('bounds', guard, and(`(<= 0 ${index})`, `(< ${index} ${array.len})`), `the read ${node.object.name}[…] is inside the array`, node);
        return { k: 'int', t: this.define('v', 'Int', this.select(array, index)) };
      }
      case 'CallExpression':
        return this.call(node, guard);
      default:
        throw new Unsupported(`a ${node.type}`, node);
    }
  }

  private call(node: Node, guard: string): Value {
    const callee = node.callee as Node;
    const args = node.arguments as Node[];
    if (args.some((a) => a.type === 'SpreadElement')) throw new Unsupported('a spread argument', node);
    if (callee.type === 'MemberExpression' && !callee.computed && callee.object.type === 'Identifier' && callee.object.name === 'Math' && callee.property.type === 'Identifier') {
      // Math is the global: integrityProblems refused the file if anything binds or writes it, and the
      // scopes hold parameters and locals only.
      if (this.scopes.some((scope) => scope.has('Math'))) throw new Unsupported('a local named Math', node);
      const fn = callee.property.name as string;
      if (!MATH_FUNCTIONS.has(fn)) throw new Unsupported(`Math.${fn}`, node);
      if (fn === 'trunc') {
        const arg = args[0];
        if (args.length !== 1 || arg === undefined || arg.type !== 'BinaryExpression' || arg.operator !== '/') throw new Unsupported('Math.trunc of anything but a / b', node);
        const a = this.integer(arg.left, guard);
        const b = this.integer(arg.right, guard);
        this.oblige('model', guard, `(not (= ${b} 0))`, 'no division by zero', node);
        return { k: 'int', t: this.define('v', 'Int', truncDiv(a, b)) };
      }
      if (fn === 'abs') {
        if (args.length !== 1) throw new Unsupported('Math.abs with other than one argument', node);
        return this.absolute(this.integer(args[0]!, guard));
      }
      if (args.length === 0) throw new Unsupported(`Math.${fn}() (an infinity)`, node);
      return this.minMax(
        fn as 'min' | 'max',
        args.map((a) => this.integer(a, guard))
      );
    }
    if (this.specMode && callee.type === 'MemberExpression' && !callee.computed && callee.object.type === 'Identifier' && callee.property.type === 'Identifier') {
      const name = callee.property.name as string;
      if (name === 'every' || name === 'some') return this.quantifier(name, callee.object, args, guard, node);
    }
    throw new Unsupported('a call other than Math.min, Math.max, Math.abs, Math.trunc(a / b)', node);
  }

  /** Specs only: a.every((x, i) => …) and a.some(…), expanded over the bounded length. */
  private quantifier(name: 'every' | 'some', object: Node, args: Node[], guard: string, node: Node): Value {
    const binding = this.lookup(object.name, object);
    const fn = args[0];
    if (binding.value.k !== 'arr' || args.length !== 1 || fn === undefined || fn.type !== 'ArrowFunctionExpression' || fn.body.type === 'BlockStatement') {
      throw new Unsupported(`${name} takes one arrow function with an expression body, on an int[] parameter`, node);
    }
    const params = fn.params as Node[];
    if (params.length > 2 || params.some((p) => p.type !== 'Identifier')) throw new Unsupported(`${name}'s callback takes (x) or (x, i)`, node);
    return this.expand(name, binding.value, (element, k, inRange) => {
      const scope = new Map<string, Binding>();
      if (params[0]) scope.set(params[0].name, { value: { k: 'int', t: element }, constant: true });
      if (params[1]) scope.set(params[1].name, { value: { k: 'int', t: int(k) }, constant: true });
      this.scopes.push(scope);
      const holds = this.truthy(this.expr(fn.body, and(guard, inRange)), fn.body);
      this.scopes.pop();
      return { kept: 'true', holds };
    });
  }
}
