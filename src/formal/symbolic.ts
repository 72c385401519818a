import type { IntegerModel } from '../core/formal.js';
import type { FormalTarget } from './spec.js';
import { and, app, implies, inSafeRange, ite, not, or } from './smt.js';

/**
 * What the formal gate's two front ends share (src/formal/translate.ts for JS/TS,
 * src/formal/translate-python.ts for Python): the formula they make, the symbolic state of one
 * execution (SMT definitions, obligations, the returned/broken/continued flags, the result so far)
 * and the language-neutral steps over it (parameters, early returns, loop unrolling, break and
 * continue, array reads, min/max/abs). Each front end keeps its own syntax and semantics: what an
 * operator means, what raises, what the spec language is. Pure.
 */

/** Why the translator cannot model the code: the status is `unknown` with this reason. */
export class Unsupported extends Error {
  constructor(reason: string, where?: Where) {
    const line = where?.loc?.start.line;
    super(line === undefined ? reason : `${reason} (line ${line})`);
    this.name = 'Unsupported';
  }
}

/** A return whose type is not the target's result type (what infers `returns` when the pack leaves it out). */
export class ReturnTypeMismatch extends Unsupported {}

/** The target's result type: resolved before any translation (src/formal/gate.ts `resolveReturns`). */
export function resultType(target: Pick<FormalTarget, 'returns' | 'function'>): 'int' | 'bool' {
  if (target.returns === undefined) throw new Error(`the result type of ${target.function} was not resolved before translation`);
  return target.returns;
}

/** A spec expression that does not parse or is outside the subset: the pack is refused. */
export class SpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecError';
  }
}

/** Where in the source a node is, as Babel says it (the Python front end makes the same shape). */
export interface Where {
  type?: string;
  loc?: { start: { line: number } } | null;
}

/**
 * What must hold on every path the formula covers:
 * - `bounds`: an array index inside the array, and a return on every path (Python: what raises):
 *   a violation is a bug the counterexample shows;
 * - `model`: a value stays a safe integer and no division by zero happens (JS): a violation leaves
 *   the integer model (the JS double differs from the integer), so it makes the status `unknown`;
 * - `unroll`: no loop runs more often than the unrolling bound: else `unknown`, never proved;
 * - `spec`: the spec's own reads are defined (checked when the pack loads).
 */
export interface Obligation {
  kind: 'bounds' | 'model' | 'unroll' | 'spec';
  /** The SMT name of the Boolean that must hold. */
  name: string;
  what: string;
}

/** A parameter as the model names it: SMT constants and how to read them back. */
export interface ParamSymbol {
  name: string;
  type: 'int' | 'bool' | 'int[]';
  /** int/bool: the one constant (an optional one: the value, then whether it is defined); int[]: the length constant then the elements. */
  symbols: string[];
  /** JS: the argument may be left out (`undefined`). */
  optional?: boolean;
}

/** The formula of one target (or spec): declarations, then the named parts the queries assert. */
export interface Formula {
  /** The integer model: JS safe integers (every value bounded), or Python's unbounded integers. */
  integers: IntegerModel;
  /** declare-const and define-fun lines. */
  prelude: string;
  params: ParamSymbol[];
  /** The SMT name of the function's result (declared free in spec-only formulas). */
  result: string;
  obligations: Obligation[];
  /** Named Booleans: the domain (safe integers for JS, array lengths), requires, ensures. */
  domain: string;
  pre: string;
  post: string;
  /** How many loops the function's body unrolled (0: the unrolling bound plays no part in the proof). */
  loops: number;
}

/** A symbolic value: an integer or Boolean term, a bounded array (its elements and length), or a value that may be `undefined` (JS). */
export type Value = { k: 'int'; t: string } | { k: 'bool'; t: string } | ArrayValue | OptValue;
export type ArrayValue = { k: 'arr'; elems: string[]; len: string };
/** An int or bool that may be `undefined` (an optional JS parameter, or a local it flows into): `t` means something only where `def` holds. */
export type OptValue = { k: 'opt'; of: 'int' | 'bool'; def: string; t: string };

