import { createHash } from 'node:crypto';
// @babel/parser 7 (as in js-twins.ts): parses the trusted test files on the host, never runs them.
import { parse } from '@babel/parser';
import type { CanaryPlan, TwinCanary } from '../adapter.js';

/**
 * Grader canaries inside each test file's process, for the generic junit adapter.
 *
 * The pack's own canaries are a test file of their own, and a runner that gives every file a
 * process of its own (node's test runner, for one) runs them in a process of their own, which
 * sabotage can tell apart (by its argv, its file) and spare. So every staged test file that
 * declares its tests through node's test runner — it imports `test` or `it` from `node:test` and an
 * assert module (`node:assert`, `node:assert/strict`, `assert`, `assert/strict`) by a default or
 * namespace binding — gets one must-pass and one must-fail test, through those same bindings,
 * titled with the words of the file's own test titles, and placed among the file's own tests: at a
 * statement boundary chosen by the nonce, at the top level or inside a `describe`/`suite` block,
 * with two of the file's tests declared before it and two after it where the file has four or
 * more (so in the middle of the run order: sabotage that spares the first or the last two tests of
 * a file hits them, junit-spare-canary-order.diff). A file with no such boundary (one test) gets
 * them at its end:
 *
 * - the must-pass test asserts `strictEqual(1, 1)`;
 * - the must-fail test tries every common assertion that must throw (`strictEqual`, `equal`,
 *   `deepStrictEqual`, `deepEqual`, `notStrictEqual`, `ok`, `match`, `throws`), and
 *   fails with `strictEqual(1, 2)` only if every one of them threw: an assertion neutralised in
 *   that process turns it green.
 *
 * They are reported as twins: the must-fail one as a mutant of the must-pass one (a mutant must
 * fail whenever its original passed, core/twins.ts), the must-pass one as a twin of itself; so
 * the receipt's shape does not change.
 *
 * Where this is not possible: a file in another language or framework (JUnit, pytest, mocha's
 * globals, a file the parser cannot read, bindings by `require` or destructuring renames of a
 * namespace) gets none, and only the pack's canaries and the twins stand for it.
 */

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const TEST_MODULES = new Set(['node:test']);
const ASSERT_MODULES = new Set(['node:assert', 'node:assert/strict', 'assert', 'assert/strict']);

/** Checks, each of which must throw, on the file's assert binding `a`. */
const MUST_THROW = [
  'a.strictEqual(1, 2)',
  'a.equal(1, 2)',
  'a.deepStrictEqual([1], [2])',
  'a.deepEqual([1], [2])',
  'a.notStrictEqual(1, 1)',
  'a.ok(false)',
  "a.match('a', /b/)",
  'a.throws(() => undefined)'
];

/** The local names a file binds node:test's `test`/`it` and an assert module to, if it does. */
function bindingsOf(program: Node): { test: string; assert: string } | undefined {
  let test: string | undefined;
  let assert: string | undefined;
  for (const stmt of program.body as Node[]) {
    if (stmt.type !== 'ImportDeclaration' || (stmt.importKind as string | undefined) === 'type') continue;
    const source = (stmt.source as Node).value as string;
    for (const spec of stmt.specifiers as Node[]) {
      const local = (spec.local as Node).name as string;
      if (TEST_MODULES.has(source) && spec.type === 'ImportSpecifier') {
        const imported = spec.imported as Node;
        const name = imported.type === 'Identifier' ? (imported.name as string) : (imported.value as string);
        if ((name === 'test' || name === 'it') && test === undefined) test = local;
      }
      if (ASSERT_MODULES.has(source) && (spec.type === 'ImportDefaultSpecifier' || spec.type === 'ImportNamespaceSpecifier') && assert === undefined) assert = local;
    }
  }
  return test !== undefined && assert !== undefined ? { test, assert } : undefined;
}

/** Words of the string literals a file passes as first arguments (its test and suite titles). */
function titleWords(program: Node): string[] {
  const words = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const n = node as Node;
    if (n.type === 'CallExpression') {
      const first = (n.arguments as Node[])[0];
      if (first?.type === 'StringLiteral') for (const word of (first.value as string).split(/\s+/)) if (/^[A-Za-z][\w-]*$/.test(word)) words.add(word);
    }
    for (const [key, value] of Object.entries(n)) if (key !== 'loc' && typeof value === 'object') visit(value);
  };
  visit(program.body);
  return [...words];
}

