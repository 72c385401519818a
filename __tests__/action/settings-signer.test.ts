import { readActionSettings } from '../../src/inputs/action-settings.js';
import { ConfigurationError } from '../../src/errors.js';

/** The reverify inputs for signed receipts: signer-workflow and trusted-root. */

const base = { 'github-token': 't', mode: 'reverify', 'run-id': '7' };
const read = (inputs: Record<string, string>) => readActionSettings((name) => ({ ...base, ...inputs })[name] ?? '');

describe('signer-workflow and trusted-root inputs', () => {
  it('are optional, and kept as given', () => {
    expect(read({})).not.toHaveProperty('signerWorkflow');
    expect(read({})).not.toHaveProperty('trustedRoot');
    expect(read({ 'signer-workflow': 'octo/patchproof/.github/workflows/patchproof.yml', 'trusted-root': '/tmp/root.json' })).toMatchObject({
      signerWorkflow: 'octo/patchproof/.github/workflows/patchproof.yml',
      trustedRoot: '/tmp/root.json'
    });
  });

  it.each([
    'octo/patchproof',
    'octo/patchproof/.github/workflows/x.yml@refs/heads/main',
    'octo/patchproof/workflows/x.yml',
    '../x/.github/workflows/x.yml',
    'octo/p/.github/workflows/a/b.yml'
  ])('refuse signer-workflow %s, naming the accepted form', (value) => {
    expect(() => read({ 'signer-workflow': value })).toThrow(new ConfigurationError(`signer-workflow '${value}' is not valid; give OWNER/REPO/.github/workflows/FILE.yml`));
  });
});
