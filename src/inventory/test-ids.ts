// @babel/parser 7 (already used for twins and sealing): the pack's own test files are read, never run.
import { parse } from '@babel/parser';
import type { AdapterName } from '../adapters/registry.js';

/**
 * The test ids a set of pack test files will report, found statically, for `witness init` to pin
 * (`reproduction.ids`, `hidden.ids`). Pinning a wrong id fails every validation, so ids are only
 * given when the discovery is certain for every file of the set: jest and vitest files whose
 * `describe`/`test`/`it` calls all have literal titles and sit directly in the module or in a
 * `describe` callback (no `.each`, no loops, no helpers declaring tests). Their id is the staged
 * file's repository path, the describe titles and the test title joined by " > ", as the jest and
 * vitest adapters report them. Everything else returns the reason, and the caller prints how to
 * pin the ids by hand. Pure.
 */

type Node = { type: string; [key: string]: unknown };

export type IdDiscovery = { ids: string[] } | { reason: string };

const TEST_NAMES = new Set(['test', 'it']);
const SUITE_NAMES = new Set(['describe']);
const ALL_NAMES = new Set([...TEST_NAMES, ...SUITE_NAMES, 'suite', 'xit', 'xtest', 'fit', 'xdescribe', 'fdescribe', 'bench']);
const JS_TEST_FILE = /\.(test|spec)\.(c|m)?[jt]sx?$/;

function literal(node: Node | undefined): string | undefined {
  if (node?.type === 'StringLiteral') return node.value as string;
  if (node?.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) return (node.quasis as { value: { cooked: string } }[])[0]?.value.cooked;
  return undefined;
}

/** The root identifier of a callee (`test`, `test.skip`, `describe.each(...)` → its name). */
function calleeRoot(node: Node): { name: string; plain: boolean } | undefined {
  if (node.type === 'Identifier') return { name: node.name as string, plain: true };
  if (node.type === 'MemberExpression') {
    const inner = calleeRoot(node.object as Node);
    return inner === undefined ? undefined : { name: inner.name, plain: false };
  }
  if (node.type === 'CallExpression') {
    const inner = calleeRoot(node.callee as Node);
    return inner === undefined ? undefined : { name: inner.name, plain: false };
  }
  return undefined;
}

function countTestCalls(node: unknown): number {
  if (node === null || typeof node !== 'object') return 0;
  if (Array.isArray(node)) return node.reduce((sum: number, item) => sum + countTestCalls(item), 0);
  const n = node as Node;
  let count = 0;
  if (n.type === 'CallExpression') {
    const root = calleeRoot(n.callee as Node);
    // Count only the outermost call of a chain (`describe.each(t)(...)` is one declaration).
    if (root !== undefined && ALL_NAMES.has(root.name) && (n.callee as Node).type !== 'CallExpression') count += 1;
  }
  for (const [key, value] of Object.entries(n)) {
    if (key === 'loc' || key === 'start' || key === 'end' || key === 'extra' || key.endsWith('Comments')) continue;
    count += countTestCalls(value);
  }
  return count;
}

function callbackBody(node: Node | undefined): Node[] | undefined {
  if (node === undefined || (node.type !== 'ArrowFunctionExpression' && node.type !== 'FunctionExpression')) return undefined;
  const body = node.body as Node;
  return body.type === 'BlockStatement' ? (body.body as Node[]) : undefined;
}

/** The ids of one JS test file, or why they cannot be known without running it. */
export function jsFileTestIds(file: string, source: string): IdDiscovery {
  let program: Node;
  try {
    program = (parse(source, { sourceType: 'unambiguous', plugins: ['typescript', 'jsx'] }) as unknown as { program: Node }).program;
  } catch (error) {
    return { reason: `${file} does not parse (${(error as Error).message})` };
  }
  const ids: string[] = [];
  let visited = 0;
  let problem: string | undefined;
  const walk = (statements: Node[], titles: string[]): void => {
    for (const statement of statements) {
      if (statement.type !== 'ExpressionStatement' || (statement.expression as Node).type !== 'CallExpression') continue;
      const call = statement.expression as Node;
      const root = calleeRoot(call.callee as Node);
      if (root === undefined || !ALL_NAMES.has(root.name)) continue;
      visited += 1;
      const args = call.arguments as Node[];
      const title = literal(args[0]);
      if (!root.plain || title === undefined) {
        problem ??= `${file}: a ${root.name} call with a modifier (.each, .skip...) or a title that is not a literal string`;
        continue;
      }
      if (TEST_NAMES.has(root.name)) ids.push([file, ...titles, title].join(' > '));
      else if (SUITE_NAMES.has(root.name)) {
        const body = callbackBody(args[1]);
        if (body === undefined) problem ??= `${file}: describe('${title}') without an inline callback`;
        else walk(body, [...titles, title]);
      } else problem ??= `${file}: ${root.name}(...) is not a plain test or describe`;
    }
  };
  walk(program.body as Node[], []);
  // Any test call the structured walk did not reach (in a loop, a helper, a condition) is unknown.
  if (problem === undefined && countTestCalls(program) !== visited) problem = `${file}: tests declared inside loops, conditions or helper functions`;
  if (problem !== undefined) return { reason: problem };
  if (ids.length === 0) return { reason: `${file}: no test found` };
  if (new Set(ids).size !== ids.length) return { reason: `${file}: two tests share one id (the adapter numbers them)` };
  return { ids };
}

/**
 * The ids of a pack's test set staged at `placement`, from its files (paths relative to the set's
 * folder); a reason when any file's ids are not certain, or the adapter's ids are not discovered.
 */
export function discoverTestIds(adapter: AdapterName, placement: string, files: readonly { path: string; text: string }[]): IdDiscovery {
  if (adapter !== 'jest' && adapter !== 'vitest') return { reason: `the ${adapter} adapter's ids are not discovered statically` };
  const ids: string[] = [];
  const tests = files.filter((f) => JS_TEST_FILE.test(f.path));
  if (tests.length === 0) return { reason: 'no test files' };
  for (const file of tests) {
    const found = jsFileTestIds(`${placement}/${file.path}`, file.text);
    if ('reason' in found) return found;
    ids.push(...found.ids);
  }
  return { ids: ids.sort() };
}
