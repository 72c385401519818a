import type { TrustDecision } from './trust.js';
import { defaultBranchRef } from './trust.js';

/**
 * Whether this job may read and write the baseline cache in the GitHub Actions cache (input
 * `baseline-cache`). Pure: the event name, GITHUB_REF, the event payload (untrusted JSON) and the
 * run's trust decision in, a decision out.
 *
 * Why so strict: re-hashing proves an entry intact, not honest, and GitHub's cache has no
 * signatures. A job writes its own cache scope (GITHUB_REF) and restores from that scope and the
 * default branch's. On `pull_request` the job is the pull request's own workflow file, in the scope
 * `refs/pull/N/merge`, so a hostile pull request can add a step that saves any entry there, under any
 * key. Only a job whose scope is the default branch and whose workflow file comes from the default
 * branch, with the candidate's code run only in the container, is a trusted writer and reader:
 * pull_request_target, workflow_dispatch, workflow_run, push and schedule, on the default branch.
 */

/** The events whose workflow file is the default branch's and whose candidate code runs only in the container. */
export const BASELINE_CACHE_EVENTS: readonly string[] = ['pull_request_target', 'workflow_dispatch', 'workflow_run', 'push', 'schedule'];

export type BaselineScopeDecision = { use: true; scope: string } | { use: false; why: string };

export interface BaselineScopeInput {
  eventName: string;
  /** GITHUB_REF: the job's cache scope. */
  ref: string | undefined;
  payload: unknown;
  trust: TrustDecision;
}

/** Decide; anything not positively the default branch's scope is refused (fail closed), with the one line saying why. */
export function decideBaselineScope(input: BaselineScopeInput): BaselineScopeDecision {
  const off = (why: string): BaselineScopeDecision => ({ use: false, why: `baseline-cache is off for this run: ${why}` });
  if (input.eventName === 'pull_request') {
    return off("on pull_request the job is the pull request's own workflow, and its cache scope is one the pull request can write from a step it adds");
  }
  if (!BASELINE_CACHE_EVENTS.includes(input.eventName)) return off(`the event ${input.eventName} is not one of ${BASELINE_CACHE_EVENTS.join(', ')}`);
  if (!input.trust.trusted) return off("the workflow file is not out of the pull request's reach (see the trust line)");
  const defaultRef = defaultBranchRef(input.payload);
  if (defaultRef === undefined) return off('the event payload has no repository.default_branch to compare GITHUB_REF with');
  if (input.ref !== defaultRef) return off(`the cache scope GITHUB_REF '${input.ref ?? ''}' is not the default branch ${defaultRef}`);
  return { use: true, scope: defaultRef };
}
