import { readActionSettings } from '../../src/inputs/action-settings.js';

const KEY = 'ab'.repeat(32);
const DIGEST = `sha256:${'1'.repeat(64)}`;
const base = { 'github-token': 'ghs_x', 'witness-pack': 'pack', 'witness-digest': DIGEST, image: `sha256:${'2'.repeat(64)}` };
const read = (inputs: Record<string, string>) => readActionSettings((name) => inputs[name] ?? '');

describe('validate shard inputs (src/inputs/validate-shard-settings.ts)', () => {
  test('mode validate with shard K/N and the run key', () => {
    const settings = read({ ...base, mode: 'validate', shard: '2/3', 'screen-run-key': KEY });
    expect(settings.validateShards).toEqual({ shard: { index: 2, count: 3 }, runKey: KEY });
    expect(settings.screen).toBeUndefined();
  });

  test('mode validate without shard has no shard inputs', () => {
    expect(read({ ...base, mode: 'validate' }).validateShards).toBeUndefined();
  });

  test('validate-merge takes shards, the run key and the digest, without a pack or image', () => {
    const settings = read({ 'github-token': 'ghs_x', mode: 'validate-merge', shards: '2', 'screen-run-key': KEY, 'witness-digest': DIGEST });
    expect(settings.mode).toBe('validate-merge');
    expect(settings.validateShards).toEqual({ shards: 2, runKey: KEY, witnessDigest: DIGEST });
  });

  test.each<[string, Record<string, string>, RegExp]>([
    ['a shard without the run key', { mode: 'validate', shard: '1/2' }, /^screen-run-key is required with shard/],
    ['the run key without a shard', { mode: 'validate', 'screen-run-key': KEY }, /^screen-run-key is set without shard/],
    ['a bad run key', { mode: 'validate', shard: '1/2', 'screen-run-key': 'abc' }, /^screen-run-key is not 64 lowercase hex/],
    ['shard 1/1', { mode: 'validate', shard: '1/1', 'screen-run-key': KEY }, /^shard 1\/1 is the whole suite/],
    ['K > N', { mode: 'validate', shard: '3/2', 'screen-run-key': KEY }, /^shard '3\/2' is not K\/N/],
    ['N over 256', { mode: 'validate', shard: '1/300', 'screen-run-key': KEY }, /^shard '1\/300' is not K\/N/],
    ['shard with claimed', { mode: 'validate', shard: '1/2', 'screen-run-key': KEY, claimed: 'junit.xml' }, /^shard cannot go with claimed:/],
    ['shard with claimed-artifact', { mode: 'validate', shard: '1/2', 'screen-run-key': KEY, 'claimed-artifact': 'junit' }, /^shard cannot go with claimed-artifact:/],
    ['shard with baseline-cache', { mode: 'validate', shard: '1/2', 'screen-run-key': KEY, 'baseline-cache': 'true' }, /^shard cannot go with baseline-cache:/],
    ['shard with head-checks', { mode: 'validate', shard: '1/2', 'screen-run-key': KEY, 'head-checks': 'true' }, /^shard cannot go with head-checks:/],
    ['shards in mode validate', { mode: 'validate', shards: '2', 'screen-run-key': KEY }, /^shards is for mode validate-merge/],
    ['validate-merge without shards', { mode: 'validate-merge', 'screen-run-key': KEY }, /^shards is required with mode validate-merge/],
    ['validate-merge with one shard', { mode: 'validate-merge', shards: '1', 'screen-run-key': KEY }, /^shards '1' is not a number of shards from 2 to 256/],
    ['validate-merge without the key', { mode: 'validate-merge', shards: '2' }, /^screen-run-key is required with mode validate-merge/],
    ['validate-merge with a shard', { mode: 'validate-merge', shards: '2', shard: '1/2', 'screen-run-key': KEY }, /^shard is not an input of mode validate-merge/],
    ['validate-merge with claimed', { mode: 'validate-merge', shards: '2', 'screen-run-key': KEY, claimed: 'x' }, /^claimed is not an input of mode validate-merge/],
    ['shard in mode reverify', { mode: 'reverify', 'run-id': '4', shard: '1/2' }, /^shard is for mode screen or screen-merge only; remove it from mode reverify/]
  ])('refused: %s, in one line naming the input', (_name, inputs, message) => {
    let thrown: unknown;
    try {
      read({ ...base, ...inputs });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain('\n');
  });

  test('validate-merge without witness-digest is refused', () => {
    expect(() => read({ 'github-token': 'ghs_x', mode: 'validate-merge', shards: '2', 'screen-run-key': KEY })).toThrow(/^witness-digest is required with mode validate-merge/);
  });
});
