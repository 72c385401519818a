import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { applyFileChanges } from '../../src/core/patch-apply.js';
import { checkDiff } from '../../src/core/diff-policy.js';
import { parseWitnessManifest } from '../../src/fetch/witness/manifest.js';
import { ROOT } from '../helpers/cli.js';
import { check, ints, specProblem, target } from './formal-support.js';
import { stopZ3 } from './z3-in-process.js';

/**
 * The spec checks made when a pack is loaded against its base (a bad spec refuses the pack), and the
 * js-pages fixture's candidates through the gate: the bug, a correct fix, a fix that passes the
 * example tests but has a counterexample, and a correct fix outside the subset.
 */

afterAll(stopZ3);

const BASE = 'export function f(x) { return x; }';
const absSpec = { params: ints('x'), ensures: ['result >= 0', 'result === x || result === -x'] };

describe('spec checks', () => {
  test('a calibrated spec is accepted', async () => {
    expect(await specProblem(target({ ...absSpec, wrong_implementations: ['function f(x) { return -x; }'] }), BASE)).toBeUndefined();
  });

  test('an unsatisfiable requires (vacuous) is refused', async () => {
    expect(await specProblem(target({ ...absSpec, requires: ['x > 0', 'x < 0'] }), BASE)).toMatch(/requires is unsatisfiable/);
  });

  test('a tautological ensures is refused', async () => {
    expect(await specProblem(target({ params: ints('x'), ensures: ['result >= x || result < x'] }), BASE)).toMatch(/holds for any result \(a tautology/);
  });

  test('the spec is judged before the base: a defect of the spec is named even when the base is outside the subset (issue 29)', async () => {
    const outside = 'export function f(x) { return Math.ceil(x); }';
    expect(await specProblem(target({ ...absSpec, requires: ['x > 0', 'x < 0'] }), outside)).toMatch(/requires is unsatisfiable/);
    expect(await specProblem(target({ params: ints('x'), ensures: ['result >= x || result < x'] }), outside)).toMatch(/a tautology/);
    expect(await specProblem(target({ ...absSpec, wrong_implementations: ['function f(x) { return Math.floor(x); }'] }), BASE)).toMatch(
      /wrong_implementations\[0\] is not refuted \(outside the subset: Math\.floor/
    );
    // A sound spec over a base outside the subset is refused for the base.
    expect(await specProblem(target(absSpec), outside)).toMatch(/the base version cannot calibrate the spec: outside the subset: Math\.ceil/);
  });

  test('returns is inferred from the base version and the spec when they leave one type (issue 29, item 4)', async () => {
    const { resolveReturns } = await import('../../src/formal/gate.js');
    const bare = (spec: Parameters<typeof target>[0]) => {
      const { returns: _drop, ...rest } = target(spec);
      return rest;
    };
    // The spec reads result as an int (result * perPage) and the base returns one.
    const pages = bare({ params: ints('total', 'perPage'), requires: ['perPage >= 1'], ensures: ['result * perPage >= total'] });
    expect((await resolveReturns(pages, 'export function f(total, perPage) { return Math.trunc(total / perPage); }')).returns).toBe('int');
    // A base that returns comparisons is a bool target, whatever the spec's truthiness allows.
    const positive = bare({ params: ints('x'), ensures: ['result === (x > 0)'] });
    expect((await resolveReturns(positive, 'function f(x) { if (x > 100) return true; return x > 0; }')).returns).toBe('bool');
    const truthy = bare({ params: ints('x'), ensures: ['result || x <= 0'] });
    expect((await resolveReturns(truthy, 'function f(x) { return x > 0; }')).returns).toBe('bool');
    // A base outside the subset before any return, and a spec that does not read result: say it.
    const silent = bare({ params: ints('x'), ensures: ['x > 0 || x <= 0'] });
    await expect(resolveReturns(silent, "function f(x) { const s = 'a'; return x > 0; }")).rejects.toThrow(/returns cannot be inferred .* say "returns"/);
    // The base and the spec disagree.
    await expect(resolveReturns(pages, 'function f(total, perPage) { return total > perPage; }')).rejects.toThrow(/the base version returns bool, the spec reads result as int/);
    // A declared type is kept as it is.
    expect((await resolveReturns(target({ ...absSpec, returns: 'int' }), undefined)).returns).toBe('int');
  });

  test('a wrong implementation the spec does not refute is refused', async () => {
    const weak = target({ params: ints('x'), ensures: ['result >= 0'], wrong_implementations: ['function f(x) { return x * x > 1000000 ? 0 : Math.abs(x) * 0; }'] });
    expect(await specProblem(weak, BASE)).toMatch(/wrong_implementations\[0\] is (proved correct|not refuted)/);
  });

  test('a base version the spec proves correct is refused (the spec misses the bug)', async () => {
    expect(await specProblem(target(absSpec), 'export function f(x) { return Math.abs(x); }')).toMatch(/the base version is proved correct/);
  });

  test('a base outside the subset cannot calibrate the spec: refused', async () => {
    expect(await specProblem(target(absSpec), 'export function f(x) { return Math.hypot(x); }')).toMatch(
      /base version cannot calibrate the spec: outside the subset: .*Math\.hypot/
    );
  });

  test('a spec expression outside the subset or reading outside an array is refused', async () => {
    expect(await specProblem(target({ params: ints('x'), ensures: ['result === x.toString()'] }), BASE)).toMatch(/is outside the subset/);
    expect(await specProblem(target({ params: ints('x'), ensures: ['result >= (x'] }), BASE)).toMatch(/does not parse/);
    const arr = target({ params: [{ name: 'a', type: 'int[]' }], ensures: ['result === a[0]'] });
    expect(await specProblem(arr, 'function f(a) { return 0; }')).toMatch(/reads outside an array/);
  });
});

describe('the js-pages fixture through the gate', () => {
  const packDir = join(ROOT, 'witness-packs', 'js-pages');
  const manifest = parseWitnessManifest(JSON.parse(readFileSync(join(packDir, 'witness.json'), 'utf8')), 'witness.json');
  const spec = manifest.formal!.targets[0]!;
  const baseText = readFileSync(join(ROOT, 'fixtures', 'js-pages', 'repo', 'src', 'paginate.js'));
  const candidate = (name: string): string => {
    const diff = readFileSync(join(ROOT, 'fixtures', 'js-pages', 'candidates', `${name}.diff`), 'utf8');
    const changes = checkDiff(diff, { maxBytes: 1 << 20, maxFiles: 10 });
    return applyFileChanges(() => baseText, changes)
      .get('src/paginate.js')!
      .toString('utf8');
  };

  test("the pack's spec calibrates on the base (whose bug it refutes)", async () => {
    expect(await specProblem(spec, baseText.toString('utf8'))).toBeUndefined();
    const base = await check(spec, baseText.toString('utf8'));
    expect(base.status).toBe('counterexample');
    const { total, perPage } = base.counterexample!.inputs as { total: number; perPage: number };
    expect(Math.trunc(total / perPage) * perPage).toBeLessThan(total);
  });

  test('the correct fix is proved', async () => {
    expect(await check(spec, candidate('fix'))).toMatchObject({ status: 'proved', scope: { integers: 'safe', unroll: 8 } });
  });

  test('the (total - 1) / perPage + 1 fix passes the examples, but total = 0 is a counterexample (JS truncates toward zero)', async () => {
    const out = await check(spec, candidate('minus-one'));
    expect(out.status).toBe('counterexample');
    expect(out.counterexample).toMatchObject({ inputs: { total: 0 }, result: 1, violated: ['ensures'] });
  });

  test('Math.ceil is correct but outside the subset: unknown, with the reason', async () => {
    const out = await check(spec, candidate('ceil'));
    expect(out).toMatchObject({ status: 'unknown', required: true });
    expect(out.reason).toMatch(/Math\.ceil/);
  });
});

describe('the formal block in witness.json', () => {
  const base = { schema: 'patchproof.witness/v1', adapter: 'node-test' };
  const targetOf = (extra: Record<string, unknown>) => ({
    formal: { targets: [{ file: 'src/a.js', function: 'f', params: [{ name: 'x', type: 'int' }], returns: 'int', ensures: ['result >= 0'], ...extra }] }
  });
  const refusal = (value: unknown): string => {
    try {
      parseWitnessManifest(value, 'witness.json');
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  };

  test('defaults are applied, and a pack without the block loads as before', () => {
    const manifest = parseWitnessManifest({ ...base, ...targetOf({}) }, 'witness.json');
    expect(manifest.formal).toEqual({
      memory_mb: 1024,
      targets: [expect.objectContaining({ requires: [], bounds: { unroll: 8, array_length: 4 }, time_limit_seconds: 30, required: false, wrong_implementations: [] })]
    });
    expect(parseWitnessManifest(base, 'witness.json').formal).toBeUndefined();
  });

  test('bad fields are refused in one line naming the field and its form', () => {
    expect(refusal({ ...base, ...targetOf({ params: [{ name: 'x', type: 'float' }] }) })).toBe(
      `witness.json: formal.targets[0].params[0].type is 'float'; expected "int", "bool" or "int[]".`
    );
    expect(refusal({ ...base, ...targetOf({ file: '../a.js' }) })).toMatch(
      /^witness\.json: formal\.targets\[0\]\.file '\.\.\/a\.js' .*; expected a repository-relative \.js, \.ts or \.py file/
    );
    // Python targets are accepted since the Python front end (translate-python.test.ts); other languages are not.
    expect(refusal({ ...base, ...targetOf({ file: 'src/a.rb' }) })).toMatch(/formal\.targets\[0\]\.file 'src\/a\.rb' is not a \.js, \.ts or \.py file/);
    expect(refusal({ ...base, ...targetOf({ bounds: { unroll: 500 } }) })).toBe('witness.json: formal.targets[0].bounds.unroll is 500; expected a whole number from 0 to 64.');
    expect(refusal({ ...base, ...targetOf({ ensures: [] }) })).toMatch(/formal\.targets\[0\]\.ensures is an empty list/);
    expect(refusal({ ...base, ...targetOf({ params: [{ name: 'result', type: 'int' }] }) })).toMatch(/formal\.targets\[0\]\.params names 'result'/);
    expect(refusal({ ...base, formal: { ...targetOf({}).formal, extra: 1 } })).toMatch(/unknown field formal\.extra; expected only targets, memory_mb/);
    expect(refusal({ ...base, formal: { targets: [] } })).toMatch(/formal\.targets is an empty list; expected a list of 1 to 16 targets/);
  });
});
