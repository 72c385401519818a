import { nodeTestAdapter } from '../../src/adapters/node-test/index.js';
import { pytestAdapter } from '../../src/adapters/pytest/index.js';
import { ADAPTER_NAMES, getAdapter, isAdapterName } from '../../src/adapters/registry.js';
import { unittestAdapter } from '../../src/adapters/unittest/index.js';
import { ConfigurationError } from '../../src/errors.js';

describe('adapter registry', () => {
  it('has an adapter for every name but junit, under its own name', () => {
    expect([...ADAPTER_NAMES].sort()).toEqual(['cargo', 'go', 'jest', 'junit', 'node-test', 'pytest', 'unittest', 'vitest']);
    for (const name of ADAPTER_NAMES.filter((n) => n !== 'junit')) {
      expect(getAdapter(name).name).toBe(name);
    }
    expect(getAdapter('node-test')).toBe(nodeTestAdapter);
    expect(getAdapter('unittest')).toBe(unittestAdapter);
    expect(getAdapter('pytest')).toBe(pytestAdapter);
  });

  it('refuses junit by name: it is built from its witness pack', () => {
    expect(() => getAdapter('junit')).toThrow(ConfigurationError);
    expect(() => getAdapter('junit')).toThrow(/configured by a witness pack's junit block/);
  });

  it('refuses an unknown name, listing the accepted ones', () => {
    expect(() => getAdapter('mocha')).toThrow(ConfigurationError);
    expect(() => getAdapter('mocha')).toThrow(`unknown adapter 'mocha'; use one of: ${ADAPTER_NAMES.join(', ')}`);
    expect(isAdapterName('Node-Test')).toBe(false);
    expect(isAdapterName('toString')).toBe(false);
  });
});
