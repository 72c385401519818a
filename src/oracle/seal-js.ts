import { parse } from '@babel/parser';
import { occurrenceId, type Comparator, type OracleCase, type PendingSite } from '../core/oracle.js';
import type { PredicateName, PredicateSpec } from '../core/predicates.js';
import { JS_OBSERVER_FILE } from './observer.js';

/**
 * `witness seal` for JavaScript and TypeScript tests (node:test, jest, vitest): parses each test
 * file with @babel/parser 7 (the parser Babel itself uses; it reads TS and JSX, and 7.x runs on
 * Node 20) and rewrites every assertion whose expected side is a literal into an observation of
 * its actual side. Rewriting works on source offsets, so everything else stays byte for byte.
 * Only the author's trusted tests are parsed here; nothing is executed.
 */

export interface SealedFile {
  path: string;
  source: string;
}

export interface UnsealedAssertion {
  phase: OracleCase['phase'];
  file: string;
  line: number;
  text: string;
}

export interface SealOutput {
  files: SealedFile[];
  cases: OracleCase[];
  unsealed: UnsealedAssertion[];
  /** Sites whose expected values come from `witness record --reference` (absent: none). */
  pending?: PendingSite[];
  /** The test of each site whose test is known: its file (relative to the phase folder), then its titles (suites, test). */
  tests?: Record<string, string[]>;
}

// The AST as plain objects: only the fields read here.
interface Node {
  type: string;
  start: number;
  end: number;
  loc: { start: { line: number } };
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

class NotLiteral extends Error {}

/** The JSON value of a literal expected side, encoded as the observer encodes actual values. */
function literalValue(node: Node): unknown {
  switch (node.type) {
    case 'NumericLiteral':
    case 'StringLiteral':
    case 'BooleanLiteral':
      return node.value;
    case 'NullLiteral':
      return null;
    case 'Identifier':
      if (node.name === 'undefined') return { $undefined: true };
      throw new NotLiteral();
    case 'UnaryExpression': {
      const arg = node.argument as Node;
      if ((node.operator === '-' || node.operator === '+') && arg.type === 'NumericLiteral') {
        const v = node.operator === '-' ? -(arg.value as number) : (arg.value as number);
        return Object.is(v, -0) ? 0 : v;
      }
      throw new NotLiteral();
    }
    case 'TemplateLiteral':
      if ((node.expressions as Node[]).length === 0) return ((node.quasis as Node[])[0]?.value as { cooked: string }).cooked;
      throw new NotLiteral();
    case 'ArrayExpression':
      return (node.elements as (Node | null)[]).map((e) => {
        if (e === null || e.type === 'SpreadElement') throw new NotLiteral();
        const v = literalValue(e);
        return isUndefinedMarker(v) ? null : v;
      });
    case 'ObjectExpression': {
      const out: Record<string, unknown> = {};
      for (const p of node.properties as Node[]) {
        if (p.type !== 'ObjectProperty' || p.computed === true) throw new NotLiteral();
        const key = p.key as Node;
        const name = key.type === 'Identifier' ? (key.name as string) : key.type === 'StringLiteral' || key.type === 'NumericLiteral' ? String(key.value) : undefined;
        if (name === undefined) throw new NotLiteral();
        const v = literalValue(p.value as Node);
        // The observer drops undefined properties, as toEqual and deepStrictEqual's JSON view would.
        if (!isUndefinedMarker(v)) out[name] = v;
      }
      return out;
    }
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'ParenthesizedExpression':
      return literalValue(node.expression as Node);
    default:
      throw new NotLiteral();
  }
}

const isUndefinedMarker = (v: unknown): boolean => typeof v === 'object' && v !== null && (v as Record<string, unknown>).$undefined === true;

function isLiteral(node: Node): boolean {
  try {
    literalValue(node);
    return true;
  } catch (error) {
    if (error instanceof NotLiteral) return false;
    throw error;
  }
}

const memberName = (node: Node): string | undefined => {
  if (node.type !== 'MemberExpression' || node.computed === true) return undefined;
  const property = node.property as Node;
  return property.type === 'Identifier' ? (property.name as string) : undefined;
};

/** node:assert's comparisons: the host predicate and whether it is negated. */
const ASSERT_PREDICATES: Record<string, [PredicateName, boolean]> = {
  equal: ['loose_equal', false],
  strictEqual: ['same', false],
  deepEqual: ['equal', false],
  deepStrictEqual: ['strict_equal', false],
  notEqual: ['loose_equal', true],
  notStrictEqual: ['same', true],
  notDeepEqual: ['equal', true],
  notDeepStrictEqual: ['strict_equal', true],
  match: ['match', false],
  doesNotMatch: ['match', true]
};
const EXPECT_PREDICATES: Record<string, PredicateName> = { toBe: 'same', toEqual: 'equal', toStrictEqual: 'strict_equal' };
const EXPECT_EQUAL = new Set(Object.keys(EXPECT_PREDICATES));
const SYMMETRIC = new Set<PredicateName>(['same', 'equal', 'strict_equal', 'loose_equal']);
const EQUALITY = new Set<PredicateName>(['same', 'equal', 'strict_equal', 'loose_equal']);

function walk(node: unknown, visit: (n: Node) => boolean): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!isNode(node)) return;
  if (!visit(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
    if (typeof value === 'object' && value !== null) walk(value, visit);
  }
}

