import { afterAll, describe, test } from '@jest/globals';
import fc from 'fast-check';
import { translate } from '../../src/formal/translate.js';
import { agreeOn, arr, fixtureSource, pagesInputs, small, type Fixture, type Input } from './agreement-support.js';
import { ints, target } from './formal-support.js';
import { stopZ3 } from './z3-in-process.js';

/**
 * Property: the translator agrees with real execution. For each fixture function (ours, so running
 * it here is fine; the product never runs candidate code) and random inputs inside the spec's
 * domain, the formula with the inputs fixed has exactly one result, the one JS computes, and every
 * obligation holds where JS stays inside the integer model.
 */

afterAll(stopZ3);

function pagesSource(candidate?: string): string {
  return fixtureSource('js-pages', 'src/paginate.js', candidate);
}

const pagesSpec = target({ function: 'pageCount', params: ints('total', 'perPage'), ensures: ['true'] });

const FIXTURES: Fixture[] = [
  { name: 'pageCount (base)', source: pagesSource(), spec: pagesSpec, inputs: pagesInputs },
  { name: 'pageCount (fix)', source: pagesSource('fix'), spec: pagesSpec, inputs: pagesInputs },
  { name: 'pageCount (minus-one)', source: pagesSource('minus-one'), spec: pagesSpec, inputs: pagesInputs },
  {
    name: 'remainder and truncation',
    source: 'function f(a, b) { if (b === 0) return 0; return (a % b) * 1000 + Math.trunc(a / b); }',
    spec: target({ params: ints('a', 'b'), ensures: ['true'] }),
    inputs: fc.tuple(small, fc.integer({ min: -20, max: 20 }))
  },
  {
    name: 'clamp with min/max/abs and a ternary',
    source: 'const f = (x, lo, hi) => (lo > hi ? Math.abs(lo - hi) : Math.min(Math.max(x, lo), hi) - -x);',
    spec: target({ params: ints('x', 'lo', 'hi'), ensures: ['true'] }),
    inputs: fc.tuple(small, small, small)
  },
  {
    name: 'booleans, && || ! and truthiness',
    source: 'function f(p, q, x) { if (x) { return (p && !q) || (x > 3 && q); } return !p === q; }',
    spec: target({ params: [{ name: 'p', type: 'bool' }, { name: 'q', type: 'bool' }, ...ints('x')], returns: 'bool', ensures: ['true'] }),
    inputs: fc.tuple(fc.boolean(), fc.boolean(), fc.integer({ min: -5, max: 8 }))
  },
  {
    name: 'a loop with continue, break and an early return',
    source:
      'function f(a, x) {\n  let s = 0;\n  for (let i = 0; i < a.length; i++) {\n    if (a[i] % 2 === 0) continue;\n    if (a[i] === x) return -i - 1;\n    s += a[i];\n    if (s > 60) break;\n  }\n  return s;\n}',
    spec: target({ params: [{ name: 'a', type: 'int[]' }, ...ints('x')], ensures: ['true'], bounds: { unroll: 5, array_length: 5 } }),
    inputs: fc.tuple(arr(5), fc.integer({ min: -50, max: 50 }))
  },
  {
    name: 'a while loop with an indexed write',
    source:
      'function f(a) {\n  let i = a.length - 1;\n  let best = 0;\n  while (i >= 0) {\n    if (a[i] < 0) a[i] = -a[i];\n    best = Math.max(best, a[i] * (i + 1));\n    i--;\n  }\n  return best;\n}',
    spec: target({ params: [{ name: 'a', type: 'int[]' }], ensures: ['true'], bounds: { unroll: 4, array_length: 4 } }),
    inputs: fc.tuple(arr(4))
  }
];

/** The JS function of a fixture's source (export stripped): running our own fixture code. */
function compile(fixture: Fixture): (...args: Input[]) => unknown {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- it runs our own fixture's source, on purpose: the reference execution
  const build = new Function(`${fixture.source.replace(/^export /gm, '')}\nreturn ${fixture.spec.function};`) as () => (...args: Input[]) => unknown;
  return build();
}

describe('the translator agrees with real execution on random inputs', () => {
  test.each(FIXTURES.map((f) => [f.name, f] as const))(
    '%s',
    async (_name, fixture) => {
      const fn = compile(fixture);
      const formula = translate(fixture.spec, { text: fixture.source, file: 'f.js' });
      await fc.assert(
        fc.asyncProperty(fixture.inputs, async (inputs) => {
          const raw = fn(...inputs.map((v) => (Array.isArray(v) ? [...v] : v)));
          // The model has one zero: -0 (Math.trunc(-1 / 2)) is 0, as === sees it (docs/witness-pack.md).
          const expected = typeof raw === 'number' ? raw + 0 : raw;
          await agreeOn(formula, fixture.spec, inputs, expected as number | boolean);
        }),
        { numRuns: 40, seed: 1515, endOnFailure: true }
      );
    },
    120_000
  );
});
