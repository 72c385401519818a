import { generateKeyPairSync } from 'node:crypto';
import { createAppInstallationToken } from '../../src/action/app-token.js';
import { createChecksClient } from '../../src/publish/checks-client.js';
import { InfrastructureError } from '../../src/errors.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';

/**
 * The GitHub App check source against the loopback API: the JWT is verified with the app's public
 * key, the installation is looked up, the token is minted for checks: write on one repository, and
 * the check run is posted with that token (not the workflow's).
 */

const APP_ID = 424242;
const INSTALLATION = 9_100_001;
const INSTALLATION_TOKEN = 'ghs_installation_token_of_the_app';
const keyPair = (): { privateKey: string; publicKey: string } =>
  generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const app = keyPair();
const stranger = keyPair();

let github: GitHubServer;
beforeAll(async () => {
  github = await startGitHubServer({
    token: 'ghs_workflow_token',
    readOnlyToken: true,
    app: { id: APP_ID, publicKey: app.publicKey, installationId: INSTALLATION, installationToken: INSTALLATION_TOKEN }
  });
});
afterAll(() => github.close());

const target = (): { owner: string; repo: string; apiUrl: string } => ({ owner: 'octo-org', repo: 'hello-world', apiUrl: github.url });

it('looks up the installation with the JWT, mints a checks-only token for this repository, and posts with it', async () => {
  const token = await createAppInstallationToken({ appId: APP_ID, privateKey: app.privateKey }, target());
  expect(token).toBe(INSTALLATION_TOKEN);
  const id = await createChecksClient(token, { baseUrl: github.url }).publish({ owner: 'octo-org', repo: 'hello-world', headSha: 'b'.repeat(40), name: 'PatchProof' }, 'success', {
    title: 'PatchProof: PASSED (proof grade)',
    summary: 'ok',
    annotations: []
  });
  expect(github.checkRuns().map((r) => [r.id, r.conclusion])).toEqual([[id, 'success']]);
  const requests = github.requests();
  expect(requests.map((r) => r.operationId)).toEqual(['apps/get-repo-installation', 'apps/create-installation-access-token', 'checks/create']);
  expect(requests[1]?.body).toEqual({ repositories: ['hello-world'], permissions: { checks: 'write' } });
  expect(requests[2]?.headers['authorization']).toBe(`token ${INSTALLATION_TOKEN}`);
  expect(github.invalidRequests()).toEqual([]);
  expect(github.invalidResponses()).toEqual([]);
});

it("a key that is not the app's gets no token: the server refuses the JWT, and the error is an infrastructure fault", async () => {
  const before = github.requests().length;
  await expect(createAppInstallationToken({ appId: APP_ID, privateKey: stranger.privateKey, installationId: INSTALLATION }, target())).rejects.toThrow(InfrastructureError);
  const [refused] = github.requests().slice(before);
  expect(refused).toMatchObject({ operationId: 'apps/create-installation-access-token', status: 401 });
  expect(refused?.errors).toEqual(["authorization: the JWT's signature does not verify with the app's public key"]);
});

it('the workflow token of a fork stays read-only: only the app token could post', async () => {
  await expect(
    createChecksClient('ghs_workflow_token', { baseUrl: github.url }).publish({ owner: 'octo-org', repo: 'hello-world', headSha: 'c'.repeat(40), name: 'PatchProof' }, 'success', {
      title: 't',
      summary: 's',
      annotations: []
    })
  ).rejects.toThrow(/403/);
});
