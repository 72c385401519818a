import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeObservations, parseObservations, recordExpectations, type OracleFile } from '../../src/core/oracle.js';
import { observerFiles } from '../../src/oracle/observer.js';
import { sealJs, type SealOutput } from '../../src/oracle/seal-js.js';

/**
 * The assertion styles of real JS suites (issue 28 items 1, 2 and 10): each is sealed, the sealed
 * file runs for real (plain Node, no test framework: every assertion left in it would throw on the
 * missing `expect`), once with a right implementation and once with a wrong one, and the host judges
 * the observations. Each style's vacuity check: the wrong implementation must fail on the host,
 * which it would not if the site observed only a value the test supplies (or were not sealed).
 */

const NONCE = 'cd'.repeat(16);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pp-seal-styles-'));
  for (const [name, text] of Object.entries(observerFiles(NONCE))) await writeFile(join(dir, name), text);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A minimal `test`: runs each body, awaits it, reports nothing (the host judges the observations).
const HARNESS = `const test = (name, fn) => { queue.push(fn); };\nconst it = test;\nconst queue = [];\nprocess.nextTick(async () => { for (const fn of queue) { try { await fn({ assert: require('node:assert/strict') }); } catch (e) { console.error('TEST FAILED', e && e.message); } } });\n`;

function seal(body: string): Required<SealOutput> {
  return sealJs('reproduction', [{ path: 't.test.cjs', source: `const assert = require('node:assert/strict');\nconst { f, g } = require('./impl.cjs');\n${HARNESS}${body}\n` }]);
}

async function run(sealed: Required<SealOutput>, impl: string): Promise<{ observations: ReturnType<typeof parseObservations>; stderr: string }> {
  await writeFile(join(dir, 'impl.cjs'), impl);
  await writeFile(join(dir, 't.test.cjs'), sealed.files[0]!.source);
  const result = spawnSync(process.execPath, ['t.test.cjs'], { cwd: dir, encoding: 'utf8' });
  return { observations: parseObservations(result.stdout, NONCE), stderr: result.stderr };
}

/** Seal, record pending sites with the right implementation (twice), and judge both implementations. */
async function judge(body: string, good: string, bad: string): Promise<{ sealed: Required<SealOutput>; good: string[]; bad: string[] }> {
  const sealed = seal(body);
  let oracle: OracleFile = { schema: 'patchproof.oracle/v1', cases: sealed.cases, unsealed: sealed.unsealed, ...(sealed.pending.length > 0 ? { pending: sealed.pending } : {}) };
  if (sealed.pending.length > 0) {
    const runs = [];
    for (const attempt of [1, 2]) {
      const { observations } = await run(sealed, good);
      runs.push({ phase: 'reproduction' as const, attempt, observations: observations.observations, malformed: observations.malformed });
    }
    const recorded = recordExpectations(oracle, runs);
    if (!recorded.ok) throw new Error(recorded.problems.join('\n'));
    oracle = recorded.oracle;
  }
  const outcomes = async (impl: string): Promise<string[]> => {
    const { observations } = await run(sealed, impl);
    const judged = judgeObservations(oracle.cases, observations);
    return [...judged.problems, ...judged.cases.map((c) => `${c.id.replace('reproduction:t.test.cjs/', '')} ${c.outcome}`)];
  };
  return { sealed, good: await outcomes(good), bad: await outcomes(bad) };
}

const allMatched = (lines: string[]): boolean => lines.length > 0 && lines.every((l) => l.endsWith(' matched'));
const GOOD = `exports.f = (s) => ({ name: s.toUpperCase(), n: s.length, tags: ['a', s] });\nexports.g = (s) => { if (s === '') throw new RangeError('empty input'); return s.length; };\n`;
const BAD = `exports.f = (s) => ({ name: s, n: s.length + 1, tags: ['a'] });\nexports.g = (s) => { if (s === '') throw new TypeError('nothing'); return 0; };\n`;

