import { generateKeyPairSync } from 'node:crypto';
import { createAppInstallationToken } from '../../src/action/app-token.js';
import { checksClientFor, createChecksClient } from '../../src/publish/checks-client.js';
import type { RenderedCheck } from '../../src/publish/ports.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';

/**
 * Which required check a pull request can satisfy by itself (issue 27, item 1). A pull request may
 * add a workflow with a job named `PatchProof` (or `patchproof / patchproof`, the name the reusable
 * workflow's caller job produces); GitHub creates and completes that job's own check run on the
 * head commit, as the GitHub Actions app, with no token at all. The loopback GitHub server stands in
 * for that job with a check run seeded from the GitHub Actions app (id 15368), and enforces branch
 * protection's required checks on `PUT .../pulls/{n}/merge` with GitHub's documented matching: by
 * name, or by name and expected source (an app id). That matching is modelled here, not GitHub's own
 * enforcement.
 *
 * The gate's check is posted as PatchProof posts every check run (`checksClientFor`): with the app's
 * installation token, minted from its private key against the loopback API.
 */

const ACTIONS_APP = { id: 15368, slug: 'github-actions' };
const APP = { id: 515151, installationId: 8_800_001, installationToken: 'ghs_patchproof_app_installation' };
const keys = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const HEAD = 'c'.repeat(40);
const PASSED_HEAD = 'd'.repeat(40);
const REPOSITORY = 'octo-org/hello-world';
const TOKEN = 'ghs_workflow_token';
const FAILED: RenderedCheck = { title: 'PatchProof: FAILED — regression', summary: 'a regression', annotations: [] };
const PASSED: RenderedCheck = { title: 'PatchProof: PASSED (proof grade)', summary: 'ok', annotations: [] };

/** A gate repository whose default branch requires `required`; two open pull requests. */
function gateRepository(required: { context: string; appId?: number }[]): Promise<GitHubServer> {
  return startGitHubServer({
    token: TOKEN,
    repository: REPOSITORY,
    app: { ...APP, publicKey: keys.publicKey },
    requiredChecks: required,
    pulls: [
      { number: 31, headSha: HEAD, headRepository: 'contributor/hello-world' },
      { number: 32, headSha: PASSED_HEAD, headRepository: 'contributor/hello-world' }
    ]
  });
}

/** The gate job posts its verdict as PatchProof does, with the app configured. */
async function gatePosts(github: GitHubServer, headSha: string, conclusion: 'success' | 'failure', check: RenderedCheck): Promise<void> {
  const client = checksClientFor({ token: TOKEN, app: { appId: APP.id, privateKey: keys.privateKey } }, github.url, {
    checksClient: (token, baseUrl) => createChecksClient(token, { baseUrl }),
    appToken: createAppInstallationToken
  });
  await client.publish({ owner: 'octo-org', repo: 'hello-world', headSha, name: 'PatchProof' }, conclusion, check);
}

/** What a pull request's own workflow job named `name` leaves on its head commit: GitHub's check run for it, success. */
function forkJob(github: GitHubServer, name: string): void {
  github.addCheckRun({ name, headSha: HEAD, status: 'completed', conclusion: 'success', app: ACTIONS_APP });
}

async function merge(github: GitHubServer, number: number, sha: string): Promise<number> {
  const response = await fetch(`${github.url}/repos/${REPOSITORY}/pulls/${number}/merge`, {
    method: 'PUT',
    headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json', accept: 'application/vnd.github+json' },
    body: JSON.stringify({ sha, merge_method: 'merge' })
  });
  await response.text();
  return response.status;
}

describe('the required check: only one from the GitHub App is out of a pull request’s reach', () => {
  const servers: GitHubServer[] = [];
  afterAll(async () => {
    for (const server of servers) {
      expect(server.invalidRequests()).toEqual([]);
      expect(server.invalidResponses()).toEqual([]);
      await server.close();
    }
  });
  const start = async (required: { context: string; appId?: number }[]): Promise<GitHubServer> => {
    const server = await gateRepository(required);
    servers.push(server);
    return server;
  };

  it.each(['PatchProof', 'patchproof / patchproof'])(
    'attack: required by name only (as the docs said before issue 27), a pull request job named %j satisfies it although the gate posted failure',
    async (name) => {
      const github = await start([{ context: name }]);
      // The gate's verdict, from the app: the candidate failed.
      await gatePosts(github, HEAD, 'failure', FAILED);
      forkJob(github, name);
      expect(await merge(github, 31, HEAD)).toBe(200);
      expect(github.merges().map((m) => m.number)).toEqual([31]);
    }
  );

  it('required from the app (the setup the docs lead to now): the pull request’s own job of that name satisfies nothing, the gate’s failure stands', async () => {
    const github = await start([{ context: 'PatchProof', appId: APP.id }]);
    forkJob(github, 'PatchProof');
    // Before the gate posts: pending; after it posts failure: still refused.
    expect(await merge(github, 31, HEAD)).toBe(405);
    await gatePosts(github, HEAD, 'failure', FAILED);
    expect(await merge(github, 31, HEAD)).toBe(405);
    expect(github.merges()).toEqual([]);
    // The gate's check and the job's check are two check runs of one name, from two apps.
    expect(
      github
        .checkRuns()
        .filter((r) => r.head_sha === HEAD)
        .map((r) => [r.app.slug, r.conclusion])
        .sort()
    ).toEqual([
      ['github-actions', 'success'],
      ['patchproof-test-app', 'failure']
    ]);
  });

  it('required from the app: the gate’s own success (posted with the app’s installation token) satisfies it', async () => {
    const github = await start([{ context: 'PatchProof', appId: APP.id }]);
    expect(await merge(github, 32, PASSED_HEAD)).toBe(405);
    await gatePosts(github, PASSED_HEAD, 'success', PASSED);
    expect(await merge(github, 32, PASSED_HEAD)).toBe(200);
    const posted = github.requests().find((r) => r.operationId === 'checks/create');
    expect(posted?.headers['authorization']).toBe(`token ${APP.installationToken}`);
  });

  it('required from the app: a check of that name posted with a workflow token (any branch’s workflow) does not count', async () => {
    const github = await start([{ context: 'PatchProof', appId: APP.id }]);
    await createChecksClient(TOKEN, { baseUrl: github.url }).publish({ owner: 'octo-org', repo: 'hello-world', headSha: HEAD, name: 'PatchProof' }, 'success', PASSED);
    expect(github.checkRuns().map((r) => [r.app.slug, r.conclusion])).toEqual([['github-actions', 'success']]);
    expect(await merge(github, 31, HEAD)).toBe(405);
  });
});
