import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { candidateJob, decide } from '../../src/formal/gate.js';
import { locateZ3, solve, solveBatch } from '../../src/formal/solver.js';
import { ROOT } from '../helpers/cli.js';
import { ints, target } from './formal-support.js';
import { translate } from '../../src/formal/translate.js';

/**
 * Z3 in its child process, for real: answers, the hard time limit and the resident-size watchdog.
 * Whatever stops the child, the gate's status is unknown, never proved.
 */

const abs = target({ params: ints('x'), ensures: ['result >= 0'] });

describe('the solver child', () => {
  test('answers sat with the values, and unsat', async () => {
    const result = await solve(
      {
        prelude: '(declare-const x Int)',
        queries: [
          { id: 'a', asserts: ['(> x 41)', '(< x 43)'], values: ['x'] },
          { id: 'b', asserts: ['(> x x)'], values: ['x'] }
        ]
      },
      { timeoutMs: 60_000, memoryMb: 512 }
    );
    expect(result.stopped).toBeUndefined();
    expect(result.version).toMatch(/^Z3 \d+\.\d+/);
    expect(result.answers.map((a) => a.status)).toEqual(['sat', 'unsat']);
    expect(result.answers[0]!.values).toContain('(x 42)');
  }, 90_000);

  test('a candidate proved through the child carries the solver version in its scope', async () => {
    const formula = translate(abs, { text: 'function f(x) { return Math.abs(x); }', file: 'f.js' });
    const result = await solve(candidateJob(formula), { timeoutMs: 60_000, memoryMb: 512 });
    expect(decide(formula, result)).toEqual({ status: 'proved' });
  }, 90_000);

  test('a batch answers each job in a scope of its own: the same names in two jobs do not meet', async () => {
    const result = await solveBatch(
      [
        { prelude: '(declare-const x Int)(define-fun big () Bool (> x 41))', queries: [{ id: 'a', asserts: ['big', '(< x 43)'], values: ['x'] }] },
        { prelude: '(declare-const x Bool)(define-fun big () Bool (and x (not x)))', queries: [{ id: 'a', asserts: ['big'], values: [] }] }
      ],
      { timeoutMs: 60_000, memoryMb: 512 }
    );
    expect(result.stopped).toBeUndefined();
    expect(result.batches.map((b) => b.map((a) => a.status))).toEqual([['sat'], ['unsat']]);
    expect(result.batches[0]![0]!.values).toContain('(x 42)');
  }, 90_000);

  test('a malformed job stops the whole batch: no job is answered', async () => {
    const result = await solveBatch(
      [
        { prelude: '(declare-const x Int)', queries: [{ id: 'a', asserts: ['(> x 1)'], values: [] }] },
        { prelude: '(declare-const y Int)', queries: [{ id: 'b', asserts: ['(> x 1)'], values: [] }] }
      ],
      { timeoutMs: 60_000, memoryMb: 512 }
    );
    expect(result.stopped).toMatch(/malformed/);
    expect(result.batches).toEqual([]);
  }, 90_000);

  test('the wall-clock limit kills the child: unknown, never proved', async () => {
    // Factoring a 64-bit semiprime by nonlinear integer arithmetic: far beyond a second.
    const job = {
      prelude: '(declare-const p Int)(declare-const q Int)',
      queries: [{ id: 'counterexample', asserts: ['(> p 1)', '(> q 1)', '(= (* p q) 18446744030759878681)'], values: ['p'] }]
    };
    const result = await solve(job, { timeoutMs: 1500, memoryMb: 512 });
    const answered = result.answers[0]?.status;
    // Either Z3's own timeout answered unknown first, or the wall clock killed the child.
    expect(result.stopped !== undefined || answered === 'unknown').toBe(true);
    if (result.stopped !== undefined) expect(result.stopped).toMatch(/ran out of time/);
    const formula = translate(abs, { text: 'function f(x) { return Math.abs(x); }', file: 'f.js' });
    expect(decide(formula, { ...result, answers: result.answers.map((a) => ({ ...a, id: 'counterexample' })) }).status).toBe('unknown');
  }, 90_000);

  test('the resident-size watchdog kills the child (a bound below what the WASM runtime needs)', async () => {
    const result = await solve(
      { prelude: '(declare-const x Int)', queries: [{ id: 'a', asserts: ['(> x 1)'], values: [] }] },
      { timeoutMs: 60_000, memoryMb: 512, rssLimitBytes: 40 * 1024 * 1024 }
    );
    expect(result.stopped).toMatch(/resident size \d+ MB passed 40 MB/);
    expect(result.answers).toEqual([]);
  }, 90_000);

  test('a malformed formula is no answer (the gate says unknown)', async () => {
    const result = await solve({ prelude: '(declare-const x Int)', queries: [{ id: 'counterexample', asserts: ['(> y 1)'], values: [] }] }, { timeoutMs: 60_000, memoryMb: 512 });
    expect(result.stopped).toMatch(/exited with 1 without an answer.*malformed/);
  }, 90_000);

  test('the bundle layout: dist/z3 (brotli wasm) answers like the package', async () => {
    const dist = join(ROOT, 'dist', 'z3');
    if (!existsSync(join(dist, 'z3-built.wasm.br'))) {
      console.warn('dist/z3 is not built (npm run build makes it): the bundle layout is not tested here');
      return;
    }
    expect(locateZ3()).toContain('node_modules');
    const result = await solve(
      { prelude: '(declare-const x Int)', queries: [{ id: 'a', asserts: ['(= (* x 3) 21)'], values: ['x'] }] },
      { timeoutMs: 60_000, memoryMb: 512 },
      dist
    );
    expect(result.answers[0]).toMatchObject({ status: 'sat', values: expect.stringContaining('(x 7)') });
  }, 90_000);
});