/** Mutable control state of the symbolic execution: returned, broken out of, continued. */
export interface Flags {
  ret: string;
  brk: string;
  cnt: string;
  /** Inside a loop (break and continue are allowed). */
  loop: boolean;
}

/** The `what` of a JS value's range obligation (specs, read over mathematical integers, drop it). */
export const SAFE_INTEGER = 'a safe integer';

/** One unrolled loop: its condition before iteration k, and iteration k itself. */
export interface Unrolled {
  /** The loop's condition before iteration k (k = iterations: whether it would run once more). */
  condition(entry: string, k: number): string;
  /** Iteration k under the loop's entry guard: the loop variable, the body, an update. */
  iteration(k: number, entry: string): void;
  iterations: number;
  /** A loop over a bounded list ends by itself: no `unroll` obligation. */
  bounded: boolean;
}

/**
 * One symbolic execution of a target, or of its spec alone. A front end extends it with its
 * syntax: `body` (the candidate's function) and `spec` (one spec expression), over nodes of type N.
 */
export abstract class SymbolicExecution<N> {
  protected readonly lines: string[] = [];
  protected readonly obligations: Obligation[] = [];
  protected counter = 0;
  protected flags: Flags = { ret: 'false', brk: 'false', cnt: 'false', loop: false };
  protected retVal: string;
  protected specMode = false;
  /** Loops of the function's body unrolled so far (a loop inside another counts once per unrolling). */
  protected loops = 0;

  constructor(
    protected readonly target: FormalTarget,
    private readonly integers: IntegerModel,
    /** What the language calls an array, in reasons. */
    private readonly arrayWord: 'array' | 'list'
  ) {
    this.retVal = resultType(target) === 'int' ? '0' : 'false';
  }

  /** Where a node is, for reasons and obligations. */
  protected abstract where(node: N): Where;
  /** The candidate's function executed: the SMT name of its result. */
  protected abstract body(source: { text: string; file: string }, entry: ReadonlyMap<string, Value>): string;
  /** One spec expression over the entry values (and `result`), as a Boolean term. */
  protected abstract spec(text: string, entry: ReadonlyMap<string, Value>, result: Value | undefined): string;

  run(source: { text: string; file: string } | undefined): Formula {
    const params: ParamSymbol[] = [];
    const domain: string[] = [];
    const entry = new Map<string, Value>();
    const n = this.target.bounds.array_length;
    // JS numbers are doubles: every input is a safe integer, as a precondition of every proof.
    // Python's integers are unbounded: the inputs are not bounded either.
    const ranged = (term: string): void => {
      if (this.integers === 'safe') domain.push(inSafeRange(term));
    };
    const names = new Set<string>();
    for (const param of this.target.params) {
      if (names.has(param.name) || param.name === 'result') throw new Unsupported(`the spec names parameter ${param.name} twice or calls it result`);
      names.add(param.name);
      if (param.optional && param.type === 'int[]') throw new Unsupported(`the optional int[] parameter ${param.name} (optional parameters are int or bool)`);
      if (param.type === 'int' || param.type === 'bool') {
        const s = this.declare(`p_${param.name}`, param.type === 'int' ? 'Int' : 'Bool');
        if (param.type === 'int') ranged(s);
        if (param.optional) {
          const def = this.declare(`p_${param.name}_def`, 'Bool');
          params.push({ name: param.name, type: param.type, symbols: [s, def], optional: true });
          entry.set(param.name, { k: 'opt', of: param.type, def, t: s });
        } else {
          params.push({ name: param.name, type: param.type, symbols: [s] });
          entry.set(param.name, { k: param.type, t: s });
        }
      } else {
        const len = this.declare(`p_${param.name}_len`, 'Int');
        domain.push(`(<= 0 ${len})`, `(<= ${len} ${n})`);
        const elems = Array.from({ length: n }, (_, i) => this.declare(`p_${param.name}_${i}`, 'Int'));
        for (const e of elems) ranged(e);
        params.push({ name: param.name, type: 'int[]', symbols: [len, ...elems] });
        entry.set(param.name, { k: 'arr', elems, len });
      }
    }
    let result: string;
    if (source === undefined) {
      result = this.declare('result', resultType(this.target) === 'int' ? 'Int' : 'Bool');
      if (resultType(this.target) === 'int') ranged(result);
    } else {
      result = this.body(source, entry);
    }
    const resultValue: Value = resultType(this.target) === 'int' ? { k: 'int', t: result } : { k: 'bool', t: result };
    this.specMode = true;
    const pre = this.define('pre', 'Bool', and(...this.target.requires.map((text) => this.spec(text, entry, undefined))));
    const post = this.define('post', 'Bool', and(...this.target.ensures.map((text) => this.spec(text, entry, resultValue))));
    const domainName = this.define('domain', 'Bool', and(...domain));
    return { integers: this.integers, prelude: this.lines.join('\n'), params, result, obligations: this.obligations, domain: domainName, pre, post, loops: this.loops };
  }

