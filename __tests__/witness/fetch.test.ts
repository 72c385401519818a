import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { access, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigurationError, InfrastructureError, VerificationError } from '../../src/errors.js';
import { packWitness } from '../../src/fetch/witness/archive.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { resolveWitness, type ResolveWitnessOptions } from '../../src/fetch/witness/fetch.js';
import { createToolCachePackCache, packVersion, PACK_TOOL_NAME, type PackCache } from '../../src/fetch/witness/pack-cache.js';
import { listTree, tempFolder } from './tar-helpers.js';

const MANIFEST = { schema: 'patchproof.witness/v1', adapter: 'node-test', hidden: { repeat: 3 } };

async function makePack(root: string, hiddenText = 'test("hidden")\n'): Promise<string> {
  await mkdir(join(root, 'reproduction'), { recursive: true });
  await mkdir(join(root, 'hidden'), { recursive: true });
  await writeFile(join(root, 'witness.json'), JSON.stringify(MANIFEST));
  await writeFile(join(root, 'reproduction', 'bug.test.js'), 'test("bug")\n');
  await writeFile(join(root, 'hidden', 'more.test.js'), hiddenText);
  return (await digestWitnessFolder(root)).digest;
}

const OTHER_DIGEST = `sha256:${'0'.repeat(64)}`;

let scratch: string;
let temp: string;
let packDir: string;
let digest: string;
beforeEach(async () => {
  scratch = await tempFolder();
  temp = join(scratch, 'temp');
  await mkdir(temp);
  packDir = join(scratch, 'pack');
  digest = await makePack(packDir);
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught
  );
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).not.toContain('\n');
  return error as Error;
}

describe('resolveWitness from a folder', () => {
  it('verifies the digest and unpacks a private copy of exactly the digested files', async () => {
    const witness = await resolveWitness(packDir, digest, { tempDir: temp });
    expect(witness.digest).toBe(digest);
    expect(witness.source).toEqual({ kind: 'dir', location: packDir });
    expect(witness.manifest.adapter).toBe('node-test');
    expect(witness.manifest.hidden).toEqual({ path: 'hidden', placement: '.patchproof/hidden', repeat: 3 });
    expect(witness.dir.startsWith(temp)).toBe(true);
    expect(await listTree(witness.dir)).toEqual(['hidden/', 'hidden/more.test.js', 'reproduction/', 'reproduction/bug.test.js', 'witness.json']);
    expect((await digestWitnessFolder(witness.dir)).digest).toBe(digest);
    expect(witness.files.map((file) => file.path)).toEqual(['hidden/more.test.js', 'reproduction/bug.test.js', 'witness.json']);
    await witness.dispose();
    expect(await readdir(temp)).toEqual([]);
  });

  it('refuses a folder whose digest differs, writing nothing', async () => {
    await writeFile(join(packDir, 'hidden', 'more.test.js'), 'test("changed")\n');
    const error = await failure(resolveWitness(packDir, digest, { tempDir: temp }));
    expect(error).toBeInstanceOf(VerificationError);
    expect(error).toMatchObject({ code: 'witness_digest_mismatch' });
    const actual = (await digestWitnessFolder(packDir)).digest;
    expect(error.message).toBe(
      `witness pack digest is ${actual}, expected ${digest}; the pack at '${packDir}' is not the one this run is bound to: check the source and the digest`
    );
    expect(await readdir(temp)).toEqual([]);
  });
});

