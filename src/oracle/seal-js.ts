import { parse } from '@babel/parser';
import { posix } from 'node:path';
import type { Comparator, OracleCase } from '../core/oracle.js';
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

const ASSERT_EQUAL = new Set(['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual']);
const EXPECT_EQUAL = new Set(['toBe', 'toEqual', 'toStrictEqual']);

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

/** Is this call an assertion PatchProof knows the shape of (assert.*, assert(), expect(...).*)? */
function assertionLike(call: Node): boolean {
  const callee = call.callee as Node;
  if (callee.type === 'Identifier' && callee.name === 'assert') return true;
  if (callee.type === 'MemberExpression') {
    let object = callee.object as Node;
    if (object.type === 'Identifier' && object.name === 'assert') return true;
    while (object.type === 'MemberExpression') object = object.object as Node;
    if (object.type === 'CallExpression' && (object.callee as Node).type === 'Identifier' && (object.callee as Node).name === 'expect') return true;
  }
  return false;
}

/** Seal the test files of one phase. `files` paths are relative to the phase folder. */
export function sealJs(phase: OracleCase['phase'], files: readonly SealedFile[]): SealOutput {
  const out: SealOutput = { files: [], cases: [], unsealed: [] };
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
    const text = (node: Node): string => source.slice(node.start, node.end);
    const unsealed = (node: Node): void => {
      out.unsealed.push({ phase, file: file.path, line: node.loc.start.line, text: (text(node).split('\n')[0] ?? '').slice(0, 200) });
    };
    const observe = (call: Node, actual: Node, expected: unknown, comparator: Comparator, fn = 'observe'): void => {
      const id = newId(call);
      out.cases.push({ id, phase, expected, comparator });
      edits.push({ start: call.start, end: call.end, text: `${fn}(${JSON.stringify(id)}, () => (${text(actual)}))` });
    };
    const sealCall = (call: Node): boolean => {
      const callee = call.callee as Node;
      const args = call.arguments as Node[];
      if (args.some((a) => a.type === 'SpreadElement')) return false;
      // node:assert
      const name = memberName(callee);
      const onAssert = callee.type === 'MemberExpression' && (callee.object as Node).type === 'Identifier' && (callee.object as Node).name === 'assert';
      if (onAssert && name !== undefined && ASSERT_EQUAL.has(name) && args.length >= 2 && args.length <= 3) {
        const [a, b] = args as [Node, Node];
        if (isLiteral(b) && !isLiteral(a)) return observe(call, a, literalValue(b), { kind: 'exact' }), true;
        if (isLiteral(a) && !isLiteral(b)) return observe(call, b, literalValue(a), { kind: 'exact' }), true;
        return false;
      }
      if (((callee.type === 'Identifier' && callee.name === 'assert') || (onAssert && name === 'ok')) && args.length >= 1 && args.length <= 2 && !isLiteral(args[0] as Node)) {
        const a = args[0] as Node;
        const id = newId(call);
        out.cases.push({ id, phase, expected: true, comparator: { kind: 'exact' } });
        edits.push({ start: call.start, end: call.end, text: `observe(${JSON.stringify(id)}, () => Boolean(${text(a)}))` });
        return true;
      }
      if (onAssert && name === 'throws' && (args.length === 1 || args.length === 2) && isFunction(args[0] as Node)) {
        const kind = args[1];
        if (kind !== undefined && kind.type !== 'Identifier') return false;
        const id = newId(call);
        out.cases.push({ id, phase, expected: null, comparator: kind === undefined ? { kind: 'raises', type: 'Error' } : { kind: 'raises', type: kind.name as string } });
        edits.push({ start: call.start, end: call.end, text: `observeThrows(${JSON.stringify(id)}, ${text(args[0] as Node)})` });
        return true;
      }
      // expect(actual).matcher(expected)
      if (callee.type === 'MemberExpression' && name !== undefined) {
        const target = callee.object as Node;
        if (target.type !== 'CallExpression' || (target.callee as Node).type !== 'Identifier' || (target.callee as Node).name !== 'expect') return false;
        const targetArgs = target.arguments as Node[];
        if (targetArgs.length !== 1) return false;
        const actual = targetArgs[0] as Node;
        if (isLiteral(actual)) return false;
        if (EXPECT_EQUAL.has(name) && args.length === 1 && isLiteral(args[0] as Node)) {
          return observe(call, actual, literalValue(args[0] as Node), { kind: 'exact' }), true;
        }
        if (name === 'toBeCloseTo' && args.length >= 1 && args.length <= 2 && isLiteral(args[0] as Node)) {
          const expected = literalValue(args[0] as Node);
          const digits = args[1] === undefined ? 2 : literalValue(args[1]);
          if (typeof expected !== 'number' || typeof digits !== 'number') return false;
          return observe(call, actual, expected, { kind: 'float', abs: 10 ** -digits / 2, rel: 0 }), true;
        }
        if (name === 'toHaveLength' && args.length === 1 && (args[0] as Node).type === 'NumericLiteral') {
          const id = newId(call);
          out.cases.push({ id, phase, expected: (args[0] as Node).value, comparator: { kind: 'exact' } });
          edits.push({ start: call.start, end: call.end, text: `observe(${JSON.stringify(id)}, () => (${text(actual)}).length)` });
          return true;
        }
        const truth: Record<string, string> = { toBeTruthy: 'Boolean(%)', toBeFalsy: '!(%)', toBeNull: '(%) === null', toBeUndefined: '(%) === undefined', toBeDefined: '(%) !== undefined' };
        if (truth[name] !== undefined && args.length === 0) {
          const id = newId(call);
          out.cases.push({ id, phase, expected: true, comparator: { kind: 'exact' } });
          edits.push({ start: call.start, end: call.end, text: `observe(${JSON.stringify(id)}, () => ${truth[name]!.replace('%', text(actual))})` });
          return true;
        }
        if (name === 'toThrow' && isFunction(actual) && args.length <= 1) {
          const kind = args[0];
          if (kind !== undefined && kind.type !== 'Identifier' && kind.type !== 'StringLiteral') return false;
          const comparator: Comparator =
            kind === undefined
              ? { kind: 'raises', type: 'Error' }
              : kind.type === 'Identifier'
                ? { kind: 'raises', type: kind.name as string }
                : { kind: 'raises', type: 'Error', pattern: escapeRegExp(kind.value as string) };
          if (comparator.type === 'Error' && kind !== undefined && kind.type === 'StringLiteral') {
            // toThrow('text') accepts any error class: only the message is sealed.
            return false;
          }
          const id = newId(call);
          out.cases.push({ id, phase, expected: null, comparator });
          edits.push({ start: call.start, end: call.end, text: `observeThrows(${JSON.stringify(id)}, ${text(actual)})` });
          return true;
        }
      }
      return false;
    };
    walk(ast.program, (node) => {
      if (node.type === 'ExpressionStatement' && isNode(node.expression) && (node.expression as Node).type === 'CallExpression') {
        const call = node.expression as Node;
        if (assertionLike(call)) {
          handled.add(call);
          if (!sealCall(call)) unsealed(call);
          return false;
        }
      }
      if (node.type === 'CallExpression' && !handled.has(node) && assertionLike(node)) {
        // awaited, returned or nested assertions (e.g. `await expect(p).resolves…`) stay in-process
        unsealed(node);
        return false;
      }
      return true;
    });
    let sealed = source;
    for (const edit of [...edits].sort((x, y) => y.start - x.start)) sealed = sealed.slice(0, edit.start) + edit.text + sealed.slice(edit.end);
    if (edits.length > 0) sealed = withImport(sealed, ast.program as unknown as Node, file.path, edits);
    out.files.push({ path: file.path, source: sealed });
  }
  return out;
}

