import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { digestWitnessFolder } from './digest.js';
import type { AdapterName } from '../../adapters/registry.js';
import type { Digest } from '../../core/hashing.js';
import { parseWitnessManifest, WITNESS_MANIFEST_FILE, type WitnessManifest } from './manifest.js';
import { initWitness } from './scaffold.js';
import { createScratch } from '../../phases/workspace.js';
import { ConfigurationError } from '../../errors.js';

/** A pack built on the fly from two folders of tests (the CLI's `--reproduction/--hidden` shortcut). */
export interface FolderWitness {
  dir: string;
  digest: Digest;
  manifest: WitnessManifest;
  source: { kind: 'folders'; location: string };
  dispose(): Promise<void>;
}

/**
 * Build a pack with the default manifest from a reproduction and a hidden folder, so the shortcut
 * runs exactly the same code as a real pack and its receipt binds the same kind of digest.
 */
export async function witnessFromFolders(reproduction: string, hidden: string, adapter: AdapterName): Promise<FolderWitness> {
  if (adapter === 'junit') {
    // The generic adapter's command and canaries cannot be defaulted: they are the pack author's.
    throw new ConfigurationError(
      '--adapter junit needs a witness pack: its test command and canary tests cannot be defaulted. Scaffold one with `patchproof witness init DIR --adapter junit --reproduction DIR --hidden DIR`, fill in its junit block and canary/ (see canary/README.md), and give it with --witness DIR --witness-digest'
    );
  }
  const scratch = await createScratch('patchproof-pack-');
  const dir = join(scratch.root, 'pack');
  try {
    let digest = await initWitness(dir, { adapter, reproduction, hidden });
    if (await adoptOracle(dir, reproduction, hidden)) digest = (await digestWitnessFolder(dir)).digest;
    const manifest = parseWitnessManifest(JSON.parse(await readFile(join(dir, WITNESS_MANIFEST_FILE), 'utf8')), WITNESS_MANIFEST_FILE);
    return {
      dir,
      digest,
      manifest,
      source: { kind: 'folders', location: `reproduction=${reproduction} hidden=${hidden}` },
      dispose: () => scratch.dispose()
    };
  } catch (error) {
    await scratch.dispose();
    throw error;
  }
}

/**
 * Folders that are the reproduction and hidden folders of one sealed pack (siblings beside its
 * witness.json, named as its manifest names them) bring that pack's oracle file along: their tests
 * are sealed and cannot be graded without it. The built pack's digest then covers the oracle too.
 */
async function adoptOracle(dir: string, reproduction: string, hidden: string): Promise<boolean> {
  const parent = dirname(resolve(reproduction));
  if (dirname(resolve(hidden)) !== parent) return false;
  const manifestPath = join(parent, WITNESS_MANIFEST_FILE);
  if (!existsSync(manifestPath)) return false;
  let source: WitnessManifest;
  try {
    source = parseWitnessManifest(JSON.parse(await readFile(manifestPath, 'utf8')), manifestPath);
  } catch {
    return false;
  }
  const expected = source.oracle?.expected;
  if (expected === undefined || source.reproduction.path !== basename(resolve(reproduction)) || source.hidden.path !== basename(resolve(hidden))) return false;
  const target = join(dir, ...expected.split('/'));
  await mkdir(dirname(target), { recursive: true });
  await cp(join(parent, ...expected.split('/')), target);
  const built = JSON.parse(await readFile(join(dir, WITNESS_MANIFEST_FILE), 'utf8')) as Record<string, unknown>;
  await writeFile(join(dir, WITNESS_MANIFEST_FILE), `${JSON.stringify({ ...built, oracle: { expected } }, null, 2)}\n`);
  return true;
}
