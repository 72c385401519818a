import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { changedFileProblems, pythonShadowProblems } from '../../src/formal/run.js';
import { loadPythonParser } from '../../src/formal/python-parser.js';
import { check, ints, target } from './formal-support.js';
import { stopZ3 } from './z3-in-process.js';

/**
 * Issue 29, item 2: the language rules a proof about the text could miss, so that the code that
 * runs is not what the solver read. Each case is a function the earlier translator proved (the
 * trap); the rule now gives a counterexample (the code throws where the model returned) or
 * `unknown` with the construct and its line in words. Every rule has a control that stays proved.
 */

afterAll(stopZ3);

const abs = target({ params: ints('x'), ensures: ['result >= 0', 'result === x || result === -x'] });
const ABS = 'function f(x) { return Math.abs(x); }';

describe('the temporal dead zone: a name read before its block declares it throws, it never reads the outer one', () => {
  const same = target({ params: ints('x'), requires: ['x > -1000', 'x < 1000'], ensures: ['result === x'] });

  test('a read of a block-scoped name above its declaration is a ReferenceError counterexample', async () => {
    // The model that looks names up in order reads the parameter x at `const y = x`: proved. JS throws for x > 100.
    const out = await check(same, 'export function f(x) {\n  if (x > 100) {\n    const y = x;\n    const x = 0;\n    return y + x;\n  }\n  return x;\n}');
    expect(out.status).toBe('counterexample');
    expect(out.counterexample!.inputs.x as number).toBeGreaterThan(100);
    expect(out.counterexample!.violated).toContain('x is not used before its declaration (else ReferenceError) (line 3)');
  });

  test('`let v = v + 1` reads its own dead zone; a write before the declaration throws too', async () => {
    const self = await check(same, 'export function f(x) {\n  let v = x;\n  {\n    let v = v + 0;\n    return v;\n  }\n}');
    expect(self.status).toBe('counterexample');
    expect(self.counterexample!.violated.join()).toMatch(/v is not used before its declaration \(else ReferenceError\) \(line 4\)/);
    const write = await check(
      same,
      'export function f(x) {\n  let r = x;\n  if (x < 0) {\n    r = 1;\n    r = r - 1 + x;\n    let q = 0;\n    q = r;\n  }\n  {\n    s = 0;\n    let s = 1;\n  }\n  return r;\n}'
    );
    expect(write.status).toBe('counterexample');
    expect(write.counterexample!.violated.join()).toMatch(/s is not used before/);
  });

  test('inside a loop body, each iteration has its own dead zone', async () => {
    const out = await check(
      target({ params: ints('n'), requires: ['n >= 0', 'n <= 3'], ensures: ['result >= 0'], bounds: { unroll: 4 } }),
      'function f(n) {\n  let s = 0;\n  for (let i = 0; i < n; i++) {\n    s = s + k;\n    let k = i;\n  }\n  return s;\n}'
    );
    expect(out.status).toBe('counterexample');
    expect(out.counterexample!.inputs.n as number).toBeGreaterThan(0);
  });

  test('control: a shadow used after its declaration, and the outer name after the block, are proved', async () => {
    expect((await check(same, 'function f(x) {\n  {\n    const x = 5;\n    if (x !== 5) return 0;\n  }\n  return x;\n}')).status).toBe('proved');
  });
});

describe('every form that rebinds the target is followed', () => {
  const cases: [string, string, string, RegExp][] = [
    ['a top-level destructuring assignment', 'src/f.mjs', `export ${ABS}\n[f] = [(x) => x];`, /a destructuring assignment to f \(line 2\)/],
    ['an object destructuring assignment', 'src/f.mjs', `export ${ABS}\n({ f } = { f: (x) => x });`, /a destructuring assignment to f/],
    ['a for … of that assigns the name', 'src/f.mjs', `export ${ABS}\nfor (f of [(x) => x]) {}`, /a for loop that assigns f/],
    ['++ on the name', 'src/f.mjs', `export ${ABS}\nif (false) f++;`, /\+\+ on f/],
    ['a destructuring var', 'src/f.js', `${ABS}\nvar [f] = [(x) => x];\nmodule.exports = { f };`, /f declared by destructuring/],
    ['a var in a block', 'src/f.js', `${ABS}\n{ var f = (x) => x; }\nmodule.exports = { f };`, /a var f inside a block/]
  ];
  test.each(cases)('%s is unknown', async (_name, file, source, reason) => {
    const out = await check(target({ ...abs, file }), source, file);
    expect(out.status).toBe('unknown');
    expect(out.reason).toMatch(reason);
  });
});

