import { getOctokit } from '@actions/github';
import { checkRunState, statusState, type HeadCheck } from '../core/ci-claim.js';
import { InfrastructureError } from '../errors.js';

/**
 * The only file that reads other check runs and commit statuses: `GET
 * /repos/{o}/{r}/commits/{ref}/check-runs` and `GET /repos/{o}/{r}/commits/{ref}/status`, both
 * paginated (100 a page, at most {@link HEAD_CHECKS_MAX} of each). Read-only: `checks: read` and
 * `statuses: read`. PatchProof's own check runs are left out by name AND app: a check run of that
 * name posted by any other app stays in (it is someone's claim, not PatchProof's result).
 */

/** At most this many check runs, and as many statuses, are read. */
export const HEAD_CHECKS_MAX = 1_000;

/** Whose check runs are PatchProof's own. */
export interface OwnCheck {
  /** settings.checkName. */
  name: string;
  /** The GitHub App that posts it (settings.app), or undefined: the workflow token's app, github-actions. */
  appId?: number;
}

export interface HeadChecksReader {
  /** The head commit's check runs and statuses, PatchProof's own left out. Throws InfrastructureError. */
  read(target: { owner: string; repo: string; sha: string }, own: OwnCheck): Promise<HeadCheck[]>;
}

type Octokit = ReturnType<typeof getOctokit>;

/** The app slug of the workflow token (GITHUB_TOKEN): every workflow's check runs are posted as it. */
export const ACTIONS_APP_SLUG = 'github-actions';

/** Is this check run PatchProof's own? Its name, and the app PatchProof posts as. */
export function isOwnCheck(run: { name: string; app: { id: number; slug: string } | null }, own: OwnCheck): boolean {
  if (run.name !== own.name || run.app === null) return false;
  return own.appId !== undefined ? run.app.id === own.appId : run.app.slug === ACTIONS_APP_SLUG;
}

class OctokitHeadChecks implements HeadChecksReader {
  constructor(private readonly octokit: Octokit) {}

  async read(target: { owner: string; repo: string; sha: string }, own: OwnCheck): Promise<HeadCheck[]> {
    const checks: HeadCheck[] = [];
    const { owner, repo, sha } = target;
    try {
      for (let page = 1, seen = 0; seen < HEAD_CHECKS_MAX; page += 1) {
        const { data } = await this.octokit.rest.checks.listForRef({ owner, repo, ref: sha, filter: 'latest', per_page: 100, page });
        for (const run of data.check_runs) {
          if (isOwnCheck({ name: run.name, app: run.app === null ? null : { id: run.app.id, slug: run.app.slug ?? '' } }, own)) continue;
          checks.push({
            kind: 'check_run',
            name: run.name,
            source: run.app?.slug ?? 'unknown app',
            said: run.status === 'completed' ? (run.conclusion ?? 'none') : run.status,
            state: checkRunState(run.status, run.conclusion)
          });
        }
        seen += data.check_runs.length;
        if (data.check_runs.length < 100) break;
      }
    } catch (error) {
      throw new InfrastructureError(`could not read the check runs of ${sha}${statusOf(error)} (head-checks needs checks: read): ${describe(error)}`, { cause: error });
    }
    try {
      for (let page = 1, seen = 0; seen < HEAD_CHECKS_MAX; page += 1) {
        const { data } = await this.octokit.rest.repos.getCombinedStatusForRef({ owner, repo, ref: sha, per_page: 100, page });
        for (const status of data.statuses) checks.push({ kind: 'status', name: status.context, source: 'status', said: status.state, state: statusState(status.state) });
        seen += data.statuses.length;
        if (data.statuses.length < 100) break;
      }
    } catch (error) {
      throw new InfrastructureError(`could not read the commit statuses of ${sha}${statusOf(error)} (head-checks needs statuses: read): ${describe(error)}`, { cause: error });
    }
    return checks;
  }
}

function statusOf(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? ` (HTTP ${status})` : '';
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300);
}

/** A reader through @actions/github's octokit, authenticated with `token`. */
export function createHeadChecksReader(token: string, baseUrl: string): HeadChecksReader {
  return new OctokitHeadChecks(getOctokit(token, { baseUrl }));
}
