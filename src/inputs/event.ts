import { ConfigurationError } from '../errors.js';
import type { ActionSettings } from './action-settings.js';
import { COMMIT_SHA_PATTERN } from '../core/hashing.js';

/**
 * What to validate, from the workflow event. Pure: the event payload (untrusted JSON, read from
 * GITHUB_EVENT_PATH) and the settings in, the commits and the check target out.
 */

export interface Candidate {
  owner: string;
  repo: string;
  /** The commit the diff applies to: the PR's base commit. */
  base: string;
  /** The candidate's commit: `pull_request.head.sha`, where the check run goes. */
  head: string;
  /** True when the head lives in another repository: its token is read-only. */
  fork: boolean;
  pullNumber?: number;
}

function field(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function sha(value: unknown, what: string): string {
  if (typeof value !== 'string' || !COMMIT_SHA_PATTERN.test(value))
    throw new ConfigurationError(`the event has no valid ${what}; run PatchProof on pull_request, or give base and head`);
  return value;
}

/** The repository as GITHUB_REPOSITORY spells it: owner/name. */
export function splitRepository(repository: string | undefined): { owner: string; repo: string } {
  const match = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(repository ?? '');
  if (!match) throw new ConfigurationError(`GITHUB_REPOSITORY '${repository ?? ''}' is not owner/name; run inside GitHub Actions`);
  return { owner: match[1] as string, repo: match[2] as string };
}

/**
 * pull_request and pull_request_target give base and head from the payload (explicit inputs are
 * refused there, so a workflow cannot be pointed at other commits); push and workflow_dispatch need
 * explicit `base` and `head` inputs.
 */
export function candidateFromEvent(eventName: string, payload: unknown, repository: string | undefined, settings: Pick<ActionSettings, 'base' | 'head'>): Candidate {
  const { owner, repo } = splitRepository(repository);
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    if (settings.base !== undefined || settings.head !== undefined) {
      throw new ConfigurationError('base and head inputs are not used on pull_request events; remove them (the PR gives both)');
    }
    const headRepo = field(payload, ['pull_request', 'head', 'repo', 'full_name']);
    const number = field(payload, ['pull_request', 'number']);
    return {
      owner,
      repo,
      base: sha(field(payload, ['pull_request', 'base', 'sha']), 'pull_request.base.sha'),
      head: sha(field(payload, ['pull_request', 'head', 'sha']), 'pull_request.head.sha'),
      fork: typeof headRepo === 'string' && headRepo !== `${owner}/${repo}`,
      ...(typeof number === 'number' ? { pullNumber: number } : {})
    };
  }
  if (settings.base === undefined || settings.head === undefined) {
    throw new ConfigurationError(`base and head inputs are required on ${eventName} events: give the two full commit SHAs`);
  }
  return { owner, repo, base: settings.base, head: settings.head, fork: false };
}
