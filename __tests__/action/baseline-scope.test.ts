import { actionBaselineStore } from '../../src/action/baseline-store.js';
import { decideBaselineScope, type BaselineScopeInput } from '../../src/action/baseline-scope.js';
import type { TrustDecision } from '../../src/action/trust.js';
import { ConfigurationError } from '../../src/errors.js';
import { readActionSettings } from '../../src/inputs/action-settings.js';
import type { BaselineCache } from '../../src/phases/baseline-cache.js';

/**
 * Who may read and write the baseline cache in the Actions cache (decideBaselineScope), the input
 * that turns it on, and that a run outside the trusted scope never opens the store. The store
 * itself, against the loopback cache service, is in baseline-cache-e2e.test.ts.
 */

const trusted: TrustDecision = { trusted: true, workflowRef: 'o/r/.github/workflows/g.yml@refs/heads/main' };
const payload = { repository: { full_name: 'o/r', default_branch: 'main' } };
const decide = (input: Partial<BaselineScopeInput>) => decideBaselineScope({ eventName: 'pull_request_target', ref: 'refs/heads/main', payload, trust: trusted, ...input });

describe('decideBaselineScope', () => {
  it.each(['pull_request_target', 'workflow_dispatch', 'workflow_run', 'push', 'schedule'])('uses the cache on %s when GITHUB_REF is the default branch', (eventName) => {
    expect(decide({ eventName })).toEqual({ use: true, scope: 'refs/heads/main' });
  });

  it.each([
    [{ eventName: 'pull_request', ref: 'refs/pull/7/merge' }, "on pull_request the job is the pull request's own workflow"],
    // Even with a ref that claims the default branch: the job is still the pull request's workflow.
    [{ eventName: 'pull_request', ref: 'refs/heads/main' }, "on pull_request the job is the pull request's own workflow"],
    [{ eventName: 'issue_comment' }, 'the event issue_comment is not one of'],
    [{ ref: 'refs/heads/release' }, "the cache scope GITHUB_REF 'refs/heads/release' is not the default branch refs/heads/main"],
    [{ eventName: 'workflow_dispatch', ref: 'refs/heads/feature' }, "GITHUB_REF 'refs/heads/feature' is not the default branch"],
    [{ ref: undefined }, "GITHUB_REF '' is not the default branch"],
    [{ payload: { repository: {} } }, 'the event payload has no repository.default_branch'],
    [{ payload: null }, 'the event payload has no repository.default_branch'],
    [{ trust: { trusted: false, why: 'x' } as TrustDecision }, "the workflow file is not out of the pull request's reach"]
  ])('is off for %j, saying why in one line', (input, why) => {
    const decision = decide(input);
    expect(decision.use).toBe(false);
    const said = 'why' in decision ? decision.why : '';
    expect(said).toMatch(/^baseline-cache is off for this run: /);
    expect(said).toContain(why);
  });
});

describe('actionBaselineStore', () => {
  const store: BaselineCache = {
    read: () => Promise.resolve({ miss: 'test' }),
    write: () => Promise.resolve(undefined)
  };
  const run = { eventName: 'pull_request_target', ref: 'refs/heads/main', payload, trust: trusted, runnerTemp: '/runner/temp' };

  it('opens the store in RUNNER_TEMP/patchproof-baseline-cache only when asked and trusted', () => {
    const infos: string[] = [];
    const folders: string[] = [];
    const outcome = { info: (l: string) => infos.push(l), warning: (l: string) => infos.push(`warning: ${l}`) };
    const factory = (folder: string) => {
      folders.push(folder);
      return store;
    };
    expect(actionBaselineStore({}, run, outcome, factory)).toBeUndefined();
    expect(actionBaselineStore({ baselineCache: true }, { ...run, eventName: 'pull_request', ref: 'refs/pull/7/merge' }, outcome, factory)).toBeUndefined();
    expect(folders).toEqual([]);
    expect(infos).toEqual([expect.stringMatching(/^baseline-cache is off for this run: on pull_request /)]);
    expect(actionBaselineStore({ baselineCache: true }, run, outcome, factory)).toBe(store);
    expect(folders).toEqual(['/runner/temp/patchproof-baseline-cache']);
  });
});

describe('input baseline-cache', () => {
  const base = { 'github-token': 't', mode: 'validate', runner: 'local', 'witness-pack': 'p', 'witness-digest': `sha256:${'0'.repeat(64)}` };
  const read = (inputs: Record<string, string>) => readActionSettings((name) => ({ ...base, ...inputs })[name] ?? '');

  it('is off by default and on with true', () => {
    expect(read({})).not.toHaveProperty('baselineCache');
    expect(read({ 'baseline-cache': 'false' })).not.toHaveProperty('baselineCache');
    expect(read({ 'baseline-cache': 'TRUE' }).baselineCache).toBe(true);
  });

  it.each([
    [{ 'baseline-cache': 'yes' }, "baseline-cache 'yes' is not valid; use true or false"],
    [{ mode: 'reverify', 'run-id': '7', 'baseline-cache': 'true' }, 'baseline-cache is for mode validate only; remove it from mode reverify']
  ])('refuses %j in one line naming the input', (inputs, message) => {
    expect(() => read(inputs)).toThrow(new ConfigurationError(message));
  });
});
