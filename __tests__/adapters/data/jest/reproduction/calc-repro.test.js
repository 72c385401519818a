// An external test, staged at .patchproof/reproduction/ in the copy.
const { divide, mean } = require('../../src/calc');

describe('reproduction', () => {
  test('the mean of nothing is zero', () => {
    expect(mean([])).toBe(0);
  });

  test('dividing by zero gives infinity', () => {
    expect(divide(1, 0)).toBe(Infinity);
  });

  test('a broken test', () => {
    JSON.parse('{');
  });
});
