import path from 'node:path';
import { HARNESS_DIR } from '../adapter.js';
import type { CanaryPlan } from '../adapter.js';
import { canaryNames, canaryRunOrder } from './canary.js';
import { JS_TRIPWIRE_SOURCE, jsTripwireCheck } from './tripwire.js';

/**
 * The per-file wrappers of the jest and vitest adapters.
 *
 * Both runners give every test file a module environment of its own (jest's module registry and
 * sandbox, vitest's worker module graph), so a canary file of its own would never share the
 * environment of the code under test. Instead PatchProof runs, for each test file `F`, a generated
 * wrapper `.patchproof/harness/<tool>/F.patchproof.<ext>` that loads `F` and then registers the
 * two grader canaries at its root: they share F's environment, run after every test of `F`, and
 * look their assertion function up only when they run, so code under test that replaced or
 * extended `expect` while `F` was loading (or while its tests ran) turns the must-fail canary green.
 *
 * A test file that fails to load (a syntax error, a missing module, a throw at top level) is
 * caught by its wrapper and reported as a test named after the file that rethrows the error, so
 * the canaries still run and the file reads as that file's import or collection error.
 *
 * The repository's own runner configuration still applies (transforms, setup files, environment,
 * module mappers): the wrapper is the runner's test file, `F` is loaded through the runner's own
 * module system. Only the test-file selection is PatchProof's (see jest.ts and vitest.ts).
 */

/** The runners with per-file wrappers. */
export type WrappedTool = 'jest' | 'vitest';

const EXTENSION: Readonly<Record<WrappedTool, string>> = { jest: 'cjs', vitest: 'mjs' };
const MARK = 'patchproof';

/** The folder (repository-relative) that holds a tool's wrappers. */
export function wrapperRoot(tool: WrappedTool): string {
  return `${HARNESS_DIR}/${tool}`;
}

/** Where the wrapper of the repository-relative test file `file` is staged. */
export function wrapperPath(tool: WrappedTool, file: string): string {
  return `${wrapperRoot(tool)}/${file}.${MARK}.${EXTENSION[tool]}`;
}

/** The test file a wrapper path (repository-relative) stands for, or undefined for any other path. */
export function wrappedFile(tool: WrappedTool, wrapper: string): string | undefined {
  const prefix = `${wrapperRoot(tool)}/`;
  const suffix = `.${MARK}.${EXTENSION[tool]}`;
  if (!wrapper.startsWith(prefix) || !wrapper.endsWith(suffix) || wrapper.length <= prefix.length + suffix.length) {
    return undefined;
  }
  return wrapper.slice(prefix.length, -suffix.length);
}