const isFunction = (node: Node): boolean => node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression';
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Add the observer's import: after the leading imports (ESM) or at the top (CommonJS). */
function withImport(sealed: string, program: Node, path: string, edits: readonly { start: number; end: number; text: string }[]): string {
  const depth = path.split('/').length - 1;
  const spec = `${depth === 0 ? './' : '../'.repeat(depth)}${JS_OBSERVER_FILE}`;
  const body = program.body as Node[];
  const esm = program.sourceType === 'module';
  const line = esm
    ? `import { observe, observeThrows } from ${JSON.stringify(spec)}; // sealed by patchproof witness seal\n`
    : `const { observe, observeThrows } = require(${JSON.stringify(spec)}); // sealed by patchproof witness seal\n`;
  const imports = body.filter((s) => s.type === 'ImportDeclaration');
  let at = 0;
  if (esm && imports.length > 0) {
    const last = imports[imports.length - 1] as Node;
    at = last.end;
  } else {
    // after a 'use strict' directive and a hashbang, if any
    const directives = (program.directives as Node[] | undefined) ?? [];
    at = directives.length > 0 ? (directives[directives.length - 1] as Node).end : 0;
  }
  const shift = edits.filter((e) => e.end <= at).reduce((sum, e) => sum + e.text.length - (e.end - e.start), 0);
  const position = at + shift;
  const nl = sealed.indexOf('\n', position);
  const insertAt = position === 0 ? 0 : nl < 0 ? sealed.length : nl + 1;
  return sealed.slice(0, insertAt) + (position !== 0 && nl < 0 ? '\n' : '') + line + sealed.slice(insertAt);
}
