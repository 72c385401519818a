import { afterAll, describe, expect, test } from '@jest/globals';
import type { FormalTarget } from '../../src/formal/spec.js';
import { check, ints, specProblem, target } from './formal-support.js';
import { stopZ3 } from './z3-in-process.js';

/**
 * The Python front end (src/formal/translate-python.ts), construct by construct: each case is a
 * small Python function and a spec (Python expressions), checked by Z3 in this process.
 */

afterAll(stopZ3);

const py = (spec: Parameters<typeof target>[0]): FormalTarget => target({ file: 'src/f.py', ...spec });
const list = (name: string) => ({ name, type: 'int[]' as const });

describe('arithmetic with Python semantics', () => {
  test("// and % floor: the remainder takes the divisor's sign (a JS % would break this proof)", async () => {
    const spec = py({
      params: ints('a', 'b'),
      requires: ['b != 0', '-1000 < a < 1000', '-50 < b < 50'],
      ensures: ['a == b * (a // b) + result', '(0 <= result < b) if b > 0 else (b < result <= 0)']
    });
    expect((await check(spec, 'def f(a, b):\n    return a % b\n')).status).toBe('proved');
    const q = py({ params: ints('a'), requires: ['a < 0', 'a > -1000', 'a % 7 != 0'], ensures: ['result * 7 < a'] });
    expect((await check(q, 'def f(a):\n    return a // 7\n')).status).toBe('proved');
  });

  test('a zero divisor raises ZeroDivisionError: a counterexample, not unknown', async () => {
    const spec = py({ params: ints('a', 'b'), requires: ['0 <= b < 10'], ensures: ['True'] });
    const out = await check(spec, 'def f(a, b):\n    return a // b\n');
    expect(out.status).toBe('counterexample');
    expect(out.counterexample!.inputs.b).toBe(0);
    expect(out.counterexample!.violated.join(' ')).toMatch(/no division by zero \(else ZeroDivisionError\)/);
  });

  test('integers are unbounded: no range obligation on intermediate values', async () => {
    const spec = py({ params: ints('x'), ensures: ['result == x'] });
    expect((await check(spec, 'def f(x):\n    y = x * x * x\n    return y - x * x * x + x\n')).status).toBe('proved');
  });

  test('/ gives a float: outside the subset', async () => {
    const out = await check(py({ params: ints('a'), ensures: ['result >= 0'] }), 'def f(a):\n    return a / 2\n');
    expect(out.status).toBe('unknown');
    expect(out.reason).toMatch(/the \/ operator \(true division gives a float\)/);
  });

  test('min, max (several arguments), abs, and hex and underscore literals', async () => {
    const spec = py({ params: ints('a', 'b', 'c'), ensures: ['result <= a and result <= b and result <= c', 'result == min(a, b, c)'] });
    expect((await check(spec, 'def f(a, b, c):\n    return min(a, b, c)\n')).status).toBe('proved');
    expect((await check(spec, 'def f(a, b, c):\n    return min(a, b)\n')).status).toBe('counterexample');
    const lit = py({ params: ints('x'), ensures: ['result == abs(x) + 4096'] });
    expect((await check(lit, 'def f(x):\n    return max(x, -x) + 0x1_000\n')).status).toBe('proved');
  });
});

