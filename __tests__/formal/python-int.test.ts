import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { applyPatch } from 'diff';
import { formalRecordSchema } from '../../src/core/formal.js';
import { replayTestSource } from '../../src/formal/replay.js';
import { formalBlockSchema } from '../../src/formal/spec.js';
import { check, ints, specProblem, target } from './formal-support.js';
import { stopZ3 } from './z3-in-process.js';

/**
 * Python targets are proved over unbounded integers (scope `python-int`): fixtures/py-ids, whose bug
 * shows only above 2**53, calibrates (the base gets a counterexample no safe-integer model has), the
 * fix is proved, and the int64 candidate's counterexample is recorded exactly as decimal text and
 * written into the replay test as the exact Python int. The Docker replay is
 * __tests__/formal/formal-python-docker.test.ts.
 */

afterAll(stopZ3);

const ROOT = join(import.meta.dirname, '..', '..');
const pack = JSON.parse(readFileSync(join(ROOT, 'witness-packs', 'py-ids', 'witness.json'), 'utf8')) as { formal: unknown };
const block = formalBlockSchema.parse(pack.formal);
const spec = block.targets[0]!;
const base = readFileSync(join(ROOT, 'fixtures', 'py-ids', 'repo', 'ids.py'), 'utf8');
const candidate = (name: string): string => {
  const patched = applyPatch(base, readFileSync(join(ROOT, 'fixtures', 'py-ids', 'candidates', `${name}.diff`), 'utf8'));
  if (patched === false) throw new Error(`${name}.diff does not apply`);
  return patched;
};

describe('Python targets over unbounded integers', () => {
  test('the base, wrong only above 2**53, calibrates the spec', async () => {
    expect(await specProblem(spec, base)).toBeUndefined();
    const outcome = await check(spec, base);
    expect(outcome.status).toBe('counterexample');
    expect(outcome.scope.integers).toBe('python-int');
    const last = outcome.counterexample!.inputs.last;
    expect(typeof last).toBe('string');
    expect(BigInt(last as string) >= 2n ** 53n).toBe(true);
  }, 120_000);

  test('fix is proved, int64 gets the exact counterexample 2**63 - 1 or more, and both records fit the receipt schema', async () => {
    const fix = await check(spec, candidate('fix'));
    expect(fix).toMatchObject({ status: 'proved', scope: { integers: 'python-int' } });
    const int64 = await check(spec, candidate('int64'));
    expect(int64.status).toBe('counterexample');
    const last = BigInt(int64.counterexample!.inputs.last as string);
    expect(last >= 2n ** 63n - 1n).toBe(true);
    // The result is exact too: the saturated id is the input itself.
    expect(int64.counterexample!.result).toBe(last.toString());
    for (const outcome of [fix, int64]) {
      const { reason: _r, ...record } = outcome;
      expect(formalRecordSchema.safeParse({ status: outcome.status, targets: [record] }).success).toBe(true);
    }
    // The replay reads the exact int: json.loads of bare digits, never a float.
    const text = replayTestSource(spec, int64.counterexample!.inputs, 'n0nce');
    expect(text).toContain(`ENTRY = json.loads("{\\"last\\":${last}}")`);
  }, 120_000);

  test('an intermediate value past 2**63 stays exact (no range obligation, no wrap-around)', async () => {
    const t = target({ file: 'm.py', function: 'f', params: ints('x'), requires: ['0 <= x'], ensures: ['result > x'] });
    expect((await check(t, 'def f(x):\n    return x * x + 1\n')).status).toBe('proved');
    const wrapped = await check(t, 'def f(x):\n    if x * 2 > 18446744073709551615:\n        return 0\n    return x + 1\n');
    expect(wrapped.status).toBe('counterexample');
    expect(BigInt(wrapped.counterexample!.inputs.x as string) * 2n > 18446744073709551615n).toBe(true);
  }, 120_000);

  test('JS targets keep safe integers as a precondition: a JS bug above 2**53 is out of scope, never a big counterexample', async () => {
    const t = target({ params: ints('x'), requires: ['x >= 0'], ensures: ['result === x'] });
    const outcome = await check(t, 'export function f(x) { return x > 9007199254740991 ? 0 : x; }');
    expect(outcome).toMatchObject({ status: 'proved', scope: { integers: 'safe' } });
  }, 120_000);
});
