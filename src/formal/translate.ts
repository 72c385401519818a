import { parseExpression } from '@babel/parser';
import type { FormalTarget } from './spec.js';
import { and, app, inSafeRange, int, ite, jsRem, not, or, truncDiv } from './smt.js';
import { construct, SAFE_INTEGER, SpecError, SymbolicExecution, Unsupported, type Formula, type Value, type Where } from './symbolic.js';
import { findTarget, integrityProblems, parseSource, type Node } from './js-integrity.js';

export { SpecError, Unsupported, type Formula, type Obligation, type ParamSymbol } from './symbolic.js';
export { findTarget, globalProblems, integrityProblems, parseSource } from './js-integrity.js';

/**
 * The formal gate's translator: the Babel AST of a JavaScript or TypeScript file, read on the host
 * and never executed, is executed symbolically into SMT-LIB 2 terms for a documented subset
 * (docs/witness-pack.md, "The formal block"). Pure.
 *
 * Anything outside the subset throws `Unsupported` with a reason: the gate's status is then
 * `unknown`, never `not_applicable`, so a candidate cannot escape the gate by writing code the
 * translator does not know.
 */

interface Binding {
  value: Value;
  constant: boolean;
  /**
   * False from the start of its block until its declaration runs (the temporal dead zone): a read
   * or a write there throws ReferenceError, whatever an outer binding of the name holds.
   */
  initialized: boolean;
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
    const scope = new Map([...entry].map(([name, value]): [string, Binding] => [name, { value, constant: false, initialized: true }]));
    if (result !== undefined) scope.set('result', { value: result, constant: true, initialized: true });
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
    this.scopes = [scope];
    (fn.params as Node[]).forEach((param, index) => {
      const p = param.type === 'TSParameterProperty' ? param.parameter : param;
      const id = p.type === 'AssignmentPattern' ? p.left : p;
      if (id.type !== 'Identifier') throw new Unsupported(`parameter ${index + 1} is not a plain name (or a name with a default value)`, p);
      const specName = this.target.params[index]!.name;
      // Positions bind: the spec's name for parameter i is the code's parameter i.
      let value = entry.get(specName)!;
      if (p.type === 'AssignmentPattern' && value.k === 'opt') {
        // The default runs only when the argument is undefined, and sees the parameters before it.
        const fallback = this.expr(p.right, not(value.def));
        if (fallback.k === 'opt' || fallback.k !== value.of) throw new Unsupported(`the default of ${id.name} is not a${value.of === 'int' ? 'n int' : ' bool'}`, p.right);
        value = { k: value.of, t: this.define('v', value.of === 'int' ? 'Int' : 'Bool', ite(value.def, value.t, fallback.t)) };
      }
      // A default of a parameter the spec always passes never runs.
      scope.set(id.name, { value, constant: false, initialized: true });
    });
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

  /**
   * A binding that is read or written where `guard` holds: inside its temporal dead zone that
   * throws ReferenceError, a bug the counterexample shows (the name never falls through to an
   * outer binding of the same name, as it would if the block's declarations were not hoisted).
   */
  private reached(name: string, node: Node, guard: string): Binding {
    const binding = this.lookup(name, node);
    if (!binding.initialized) this.oblige('bounds', guard, 'false', `${name} is not used before its declaration (else ReferenceError)`, node);
    return binding;
  }

  /** The `let`/`const` names a block's statements declare: they exist, uninitialized, from the block's start. */
  private hoist(statements: Node[]): Map<string, Binding> {
    const scope = new Map<string, Binding>();
    for (const statement of statements) {
      if (statement.type !== 'VariableDeclaration' || (statement.kind !== 'let' && statement.kind !== 'const')) continue;
      for (const declarator of statement.declarations as Node[]) {
        if (declarator.id.type !== 'Identifier') continue;
        // The type is not known before the initializer runs: a dead-zone read is an int, and the path throws anyway.
        scope.set(declarator.id.name, { value: { k: 'int', t: this.declare(`tdz_${this.counter++}`, 'Int') }, constant: statement.kind === 'const', initialized: false });
      }
    }
    return scope;
  }

