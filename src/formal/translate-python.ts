import type { FormalTarget } from './spec.js';
import { parsePython, type SyntaxNode } from './python-parser.js';
import { and, app, int, ite, not, or } from './smt.js';
import { construct, SpecError, SymbolicExecution, Unsupported, type ArrayValue, type Formula, type Value, type Where } from './symbolic.js';

/**
 * The formal gate's Python front end: tree-sitter's syntax tree of a Python file, read on the host
 * and never executed, executed symbolically into the same `Formula` the JS front end makes (the
 * shared symbolic state and steps: src/formal/symbolic.ts), for a documented subset
 * (docs/witness-pack.md, "Python targets"). Pure once the parser is loaded (src/formal/python-parser.ts).
 *
 * Python's semantics, not JS's: integers are unbounded (no range on the inputs, no range obligation
 * on any intermediate value: the integer model `python-int`), `//` and `%` floor (the remainder takes the divisor's sign) and a zero divisor raises
 * ZeroDivisionError (a bug the counterexample shows, not a step outside the model), a list index
 * wraps when negative (`-len <= i < len`, else IndexError), a local read before it is assigned
 * raises UnboundLocalError, and falling off the end returns None. Everything outside the subset
 * throws `Unsupported`: the status is `unknown`, never `not_applicable`.
 */

interface Local {
  /** Undefined until the first assignment on some path. */
  value: Value | undefined;
  /** Whether the name is assigned on the path reaching here (Python raises UnboundLocalError otherwise). */
  def: string;
  /** A parameter array (the only arrays of the subset). */
  param: boolean;
}

/** The builtins the subset calls: their meaning is the standard one only if nothing rebinds them. */
export const PYTHON_BUILTINS = new Set(['min', 'max', 'abs', 'len', 'range']);
/** Names through which code reaches and rewrites builtins or module globals. */
const REFLECTIVE = new Set([
  'globals',
  'locals',
  'vars',
  'setattr',
  'delattr',
  'exec',
  'eval',
  'compile',
  '__builtins__',
  'builtins',
  '__import__',
  '__dict__',
  'importlib',
  // A function's own namespace and code: `f.__globals__['max'] = …`, `f.__code__ = g.__code__`.
  '__globals__',
  '__code__',
  '__defaults__',
  '__kwdefaults__',
  '__closure__',
  // Every class of the process from any value: `().__class__.__base__.__subclasses__()`.
  '__subclasses__',
  'ctypes',
  'gc'
]);
/**
 * In the target's own module only (common enough elsewhere, in `__repr__`s and package set-up, that
 * other files are left to the binding check): a name looked up by a string (`getattr(f, '__glo' +
 * 'bals__')`), the object graph, and the import system's records.
 */
const REFLECTIVE_IN_TARGET = new Set([
  'getattr',
  '__class__',
  '__base__',
  '__bases__',
  '__mro__',
  '__getattribute__',
  '__setattr__',
  '__func__',
  '__wrapped__',
  '__spec__',
  '__loader__',
  '__path__'
]);

const at = (node: SyntaxNode): string => ` (line ${node.startPosition.row + 1})`;

function named(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== 'comment');
}

function field(node: SyntaxNode, name: string): SyntaxNode {
  const child = node.childForFieldName(name);
  if (child === null) throw new Unsupported(`a ${node.type} without its ${name}`, lineOf(node));
  return child;
}

function lineOf(node: SyntaxNode): Where {
  return { type: node.type, loc: { start: { line: node.startPosition.row + 1 } } };
}

function walk(node: SyntaxNode, visit: (node: SyntaxNode) => void): void {
  visit(node);
  for (const child of node.children) if (child !== null) walk(child, visit);
}

/** Whether an identifier is a callee (`min(…)`), an attribute's name (`x.min`) or a keyword argument's name. */
function isHarmlessUse(id: SyntaxNode): boolean {
  const parent = id.parent;
  if (parent === null) return false;
  if (parent.type === 'call' && parent.childForFieldName('function')?.id === id.id) return true;
  if (parent.type === 'attribute' && parent.childForFieldName('attribute')?.id === id.id) return true;
  if (parent.type === 'keyword_argument' && parent.childForFieldName('name')?.id === id.id) return true;
  return false;
}

