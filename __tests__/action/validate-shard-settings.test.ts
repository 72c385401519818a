import { generateKeyPairSync } from 'node:crypto';
import { readActionSettings } from '../../src/inputs/action-settings.js';

const PEM = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
/** The GitHub App every shard job holds: its private key is what the run's shard key is derived from. */
const APP = { 'app-id': '123', 'app-private-key': PEM };
const DIGEST = `sha256:${'1'.repeat(64)}`;
const base = { 'github-token': 'ghs_x', 'witness-pack': 'pack', 'witness-digest': DIGEST, image: `sha256:${'2'.repeat(64)}` };
const read = (inputs: Record<string, string>) => readActionSettings((name) => inputs[name] ?? '');

describe('validate shard inputs (src/inputs/validate-shard-settings.ts)', () => {
  test('mode validate with shard K/N and the GitHub App', () => {
    const settings = read({ ...base, ...APP, mode: 'validate', shard: '2/3' });
    expect(settings.validateShards).toEqual({ shard: { index: 2, count: 3 } });
    expect(settings.app).toMatchObject({ appId: 123 });
    expect(settings.screen).toBeUndefined();
  });

  test('mode validate without shard has no shard inputs', () => {
    expect(read({ ...base, mode: 'validate' }).validateShards).toBeUndefined();
  });

  test('validate-merge takes shards, the app and the digest, without a pack or image', () => {
    const settings = read({ 'github-token': 'ghs_x', ...APP, mode: 'validate-merge', shards: '2', 'witness-digest': DIGEST });
    expect(settings.mode).toBe('validate-merge');
    expect(settings.validateShards).toEqual({ shards: 2, witnessDigest: DIGEST });
  });

  test.each<[string, Record<string, string>, RegExp]>([
    [
      'a shard without the GitHub App',
      { mode: 'validate', shard: '1/2' },
      /^mode validate with shard needs app-id and app-private-key: the shard artifacts of this run are tagged with a key derived/
    ],
    ['validate-merge without the GitHub App', { mode: 'validate-merge', shards: '2' }, /^mode validate-merge needs app-id and app-private-key/],
    [
      'the removed screen-run-key (a with: input is printed in the log)',
      { ...APP, mode: 'validate', shard: '1/2', 'screen-run-key': 'ab'.repeat(32) },
      /^screen-run-key was removed: every with: input is printed in the step log/
    ],
    ['the removed screen-run-key, without a shard', { mode: 'validate', 'screen-run-key': 'ab'.repeat(32) }, /^screen-run-key was removed/],
    ['shard 1/1', { mode: 'validate', shard: '1/1' }, /^shard 1\/1 is the whole suite/],
    ['K > N', { mode: 'validate', shard: '3/2' }, /^shard '3\/2' is not K\/N/],
    ['N over 256', { mode: 'validate', shard: '1/300' }, /^shard '1\/300' is not K\/N/],
    ['shard with claimed', { mode: 'validate', shard: '1/2', claimed: 'junit.xml' }, /^shard cannot go with claimed:/],
    ['shard with claimed-artifact', { mode: 'validate', shard: '1/2', 'claimed-artifact': 'junit' }, /^shard cannot go with claimed-artifact:/],
    ['shard with baseline-cache', { mode: 'validate', shard: '1/2', 'baseline-cache': 'true' }, /^shard cannot go with baseline-cache:/],
    ['shard with head-checks', { mode: 'validate', shard: '1/2', 'head-checks': 'true' }, /^shard cannot go with head-checks:/],
    ['shards in mode validate', { mode: 'validate', shards: '2' }, /^shards is for mode validate-merge/],
    ['validate-merge without shards', { mode: 'validate-merge' }, /^shards is required with mode validate-merge/],
    ['validate-merge with one shard', { mode: 'validate-merge', shards: '1' }, /^shards '1' is not a number of shards from 2 to 256/],
    ['validate-merge with a shard', { mode: 'validate-merge', shards: '2', shard: '1/2' }, /^shard is not an input of mode validate-merge/],
    ['validate-merge with claimed', { mode: 'validate-merge', shards: '2', claimed: 'x' }, /^claimed is not an input of mode validate-merge/],
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
    expect(() => read({ 'github-token': 'ghs_x', ...APP, mode: 'validate-merge', shards: '2' })).toThrow(/^witness-digest is required with mode validate-merge/);
  });
});
