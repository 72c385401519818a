import { getOctokit } from '@actions/github';
import { InfrastructureError } from '../errors.js';
import type { AppTokenTarget } from '../action/app-token.js';
import { ChecksPermissionError, type CheckAnnotation, type CheckRunTarget, type ChecksClient, type RenderedCheck } from './ports.js';
import type { ActionSettings, GitHubAppSettings } from '../inputs/action-settings.js';

/**
 * The only file that talks to the Checks API: one completed check run per publish, annotations in
 * batches of at most 50 (GitHub's limit per request; updates append them). `checksClientFor` is the
 * one place that decides whose credentials post a check run, for every mode.
 */

/** GitHub accepts at most this many annotations per create or update request. */
export const ANNOTATIONS_PER_REQUEST = 50;

/** Options of {@link createChecksClient}. */
export interface ChecksClientOptions {
  /** REST API root; defaults to GITHUB_API_URL as @actions/github reads it. */
  baseUrl?: string;
}

type Octokit = ReturnType<typeof getOctokit>;

function httpStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

/** A 403 is the token's permission, unless it is GitHub's secondary rate limit (also a 403). */
function isPermissionDenied(error: unknown): boolean {
  if (httpStatus(error) !== 403) return false;
  const message = error instanceof Error ? error.message : '';
  return !/rate limit/i.test(message);
}

function failure(error: unknown, what: string, target: CheckRunTarget): Error {
  if (isPermissionDenied(error)) {
    return new ChecksPermissionError(
      `cannot ${what} check run '${target.name}' in ${target.owner}/${target.repo} (403): the token is read-only, as on a pull request from a fork. ` +
        'Run PatchProof from a pull_request_target gate workflow, whose token can post checks (docs/action.md, "The gate").'
    );
  }
  const status = httpStatus(error);
  const detail = error instanceof Error ? error.message : String(error);
  return new InfrastructureError(
    `the Checks API failed to ${what} check run '${target.name}' in ${target.owner}/${target.repo}${status !== undefined ? ` (HTTP ${status})` : ''}: ${detail}`,
    { cause: error }
  );
}

function output(check: RenderedCheck, annotations: CheckAnnotation[]): { title: string; summary: string; text?: string; annotations: CheckAnnotation[] } {
  return { title: check.title, summary: check.summary, ...(check.text !== undefined ? { text: check.text } : {}), annotations };
}

class OctokitChecksClient implements ChecksClient {
  constructor(private readonly octokit: Octokit) {}

  async publish(target: CheckRunTarget, conclusion: 'success' | 'failure' | 'neutral', check: RenderedCheck): Promise<number> {
    const batches: CheckAnnotation[][] = [];
    for (let i = 0; i < check.annotations.length; i += ANNOTATIONS_PER_REQUEST) batches.push(check.annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
    const [first = [], ...rest] = batches;
    let id: number;
    try {
      const created = await this.octokit.rest.checks.create({
        owner: target.owner,
        repo: target.repo,
        name: target.name,
        head_sha: target.headSha,
        status: 'completed',
        conclusion,
        output: output(check, first)
      });
      id = created.data.id;
    } catch (error) {
      throw failure(error, 'create', target);
    }
    for (const [i, batch] of rest.entries()) {
      try {
        // Updates append annotations; title and summary are required with every output.
        await this.octokit.rest.checks.update({ owner: target.owner, repo: target.repo, check_run_id: id, output: output(check, batch) });
      } catch (error) {
        const sent = ANNOTATIONS_PER_REQUEST * (i + 1);
        const cause = failure(error, `add annotations ${sent + 1}–${sent + batch.length} of ${check.annotations.length} to`, target);
        if (cause instanceof ChecksPermissionError) throw cause;
        throw new InfrastructureError(`${cause.message} (check run ${id} exists with its conclusion and the first ${sent} annotations)`, { cause: error });
      }
    }
    return id;
  }
}

/** A Checks API client through @actions/github's octokit, authenticated with `token`. */
export function createChecksClient(token: string, options: ChecksClientOptions = {}): ChecksClient {
  return new OctokitChecksClient(getOctokit(token, options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}));
}

/** What `checksClientFor` builds a client from; the modes' deps provide both (tests hand in fakes). */
export interface ChecksClientSource {
  checksClient(token: string, baseUrl: string): ChecksClient;
  /** An installation token of the GitHub App that posts the check run (settings.app). */
  appToken(app: GitHubAppSettings, target: AppTokenTarget): Promise<string>;
}

/**
 * The Checks API client every mode posts with: as the dedicated GitHub App (its installation token
 * for the check run's repository, minted when the first check run is posted) when `settings.app` is
 * given, so branch protection can require the check from that app; otherwise with `settings.token`.
 * A token that cannot be minted is an InfrastructureError from `publish`.
 */
export function checksClientFor(settings: Pick<ActionSettings, 'token' | 'app'>, apiUrl: string, source: ChecksClientSource): ChecksClient {
  const app = settings.app;
  if (app === undefined) return source.checksClient(settings.token, apiUrl);
  const clients = new Map<string, Promise<ChecksClient>>();
  return {
    publish: async (target, conclusion, check) => {
      const key = `${target.owner}/${target.repo}`.toLowerCase();
      let client = clients.get(key);
      if (client === undefined) {
        client = source.appToken(app, { owner: target.owner, repo: target.repo, apiUrl }).then((token) => source.checksClient(token, apiUrl));
        clients.set(key, client);
      }
      return (await client).publish(target, conclusion, check);
    }
  };
}
