import { canaryNames, canaryRunOrder, checkCanaryPlan, takeCanaries } from '../../src/adapters/shared/canary.js';
import { ConfigurationError } from '../../src/errors.js';

const plan = { nonce: '00112233445566778899aabbccddeeff' };

describe('canary names', () => {
  it('cuts two names from different parts of the nonce', () => {
    expect(canaryNames(plan)).toEqual({ pass: 'c0011223344556677', fail: 'c8899aabbccddeeff' });
  });

  it('runs them in an order the nonce decides', () => {
    expect(canaryRunOrder({ nonce: `${plan.nonce}0` })).toEqual(['c0011223344556677', 'c8899aabbccddeeff']);
    expect(canaryRunOrder({ nonce: `${plan.nonce}1` })).toEqual(['c8899aabbccddeeff', 'c0011223344556677']);
  });

  it('refuses a nonce that is short, not lowercase hex, or gives both canaries one name', () => {
    for (const nonce of ['', 'abc', plan.nonce.toUpperCase(), `${plan.nonce.slice(1)}g`, 'ab'.repeat(8).repeat(2)]) {
      expect(() => checkCanaryPlan({ nonce })).toThrow(ConfigurationError);
    }
    expect(() => canaryNames({ nonce: 'xyz' })).toThrow("Invalid canary nonce 'xyz'. Expected at least 32 lowercase hex digits");
  });
});

describe('takeCanaries', () => {
  const ids = { pass: 'entry > a', fail: 'entry > b' };

  it('takes the canaries out of the tests and reports their statuses', () => {
    const result = takeCanaries(
      [
        { id: 't > x', status: 'passed' },
        { id: 'entry > b', status: 'failed', failure_kind: 'assertion' },
        { id: 'entry > a', status: 'passed' }
      ],
      ids
    );
    expect(result).toEqual({ tests: [{ id: 't > x', status: 'passed' }], canary: { pass: 'passed', fail: 'failed' } });
  });

  it("says 'missing' for a canary that is absent", () => {
    expect(takeCanaries([{ id: 'entry > b', status: 'passed' }], ids).canary).toEqual({ pass: 'missing', fail: 'passed' });
    expect(takeCanaries([], ids)).toEqual({ tests: [], canary: { pass: 'missing', fail: 'missing' } });
  });
});
