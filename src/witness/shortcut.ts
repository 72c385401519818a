import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdapterName } from '../adapters/adapter.js';
import type { Digest } from '../core/hashing.js';
import { parseWitnessManifest, WITNESS_MANIFEST_FILE, type WitnessManifest } from './manifest.js';
import { initWitness } from './scaffold.js';
import { createScratch } from '../io/workspace.js';

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
  const scratch = await createScratch('patchproof-pack-');
  const dir = join(scratch.root, 'pack');
  try {
    const digest = await initWitness(dir, { adapter, reproduction, hidden });
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