/** Whether an identifier is bound there: an assignment's target, a def or class name, an import, a parameter, global, del, as, for. */
function isBinding(id: SyntaxNode): boolean {
  let node = id;
  let parent = node.parent;
  // Climb out of tuple and list patterns, and a.b dotted names of imports.
  while (
    parent !== null &&
    ['pattern_list', 'tuple_pattern', 'list_pattern', 'list_splat_pattern', 'tuple', 'list', 'parenthesized_expression', 'expression_list', 'dotted_name'].includes(parent.type)
  ) {
    node = parent;
    parent = node.parent;
  }
  if (parent === null) return false;
  const is = (name: string): boolean => parent.childForFieldName(name)?.id === node.id;
  switch (parent.type) {
    case 'assignment':
    case 'augmented_assignment':
    case 'for_statement':
    case 'for_in_clause':
      return is('left');
    case 'named_expression':
    case 'function_definition':
    case 'class_definition':
      return is('name');
    case 'default_parameter':
    case 'typed_default_parameter':
      return is('name');
    case 'typed_parameter':
    case 'parameters':
    case 'lambda_parameters':
    case 'global_statement':
    case 'nonlocal_statement':
    case 'delete_statement':
    case 'as_pattern_target':
    case 'import_statement':
    case 'import_from_statement':
      return !(parent.type === 'import_from_statement' && is('module_name'));
    case 'aliased_import':
      return is('alias');
    case 'as_pattern':
      return is('alias');
    default:
      return false;
  }
}

/**
 * The module-level reasons the proof would not be about the code that runs: a decorator, a
 * rebound or shadowed builtin of the subset (any use of `min`, `max`, `abs`, `len` or `range`
 * other than a call: `min = …`, `def min`, `import … as min`, `from x import min`, a parameter,
 * `global min`), a star import, and reflection on globals or builtins (`globals()`, `setattr`,
 * `builtins`, `__dict__`, `sys.modules`, `exec`, …).
 */
export function pythonIntegrityProblems(root: SyntaxNode): string[] {
  const problems: string[] = [];
  walk(root, (node) => {
    if (node.type === 'decorator') problems.push(`a decorator${at(node)}`);
    if (node.type === 'wildcard_import') problems.push(`a star import${at(node)}`);
    if (node.type === 'identifier' && PYTHON_BUILTINS.has(node.text) && !isHarmlessUse(node)) problems.push(`${node.text} is rebound or passed around${at(node)}`);
    if (node.type === 'identifier' && (REFLECTIVE.has(node.text) || REFLECTIVE_IN_TARGET.has(node.text)))
      problems.push(`${node.text}${at(node)}, which reaches builtins, globals or code objects`);
    if (node.type === 'attribute' && node.childForFieldName('attribute')?.text === 'modules') problems.push(`sys.modules${at(node)}`);
  });
  return [...new Set(problems)];
}

/**
 * Why a changed Python file other than a target's would change what a target computes: it
 * reaches builtins or another module's globals (`builtins.min = …`, `setattr(mod, 'f', …)`,
 * `mod.min = …`, `mod.f = …` for a target's name `f`).
 */
export function pythonChangedFileProblems(text: string, functions: readonly string[]): string[] {
  const root = parsePython(text);
  const problems: string[] = [];
  walk(root, (node) => {
    if (node.type === 'identifier' && REFLECTIVE.has(node.text)) problems.push(`${node.text}${at(node)}`);
    if (node.type === 'attribute' && node.childForFieldName('attribute')?.text === 'modules') problems.push(`sys.modules${at(node)}`);
    if (node.type === 'attribute' && isBinding(node)) {
      const name = node.childForFieldName('attribute')?.text ?? '';
      if (PYTHON_BUILTINS.has(name) || functions.includes(name)) problems.push(`an assignment to .${name}${at(node)}`);
    }
  });
  return [...new Set(problems)];
}

/** The target's one module-level definition, or why there is not exactly one. */
export function findPythonTarget(root: SyntaxNode, name: string): SyntaxNode {
  const definitions = named(root).filter((s) => s.type === 'function_definition' && s.childForFieldName('name')?.text === name);
  const others: string[] = [];
  walk(root, (node) => {
    if (node.type !== 'identifier' || node.text !== name || !isBinding(node)) return;
    const parent = node.parent;
    if (parent?.type === 'function_definition' && definitions.some((d) => d.id === parent.id)) return;
    others.push(`${name} is bound again${at(node)}`);
  });
  if (definitions.length === 0 && others.length === 0) throw new Unsupported(`no module-level def ${name} (renamed or deleted?)`);
  if (definitions.length > 1) throw new Unsupported(`${definitions.length} definitions of ${name}`);
  if (others.length > 0) throw new Unsupported(`${name} is defined in a way the gate does not follow: ${others[0]}`);
  return definitions[0]!;
}

/** Parse a candidate's Python file; a syntax error is `unknown`. */
function parseModule(text: string, file: string): SyntaxNode {
  const root = parsePython(text);
  if (root.hasError) {
    let line = 0;
    walk(root, (n) => {
      if (line === 0 && (n.type === 'ERROR' || n.isMissing)) line = n.startPosition.row + 1;
    });
    throw new Unsupported(`${file} does not parse (line ${line || '?'})`);
  }
  return root;
}

