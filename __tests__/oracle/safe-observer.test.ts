import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareValue, parseObservations, type Comparator } from '../../src/core/oracle.js';
import { JS_OBSERVER_FILE, observerFiles } from '../../src/oracle/observer.js';

/**
 * The JS observer reads a value's real content without running code the candidate could have
 * defined (issue 26 item 1, issue 28 item 10): each case runs the generated observer for real in a
 * child Node process, with the hostile value built *after* the observer loaded (as candidate code
 * loads after the sealed test's first import), and the host compares the printed text.
 */

const NONCE = 'ab'.repeat(16);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pp-safe-observer-'));
  for (const [name, text] of Object.entries(observerFiles(NONCE))) await writeFile(join(dir, name), text);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Run `body` after loading the observer; return the observed values by case id. */
function observed(body: string): Record<string, unknown> {
  const script = `const { observe, observeBoth, observeThrows } = require('./${JS_OBSERVER_FILE}');\n${body}\n`;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  const parsed = parseObservations(result.stdout, NONCE);
  expect(parsed.malformed).toEqual([]);
  return Object.fromEntries(parsed.observations.map((o) => [o.case, o.value]));
}

const exact: Comparator = { kind: 'exact' };

describe('the safe JS observer', () => {
  test('plain values keep the encoding sealed literals are written in', () => {
    const v = observed(`observe('a', () => [[1, 2], { x: 'é', u: undefined }, null, -0, NaN, 10n, new Date(0), new Map([[1, 2]]), new Set(['s'])]);`);
    expect(v.a).toEqual([[1, 2], { x: 'é' }, null, 0, { $number: 'NaN' }, { $bigint: '10' }, { $date: '1970-01-01T00:00:00.000Z' }, { $map: [[1, 2]] }, { $set: ['s'] }]);
  });

  test('an array carrying asymmetricMatch is observed with that key, and never consulted', () => {
    const v = observed(`
      const lie = [[1, 2]];
      let called = false;
      Object.defineProperty(lie, 'asymmetricMatch', { value: () => { called = true; return true; } });
      observe('a', () => lie);
      if (called) throw new Error('asymmetricMatch was called');`);
    expect(v.a).toEqual({ $class: ['Array', 'Object'], fields: { asymmetricMatch: { $function: 'value' } }, items: [[1, 2]] });
    // The vacuity check: the sealed literal the lie answers to is not met.
    expect(
      compareValue(
        v.a,
        [
          [1, 2],
          [2, 3]
        ],
        exact
      )
    ).toBe(false);
  });

  test('own and patched conversion hooks (map, toJSON, iterators, JSON.stringify) are never run', () => {
    const v = observed(`
      const hooked = [[1, 2]];
      hooked.map = () => [[1, 2], [2, 3]];
      hooked.toJSON = () => [[1, 2], [2, 3]];
      Array.prototype.map = function () { return [[1, 2], [2, 3]]; };
      const m = new Map([['k', 1]]);
      m[Symbol.iterator] = function* () { yield ['k', 2]; };
      Map.prototype.forEach = function (f) { f(2, 'k'); };
      JSON.stringify = () => '"lie"';
      observe('a', () => hooked);
      observe('m', () => m);`);
    expect(v.a).toEqual({ $class: ['Array', 'Object'], fields: { map: { $function: '' }, toJSON: { $function: '' } }, items: [[1, 2]] });
    expect(v.m).toEqual({ $map: [['k', 1]] });
  });

  test('a getter is unobservable and not run; a Proxy is unobservable and its traps not run', () => {
    const v = observed(`
      let ran = 0;
      const g = { get value() { ran += 1; return 3; } };
      const p = new Proxy({ a: 1 }, { ownKeys() { ran += 1; return []; }, get() { ran += 1; return 1; } });
      observe('g', () => g);
      observe('p', () => [p]);
      if (ran !== 0) throw new Error('candidate code ran ' + ran + ' times');`);
    expect(v.g).toEqual({ $unobservable: 'accessor value' });
    expect(v.p).toEqual([{ $unobservable: 'proxy' }]);
    expect(compareValue(v.g, { value: 3 }, exact)).toBe(false);
  });

  test('the exact prototype chain is part of the observation; a lying subclass is not a plain value', () => {
    const v = observed(`
      class Money extends Number { valueOf() { return 512; } }
      class Point { constructor() { this.x = 1; } }
      observe('n', () => new Money(64));
      observe('p', () => new Point());
      observe('o', () => Object.assign(Object.create(null), { x: 1 }));`);
    expect(v.n).toEqual({ $class: ['Money', 'Number', 'Object'], fields: {} });
    expect(v.p).toEqual({ $class: ['Point', 'Object'], fields: { x: 1 } });
    expect(v.o).toEqual({ x: 1 });
  });

  test('a thrown error: its class chain, and its message read as an own data property', () => {
    const v = observed(`
      class E extends TypeError { get message() { return 'lie'; } }
      observeThrows('t', () => { throw new RangeError('bad size'); });
      observeThrows('g', () => { const e = new E('x'); throw e; });
      observeThrows('r', () => 3);`);
    expect(v.t).toMatchObject({ $raised: 'RangeError', chain: ['RangeError', 'Error', 'Object'], message: 'bad size', name: 'RangeError' });
    // An own 'message' data property set by the constructor is read; the class's getter is not run.
    expect(v.g).toMatchObject({ $raised: 'E', chain: ['E', 'TypeError', 'Error', 'Object'], message: 'x' });
    expect(v.r).toEqual({ $returned: 3 });
  });

  test('both sides observed, with the identity the observer saw', () => {
    const v = observed(`
      const o = { a: 1 };
      observeBoth('s', () => o, () => o);
      observeBoth('d', () => ({ a: 1 }), () => ({ a: 1 }));`);
    expect(v.s).toEqual({ actual: { a: 1 }, expected: { a: 1 }, same: true });
    expect(v.d).toEqual({ actual: { a: 1 }, expected: { a: 1 }, same: false });
    const same: Comparator = { kind: 'predicate', predicate: 'same', observed: 'both' };
    const equal: Comparator = { kind: 'predicate', predicate: 'equal', observed: 'both' };
    expect([compareValue(v.s, null, same), compareValue(v.d, null, same), compareValue(v.d, null, equal)]).toEqual([true, false, true]);
  });
});
