import { ConfigurationError } from '../errors.js';
import { ADAPTER_NAMES } from './adapter.js';
import type { AdapterName, TestAdapter } from './adapter.js';
import { nodeTestAdapter } from './node-test.js';
import { pytestAdapter } from './pytest.js';
import { unittestAdapter } from './unittest.js';

export { ADAPTER_NAMES } from './adapter.js';
export type { AdapterName } from './adapter.js';

const ADAPTERS: Readonly<Record<AdapterName, TestAdapter>> = {
  'node-test': nodeTestAdapter,
  pytest: pytestAdapter,
  unittest: unittestAdapter
};

/** True when `name` is one of ADAPTER_NAMES. */
export function isAdapterName(name: string): name is AdapterName {
  return (ADAPTER_NAMES as readonly string[]).includes(name);
}

/** The adapter called `name`; a ConfigurationError names the accepted ones otherwise. */
export function getAdapter(name: string): TestAdapter {
  if (!isAdapterName(name)) {
    throw new ConfigurationError(`unknown adapter '${name}'; use one of: ${ADAPTER_NAMES.join(', ')}`);
  }
  return ADAPTERS[name];
}
