import { describe, expect, it } from '@jest/globals';
import { runNames } from '../../src/core/run-names.js';

/** One run's neutral names (src/core/run-names.ts): what a test process sees, and the way back. */

const SEED = '0123456789abcdef0123456789abcdef';
const NAMES = ['PATCHPROOF_CANARY_ORDER', 'PATCHPROOF_CHANNEL', 'patchproof_canary', 'patchproof-jest-channel', 'patchproof-vitest-config-'];

describe('runNames', () => {
  const names = runNames(SEED, { names: NAMES });

  it.each([
    ['a harness path', '/home/runner/work/project/project/.patchproof/harness/patchproof-reporter.mjs'],
    ['an environment variable', 'PATCHPROOF_CANARY_ORDER'],
    ['a module', '-p patchproof_canary'],
    ['a wrapper', '.patchproof/harness/jest/test/money.test.js.patchproof.cjs'],
    ['generated code', "// PatchProof jest wrapper\nconst patchproofGlobals = require('@jest/globals');"],
    ['a temp folder prefix', "mkdtempSync(path.join(os.tmpdir(), 'patchproof-vitest-config-'))"]
  ])('hides %s: no marker word, no registered name, and reveal gives it back', (_what, text) => {
    const hidden = names.hide(text);
    expect(hidden).not.toMatch(/patchproof/i);
    for (const name of NAMES) expect(hidden).not.toContain(name.replace(/-$/, ''));
    // The words that said what a name was for go with it.
    expect(hidden).not.toMatch(/canary|channel|vitest-config/i);
    expect(names.reveal(hidden)).toBe(text);
  });

  it('keeps the shape a path or identifier needs: folders, dots, case, a trailing dash', () => {
    const hidden = names.hide('.patchproof/harness/x.patchproof.cjs');
    expect(hidden).toMatch(/^\.[a-z]{10}\/harness\/x\.[a-z]{10}\.cjs$/);
    expect(names.hide('PATCHPROOF_CHANNEL')).toMatch(/^[A-Z]{12}$/);
    expect(names.hide('patchproof_canary.py')).toMatch(/^[a-z]{12}\.py$/);
    expect(names.hide('patchproof-vitest-config-')).toMatch(/^[a-z]{12}-$/);
    // Case by case, letter by letter: `PatchProof` and `PATCHPROOF` stay distinct, and valid identifiers.
    const mixed = names.hide('class PatchProofChannel {}');
    expect(mixed).toMatch(/^class [A-Z][a-z]{4}[A-Z][a-z]{4}Channel \{\}$/);
    expect(names.reveal(mixed)).toBe('class PatchProofChannel {}');
  });

  it('is one mapping per run: the same name everywhere in the run, another in the next run', () => {
    expect(names.hide('PATCHPROOF_CHANNEL=1')).toBe(`${names.hide('PATCHPROOF_CHANNEL')}=1`);
    expect(names.hide('a/.patchproof/b')).toBe(`a/${names.hide('.patchproof')}/b`);
    const other = runNames('fedcba9876543210fedcba9876543210', { names: NAMES });
    expect(other.hide('.patchproof')).not.toBe(names.hide('.patchproof'));
    expect(other.hide('PATCHPROOF_CHANNEL')).not.toBe(names.hide('PATCHPROOF_CHANNEL'));
  });

  it("leaves the repository's own paths that hold the word as they are", () => {
    const kept = runNames(SEED, { names: NAMES, keep: ['test/patchproof_x.test.js', 'test/plain.test.js'] });
    const text = "import('../../test/patchproof_x.test.js'); // .patchproof/harness/test/patchproof_x.test.js.patchproof.cjs";
    const hidden = kept.hide(text);
    expect(hidden.match(/test\/patchproof_x\.test\.js/g)).toHaveLength(2);
    expect(hidden).toMatch(/\/\/ \.[a-z]{10}\/harness\/test\/patchproof_x\.test\.js\.[a-z]{10}\.cjs$/);
    expect(kept.reveal(hidden)).toBe(text);
  });

  it('puts the names back in whatever the run printed around them', () => {
    const channel = names.hide('PATCHPROOF_CHANNEL');
    const path = names.hide('.patchproof/reproduction/test_x.py');
    const output = `${path}::test_a FAILED\n@@${names.hide('patchproof-frame')} abc test {"id":"${path}::test_a"}\nenv ${channel} is set\n`;
    expect(names.reveal(output)).toBe(
      `.patchproof/reproduction/test_x.py::test_a FAILED\n@@patchproof-frame abc test {"id":".patchproof/reproduction/test_x.py::test_a"}\nenv PATCHPROOF_CHANNEL is set\n`
    );
  });

  it('hides the last folder of a registered folder path whole, the folders above it as any text, at the same depth', () => {
    const paths = runNames(SEED, { names: ['.patchproof/harness/canary'] });
    const hidden = paths.hide('node --test .patchproof/harness/canary/must-fail.test.js .patchproof/harness/x.js');
    expect(hidden).toMatch(/^node --test \.[a-z]{10}\/harness\/[a-z]{12}\/must-fail\.test\.js \.[a-z]{10}\/harness\/x\.js$/);
    expect(hidden).not.toMatch(/canary|patchproof/i);
    expect(paths.reveal(hidden)).toBe('node --test .patchproof/harness/canary/must-fail.test.js .patchproof/harness/x.js');
    expect(() => runNames(SEED, { names: ['tests/canary'] })).toThrow("holding 'patchproof'");
  });

  it('refuses a name without the marker word (nothing else is ever renamed) and a short seed', () => {
    expect(() => runNames(SEED, { names: ['harness'] })).toThrow("holding 'patchproof'");
    expect(() => runNames(SEED, { names: ['patch proof'] })).toThrow('is not a word');
    expect(() => runNames('short', {})).toThrow('at least 16 characters');
  });
});
