import { readSettings } from '../../src/inputs/cli-settings.js';
import { ConfigurationError } from '../../src/errors.js';

/** `screen`'s and `compare`'s settings, and validate's `--early-exit`. */

const DIGEST = `sha256:${'a'.repeat(64)}`;
const base = ['--repo', 'r', '--witness', 'p', '--witness-digest', DIGEST, '--runner', 'docker', '--image', DIGEST, '--out', 'o'];

describe('screen settings', () => {
  it("takes repeated --candidates and --approve, and validate's shared options", () => {
    const settings = readSettings([
      'screen',
      ...base,
      '--candidates',
      'a.diff',
      '--candidates=dir',
      '--approve',
      'h1',
      '--approve',
      'h2',
      '--approved-by',
      'me',
      '--concurrency',
      '3'
    ]);
    expect(settings).toMatchObject({
      command: 'screen',
      candidates: ['a.diff', 'dir'],
      approve: ['h1', 'h2'],
      approvedBy: 'me',
      runId: 'screen',
      concurrency: 3,
      runner: 'docker',
      out: 'o'
    });
    expect(settings).not.toHaveProperty('proposal');
  });

  it.each([
    [['--approved-by', 'me'], '--candidates is required'],
    [['--candidates', 'a.diff'], '--approved-by is required'],
    [['--candidates', 'a.diff', '--approved-by', 'me', '--early-exit'], '--early-exit is not a screen option'],
    [['--candidates', 'a.diff', '--approved-by', 'me', '--proposal', 'x'], '--proposal is not a screen option']
  ])('refuses %j', (extra, message) => {
    expect(() => readSettings(['screen', ...base, ...extra])).toThrow(ConfigurationError);
    expect(() => readSettings(['screen', ...base, ...extra])).toThrow(message);
  });

  it('takes --receipt-store (where promote finds the candidates and the screening), for screen and for merge of screen shards', () => {
    expect(readSettings(['screen', ...base, '--candidates', 'a.diff', '--approved-by', 'me', '--receipt-store', 'rs'])).toMatchObject({ command: 'screen', receiptStore: 'rs' });
    expect(readSettings(['merge', '--repo', 'r', '--out', 'o', '--receipt-store', 'rs', 's1'])).toEqual({
      command: 'merge',
      repo: 'r',
      out: 'o',
      shards: ['s1'],
      receiptStore: 'rs'
    });
    expect(() => readSettings(['merge', '--out', 'o', '--receipt-store', 'rs', 'r1.json'])).toThrow('--receipt-store is for screen shards (with --repo)');
  });

  it('promote takes --candidate NAME (for a screening receipt)', () => {
    expect(readSettings(['promote', 'screening.json', '--repo', 'r', '--candidate', 'fix'])).toMatchObject({ command: 'promote', receipt: 'screening.json', candidate: 'fix' });
    expect(readSettings(['promote', 'receipt.json', '--repo', 'r'])).not.toHaveProperty('candidate');
  });

  it('takes --shard K/N with --baseline-cache, and refuses other forms', () => {
    const shard = ['--candidates', 'a.diff', '--approved-by', 'me', '--baseline-cache', 'bc'];
    expect(readSettings(['screen', ...base, ...shard, '--shard', '2/3'])).toMatchObject({ command: 'screen', shard: { index: 2, count: 3 }, baselineCache: 'bc' });
    expect(readSettings(['screen', ...base, ...shard])).not.toHaveProperty('shard');
    for (const bad of ['0/2', '3/2', '1/0', '1', '1/2/3', 'a/b', '1/257', ' 1/2']) {
      expect(() => readSettings(['screen', ...base, ...shard, '--shard', bad])).toThrow(`--shard '${bad}' is not valid`);
    }
    expect(() => readSettings(['screen', ...base, '--candidates', 'a.diff', '--approved-by', 'me', '--shard', '1/2'])).toThrow('--shard needs --baseline-cache');
  });

  it('merge takes --repo, --out and the shard folders', () => {
    expect(readSettings(['merge', '--repo', 'r', '--out', 'o', 's1', 's2'])).toEqual({ command: 'merge', repo: 'r', out: 'o', shards: ['s1', 's2'] });
    expect(() => readSettings(['merge', '--repo', 'r', '--out', 'o'])).toThrow('merge takes the shards');
    expect(readSettings(['merge', '--out', 'o', 'r1.json', 'r2.json'])).toEqual({ command: 'merge', out: 'o', shards: ['r1.json', 'r2.json'] });
    expect(() => readSettings(['merge', '--repo', 'r', 's1'])).toThrow('--out is required');
  });

  it('validate takes --shard K/N, never 1/1 and never with --early-exit, --baseline-cache or --claimed', () => {
    const validate = ['validate', ...base, '--proposal', 'p.json', '--approval', 'a.json'];
    expect(readSettings([...validate, '--shard', '2/4'])).toMatchObject({ command: 'validate', shard: { index: 2, count: 4 } });
    expect(() => readSettings([...validate, '--shard', '1/1'])).toThrow('--shard 1/1 is the whole suite');
    expect(() => readSettings([...validate, '--shard', '5/4'])).toThrow("--shard '5/4' is not valid");
    for (const extra of [['--early-exit'], ['--baseline-cache', 'bc'], ['--claimed', 'c.xml']]) {
      expect(() => readSettings([...validate, '--shard', '1/2', ...extra])).toThrow(`--shard cannot go with ${extra[0]}`);
    }
  });

  it('compare takes two receipts; validate takes --early-exit', () => {
    expect(readSettings(['compare', 'a.json', 'b.json'])).toEqual({ command: 'compare', old: 'a.json', new: 'b.json' });
    expect(() => readSettings(['compare', 'a.json'])).toThrow('compare takes two receipts');
    const validate = ['validate', ...base, '--proposal', 'p.json', '--approval', 'a.json'];
    expect(readSettings([...validate, '--early-exit'])).toMatchObject({ command: 'validate', earlyExit: true });
    expect(readSettings(validate)).not.toHaveProperty('earlyExit');
  });
});
