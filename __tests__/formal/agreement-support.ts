import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import fc from 'fast-check';
import { applyFileChanges } from '../../src/core/patch-apply.js';
import { checkDiff } from '../../src/core/diff-policy.js';
import { int, parseValues } from '../../src/formal/smt.js';
import type { FormalTarget } from '../../src/formal/spec.js';
import type { Formula } from '../../src/formal/symbolic.js';
import { ROOT } from '../helpers/cli.js';
import { IN_PROCESS } from './formal-support.js';
import { solveInProcess } from './z3-in-process.js';

/**
 * What the agreement property tests of both front ends share (agreement.property.test.ts for JS,
 * agreement-python.property.test.ts for Python): fixtures, inputs, the source of a fixture's
 * candidate, and the check that the formula with the inputs fixed has exactly the result real
 * execution gave and which of its obligations fail.
 */

export type Input = number | boolean | number[];

export interface Fixture {
  name: string;
  source: string;
  spec: FormalTarget;
  inputs: fc.Arbitrary<Input[]>;
}

export const small = fc.integer({ min: -1000, max: 1000 });
export const arr = (max: number) => fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: max });
/** page_count/pageCount's inputs: both sides of zero, for the guard and the division. */
export const pagesInputs = fc.tuple(fc.integer({ min: -50, max: 10_000 }), fc.integer({ min: -3, max: 120 }));

/** A fixture repository's file, at base or with one of its candidates applied. */
export function fixtureSource(fixture: string, file: string, candidate?: string): string {
  const base = readFileSync(join(ROOT, 'fixtures', fixture, 'repo', ...file.split('/')));
  if (candidate === undefined) return base.toString('utf8');
  const changes = checkDiff(readFileSync(join(ROOT, 'fixtures', fixture, 'candidates', `${candidate}.diff`), 'utf8'), { maxBytes: 1 << 20, maxFiles: 10 });
  return applyFileChanges(() => base, changes)
    .get(file)!
    .toString('utf8');
}

/** Fix the inputs: equalities on the parameters' SMT constants. */
export function pin(params: Formula['params'], inputs: Input[]): string[] {
  return params.flatMap((param, index) => {
    const value = inputs[index]!;
    if (param.type === 'int[]') {
      const list = value as number[];
      const [len, ...elems] = param.symbols;
      return [`(= ${len} ${list.length})`, ...list.map((v, i) => `(= ${elems[i]} ${int(v)})`)];
    }
    return [`(= ${param.symbols[0]} ${param.type === 'bool' ? String(value) : int(value as number)})`];
  });
}

/**
 * The formula with `inputs` fixed, against what real execution gave: `expected` a value (then it is
 * the formula's one result, and no obligation fails), or undefined (the code raised: then the
 * obligations that fail are returned for the caller to judge).
 */
export async function agreeOn(formula: Formula, spec: FormalTarget, inputs: Input[], expected: number | boolean | undefined): Promise<Formula['obligations']> {
  const obligations = formula.obligations.filter((o) => o.kind !== 'spec');
  const pinned = pin(formula.params, inputs);
  const queries = [{ id: 'value', asserts: [formula.domain, ...pinned], values: [formula.result, ...obligations.map((o) => o.name)] }];
  if (expected !== undefined) {
    // Exactly one result: no other value is consistent with the inputs.
    queries.push({
      id: 'unique',
      asserts: [formula.domain, ...pinned, `(not (= ${formula.result} ${typeof expected === 'boolean' ? String(expected) : int(expected)}))`],
      values: []
    });
  }
  const answer = await solveInProcess({ prelude: formula.prelude, queries }, IN_PROCESS.limits(spec));
  expect(answer.answers.map((a) => a.status)).toEqual(expected === undefined ? ['sat'] : ['sat', 'unsat']);
  const values = parseValues(answer.answers[0]!.values ?? '');
  const broken = obligations.filter((o) => values.get(o.name) === false);
  if (expected !== undefined) {
    const result = values.get(formula.result);
    expect([inputs, typeof result === 'bigint' ? Number(result) : result]).toEqual([inputs, expected]);
    // Our fixtures stay inside the model on these inputs: every obligation holds.
    expect([inputs, broken.map((o) => o.what)]).toEqual([inputs, []]);
  }
  return broken;
}