describe('Annex B: a sloppy-mode block function replaces the top-level one', () => {
  const blockFunction = `${ABS}\n{\n  function f(x) { return x; }\n}\nmodule.exports = { f };`;

  test('in a CommonJS script it is unknown, with the rule in words', async () => {
    const out = await check(target({ ...abs, file: 'lib/f.cjs' }), blockFunction, 'lib/f.cjs');
    expect(out.status).toBe('unknown');
    expect(out.reason).toMatch(/a function f declared in a block \(line 3\): in sloppy code \(Annex B\) it replaces the top-level f when the block runs/);
  });

  test("control: strict code ('use strict', or an ES module) keeps it in its block", async () => {
    expect((await check(target({ ...abs, file: 'lib/f.cjs' }), `'use strict';\n${blockFunction}`, 'lib/f.cjs')).status).toBe('proved');
    expect((await check(target({ ...abs, file: 'lib/f.mjs' }), `export ${ABS}\n{\n  function f(x) { return x; }\n}`, 'lib/f.mjs')).status).toBe('proved');
  });
});

describe('CommonJS exports', () => {
  const cjs = target({ ...abs, file: 'lib/f.js' });
  test.each([
    ['module.exports = { f }', `${ABS}\nmodule.exports = { f };`],
    ['module.exports = { f: f, other }', `${ABS}\nconst other = 1;\nmodule.exports = { f: f, other };`],
    ['exports.f = f', `${ABS}\nexports.f = f;\nexports.g = 2;`],
    ['module.exports.f = f', `${ABS}\nmodule.exports.f = f;\nmodule.exports.helper();`],
    ['Object.assign(module.exports, { f })', `${ABS}\nObject.assign(module.exports, { f, g: 1 });`],
    ['Object.assign(exports, { f: f })', `${ABS}\nObject.assign(exports, { f: f });`]
  ])('the plain form %s is followed: proved', async (_name, source) => {
    expect((await check(cjs, source, 'lib/f.js')).status).toBe('proved');
  });

  test.each([
    [
      'Object.assign(module.exports, { f: other })',
      `${ABS}\nmodule.exports = { f };\nObject.assign(module.exports, { f: (x) => x });`,
      /the export f in Object\.assign\(module\.exports, \{ … \}\) is something other than the function f \(line 3\)/
    ],
    ['Object.assign(module.exports, value)', `${ABS}\nObject.assign(module.exports, require('./other'));`, /with a source that is not an object literal/],
    [
      'module.exports passed to a function',
      `${ABS}\nmodule.exports = { f };\nObject.defineProperty(module.exports, 'f', { value: (x) => x });`,
      /module\.exports passed to a function \(line 3\)/
    ],
    ['a spread', `${ABS}\nmodule.exports = { f, ...require('./other') };`, /a spread in module\.exports = \{ … \} \(line 2\): it may carry f/],
    ['exports.f set to another function', `${ABS}\nexports.f = (x) => x;`, /the export f is set to something other than the function f/],
    ['module.exports set to a value', `${ABS}\nmodule.exports = require('./other');`, /module\.exports set to something other than an object literal/],
    ['exports aliased', `${ABS}\nconst e = exports;\ne.f = (x) => x;`, /exports used other than as exports\.x \(line 2\) \(aliased, or assigned\)/],
    ['a computed export', `${ABS}\nconst k = 'f';\nexports[k] = (x) => x;`, /an export written by a computed name/],
    ['the top-level this', `${ABS}\nthis.f = (x) => x;`, /this at the top level/]
  ])('%s is unknown', async (_name, source, reason) => {
    const out = await check(cjs, source, 'lib/f.js');
    expect(out.status).toBe('unknown');
    expect(out.reason).toMatch(reason);
  });
});