/** Translate a Python target: its candidate source, or a spec-only formula when `source` is undefined. */
export function translatePython(target: FormalTarget, source: { text: string; file: string } | undefined): Formula {
  return new PythonTranslator(target).run(source);
}

/** Python semantics over the shared symbolic state (src/formal/symbolic.ts): unbounded integers, function scope. */
class PythonTranslator extends SymbolicExecution<SyntaxNode> {
  private locals = new Map<string, Local>();

  constructor(target: FormalTarget) {
    super(target, 'python-int', 'list');
    const optional = target.params.find((p) => p.optional === true);
    if (optional !== undefined) throw new Unsupported(`the optional parameter ${optional.name}: optional parameters are for JS targets (a Python default is not modelled)`);
  }

  protected where(node: SyntaxNode): Where {
    return lineOf(node);
  }

  /** The spec's own expressions: Python, parsed with tree-sitter, over the entry values and `result`. */
  protected spec(text: string, entry: ReadonlyMap<string, Value>, result: Value | undefined): string {
    const root = parsePython(text);
    const statements = named(root);
    const statement = statements[0];
    const expression = statement === undefined ? undefined : named(statement)[0];
    if (root.hasError || statements.length !== 1 || statement?.type !== 'expression_statement' || expression === undefined || named(statement).length !== 1) {
      throw new SpecError(`${JSON.stringify(text)} is not one Python expression`);
    }
    this.locals = new Map([...entry].map(([name, value]) => [name, { value, def: 'true', param: true }]));
    if (result !== undefined) this.locals.set('result', { value: result, def: 'true', param: false });
    try {
      return this.truthy(this.expr(expression, 'true'), expression);
    } catch (error) {
      if (error instanceof Unsupported) throw new SpecError(`${JSON.stringify(text)} is outside the subset: ${error.message}`);
      throw error;
    }
  }

  protected body(source: { text: string; file: string }, entry: ReadonlyMap<string, Value>): string {
    const root = parseModule(source.text, source.file);
    const problems = pythonIntegrityProblems(root);
    if (problems.length > 0) throw new Unsupported(`${source.file}: ${problems[0]}`);
    const fn = findPythonTarget(root, this.target.function);
    if (fn.children[0]?.type === 'async') throw new Unsupported(`${this.target.function} is async`, lineOf(fn));
    const paramNodes = named(field(fn, 'parameters'));
    if (paramNodes.length !== this.target.params.length)
      throw new Unsupported(`${this.target.function} takes ${paramNodes.length} parameters, the spec ${this.target.params.length}`, lineOf(fn));
    this.locals = new Map();
    paramNodes.forEach((param, index) => {
      const id = param.type === 'identifier' ? param : param.type === 'typed_parameter' ? named(param)[0] : undefined;
      if (id === undefined || id.type !== 'identifier') throw new Unsupported(`parameter ${index + 1} is not a plain name (a default, *args or **kwargs)`, lineOf(param));
      // Positions bind: the spec's name for parameter i is the code's parameter i.
      this.locals.set(id.text, { value: entry.get(this.target.params[index]!.name)!, def: 'true', param: true });
    });
    const body = field(fn, 'body');
    walk(body, (node) => {
      if (['function_definition', 'class_definition', 'lambda', 'global_statement', 'nonlocal_statement'].includes(node.type))
        throw new Unsupported(`${construct(node.type)} inside ${this.target.function}`, lineOf(node));
    });
    const statements = named(body);
    // A docstring is an expression statement of a string: it does nothing.
    const first = statements[0];
    const rest = first?.type === 'expression_statement' && named(first)[0]?.type === 'string' ? statements.slice(1) : statements;
    this.block(rest, 'true');
    return this.finish(`${this.target.function} returns on every path (else None)`, fn);
  }

  private block(statements: SyntaxNode[], guard: string): void {
    for (const statement of statements) this.statement(statement, guard);
  }

