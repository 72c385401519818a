import { describe, expect, it } from '@jest/globals';
import { checkShards, SHARD_SCHEMA, shardMembers, shardSchema, type ShardManifest } from '../../src/core/screening.js';

/** Sharding's pure parts: which shard validates which candidates, and the checks merge makes of the shard manifests before it reads a receipt. */

const BASE = `sha256:${'b'.repeat(64)}`;
const PACK = `sha256:${'c'.repeat(64)}`;
const hash = (n: number): string => n.toString(16).padStart(64, '0');
const ALL = ['a', 'b', 'c', 'd'].map((name, i) => ({ name, proposal_hash: hash(i + 1) }));

function shard(index: number, count: number, validated: string[], change: Partial<ShardManifest> = {}): ShardManifest {
  return shardSchema.parse({
    schema: SHARD_SCHEMA,
    tool_version: '1.0.0',
    index,
    count,
    started_at: '2026-12-02T00:00:00.000Z',
    finished_at: '2026-12-02T00:01:00.000Z',
    base_snapshot: BASE,
    witness_digest: PACK,
    candidates: ALL,
    validated,
    ...change
  });
}

describe('shardMembers', () => {
  const keys = [
    { name: 'a', key: 'k1' },
    { name: 'b', key: 'k2' },
    { name: 'c', key: 'k1' },
    { name: 'd', key: 'k3' },
    { name: 'e', key: 'k4' }
  ];

  it('deals the groups of one normalised key round, and keeps a group in one shard', () => {
    expect([...shardMembers(keys, 1, 2)]).toEqual(['a', 'c', 'd']);
    expect([...shardMembers(keys, 2, 2)]).toEqual(['b', 'e']);
  });

  it('gives every candidate to exactly one shard, for any N', () => {
    for (let count = 1; count <= 7; count++) {
      const all = Array.from({ length: count }, (_, i) => [...shardMembers(keys, i + 1, count)]).flat();
      expect(all.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    }
    expect([...shardMembers(keys, 5, 5)]).toEqual([]);
  });
});

describe('checkShards', () => {
  it('accepts every shard once, each candidate validated once, and names the owner', () => {
    const result = checkShards([shard(2, 2, ['b', 'd']), shard(1, 2, ['a', 'c'])]);
    expect(result).toEqual({
      owner: new Map([
        ['b', 2],
        ['d', 2],
        ['a', 1],
        ['c', 1]
      ])
    });
  });

  it.each([
    ['a missing shard', [shard(1, 3, ['a', 'b']), shard(2, 3, ['c', 'd'])], 'shard 3/3 is missing'],
    ['a shard given twice', [shard(1, 2, ['a', 'b']), shard(1, 2, ['a', 'b']), shard(2, 2, ['c', 'd'])], 'a shard is given twice'],
    ['shards of two screenings (N)', [shard(1, 2, ['a', 'b']), shard(2, 3, ['c', 'd'])], 'their N differ'],
    ['another base', [shard(1, 2, ['a', 'b']), shard(2, 2, ['c', 'd'], { base_snapshot: `sha256:${'e'.repeat(64)}` })], 'another base snapshot or witness pack'],
    ['another pack', [shard(1, 2, ['a', 'b']), shard(2, 2, ['c', 'd'], { witness_digest: `sha256:${'e'.repeat(64)}` })], 'another base snapshot or witness pack'],
    [
      'another approval',
      [shard(1, 2, ['a', 'b']), shard(2, 2, ['c', 'd'], { candidates: [...ALL.slice(0, 3), { name: 'd', proposal_hash: hash(9) }] })],
      'lists other candidates or approvals'
    ],
    ['a candidate validated twice', [shard(1, 2, ['a', 'b']), shard(2, 2, ['b', 'c', 'd'])], "'b' was validated by shard 1 and shard 2"],
    ['a candidate validated by none', [shard(1, 2, ['a']), shard(2, 2, ['c', 'd'])], 'no shard validated b'],
    ['a stranger', [shard(1, 2, ['a', 'b', 'x']), shard(2, 2, ['c', 'd'])], "validated 'x', which is no candidate"],
    ['another tool version', [shard(1, 2, ['a', 'b']), shard(2, 2, ['c', 'd'], { tool_version: '0.9.0' })], 'was made by patchproof 0.9.0']
  ])('refuses %s', (_what, shards, message) => {
    const result = checkShards(shards);
    expect(result).toEqual({ error: expect.stringContaining(message) });
  });

  it('refuses no shard at all', () => {
    expect(checkShards([])).toEqual({ error: 'no shard given' });
  });
});
