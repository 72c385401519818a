import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { loadPythonParser } from '../../src/formal/python-parser.js';
import type { FormalTarget } from '../../src/formal/spec.js';
import { translatePython } from '../../src/formal/translate-python.js';
import { agreeOn, arr, fixtureSource, pagesInputs, small, type Fixture, type Input } from './agreement-support.js';
import { ints, target } from './formal-support.js';
import { stopZ3 } from './z3-in-process.js';

/**
 * Property: the Python front end agrees with real `python3`. For each fixture function (ours, so
 * running it here is fine; the product never runs candidate code) and random inputs, real Python
 * computes the result or raises (ZeroDivisionError, IndexError, UnboundLocalError, or returns None);
 * the formula with the inputs fixed has exactly that one result and every obligation holds, or,
 * where Python raised, some `bounds` obligation fails.
 */

beforeAll(loadPythonParser);
afterAll(stopZ3);

const py = (spec: Parameters<typeof target>[0]): FormalTarget => target({ file: 'f.py', ...spec });

function pagesSource(candidate?: string): string {
  return fixtureSource('py-pages', 'pages.py', candidate);
}

const pagesSpec = py({ function: 'page_count', params: ints('total', 'per_page'), ensures: ['True'] });

const FIXTURES: Fixture[] = [
  { name: 'page_count (base)', source: pagesSource(), spec: pagesSpec, inputs: pagesInputs },
  { name: 'page_count (fix)', source: pagesSource('fix'), spec: pagesSpec, inputs: pagesInputs },
  { name: 'page_count (plus-one)', source: pagesSource('plus-one'), spec: pagesSpec, inputs: pagesInputs },
  {
    name: 'floor division and modulo, a zero divisor raising',
    source: 'def f(a, b):\n    return (a % b) * 1000 + a // b\n',
    spec: py({ params: ints('a', 'b'), ensures: ['True'] }),
    inputs: fc.tuple(small, fc.integer({ min: -20, max: 20 }))
  },
  {
    name: 'min/max/abs, a chained comparison and a ternary',
    source: 'def f(x, lo, hi):\n    return abs(lo - hi) if lo > hi else min(max(x, lo), hi) - -x if lo <= x < hi else max(lo, hi, x) // 3\n',
    spec: py({ params: ints('x', 'lo', 'hi'), ensures: ['True'] }),
    inputs: fc.tuple(small, small, small)
  },
  {
    name: 'booleans, and/or/not and truthiness',
    source: 'def f(p, q, x):\n    if x:\n        return (p and not q) or (x > 3 and q)\n    return (not p) == q\n',
    spec: py({ params: [{ name: 'p', type: 'bool' }, { name: 'q', type: 'bool' }, ...ints('x')], returns: 'bool', ensures: ['True'] }),
    inputs: fc.tuple(fc.boolean(), fc.boolean(), fc.integer({ min: -5, max: 8 }))
  },
  {
    name: 'for over range with continue, break and an early return; a local unassigned on some paths',
    source:
      'def f(a, x):\n    s = 0\n    for i in range(len(a)):\n        if a[i] % 2 == 0:\n            continue\n        if a[i] == x:\n            return -i - 1\n        s += a[i]\n        last = i\n        if s > 60:\n            break\n    return s + last\n',
    spec: py({ params: [{ name: 'a', type: 'int[]' }, ...ints('x')], ensures: ['True'], bounds: { unroll: 5, array_length: 5 } }),
    inputs: fc.tuple(arr(5), fc.integer({ min: -50, max: 50 }))
  },
  {
    name: 'a while loop with an indexed write, negative indices, for x in xs',
    source:
      'def f(a, k):\n    i = len(a) - 1\n    best = 0\n    while i >= 0:\n        if a[i] < 0:\n            a[i] = -a[i]\n        best = max(best, a[i] * (i + 1))\n        i -= 1\n    for v in a:\n        best += v\n    return best + a[k]\n',
    spec: py({ params: [{ name: 'a', type: 'int[]' }, ...ints('k')], ensures: ['True'], bounds: { unroll: 4, array_length: 4 } }),
    inputs: fc.tuple(arr(4), fc.integer({ min: -6, max: 5 }))
  },
  {
    name: 'a path that falls off the end (None)',
    source: 'def f(x):\n    if x > 0:\n        return x // 2\n    elif x < -10:\n        return -x\n',
    spec: py({ params: ints('x'), ensures: ['True'] }),
    inputs: fc.tuple(fc.integer({ min: -20, max: 20 }))
  }
];

/** Real python3 on every input: ["ok", value] or ["raised", name] (None counts as raised: the contract breaks). */
function runPython(fixture: Fixture, inputs: Input[][]): [string, unknown][] {
  const script = `import json, sys\nns = {}\nexec(compile(${JSON.stringify(fixture.source)}, 'f.py', 'exec'), ns)\nfn = ns[${JSON.stringify(fixture.spec.function)}]\nout = []\nfor args in json.loads(sys.stdin.read()):\n    try:\n        r = fn(*args)\n        out.append(['raised', 'None'] if r is None else ['ok', r])\n    except Exception as e:\n        out.append(['raised', type(e).__name__])\nprint(json.dumps(out))\n`;
  return JSON.parse(execFileSync('python3', ['-I', '-c', script], { input: JSON.stringify(inputs), encoding: 'utf8' })) as [string, unknown][];
}

describe('the Python front end agrees with real python3 on random inputs', () => {
  test.each(FIXTURES.map((f) => [f.name, f] as const))(
    '%s',
    async (_name, fixture) => {
      const formula = translatePython(fixture.spec, { text: fixture.source, file: 'f.py' });
      const samples = fc.sample(fixture.inputs, { numRuns: 40, seed: 1515 });
      const real = runPython(fixture, samples);
      let raisedSeen = 0;
      for (const [index, inputs] of samples.entries()) {
        const [kind, value] = real[index]!;
        const broken = await agreeOn(formula, fixture.spec, inputs, kind === 'ok' ? (value as number | boolean) : undefined);
        if (kind !== 'ok') {
          raisedSeen++;
          // Python raised: the formula says so by a failing bounds obligation (never unroll or model).
          expect([inputs, value, broken.some((o) => o.kind === 'bounds')]).toEqual([inputs, value, true]);
        }
      }
      expect(raisedSeen).toBeLessThan(samples.length);
    },
    180_000
  );
});
