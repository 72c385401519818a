import { ConfigurationError } from '../errors.js';
import type { TestAdapter } from './adapter.js';
import { cargoAdapter } from './cargo/index.js';
import { goAdapter } from './go/index.js';
import { jestAdapter } from './jest/index.js';
import type { JunitConfig } from './junit/config.js';
import { readJunitCanaryFiles } from './junit/generic-canary.js';
import { junitAdapter } from './junit/index.js';
import { nodeTestAdapter } from './node-test/index.js';
import { pytestAdapter } from './pytest/index.js';
import { unittestAdapter } from './unittest/index.js';
import { vitestAdapter } from './vitest/index.js';

/** What a witness pack holds that an adapter made from the pack needs (junit). */
export interface PackAdapterSource {
  junit?: JunitConfig | undefined;
}

/** One line of the registry: one adapter folder (src/adapters/<name>/). */
export interface RegistryEntry<Name extends string> {
  /** The adapter, or how it is made from a verified, unpacked witness pack (junit). */
  readonly adapter: TestAdapter<Name> | { fromPack(source: PackAdapterSource, packDir: string): Promise<TestAdapter<Name>> };
  /** Which rewriter `witness seal` uses for the pack's tests; `generic`: the pack prints observations itself. */
  readonly sealing: 'js' | 'python' | 'generic';
  /** What a test id looks like, for `witness init`'s instructions. */
  readonly idShape: string;
}

/** Checks that every key names its own adapter (a typo in either place fails to compile). */
function table<const T extends { [Name in keyof T & string]: RegistryEntry<Name> }>(entries: T): T {
  return entries;
}

/**
 * The adapters PatchProof knows, one line each: the only list of adapter names (AdapterName and
 * ADAPTER_NAMES are derived from it; the order is the order of help texts and error messages).
 * A new adapter is one folder under src/adapters/ and one line here; the compiler then points at
 * what must follow (e.g. an exhaustive switch over AdapterName), and
 * __tests__/adapters/contract.test.ts at its README and tests.
 */
const REGISTRY = table({
  'node-test': { adapter: nodeTestAdapter, sealing: 'js', idShape: "the test's name as node:test reports it" },
  pytest: { adapter: pytestAdapter, sealing: 'python', idShape: '".patchproof/hidden/test_x.py::TestClass::test_name" (pytest node ids, parameters in brackets)' },
  unittest: { adapter: unittestAdapter, sealing: 'python', idShape: '"test_x.TestClass.test_name" (unittest ids)' },
  junit: {
    adapter: {
      async fromPack(source: PackAdapterSource, packDir: string): Promise<TestAdapter<'junit'>> {
        if (source.junit === undefined) {
          throw new ConfigurationError('the witness pack uses the junit adapter without a junit block; add one to witness.json');
        }
        return junitAdapter(source.junit, await readJunitCanaryFiles(packDir, source.junit));
      }
    },
    sealing: 'generic',
    idShape: "the JUnit report's classname and name"
  },
  cargo: { adapter: cargoAdapter, sealing: 'generic', idShape: '".patchproof/hidden/x.rs::test_name"' },
  go: { adapter: goAdapter, sealing: 'generic', idShape: '"TestName" or "TestName/subtest"' },
  jest: { adapter: jestAdapter, sealing: 'js', idShape: '".patchproof/hidden/x.test.js > describe title > test title"' },
  vitest: { adapter: vitestAdapter, sealing: 'js', idShape: '".patchproof/hidden/x.test.ts > describe title > test title"' }
});

/** The name of an adapter: a key of the registry. */
export type AdapterName = keyof typeof REGISTRY;

/** Every adapter name, in the registry's order. */
export const ADAPTER_NAMES = Object.keys(REGISTRY) as [AdapterName, ...AdapterName[]];

/** A registered adapter. */
export type RegisteredAdapter = TestAdapter<AdapterName>;

/** True when `name` is one of ADAPTER_NAMES. */
export function isAdapterName(name: string): name is AdapterName {
  return Object.prototype.hasOwnProperty.call(REGISTRY, name);
}

/** The registry's line for an adapter (its sealing and id shape). */
export function registryEntry(name: AdapterName): RegistryEntry<AdapterName> {
  return REGISTRY[name];
}

/**
 * The adapter called `name`; a ConfigurationError names the accepted ones otherwise. An adapter
 * made from its witness pack (`junit`) is refused here: use `witnessAdapter`.
 */
export function getAdapter(name: string): RegisteredAdapter {
  if (!isAdapterName(name)) {
    throw new ConfigurationError(`unknown adapter '${name}'; use one of: ${ADAPTER_NAMES.join(', ')}`);
  }
  const { adapter } = REGISTRY[name];
  if ('fromPack' in adapter) {
    throw new ConfigurationError(`the ${name} adapter is configured by a witness pack's ${name} block; give a witness pack (--witness) whose witness.json has one`);
  }
  return adapter;
}

/**
 * The adapter a witness pack names, built from the pack where it needs to be: `junit` from the
 * manifest's `junit` block and the canary tests in the unpacked, verified pack at `packDir`.
 */
export async function witnessAdapter(manifest: { adapter: AdapterName } & PackAdapterSource, packDir: string): Promise<RegisteredAdapter> {
  const { adapter } = REGISTRY[manifest.adapter];
  return 'fromPack' in adapter ? adapter.fromPack(manifest, packDir) : adapter;
}
