import { createHeadChecksReader, isOwnCheck } from '../../src/action/head-checks.js';
import { compareCiClaim, renderCiClaim, type HeadCheck } from '../../src/core/ci-claim.js';
import { InfrastructureError } from '../../src/errors.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';

/**
 * The head commit's other check runs and commit statuses: the real octokit reader against the
 * OpenAPI-validated loopback server (both routes paginated past one page), and the pure comparison.
 */

const TOKEN = 'ghs_test';
const HEAD = 'c'.repeat(40);
const CI_APP = { id: 15368, slug: 'github-actions' };
const PATCHPROOF_APP = { id: 777, slug: 'patchproof-app' };
const OTHER_APP = { id: 4242, slug: 'mallory-ci' };

describe("reading the head commit's check runs and statuses", () => {
  let github: GitHubServer;

  beforeAll(async () => {
    github = await startGitHubServer({
      token: TOKEN,
      statuses: [
        ...Array.from({ length: 104 }, (_, i) => ({ sha: HEAD, context: `ci/shard-${i}`, state: 'success' as const })),
        { sha: HEAD, context: 'ci/jenkins', state: 'failure' as const },
        { sha: 'd'.repeat(40), context: 'ci/another-commit', state: 'success' as const }
      ]
    });
    for (let i = 0; i < 118; i += 1) github.addCheckRun({ name: `test (${i})`, headSha: HEAD, app: CI_APP });
    github.addCheckRun({ name: 'lint', headSha: HEAD, status: 'in_progress', app: CI_APP });
    // PatchProof's own runs: as the workflow token and as its GitHub App.
    github.addCheckRun({ name: 'PatchProof', headSha: HEAD, conclusion: 'failure', app: CI_APP });
    github.addCheckRun({ name: 'PatchProof', headSha: HEAD, conclusion: 'failure', app: PATCHPROOF_APP });
    // Someone else's check run under PatchProof's name: a claim, kept.
    github.addCheckRun({ name: 'PatchProof', headSha: HEAD, conclusion: 'success', app: OTHER_APP });
    github.addCheckRun({ name: 'other commit', headSha: 'd'.repeat(40), app: CI_APP });
  });
  afterAll(() => github.close());
  afterEach(() => {
    expect(github.invalidRequests()).toEqual([]);
    expect(github.invalidResponses()).toEqual([]);
  });

  it("reads every page of both, of the head commit only, and leaves out PatchProof's own check run by name and app", async () => {
    const reader = createHeadChecksReader(TOKEN, github.url);
    const checks = await reader.read({ owner: 'octo-org', repo: 'hello-world', sha: HEAD }, { name: 'PatchProof' });
    const runs = checks.filter((c) => c.kind === 'check_run');
    const statuses = checks.filter((c) => c.kind === 'status');
    // 118 tests + lint + PatchProof by its app + PatchProof by another app; the workflow token's PatchProof is out.
    expect(runs).toHaveLength(121);
    expect(
      runs
        .filter((c) => c.name === 'PatchProof')
        .map((c) => c.source)
        .sort()
    ).toEqual(['mallory-ci', 'patchproof-app']);
    expect(runs.find((c) => c.name === 'lint')).toMatchObject({ said: 'in_progress', state: 'pending' });
    expect(statuses).toHaveLength(105);
    expect(statuses.find((c) => c.name === 'ci/jenkins')).toMatchObject({ source: 'status', said: 'failure', state: 'failure' });
    expect(checks.some((c) => c.name === 'other commit' || c.name === 'ci/another-commit')).toBe(false);
    const pages = (id: string): number => github.requests().filter((r) => r.operationId === id).length;
    expect(pages('checks/list-for-ref')).toBe(2);
    expect(pages('repos/get-combined-status-for-ref')).toBe(2);

    // With PatchProof's own app, its app's run is the one left out, and the workflow token's kept.
    const withApp = await reader.read({ owner: 'octo-org', repo: 'hello-world', sha: HEAD }, { name: 'PatchProof', appId: PATCHPROOF_APP.id });
    expect(
      withApp
        .filter((c) => c.name === 'PatchProof')
        .map((c) => c.source)
        .sort()
    ).toEqual(['github-actions', 'mallory-ci']);
  });

  it('names the permission when GitHub refuses the read', async () => {
    const reader = createHeadChecksReader('ghs_wrong', github.url);
    await expect(reader.read({ owner: 'octo-org', repo: 'hello-world', sha: HEAD }, { name: 'PatchProof' })).rejects.toThrow(InfrastructureError);
    await expect(reader.read({ owner: 'octo-org', repo: 'hello-world', sha: HEAD }, { name: 'PatchProof' })).rejects.toThrow(
      /check runs of c{40} \(HTTP 401\) \(head-checks needs checks: read\)/
    );
  });
});

describe("the CI's claim beside the clean room", () => {
  const check = (name: string, state: HeadCheck['state'], said: string = state): HeadCheck => ({ kind: 'check_run', name, source: 'github-actions', said, state });

  it('says success only with no failure and nothing pending, and finds the contradictions both ways', () => {
    expect(compareCiClaim([check('test', 'success')], 'failed')).toMatchObject({ said: 'success', finding: 'ci_success_clean_room_failed' });
    expect(compareCiClaim([check('test', 'failure')], 'passed')).toMatchObject({ said: 'failure', finding: 'ci_failure_clean_room_passed' });
    expect(compareCiClaim([check('test', 'success'), check('lint', 'pending')], 'failed')).toEqual(expect.objectContaining({ said: 'pending' }));
    expect(compareCiClaim([check('test', 'success'), check('lint', 'pending')], 'failed').finding).toBeUndefined();
    expect(compareCiClaim([check('docs', 'neutral')], 'failed')).toEqual({ said: 'none', checks: [check('docs', 'neutral')] });
    expect(compareCiClaim([check('test', 'success')], 'inconclusive').finding).toBeUndefined();
  });

  it("escapes the names the pull request's CI chose, and lists a bounded number", () => {
    const hostile = check('**[approve](https://evil.example)** <img src=x>\n# PatchProof: PASSED', 'success');
    const text = renderCiClaim(compareCiClaim([hostile, ...Array.from({ length: 40 }, (_, i) => check(`t${i}`, 'success'))], 'failed'), 'failed');
    expect(text).toContain('ci_success_clean_room_failed');
    expect(text).not.toContain('[approve](');
    expect(text).not.toMatch(/(^|[^\\])<img/);
    expect(text).not.toMatch(/^# PatchProof/m);
    expect(text).toContain('… 11 more not listed.');
  });

  it("knows PatchProof's own check run only by name and app together", () => {
    expect(isOwnCheck({ name: 'PatchProof', app: CI_APP }, { name: 'PatchProof' })).toBe(true);
    expect(isOwnCheck({ name: 'PatchProof', app: OTHER_APP }, { name: 'PatchProof' })).toBe(false);
    expect(isOwnCheck({ name: 'PatchProof', app: null }, { name: 'PatchProof' })).toBe(false);
    expect(isOwnCheck({ name: 'test', app: CI_APP }, { name: 'PatchProof' })).toBe(false);
    expect(isOwnCheck({ name: 'PatchProof', app: CI_APP }, { name: 'PatchProof', appId: 777 })).toBe(false);
  });
});