  private statement(node: SyntaxNode, guard: string): void {
    switch (node.type) {
      case 'pass_statement':
        return;
      case 'expression_statement': {
        const parts = named(node);
        if (parts.length !== 1) throw new Unsupported('a statement of several expressions', lineOf(node));
        const e = parts[0]!;
        if (e.type === 'assignment') {
          this.assignment(e, guard);
          return;
        }
        if (e.type === 'augmented_assignment') {
          this.augmented(e, guard);
          return;
        }
        throw new Unsupported(`${construct(e.type)} as a statement`, lineOf(e));
      }
      case 'if_statement': {
        const condition = this.define('c', 'Bool', this.truthy(this.expr(field(node, 'condition'), this.active(guard)), node));
        this.block(named(field(node, 'consequence')), and(guard, condition));
        let rest = not(condition);
        for (const alternative of node.childrenForFieldName('alternative')) {
          if (alternative === null) continue;
          if (alternative.type === 'elif_clause') {
            const c = this.define('c', 'Bool', this.truthy(this.expr(field(alternative, 'condition'), this.active(and(guard, rest))), alternative));
            this.block(named(field(alternative, 'consequence')), and(guard, rest, c));
            rest = and(rest, not(c));
          } else {
            this.block(named(field(alternative, 'body')), and(guard, rest));
          }
        }
        return;
      }
      case 'return_statement': {
        const value = named(node)[0];
        if (value === undefined) throw new Unsupported('a return without a value (None)', lineOf(node));
        const g = this.active(guard);
        this.returnValue(this.expr(value, g), g, node);
        return;
      }
      case 'while_statement': {
        if (node.childForFieldName('alternative') !== null) throw new Unsupported('while … else', lineOf(node));
        const test = field(node, 'condition');
        this.loop(
          guard,
          node,
          (entry) => this.define('c', 'Bool', this.truthy(this.expr(test, this.active(entry)), test)),
          () => undefined,
          named(field(node, 'body'))
        );
        return;
      }
      case 'for_statement':
        this.forStatement(node, guard);
        return;
      case 'break_statement':
      case 'continue_statement':
        this.jump(node.type === 'break_statement' ? 'break' : 'continue', guard, node, node.type);
        return;
      default:
        throw new Unsupported(construct(node.type), lineOf(node));
    }
  }

  /**
   * A loop unrolled: `condition(entry, k)` before each iteration k, then `before(k)` (its variable)
   * and the body; a path that would run once more than `iterations` is an `unroll` obligation (when
   * `bounded` is false).
   */
  private loop(
    guard: string,
    node: SyntaxNode,
    condition: (entry: string, k: number) => string,
    before: (k: number, entry: string) => void,
    body: SyntaxNode[],
    iterations = this.target.bounds.unroll,
    bounded = false
  ): void {
    this.unroll(
      guard,
      {
        condition,
        iteration: (k, entry) => {
          before(k, entry);
          this.block(body, entry);
        },
        iterations,
        bounded
      },
      node
    );
  }

  /** `for v in range(a[, b[, step]])` (step a non-zero literal) or `for v in xs` over a parameter list. */
  private forStatement(node: SyntaxNode, guard: string): void {
    if (node.childForFieldName('alternative') !== null) throw new Unsupported('for … else', lineOf(node));
    if (node.children[0]?.type === 'async') throw new Unsupported('async for', lineOf(node));
    const left = field(node, 'left');
    if (left.type !== 'identifier') throw new Unsupported('a for loop whose target is not one name', lineOf(left));
    const right = field(node, 'right');
    const body = named(field(node, 'body'));
    const g = this.active(guard);
    if (right.type === 'identifier') {
      const list = this.lookup(right, g);
      if (list.k !== 'arr') throw new Unsupported('a for loop over something other than range(…) or a parameter list', lineOf(right));
      const binding = this.locals.get(right.text)!;
      // The list's iterator reads the current element (writes in the body are seen) while k < len.
      this.loop(
        guard,
        node,
        (_entry, k) => `(< ${k} ${list.len})`,
        (k, entry) => {
          const current = binding.value as ArrayValue;
          this.bind(left, { k: 'int', t: this.define('v', 'Int', this.select(current, int(k))) }, this.active(entry));
        },
        body,
        list.elems.length,
        true
      );
      return;
    }
    const args = this.rangeArgs(right);
    if (args === undefined) throw new Unsupported('a for loop over something other than range(…) or a parameter list', lineOf(right));
    const values = args.nodes.map((a) => this.integer(a, g));
    const [start, stop] = values.length === 1 ? ['0', values[0]!] : [values[0]!, values[1]!];
    const step = args.step;
    const at = (k: number): string => this.define('v', 'Int', app('+', start, int(BigInt(k) * step)));
    this.loop(
      guard,
      node,
      (_entry, k) => app(step > 0n ? '<' : '>', at(k), stop),
      (k, entry) => this.bind(left, { k: 'int', t: at(k) }, this.active(entry)),
      body
    );
  }

