import { codeSpan, escapeMarkdown } from '../core/markdown.js';
import { COMMIT_SHA_PATTERN } from '../core/hashing.js';
import { tamperBlocking, tamperWithheldLine, tamperWithholds, type TamperScreen } from '../core/tamper.js';
import { withPreamble } from '../publish/check-report.js';
import type { RenderedCheck } from '../publish/ports.js';

/**
 * Whether the running workflow is one the pull request cannot have changed, and which refs a
 * `ref:` witness pack may name. Pure: the event name, GITHUB_WORKFLOW_REF and the event payload
 * (untrusted JSON) in, a decision out. Each mode calls it once, at its start; its verdict is stated
 * in every check run and job summary the mode writes (`trustLine`).
 *
 * Why: on `pull_request` GitHub runs the workflow files of the PR's merge commit, so the PR writes
 * the job, its `with:` inputs and any local reusable workflow; a `workflow_dispatch` runs the file of
 * whatever ref it was dispatched on. Only a definition read from the default branch, a tag or a
 * pinned commit (a ruleset's "Require workflows to pass") is out of the PR author's reach.
 */

/** The decision: `trusted` may post success; otherwise a pass is posted as failure, with `why`. */
export type TrustDecision = { trusted: true; workflowRef: string } | { trusted: false; why: string };

/** What the decision reads. */
export interface TrustInput {
  eventName: string;
  /** GITHUB_WORKFLOW_REF: `owner/repo/.github/workflows/x.yml@REF`. */
  workflowRef: string | undefined;
  /** GITHUB_REPOSITORY: `owner/repo`. */
  repository: string;
  /** The event payload as read from GITHUB_EVENT_PATH. */
  payload: unknown;
}

/** What to use instead, in one line, appended to every refusal. */
export const TRUSTED_SETUP_HINT =
  'run PatchProof from a pull_request_target workflow on the default branch (see docs/action.md, "The gate"), or require it with a ruleset that pins the gate workflow';

