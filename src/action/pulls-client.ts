import { getOctokit } from '@actions/github';
import { InfrastructureError } from '../errors.js';

/**
 * The only file that reads or merges pull requests (promote mode, and the screen mode's list of open
 * pull requests): `GET /repos/{owner}/{repo}/pulls/{n}` for the pull request's current head,
 * `GET /repos/{owner}/{repo}/pulls?state=open` (paginated), and `PUT /repos/{owner}/{repo}/pulls/{n}/merge` with `sha`
 * set, so GitHub refuses (409) a merge of any head but the one that was checked. Nothing else: no
 * push, no branch update, no comment.
 */

/** A pull request as promote mode needs it, as GitHub reports it now. */
export interface PullRequestState {
  number: number;
  state: 'open' | 'closed';
  merged: boolean;
  draft: boolean;
  headSha: string;
  baseSha: string;
  baseRef: string;
  /** `owner/repo` of the head; another repository than the base's is a fork. */
  headRepository: string | undefined;
}

/** How the merge is made: the `merge_method` of GitHub's merge endpoint. */
export type MergeMethod = 'merge' | 'squash' | 'rebase';

/** What GitHub answered to the merge: merged, or a documented refusal (never reported as success). */
export type MergeAnswer = { merged: true; sha: string } | { merged: false; status: 403 | 404 | 405 | 409 | 422; message: string };

/** The open pull requests, as the screen mode lists them. */
export interface OpenPullsClient {
  /** Every open pull request (`GET /repos/{owner}/{repo}/pulls?state=open`, all pages). Throws InfrastructureError. */
  listOpen(owner: string, repo: string): Promise<OpenPullRequest[]>;
}

/** An open pull request as the screen mode lists it. */
export interface OpenPullRequest {
  number: number;
  headSha: string;
  baseRef: string;
  labels: string[];
  /** `owner/repo` of the head; another repository than the base's is a fork. */
  headRepository: string | undefined;
  title: string;
}

export interface PullsClient {
  get(owner: string, repo: string, number: number): Promise<PullRequestState>;

  /** Merge `number` only if its head is still `headSha`. Throws InfrastructureError for any other failure. */
  merge(owner: string, repo: string, number: number, headSha: string, method: MergeMethod): Promise<MergeAnswer>;
}

/** Options of {@link createPullsClient}. */
export interface PullsClientOptions {
  /** REST API root; defaults to GITHUB_API_URL as @actions/github reads it. */
  baseUrl?: string;
}

const REFUSALS = [403, 404, 405, 409, 422] as const;

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

/** GitHub's own message of a refusal, on one line. */
function messageOf(error: unknown): string {
  const body = (error as { response?: { data?: unknown } } | null)?.response?.data;
  const message =
    body !== null && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : error instanceof Error
        ? error.message
        : String(error);
  return message.replace(/\s+/g, ' ').trim().slice(0, 500);
}

/** A flag from GitHub's JSON: only a literal true counts (a missing, null or non-boolean field reads as false). */
function isTrue(value: unknown): boolean {
  return value === true;
}

/**
 * A pull request head's repository, from GitHub's JSON: its `repo` is null when the fork was deleted,
 * whatever the generated types say, and a missing or null name reads as undefined.
 */
function fullNameOf(repo: { full_name?: string | null } | null | undefined): string | undefined {
  return repo?.full_name ?? undefined;
}

export function createPullsClient(token: string, options: PullsClientOptions = {}): PullsClient {
  // @actions/github's client has no retry plugin: a merge is sent once, so a 5xx after GitHub merged
  // is never retried into a 405 and misreported.
  const octokit = getOctokit(token, options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {});
  return {
    async get(owner, repo, number) {
      let data;
      try {
        ({ data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number }));
      } catch (error) {
        throw new InfrastructureError(
          `could not read pull request #${number} of ${owner}/${repo} (HTTP ${statusOf(error) ?? '?'}): ${messageOf(error)}; the token needs pull-requests: read`,
          { cause: error }
        );
      }
      return {
        number: data.number,
        state: data.state === 'open' ? 'open' : 'closed',
        merged: isTrue(data.merged),
        draft: data.draft === true,
        headSha: data.head.sha,
        baseSha: data.base.sha,
        baseRef: data.base.ref,
        headRepository: fullNameOf(data.head.repo)
      };
    },
    async merge(owner, repo, number, headSha, method) {
      try {
        const { data } = await octokit.rest.pulls.merge({ owner, repo, pull_number: number, sha: headSha, merge_method: method });
        if (!isTrue(data.merged)) return { merged: false, status: 405, message: data.message };
        return { merged: true, sha: data.sha };
      } catch (error) {
        const status = statusOf(error);
        const refusal = REFUSALS.find((code) => code === status);
        if (refusal !== undefined) return { merged: false, status: refusal, message: messageOf(error) };
        throw new InfrastructureError(
          `the merge request for pull request #${number} failed (HTTP ${status ?? '?'}): ${messageOf(error)}; whether GitHub merged it is unknown, look at the pull request`,
          { cause: error }
        );
      }
    }
  };
}

export function createOpenPullsClient(token: string, options: PullsClientOptions = {}): OpenPullsClient {
  const octokit = getOctokit(token, options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {});
  return {
    async listOpen(owner, repo) {
      try {
        const pulls = await octokit.paginate(octokit.rest.pulls.list, { owner, repo, state: 'open', per_page: 100 });
        return pulls.map((p) => ({
          number: p.number,
          headSha: p.head.sha,
          baseRef: p.base.ref,
          labels: p.labels.map((l) => l.name),
          headRepository: fullNameOf(p.head.repo),
          title: p.title
        }));
      } catch (error) {
        throw new InfrastructureError(
          `could not list the open pull requests of ${owner}/${repo} (HTTP ${statusOf(error) ?? '?'}): ${messageOf(error)}; the token needs pull-requests: read`,
          {
            cause: error
          }
        );
      }
    }
  };
}