  protected declare(name: string, sort: string): string {
    this.lines.push(`(declare-const ${name} ${sort})`);
    return name;
  }

  /** A named definition of a term (a name, a numeral or a constant stands for itself). */
  protected define(hint: string, sort: 'Int' | 'Bool', term: string): string {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(term) || /^\d+$/.test(term) || term === 'true' || term === 'false') return term;
    const name = `${hint}_${this.counter++}`;
    this.lines.push(`(define-fun ${name} () ${sort} ${term})`);
    return name;
  }

  protected oblige(kind: Obligation['kind'], guard: string, condition: string, what: string, node: N): void {
    const term = implies(guard, condition);
    if (term === 'true') return;
    if (this.specMode) {
      // The spec is read over mathematical integers: only its array reads and divisions must be defined.
      if (what === SAFE_INTEGER) return;
      kind = 'spec';
    }
    const name = `ob_${this.counter++}`;
    this.lines.push(`(define-fun ${name} () Bool ${term})`);
    const line = this.where(node).loc?.start.line;
    this.obligations.push({ kind, name, what: line === undefined ? what : `${what} (line ${line})` });
  }

  /** The guard of a path still running: not returned, not broken out of, not continued. */
  protected active(guard: string): string {
    return and(guard, not(this.flags.ret), not(this.flags.brk), not(this.flags.cnt));
  }

  protected returnValue(returned: Value, guard: string, node: N): void {
    const kind = resultType(this.target);
    // A value that may be undefined is returned as undefined where it is: not the declared type, a bug.
    const value = returned.k === 'opt' ? this.definedOr(returned, guard, node, 'bounds', 'the returned value is defined (else the result is undefined)') : returned;
    if (value.k !== kind)
      throw new ReturnTypeMismatch(
        `a return of ${value.k === 'arr' ? `a${this.arrayWord === 'array' ? 'n' : ''} ${this.arrayWord}` : `a ${value.k}`} where the spec says ${kind}`,
        this.where(node)
      );
    this.retVal = this.define('rv', kind === 'int' ? 'Int' : 'Bool', ite(guard, value.t, this.retVal));
    this.flags.ret = this.define('ret', 'Bool', or(this.flags.ret, guard));
  }

  /** That the function returned on every path: a `bounds` obligation; the result's SMT name. */
  protected finish(what: string, node: N): string {
    this.oblige('bounds', 'true', this.flags.ret, what, node);
    return this.define('ret', resultType(this.target) === 'int' ? 'Int' : 'Bool', this.retVal);
  }

  /**
   * A loop unrolled `loop.iterations` times: before each iteration its condition (a false one
   * breaks), then the iteration; a path that would run once more is an `unroll` obligation
   * (unless the loop is bounded by its list).
   */
  protected unroll(guard: string, loop: Unrolled, node: N): void {
    if (!this.specMode) this.loops++;
    const outer = this.flags;
    const entry = this.active(guard);
    this.flags = { ret: outer.ret, brk: 'false', cnt: 'false', loop: true };
    for (let k = 0; k < loop.iterations; k++) {
      this.flags.cnt = 'false';
      const c = loop.condition(entry, k);
      this.flags.brk = this.define('brk', 'Bool', or(this.flags.brk, and(this.active(entry), not(c))));
      loop.iteration(k, entry);
    }
    this.flags.cnt = 'false';
    if (!loop.bounded) this.oblige('unroll', this.active(entry), not(loop.condition(entry, loop.iterations)), `the loop ends within ${loop.iterations} iterations`, node);
    this.flags = { ...outer, ret: this.flags.ret };
  }

  /** `break` or `continue` on the paths still running (inside a loop only). */
  protected jump(kind: 'break' | 'continue', guard: string, node: N, spelled: string): void {
    if (!this.flags.loop) throw new Unsupported(`${spelled} outside a loop`, this.where(node));
    const g = this.active(guard);
    if (kind === 'break') this.flags.brk = this.define('brk', 'Bool', or(this.flags.brk, g));
    else this.flags.cnt = this.define('cnt', 'Bool', or(this.flags.cnt, g));
  }

  /** A scalar value under a name of its own (arrays are values already). */
  protected named(value: Value): Value {
    if (value.k === 'arr') return value;
    if (value.k === 'opt') return { k: 'opt', of: value.of, def: this.define('d', 'Bool', value.def), t: this.define('v', value.of === 'int' ? 'Int' : 'Bool', value.t) };
    return { k: value.k, t: this.define('v', value.k === 'int' ? 'Int' : 'Bool', value.t) };
  }

  /**
   * A value that may be undefined, used where `guard` holds as its int or bool: an obligation that
   * it is defined there (`model`: JS turns undefined into NaN or false, outside the model; `bounds`:
   * a bug the counterexample shows).
   */
  protected definedOr(value: OptValue, guard: string, node: N, kind: 'model' | 'bounds', what: string): Value {
    this.oblige(kind, guard, value.def, what, node);
    return { k: value.of, t: value.t };
  }

  /** a[i] as an ite chain over the bounded elements (out of range: the bounds obligation fails first). */
  protected select(array: { elems: string[] }, index: string): string {
    if (array.elems.length === 0) return this.declare(`undef_${this.counter++}`, 'Int');
    let term = array.elems[array.elems.length - 1]!;
    for (let i = array.elems.length - 2; i >= 0; i--) term = ite(`(= ${index} ${i})`, array.elems[i]!, term);
    return term;
  }

  /** min/max of integer terms, left to right (the first of equal values: the same integer). */
  protected minMax(fn: 'min' | 'max', terms: readonly string[]): Value {
    let term = terms[0]!;
    for (const next of terms.slice(1)) term = this.define('v', 'Int', ite(app(fn === 'min' ? '<=' : '>=', term, next), term, next));
    return { k: 'int', t: term };
  }

  protected absolute(term: string): Value {
    return { k: 'int', t: this.define('v', 'Int', ite(`(>= ${term} 0)`, term, `(- ${term})`)) };
  }

  /** `a == b` or `a != b` between two scalars of one type (else outside the subset). */
  protected equality(op: string, left: Value, right: Value, node: N): string {
    // undefined equals only undefined; a defined value compares as its int or bool.
    const kindOf = (v: Value): string => (v.k === 'opt' ? v.of : v.k);
    if (left.k === 'arr' || right.k === 'arr' || kindOf(left) !== kindOf(right)) throw new Unsupported(`${op} between different types or ${this.arrayWord}s`, this.where(node));
    const defOf = (v: Value): string => (v.k === 'opt' ? v.def : 'true');
    const [dl, dr] = [defOf(left), defOf(right)];
    const equal = or(and(not(dl), not(dr)), and(dl, dr, `(= ${(left as { t: string }).t} ${(right as { t: string }).t})`));
    return op.startsWith('!') ? not(equal) : equal;
  }

  /** `c ? a : b` over two scalars of one type (either may be undefined). */
  protected choice(test: string, a: Value, b: Value, what: string, node: N): Value {
    const kindOf = (v: Value): string => (v.k === 'opt' ? v.of : v.k);
    if (a.k === 'arr' || b.k === 'arr' || kindOf(a) !== kindOf(b)) throw new Unsupported(`${what} whose branches differ in type`, this.where(node));
    if (a.k === 'opt' || b.k === 'opt') {
      const defOf = (v: Value): string => (v.k === 'opt' ? v.def : 'true');
      return { k: 'opt', of: kindOf(a) as 'int' | 'bool', def: ite(test, defOf(a), defOf(b)), t: ite(test, (a as { t: string }).t, (b as { t: string }).t) };
    }
    return { k: a.k, t: ite(test, a.t, b.t) };
  }

  /**
   * A spec quantifier expanded over an array's bounded elements: `every` (all) or `some` (any).
   * `part` reads element k (in range: `inRange`): whether it is kept (a filter) and whether it holds.
   */
  protected expand(quantifier: 'every' | 'some', array: ArrayValue, part: (element: string, k: number, inRange: string) => { kept: string; holds: string }): Value {
    const parts = array.elems.map((element, k) => {
      const inRange = `(< ${k} ${array.len})`;
      const { kept, holds } = part(element, k, inRange);
      return quantifier === 'every' ? implies(and(inRange, kept), holds) : and(inRange, kept, holds);
    });
    return { k: 'bool', t: quantifier === 'every' ? and(...parts) : or(...parts) };
  }
}