describe('aliases of the global object and code built from strings', () => {
  const esm = (text: string): Promise<Awaited<ReturnType<typeof check>>> => check(target({ ...abs, file: 'src/f.mjs' }), text, 'src/f.mjs');
  test.each([
    ['globalThis aliased', `const root = globalThis;\nroot.Math.abs = (v) => v;\nexport ${ABS}`, /globalThis aliased or passed around \(line 1\)/],
    ['Math reached through a global and aliased', `const M = globalThis.Math;\nM.abs = (v) => v;\nexport ${ABS}`, /Math is bound, aliased or passed around \(line 1\)/],
    ['a member Math of an alias', `const g = [globalThis][0];\nexport ${ABS}`, /globalThis aliased/],
    ['the Function constructor', `const root = Function('return this')();\nexport ${ABS}`, /the Function constructor \(line 1\)/],
    ['.constructor(…)', `(() => 0).constructor('Math.abs = (v) => v')();\nexport ${ABS}`, /a constructor reached through \.constructor/],
    ['the vm module', `import vm from 'node:vm';\nvm.runInThisContext('Math.abs = (v) => v');\nexport ${ABS}`, /an import of the vm module/],
    ['a destructuring write to a Math member', `[Math.abs] = [(v) => v];\nexport ${ABS}`, /a write to Math/]
  ])('%s is unknown', async (_name, source, reason) => {
    const out = await esm(source);
    expect(out.status).toBe('unknown');
    expect(out.reason).toMatch(reason);
  });

  test('control: reading a harmless member of the global object, or a local named self, stays proved', async () => {
    expect((await esm(`globalThis.console.log('loaded');\nexport ${ABS}`)).status).toBe('proved');
    expect((await esm(`export function g() {\n  const self = { n: 1 };\n  return self.n;\n}\nexport ${ABS}`)).status).toBe('proved');
    expect((await esm(`const w = window;\nexport ${ABS}`)).reason).toMatch(/window aliased or passed around \(line 1\)/);
  });

  test("another changed file: a global's alias, or a write to the target's export, makes every target unknown", () => {
    const changed = new Map<string, Buffer | null>([
      ['src/shim.js', Buffer.from('const g = globalThis;\ng.Math.abs = (v) => v;\n')],
      ['src/patch.cjs', Buffer.from("require('./f.js').f = (x) => x;\n")],
      ['src/assign.cjs', Buffer.from("Object.assign(require('./f.js'), { f: (x) => x });\n")],
      ['src/fine.js', Buffer.from('export const g = (x) => Math.max(x, 0);\n')]
    ]);
    expect(changedFileProblems(changed, ['src/f.js'], undefined, ['f'])).toEqual([
      'src/shim.js: globalThis aliased or passed around (line 1): what is reached through it cannot be followed',
      'src/shim.js: a member named Math of something other than the global object (line 2) (an alias of the global object?)',
      'src/patch.cjs: an assignment to .f (line 1)',
      "src/assign.cjs: assign that may set a target's name (line 1)"
    ]);
  });
});