const SUITE_CALLEES = new Set(['describe', 'suite']);

/** The test or suite call a statement makes (`test('title', fn)`, `describe(…)`), if any. */
function callOf(stmt: Node): { callee: string; fn?: Node } | undefined {
  if (stmt.type !== 'ExpressionStatement') return undefined;
  const call = stmt.expression as Node;
  if (call.type !== 'CallExpression' || (call.callee as Node).type !== 'Identifier') return undefined;
  // Only `describe('title', fn)` is entered: a block with options (`{ skip: true }`, `{ todo }`)
  // might never run its tests, so canaries there could be skipped.
  const args = call.arguments as Node[];
  const fn = args.length === 2 && (args[1]!.type === 'ArrowFunctionExpression' || args[1]!.type === 'FunctionExpression') ? args[1] : undefined;
  return { callee: (call.callee as Node).name as string, ...(fn !== undefined && (fn.body as Node).type === 'BlockStatement' ? { fn } : {}) };
}

const lineOf = (node: Node, end: boolean): number => (node.loc as { start: { line: number }; end: { line: number } })[end ? 'end' : 'start'].line;

/**
 * Lines after which a block can go in the middle of the file's tests: each statement boundary of
 * the top level (after the imports) and of every describe/suite body, where nothing follows on the
 * line, with two of the file's tests (`test`/`it` calls, any depth) declared before and two after
 * (one and one in a file of two or three tests; none in a file of one).
 */
function middleSlots(program: Node, original: string, test: string): number[] {
  const lines = original.split('\n');
  const tests: number[] = [];
  const slots: number[] = [];
  const restIsBlank = (line: number, column: number): boolean => /^[\s;]*(\/\/.*)?$/.test((lines[line - 1] ?? '').slice(column));
  const visit = (body: Node[], opening: { line: number; column: number } | undefined): void => {
    if (opening !== undefined && restIsBlank(opening.line, opening.column)) slots.push(opening.line);
    for (const stmt of body) {
      const call = callOf(stmt);
      if (call !== undefined && (call.callee === test || call.callee === 'it' || call.callee === 'test')) tests.push(lineOf(stmt, false));
      if (call?.fn !== undefined && SUITE_CALLEES.has(call.callee)) {
        const block = call.fn.body as Node;
        const start = (block.loc as { start: { line: number; column: number } }).start;
        visit(block.body as Node[], { line: start.line, column: start.column + 1 });
      }
      const end = (stmt.loc as { end: { line: number; column: number } }).end;
      if (stmt.type !== 'ImportDeclaration' && restIsBlank(end.line, end.column)) slots.push(end.line);
    }
  };
  const body = program.body as Node[];
  const imports = body.filter((stmt) => stmt.type === 'ImportDeclaration');
  const last = imports[imports.length - 1];
  if (last !== undefined) {
    const end = (last.loc as { end: { line: number; column: number } }).end;
    if (restIsBlank(end.line, end.column)) slots.push(end.line);
  }
  visit(
    body.filter((stmt) => stmt.type !== 'ImportDeclaration'),
    undefined
  );
  // Two of the file's tests on either side where there are enough (sparing the first or the last
  // two tests then misses the canaries whatever the nonce picks), else one.
  const unique = [...new Set(slots)].sort((a, b) => a - b);
  for (const margin of [2, 1]) {
    const fits = unique.filter((line) => tests.filter((t) => t <= line).length >= margin && tests.filter((t) => t > line).length >= margin);
    if (fits.length > 0) return fits;
  }
  return [];
}

/**
 * The per-file canaries of a run: `texts` are the test files as they will be staged (after the
 * twins), `originals` as the copy holds them (read for their bindings). Returns the files to stage
 * (with the canaries inserted) and the canaries as twins. `inserted` are the copies already in
 * `texts` (the twins), by the original lines they follow, so the canaries' own line in the staged
 * text can be found.
 */
