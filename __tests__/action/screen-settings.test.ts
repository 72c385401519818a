import { generateKeyPairSync } from 'node:crypto';
import { readActionSettings } from '../../src/inputs/action-settings.js';
import { dispatchRefusal } from '../../src/action/screen-mode.js';

const PEM = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
/** The GitHub App every shard job and the merge hold: the run's shard key is derived from its private key. */
const APP = { 'app-id': '123', 'app-private-key': PEM };
const DIGEST = `sha256:${'1'.repeat(64)}`;
const base = { 'github-token': 'ghs_x', 'witness-pack': 'pack', 'witness-digest': DIGEST, image: `sha256:${'2'.repeat(64)}` };
const read = (inputs: Record<string, string>) => readActionSettings((name) => inputs[name] ?? '');

describe('screen inputs (src/inputs/screen-settings.ts)', () => {
  test('mode screen with a label, approved hashes and a shard', () => {
    const settings = read({
      ...base,
      mode: 'screen',
      'screen-label': 'agent',
      'approved-proposal-hashes': `${'c'.repeat(64)}\n${'d'.repeat(64)}`,
      shard: '2/3',
      ...APP
    });
    expect(settings.screen).toEqual({ label: 'agent', approvedHashes: ['c'.repeat(64), 'd'.repeat(64)], shard: { index: 2, count: 3 } });
  });

  test('mode screen with refs, one job, a comment issue', () => {
    expect(read({ ...base, mode: 'screen', 'screen-refs': 'refs/heads/a, refs/heads/b', 'screen-comment-issue': '12' }).screen).toEqual({
      refs: ['refs/heads/a', 'refs/heads/b'],
      commentIssue: 12
    });
  });

  test('screen-merge takes shards, the app and the digest, without a pack or image', () => {
    const settings = read({ 'github-token': 'ghs_x', ...APP, mode: 'screen-merge', shards: '2', 'witness-digest': DIGEST });
    expect(settings.screen).toEqual({ shards: 2, witnessDigest: DIGEST });
  });

  test.each([
    [{ mode: 'screen' }, /give exactly one of screen-label/],
    [{ mode: 'screen', 'screen-label': 'a', 'screen-refs': 'refs/heads/x' }, /give exactly one of screen-label/],
    [{ mode: 'screen', 'screen-refs': 'refs/pull/3/head' }, /not refs\/pull\/: use screen-label/],
    [{ mode: 'screen', 'screen-label': 'a', shard: '3/2' }, /shard '3\/2' is not K\/N/],
    [{ mode: 'screen', 'screen-label': 'a', shard: '1/2' }, /^mode screen with shard needs app-id and app-private-key/],
    [{ mode: 'screen', 'screen-label': 'a', shard: '1/2', ...APP, 'screen-run-key': 'ab'.repeat(32) }, /^screen-run-key was removed/],
    [{ mode: 'screen', 'screen-label': 'a', 'approved-proposal-hashes': 'abc' }, /approved-proposal-hashes entry 'abc' is not a proposal hash/],
    [{ mode: 'screen', 'screen-label': 'a', shard: '1/2', 'screen-comment-issue': '4' }, /screen-comment-issue is for the job that merges/],
    [{ mode: 'screen-merge' }, /shards is required with mode screen-merge/],
    [{ mode: 'screen-merge', shards: '2' }, /^mode screen-merge needs app-id and app-private-key/],
    [{ mode: 'screen-merge', shards: '2', 'screen-label': 'a' }, /screen-label and screen-refs are for mode screen/],
    [{ mode: 'validate', 'screen-label': 'a' }, /screen-label is for mode screen or screen-merge only/]
  ])('refused: %j', (inputs, message) => {
    expect(() => read({ ...base, ...inputs })).toThrow(message);
  });
});

describe('dispatchRefusal (screen mode runs only on a dispatch from the default branch)', () => {
  const payload = { repository: { default_branch: 'main' } };
  test('a dispatch from the default branch is accepted', () => {
    expect(dispatchRefusal('workflow_dispatch', 'refs/heads/main', payload)).toBeUndefined();
  });
  test.each([
    ['pull_request_target', 'refs/heads/main', payload, /workflow_dispatch only, not pull_request_target/],
    ['workflow_dispatch', 'refs/heads/agent', payload, /from the default branch refs\/heads\/main, not refs\/heads\/agent/],
    ['workflow_dispatch', 'refs/tags/v1', payload, /not refs\/tags\/v1/],
    ['workflow_dispatch', 'refs/heads/main', {}, /no repository.default_branch/]
  ])('%s on %s: refused', (event, ref, body, message) => {
    expect(dispatchRefusal(event, ref, body)).toMatch(message);
  });
});