const WORKFLOW_REF = /^([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)\/(\.github\/workflows\/[^@]+)@(.+)$/;

function field(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `refs/heads/<default branch>` from the payload, or undefined when the payload has none. */
export function defaultBranchRef(payload: unknown): string | undefined {
  const name = field(payload, ['repository', 'default_branch']);
  return typeof name === 'string' && name !== '' ? `refs/heads/${name}` : undefined;
}

/**
 * Decide whether this run's workflow definition is out of the pull request's reach. Anything not
 * positively known to be trusted is untrusted (fail closed): a missing or malformed
 * GITHUB_WORKFLOW_REF, a payload without `repository.default_branch`, a workflow file of another
 * repository's branch.
 */
export function decideTrust(input: TrustInput): TrustDecision {
  const untrusted = (why: string): TrustDecision => ({ trusted: false, why: `${why}; ${TRUSTED_SETUP_HINT}` });
  if (input.eventName === 'pull_request') {
    return untrusted("on pull_request GitHub runs the workflow files of the pull request's merge commit, so the pull request can change this job and its inputs");
  }
  const match = WORKFLOW_REF.exec(input.workflowRef ?? '');
  if (match === null) return untrusted(`GITHUB_WORKFLOW_REF '${input.workflowRef ?? ''}' does not say which workflow file runs`);
  const [, workflowRepo = '', , ref = ''] = match;
  if (ref.startsWith('refs/pull/')) return untrusted(`the workflow runs from the pull request ref ${ref}`);
  const defaultRef = defaultBranchRef(input.payload);
  if (defaultRef === undefined) return untrusted('the event payload has no repository.default_branch to compare the workflow ref with');
  const sameRepo = workflowRepo.toLowerCase() === input.repository.toLowerCase();
  // A pinned commit is what a ruleset's "Require workflows to pass" may name; nobody can push to it.
  const pinned = COMMIT_SHA_PATTERN.test(ref);
  const tag = ref.startsWith('refs/tags/');
  const defaultBranch = sameRepo && ref === defaultRef;
  if (!(pinned || tag || defaultBranch)) {
    const where = sameRepo ? `the branch ${ref}, not the default branch ${defaultRef}` : `${ref} of ${workflowRepo}, a branch of another repository`;
    const dispatched = input.eventName === 'workflow_dispatch' ? ' (a workflow_dispatch runs the file of the ref it was dispatched on)' : '';
    return untrusted(`the workflow file runs from ${where}${dispatched}, which anyone who can push that branch can change`);
  }
  // The base checkout (and a path pack in it) is the grader's source: it must be the protected branch.
  const baseRef = field(input.payload, ['pull_request', 'base', 'ref']);
  if (input.payload !== null && typeof input.payload === 'object' && 'pull_request' in input.payload && `refs/heads/${String(baseRef)}` !== defaultRef) {
    return untrusted(`the pull request targets ${String(baseRef)}, not the default branch ${defaultRef}, so its base (the grader's source) may be a branch others can push`);
  }
  // A same-repository pull request whose head branch is the very ref the workflow runs from.
  const headRef = field(input.payload, ['pull_request', 'head', 'ref']);
  const headRepo = field(input.payload, ['pull_request', 'head', 'repo', 'full_name']);
  if (sameRepo && typeof headRef === 'string' && typeof headRepo === 'string' && headRepo.toLowerCase() === input.repository.toLowerCase() && ref === `refs/heads/${headRef}`) {
    return untrusted(`the workflow runs from ${ref}, which is the pull request's own head branch`);
  }
  return { trusted: true, workflowRef: input.workflowRef as string };
}

/**
 * The trust decision as one line of Markdown for the check run and the job summary, so whoever reads
 * a failure knows whether the run could have posted success at all. The workflow ref and the reason
 * (which name branches, which anyone who can push chooses) are escaped.
 */
export function trustLine(trust: TrustDecision, eventName: string): string {
  if (trust.trusted) {
    return `**信任 / Trust: ✅ trusted / 可信** — this ${escapeMarkdown(eventName, 100)} run's workflow file ${codeSpan(trust.workflowRef)} is out of the pull request's reach, so it may post success.`;
  }
  return `**信任 / Trust: ❌ untrusted / 不可信** — a pass is posted as failure: ${escapeMarkdown(trust.why, 2_000)}`;
}

/**
 * A `ref:` pack must come from a ref the pull request's author cannot push: the default branch or a
 * tag. Returns the refusal's one line, or undefined when the ref is protected.
 */
export function unprotectedPackRef(ref: string, payload: unknown): string | undefined {
  const defaultRef = defaultBranchRef(payload);
  if (ref.startsWith('refs/tags/')) return undefined;
  if (defaultRef !== undefined && ref === defaultRef) return undefined;
  const fix = defaultRef ?? 'refs/heads/<default branch>';
  return `witness-pack ref '${ref}' is not the default branch or a tag, so whoever can push it chooses the grader; use ref:${fix}:PATH or ref:refs/tags/<tag>:PATH`;
}

/**
 * Why a passing receipt must still be posted as failure, or undefined when it may be posted as
 * success: success needs proof grade (the isolated runner) and a trusted workflow.
 */
export function gateDowngrade(
  receipt: { verdict: 'passed' | 'failed' | 'inconclusive'; proof_grade: boolean; tamper_screen?: TamperScreen },
  trust: TrustDecision
): { code: 'not_proof_grade' | 'untrusted_workflow'; why: string } | undefined {
  if (receipt.verdict !== 'passed') return undefined;
  if (!receipt.proof_grade && receipt.tamper_screen !== undefined && tamperWithholds(receipt.tamper_screen)) {
    // The rules and places only, each path (the candidate's) in a code span; the offending text is in the check run's annotations.
    const shown = tamperBlocking(receipt.tamper_screen)
      .slice(0, 5)
      .map((f) => `${f.rule} at ${codeSpan(`${f.path}:${f.line}`, { max: 300 })}`)
      .join(', ');
    return {
      code: 'not_proof_grade',
      why: `the candidate passed, but ${tamperWithheldLine(receipt.tamper_screen)}: ${shown}${tamperBlocking(receipt.tamper_screen).length > 5 ? ', …' : ''}; its non-test code can make the in-process grader lie, so this run cannot post success for it`
    };
  }
  if (!receipt.proof_grade) {
    return {
      code: 'not_proof_grade',
      why: 'the candidate passed, but not with proof grade (runner local, or a checkout that changed); only the isolated docker runner can post success: use runner: docker with a pinned image'
    };
  }
  if (!trust.trusted) return { code: 'untrusted_workflow', why: `the candidate passed, but this run cannot vouch for it: ${trust.why}` };
  return undefined;
}

/** The rendered check of a pass that is posted as failure: the why comes first. */
export function downgradedCheck(check: RenderedCheck, downgrade: { code: string; why: string }): RenderedCheck {
  // untrusted_workflow's why names refs (branch names) that whoever pushed them chose: escaped.
  const why = downgrade.code === 'untrusted_workflow' ? escapeMarkdown(downgrade.why, 2_000) : downgrade.why;
  return { ...withPreamble(check, `**${downgrade.code}**: ${why}`), title: `PatchProof: FAILED — ${downgrade.code}` };
}
