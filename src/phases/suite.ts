import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { RESERVED_DIR, type TestAdapter } from '../adapters/adapter.js';
import { topLevelModule } from '../core/surface.js';
import { mergeOracles, parseOracleFile, type OracleFile } from '../core/oracle.js';
import { ConfigurationError } from '../errors.js';
import { listFiles } from './workspace.js';
import type { WitnessManifest } from '../fetch/witness/manifest.js';
import type { WitnessInput } from './types.js';

/** Suite discovery and the pack's test folders: which files each phase's runs are given. */

/** The suite files of a tree: the adapter's own discovery, narrowed by the pack's include/exclude globs. */
export async function suiteFilesOf(dir: string, adapter: TestAdapter, manifest: WitnessManifest): Promise<string[]> {
  const all = await listFiles(dir);
  const include = manifest.regression.include;
  const included = include === undefined ? undefined : picomatch(include, { dot: true });
  const chosen = included === undefined ? adapter.suiteFiles(all) : all.filter((path) => included(path));
  const excluded = manifest.regression.exclude.length > 0 ? picomatch(manifest.regression.exclude, { dot: true }) : () => false;
  return chosen.filter((path) => !excluded(path) && !path.startsWith(`${RESERVED_DIR}/`));
}

/** Refuse a pack folder that holds no test file the adapter runs. */
export async function requireTests(dir: string, adapter: TestAdapter, what: string): Promise<void> {
  const files = await listFiles(dir).catch(() => [] as string[]);
  if (!files.some((f) => adapter.isTestFile(f))) {
    throw new ConfigurationError(`the witness pack's ${what} folder holds no test files the ${adapter.name} adapter runs; add tests to it`);
  }
}

/** Top-level module names of every staged test file (reproduction and hidden), for shadowing checks. */
export async function stagedModuleNames(witnessDir: string, folders: readonly string[]): Promise<string[]> {
  const names = new Set<string>();
  for (const folder of folders) {
    for (const file of await listFiles(join(witnessDir, ...folder.split('/')))) names.add(topLevelModule(file));
  }
  return [...names].sort();
}

/**
 * Read and check the pack's oracle file, with a sealed pack's hidden half (restored from hidden.age)
 * joined to it: a pack error is the author's, a ConfigurationError.
 */
export function readOracle(witness: WitnessInput): OracleFile | undefined {
  const expected = witness.manifest.oracle?.expected;
  if (expected === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(join(witness.dir, ...expected.split('/')), 'utf8');
  } catch {
    throw new ConfigurationError(`the witness pack's oracle file ${expected} cannot be read; run 'patchproof witness seal' or fix oracle.expected`);
  }
  try {
    return mergeOracles(parseOracleFile(JSON.parse(text)), witness.hiddenOracle);
  } catch (error) {
    throw new ConfigurationError(`the witness pack's oracle file ${expected} is not a patchproof.oracle/v1 document: ${(error as Error).message}`);
  }
}