  /** range(…)'s arguments, its step a non-zero integer literal (1 when absent); undefined if not a range call. */
  private rangeArgs(node: SyntaxNode): { nodes: SyntaxNode[]; step: bigint } | undefined {
    if (node.type !== 'call' || node.childForFieldName('function')?.text !== 'range') return undefined;
    this.builtin('range', node);
    const argList = field(node, 'arguments');
    const args = named(argList);
    if (argList.type !== 'argument_list' || args.length < 1 || args.length > 3 || args.some((a) => a.type === 'keyword_argument' || a.type.endsWith('splat')))
      throw new Unsupported('range with other than one to three plain arguments', lineOf(node));
    let step = 1n;
    if (args.length === 3) {
      const s = args[2]!;
      const literal =
        s.type === 'integer'
          ? this.literal(s)
          : s.type === 'unary_operator' && s.childForFieldName('operator')?.text === '-' && field(s, 'argument').type === 'integer'
            ? -this.literal(field(s, 'argument'))
            : undefined;
      if (literal === undefined || literal === 0n) throw new Unsupported("range's step is not a non-zero integer literal", lineOf(s));
      step = literal;
    }
    return { nodes: args.slice(0, 2), step };
  }

  /** A builtin call is the builtin only if no local or parameter has its name (the module scan covers the rest). */
  private builtin(name: string, node: SyntaxNode): void {
    if (this.locals.has(name)) throw new Unsupported(`a local named ${name}`, lineOf(node));
  }

  private assignment(node: SyntaxNode, guard: string): void {
    if (node.childForFieldName('type') !== null && node.childForFieldName('right') === null) throw new Unsupported('an annotation without a value', lineOf(node));
    const right = field(node, 'right');
    if (right.type === 'assignment') throw new Unsupported('a chained assignment', lineOf(node));
    const g = this.active(guard);
    const left = field(node, 'left');
    if (right.type === 'identifier' && this.locals.get(right.text)?.value?.k === 'arr') throw new Unsupported('a list bound to a second name (aliasing)', lineOf(node));
    const value = this.expr(right, g);
    this.store(left, value, g);
  }

  private augmented(node: SyntaxNode, guard: string): void {
    const op = field(node, 'operator').text.slice(0, -1);
    if (!['+', '-', '*', '//', '%'].includes(op)) throw new Unsupported(`the ${op}= operator`, lineOf(node));
    const g = this.active(guard);
    const left = field(node, 'left');
    const value = this.binary(op, this.expr(left, g), this.expr(field(node, 'right'), g), g, node);
    this.store(left, value, g);
  }

  private store(left: SyntaxNode, value: Value, guard: string): void {
    if (left.type === 'identifier') {
      this.bind(left, value, guard);
      return;
    }
    if (left.type === 'subscript') {
      const object = field(left, 'value');
      if (object.type !== 'identifier') throw new Unsupported('an indexed write to something other than a parameter list', lineOf(left));
      const binding = this.locals.get(object.text);
      if (binding?.value?.k !== 'arr') throw new Unsupported('an indexed write to a non-list', lineOf(left));
      if (value.k !== 'int') throw new Unsupported('a non-integer written into an integer list', lineOf(left));
      const array = binding.value;
      const index = this.index(array, left, guard, 'write');
      const elems = array.elems.map((e, i) => this.define('e', 'Int', ite(and(guard, `(= ${index} ${i})`), value.t, e)));
      binding.value = { k: 'arr', elems, len: array.len };
      return;
    }
    throw new Unsupported(`an assignment to a ${left.type}`, lineOf(left));
  }

  private bind(id: SyntaxNode, value: Value, guard: string): void {
    const name = id.text;
    if (PYTHON_BUILTINS.has(name)) throw new Unsupported(`a local named ${name}`, lineOf(id));
    if (value.k === 'arr') throw new Unsupported('a list in a local', lineOf(id));
    if (value.k === 'opt') throw new Unsupported('a value that may be undefined (JS only)', lineOf(id));
    const binding = this.locals.get(name);
    if (binding === undefined) {
      this.locals.set(name, { value: this.named(value), def: guard, param: false });
      return;
    }
    if (binding.value?.k === 'arr' || binding.value?.k === 'opt') throw new Unsupported(`the list ${name} rebound`, lineOf(id));
    const old = binding.value;
    if (old !== undefined && old.k !== value.k) throw new Unsupported(`${name} changes type`, lineOf(id));
    binding.value = old === undefined ? this.named(value) : { k: value.k, t: this.define('v', value.k === 'int' ? 'Int' : 'Bool', ite(guard, value.t, old.t)) };
    binding.def = this.define('d', 'Bool', or(binding.def, guard));
  }

  private lookup(id: SyntaxNode, guard: string): Value {
    const binding = this.locals.get(id.text);
    if (binding === undefined || binding.value === undefined) throw new Unsupported(`${id.text} is not a parameter or local of the target`, lineOf(id));
    this.oblige('bounds', guard, binding.def, `${id.text} is assigned before it is read (else UnboundLocalError)`, id);
    return binding.value;
  }