describe('assertion styles, sealed and judged on the host', () => {
  test.each([
    [
      'jest/vitest equality of two computed sides',
      `test('x', () => { expect(f('ab').name).toEqual(f('AB').name); expect(f('ab')).toStrictEqual(f('ab')); expect(f('ab').n).toBe(g('ab')); });`
    ],
    ['.not forms', `test('x', () => { expect(f('ab').name).not.toBe('ab'); expect(f('ab').tags).not.toEqual(['a']); });`],
    [
      'toContain, toMatch, toHaveLength, toMatchObject, toBeCloseTo',
      `test('x', () => { expect(f('ab').tags).toContain('ab'); expect(f('ab').name).toMatch(/^AB$/); expect(f('ab').tags).toHaveLength(f('ab').n); expect(f('ab')).toMatchObject({ name: 'AB' }); expect(f('ab').n / 3).toBeCloseTo(0.667, 2); });`
    ],
    [
      'toBeNull/Undefined/Defined/Truthy/Falsy',
      `test('x', () => { expect(g('abc') === 3).toBeTruthy(); expect(g('abc') - 3).toBeFalsy(); expect(f('a').tags[1]).toBeDefined(); expect(f('a').tags[2] ?? null).toBeNull(); });`
    ],
    [
      'node:assert: equal, strictEqual, deepEqual, deepStrictEqual, notEqual, ok, match',
      `test('x', () => { assert.equal(f('ab').n, g('xy')); assert.strictEqual(g('abc'), 3); assert.deepEqual(f('ab').tags, ['a', 'ab']); assert.deepStrictEqual(f('ab'), { name: 'AB', n: 2, tags: ['a', 'ab'] }); assert.notEqual(f('ab').name, 'ab'); assert.ok(g('ab') > 1); assert.match(f('ab').name, /AB/); });`
    ],
    [
      "node:test's t.assert.*",
      `test('x', (t) => { t.assert.equal(g('abc'), 3); t.assert.deepStrictEqual(f('q').tags, ['a', 'q']); t.assert.ok(f('q').name === 'Q'); t.assert.notStrictEqual(f('q').name, 'q'); });`
    ],
    [
      'exceptions: toThrow(X | /re/ | text), assert.throws(fn, X | /re/ | {…})',
      `test('x', () => { expect(() => g('')).toThrow(RangeError); expect(() => g('')).toThrow(/^empty/); expect(() => g('')).toThrow('empty input'); expect(() => g('ab')).not.toThrow(); assert.throws(() => g(''), RangeError); assert.throws(() => g(''), /RangeError: empty/); assert.throws(() => g(''), { name: 'RangeError', message: /empty/ }); });`
    ],
    [
      'rejections: expect(p).rejects.toThrow, assert.rejects',
      `test('x', async () => { await expect(Promise.resolve().then(() => g(''))).rejects.toThrow(/empty/); await assert.rejects(async () => g(''), { message: 'empty input' }); });`
    ],
    [
      'a helper assertion function, sealed per call',
      `function check(input, want) { assert.deepStrictEqual(f(input).tags, want); expect(g(input)).toBe(want.length === 2 ? input.length : -1); }\ntest('x', () => { check('ab', ['a', 'ab']); check('c', ['a', 'c']); });`
    ]
  ])(
    '%s',
    async (_name, body) => {
      const { sealed, good, bad } = await judge(body, GOOD, BAD);
      expect(sealed.unsealed).toEqual([]);
      // No assertion is left in the sealed file: each became an observation.
      expect(sealed.files[0]!.source).not.toMatch(/\bexpect\(|\bassert\.\w+\(|t\.assert\./);
      expect({ good: allMatched(good), good_lines: good }).toEqual({ good: true, good_lines: good });
      // The vacuity check: the wrong implementation fails every style's host-side check somewhere.
      expect({ bad: allMatched(bad), bad_lines: bad }).toEqual({ bad: false, bad_lines: bad });
    },
    30_000
  );

  test('a site whose two sides are both the test’s own inputs is not sealed (it holds for any implementation)', () => {
    const out = seal(
      `function same(a, b) { assert.deepStrictEqual(a, b); expect(a).toEqual(b); }\nconst WANT = [1];\ntest('x', () => { same(f('a'), f('a')); expect(WANT).toContain(1); });`
    );
    expect(out.unsealed.map((u) => u.text)).toEqual(['assert.deepStrictEqual(a, b)', 'expect(a).toEqual(b)', 'expect(WANT).toContain(1)']);
  });

  test('a callback the code calls hands back what the code produced: sealed; array iteration hands back the test’s data: not', async () => {
    const body = `const lookup = (s, cb) => cb(null, f(s));\ntest('x', () => { lookup('ab', (err, res) => { t_ok(err === null); assert.deepStrictEqual(res.tags, ['a', 'ab']); }); [['a', 'a']].forEach(([x, y]) => { assert.equal(x, y); }); });\nfunction t_ok() {}`;
    const { sealed, good, bad } = await judge(body, GOOD, BAD);
    // The iterated pair is the test's own data on both sides: never a site (it would hold for any implementation).
    expect(sealed.unsealed.map((u) => u.text)).toEqual(['assert.equal(x, y)']);
    expect([allMatched(good), allMatched(bad)]).toEqual([true, false]);
  }, 30_000);

  test("a reach marker (t.assert.ok('in the handler')) is sealed as the reach, counted with the reference", async () => {
    const body = `const on = (s, cb) => { if (f(s).name === 'AB') cb(); };\ntest('x', (t) => { on('ab', () => { t.assert.ok('inside the handler'); }); });`;
    const { sealed, good, bad } = await judge(body, GOOD, BAD);
    expect(sealed.unsealed).toEqual([]);
    // The vacuity check: the wrong implementation never calls the handler, and the missing reach fails on the host.
    expect([good, bad]).toEqual([['8 matched'], ['8 missing']]);
  }, 30_000);

  test('the observer is imported first, before the code under test', () => {
    const out = seal(`test('x', () => { expect(f('a').n).toBe(g('a')); });`);
    expect(out.files[0]!.source.split('\n')[0]).toBe('const { observeBoth } = require("./patchproof-oracle.cjs"); // sealed by patchproof witness seal');
  });
});