/** `assert`, `assert.strict`, node:test's `t.assert` (any context name): the object node:assert's functions hang on. */
function isAssertObject(object: Node): boolean {
  if (object.type === 'Identifier') return object.name === 'assert';
  if (object.type === 'MemberExpression' && object.computed !== true) {
    const property = object.property as Node;
    if (property.type !== 'Identifier') return false;
    if (property.name === 'assert') return (object.object as Node).type === 'Identifier' || (object.object as Node).type === 'ThisExpression';
    if (property.name === 'strict') return isAssertObject(object.object as Node);
  }
  return false;
}

/** Is this call an assertion PatchProof knows the shape of (assert.*, assert(), expect(...).*)? */
function assertionLike(call: Node): boolean {
  const callee = call.callee as Node;
  if (callee.type === 'Identifier' && callee.name === 'assert') return true;
  if (callee.type === 'MemberExpression') {
    let object = callee.object as Node;
    if (isAssertObject(object)) return true;
    while (object.type === 'MemberExpression') object = object.object as Node;
    if (object.type === 'CallExpression' && (object.callee as Node).type === 'Identifier' && (object.callee as Node).name === 'expect') return true;
  }
  return false;
}

/** How many times a site runs, as far as the source says: once, once per table row, or unknown. */
interface Context {
  /** Unknown count: a loop, a hook or a helper function. */
  many: boolean;
  /** Inside a `test.each(table)(title, fn)` callback: its rows and parameter names. */
  each?: { rows: number; params: Map<string, EachParam> };
  /** The parameters of the enclosing functions: the test's own inputs (a helper's, a table's). */
  params?: ReadonlySet<string>;
  /** The literal titles of the enclosing suites and test; null when one is not a literal (or `.each`). */
  titles?: string[] | null;
  /** Inside a test's callback (not only a suite's, a hook's or a helper's at module level). */
  inTest?: boolean;
}

/** A call's title when it is a literal string. */
function literalTitle(node: Node | undefined): string | undefined {
  if (node?.type === 'StringLiteral') return node.value as string;
  if (node?.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) return (node.quasis as { value: { cooked: string } }[])[0]?.value.cooked;
  return undefined;
}

/** The root name of a test call's callee (`it.only` → `it`). */
function testRoot(callee: Node): string | undefined {
  if (callee.type === 'Identifier') return callee.name as string;
  if (callee.type === 'MemberExpression') return testRoot(callee.object as Node);
  if (callee.type === 'CallExpression') return testRoot(callee.callee as Node);
  return undefined;
}

interface EachParam {
  column: number;
  values: unknown[];
  cells: Node[];
  /** How often the name appears in the callback's body. */
  uses: number;
}

/** What one assertion becomes: an observation of its actual side against a literal, a table column or a recorded value. */
interface Conversion {
  actual: Node;
  /** How the observed expression is written, given the site id's source text. */
  replacement: (idText: string) => string;
  expected: { literal: unknown } | { param: string } | 'record';
  comparator: Comparator;
}

const TEST_ROOTS = new Set(['test', 'it', 'describe', 'suite']);
const TEST_MODIFIERS = new Set(['only', 'skip', 'concurrent', 'sequential', 'todo', 'fails', 'failing']);

/** `test(…)`, `it.only(…)`, `describe.skip(…)`: a call whose function arguments run once. */
function isTestCall(callee: Node): boolean {
  if (callee.type === 'Identifier') return TEST_ROOTS.has(callee.name as string);
  if (callee.type === 'MemberExpression' && callee.computed !== true) {
    const property = callee.property as Node;
    return property.type === 'Identifier' && TEST_MODIFIERS.has(property.name as string) && isTestCall(callee.object as Node);
  }
  return false;
}

/** `test.each(table)` (or `it.only.each(table)`): the table, when the callee is one. */
function eachTable(callee: Node): Node | undefined {
  if (callee.type !== 'CallExpression') return undefined;
  const inner = callee.callee as Node;
  if (inner.type !== 'MemberExpression' || inner.computed === true) return undefined;
  const property = inner.property as Node;
  if (property.type !== 'Identifier' || property.name !== 'each' || !isTestCall(inner.object as Node)) return undefined;
  const args = callee.arguments as Node[];
  return args.length === 1 ? args[0] : undefined;
}

/** Array methods that call back with the array's own elements. */
const ITERATING = new Set(['forEach', 'map', 'flatMap', 'filter', 'some', 'every', 'find', 'findIndex', 'reduce', 'reduceRight']);

