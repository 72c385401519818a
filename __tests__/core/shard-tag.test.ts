import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { deriveShardKey, shardTagError, tagShard, SHARD_TAG_SCHEMA } from '../../src/core/shard-tag.js';

const key = randomBytes(32).toString('hex');
const files = [
  { path: 'shard.json', sha256: 'a'.repeat(64) },
  { path: 'candidates/pr-1/receipt.json', sha256: 'b'.repeat(64) }
];
const NAME = 'patchproof-screen-shard-1-of-2';

describe('shard tag (src/core/shard-tag.ts)', () => {
  test('a folder tagged with the run key verifies, whatever the order of its files', () => {
    const tag = tagShard(key, NAME, files);
    expect(tag.schema).toBe(SHARD_TAG_SCHEMA);
    expect(shardTagError(key, NAME, tag, [...files].reverse())).toBeUndefined();
  });

  test('another key, another artifact name, a changed, extra or missing file: refused, each with its reason', () => {
    const tag = tagShard(key, NAME, files);
    expect(shardTagError(randomBytes(32).toString('hex'), NAME, tag, files)).toMatch(/not made with this run's key/);
    expect(shardTagError(key, 'patchproof-screen-shard-2-of-2', tag, files)).toMatch(/made for artifact patchproof-screen-shard-1-of-2/);
    expect(shardTagError(key, NAME, tag, [files[0]!, { path: files[1]!.path, sha256: 'c'.repeat(64) }])).toMatch(/candidates\/pr-1\/receipt.json is not the file/);
    expect(shardTagError(key, NAME, tag, [...files, { path: 'extra.json', sha256: 'd'.repeat(64) }])).toMatch(/extra.json is not the file/);
    expect(shardTagError(key, NAME, tag, [files[0]!])).toMatch(/1 tagged file\(s\) are missing/);
  });

  test('a forger who re-lists the changed files but has no key cannot make a tag that verifies', () => {
    const changed = [files[0]!, { path: files[1]!.path, sha256: 'e'.repeat(64) }];
    const forged = tagShard(randomBytes(32).toString('hex'), NAME, changed);
    expect(shardTagError(key, NAME, forged, changed)).toMatch(/not made with this run's key/);
    // With the tag field swapped in from the genuine record, the listing no longer matches it.
    expect(shardTagError(key, NAME, { ...forged, tag: tagShard(key, NAME, files).tag }, changed)).toMatch(/not made with this run's key/);
  });

  test('a missing or malformed tag record is refused', () => {
    expect(shardTagError(key, NAME, undefined, files)).toMatch(/missing or malformed/);
    expect(shardTagError(key, NAME, { schema: SHARD_TAG_SCHEMA, artifact: NAME, files, tag: 'zz' }, files)).toMatch(/missing or malformed/);
  });
});

describe('the run shard key, derived from the GitHub App private key (deriveShardKey)', () => {
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
  const run = { repository: 'octo-org/hello-world', runId: '6001', runAttempt: '1' };

  test('every job of one run attempt derives the same 64-hex key, whatever the PEM form of the key', () => {
    const key1 = deriveShardKey(pem, run);
    expect(key1).toMatch(/^[0-9a-f]{64}$/);
    expect(deriveShardKey(pem, { ...run, repository: 'Octo-Org/Hello-World' })).toBe(key1);
    // The same key as PKCS#8, as a secret may hold it, and with CRLF line ends.
    const pkcs8 = createPrivateKey(pem).export({ type: 'pkcs8', format: 'pem' }) as string;
    expect(deriveShardKey(pkcs8, run)).toBe(key1);
    expect(deriveShardKey(pem.replace(/\n/g, '\r\n'), run)).toBe(key1);
  });

  test('another run, another attempt, another repository or another private key: another key, so their tags do not verify', () => {
    const key1 = deriveShardKey(pem, run);
    const others = [
      deriveShardKey(pem, { ...run, runId: '6002' }),
      deriveShardKey(pem, { ...run, runAttempt: '2' }),
      deriveShardKey(pem, { ...run, repository: 'octo-org/other' }),
      deriveShardKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string, run)
    ];
    expect(new Set([key1, ...others]).size).toBe(5);
    const tag = tagShard(key1, NAME, files);
    for (const other of others) expect(shardTagError(other, NAME, tag, files)).toMatch(/not made with this run's key/);
  });

  test('a PEM that is not a private key is a configuration error naming the input', () => {
    expect(() => deriveShardKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', run)).toThrow(/^app-private-key cannot be read as a private key/);
  });
});
