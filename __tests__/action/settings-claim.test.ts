import { readActionSettings } from '../../src/inputs/action-settings.js';
import { ConfigurationError } from '../../src/errors.js';

/** The validate inputs for the agent's claim: claimed-artifact, claimed-run-id, claimed inside it, head-checks. */

const base = { 'github-token': 't', mode: 'validate', runner: 'local', 'witness-pack': 'p', 'witness-digest': `sha256:${'0'.repeat(64)}` };
const read = (inputs: Record<string, string>) => readActionSettings((name) => ({ ...base, ...inputs })[name] ?? '');

describe('claimed-artifact, claimed-run-id and head-checks', () => {
  it('are optional, and kept as given', () => {
    expect(read({})).not.toHaveProperty('claimedArtifact');
    expect(read({})).not.toHaveProperty('headChecks');
    expect(read({ 'claimed-artifact': 'agent-junit', 'claimed-run-id': '4242', claimed: 'reports/junit.xml', 'head-checks': 'true' })).toMatchObject({
      claimedArtifact: { name: 'agent-junit', runId: 4242 },
      claimed: 'reports/junit.xml',
      headChecks: true
    });
    expect(read({ 'claimed-artifact': 'agent-junit' }).claimedArtifact).toEqual({ name: 'agent-junit' });
  });

  it.each([
    [{ 'claimed-artifact': 'a/b' }, "claimed-artifact 'a/b' is not an artifact name; give the name the pull request's CI uploaded its results under"],
    [{ 'claimed-artifact': 'x'.repeat(257) }, `claimed-artifact '${'x'.repeat(100)}' is not an artifact name; give the name the pull request's CI uploaded its results under`],
    [{ 'claimed-artifact': 'a', 'claimed-run-id': '0' }, "claimed-run-id '0' is not a workflow run id"],
    [{ 'claimed-run-id': '42' }, "claimed-run-id is set without claimed-artifact; give the artifact's name too"],
    [{ 'claimed-artifact': 'a', claimed: '../../etc/passwd' }, "claimed '../../etc/passwd' is not a path inside the artifact; give it relative, with / (e.g. reports/junit.xml)"],
    [{ 'claimed-artifact': 'a', claimed: '/etc/passwd' }, "claimed '/etc/passwd' is not a path inside the artifact; give it relative, with / (e.g. reports/junit.xml)"],
    [{ 'head-checks': 'yes' }, "head-checks 'yes' is not valid; use true or false"],
    [{ mode: 'reverify', 'run-id': '7', 'claimed-artifact': 'a' }, 'claimed-artifact and claimed-run-id are for mode validate only; remove them from mode reverify'],
    [{ mode: 'reverify', 'run-id': '7', 'head-checks': 'true' }, 'head-checks is for mode validate only; remove it from mode reverify']
  ])('refuse %j in one line naming the input', (inputs, message) => {
    expect(() => read(inputs)).toThrow(new ConfigurationError(message));
  });
});