  private truthy(value: Value, node: SyntaxNode): string {
    if (value.k === 'bool') return value.t;
    if (value.k === 'int') return `(not (= ${value.t} 0))`;
    if (this.specMode || value.k === 'opt') throw new Unsupported('a list used as a condition', lineOf(node));
    return `(not (= ${value.len} 0))`;
  }

  private integer(node: SyntaxNode, guard: string): string {
    const value = this.expr(node, guard);
    if (value.k !== 'int') throw new Unsupported(`a ${value.k === 'arr' ? 'list' : 'boolean'} where an integer is needed`, lineOf(node));
    return value.t;
  }

  private literal(node: SyntaxNode): bigint {
    const text = node.text.replace(/_/g, '');
    if (!/^(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|[1-9][0-9]*|0+)$/.test(text)) throw new Unsupported(`the number ${node.text}`, lineOf(node));
    return BigInt(/^0+$/.test(text) ? '0' : text);
  }

  /** Python's floor division for b ≠ 0: SMT's div is Euclidean, which floors for b > 0 only. */
  private floorDiv(a: string, b: string): string {
    return `(ite (> ${b} 0) (div ${a} ${b}) (div (- ${a}) (- ${b})))`;
  }

  private binary(op: string, left: Value, right: Value, guard: string, node: SyntaxNode): Value {
    if (left.k !== 'int' || right.k !== 'int') throw new Unsupported(`${op} on a non-integer`, lineOf(node));
    switch (op) {
      case '+':
      case '-':
      case '*':
        return { k: 'int', t: this.define('v', 'Int', app(op, left.t, right.t)) };
      case '//':
      case '%': {
        this.oblige('bounds', guard, `(not (= ${right.t} 0))`, `no ${op === '//' ? 'division' : 'modulo'} by zero (else ZeroDivisionError)`, node);
        const q = this.define('v', 'Int', this.floorDiv(left.t, right.t));
        return { k: 'int', t: op === '//' ? q : this.define('v', 'Int', `(- ${left.t} (* ${right.t} ${q}))`) };
      }
      default:
        throw new Unsupported(`the ${op} operator${op === '/' ? ' (true division gives a float)' : ''}`, lineOf(node));
    }
  }

  private compare(op: string, left: Value, right: Value, node: SyntaxNode): string {
    if (op === '==' || op === '!=') return this.equality(op, left, right, node);
    if (!['<', '<=', '>', '>='].includes(op)) throw new Unsupported(`the ${op} operator`, lineOf(node));
    if (left.k !== 'int' || right.k !== 'int') throw new Unsupported(`${op} on a non-integer`, lineOf(node));
    return app(op, left.t, right.t);
  }

  /** xs[i]'s effective index, with the bounds obligation: Python wraps -len <= i < 0 to i + len. */
  private index(array: ArrayValue, subscript: SyntaxNode, guard: string, what: 'read' | 'write'): string {
    const parts = subscript.childrenForFieldName('subscript').filter((c): c is SyntaxNode => c !== null);
    if (parts.length !== 1 || parts[0]!.type === 'slice') throw new Unsupported('a slice or a tuple index', lineOf(subscript));
    const i = this.integer(parts[0]!, guard);
    const object = field(subscript, 'value').text;
    this.oblige('bounds', guard, and(`(<= (- ${array.len}) ${i})`, `(< ${i} ${array.len})`), `the ${what} ${object}[…] is inside the list (else IndexError)`, subscript);
    return this.define('i', 'Int', `(ite (< ${i} 0) (+ ${i} ${array.len}) ${i})`);
  }

