import { readSettings } from '../../src/cli/settings.js';
import { ConfigurationError } from '../../src/errors.js';

const validateArgs = ['validate', '--repo', 'r', '--proposal', 'p', '--approval', 'a', '--reproduction', 'rep', '--hidden', 'h', '--adapter', 'node-test', '--runner', 'local', '--out', 'o'];

describe('readSettings', () => {
  it('reads validate with documented defaults', () => {
    expect(readSettings(validateArgs)).toEqual({
      command: 'validate', repo: 'r', proposal: 'p', approval: 'a', reproduction: 'rep', hidden: 'h', adapter: 'node-test', runner: 'local', out: 'o',
      timeoutMs: 300_000, outputLimitBytes: 4 * 1024 * 1024, concurrency: 2, maxDiffBytes: 1024 * 1024, maxDiffFiles: 200
    });
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
    [validateArgs.map((a) => (a === 'node-test' ? 'mocha' : a)), /--adapter 'mocha' is unknown; use one of: node-test, unittest/],
    [validateArgs.map((a) => (a === 'local' ? 'ssh' : a)), /--runner 'ssh' is unknown/],
    [validateArgs.map((a) => (a === 'local' ? 'docker' : a)), /--image is required with --runner docker/],
    [[...validateArgs, '--image', 'x'], /--image is only for --runner docker/],
    [['verify-receipt'], /exactly one receipt file/],
    [['approve', '--proposal', 'p', '--proposal-hash', 'h', '--approved-by', 'a', '--out', 'o'], /--run-id is required/]
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