/** Constructs outside the subset, in words (Babel's and tree-sitter's node types; issue 29). */
const CONSTRUCTS: Record<string, string> = {
  // JavaScript (Babel)
  ForOfStatement: 'a for … of loop',
  ForInStatement: 'a for … in loop',
  DoWhileStatement: 'a do … while loop',
  SwitchStatement: 'a switch statement',
  TryStatement: 'a try statement',
  ThrowStatement: 'a throw statement',
  LabeledStatement: 'a labelled statement',
  FunctionDeclaration: 'a function declared inside the target',
  FunctionExpression: 'a function expression',
  ArrowFunctionExpression: 'an arrow function',
  ClassDeclaration: 'a class declaration',
  ClassExpression: 'a class expression',
  ObjectExpression: 'an object literal',
  ArrayExpression: 'an array literal',
  StringLiteral: 'a string',
  TemplateLiteral: 'a template string',
  TaggedTemplateExpression: 'a tagged template',
  RegExpLiteral: 'a regular expression',
  NullLiteral: 'null',
  BigIntLiteral: 'a BigInt literal',
  NewExpression: 'a new expression',
  AwaitExpression: 'await',
  YieldExpression: 'yield',
  ThisExpression: 'this',
  SequenceExpression: 'a comma expression',
  AssignmentExpression: 'an assignment inside an expression',
  UpdateExpression: 'an increment or decrement inside an expression',
  OptionalMemberExpression: 'optional chaining (?.)',
  OptionalCallExpression: 'an optional call (?.())',
  SpreadElement: 'a spread (...)',
  ImportExpression: 'a dynamic import',
  // Python (tree-sitter)
  import_statement: 'an import',
  import_from_statement: 'a from … import',
  future_import_statement: 'a __future__ import',
  try_statement: 'a try statement',
  with_statement: 'a with statement',
  raise_statement: 'a raise statement',
  assert_statement: 'an assert statement',
  delete_statement: 'a del statement',
  match_statement: 'a match statement',
  print_statement: 'a print statement',
  exec_statement: 'an exec statement',
  class_definition: 'a class definition',
  function_definition: 'a nested function',
  decorated_definition: 'a decorated definition',
  string: 'a string',
  concatenated_string: 'a string',
  float: 'a float literal',
  none: 'None',
  list: 'a list literal',
  dictionary: 'a dict literal',
  set: 'a set literal',
  tuple: 'a tuple',
  lambda: 'a lambda',
  list_comprehension: 'a list comprehension',
  dictionary_comprehension: 'a dict comprehension',
  set_comprehension: 'a set comprehension',
  generator_expression: 'a generator expression',
  attribute: 'an attribute (x.y)',
  await: 'await',
  yield: 'yield',
  named_expression: 'an assignment expression (:=)',
  ellipsis: '...',
  slice: 'a slice'
};

/** A syntax node's type as words with an article, e.g. `import_statement` → "an import", `ForOfStatement` → "a for … of loop". */
export function construct(type: string): string {
  const known = CONSTRUCTS[type];
  if (known !== undefined) return known;
  const words = type
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words}`;
}
