import { createHash } from 'node:crypto';
// @babel/parser 7: the parser of Babel (and so of jest's own transform), for JS/TS/JSX with
// positions; it only parses the trusted test files, never runs them.
import { parse } from '@babel/parser';
import type { CanaryPlan, TwinCanary } from '../adapter.js';
import { checkCanaryPlan } from './canary.js';
import type { TwinBudget } from './python-twins.js';

/**
 * Twin canaries and mutant twins for the JS adapters (node:test, jest, vitest), generated on the
 * host with @babel/parser; the same design as python-twins.ts. A copy is one more
 * `test('title', fn)` / `it(...)` call, through the binding the file itself uses, next to a random
 * real test in the same `describe` (or at the top level), titled with the words of its
 * neighbours' titles. A mutant perturbs one top-level assertion of the copy:
 * `assert.equal(f(x), 3)` → `assert.equal(f(x), 8)`, `expect(f(x)).toBe('a')` → `….toBe('ak')`,
 * `assert.ok(x)` → `assert.ok(!(x))`, a non-literal expected value `v` → `[v]`.
 */

type Node = { type: string; start: number; end: number; loc: { start: { line: number }; end: { line: number } }; [key: string]: unknown };

const TEST_CALLEES = new Set(['test', 'it']);
const SUITE_CALLEES = new Set(['describe', 'suite']);
const ASSERT_VALUE = new Set(['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual']);
const ASSERT_TRUTH = new Set(['ok']);
const EXPECT_VALUE = new Set(['toBe', 'toEqual', 'toStrictEqual', 'toBeCloseTo']);

/** A seeded stream of random numbers from the nonce (positions must not follow from names). */
function randomFrom(seed: string): () => number {
  let counter = 0;
  return () => {
    const digest = createHash('sha256').update(`${seed}:${counter++}`).digest();
    return digest.readUInt32BE(0) / 2 ** 32;
  };
}

interface TestCall {
  stmt: Node;
  title: Node;
  fn: Node;
  owner: string | null;
  siblings: Node[];
}

function titleOf(node: Node | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (node.type === 'StringLiteral') return node.value as string;
  if (node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) return (node.quasis as { value: { cooked: string } }[])[0]?.value.cooked ?? undefined;
  return undefined;
}

function callParts(stmt: Node): { callee: string; args: Node[] } | undefined {
  if (stmt.type !== 'ExpressionStatement') return undefined;
  const call = stmt.expression as Node;
  if (call.type !== 'CallExpression') return undefined;
  const callee = call.callee as Node;
  if (callee.type !== 'Identifier') return undefined;
  return { callee: callee.name as string, args: call.arguments as Node[] };
}

