import * as cache from '@actions/cache';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { Digest } from '../../src/core/hashing.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { openBaselineCache, lookUpBaselineIn, settleBaselineIn, type BaselineKeyFields } from '../../src/phases/baseline-cache.js';
import type { RunOutput, SharedBaseline, ValidationResult } from '../../src/phases/validate.js';
import { actionsCacheKey, openActionsBaselineCache } from '../../src/publish/actions-cache.js';
import { startCacheServer, type CacheServer } from '../support/cache-server.js';

/**
 * The Actions cache store (openActionsBaselineCache) with the real @actions/cache client against the
 * loopback cache service, no Docker: a round trip, the restore folder emptied first, an unavailable
 * service, and a baseline of an inconclusive validation never saved. The whole action is
 * __tests__/action/baseline-cache-e2e.test.ts.
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

function output(label: 'reproduction_before' | 'regression_before', exitCode: number): RunOutput {
  return {
    evidence: { label, attempt: 1, exitCode, timedOut: false, outputTruncated: false },
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

const ENV_NAMES = ['ACTIONS_RESULTS_URL', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_CACHE_SERVICE_V2', 'RUNNER_TEMP', 'GITHUB_SERVER_URL'] as const;
const saved = Object.fromEntries(ENV_NAMES.map((n) => [n, process.env[n]]));
let server: CacheServer;
let tmp: string;
let folder: string;
const lines: string[] = [];
const log = { info: (l: string) => lines.push(l), warning: (l: string) => lines.push(`warning: ${l}`) };

function as(ref: string): void {
  Object.assign(process.env, server.env(ref), { RUNNER_TEMP: join(tmp, 'runner-temp') });
  Reflect.deleteProperty(process.env, 'GITHUB_SERVER_URL');
}

beforeAll(async () => {
  server = await startCacheServer();
  tmp = mkdtempSync(join(tmpdir(), 'pp-actions-cache-'));
  mkdirSync(join(tmp, 'runner-temp'));
  folder = join(tmp, 'runner-temp', 'patchproof-baseline-cache');
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
  for (const name of ENV_NAMES) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
});

test('a saved baseline is restored and passes the folder cache checks; the folder is removed after each call', async () => {
  as('refs/heads/main');
  const store = openActionsBaselineCache(folder, log);
  expect(await store.read(FIELDS)).toEqual({ miss: expect.stringContaining(`no entry ${actionsCacheKey(FIELDS)}`) });
  const address = await store.write(FIELDS, D('e'), BASELINE);
  expect(address).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(server.entries().map((e) => [e.scope, e.key])).toEqual([['refs/heads/main', actionsCacheKey(FIELDS)]]);
  const { hit } = await store.read(FIELDS);
  expect(hit).toMatchObject({ entry: address, baselineDigest: D('e') });
  expect(hit?.baseline.outputs).toEqual(BASELINE.outputs);
  // Another key (another base) is another entry: a miss.
  expect((await store.read({ ...FIELDS, base_snapshot: D('f') })).hit).toBeUndefined();
  expect(() => mkdirSync(folder)).not.toThrow();
  rmSync(folder, { recursive: true });
});

test('attack: an entry planted in the restore folder is never read: the folder is emptied before the restore', async () => {
  as('refs/heads/main');
  const planted = { ...FIELDS, base_snapshot: D('9') };
  // The cache holds an entry for the key whose archive has no baseline in it (the real client saves it).
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder);
  writeFileSync(join(folder, 'README'), 'nothing here\n');
  expect(await cache.saveCache([folder], actionsCacheKey(planted))).toBeGreaterThan(0);
  // Whatever an earlier step left at the folder's path, consistent and re-hashed: extracted over it, it would be read as a hit.
  rmSync(folder, { recursive: true, force: true });
  await (await openBaselineCache(folder)).write(planted, D('e'), BASELINE);
  expect((await (await openBaselineCache(folder)).read(planted)).hit).toBeDefined();
  // The check that stops it: the store empties the folder before the restore, so only the archive's files are read.
  const result = await openActionsBaselineCache(folder, log).read(planted);
  expect(result.hit).toBeUndefined();
  expect(result.miss).toBe('no entry');
});

test('no cache service in the environment: a miss, and nothing saved, without a request', async () => {
  const before = server.requests().length;
  Reflect.deleteProperty(process.env, 'ACTIONS_RESULTS_URL');
  Reflect.deleteProperty(process.env, 'ACTIONS_RUNTIME_TOKEN');
  const store = openActionsBaselineCache(folder, log);
  expect((await store.read(FIELDS)).miss).toMatch(/^the Actions cache is not available to this step/);
  expect(await store.write({ ...FIELDS, base_snapshot: D('7') }, D('e'), BASELINE)).toBeUndefined();
  expect(server.requests().length).toBe(before);
});

test('a baseline made by an inconclusive validation is not saved (judgedOnly); a judged one (failed) is', async () => {
  as('refs/heads/main');
  const fields = { ...FIELDS, base_snapshot: D('5') };
  const store = openActionsBaselineCache(folder, log);
  const made = (verdict: Receipt['verdict']): ValidationResult => ({ receipt: { verdict, baseline: { shared: false, digest: D('e') } } as Receipt, baseline: BASELINE });
  const lookup = await lookUpBaselineIn(store, fields, (l) => lines.push(l), { judgedOnly: true });
  expect(lookup.hit).toBeUndefined();
  await settleBaselineIn(lookup, made('inconclusive'), (l) => lines.push(l));
  expect(lines.at(-1)).toBe('baseline cache: not kept (the validation was inconclusive)');
  expect(server.entries().filter((e) => e.key === actionsCacheKey(fields))).toEqual([]);
  await settleBaselineIn(lookup, made('failed'), (l) => lines.push(l));
  expect(lines.at(-1)).toMatch(/^baseline cache: kept entry sha256:/);
  expect(
    server
      .entries()
      .filter((e) => e.key === actionsCacheKey(fields))
      .map((e) => e.scope)
  ).toEqual(['refs/heads/main']);
});