  private block(statements: Node[], guard: string): void {
    this.scopes.push(this.hoist(statements));
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
        const scope = this.scopes[this.scopes.length - 1]!;
        // A declaration the block did not hoist (a for loop's): its names are in their dead zone until declared too.
        for (const [name, binding] of this.hoist([node])) if (!scope.has(name)) scope.set(name, binding);
        for (const declarator of node.declarations as Node[]) {
          if (declarator.id.type !== 'Identifier') throw new Unsupported('a destructuring declaration', declarator);
          if (!declarator.init) throw new Unsupported(`${declarator.id.name} declared without a value`, declarator);
          if (declarator.init.type === 'Identifier' && this.lookup(declarator.init.name, declarator.init).value.k === 'arr') {
            throw new Unsupported('an array bound to a second name (aliasing)', declarator);
          }
          // The initializer runs with the name still in its dead zone (`let x = x + 1` throws).
          const value = this.expr(declarator.init, this.active(guard));
          if (value.k === 'arr') throw new Unsupported('an array value in a local', declarator);
          const binding = scope.get(declarator.id.name);
          if (binding === undefined || binding.initialized) throw new Unsupported(`${declarator.id.name} declared twice`, declarator);
          scope.set(declarator.id.name, { value: this.named(value), constant: node.kind === 'const', initialized: true });
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
        throw new Unsupported(construct(node.type), node);
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
    throw new Unsupported(`${construct(node.type)} as a statement`, node);
  }

  private assign(left: Node, value: Value, guard: string): void {
    if (left.type === 'Identifier') {
      const binding = this.reached(left.name, left, guard);
      if (binding.constant) throw new Unsupported(`an assignment to the constant ${left.name}`, left);
      const old = binding.value;
      if (old.k === 'opt') {
        // A name that may be undefined (`if (end === undefined) end = n;`): defined where this ran.
        const kind = value.k === 'opt' ? value.of : value.k;
        if (kind !== old.of) throw new Unsupported(`${left.name} changes type`, left);
        const def = value.k === 'opt' ? value.def : 'true';
        binding.value = {
          k: 'opt',
          of: old.of,
          def: this.define('d', 'Bool', ite(guard, def, old.def)),
          t: this.define('v', old.of === 'int' ? 'Int' : 'Bool', ite(guard, (value as { t: string }).t, old.t))
        };
        return;
      }
      if (value.k === 'opt') throw new Unsupported(`${left.name} may become undefined`, left);
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
    // undefined is falsy.
    if (value.k === 'opt') return and(value.def, value.of === 'bool' ? value.t : `(not (= ${value.t} 0))`);
    throw new Unsupported('an array used as a condition', node);
  }

  /** A value that may be undefined, as its int or bool where `guard` holds (JS makes undefined NaN or false: outside the model). */
  private defined(value: Value, guard: string, node: Node): Value {
    if (value.k !== 'opt') return value;
    const name = node.type === 'Identifier' ? (node.name as string) : 'a value that may be undefined';
    return this.definedOr(value, guard, node, 'model', `${name} is defined where it is used as a${value.of === 'int' ? ' number' : ' boolean'}`);
  }

  private integer(node: Node, guard: string): string {
    const value = this.defined(this.expr(node, guard), guard, node);
    if (value.k !== 'int') throw new Unsupported(`a ${value.k === 'arr' ? 'array' : 'boolean'} where an integer is needed`, node);
    return value.t;
  }

  /**
   * Comparisons with `undefined` and `null`, and `typeof` tests (issue 29): `x === undefined`,
   * `x == null`, `x !== void 0`, `typeof x === 'number'`. The model has no null: a parameter is its
   * type or, when optional, undefined. Undefined when the comparison is not one of these.
   */
  private absence(op: string, leftNode: Node, rightNode: Node, guard: string): Value | undefined {
    if (!['===', '!==', '==', '!='].includes(op)) return undefined;
    const negated = op.startsWith('!');
    const loose = op.length === 2;
    const isUndefined = (n: Node): boolean =>
      (n.type === 'Identifier' && n.name === 'undefined') || (n.type === 'UnaryExpression' && n.operator === 'void' && n.argument.type === 'NumericLiteral');
    const isNull = (n: Node): boolean => n.type === 'NullLiteral';
    const typeOf = (n: Node): boolean => n.type === 'UnaryExpression' && n.operator === 'typeof';
    const result = (t: string): Value => ({ k: 'bool', t: negated ? not(t) : t });
    const defOf = (n: Node): string => {
      const value = this.expr(n, guard);
      if (value.k === 'arr') throw new Unsupported('an array compared with undefined or null', n);
      return value.k === 'opt' ? value.def : 'true';
    };
    for (const [a, b] of [
      [leftNode, rightNode],
      [rightNode, leftNode]
    ] as const) {
      // undefined == null in a loose comparison; an int or bool is neither.
      if (isUndefined(b) || (loose && isNull(b))) return isUndefined(a) || (loose && isNull(a)) ? result('true') : result(not(defOf(a)));
      if (isNull(b)) return result(isNull(a) ? 'true' : 'false');
      if (typeOf(a) && b.type === 'StringLiteral') {
        const value = this.expr(a.argument, guard);
        const kind = value.k === 'opt' ? value.of : value.k;
        const name = kind === 'int' ? 'number' : kind === 'bool' ? 'boolean' : 'object';
        const def = value.k === 'opt' ? value.def : 'true';
        if (b.value === 'undefined') return result(not(def));
        return result(b.value === name ? def : 'false');
      }
    }
    return undefined;
  }

  private arith(term: string, guard: string, node: Node): Value {
    const name = this.define('v', 'Int', term);
    this.oblige('model', guard, inSafeRange(name), SAFE_INTEGER, node);
    return { k: 'int', t: name };
  }

  private binary(op: string, leftNode: Node, rightNode: Node, guard: string, node: Node): Value {
    const absent = this.absence(op, leftNode, rightNode, guard);
    if (absent !== undefined) return absent;
    const rawLeft = this.expr(leftNode, guard);
    const rawRight = this.expr(rightNode, guard);
    // undefined compared with < <= > >= is false (NaN); === and !== compare it as a value.
    if (['<', '<=', '>', '>='].includes(op) && (rawLeft.k === 'opt' || rawRight.k === 'opt')) {
      const defs = [rawLeft, rawRight].map((v) => (v.k === 'opt' ? v.def : 'true'));
      const [l, r] = [rawLeft, rawRight].map((v) => (v.k === 'opt' ? { k: v.of, t: v.t } : v)) as [Value, Value];
      if (l.k !== 'int' || r.k !== 'int') throw new Unsupported(`${op} on a non-integer`, node);
      return { k: 'bool', t: and(...defs, app(op, l.t, r.t)) };
    }
    if (['===', '!==', '==', '!='].includes(op)) return { k: 'bool', t: this.equality(op, rawLeft, rawRight, node) };
    const left = this.defined(rawLeft, guard, leftNode);
    const right = this.defined(rawRight, guard, rightNode);
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
        return this.reached(node.name, node, guard).value;
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
        if (node.operator === '??') {
          // The right side runs only where the left is undefined (the model has no null).
          const left = this.expr(node.left, guard);
          if (left.k !== 'opt') {
            if (left.k === 'arr') throw new Unsupported('?? on an array', node);
            return left;
          }
          const right = this.expr(node.right, and(guard, not(left.def)));
          const kind = right.k === 'opt' ? right.of : right.k;
          if (kind !== left.of) throw new Unsupported('?? whose sides differ in type', node);
          if (right.k === 'opt') return { k: 'opt', of: left.of, def: or(left.def, right.def), t: ite(left.def, left.t, right.t) };
          return { k: left.of, t: this.define('v', left.of === 'int' ? 'Int' : 'Bool', ite(left.def, left.t, (right as { t: string }).t)) };
        }
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
        throw new Unsupported(construct(node.type), node);
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
      if (params[0]) scope.set(params[0].name, { value: { k: 'int', t: element }, constant: true, initialized: true });
      if (params[1]) scope.set(params[1].name, { value: { k: 'int', t: int(k) }, constant: true, initialized: true });
      this.scopes.push(scope);
      const holds = this.truthy(this.expr(fn.body, and(guard, inRange)), fn.body);
      this.scopes.pop();
      return { kept: 'true', holds };
    });
  }
}