describe('control flow', () => {
  test('if / elif / else, early returns, a docstring, annotations', async () => {
    const spec = py({ params: ints('x'), ensures: ['result == (1 if x > 0 else (-1 if x < 0 else 0))'] });
    const source = 'def f(x: int) -> int:\n    """The sign."""\n    if x > 0:\n        return 1\n    elif x < 0:\n        return -1\n    else:\n        pass\n    return 0\n';
    expect((await check(spec, source)).status).toBe('proved');
  });

  test('falling off the end returns None: a counterexample', async () => {
    const out = await check(py({ params: ints('x'), ensures: ['result >= 0'] }), 'def f(x):\n    if x > 0:\n        return x\n');
    expect(out.status).toBe('counterexample');
    expect(out.counterexample!.violated.join(' ')).toMatch(/returns on every path \(else None\)/);
  });

  test('a local read before it is assigned on some path (UnboundLocalError): a counterexample', async () => {
    const out = await check(py({ params: ints('x'), ensures: ['True'] }), 'def f(x):\n    if x > 0:\n        y = 1\n    return y\n');
    expect(out.status).toBe('counterexample');
    expect(out.counterexample!.inputs.x as number).toBeLessThanOrEqual(0);
    expect(out.counterexample!.violated.join(' ')).toMatch(/y is assigned before it is read/);
  });

  test('chained comparisons, and/or/not with short circuit, ternaries', async () => {
    const spec = py({ params: [...ints('a', 'b'), { name: 'c', type: 'bool' }], returns: 'bool', ensures: ['result == ((a < b and b < 10) or not c)'] });
    expect((await check(spec, 'def f(a, b, c):\n    return True if a < b < 10 or not c else False\n')).status).toBe('proved');
  });

  test('and/or on integers yield an operand: outside the subset', async () => {
    const out = await check(py({ params: ints('a', 'b'), ensures: ['result >= 0'] }), 'def f(a, b):\n    return a or b\n');
    expect(out.status).toBe('unknown');
    expect(out.reason).toMatch(/or on a non-boolean/);
  });

  test('for over range(a, b, step), unrolled; more iterations than the bound is checked, never proved', async () => {
    const spec = py({ params: ints('n'), requires: ['0 <= n <= 6'], ensures: ['result == n * (n + 1) // 2'], bounds: { unroll: 8 } });
    expect((await check(spec, 'def f(n):\n    s = 0\n    for i in range(1, n + 1):\n        s += i\n    return s\n')).status).toBe('proved');
    const down = py({ params: ints('n'), requires: ['0 <= n <= 6'], ensures: ['result == n * (n + 1) // 2'] });
    expect((await check(down, 'def f(n):\n    s = 0\n    for i in range(n, 0, -1):\n        s += i\n    return s\n')).status).toBe('proved');
    const unbounded = py({ params: ints('n'), requires: ['0 <= n'], ensures: ['result >= 0'], bounds: { unroll: 3 } });
    expect((await check(unbounded, 'def f(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n')).status).toBe('checked');
  });

  test('while with break and continue', async () => {
    const spec = py({ params: ints('n'), requires: ['0 <= n <= 5'], ensures: ['result == n - n // 2'] });
    const source =
      'def f(n):\n    i = 0\n    c = 0\n    while True:\n        if i >= n:\n            break\n        i += 1\n        if i % 2 == 0:\n            continue\n        c += 1\n    return c\n';
    expect((await check(spec, source)).status).toBe('proved');
  });
});

