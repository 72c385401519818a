import { describe, expect, test } from '@jest/globals';
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOracleFile } from '../../src/core/oracle.js';
import { sealPack, unsealPack } from '../../src/oracle/seal.js';

/**
 * The seal's rule against observing the test's own inputs (issue 28) leaves the committed packs
 * sealed by `witness seal` as they are: re-sealed from their originals, their sealed tests are byte
 * for byte the committed ones, and nothing more is listed as unsealed.
 */
const SEALED_BY_SEAL = ['js-duration', 'py-calculator', 'jest-money', 'vitest-chunk', 'vitest30-chunk'];

async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out.set(path.slice(dir.length + 1), await readFile(path, 'utf8'));
    }
  }
  return out;
}

describe('re-sealing the committed packs', () => {
  test.each(SEALED_BY_SEAL)('%s reseals to its committed tests', async (name) => {
    const committed = join('witness-packs', name);
    const dir = await mkdtemp(join(tmpdir(), 'reseal-'));
    try {
      await cp(committed, dir, { recursive: true });
      await unsealPack(dir);
      const report = await sealPack(dir);
      for (const phase of ['reproduction', 'hidden']) expect(await files(join(dir, phase))).toEqual(await files(join(committed, phase)));
      const oracle = parseOracleFile(JSON.parse(await readFile(join(committed, 'oracle', 'expected.json'), 'utf8')));
      expect(report.unsealed).toEqual(oracle.unsealed);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
