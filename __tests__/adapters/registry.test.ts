import { nodeTestAdapter } from '../../src/adapters/node-test.js';
import { pytestAdapter } from '../../src/adapters/pytest.js';
import { ADAPTER_NAMES, getAdapter, isAdapterName } from '../../src/adapters/registry.js';
import { unittestAdapter } from '../../src/adapters/unittest.js';
import { ConfigurationError } from '../../src/errors.js';

describe('adapter registry', () => {
  it('has an adapter for every name, under its own name', () => {
    expect(ADAPTER_NAMES).toEqual(['node-test', 'pytest', 'unittest']);
    for (const name of ADAPTER_NAMES) {
      expect(getAdapter(name).name).toBe(name);
    }
    expect(getAdapter('node-test')).toBe(nodeTestAdapter);
    expect(getAdapter('unittest')).toBe(unittestAdapter);
    expect(getAdapter('pytest')).toBe(pytestAdapter);
  });

  it('refuses an unknown name, listing the accepted ones', () => {
    expect(() => getAdapter('mocha')).toThrow(ConfigurationError);
    expect(() => getAdapter('mocha')).toThrow("unknown adapter 'mocha'; use one of: node-test, pytest, unittest");
    expect(isAdapterName('Node-Test')).toBe(false);
    expect(isAdapterName('toString')).toBe(false);
  });
});