describe('lists', () => {
  const sum = py({ params: [list('xs')], requires: ['len(xs) <= 3'], ensures: ['result == (0 if len(xs) == 0 else xs[0])'], bounds: { array_length: 3 } });

  test('reads, len, for x in xs, and all()/any() in the spec', async () => {
    const spec = py({
      params: [list('xs')],
      requires: ['all(x >= 0 for x in xs)', '0 <= len(xs) <= 3'],
      ensures: ['result >= 0', 'len(xs) == 0 or any(result >= xs[i] for i in range(len(xs)))'],
      bounds: { array_length: 3 }
    });
    expect((await check(spec, 'def f(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t\n')).status).toBe('proved');
    expect((await check(sum, 'def f(xs):\n    return 0 if not xs else xs[0]\n')).status).toBe('proved');
  });

  test('a negative index wraps, as in Python; past -len it is an IndexError counterexample', async () => {
    const last = py({ params: [list('xs')], requires: ['len(xs) > 0 and len(xs) < 4'], ensures: ['result == xs[len(xs) - 1]'], bounds: { array_length: 3 } });
    expect((await check(last, 'def f(xs):\n    return xs[-1]\n')).status).toBe('proved');
    const out = await check(py({ params: [list('xs'), ...ints('i')], ensures: ['True'], bounds: { array_length: 2 } }), 'def f(xs, i):\n    return xs[i]\n');
    expect(out.status).toBe('counterexample');
    const { xs, i } = out.counterexample!.inputs as { xs: number[]; i: number };
    expect(i < -xs.length || i >= xs.length).toBe(true);
    expect(out.counterexample!.violated.join(' ')).toMatch(/inside the list \(else IndexError\)/);
  });

  test('writes are seen by later reads; a write out of range is a counterexample', async () => {
    const spec = py({
      params: [list('xs')],
      requires: ['len(xs) >= 2', 'len(xs) == 3 or len(xs) == 2', 'len(xs) <= 3'],
      ensures: ['result == xs[1] + 1'],
      bounds: { array_length: 3 }
    });
    expect((await check(spec, 'def f(xs):\n    xs[0] = xs[1] + 1\n    return xs[0]\n')).status).toBe('proved');
    const oob = await check(py({ params: [list('xs')], ensures: ['True'], bounds: { array_length: 2 } }), 'def f(xs):\n    xs[2] = 0\n    return 0\n');
    expect(oob.status).toBe('counterexample');
  });

  test('a list read only up to the bound is checked, never proved, while requires allows longer lists', async () => {
    // Right for every list of length ≤ 4 (the model's bound), wrong for longer ones.
    const total = py({ params: [list('xs')], requires: ['all(0 <= x <= 100 for x in xs)'], ensures: ['result >= 0', 'all(x <= result for x in xs)'], bounds: { array_length: 4 } });
    const firstFour = 'def f(xs):\n    t = 0\n    for i in range(4):\n        if i < len(xs):\n            t += xs[i]\n    return t\n';
    const out = await check(total, firstFour);
    expect(out.status).toBe('checked');
    expect(out.reason).toMatch(/no counterexample among lists of length ≤ 4, but requires allows a longer xs.*add len\(xs\) <= 4 to requires/);
    // With the length bounded by requires the proof covers every input it allows.
    expect((await check(py({ ...total, requires: [...total.requires, 'len(xs) <= 4'] }), firstFour)).status).toBe('proved');
    // A bound above the model's is not enough.
    expect((await check(py({ ...total, requires: [...total.requires, 'len(xs) <= 5'] }), firstFour)).status).toBe('checked');
  });

  test('slices and aliasing are outside the subset', async () => {
    const spec = py({ params: [list('xs')], ensures: ['result >= 0'] });
    expect((await check(spec, 'def f(xs):\n    return xs[0:1]\n')).reason).toMatch(/a slice/);
    expect((await check(spec, 'def f(xs):\n    ys = xs\n    return len(ys)\n')).reason).toMatch(/aliasing/);
  });
});