/**
 * The largest length of the int[] parameter `param` that one `requires` expression allows, when it
 * says so plainly (`a.length <= 4`, `a.length < 5`, `a.length === 3`, `4 >= a.length`, and within
 * `&&`); undefined when it does not bound it. Used to tell a proof for every length from one that
 * holds only up to the model's bound (src/formal/gate.ts).
 */
export function jsLengthBound(text: string, param: string): number | undefined {
  let node: Node;
  try {
    node = parseExpression(text, { plugins: [] });
  } catch {
    return undefined;
  }
  const isLength = (n: Node): boolean =>
    n.type === 'MemberExpression' && !n.computed && n.object.type === 'Identifier' && n.object.name === param && n.property.type === 'Identifier' && n.property.name === 'length';
  const literal = (n: Node): number | undefined => (n.type === 'NumericLiteral' && Number.isSafeInteger(n.value) ? (n.value as number) : undefined);
  const bound = (n: Node): number | undefined => {
    if (n.type === 'ParenthesizedExpression') return bound(n.expression);
    if (n.type === 'LogicalExpression' && n.operator === '&&') {
      const found = [bound(n.left), bound(n.right)].filter((b): b is number => b !== undefined);
      return found.length === 0 ? undefined : Math.min(...found);
    }
    if (n.type !== 'BinaryExpression') return undefined;
    const op = n.operator as string;
    const right = literal(n.right);
    const left = literal(n.left);
    if (isLength(n.left) && right !== undefined) return op === '<=' || op === '===' || op === '==' ? right : op === '<' ? right - 1 : undefined;
    if (isLength(n.right) && left !== undefined) return op === '>=' || op === '===' || op === '==' ? left : op === '>' ? left - 1 : undefined;
    return undefined;
  };
  return bound(node);
}