const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

/** Seal the test files of one phase. `files` paths are relative to the phase folder. */
export function sealJs(phase: OracleCase['phase'], files: readonly SealedFile[]): Required<SealOutput> {
  const out: Required<SealOutput> = { files: [], cases: [], unsealed: [], pending: [], tests: {} };
  for (const file of files) {
    const ast = parse(file.source, { sourceType: 'unambiguous', plugins: file.path.endsWith('x') ? ['typescript', 'jsx'] : ['typescript'], errorRecovery: false });
    const source = file.source;
    const edits: { start: number; end: number; text: string }[] = [];
    const handled = new Set<Node>();
    const used = new Map<string, number>();
    const stem = file.path.replace(/[^A-Za-z0-9_./-]/g, '_');
    const newId = (node: Node): string => {
      const base = `${phase}:${stem}/${node.loc.start.line}`;
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      return n === 1 ? base : `${base}.${n}`;
    };
    const bound = bindingsOf(ast.program as unknown as Node);
    const text = (node: Node): string => source.slice(node.start, node.end);
    const firstLine = (node: Node): string => (text(node).split('\n')[0] ?? '').slice(0, 200);
    const unsealed = (node: Node): void => {
      out.unsealed.push({ phase, file: file.path, line: node.loc.start.line, text: firstLine(node) });
    };
    const plain =
      (actual: Node, fn = 'observe') =>
      (id: string) =>
        `${fn}(${id}, () => (${text(actual)}))`;
    /** Is an expression a function of the test's own inputs alone (see inputsOnly)? */
    const vacuous = (node: Node, context: Context): boolean => inputsOnly(node, context.params ?? new Set(), bound, new Set());
    const equality = (actual: Node, expected: Node, context: Context, swapped = false): Conversion | undefined => {
      // Never observe the test's own inputs: observe the other side, or nothing (issue 28).
      if (vacuous(actual, context)) return swapped || isLiteral(expected) || vacuous(expected, context) ? undefined : equality(expected, actual, context, true);
      const comparator: Comparator = { kind: 'exact' };
      if (isLiteral(expected)) return { actual, replacement: plain(actual), expected: { literal: literalValue(expected) }, comparator };
      if (expected.type === 'Identifier' && context.each?.params.has(expected.name as string) === true) {
        return { actual, replacement: plain(actual), expected: { param: expected.name as string }, comparator };
      }
      return { actual, replacement: plain(actual), expected: 'record', comparator };
    };
    /** An assertion's predicate on two sides: the exact form for a literal equality, else the predicate on the host. */
    const sided = (actual: Node, expected: Node, context: Context, predicate: PredicateName, negate: boolean, extra: Partial<PredicateSpec> = {}): Conversion | undefined => {
      const symmetric = SYMMETRIC.has(predicate);
      if (isLiteral(actual) && isLiteral(expected)) return undefined;
      if (symmetric && isLiteral(actual)) return sided(expected, actual, context, predicate, negate, extra);
      if (!negate && EQUALITY.has(predicate) && Object.keys(extra).length === 0) {
        const exact = equality(actual, expected, context);
        if (exact !== undefined && exact.expected !== 'record') return exact;
      }
      const base = { kind: 'predicate', predicate, ...(negate ? { negate: true } : {}), ...extra } as Comparator;
      if (isLiteral(expected)) {
        if (vacuous(actual, context)) return undefined;
        return {
          actual,
          replacement: (id) => `observe(${id}, () => (${text(actual)}))`,
          expected: { literal: literalValue(expected) },
          comparator: { ...base, observed: 'actual' } as Comparator
        };
      }
      // Never a site whose two sides are the test's own inputs: it holds for any implementation.
      if (vacuous(actual, context) && vacuous(expected, context)) return undefined;
      return {
        actual,
        replacement: (id) => `observeBoth(${id}, () => (${text(actual)}), () => (${text(expected)}))`,
        expected: { literal: null },
        comparator: { ...base, observed: 'both' } as Comparator
      };
    };
    /** What a thrown value must be: `X` (a class), `/re/`, `'text'` (toThrow), `{ … }` (assert.throws), or anything. */
    const throwSpec = (matcher: Node | undefined, style: 'expect' | 'assert'): Partial<PredicateSpec> | undefined => {
      if (matcher === undefined) return {};
      if (matcher.type === 'Identifier') return { type: matcher.name as string };
      if (matcher.type === 'RegExpLiteral')
        return { pattern: matcher.pattern as string, flags: matcher.flags as string, ...(style === 'assert' ? { subject: 'string' as const } : {}) };
      if (style === 'expect' && isLiteral(matcher) && typeof literalValue(matcher) === 'string') return { includes: literalValue(matcher) as string };
      if (style === 'assert' && matcher.type === 'ObjectExpression') {
        const props: Record<string, unknown> = {};
        for (const p of matcher.properties as Node[]) {
          if (p.type !== 'ObjectProperty' || p.computed === true || (p.key as Node).type !== 'Identifier') return undefined;
          const value = p.value as Node;
          if (value.type === 'RegExpLiteral') props[(p.key as Node).name as string] = { $regexp: { flags: value.flags, source: value.pattern } };
          else if (isLiteral(value)) props[(p.key as Node).name as string] = literalValue(value);
          else return undefined;
        }
        return { props };
      }
      return undefined;
    };
    const throwing = (subject: Node, matcher: Node | undefined, style: 'expect' | 'assert', negate: boolean, awaited: boolean): Conversion | undefined => {
      if (!awaited && !isFunction(subject)) return undefined;
      if (awaited && isLiteral(subject)) return undefined;
      const spec = throwSpec(matcher, style);
      if (spec === undefined) return undefined;
      const fn = awaited ? 'observeRejects' : 'observeThrows';
      // The established forms stay as they were sealed: toThrow(), toThrow(Class), assert.throws(fn[, Class]).
      if (!awaited && !negate && (matcher === undefined || matcher.type === 'Identifier')) {
        return { actual: subject, replacement: (id) => `${fn}(${id}, ${text(subject)})`, expected: { literal: null }, comparator: { kind: 'raises', type: spec.type ?? 'Error' } };
      }
      return {
        actual: subject,
        replacement: (id) => `${fn}(${id}, ${text(subject)})`,
        expected: { literal: null },
        comparator: { kind: 'predicate', predicate: 'throws', observed: 'actual', ...(negate ? { negate: true } : {}), ...spec } as Comparator
      };
    };
    /** The conversion of an assertion call, or undefined when it has no observation form. */
    const convert = (call: Node, context: Context, awaited: boolean): Conversion | undefined => {
      const callee = call.callee as Node;
      const args = call.arguments as Node[];
      if (args.some((a) => a.type === 'SpreadElement')) return undefined;
      // node:assert, assert.strict, node:test's t.assert
      const name = memberName(callee);
      const onAssert = callee.type === 'MemberExpression' && isAssertObject(callee.object as Node);
      if (onAssert && name !== undefined && ASSERT_PREDICATES[name] !== undefined && args.length >= 2 && args.length <= 3 && !awaited) {
        const [predicate, negate] = ASSERT_PREDICATES[name];
        const [a, b] = args as [Node, Node];
        if (predicate === 'match') {
          if (b.type !== 'RegExpLiteral' || isLiteral(a) || vacuous(a, context)) return undefined;
          return {
            actual: a,
            replacement: (id) => `observe(${id}, () => (${text(a)}))`,
            expected: { literal: null },
            comparator: {
              kind: 'predicate',
              predicate,
              observed: 'actual',
              pattern: b.pattern as string,
              flags: b.flags as string,
              ...(negate ? { negate: true } : {})
            } as Comparator
          };
        }
        return sided(a, b, context, predicate, negate);
      }
      if (
        ((callee.type === 'Identifier' && callee.name === 'assert') || (onAssert && name === 'ok')) &&
        args.length >= 1 &&
        args.length <= 2 &&
        !awaited &&
        !isLiteral(args[0] as Node) &&
        !vacuous(args[0] as Node, context)
      ) {
        const a = args[0] as Node;
        return { actual: a, replacement: (id) => `observe(${id}, () => Boolean(${text(a)}))`, expected: { literal: true }, comparator: { kind: 'exact' } };
      }
      // `t.assert.ok('inside the handler')`: the check is that the line is reached (as often as with
      // the reference fix); the observation is the reach, its count fixed by `record` when unknown.
      if (
        ((callee.type === 'Identifier' && callee.name === 'assert') || (onAssert && name === 'ok')) &&
        args.length >= 1 &&
        args.length <= 2 &&
        !awaited &&
        isLiteral(args[0] as Node) &&
        literalValue(args[0] as Node) !== null &&
        Boolean(literalValue(args[0] as Node)) &&
        typeof literalValue(args[0] as Node) !== 'object'
      ) {
        const a = args[0] as Node;
        return { actual: a, replacement: (id) => `observe(${id}, () => true)`, expected: { literal: true }, comparator: { kind: 'exact' } };
      }
      if (onAssert && (name === 'throws' || name === 'rejects') && args.length >= 1 && args.length <= 3 && awaited === (name === 'rejects')) {
        // A third argument (or a string second one) is the failure message, not a matcher.
        const matcher = args[1] !== undefined && !(isLiteral(args[1]) && typeof literalValue(args[1]) === 'string') ? args[1] : undefined;
        if (args.length === 3 && matcher === undefined) return undefined;
        return throwing(args[0] as Node, matcher, 'assert', false, awaited);
      }
      if (onAssert && name === 'doesNotThrow' && args.length >= 1 && args.length <= 2 && !awaited) return throwing(args[0] as Node, undefined, 'assert', true, false);
      // expect(actual)[.not][.resolves|.rejects].matcher(expected)
      if (callee.type === 'MemberExpression' && name !== undefined) {
        let target = callee.object as Node;
        let negate = false;
        let rejects = false;
        while (target.type === 'MemberExpression' && target.computed !== true) {
          const modifier = memberName(target);
          if (modifier === 'not') negate = !negate;
          else if (modifier === 'rejects') rejects = true;
          else return undefined;
          target = target.object as Node;
        }
        if (target.type !== 'CallExpression' || (target.callee as Node).type !== 'Identifier' || (target.callee as Node).name !== 'expect') return undefined;
        const targetArgs = target.arguments as Node[];
        if (targetArgs.length !== 1) return undefined;
        const actual = targetArgs[0] as Node;
        if (isLiteral(actual) && !isLiteral(args[0] ?? actual)) {
          // expect(3).toBe(f()): only the symmetric matchers may swap sides.
          if (!(EXPECT_EQUAL.has(name) && args.length === 1)) return undefined;
        } else if (isLiteral(actual)) return undefined;
        if (rejects !== awaited) return undefined;
        if (name === 'toThrow' || name === 'toThrowError') {
          if (args.length > 1 || (negate && rejects)) return undefined;
          return throwing(actual, args[0], 'expect', negate, rejects);
        }
        if (rejects) return undefined;
        if (EXPECT_EQUAL.has(name) && args.length === 1) {
          if (!negate && !isLiteral(args[0] as Node) && (args[0] as Node).type === 'Identifier' && context.each?.params.has((args[0] as Node).name as string) === true)
            return equality(actual, args[0] as Node, context);
          return sided(actual, args[0] as Node, context, EXPECT_PREDICATES[name]!, negate);
        }
        if (name === 'toBeCloseTo' && args.length >= 1 && args.length <= 2) {
          const digits = args[1] === undefined ? 2 : isLiteral(args[1]) ? literalValue(args[1]) : undefined;
          if (typeof digits !== 'number') return undefined;
          if (!negate && isLiteral(args[0] as Node) && typeof literalValue(args[0] as Node) === 'number' && !vacuous(actual, context)) {
            return { actual, replacement: plain(actual), expected: { literal: literalValue(args[0] as Node) }, comparator: { kind: 'float', abs: 10 ** -digits / 2, rel: 0 } };
          }
          return sided(actual, args[0] as Node, context, 'close', negate, { digits });
        }
        if (name === 'toHaveLength' && args.length === 1) {
          if (!negate && (args[0] as Node).type === 'NumericLiteral' && !vacuous(actual, context)) {
            return { actual, replacement: (id) => `observe(${id}, () => (${text(actual)}).length)`, expected: { literal: (args[0] as Node).value }, comparator: { kind: 'exact' } };
          }
          return sided(actual, args[0] as Node, context, 'length', negate);
        }
        if ((name === 'toContain' || name === 'toContainEqual' || name === 'toMatchObject') && args.length === 1) {
          return sided(actual, args[0] as Node, context, name === 'toMatchObject' ? 'match_object' : 'contains', negate);
        }
        if (name === 'toMatch' && args.length === 1) {
          const m = args[0] as Node;
          if (vacuous(actual, context)) return undefined;
          if (m.type === 'RegExpLiteral') {
            return {
              actual,
              replacement: plain(actual),
              expected: { literal: null },
              comparator: {
                kind: 'predicate',
                predicate: 'match',
                observed: 'actual',
                pattern: m.pattern as string,
                flags: m.flags as string,
                ...(negate ? { negate: true } : {})
              } as Comparator
            };
          }
          // A non-literal pattern could be a RegExp the host would have to run as the container gave it: only a string is sealed.
          if (!(isLiteral(m) && typeof literalValue(m) === 'string')) return undefined;
          return sided(actual, m, context, 'match', negate);
        }
        const truth: Record<string, string> = {
          toBeTruthy: 'Boolean(%)',
          toBeFalsy: '!(%)',
          toBeNull: '(%) === null',
          toBeUndefined: '(%) === undefined',
          toBeDefined: '(%) !== undefined'
        };
        if (truth[name] !== undefined && args.length === 0) {
          if (vacuous(actual, context)) return undefined;
          return { actual, replacement: (id) => `observe(${id}, () => ${truth[name]!.replace('%', text(actual))})`, expected: { literal: !negate }, comparator: { kind: 'exact' } };
        }
      }
      return undefined;
    };
    /** Table cells to replace by row tags, once every use of their parameter is a sealed expected side. */
    const paramUses = new Map<string, { sites: number; total: number; cells: Node[] }>();
    const tableEdits: { param: string; cells: Node[] }[] = [];
    const sealCall = (call: Node, context: Context, awaited = false): boolean => {
      const conversion = convert(call, context, awaited);
      if (conversion === undefined) return false;
      const site = newId(call);
      if (context.inTest === true && Array.isArray(context.titles)) out.tests[site] = [file.path, ...context.titles];
      const expected = conversion.expected;
      const { comparator } = conversion;
      if (expected !== 'record' && 'param' in expected) {
        const param = context.each!.params.get(expected.param)!;
        // Each row's cell becomes its tag "#r<n>"; the site observes `site + tag`.
        param.values.forEach((value, row) => out.cases.push({ id: `${site}#r${row + 1}`, phase, expected: value, comparator }));
        const uses = paramUses.get(expected.param) ?? { sites: 0, total: param.uses, cells: param.cells };
        uses.sites += 1;
        paramUses.set(expected.param, uses);
        edits.push({ start: call.start, end: call.end, text: conversion.replacement(`${JSON.stringify(site)} + ${expected.param}`) });
        return true;
      }
      edits.push({ start: call.start, end: call.end, text: conversion.replacement(JSON.stringify(site)) });
      if (expected === 'record' || context.many) {
        out.pending.push({
          phase,
          site,
          file: file.path,
          line: call.loc.start.line,
          text: firstLine(call),
          comparator,
          // Both sides observed: nothing literal to hold the observations to but the predicate.
          ...(expected !== 'record' && !(comparator.kind === 'predicate' && comparator.observed === 'both') ? { expected: expected.literal } : {})
        });
        return true;
      }
      const times = context.each?.rows ?? 1;
      for (let n = 1; n <= times; n++) out.cases.push({ id: occurrenceId(site, n), phase, expected: expected.literal, comparator });
      return true;
    };
    const visit = (node: unknown, context: Context): void => {
      if (Array.isArray(node)) {
        for (const child of node) visit(child, context);
        return;
      }
      if (!isNode(node)) return;
      if (node.type === 'ExpressionStatement' && isNode(node.expression) && node.expression.type === 'CallExpression') {
        const call = node.expression;
        if (assertionLike(call)) {
          handled.add(call);
          if (!sealCall(call, context)) unsealed(call);
          return;
        }
      }
      // `await expect(p).rejects.toThrow(…)`, `await assert.rejects(…)`: the awaited call is replaced, the await stays.
      if (node.type === 'ExpressionStatement' && isNode(node.expression) && node.expression.type === 'AwaitExpression' && isNode(node.expression.argument)) {
        const call = node.expression.argument;
        if (call.type === 'CallExpression' && assertionLike(call)) {
          handled.add(call);
          if (!sealCall(call, context, true)) unsealed(call);
          return;
        }
      }
      if (node.type === 'CallExpression' && !handled.has(node) && assertionLike(node)) {
        // awaited, returned or nested assertions (e.g. `await expect(p).resolves…`) stay in-process
        unsealed(node);
        return;
      }
      if (LOOPS.has(node.type)) {
        for (const [key, value] of Object.entries(node)) if (isChild(key, value)) visit(value, { ...context, many: true });
        return;
      }
      if (node.type === 'CallExpression') {
        const callee = node.callee as Node;
        const args = node.arguments as Node[];
        const table = eachTable(callee);
        if (isTestCall(callee) || table !== undefined) {
          visit(callee, context);
          // The test's name as the framework reports it: known for literal titles only.
          const title = table === undefined ? literalTitle(args[0]) : undefined;
          const titles = context.titles === null || title === undefined ? null : [...(context.titles ?? []), title];
          const isTest = testRoot(callee) === 'test' || testRoot(callee) === 'it';
          context = { ...context, titles, inTest: context.inTest === true || isTest };
          for (const arg of args) {
            if (!isFunction(arg)) {
              visit(arg, context);
              continue;
            }
            const each = table !== undefined ? eachContext(table, arg) : undefined;
            if (table !== undefined && each === undefined) {
              visitFunction(arg, { ...context, many: true });
              continue;
            }
            visitFunction(arg, each !== undefined ? { many: context.many, each } : context);
          }
          return;
        }
      }
      if (node.type === 'CallExpression' && !ITERATING.has(memberName(node.callee as Node) ?? '')) {
        // A callback handed to the code (`router.lookup(req, res, (err, result) => …)`): its
        // parameters are what that code produced, not the test's inputs. Array iteration
        // (`cases.forEach(([input, want]) => …)`) hands the test's own data back: those stay inputs.
        visit(node.callee, context);
        for (const arg of node.arguments as Node[]) {
          if (isFunction(arg)) visitFunction(arg, { ...context, many: true }, true);
          else visit(arg, context);
        }
        return;
      }
      if (isFunction(node) || node.type === 'FunctionDeclaration' || node.type === 'ObjectMethod' || node.type === 'ClassMethod') {
        // A helper, a hook or a callback: how often it runs is not in the source.
        visitFunction(node, { ...context, many: true });
        return;
      }
      for (const [key, value] of Object.entries(node)) if (isChild(key, value)) visit(value, context);
    };
    const visitFunction = (fn: Node, context: Context, produced = false): void => {
      // Parameters that shadow a table's parameter end its reach.
      const shadowed = (fn.params as Node[]).some((p) => p.type === 'Identifier' && context.each?.params.has(p.name as string) === true && !isEachOwner(fn, context));
      const own = (fn.params as Node[]).flatMap(patternNames);
      const params = produced ? new Set([...(context.params ?? [])].filter((n) => !own.includes(n))) : new Set([...(context.params ?? []), ...own]);
      visit(fn.body, shadowed ? { many: context.many, params } : { ...context, params });
    };
    const owners = new Set<Node>();
    const isEachOwner = (fn: Node, _context: Context): boolean => owners.has(fn);
    /** The context of a `test.each` callback: a literal table of literal rows and plain parameters. */
    const eachContext = (table: Node, fn: Node): Context['each'] | undefined => {
      if (table.type !== 'ArrayExpression') return undefined;
      const rows = table.elements as (Node | null)[];
      if (rows.length === 0 || rows.some((r) => r === null || r.type !== 'ArrayExpression')) return undefined;
      const params = fn.params as Node[];
      if (params.some((p) => p.type !== 'Identifier')) return undefined;
      const map = new Map<string, EachParam>();
      params.forEach((p, column) => {
        const cells = rows.map((r) => ((r as Node).elements as (Node | null)[])[column]);
        if (cells.some((c) => c === null || c === undefined || !isLiteral(c))) return;
        let uses = 0;
        walk(fn.body, (n) => {
          if (n.type === 'Identifier' && n.name === p.name) uses += 1;
          return true;
        });
        map.set(p.name as string, { column, cells: cells as Node[], values: (cells as Node[]).map((c) => literalValue(c)), uses });
      });
      owners.add(fn);
      return { rows: rows.length, params: map };
    };
    visit(ast.program, { many: false });
    // A table column whose every use is a sealed expected side leaves the container: its cells become row tags.
    for (const [param, uses] of paramUses) {
      if (uses.sites === 0) continue;
      if (uses.total !== uses.sites) {
        // Used elsewhere too (in the title's computation, the call): its values would stay in the copy.
        out.unsealed.push({ phase, file: file.path, line: (uses.cells[0] as Node).loc.start.line, text: `test.each column '${param}' is also used outside its assertions` });
        continue;
      }
      tableEdits.push({ param, cells: uses.cells });
    }
    for (const { cells } of tableEdits) cells.forEach((cell, row) => edits.push({ start: cell.start, end: cell.end, text: JSON.stringify(`#r${row + 1}`) }));
    let sealed = source;
    for (const edit of [...edits].sort((x, y) => y.start - x.start)) sealed = sealed.slice(0, edit.start) + edit.text + sealed.slice(edit.end);
    if (edits.length > 0) sealed = withImport(sealed, ast.program as unknown as Node, file.path, edits);
    out.files.push({ path: file.path, source: sealed });
  }
  return out;
}