  private expr(node: SyntaxNode, guard: string): Value {
    switch (node.type) {
      case 'integer':
        return { k: 'int', t: int(this.literal(node)) };
      case 'true':
        return { k: 'bool', t: 'true' };
      case 'false':
        return { k: 'bool', t: 'false' };
      case 'identifier':
        return this.lookup(node, guard);
      case 'parenthesized_expression': {
        const inner = named(node);
        if (inner.length !== 1) throw new Unsupported('a parenthesized tuple', lineOf(node));
        return this.expr(inner[0]!, guard);
      }
      case 'unary_operator': {
        const op = field(node, 'operator').text;
        const a = this.integer(field(node, 'argument'), guard);
        if (op === '-') return { k: 'int', t: this.define('v', 'Int', `(- ${a})`) };
        if (op === '+') return { k: 'int', t: a };
        throw new Unsupported(`the unary ${op} operator`, lineOf(node));
      }
      case 'not_operator':
        return { k: 'bool', t: not(this.truthy(this.expr(field(node, 'argument'), guard), node)) };
      case 'binary_operator':
        return this.binary(field(node, 'operator').text, this.expr(field(node, 'left'), guard), this.expr(field(node, 'right'), guard), guard, node);
      case 'boolean_operator': {
        const op = field(node, 'operator').text;
        const left = this.expr(field(node, 'left'), guard);
        if (left.k !== 'bool') throw new Unsupported(`${op} on a non-boolean (it yields an operand, not a boolean)`, lineOf(node));
        const right = this.expr(field(node, 'right'), and(guard, op === 'and' ? left.t : not(left.t)));
        if (right.k !== 'bool') throw new Unsupported(`${op} on a non-boolean`, lineOf(node));
        return { k: 'bool', t: op === 'and' ? and(left.t, right.t) : or(left.t, right.t) };
      }
      case 'comparison_operator': {
        // a < b < c: each operand evaluated once, left to right, short-circuit on the first false link.
        const children = node.children.filter((c): c is SyntaxNode => c !== null && c.type !== 'comment');
        const operands = children.filter((c) => c.isNamed);
        const ops = children.filter((c) => !c.isNamed).map((c) => c.type);
        if (ops.length !== operands.length - 1) throw new Unsupported('a comparison the gate cannot read', lineOf(node));
        let g = guard;
        let previous = this.expr(operands[0]!, g);
        const links: string[] = [];
        for (const [i, op] of ops.entries()) {
          const next = this.expr(operands[i + 1]!, g);
          const link = this.define('c', 'Bool', this.compare(op, previous, next, node));
          links.push(link);
          g = and(g, link);
          previous = next;
        }
        return { k: 'bool', t: and(...links) };
      }
      case 'conditional_expression': {
        const [a, test, b] = named(node);
        if (a === undefined || test === undefined || b === undefined) throw new Unsupported('a conditional expression the gate cannot read', lineOf(node));
        const c = this.define('c', 'Bool', this.truthy(this.expr(test, guard), test));
        const x = this.expr(a, and(guard, c));
        const y = this.expr(b, and(guard, not(c)));
        return this.choice(c, x, y, 'a conditional expression', node);
      }
      case 'subscript': {
        const object = field(node, 'value');
        if (object.type !== 'identifier') throw new Unsupported('an index into something other than a parameter list', lineOf(node));
        const array = this.lookup(object, guard);
        if (array.k !== 'arr') throw new Unsupported(`an index into the non-list ${object.text}`, lineOf(node));
        const i = this.index(array, node, guard, 'read');
        return { k: 'int', t: this.define('v', 'Int', this.select(array, i)) };
      }
      case 'call':
        return this.call(node, guard);
      default:
        throw new Unsupported(construct(node.type), lineOf(node));
    }
  }

  private call(node: SyntaxNode, guard: string): Value {
    const callee = field(node, 'function');
    const argList = field(node, 'arguments');
    const name = callee.type === 'identifier' ? callee.text : '';
    if (this.specMode && (name === 'all' || name === 'any') && argList.type === 'generator_expression') return this.quantifier(name, argList, guard, node);
    if (!['min', 'max', 'abs', 'len'].includes(name)) throw new Unsupported('a call other than min, max, abs, len', lineOf(node));
    this.builtin(name, node);
    const args = named(argList);
    if (argList.type !== 'argument_list' || args.some((a) => a.type === 'keyword_argument' || a.type.endsWith('splat')))
      throw new Unsupported(`${name} with keyword, starred or generator arguments`, lineOf(node));
    if (name === 'len') {
      const list = args[0];
      if (args.length !== 1 || list === undefined || list.type !== 'identifier') throw new Unsupported('len of anything but a parameter list', lineOf(node));
      const value = this.lookup(list, guard);
      if (value.k !== 'arr') throw new Unsupported(`len of the non-list ${list.text}`, lineOf(node));
      return { k: 'int', t: value.len };
    }
    if (name === 'abs') {
      if (args.length !== 1) throw new Unsupported('abs with other than one argument', lineOf(node));
      return this.absolute(this.integer(args[0]!, guard));
    }
    if (args.length < 2) throw new Unsupported(`${name} of fewer than two arguments (an iterable)`, lineOf(node));
    return this.minMax(
      name as 'min' | 'max',
      args.map((a) => this.integer(a, guard))
    );
  }

