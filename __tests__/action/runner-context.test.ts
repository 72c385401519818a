import { readRunnerContext } from '../../src/inputs/runner-context.js';
import { ConfigurationError } from '../../src/errors.js';

/** The one reader of the runner's GITHUB_* and RUNNER_* variables (src/inputs/runner-context.ts). */

const full: NodeJS.ProcessEnv = {
  GITHUB_EVENT_NAME: 'pull_request_target',
  GITHUB_EVENT_PATH: '/runner/event.json',
  GITHUB_REF: 'refs/heads/main',
  GITHUB_SHA: 'a'.repeat(40),
  GITHUB_REPOSITORY: 'octo-org/hello-world',
  GITHUB_WORKSPACE: '/runner/work',
  RUNNER_TEMP: '/runner/temp',
  GITHUB_ACTOR: 'octocat',
  GITHUB_RUN_ID: '4242',
  GITHUB_RUN_ATTEMPT: '3',
  GITHUB_WORKFLOW_REF: 'octo-org/hello-world/.github/workflows/patchproof.yml@refs/heads/main',
  GITHUB_API_URL: 'http://127.0.0.1:1/api',
  GITHUB_SERVER_URL: 'http://127.0.0.1:1'
};

describe('readRunnerContext', () => {
  it('reads every variable into its field', () => {
    expect(readRunnerContext(full, [])).toEqual({
      eventName: 'pull_request_target',
      eventPath: '/runner/event.json',
      ref: 'refs/heads/main',
      sha: 'a'.repeat(40),
      repository: 'octo-org/hello-world',
      workspace: '/runner/work',
      runnerTemp: '/runner/temp',
      actor: 'octocat',
      runId: '4242',
      runAttempt: '3',
      workflowRef: 'octo-org/hello-world/.github/workflows/patchproof.yml@refs/heads/main',
      apiUrl: 'http://127.0.0.1:1/api',
      serverUrl: 'http://127.0.0.1:1'
    });
  });

  it('leaves an unset or empty variable undefined, and defaults the run attempt and the two roots', () => {
    const context = readRunnerContext({ GITHUB_REF: '', GITHUB_RUN_ATTEMPT: '', GITHUB_API_URL: '' }, []);
    expect(context.ref).toBeUndefined();
    expect(context.workflowRef).toBeUndefined();
    expect(context.runAttempt).toBe('1');
    expect(context.apiUrl).toBe('https://api.github.com');
    expect(context.serverUrl).toBe('https://github.com');
  });

  it.each([
    ['GITHUB_SHA', 'sha'],
    ['RUNNER_TEMP', 'runnerTemp'],
    ['GITHUB_EVENT_PATH', 'eventPath']
  ] as const)('refuses a required %s that is unset or empty, naming it', (variable, field) => {
    for (const value of [undefined, '']) {
      const env = { ...full, [variable]: value };
      expect(() => readRunnerContext(env, ['eventName', field])).toThrow(ConfigurationError);
      expect(() => readRunnerContext(env, ['eventName', field])).toThrow(`${variable} is not set; run PatchProof as a step of a GitHub Actions job`);
      // Not required: read as undefined, no error.
      expect(readRunnerContext(env, ['eventName'])[field]).toBeUndefined();
    }
  });

  it('refuses a required run attempt that is unset, where it is never defaulted', () => {
    const env = { ...full, GITHUB_RUN_ATTEMPT: undefined };
    expect(readRunnerContext(env, ['runId']).runAttempt).toBe('1');
    expect(() => readRunnerContext(env, ['runId', 'runAttempt'])).toThrow('GITHUB_RUN_ATTEMPT is not set');
  });

  it('names the first missing variable in the order the mode gives', () => {
    expect(() => readRunnerContext({}, ['runnerTemp', 'eventName'])).toThrow('RUNNER_TEMP is not set');
    expect(() => readRunnerContext({}, ['eventName', 'runnerTemp'])).toThrow('GITHUB_EVENT_NAME is not set');
  });
});
