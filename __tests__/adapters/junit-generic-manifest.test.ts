import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../../src/errors.js';
import { parseWitnessManifest, WITNESS_SCHEMA } from '../../src/fetch/witness/manifest.js';
import { DATA_DIR } from './data/run-adapter.js';

/** The manifest's `junit` block: required with the junit adapter, refused with others, checked. */

const SOURCE = 'witness.json';
const junit = {
  argv: ['node', '--test', '--test-reporter=junit', '--test-reporter-destination={results}/junit.xml', '{files}'],
  report: 'junit.xml',
  tests: ['**/*.test.js'],
  canary: { path: 'canary', pass: 'q7 > test.a41c', fail: 'q7 > test.b7d2' }
};
const manifest = { schema: WITNESS_SCHEMA, adapter: 'junit', junit };

function refusal(value: unknown): string {
  try {
    parseWitnessManifest(value, SOURCE);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a refusal');
}

const withJunit = (patch: Record<string, unknown>) => ({ ...manifest, junit: { ...junit, ...patch } });

describe('the junit block of witness.json', () => {
  it('is kept as given, and the junit-semver pack reads', () => {
    expect(parseWitnessManifest(manifest, SOURCE).junit).toEqual(junit);
    const pack = path.join(DATA_DIR, '..', '..', '..', 'witness-packs', 'junit-semver', 'witness.json');
    expect(parseWitnessManifest(JSON.parse(readFileSync(pack, 'utf8')), pack).junit?.canary.path).toBe('canary');
    expect(parseWitnessManifest({ schema: WITNESS_SCHEMA, adapter: 'node-test' }, SOURCE)).not.toHaveProperty('junit');
  });

  it.each([
    [
      'missing with the junit adapter',
      { schema: WITNESS_SCHEMA, adapter: 'junit' },
      'junit is missing (the junit adapter runs only what it says); expected an object with argv, report, tests and canary'
    ],
    ['given with another adapter', { ...manifest, adapter: 'node-test' }, 'junit is given with the node-test adapter; expected no junit block, or "adapter": "junit".'],
    ['an argv without {files}', withJunit({ argv: ['node', '--test'] }), 'junit.argv has {files} nowhere'],
    ['{files} inside an element', withJunit({ argv: ['sh', '-c', 'node --test {files}'] }), 'junit.argv has {files} inside a longer element'],
    ['an empty argv', withJunit({ argv: [] }), 'junit.argv is an empty list; expected a non-empty list of strings'],
    ['an empty argv element', withJunit({ argv: ['node', '', '{files}'] }), "junit.argv[1] is ''; expected a non-empty string."],
    ['an absolute report', withJunit({ report: '/tmp/junit.xml' }), "junit.report '/tmp/junit.xml' is absolute"],
    ['a report leaving the results folder', withJunit({ report: '../junit.xml' }), "junit.report '../junit.xml' has a '.', '..' or empty segment"],
    ['no test globs', withJunit({ tests: [] }), 'junit.tests is an empty list; expected a non-empty list of globs of test files'],
    ['a negated test glob', withJunit({ tests: ['**/*.js', '!x.js'] }), "junit.tests[1] '!x.js' is a negation"],
    ['a missing canary', withJunit({ canary: undefined }), 'junit.canary is missing; expected an object with path, pass and fail.'],
    ['one canary id for both', withJunit({ canary: { path: 'canary', pass: 'a', fail: 'a' } }), 'junit.canary.fail is the same id as junit.canary.pass'],
    ['a canary folder leaving the pack', withJunit({ canary: { path: '../canary', pass: 'a', fail: 'b' } }), "junit.canary.path '../canary'"],
    [
      'the canary folder inside the hidden tests',
      withJunit({ canary: { path: 'hidden/canary', pass: 'a', fail: 'b' } }),
      "junit.canary.path 'hidden/canary' overlaps hidden.path 'hidden'"
    ],
    ['an unknown field', withJunit({ shell: true }), 'unknown field junit.shell; expected only argv, report, tests, canary.'],
    ['an unknown canary field', withJunit({ canary: { path: 'canary', pass: 'a', fail: 'b', nonce: 'x' } }), 'unknown field junit.canary.nonce; expected only path, pass, fail.']
  ])('refuses %s in one line', (_what, value, message) => {
    expect(refusal(value)).toContain(`${SOURCE}: ${message}`);
  });
});
