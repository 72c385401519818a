import { chmod, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { baselineCacheKey, openBaselineCache, type BaselineKeyFields } from '../../src/phases/baseline-cache.js';
import { digestHex, sha256Hex, type Digest } from '../../src/core/hashing.js';
import type { RunOutput, SharedBaseline } from '../../src/phases/validate.js';

/**
 * The baseline cache's store, with real files: what is a hit, what is a miss (damaged, re-written
 * without re-hashing, an object moved under another key), what is refused (a folder another user
 * could write, a symbolic link), and what is never kept (runs the infrastructure spoiled).
 */

const D = (c: string): Digest => `sha256:${c.repeat(64)}`;
const FIELDS: BaselineKeyFields = {
  tool_version: '0.0.0-test',
  base_snapshot: D('a'),
  witness_digest: D('b'),
  adapter: 'jest',
  runner: { kind: 'docker', isolated: true, image: 'sha256:x', image_id: D('c'), settings: ['network=none'] },
  limits: { timeout_ms: 60_000, output_limit_bytes: 1_000_000 }
};

function output(label: 'reproduction_before' | 'regression_before', exitCode: number, extra: Partial<RunOutput['evidence']> = {}): RunOutput {
  return {
    evidence: { label, attempt: 1, exitCode, timedOut: false, outputTruncated: false, ...extra },
    record: {
      label,
      attempt: 1,
      argv: ['node', 'x'],
      exit_code: exitCode,
      signal: null,
      timed_out: false,
      output_truncated: false,
      output_bytes: 3,
      output_sha256: 'd'.repeat(64),
      duration_ms: 5,
      problems: [],
      canary: { nonce: '0'.repeat(32), pass: 'passed', fail: 'failed' }
    },
    excerpt: 'AssertionError: expected 1'
  };
}
const BASELINE: SharedBaseline = {
  baseSnapshot: FIELDS.base_snapshot,
  witnessDigest: FIELDS.witness_digest,
  outputs: [output('reproduction_before', 1), output('regression_before', 0)]
};
const WRITER_DIGEST = D('e');

let dir: string;
beforeEach(async () => {
  dir = join(await tempDir('baseline-cache'), 'cache');
});

async function objectFile(): Promise<string> {
  const [name] = await readdir(join(dir, 'objects'));
  return join(dir, 'objects', name as string);
}

test('an entry written is read back whole, by its key only', async () => {
  const cache = await openBaselineCache(dir);
  expect((await cache.read(FIELDS)).miss).toBe('no entry');
  const entry = await cache.write(FIELDS, WRITER_DIGEST, BASELINE);
  expect(entry).toMatch(/^sha256:[0-9a-f]{64}$/);
  // Content-addressed: the object's name is the SHA-256 of its bytes.
  expect(`sha256:${sha256Hex(await readFile(await objectFile()))}`).toBe(entry);
  const { hit } = await (await openBaselineCache(dir)).read(FIELDS);
  expect(hit?.entry).toBe(entry);
  expect(hit?.baselineDigest).toBe(WRITER_DIGEST);
  expect(hit?.baseline.outputs).toEqual(BASELINE.outputs);
  // Any other image, base, limit or tool version is another key.
  for (const other of [
    { ...FIELDS, runner: { ...FIELDS.runner, image_id: D('f') } },
    { ...FIELDS, base_snapshot: D('1') },
    { ...FIELDS, tool_version: '0.0.1' },
    { ...FIELDS, limits: { ...FIELDS.limits, timeout_ms: 1 } }
  ]) {
    expect((await cache.read(other)).hit).toBeUndefined();
  }
});

test('an object whose bytes were changed without re-hashing is a miss, never a hit', async () => {
  const cache = await openBaselineCache(dir);
  await cache.write(FIELDS, WRITER_DIGEST, BASELINE);
  const file = await objectFile();
  // The attack: the base reproduction "passed" (the bug is not there), so every candidate is inconclusive; or the other way round.
  await writeFile(file, (await readFile(file, 'utf8')).replace('"exitCode":1', '"exitCode":0'));
  const { hit, miss } = await cache.read(FIELDS);
  expect(hit).toBeUndefined();
  expect(miss).toMatch(/re-hashes to sha256:[0-9a-f]{64}: damaged or re-written/);
});

test('a re-hashed object moved under another key is a miss: an entry names the key it is for', async () => {
  const cache = await openBaselineCache(dir);
  const entry = (await cache.write(FIELDS, WRITER_DIGEST, BASELINE)) as Digest;
  const other = { ...FIELDS, base_snapshot: D('9') };
  await writeFile(join(dir, 'keys', digestHex(baselineCacheKey(other))), `${entry}\n`);
  expect((await cache.read(other)).miss).toMatch(/is for another key/);
  // A key file naming something that is not a digest, or an object that is gone.
  await writeFile(join(dir, 'keys', digestHex(baselineCacheKey(other))), '../../etc/passwd\n');
  expect((await cache.read(other)).miss).toMatch(/does not name an object/);
  await rm(await objectFile());
  expect((await cache.read(FIELDS)).miss).toMatch(/is missing/);
});

test('an entry that holds no base-side runs, or runs of the candidate, is a miss', async () => {
  const cache = await openBaselineCache(dir);
  for (const outputs of [
    [],
    [output('regression_before', 0)],
    [{ ...output('reproduction_before', 1), evidence: { ...output('reproduction_before', 1).evidence, label: 'hidden' } }]
  ]) {
    // Written the way an attacker with the code would: consistent, re-hashed.
    const key = baselineCacheKey(FIELDS);
    const text = `${JSON.stringify({ schema: 'patchproof.baseline-cache/v1', key, key_fields: FIELDS, baseline_digest: WRITER_DIGEST, outputs })}\n`;
    await writeFile(join(dir, 'objects', `${sha256Hex(text)}.json`), text);
    await writeFile(join(dir, 'keys', digestHex(key)), `sha256:${sha256Hex(text)}\n`);
    expect((await cache.read(FIELDS)).miss).toMatch(/holds no base-side runs/);
  }
});

test('runs the infrastructure spoiled are never kept (the fault would stick)', async () => {
  const cache = await openBaselineCache(dir);
  for (const spoiled of [{ infraError: 'docker: daemon down' }, { timedOut: true }, { outputTruncated: true }]) {
    expect(await cache.write(FIELDS, WRITER_DIGEST, { ...BASELINE, outputs: [output('reproduction_before', 1, spoiled)] })).toBeUndefined();
  }
  expect(await readdir(join(dir, 'objects'))).toEqual([]);
});

test('trusted writer: a cache folder, key or object that others may write is refused, and so is a symbolic link', async () => {
  const cache = await openBaselineCache(dir);
  await cache.write(FIELDS, WRITER_DIGEST, BASELINE);
  await chmod(dir, 0o777);
  await expect(openBaselineCache(dir)).rejects.toThrow(/writable by group or others \(mode 777\)/);
  await chmod(dir, 0o755);
  await chmod(await objectFile(), 0o666);
  await expect(cache.read(FIELDS)).rejects.toThrow(/writable by group or others/);
  await chmod(await objectFile(), 0o644);
  await chmod(join(dir, 'keys'), 0o775);
  await expect(openBaselineCache(dir)).rejects.toThrow(/keys' is writable by group or others/);
  await chmod(join(dir, 'keys'), 0o755);
  expect((await cache.read(FIELDS)).hit).toBeDefined();
  const link = join(dir, '..', 'link');
  await mkdir(join(dir, '..', 'real'));
  await symlink(join(dir, '..', 'real'), link);
  await expect(openBaselineCache(link)).rejects.toThrow(/symbolic link/);
});
