import { readActionSettings } from '../../src/inputs/action-settings.js';
import { ConfigurationError } from '../../src/errors.js';

/** The setup check's inputs: expected-app, app-environment, gate-workflow, settings-token; mode doctor only. */

const read = (inputs: Record<string, string>) => readActionSettings((name) => ({ 'github-token': 't', mode: 'doctor', ...inputs })[name] ?? '');

describe('mode doctor', () => {
  it('needs no witness, image or run id; defaults: the gate file docs/action.md has users copy, the check name PatchProof', () => {
    const settings = read({});
    expect(settings).toMatchObject({ mode: 'doctor', checkName: 'PatchProof', doctor: { gateWorkflow: '.github/workflows/patchproof-gate.yml' } });
    expect(settings.doctor).toEqual({ gateWorkflow: '.github/workflows/patchproof-gate.yml' });
  });

  it('keeps each input as given: an App by id or by slug, the environment, the gate file, the settings token, the head', () => {
    expect(
      read({ 'expected-app': '424242', 'app-environment': 'patchproof', 'gate-workflow': '.github/workflows/gate.yaml', 'settings-token': 'github_pat_x', head: 'b'.repeat(40) })
    ).toMatchObject({
      doctor: { expectedApp: { id: 424242 }, appEnvironment: 'patchproof', gateWorkflow: '.github/workflows/gate.yaml', settingsToken: 'github_pat_x' },
      head: 'b'.repeat(40)
    });
    expect(read({ 'expected-app': 'patchproof-gate' }).doctor?.expectedApp).toEqual({ slug: 'patchproof-gate' });
  });

  it.each([
    [{ 'expected-app': 'Not An App!' }, "expected-app 'Not An App!' is neither a GitHub App id nor an app slug; give the number or the slug from the app's page"],
    [{ 'expected-app': '0' }, "expected-app '0' is neither a GitHub App id nor an app slug; give the number or the slug from the app's page"],
    [
      { 'gate-workflow': '../other/.github/workflows/x.yml' },
      "gate-workflow '../other/.github/workflows/x.yml' is not a workflow file of this repository; give .github/workflows/FILE.yml"
    ],
    [
      { 'gate-workflow': 'owner/repo/.github/workflows/x.yml' },
      "gate-workflow 'owner/repo/.github/workflows/x.yml' is not a workflow file of this repository; give .github/workflows/FILE.yml"
    ],
    [{ 'app-environment': 'a\nb' }, 'app-environment is not an environment name; give the name of the environment whose secrets hold the App key, e.g. patchproof'],
    [{ mode: 'reverify', 'run-id': '7', 'expected-app': '1' }, 'expected-app is for mode doctor only; remove it from mode reverify'],
    [{ mode: 'reverify', 'run-id': '7', 'settings-token': 'x' }, 'settings-token is for mode doctor only; remove it from mode reverify'],
    [{ mode: 'doctor', head: 'main' }, "head 'main' is not a full commit SHA; give the 40-hex commit id"]
  ])('%o is refused: %s', (inputs, message) => {
    expect(() => read(inputs)).toThrow(ConfigurationError);
    expect(() => read(inputs)).toThrow(message);
  });

  it('an unknown mode names doctor among the modes', () => {
    expect(() => read({ mode: 'doktor' })).toThrow("mode 'doktor' is unknown; use validate, validate-merge, reverify, promote, screen, screen-merge or doctor");
  });
});