describe('escapes are unknown, never not_applicable', () => {
  const spec = py({ params: ints('a', 'b'), ensures: ['result == min(a, b)'] });
  const good = 'def f(a, b):\n    return min(a, b)\n';

  test('the good version is proved (the control for every case below)', async () => {
    expect((await check(spec, good)).status).toBe('proved');
  });

  test.each([
    ['a module-level min = …', `min = max\n${good}`, /min is rebound or passed around/],
    ['def min', `def min(a, b):\n    return a\n${good}`, /min is rebound/],
    ['import … as min', `from operator import add as min\n${good}`, /min is rebound/],
    ['from x import min', `from mylib import min\n${good}`, /min is rebound/],
    ['a parameter named min elsewhere', `def g(min):\n    return 0\n${good}`, /min is rebound/],
    ['global min', `def g():\n    global min\n    min = 3\n${good}`, /min is rebound/],
    ['a local named min', 'def f(a, b):\n    min = 3\n    return a if a <= b else b\n', /min is rebound/],
    ['a second definition', `${good}def f(a, b):\n    return a\n`, /2 definitions of f/],
    ['f rebound by an assignment', `${good}f = lambda a, b: a\n`, /f is bound again/],
    ['f imported over', `${good}from other import f\n`, /f is bound again/],
    ['a decorator', `import functools\n@functools.cache\n${good}`, /a decorator/],
    ['a star import', `${good}from other import *\n`, /a star import/],
    ['globals()', `${good}globals()['min'] = max\n`, /globals/],
    ['builtins', `import builtins\n${good}`, /builtins/],
    ['the target renamed', good.replace('def f', 'def g'), /no module-level def f \(renamed or deleted\?\)/],
    ['a def nested in if', `if True:\n    def f(a, b):\n        return min(a, b)\n`, /f is bound again/],
    ['async def', `async def f(a, b):\n    return min(a, b)\n`, /async/],
    ['a syntax error', 'def f(a, b)\n    return min(a, b)\n', /does not parse/],
    ['a call of another function', 'def g(a):\n    return a\ndef f(a, b):\n    return g(a)\n', /a call other than min, max, abs, len/]
  ])('%s', async (_name, source, reason) => {
    const out = await check(spec, source);
    expect(out.status).toBe('unknown');
    expect(out.reason).toMatch(reason);
  });

  test('the file deleted is unknown', async () => {
    const { checkTarget } = await import('../../src/formal/gate.js');
    const { IN_PROCESS } = await import('./formal-support.js');
    const out = await checkTarget(spec, undefined, IN_PROCESS);
    expect(out.status).toBe('unknown');
    expect(out.reason).toMatch(/not in the tree/);
  });
});

describe('spec checks for a Python target', () => {
  test('a spec in Python calibrates on a buggy base; a tautology, a vacuous requires and a JS expression are refused', async () => {
    const base = 'def f(a, b):\n    return a if a < b else a\n';
    const spec = py({ params: ints('a', 'b'), ensures: ['result == min(a, b)'], wrong_implementations: ['def f(a, b):\n    return b\n'] });
    expect(await specProblem(spec, base)).toBeUndefined();
    expect(await specProblem(py({ params: ints('a'), ensures: ['result == result'] }), 'def f(a):\n    return 0\n')).toMatch(/tautology/);
    expect(await specProblem(py({ params: ints('a'), requires: ['a > 0 and a < 0'], ensures: ['result == a'] }), 'def f(a):\n    return 0\n')).toMatch(/unsatisfiable/);
    expect(await specProblem(py({ params: ints('a'), ensures: ['result === a'] }), 'def f(a):\n    return 0\n')).toMatch(/not one Python expression/);
  });
});

describe('other changed Python files', () => {
  test("one that reaches builtins or assigns a target's name on a module makes every target unknown; a plain one does not", async () => {
    const { changedFileProblems } = await import('../../src/formal/run.js');
    const { loadPythonParser } = await import('../../src/formal/python-parser.js');
    await loadPythonParser();
    const changed = new Map<string, Buffer | null>([
      ['compat.py', Buffer.from('import builtins\nbuiltins.min = max\n')],
      ['other.py', Buffer.from('import pages\npages.page_count = lambda a, b: 0\n')],
      ['fine.py', Buffer.from('def g(x):\n    return min(x, 1)\n')],
      ['gone.py', null],
      ['pages.py', Buffer.from('min = 1\n')]
    ]);
    expect(changedFileProblems(changed, ['pages.py'], ['page_count'])).toEqual([
      'compat.py: builtins (line 1)',
      'compat.py: an assignment to .min (line 2)',
      'compat.py: builtins (line 2)',
      'other.py: an assignment to .page_count (line 2)'
    ]);
  });
});