describe('resolveWitness from a .tar.gz file', () => {
  it('verifies the digest before unpacking', async () => {
    const file = join(scratch, 'pack.tar.gz');
    await writeFile(file, await packWitness(packDir));
    const witness = await resolveWitness(file, digest, { tempDir: temp });
    expect(witness.source).toEqual({ kind: 'archive', location: file });
    expect((await digestWitnessFolder(witness.dir)).digest).toBe(digest);
    await witness.dispose();
    expect(await readdir(temp)).toEqual([]);
  });

  it('accepts .tgz too', async () => {
    const file = join(scratch, 'pack.tgz');
    await writeFile(file, await packWitness(packDir));
    const witness = await resolveWitness(file, digest, { tempDir: temp });
    await witness.dispose();
  });

  it('refuses an archive whose digest differs: nothing unpacked, no temporary folder left', async () => {
    const file = join(scratch, 'pack.tar.gz');
    await writeFile(file, await packWitness(packDir));
    const error = await failure(resolveWitness(file, OTHER_DIGEST, { tempDir: temp }));
    expect(error).toMatchObject({ code: 'witness_digest_mismatch' });
    expect(error.message).toMatch(new RegExp(`^witness pack digest is ${digest}, expected ${OTHER_DIGEST}; `));
    expect(await readdir(temp)).toEqual([]);
  });

  it('refuses an archive over the size limit before reading it', async () => {
    const file = join(scratch, 'pack.tar.gz');
    await writeFile(file, await packWitness(packDir));
    const error = await failure(resolveWitness(file, digest, { tempDir: temp, limits: { maxBytes: 100 } }));
    expect(error).toMatchObject({ code: 'witness_unsafe' });
    expect(await readdir(temp)).toEqual([]);
  });
});