describe('Python: the function object, its globals and its module file', () => {
  const spec = target({ file: 'src/f.py', params: ints('a', 'b'), ensures: ['result == min(a, b)'] });
  const good = 'def f(a, b):\n    return min(a, b)\n';

  test.each([
    ["f.__globals__['min'] = …", `${good}f.__globals__['min'] = max\n`, /__globals__ \(line 3\), which reaches builtins, globals or code objects/],
    ['f.__code__ = g.__code__', `${good}def g(a, b):\n    return a\nf.__code__ = g.__code__\n`, /__code__ \(line 5\)/],
    ['a name looked up by a string', `${good}getattr(f, '__glo' + 'bals__')['min'] = max\n`, /getattr \(line 3\)/],
    ['the object graph', `${good}print(().__class__)\n`, /__class__ \(line 3\)/]
  ])('%s is unknown', async (_name, source, reason) => {
    await loadPythonParser();
    const out = await check(spec, source, 'src/f.py');
    expect(out.status).toBe('unknown');
    expect(out.reason).toMatch(reason);
  });

  test('another changed file: a function namespace reached, or compiled code shipped, makes every target unknown', async () => {
    await loadPythonParser();
    const changed = new Map<string, Buffer | null>([
      ['shop/__init__.py', Buffer.from('from . import pricing\npricing.clamp.__globals__["max"] = min\n')],
      ['shop/__pycache__/pricing.cpython-313.pyc', Buffer.from([0x0d, 0x0a])],
      ['shop/util.py', Buffer.from('class A:\n    def __repr__(self):\n        return self.__class__.__name__\n')]
    ]);
    expect(changedFileProblems(changed, ['shop/pricing.py'], ['clamp'])).toEqual([
      'shop/__init__.py: __globals__ (line 2)',
      'shop/__pycache__/pricing.cpython-313.pyc: compiled code, which the import system may load in place of a source the gate read'
    ]);
  });

  test('a package folder or an extension module beside the target is imported in its place', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pp-shadow-'));
    try {
      await mkdir(join(dir, 'shop', 'pricing'), { recursive: true });
      await mkdir(join(dir, 'shop', 'orders'), { recursive: true });
      await writeFile(join(dir, 'shop', 'pricing.py'), 'def clamp(q, lo, hi):\n    return q\n');
      await writeFile(join(dir, 'shop', 'pricing', '__init__.py'), '');
      await writeFile(join(dir, 'shop', 'orders.py'), '');
      // A folder without __init__ is a namespace portion: the module file wins over it.
      await writeFile(join(dir, 'shop', 'orders', 'x.txt'), '');
      await writeFile(join(dir, 'shop', 'orders.abi3.so'), '');
      expect(pythonShadowProblems(dir, 'shop/pricing.py')).toEqual(['the package folder shop/pricing/ is imported in place of shop/pricing.py']);
      expect(pythonShadowProblems(dir, 'shop/orders.py')).toEqual(['the extension module shop/orders.abi3.so is imported in place of shop/orders.py']);
      expect(pythonShadowProblems(dir, 'shop/none.py')).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('reasons name the construct in words, with its line (issue 29, item 4)', () => {
  test.each([
    ['src/f.py', 'import math\n\ndef f(x):\n    import os\n    return x\n', /outside the subset: an import \(line 4\)/],
    ['src/f.py', 'def f(x):\n    return x if x else None\n', /outside the subset: None \(line 2\)/],
    ['src/f.py', 'def f(x):\n    try:\n        return x\n    except Exception:\n        return 0\n', /outside the subset: a try statement \(line 2\)/],
    ['src/f.py', 'def f(x):\n    g = lambda y: y\n    return x\n', /a lambda inside f \(line 2\)/],
    ['src/f.js', 'function f(x) { for (const v of [x]) { return v; } return x; }', /outside the subset: a for … of loop \(line 1\)/],
    ['src/f.js', 'function f(x) { switch (x) { default: return x; } }', /outside the subset: a switch statement \(line 1\)/],
    ['src/f.js', 'function f(x) { return x?.y; }', /outside the subset: optional chaining \(\?\.\) \(line 1\)/]
  ])('%s: %s', async (file, source, reason) => {
    await loadPythonParser();
    const out = await check(target({ file, params: ints('x'), ensures: ['result == x'.replace('==', file.endsWith('.js') ? '===' : '==')] }), source, file);
    expect(out.status).toBe('unknown');
    expect(out.reason).toMatch(reason);
  });
});

describe('optional parameters, undefined, defaults, null checks and typeof (issue 29, item 3)', () => {
  // Like Array.prototype.slice's end: optional, negative from the end, clamped to the length.
  const sliceEnd = target({
    params: [
      { name: 'length', type: 'int' },
      { name: 'end', type: 'int', optional: true }
    ],
    requires: ['length >= 0', 'length <= 1000000', 'end === undefined || (end >= -1000000 && end <= 1000000)'],
    ensures: ['result >= 0', 'result <= length', 'end !== undefined || result === length', 'end === undefined || end < 0 || result === Math.min(end, length)']
  });

  test.each([
    ['=== undefined', 'function f(length, end) {\n  if (end === undefined) return length;\n  if (end < 0) return Math.max(length + end, 0);\n  return Math.min(end, length);\n}'],
    ['a default value', 'function f(length, end = length) {\n  return end < 0 ? Math.max(length + end, 0) : Math.min(end, length);\n}'],
    [
      '== null and ??',
      'function f(length, end) {\n  if (end == null) return length;\n  const e = end ?? length;\n  return e < 0 ? Math.max(length + e, 0) : Math.min(e, length);\n}'
    ],
    ["typeof … === 'number'", "function f(length, end) {\n  if (typeof end !== 'number') return length;\n  return end < 0 ? Math.max(length + end, 0) : Math.min(end, length);\n}"],
    [
      'an assignment that defines it',
      'function f(length, end) {\n  if (end === void 0) end = length;\n  if (end < 0) end = Math.max(length + end, 0);\n  return Math.min(end, length);\n}'
    ]
  ])('%s: proved', async (_name, source) => {
    const out = await check(sliceEnd, source);
    expect([out.status, out.reason]).toEqual(['proved', undefined]);
  });

  test('a missing undefined check: the counterexample leaves the argument out', async () => {
    // undefined < 0 is false and Math.min(undefined, n) is NaN: outside the integer model, never proved.
    const naive = await check(sliceEnd, 'function f(length, end) {\n  if (end < 0) return Math.max(length + end, 0);\n  return Math.min(end, length);\n}');
    expect(naive.status).toBe('unknown');
    expect(naive.reason).toMatch(/end is defined where it is used as a number \(line 3\) is not guaranteed/);
    // A wrong default: the model finds the call without the argument, and the inputs do not list it.
    const wrong = await check(sliceEnd, 'function f(length, end = length - 1) {\n  return end < 0 ? Math.max(length + end, 0) : Math.min(end, length);\n}');
    expect(wrong.status).toBe('counterexample');
    expect(Object.keys(wrong.counterexample!.inputs)).toEqual(['length']);
    expect(wrong.counterexample!.result).toBe((wrong.counterexample!.inputs.length as number) - 1);
    // Returning the argument itself where it may be undefined is a bug too.
    const leak = await check(target({ ...sliceEnd, ensures: ['result >= 0 || result < 0'] }), 'function f(length, end) {\n  return end;\n}');
    expect(leak.status).toBe('counterexample');
    expect(leak.counterexample!.violated.join()).toMatch(/the returned value is defined \(else the result is undefined\)/);
  });

  test('null is never a value of the model; a binding named undefined is refused', async () => {
    const out = await check(
      sliceEnd,
      'function f(length, end) {\n  if (end === null) return 0;\n  if (end !== undefined) return end < 0 ? Math.max(length + end, 0) : Math.min(end, length);\n  return length;\n}'
    );
    expect(out.status).toBe('proved');
    const shadow = await check(sliceEnd, 'const undefined = 0;\nfunction f(length, end) {\n  return end === undefined ? length : 0;\n}');
    expect([shadow.status, shadow.reason]).toEqual(['unknown', expect.stringMatching(/a binding named undefined \(line 1\), which shadows the global one/)]);
  });

  test('a Python target cannot have an optional parameter (the pack is told)', async () => {
    await loadPythonParser();
    const { specProblem } = await import('./formal-support.js');
    const py = target({ file: 'src/f.py', params: [{ name: 'x', type: 'int', optional: true }], ensures: ['result == 0'] });
    expect(await specProblem(py, 'def f(x=None):\n    return 0\n')).toMatch(/the optional parameter x: optional parameters are for JS targets/);
  });
});