/** The specifier that loads `file` from its wrapper: relative, always starting with `./` or `../`. */
export function wrapperSpecifier(tool: WrappedTool, file: string): string {
  const relative = path.posix.relative(path.posix.dirname(wrapperPath(tool, file)), file);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * Checks that must each throw: the common `expect` matchers (`e`) and node's `assert` (`a`). Code
 * under test that neutralised one matcher would let the tests that use it pass; the must-fail
 * canary tries every one of them.
 */
const MUST_THROW: readonly string[] = [
  'e(1).toBe(2)',
  'e([1]).toEqual([2])',
  'e({ a: 1 }).toStrictEqual({ a: 2 })',
  'e(0).toBeTruthy()',
  'e(1).toBeFalsy()',
  'e(1).toBeNull()',
  'e(null).toBeUndefined()',
  'e(undefined).toBeDefined()',
  'e([1]).toContain(2)',
  "e('a').toMatch(/b/)",
  'e([]).toHaveLength(1)',
  'e(1).toBeGreaterThan(2)',
  'e(() => undefined).toThrow()',
  'e(1).not.toBe(1)',
  'a.strictEqual(1, 2)',
  'a.deepStrictEqual([1], [2])',
  'a.ok(false)'
];

/**
 * The canary tests, in run order, as `[name, body]`: JavaScript statements run inside the test,
 * where `e` is the `expect` to check and `a` node's `assert`. The must-pass canary asserts
 * `expect(1).toBe(1)`. The must-fail canary runs every MUST_THROW check, counting those that threw,
 * and then fails with `expect(1).toBe(2)` only if every one did: a neutralised matcher or `assert`
 * function turns it green, so does a neutralised `toBe`.
 */
export function canaryDeclarations(plan: CanaryPlan): [string, string][] {
  const names = canaryNames(plan);
  const mustFail = [
    'const checks = [',
    ...MUST_THROW.map((check, index) => `  () => ${check}${index === MUST_THROW.length - 1 ? '' : ','}`),
    '];',
    'let held = 0;',
    'for (const check of checks) {',
    '  try {',
    '    check();',
    '  } catch {',
    '    held += 1;',
    '  }',
    '}',
    'if (held === checks.length) {',
    '  e(1).toBe(2);',
    '}'
  ].join('\n');
  return canaryRunOrder(plan).map((name) => [name, name === names.pass ? `${jsTripwireCheck('patchproofHeld', 'patchproofGroups')}\ne(1).toBe(1);` : mustFail]);
}

/**
 * The tripwire's part of a wrapper (see tripwire.ts), before the test file loads: the functions,
 * then `patchproofGroups()` (what is captured: the globals `expect`, `test`, `it`, `describe` and
 * the hooks; every function of `expect` (`expect.extend`, `expect.any`...); the matcher tables
 * `expect.extend` writes to (jest's and vitest's `$$jest-matchers-object`, vitest's
 * `matchers-object`); and the prototypes of what `expect(0)` returns, where vitest's chai keeps the
 * matchers behind `expect(x).toBe`), and `patchproofHeld`, taken now. `expectSource` is the
 * expression of the `expect` the canaries use. The must-pass canary compares (canaryDeclarations).
 */
export function tripwirePreamble(expectSource: string): string[] {
  return [
    JS_TRIPWIRE_SOURCE,
    'const patchproofGroups = () => {',
    `  const e = ${expectSource};`,
    "  const groups = [['global', globalThis, ['expect', 'test', 'it', 'describe', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach']], ['expect', e]];",
    "  for (const [label, key] of [['expect matcher', '$$jest-matchers-object'], ['expect matchers-object', 'matchers-object']]) {",
    '    try {',
    '      const table = globalThis[Symbol.for(key)]?.matchers;',
    "      if (table !== null && typeof table === 'object') groups.push([label, table]);",
    '    } catch {}',
    '  }',
    '  try {',
    '    let proto = Object.getPrototypeOf(e(0));',
    '    for (let depth = 0; proto !== null && proto !== Object.prototype && proto !== Function.prototype && depth < 4; depth++) {',
    "      groups.push([depth === 0 ? 'expect(value)' : 'expect(value)^' + depth, proto]);",
    '      proto = Object.getPrototypeOf(proto);',
    '    }',
    '  } catch {}',
    '  return groups;',
    '};',
    'const patchproofHeld = patchproofTake(patchproofGroups());',
    ''
  ];
}

/** `body` indented by two spaces per line, for a test callback. */
export function indentBody(body: string): string {
  return body
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

/**
 * The leading `/** … *\/` docblock of a test file, when it carries `@jest-environment` or
 * `@vitest-environment` pragmas: both runners read those from the file they run (the wrapper), so
 * the wrapper repeats them. Undefined when the file has none.
 */
export function environmentDocblock(source: string | undefined): string | undefined {
  const match = /^(?:#![^\n]*\n)?\s*(\/\*\*[\s\S]*?\*\/)/.exec(source ?? '');
  const block = match?.[1];
  return block !== undefined && /@(?:jest|vitest)-environment\b/.test(block) ? block : undefined;
}