function isFunction(node: Node | undefined): node is Node {
  return node !== undefined && (node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression') && (node.body as Node).type === 'BlockStatement';
}

/** Plain `test('title', fn)` calls of a block, and those of the `describe` blocks inside it. */
function collect(body: Node[], owner: string | null, out: TestCall[], titles: Set<string>): void {
  const here: TestCall[] = [];
  for (const stmt of body) {
    const parts = callParts(stmt);
    if (parts === undefined) continue;
    const title = titleOf(parts.args[0]);
    if (title !== undefined) titles.add(title);
    if (TEST_CALLEES.has(parts.callee) && parts.args.length === 2 && title !== undefined && isFunction(parts.args[1])) {
      here.push({ stmt, title: parts.args[0]!, fn: parts.args[1], owner, siblings: [] });
    } else if (SUITE_CALLEES.has(parts.callee) && parts.args.length === 2 && title !== undefined && isFunction(parts.args[1])) {
      collect((parts.args[1].body as Node).body as Node[], title, out, titles);
    }
  }
  const siblings = here.map((t) => t.stmt);
  for (const t of here) out.push({ ...t, siblings });
}

function literalText(node: Node, random: () => number): string | undefined {
  const step = 1 + Math.floor(random() * 9);
  const letter = String.fromCharCode(97 + Math.floor(random() * 26));
  if (node.type === 'NumericLiteral') return String((node.value as number) + (random() < 0.5 ? -step : step));
  if (node.type === 'UnaryExpression' && node.operator === '-' && (node.argument as Node).type === 'NumericLiteral')
    return String(-((node.argument as Node).value as number) + step);
  if (node.type === 'StringLiteral') return quoted((node.value as string) + letter, ((node.extra as { raw?: string } | undefined)?.raw ?? '"')[0]!);
  if (node.type === 'BooleanLiteral') return String(!(node.value as boolean));
  return undefined;
}

/** A JS string literal of `value` in the quotes the file used. */
function quoted(value: string, quote: string): string {
  const json = JSON.stringify(value);
  if (quote === "'") return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
  if (quote === '`') return `\`${json.slice(1, -1).replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;
  return json;
}

const isLiteral = (node: Node): boolean => literalText(node, () => 0.5) !== undefined || node.type === 'NullLiteral';

/** Edits (node, replacement) of a test function's top-level assertions. */
function mutations(fn: Node, text: string, random: () => number): [Node, string][] {
  const edits: [Node, string][] = [];
  const src = (n: Node): string => text.slice(n.start, n.end);
  const valueEdit = (actual: Node, expected: Node): [Node, string] => {
    const [target, other] = isLiteral(expected) || !isLiteral(actual) ? [expected, actual] : [actual, expected];
    const perturbed = isLiteral(target) && !isLiteral(other) ? literalText(target, random) : undefined;
    return [target, perturbed ?? `[${src(target)}]`];
  };
  for (const stmt of (fn.body as Node).body as Node[]) {
    if (stmt.type !== 'ExpressionStatement' || (stmt.expression as Node).type !== 'CallExpression') continue;
    const call = stmt.expression as Node;
    const callee = call.callee as Node;
    const args = call.arguments as Node[];
    if (args.some((a) => a.type === 'SpreadElement')) continue;
    if (callee.type === 'Identifier' && callee.name === 'assert' && args[0] !== undefined) {
      edits.push([args[0], `!(${src(args[0])})`]);
    } else if (callee.type === 'MemberExpression' && (callee.property as Node).type === 'Identifier') {
      const method = (callee.property as Node).name as string;
      const object = callee.object as Node;
      const isAssert =
        (object.type === 'Identifier' && object.name === 'assert') ||
        (object.type === 'MemberExpression' && (object.object as Node).type === 'Identifier' && (object.object as Node).name === 'assert');
      const isExpect =
        object.type === 'CallExpression' && (object.callee as Node).type === 'Identifier' && (object.callee as Node).name === 'expect' && (object.arguments as Node[]).length === 1;
      if (isAssert && ASSERT_VALUE.has(method) && args.length >= 2) edits.push(valueEdit(args[0]!, args[1]!));
      else if (isAssert && ASSERT_TRUTH.has(method) && args[0] !== undefined) edits.push([args[0], `!(${src(args[0])})`]);
      else if (isExpect && EXPECT_VALUE.has(method) && args.length >= 1) edits.push(valueEdit((object.arguments as Node[])[0]!, args[0]!));
    }
  }
  return edits;
}

function lineEnd(text: string, offset: number): number {
  const next = text.indexOf('\n', offset);
  return next === -1 ? text.length : next + 1;
}

/** What one test file yields to the twins: its plain test calls and every literal title in it. */
interface ParsedTests {
  calls: readonly TestCall[];
  titles: readonly string[];
}

/**
 * Parses, kept for the life of the process by file name and content digest: a validation parses
 * the same suite files for the base and the patched run (test files are reset to the base), and
 * @babel/parser takes about a second of the event loop on a suite of a few hundred tests. The
 * entries are only read (every twin is a new string), and what is kept is bounded by bytes.
 * `null`: the file does not parse (it gets no twins).
 */
const PARSE_CACHE = new Map<string, { parsed: ParsedTests | null; bytes: number }>();
let parseCacheBytes = 0;
/** Source bytes whose parses are kept; beyond, the oldest entries go (an AST is ~10× its source). */
const PARSE_CACHE_MAX_BYTES = 16 * 1024 * 1024;
let parses = 0;

/** How many times this process ran @babel/parser for the twins (each parse, not each cache hit). */
export function jsTwinParses(): number {
  return parses;
}

function parsedTests(file: string, text: string): ParsedTests | undefined {
  const key = createHash('sha256').update(file).update('\0').update(text).digest('hex');
  const cached = PARSE_CACHE.get(key);
  if (cached !== undefined) return cached.parsed ?? undefined;
  let parsed: ParsedTests | null;
  parses += 1;
  try {
    const typed = /\.[cm]?tsx?$/.test(file);
    const program = parse(text, { sourceType: 'unambiguous', errorRecovery: false, plugins: typed ? ['typescript', ...(file.endsWith('x') ? (['jsx'] as const) : [])] : ['jsx'] })
      .program as unknown as Node;
    const calls: TestCall[] = [];
    const titles = new Set<string>();
    collect(program.body as Node[], null, calls, titles);
    parsed = { calls, titles: [...titles] };
  } catch {
    parsed = null;
  }
  const bytes = Buffer.byteLength(text);
  if (bytes <= PARSE_CACHE_MAX_BYTES) {
    PARSE_CACHE.set(key, { parsed, bytes });
    parseCacheBytes += bytes;
    for (const [oldest, entry] of PARSE_CACHE) {
      if (parseCacheBytes <= PARSE_CACHE_MAX_BYTES) break;
      PARSE_CACHE.delete(oldest);
      parseCacheBytes -= entry.bytes;
    }
  }
  return parsed ?? undefined;
}

/** Twin and mutant canaries for JS/TS test files (repository-relative path → source). */
export function jsTwins(sources: Readonly<Record<string, string>>, plan: CanaryPlan, budget: TwinBudget): { stage: Record<string, string>; twins: TwinCanary[] } {
  checkCanaryPlan(plan);
  const random = randomFrom(plan.nonce.slice(-16));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const pool: { file: string; call: TestCall }[] = [];
  const titles = new Set<string>();
  const texts: Record<string, string> = {};
  for (const [file, text] of Object.entries(sources)) {
    const parsed = parsedTests(file, text);
    if (parsed === undefined) continue;
    texts[file] = text;
    for (const title of parsed.titles) titles.add(title);
    for (const call of parsed.calls) pool.push({ file, call });
  }
  const words = [...new Set(pool.flatMap(({ call }) => titleOf(call.title)!.split(/\s+/)).filter((w) => /^[A-Za-z][\w-]*$/.test(w)))];
  if (words.length === 0) words.push('case', 'value', 'input');
  const freshTitle = (): string => {
    for (;;) {
      const count = 2 + Math.floor(random() * 4);
      const title = Array.from({ length: count }, () => pick(words)).join(' ');
      if (!titles.has(title)) {
        titles.add(title);
        return title;
      }
    }
  };
  const order = pool.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const inserts: Record<string, { offset: number; after: number; block: string }[]> = {};
  const twins: TwinCanary[] = [];
  let mutants = 0;
  let exact = 0;
  for (const index of order) {
    const { file, call } = pool[index]!;
    const text = texts[file]!;
    const kinds: ('mutant' | 'twin')[] = [];
    if (budget.mutants === 'all' || mutants < budget.mutants) kinds.push('mutant');
    if (exact < budget.twins) kinds.push('twin');
    for (const kind of kinds) {
      let copy = text.slice(call.stmt.start, call.stmt.end);
      const at = (n: Node): [number, number] => [n.start - call.stmt.start, n.end - call.stmt.start];
      const title = freshTitle();
      const edits: [Node, string][] = [[call.title, quoted(title, text[call.title.start]!)]];
      if (kind === 'mutant') {
        const candidates = mutations(call.fn, text, random);
        if (candidates.length === 0) continue;
        edits.push(pick(candidates));
        mutants += 1;
      } else {
        exact += 1;
      }
      for (const [node, replacement] of edits.sort((a, b) => b[0].start - a[0].start)) {
        const [from, to] = at(node);
        copy = copy.slice(0, from) + replacement + copy.slice(to);
      }
      const sibling = pick(call.siblings);
      const lineStart = text.lastIndexOf('\n', call.stmt.start - 1) + 1;
      const indent = /^\s*/.exec(text.slice(lineStart, call.stmt.start))![0];
      const block = `\n${indent}${copy}\n`;
      (inserts[file] ??= []).push({ offset: lineEnd(text, sibling.end), after: sibling.loc.end.line, block });
      twins.push({ file, owner: call.owner, name: title, of: titleOf(call.title)!, kind, after: sibling.loc.end.line, lines: block.split('\n').length - 1 });
    }
  }
  const stage: Record<string, string> = {};
  for (const [file, items] of Object.entries(inserts)) {
    let text = texts[file]!;
    if (!text.endsWith('\n')) text += '\n';
    for (const item of [...items].sort((a, b) => b.offset - a.offset)) text = text.slice(0, item.offset) + item.block + text.slice(item.offset);
    stage[file] = text;
  }
  return { stage, twins };
}
