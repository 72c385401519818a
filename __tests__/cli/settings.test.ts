import { readSettings } from '../../src/inputs/cli-settings.js';
import { ConfigurationError } from '../../src/errors.js';

const validateArgs = [
  'validate',
  '--repo',
  'r',
  '--proposal',
  'p',
  '--approval',
  'a',
  '--reproduction',
  'rep',
  '--hidden',
  'h',
  '--adapter',
  'node-test',
  '--runner',
  'local',
  '--out',
  'o'
];

describe('readSettings', () => {
  it("reads validate with the folder shortcut; limits stay the witness pack's unless given", () => {
    expect(readSettings(validateArgs)).toEqual({
      command: 'validate',
      repo: 'r',
      proposal: 'p',
      approval: 'a',
      runner: 'local',
      out: 'o',
      concurrency: 2,
      witness: { kind: 'folders', reproduction: 'rep', hidden: 'h', adapter: 'node-test' },
      container: { env: {} }
    });
    expect(readSettings([...validateArgs, '--timeout', '30', '--max-diff-files', '5'])).toMatchObject({ timeoutMs: 30_000, maxDiffFiles: 5 });
  });
  it('reads the container layout options (docker only), --container-env repeatable', () => {
    const docker = validateArgs.map((arg) => (arg === 'local' ? 'docker' : arg));
    const args = [
      ...docker,
      '--image',
      `sha256:${'b'.repeat(64)}`,
      '--container-workdir',
      '/w/x',
      '--container-user',
      '1000:1000',
      '--container-env',
      'A=1',
      '--container-env=B=x=y'
    ];
    expect(readSettings(args)).toMatchObject({ container: { workdir: '/w/x', user: '1000:1000', env: { A: '1', B: 'x=y' } } });
    expect(() => readSettings([...docker, '--image', `sha256:${'b'.repeat(64)}`, '--container-env', 'novalue'])).toThrow(/NAME=VALUE/);
    expect(() => readSettings([...validateArgs, '--container-user', '1:1'])).toThrow(/only for --runner docker/);
  });
  it('reads validate with a witness pack and its digest', () => {
    const args = [
      'validate',
      '--repo',
      'r',
      '--proposal',
      'p',
      '--approval',
      'a',
      '--witness',
      'pack.tar.gz',
      '--witness-digest',
      `sha256:${'a'.repeat(64)}`,
      '--runner',
      'local',
      '--out',
      'o'
    ];
    expect(readSettings(args)).toMatchObject({ witness: { kind: 'pack', source: 'pack.tar.gz', digest: `sha256:${'a'.repeat(64)}` } });
  });
  it('reads the witness commands', () => {
    expect(readSettings(['witness', 'init', 'd', '--adapter', 'unittest'])).toEqual({ command: 'witness-init', dir: 'd', adapter: 'unittest' });
    expect(readSettings(['witness', 'digest', 'd'])).toEqual({ command: 'witness-digest', dir: 'd' });
    expect(readSettings(['witness', 'pack', 'd', '--out', 'x.tar.gz'])).toEqual({ command: 'witness-pack', dir: 'd', out: 'x.tar.gz' });
  });
  it('returns help for no command', () => {
    expect(readSettings([])).toBe('help');
    expect(readSettings(['--help'])).toBe('help');
  });
  it.each([
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['propose', '--repo', 'r', '--out', 'o'], /--diff is required/],
    [['propose', '--repo', 'r', '--diff', 'd', '--out', 'o', '--bogus', 'x'], /Unknown option '--bogus'/],
    [['propose', '--repo', 'r', '--diff', 'd', '--out', 'o', 'stray'], /unexpected argument 'stray'/],
    [[...validateArgs.slice(0, -2), '--out', 'o', '--timeout', '0'], /--timeout '0' is not valid/],
    [[...validateArgs, '--timeout', '1.5'], /--timeout '1.5' is not valid/],
    [validateArgs.map((a) => (a === 'node-test' ? 'mocha' : a)), /--adapter 'mocha' is unknown; use one of: node-test, pytest, unittest/],
    [validateArgs.map((a) => (a === 'local' ? 'ssh' : a)), /--runner 'ssh' is unknown/],
    [validateArgs.map((a) => (a === 'local' ? 'docker' : a)), /--image is required with --runner docker/],
    [[...validateArgs, '--image', 'x'], /--image is only for --runner docker/],
    [['verify-receipt'], /exactly one receipt file/],
    [['approve', '--proposal', 'p', '--proposal-hash', 'h', '--approved-by', 'a', '--out', 'o'], /--run-id is required/],
    [[...validateArgs, '--witness', 'w'], /either --witness with --witness-digest, or --reproduction with --hidden, not both/],
    [validateArgs.filter((a, i) => !['--reproduction', 'rep', '--hidden', 'h'].includes(a) || i < 0), /--witness is required/],
    [['validate', '--witness', 'w', '--repo', 'r', '--proposal', 'p', '--approval', 'a'], /--witness-digest is required/],
    [['witness', 'frob'], /unknown witness command 'frob'/],
    [['witness', 'init', 'd'], /--adapter is required/],
    [['witness', 'pack', 'd'], /--out is required/]
  ])('refuses %j with one clear line', (argv, message) => {
    let caught: unknown;
    try {
      readSettings(argv);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigurationError);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).not.toContain('\n');
  });
});
