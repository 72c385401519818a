// @octokit/auth-app: GitHub's own maintained implementation of App auth (the RS256 JWT, the
// installation lookup and token exchange, clock-skew retry); hand-rolling JWTs is a solved problem.
import { createAppAuth } from '@octokit/auth-app';
import { request } from '@octokit/request';
import { InfrastructureError } from '../errors.js';
import type { GitHubAppSettings } from '../inputs/action-settings.js';

/**
 * The only file that authenticates as a GitHub App: an installation token for one repository,
 * limited to `checks: write`, so the check run is posted by that app and branch protection can
 * require the check from it. The private key never leaves this job (the candidate runs in a
 * container that gets no token, no secret and no network).
 */

/** Where to get the token: the repository the check run goes to, and the REST API root. */
export interface AppTokenTarget {
  owner: string;
  repo: string;
  apiUrl: string;
}

/** Mint an installation access token for `target` (checks: write only). Throws InfrastructureError. */
export async function createAppInstallationToken(app: GitHubAppSettings, target: AppTokenTarget): Promise<string> {
  const api = request.defaults({ baseUrl: target.apiUrl });
  const auth = createAppAuth({ appId: app.appId, privateKey: app.privateKey, request: api });
  try {
    let installationId = app.installationId;
    if (installationId === undefined) {
      const jwt = await auth({ type: 'app' });
      const found = await api('GET /repos/{owner}/{repo}/installation', { owner: target.owner, repo: target.repo, headers: { authorization: `bearer ${jwt.token}` } });
      installationId = found.data.id;
    }
    const installation = await auth({ type: 'installation', installationId, repositoryNames: [target.repo], permissions: { checks: 'write' } });
    return installation.token;
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    throw new InfrastructureError(
      `the GitHub App ${app.appId} could not get an installation token for ${target.owner}/${target.repo}${typeof status === 'number' ? ` (HTTP ${status})` : ''}: ${error instanceof Error ? error.message : String(error)}; install the app on the repository with checks: write`,
      { cause: error }
    );
  }
}
