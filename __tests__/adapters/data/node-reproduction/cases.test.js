import { after, afterEach, before, beforeEach, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { divide, sleep } from '../../src/calc.js';

test('passes', () => {
  assert.equal(divide(4, 2), 2);
});

test('assertion fails', () => {
  assert.equal(divide(4, 2), 3);
});

test('code under test throws', () => {
  divide(1, 0);
});

test('test body throws', () => {
  const settings = undefined;
  return settings.precision;
});

test('skipped', { skip: 'not today' }, () => {});

test('todo', { todo: true }, () => {});

test('failing todo', { todo: 'later' }, () => {
  assert.fail('not yet');
});

test('times out', { timeout: 100 }, async () => {
  await sleep(600);
});

describe('suite', () => {
  it('inner passes', () => {});
  describe('nested', () => {
    it('deep assertion', () => {
      assert.ok(divide(1, 1) > 1, 'one is not more than one');
    });
  });
});

test('parent', async (t) => {
  await t.test('child passes', () => {});
  await t.test('child throws in code', () => {
    divide(2, 0);
  });
});

describe('before hook fails', () => {
  before(() => {
    throw new Error('database unavailable');
  });
  it('first', () => {});
  it('second', () => {});
});

describe('beforeEach hook fails', () => {
  beforeEach(() => {
    throw new Error('fixture missing');
  });
  it('guarded', () => {});
});

describe('after hook fails', () => {
  after(() => {
    throw new Error('cleanup failed');
  });
  it('ran fine', () => {});
});

describe('suite body throws', () => {
  it('never defined properly', () => {});
  throw new RangeError('bad table');
});

describe.skip('skipped suite', () => {
  it('not reported', () => {});
});

test('unhandled rejection in code', async () => {
  Promise.resolve().then(() => divide(3, 0));
  await sleep(20);
});
