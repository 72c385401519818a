import { ConfigurationError } from '../../src/errors.js';
import { parseWitnessManifest, WITNESS_SCHEMA } from '../../src/fetch/witness/manifest.js';

/** The dependency stage block of witness.json: defaults, and one-line refusals. */

const SOURCE = 'witness.json';
const base = { schema: WITNESS_SCHEMA, adapter: 'node-test' };

function refusal(setup: unknown, extra: Record<string, unknown> = {}): string {
  try {
    parseWitnessManifest({ ...base, ...extra, setup }, SOURCE);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a refusal');
}

describe('witness.json setup', () => {
  it('is absent unless given', () => {
    expect(parseWitnessManifest(base, SOURCE).setup).toBeUndefined();
  });

  it('fills network off, no env and a ten-minute limit by default', () => {
    const manifest = parseWitnessManifest({ ...base, setup: { argv: ['npm', 'ci'], outputs: ['node_modules'] } }, SOURCE);
    expect(manifest.setup).toEqual({ argv: ['npm', 'ci'], network: false, outputs: ['node_modules'], env: {}, timeout_seconds: 600 });
  });

  it('keeps every field given', () => {
    const setup = {
      argv: ['npm', 'ci', '--ignore-scripts'],
      candidate_argv: ['npm', 'install', '--ignore-scripts'],
      network: true,
      outputs: ['node_modules', '.patchproof/deps/cache'],
      env: { npm_config_cache: '/tmp/npm' },
      timeout_seconds: 90
    };
    expect(parseWitnessManifest({ ...base, setup }, SOURCE).setup).toEqual(setup);
  });

  it('refuses an empty command or no outputs', () => {
    expect(refusal({ argv: [], outputs: ['node_modules'] })).toMatch(/setup\.argv is an empty list; expected a non-empty list/);
    expect(refusal({ argv: ['npm'], outputs: [] })).toMatch(/setup\.outputs is an empty list/);
    expect(refusal({ outputs: ['node_modules'] })).toMatch(/setup\.argv is missing/);
  });

  it('refuses an unknown field, naming the known ones', () => {
    expect(refusal({ argv: ['x'], outputs: ['o'], shell: 'sh' })).toMatch(/unknown field setup\.shell; expected only argv, candidate_argv, network, outputs, env, timeout_seconds/);
  });

  it('refuses overriding what the runner sets, and bad variable names', () => {
    expect(refusal({ argv: ['x'], outputs: ['o'], env: { PATH: '/evil' } })).toMatch(/setup\.env\.PATH/);
    expect(refusal({ argv: ['x'], outputs: ['o'], env: { HOME: '/evil' } })).toMatch(/setup\.env\.HOME/);
    expect(refusal({ argv: ['x'], outputs: ['o'], env: { 'A-B': '1' } })).toMatch(/setup\.env/);
  });

  it('refuses outputs outside the repository, in .git, over the harness or the placements, or overlapping', () => {
    expect(refusal({ argv: ['x'], outputs: ['../node_modules'] })).toMatch(/setup\.outputs\[0\] '\.\.\/node_modules'/);
    expect(refusal({ argv: ['x'], outputs: ['/abs'] })).toMatch(/setup\.outputs\[0\]/);
    expect(refusal({ argv: ['x'], outputs: ['.git/x'] })).toMatch(/setup\.outputs\[0\]/);
    expect(refusal({ argv: ['x'], outputs: ['.patchproof/harness/x'] })).toMatch(/overlaps '\.patchproof\/harness'/);
    expect(refusal({ argv: ['x'], outputs: ['.patchproof/reproduction'] })).toMatch(/setup\.outputs\[0\] '\.patchproof\/reproduction' overlaps/);
    expect(refusal({ argv: ['x'], outputs: ['deps', 'deps/inner'] })).toMatch(/setup\.outputs\[1\] 'deps\/inner' overlaps 'deps'/);
  });
});

describe('witness.json env (issue 28 item 6: the variables a plain run of the suite has)', () => {
  const envRefusal = (env: unknown): string => {
    try {
      parseWitnessManifest({ ...base, env }, SOURCE);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return (error as Error).message;
    }
    throw new Error('expected a refusal');
  };
  it('is absent unless given, and kept as given', () => {
    expect(parseWitnessManifest(base, SOURCE).env).toBeUndefined();
    expect(parseWitnessManifest({ ...base, env: { NO_COLOR: '1', TZ: 'Europe/Paris' } }, SOURCE).env).toEqual({ NO_COLOR: '1', TZ: 'Europe/Paris' });
  });
  it("refuses the runner's variables, the grader's names and malformed entries, naming the field", () => {
    expect(envRefusal({ PATH: '/evil' })).toMatch(/env\.PATH/);
    expect(envRefusal({ PATCHPROOF_CHANNEL: 'x' })).toMatch(/env\.PATCHPROOF_CHANNEL/);
    expect(envRefusal({ 'A-B': 'x' })).toMatch(/env/);
    expect(envRefusal({ A: 1 })).toMatch(/env\.A/);
  });
});
