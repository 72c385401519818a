import assert from 'node:assert';
import { afterAll, beforeAll, beforeEach, describe, expect, it, test } from 'vitest';
import { divide, mean } from '../src/calc.js';

describe('calc', () => {
  test('passes', () => {
    expect(divide(6, 3)).toBe(2);
  });

  test('assertion', () => {
    expect(mean([1, 2])).toBe(3);
  });

  test('code raises', () => {
    expect(divide(1, 0)).toBe(Infinity);
  });

  test('test raises', () => {
    const values = undefined;
    expect(values.length).toBe(0);
  });

  test.skip('skipped', () => {
    expect(true).toBe(false);
  });

  test.todo('todo');

  test.fails('expected failure', () => {
    expect(1).toBe(2);
  });

  test.fails('unexpected success', () => {
    expect(1).toBe(1);
  });

  test.skipIf(true)('skipped if', () => {
    expect(1).toBe(2);
  });

  test.each([[4, 2, 2], [9, 3, 3]])('divides %i by %i', (a, b, expected) => {
    expect(divide(a, b)).toBe(expected);
  });

  describe('nested', () => {
    it('node assert', () => {
      assert.strictEqual(mean([2]), 3);
    });
  });
});

describe('hook before all', () => {
  beforeAll(() => {
    throw new Error('no fixture directory');
  });

  test('never runs', () => {
    expect(1).toBe(1);
  });
});

describe('hook before each', () => {
  beforeEach(() => {
    divide(1, 0);
  });

  test('never runs either', () => {
    expect(1).toBe(1);
  });
});

describe('configuration', () => {
  test('the repository setup file ran', () => {
    expect(globalThis.sampleSetupRan).toBe(true);
  });
});

describe('hook after all', () => {
  afterAll(() => {
    throw new Error('teardown broke');
  });

  test('runs before the teardown', () => {
    expect(1).toBe(1);
  });
});