/** The names a binding pattern binds (`a`, `{ a, b: [c] }`, `...d`, `e = 1`). */
function patternNames(pattern: Node): string[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name as string];
    case 'ObjectPattern':
      return (pattern.properties as Node[]).flatMap((p) => patternNames(p.type === 'RestElement' ? p : (p.value as Node)));
    case 'ArrayPattern':
      return (pattern.elements as (Node | null)[]).flatMap((e) => (e === null ? [] : patternNames(e)));
    case 'RestElement':
      return patternNames(pattern.argument as Node);
    case 'AssignmentPattern':
      return patternNames(pattern.left as Node);
    case 'TSParameterProperty':
      return patternNames(pattern.parameter as Node);
    default:
      return [];
  }
}

/** A name bound by code (a function, a class, an import, a catch clause), as opposed to a value. */
const BY_CODE = 'code' as const;

/**
 * What the file binds each name to, wherever it is (scopes are not told apart, which only makes a
 * name look bound by code more often): the initialisers, assigned values and iterated collections.
 */
function bindingsOf(program: Node): Map<string, (Node | typeof BY_CODE)[]> {
  const out = new Map<string, (Node | typeof BY_CODE)[]>();
  const add = (names: readonly string[], value: Node | typeof BY_CODE): void => {
    for (const name of names) out.set(name, [...(out.get(name) ?? []), value]);
  };
  walk(program, (n) => {
    if (n.type === 'VariableDeclarator') add(patternNames(n.id as Node), isNode(n.init) ? n.init : BY_CODE);
    else if (n.type === 'AssignmentExpression') add(patternNames(n.left as Node), n.operator === '=' ? (n.right as Node) : BY_CODE);
    else if (n.type === 'ForOfStatement' || n.type === 'ForInStatement') {
      const left = n.left as Node;
      const target = left.type === 'VariableDeclaration' ? ((left.declarations as Node[])[0]?.id as Node) : left;
      add(patternNames(target), n.type === 'ForOfStatement' ? (n.right as Node) : BY_CODE);
    } else if ((n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration') && isNode(n.id)) add([n.id.name as string], BY_CODE);
    else if (n.type === 'ImportSpecifier' || n.type === 'ImportDefaultSpecifier' || n.type === 'ImportNamespaceSpecifier') add([(n.local as Node).name as string], BY_CODE);
    else if (n.type === 'CatchClause' && isNode(n.param)) add(patternNames(n.param), BY_CODE);
    else if (n.type === 'UpdateExpression' && isNode(n.argument)) add(patternNames(n.argument), BY_CODE);
    return true;
  });
  return out;
}

/**
 * Is an expression a function of the test's own inputs alone: literals, constants the test binds
 * to such values, and the parameters of the enclosing functions (a helper's, a table's), combined
 * by operators, indexing and templates? Its value is whatever the test passed in, so observing it
 * checks nothing (issue 28): it is never sealed. A call, a property read (a getter), `new` or
 * `await` runs code, and is not.
 */
function inputsOnly(node: Node, params: ReadonlySet<string>, bound: Map<string, (Node | typeof BY_CODE)[]>, seen: Set<string>): boolean {
  const all = (nodes: readonly (Node | null)[]): boolean => nodes.every((n) => n === null || inputsOnly(n, params, bound, seen));
  if (isLiteral(node)) return true;
  switch (node.type) {
    case 'Identifier': {
      const name = node.name as string;
      if (params.has(name)) return true;
      const values = bound.get(name);
      if (values === undefined || values.length === 0) return false;
      if (seen.has(name)) return true;
      seen.add(name);
      return values.every((v) => v !== BY_CODE && inputsOnly(v, params, bound, seen));
    }
    case 'ArrayExpression':
      return all(node.elements as (Node | null)[]);
    case 'ObjectExpression':
      return (node.properties as Node[]).every((p) =>
        p.type === 'SpreadElement'
          ? inputsOnly(p.argument as Node, params, bound, seen)
          : p.type === 'ObjectProperty' && (p.computed !== true || inputsOnly(p.key as Node, params, bound, seen)) && inputsOnly(p.value as Node, params, bound, seen)
      );
    case 'SpreadElement':
      return inputsOnly(node.argument as Node, params, bound, seen);
    case 'TemplateLiteral':
      return all(node.expressions as Node[]);
    case 'BinaryExpression':
    case 'LogicalExpression':
      return all([node.left as Node, node.right as Node]);
    case 'UnaryExpression':
      return node.operator !== 'delete' && inputsOnly(node.argument as Node, params, bound, seen);
    case 'ConditionalExpression':
      return all([node.test as Node, node.consequent as Node, node.alternate as Node]);
    case 'MemberExpression':
      // Indexing a test's own array is still its input; a named property may be a getter.
      return node.computed === true && all([node.object as Node, node.property as Node]);
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'ParenthesizedExpression':
      return inputsOnly(node.expression as Node, params, bound, seen);
    default:
      return false;
  }
}

const isChild = (key: string, value: unknown): boolean =>
  key !== 'loc' && key !== 'leadingComments' && key !== 'trailingComments' && key !== 'innerComments' && typeof value === 'object' && value !== null;

const isFunction = (node: Node): boolean => node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression';

const OBSERVERS = ['observe', 'observeBoth', 'observeThrows', 'observeRejects'] as const;

/** Add the observer's import (or require) at the top, naming the observers the file uses. */
function withImport(sealed: string, program: Node, path: string, edits: readonly { start: number; end: number; text: string }[]): string {
  const depth = path.split('/').length - 1;
  const spec = `${depth === 0 ? './' : '../'.repeat(depth)}${JS_OBSERVER_FILE}`;
  const esm = program.sourceType === 'module';
  const names = OBSERVERS.filter((n) => edits.some((e) => e.text.includes(`${n}(`))).join(', ');
  const line = esm
    ? `import { ${names} } from ${JSON.stringify(spec)}; // sealed by patchproof witness seal\n`
    : `const { ${names} } = require(${JSON.stringify(spec)}); // sealed by patchproof witness seal\n`;
  // First, before the file's own imports: the observer captures the intrinsics it reads values
  // with before any code under test loads (ESM evaluates imports in order; CommonJS requires too).
  // After a 'use strict' directive and a hashbang, if any.
  const directives = (program.directives as Node[] | undefined) ?? [];
  const at = directives.length > 0 ? (directives[directives.length - 1] as Node).end : 0;
  const shift = edits.filter((e) => e.end <= at).reduce((sum, e) => sum + e.text.length - (e.end - e.start), 0);
  const position = at + shift;
  const nl = sealed.indexOf('\n', position);
  const insertAt = position === 0 ? 0 : nl < 0 ? sealed.length : nl + 1;
  return sealed.slice(0, insertAt) + (position !== 0 && nl < 0 ? '\n' : '') + line + sealed.slice(insertAt);
}
