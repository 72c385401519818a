const { divide, mean } = require('../src/calc');

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

  test.failing('expected failure', () => {
    expect(1).toBe(2);
  });

  test.failing('unexpected success', () => {
    expect(1).toBe(1);
  });

  test.each([[4, 2, 2], [9, 3, 3]])('divides %i by %i', (a, b, expected) => {
    expect(divide(a, b)).toBe(expected);
  });

  describe('nested', () => {
    it('node assert', () => {
      require('node:assert').strictEqual(mean([2]), 3);
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
