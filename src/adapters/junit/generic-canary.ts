import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigurationError } from '../../errors.js';
import { listFiles } from '../../phases/workspace.js';
import type { JunitConfig } from './config.js';

/**
 * Reads the junit pack's canary folder (inside a verified, unpacked pack) into memory: path
 * relative to the folder → UTF-8 text, for `junitAdapter` to stage in every copy.
 */
export async function readJunitCanaryFiles(packDir: string, config: JunitConfig): Promise<Record<string, string>> {
  const dir = join(packDir, ...config.canary.path.split('/'));
  let files: string[];
  try {
    files = await listFiles(dir);
  } catch {
    files = [];
  }
  if (files.length === 0) {
    throw new ConfigurationError(`the witness pack has no files in junit.canary.path '${config.canary.path}'; add the pack's must-pass and must-fail canary tests there`);
  }
  const out: Record<string, string> = {};
  for (const file of files) {
    out[file] = await readFile(join(dir, ...file.split('/')), 'utf8');
  }
  return out;
}