describe('resolveWitness input checks', () => {
  it.each(['', 'sha256:abc', `sha256:${'A'.repeat(64)}`, `sha512:${'0'.repeat(64)}`, '0'.repeat(64)])('refuses the digest %j', async (bad) => {
    const error = await failure(resolveWitness(packDir, bad, { tempDir: temp }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain("expected 'sha256:' followed by 64 lowercase hex digits");
  });

  it('refuses a missing source, a file that is not an archive, and other URL schemes', async () => {
    expect(await failure(resolveWitness(join(scratch, 'nope'), digest, { tempDir: temp }))).toBeInstanceOf(ConfigurationError);
    expect(await failure(resolveWitness(join(packDir, 'witness.json'), digest, { tempDir: temp }))).toBeInstanceOf(ConfigurationError);
    expect((await failure(resolveWitness('ftp://127.0.0.1/x.tgz', digest, { tempDir: temp }))).message).toContain('is not https');
    expect((await failure(resolveWitness('file:///etc/passwd', digest, { tempDir: temp }))).message).toContain('is not https');
  });

  it('refuses a pack without witness.json, with a bad manifest, or without its test folders', async () => {
    await rm(join(packDir, 'witness.json'));
    let error = await failure(resolveWitness(packDir, (await digestWitnessFolder(packDir)).digest, { tempDir: temp }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('has no witness.json at its root');

    await writeFile(join(packDir, 'witness.json'), JSON.stringify({ ...MANIFEST, adapter: 'nope' }));
    error = await failure(resolveWitness(packDir, (await digestWitnessFolder(packDir)).digest, { tempDir: temp }));
    expect(error.message).toMatch(/^witness pack witness\.json: adapter is 'nope'; expected one of/);

    await writeFile(join(packDir, 'witness.json'), JSON.stringify(MANIFEST));
    await rm(join(packDir, 'hidden'), { recursive: true });
    error = await failure(resolveWitness(packDir, (await digestWitnessFolder(packDir)).digest, { tempDir: temp }));
    expect(error.message).toContain("hidden.path 'hidden' is not a folder of files in the pack");
    expect(await readdir(temp)).toEqual([]);
  });
});

describe('resolveWitness from a URL', () => {
  let server: Server;
  let base: string;
  const requests: string[] = [];
  const routes = new Map<string, Buffer>();

  beforeEach(async () => {
    requests.length = 0;
    routes.clear();
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      const body = routes.get(request.url ?? '');
      if (body === undefined) {
        response.writeHead(404).end('not found');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** The real tool-cache PackCache in a test folder, counting the calls made through it. */
  function countingCache(): { cache: PackCache; calls: string[]; folder: string } {
    const folder = join(scratch, 'tool-cache');
    const real = createToolCachePackCache({ toolCacheDir: folder });
    const calls: string[] = [];
    const cache: PackCache = {
      find: (d) => (calls.push('find'), real.find(d)),
      store: (file, d) => (calls.push('store'), real.store(file, d)),
      download: (url, dest) => (calls.push('download'), real.download(url, dest))
    };
    return { cache, calls, folder };
  }

  it('downloads once, then serves from the cache by digest', async () => {
    routes.set('/pack.tgz', await packWitness(packDir));
    const { cache, folder } = countingCache();
    const options: ResolveWitnessOptions = { tempDir: temp, cache };
    const envBefore = process.env['RUNNER_TOOL_CACHE'];

    const first = await resolveWitness(`${base}/pack.tgz`, digest, options);
    expect(requests).toEqual(['/pack.tgz']);
    expect(first.source).toEqual({ kind: 'url', location: `${base}/pack.tgz` });
    expect((await digestWitnessFolder(first.dir)).digest).toBe(digest);
    const cached = join(folder, PACK_TOOL_NAME, packVersion(digest as never), 'any', 'witness.tar.gz');
    expect(await readFile(cached)).toEqual(routes.get('/pack.tgz'));
    await first.dispose();

    const second = await resolveWitness(`${base}/pack.tgz`, digest, options);
    expect(requests).toEqual(['/pack.tgz']);
    expect((await digestWitnessFolder(second.dir)).digest).toBe(digest);
    await second.dispose();

    expect(process.env['RUNNER_TOOL_CACHE']).toBe(envBefore);
    expect(await readdir(temp)).toEqual([]);
  });

  it('detects a cache entry changed after it was cached, without downloading again', async () => {
    routes.set('/pack.tgz', await packWitness(packDir));
    const { cache, folder } = countingCache();
    await (await resolveWitness(`${base}/pack.tgz`, digest, { tempDir: temp, cache })).dispose();

    const tampered = join(scratch, 'tampered');
    await makePack(tampered, 'test("always passes")\n');
    const cached = join(folder, PACK_TOOL_NAME, packVersion(digest as never), 'any', 'witness.tar.gz');
    await writeFile(cached, await packWitness(tampered));

    const error = await failure(resolveWitness(`${base}/pack.tgz`, digest, { tempDir: temp, cache }));
    expect(error).toMatchObject({ code: 'witness_digest_mismatch' });
    expect(error.message).toContain(`expected ${digest}; the cached copy '${cached}' was changed after it was cached: remove it and run again`);
    expect(requests).toEqual(['/pack.tgz']);
  });

  it('refuses a download with another digest: nothing cached, nothing unpacked', async () => {
    const other = join(scratch, 'other');
    await makePack(other, 'test("other")\n');
    routes.set('/pack.tgz', await packWitness(other));
    const { cache, folder } = countingCache();
    const error = await failure(resolveWitness(`${base}/pack.tgz`, digest, { tempDir: temp, cache }));
    expect(error).toMatchObject({ code: 'witness_digest_mismatch' });
    expect(error.message).toContain(`the pack at '${base}/pack.tgz' is not the one this run is bound to`);
    await expect(access(join(folder, PACK_TOOL_NAME, packVersion(digest as never)))).rejects.toThrow();
    expect(await readdir(temp)).toEqual([]);
  });

  it('reports an HTTP error as an infrastructure fault', async () => {
    const { cache } = countingCache();
    const error = await failure(resolveWitness(`${base}/missing.tgz`, digest, { tempDir: temp, cache }));
    expect(error).toBeInstanceOf(InfrastructureError);
    expect(error.message).toContain('Unexpected HTTP response: 404');
    expect(await readdir(temp)).toEqual([]);
  });

  it('refuses plain http to anything but loopback before any request or cache look-up', async () => {
    routes.set('/x', await packWitness(packDir));
    const { cache, calls } = countingCache();
    for (const url of ['http://example.com/x', `http://127.0.0.2:${new URL(base).port}/x`, 'http://localhost.example.com/x']) {
      const error = await failure(resolveWitness(url, digest, { tempDir: temp, cache }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toContain('is not https; expected an https:// URL (plain http:// only for 127.0.0.1 or localhost)');
    }
    expect(calls).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('also accepts http://localhost', async () => {
    routes.set('/pack.tgz', await packWitness(packDir));
    const { cache } = countingCache();
    const witness = await resolveWitness(`http://localhost:${new URL(base).port}/pack.tgz`, digest, { tempDir: temp, cache });
    expect(requests).toEqual(['/pack.tgz']);
    await witness.dispose();
  });
});