  /** Specs only: all(e for x in xs), all(e for i in range(len(xs))), with an optional if; any(…) alike. */
  private quantifier(name: 'all' | 'any', generator: SyntaxNode, guard: string, node: SyntaxNode): Value {
    const clauses = named(generator).slice(1);
    const forIn = clauses[0];
    const filter = clauses[1];
    if (forIn?.type !== 'for_in_clause' || clauses.length > 2 || (filter !== undefined && filter.type !== 'if_clause'))
      throw new Unsupported(`${name} over one for clause and at most one if`, lineOf(node));
    const variable = field(forIn, 'left');
    if (variable.type !== 'identifier') throw new Unsupported(`${name}'s variable is not one name`, lineOf(node));
    const source = field(forIn, 'right');
    let array: ArrayValue;
    let overIndex: boolean;
    if (source.type === 'identifier') {
      const value = this.lookup(source, guard);
      if (value.k !== 'arr') throw new Unsupported(`${name} over the non-list ${source.text}`, lineOf(node));
      array = value;
      overIndex = false;
    } else {
      const inner = source.type === 'call' && source.childForFieldName('function')?.text === 'range' ? named(field(source, 'arguments')) : [];
      const lenCall = inner.length === 1 && inner[0]!.type === 'call' && inner[0]!.childForFieldName('function')?.text === 'len' ? named(field(inner[0]!, 'arguments')) : [];
      const list = lenCall.length === 1 && lenCall[0]!.type === 'identifier' ? this.lookup(lenCall[0]!, guard) : undefined;
      if (list?.k !== 'arr') throw new Unsupported(`${name} over something other than a parameter list or range(len(list))`, lineOf(node));
      array = list;
      overIndex = true;
    }
    const body = field(generator, 'body');
    const saved = this.locals.get(variable.text);
    const expanded = this.expand(name === 'all' ? 'every' : 'some', array, (element, k, inRange) => {
      this.locals.set(variable.text, { value: { k: 'int', t: overIndex ? int(k) : element }, def: 'true', param: false });
      const kept = filter === undefined ? 'true' : this.truthy(this.expr(named(filter)[0]!, and(guard, inRange)), filter);
      return { kept, holds: this.truthy(this.expr(body, and(guard, inRange, kept)), body) };
    });
    if (saved === undefined) this.locals.delete(variable.text);
    else this.locals.set(variable.text, saved);
    return expanded;
  }
}

/**
 * The largest length of the list parameter `param` that one `requires` expression allows, when it
 * says so plainly (`len(xs) <= 4`, `0 <= len(xs) < 5`, `len(xs) == 3`, within `and`); undefined
 * when it does not bound it.
 */
export function pythonLengthBound(text: string, param: string): number | undefined {
  const root = parsePython(text);
  const statement = named(root)[0];
  const expression = statement?.type === 'expression_statement' ? named(statement)[0] : undefined;
  if (root.hasError || expression === undefined) return undefined;
  const isLength = (n: SyntaxNode): boolean => {
    if (n.type !== 'call' || n.childForFieldName('function')?.text !== 'len') return false;
    const args = named(field(n, 'arguments'));
    return args.length === 1 && args[0]!.type === 'identifier' && args[0]!.text === param;
  };
  const literal = (n: SyntaxNode): number | undefined => (n.type === 'integer' && /^[0-9]+$/.test(n.text) && Number.isSafeInteger(Number(n.text)) ? Number(n.text) : undefined);
  const bound = (n: SyntaxNode): number | undefined => {
    if (n.type === 'parenthesized_expression') return named(n).length === 1 ? bound(named(n)[0]!) : undefined;
    if (n.type === 'boolean_operator' && n.childForFieldName('operator')?.text === 'and') {
      const found = [bound(field(n, 'left')), bound(field(n, 'right'))].filter((b): b is number => b !== undefined);
      return found.length === 0 ? undefined : Math.min(...found);
    }
    if (n.type !== 'comparison_operator') return undefined;
    const children = n.children.filter((c): c is SyntaxNode => c !== null && c.type !== 'comment');
    const operands = children.filter((c) => c.isNamed);
    const ops = children.filter((c) => !c.isNamed).map((c) => c.type);
    const found: number[] = [];
    for (const [i, op] of ops.entries()) {
      const [a, b] = [operands[i], operands[i + 1]];
      if (a === undefined || b === undefined) return undefined;
      const right = literal(b);
      const left = literal(a);
      if (isLength(a) && right !== undefined && (op === '<=' || op === '==')) found.push(right);
      if (isLength(a) && right !== undefined && op === '<') found.push(right - 1);
      if (isLength(b) && left !== undefined && (op === '>=' || op === '==')) found.push(left);
      if (isLength(b) && left !== undefined && op === '>') found.push(left - 1);
    }
    return found.length === 0 ? undefined : Math.min(...found);
  };
  return bound(expression);
}