export function junitFileCanaries(
  originals: Readonly<Record<string, string>>,
  texts: Readonly<Record<string, string>>,
  plan: CanaryPlan,
  inserted: readonly TwinCanary[] = []
): { stage: Record<string, string>; twins: TwinCanary[] } {
  const stage: Record<string, string> = {};
  const twins: TwinCanary[] = [];
  const used = new Set<string>();
  for (const [file, original] of Object.entries(originals).sort(([a], [b]) => a.localeCompare(b))) {
    let program: Node;
    try {
      const typed = /\.[cm]?tsx?$/.test(file);
      program = parse(original, { sourceType: 'module', errorRecovery: false, plugins: typed ? ['typescript', ...(file.endsWith('x') ? (['jsx'] as const) : [])] : ['jsx'] })
        .program as unknown as Node;
    } catch {
      continue;
    }
    const bindings = bindingsOf(program);
    if (bindings === undefined) continue;
    const words = titleWords(program);
    if (words.length === 0) words.push('case', 'value', 'input');
    let counter = 0;
    const title = (): string => {
      for (;;) {
        const digest = createHash('sha256').update(`patchproof-junit-file-canary\0${plan.nonce}\0${file}\0${counter++}`).digest();
        const count = 2 + (digest[0]! % 3);
        const candidate = Array.from({ length: count }, (_, i) => words[digest.readUInt16BE(1 + 2 * i) % words.length]!).join(' ');
        // Unlike every title already there: the file's own, and the twins' (drawn from the same words, so a
        // twin and a canary of one name were two test cases of one id, and the run's results inconsistent).
        if (
          !used.has(candidate) &&
          !inserted.some((twin) => twin.name === candidate) &&
          ![...Object.values(originals), ...Object.values(texts)].some((text) => text.includes(candidate))
        ) {
          used.add(candidate);
          return candidate;
        }
      }
    };
    const pass = title();
    const fail = title();
    const { test, assert } = bindings;
    const mustFail = [
      `  const a = ${assert};`,
      `  const checks = [${MUST_THROW.map((check) => `() => ${check}`).join(', ')}];`,
      '  let held = 0;',
      '  for (const check of checks) {',
      '    try {',
      '      check();',
      '    } catch {',
      '      held += 1;',
      '    }',
      '  }',
      '  if (held === checks.length) a.strictEqual(1, 2);'
    ];
    const passBlock = [`${test}(${JSON.stringify(pass)}, () => {`, `  ${assert}.strictEqual(1, 1);`, '});'];
    const failBlock = [`${test}(${JSON.stringify(fail)}, () => {`, ...mustFail, '});'];
    // The order of the two follows the nonce, as the pack's canaries' does.
    const blocks = Number.parseInt(plan.nonce.slice(-2, -1), 16) % 2 === 0 ? [passBlock, failBlock] : [failBlock, passBlock];
    let text = texts[file] ?? original;
    const slots = middleSlots(program, original, test);
    const block = ['', ...blocks.flat()].join('\n') + '\n';
    let lines: number;
    if (slots.length > 0) {
      const digest = createHash('sha256').update(`patchproof-junit-file-canary-slot\0${plan.nonce}\0${file}`).digest();
      lines = slots[digest.readUInt32BE(0) % slots.length]!;
      // The staged text holds the twins' copies too: original line `lines` is that much further down.
      const shift = inserted.filter((t) => t.file === file && t.after <= lines).reduce((sum, t) => sum + t.lines, 0);
      const staged = text.split('\n');
      staged.splice(lines + shift, 0, ...block.slice(0, -1).split('\n'));
      stage[file] = staged.join('\n');
    } else {
      if (!text.endsWith('\n')) text += '\n';
      lines = original.split('\n').length;
      stage[file] = text + block;
    }
    // The must-fail one as a mutant of the must-pass one; the must-pass one as a twin of itself, so
    // that both leave the run's real tests (takeTwins), and one missing alone is wrong.
    twins.push({ file, owner: null, name: fail, of: pass, kind: 'mutant', after: lines, lines: block.split('\n').length - 1 });
    twins.push({ file, owner: null, name: pass, of: pass, kind: 'twin', after: lines, lines: 0 });
  }
  return { stage, twins };
}
