import * as cache from '@actions/cache';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCacheServer, type CacheServer } from './cache-server.js';

/**
 * The loopback cache service itself, driven by the real @actions/cache client: an entry saved on
 * one ref is restored there, the default branch's entries are seen from every ref, a pull request's
 * entries only from its own ref, entries are immutable, and every request keeps to the protocol.
 */

const ENV_NAMES = ['ACTIONS_RESULTS_URL', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_CACHE_SERVICE_V2', 'RUNNER_TEMP', 'GITHUB_SERVER_URL'] as const;
const saved = Object.fromEntries(ENV_NAMES.map((n) => [n, process.env[n]]));

let server: CacheServer;
let tmp: string;
let folder: string;

function as(ref: string): void {
  Object.assign(process.env, server.env(ref), { RUNNER_TEMP: join(tmp, 'runner-temp') });
  delete process.env['GITHUB_SERVER_URL'];
}

function fill(text: string): void {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'entry.txt'), text);
}

async function restored(key: string, restoreKeys: string[] = []): Promise<string | undefined> {
  rmSync(folder, { recursive: true, force: true });
  const matched = await cache.restoreCache([folder], key, restoreKeys);
  return matched === undefined ? undefined : `${matched}=${readFileSync(join(folder, 'entry.txt'), 'utf8')}`;
}

beforeAll(async () => {
  server = await startCacheServer();
  tmp = mkdtempSync(join(tmpdir(), 'pp-cache-server-'));
  mkdirSync(join(tmp, 'runner-temp'));
  folder = join(tmp, 'runner-temp', 'store');
});

afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
  for (const name of ENV_NAMES) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
});

test('save and restore on one ref, through Twirp and the blob API', async () => {
  as('refs/heads/main');
  fill('main entry');
  expect(await cache.saveCache([folder], 'k-main')).toBeGreaterThan(0);
  expect(await restored('k-main')).toBe('k-main=main entry');
  expect(await restored('k-absent')).toBeUndefined();
  const ops = server.requests().map((r) => r.operation);
  expect(ops).toEqual(expect.arrayContaining(['CreateCacheEntry', 'Put Blob', 'FinalizeCacheEntryUpload', 'GetCacheEntryDownloadURL', 'Get Blob']));
  expect(server.entries().find((e) => e.key === 'k-main')).toMatchObject({ scope: 'refs/heads/main', finalized: true });
});

test("scopes: a pull request's entry is seen from its own ref only; the default branch's from every ref", async () => {
  as('refs/pull/7/merge');
  fill('forged');
  expect(await cache.saveCache([folder], 'k-shared')).toBeGreaterThan(0);
  expect(await restored('k-shared')).toBe('k-shared=forged');
  expect(await restored('k-main')).toBe('k-main=main entry');
  as('refs/heads/main');
  expect(await restored('k-shared')).toBeUndefined();
  // A restore key does not reach into another scope either.
  expect(await restored('k-none', ['k-sh'])).toBeUndefined();
  fill('honest');
  expect(await cache.saveCache([folder], 'k-shared')).toBeGreaterThan(0);
  expect(await restored('k-shared')).toBe('k-shared=honest');
  as('refs/pull/7/merge');
  expect(await restored('k-shared')).toBe('k-shared=forged');
  expect(
    server
      .entries()
      .filter((e) => e.key === 'k-shared')
      .map((e) => e.scope)
  ).toEqual(['refs/pull/7/merge', 'refs/heads/main']);
});

test('entries are immutable, tokens are checked, failures are answered, and the client kept to the protocol', async () => {
  as('refs/heads/main');
  fill('second');
  expect(await cache.saveCache([folder], 'k-main')).toBe(-1);
  expect(await restored('k-main')).toBe('k-main=main entry');
  process.env['ACTIONS_RUNTIME_TOKEN'] = 'not.a.token';
  expect(await restored('k-main')).toBeUndefined();
  expect(server.requests().at(-1)).toMatchObject({ operation: 'GetCacheEntryDownloadURL', status: 401 });
  as('refs/heads/main');
  server.fail({ status: 403, code: 'permission_denied' });
  expect(await restored('k-main')).toBeUndefined();
  expect(server.requests().at(-1)).toMatchObject({ status: 403 });
  server.fail(undefined);
  expect(server.remove('k-main', 'refs/heads/main')).toBe(true);
  expect(await restored('k-main')).toBeUndefined();
  expect(server.invalidRequests().filter((r) => r.status !== 401)).toEqual([]);
});
