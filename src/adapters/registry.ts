import { ConfigurationError } from '../errors.js';
import { ADAPTER_NAMES } from './adapter.js';
import type { AdapterName, TestAdapter } from './adapter.js';
import { cargoAdapter } from './cargo/index.js';
import { goAdapter } from './go/index.js';
import { jestAdapter } from './jest/index.js';
import { junitAdapter } from './junit/index.js';
import { readJunitCanaryFiles } from './junit/generic-canary.js';
import type { JunitConfig } from './junit/config.js';
import { nodeTestAdapter } from './node-test/index.js';
import { pytestAdapter } from './pytest/index.js';
import { unittestAdapter } from './unittest/index.js';
import { vitestAdapter } from './vitest/index.js';

export { ADAPTER_NAMES } from './adapter.js';
export type { AdapterName } from './adapter.js';

const ADAPTERS: Readonly<Record<Exclude<AdapterName, 'junit'>, TestAdapter>> = {
  'node-test': nodeTestAdapter,
  pytest: pytestAdapter,
  unittest: unittestAdapter,
  cargo: cargoAdapter,
  go: goAdapter,
  jest: jestAdapter,
  vitest: vitestAdapter
};

/** True when `name` is one of ADAPTER_NAMES. */
export function isAdapterName(name: string): name is AdapterName {
  return (ADAPTER_NAMES as readonly string[]).includes(name);
}

/**
 * The adapter called `name`; a ConfigurationError names the accepted ones otherwise. The `junit`
 * adapter is made from its witness pack (`witnessAdapter`), so it is refused here.
 */
export function getAdapter(name: string): TestAdapter {
  if (!isAdapterName(name)) {
    throw new ConfigurationError(`unknown adapter '${name}'; use one of: ${ADAPTER_NAMES.join(', ')}`);
  }
  if (name === 'junit') {
    throw new ConfigurationError("the junit adapter is configured by a witness pack's junit block; give a witness pack (--witness) whose witness.json has one");
  }
  return ADAPTERS[name];
}

/**
 * The adapter a witness pack names, built from the pack where it needs to be: `junit` from the
 * manifest's `junit` block and the canary tests in the unpacked, verified pack at `packDir`.
 */
export async function witnessAdapter(manifest: { adapter: AdapterName; junit?: JunitConfig | undefined }, packDir: string): Promise<TestAdapter> {
  if (manifest.adapter !== 'junit') {
    return getAdapter(manifest.adapter);
  }
  if (manifest.junit === undefined) {
    throw new ConfigurationError('the witness pack uses the junit adapter without a junit block; add one to witness.json');
  }
  return junitAdapter(manifest.junit, await readJunitCanaryFiles(packDir, manifest.junit));
}
