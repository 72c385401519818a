import { getOctokit } from '@actions/github';
import { z } from 'zod';
import type { ApprovalPolicy, ClassicCheck, EnvironmentFacts, NamedCheckRun, PrivateForkSettings, Read, RulesetCheck, RulesetWorkflow } from '../core/setup-doctor.js';
import { InfrastructureError } from '../errors.js';

/**
 * The only file that reads a repository's settings (the setup check, doctor-mode.ts): the
 * repository, classic branch protection's required checks, the rules of the active rulesets on a
 * branch, an environment and its deployment branch policies, the fork pull request settings of
 * Actions, an App by slug, and the check runs of one name on a commit. Read-only, `GET` only. Each
 * answer is validated (zod) and comes back as a `Read`: the value, or why it could not be read (the
 * HTTP status and GitHub's message). Only the repository itself throws: without its default branch
 * there is nothing to check.
 */

export interface RepositorySettingsReader {
  /** `GET /repos/{owner}/{repo}`. Throws InfrastructureError. */
  repository(owner: string, repo: string): Promise<{ id: number; defaultBranch: string; private: boolean }>;
  /** `GET .../branches/{branch}/protection/required_status_checks`; null when the branch requires none. */
  classicChecks(owner: string, repo: string, branch: string): Promise<Read<ClassicCheck[] | null>>;
  /** `GET .../rules/branches/{branch}` (all pages): the required checks and required workflows. */
  branchRules(owner: string, repo: string, branch: string): Promise<Read<{ checks: RulesetCheck[]; workflows: RulesetWorkflow[] }>>;
  /** `GET .../environments/{name}` (and its deployment branch policies); null when it does not exist. */
  environment(owner: string, repo: string, name: string): Promise<Read<EnvironmentFacts | null>>;
  /** `GET .../actions/permissions/fork-pr-contributor-approval`. */
  forkApproval(owner: string, repo: string): Promise<Read<ApprovalPolicy>>;
  /** `GET .../actions/permissions/fork-pr-workflows-private-repos`. */
  privateForkSettings(owner: string, repo: string): Promise<Read<PrivateForkSettings>>;
  /** `GET /apps/{app_slug}`: the App's id. */
  appBySlug(slug: string): Promise<Read<{ id: number; slug: string }>>;
  /** `GET .../commits/{ref}/check-runs?check_name=` (latest of each app, at most {@link CHECK_RUNS_MAX}). */
  checkRunsNamed(owner: string, repo: string, sha: string, name: string): Promise<Read<NamedCheckRun[]>>;
}

/** At most this many check runs of one name are read. */
export const CHECK_RUNS_MAX = 500;

type Octokit = ReturnType<typeof getOctokit>;

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

/** GitHub's own message, on one line. */
function messageOf(error: unknown): string {
  const body = (error as { response?: { data?: unknown } } | null)?.response?.data;
  const message =
    body !== null && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : error instanceof Error
        ? error.message
        : String(error);
  return message.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** What a 401/403/404 most likely means for this setting, for the reason line. */
function notRead(error: unknown, permission: string): Read<never> {
  const status = statusOf(error);
  const hint = status === 401 || status === 403 || status === 404 ? `; the token needs ${permission}` : '';
  return { read: false, ...(status !== undefined ? { status } : {}), reason: `${messageOf(error)}${hint}` };
}

/** An answer whose shape is not what GitHub documents: unreadable, never taken as "none". */
function malformed(what: string, error: z.ZodError): Read<never> {
  return { read: false, reason: `GitHub's answer for ${what} is not in the documented shape: ${error.issues[0]?.message ?? 'invalid'}` };
}

const classicSchema = z.object({
  contexts: z.array(z.string()),
  checks: z.array(z.object({ context: z.string(), app_id: z.number().int().nullable() }))
});

const ruleInfo = { ruleset_source: z.string().optional(), ruleset_source_type: z.string().optional(), ruleset_id: z.number().int().optional() };
const ruleSchema = z.union([
  z.object({
    type: z.literal('required_status_checks'),
    parameters: z.object({ required_status_checks: z.array(z.object({ context: z.string(), integration_id: z.number().int().optional() })) }),
    ...ruleInfo
  }),
  z.object({
    type: z.literal('workflows'),
    parameters: z.object({
      workflows: z.array(z.object({ path: z.string(), repository_id: z.number().int(), ref: z.string().optional(), sha: z.string().optional() }))
    }),
    ...ruleInfo
  }),
  // Every other rule type (pull_request, non_fast_forward, ...) says nothing about the check.
  z.object({ type: z.string().refine((t) => t !== 'required_status_checks' && t !== 'workflows') })
]);

const environmentSchema = z.object({
  deployment_branch_policy: z.object({ protected_branches: z.boolean(), custom_branch_policies: z.boolean() }).nullable().optional(),
  protection_rules: z.array(z.object({ type: z.string() })).optional()
});

const branchPoliciesSchema = z.object({
  total_count: z.number().int(),
  // Policies made before tag policies existed carry no type: they are branch policies.
  branch_policies: z.array(z.object({ name: z.string(), type: z.enum(['branch', 'tag']).optional() }))
});

const approvalSchema = z.object({ approval_policy: z.enum(['first_time_contributors_new_to_github', 'first_time_contributors', 'all_external_contributors']) });

const privateForkSchema = z.object({
  run_workflows_from_fork_pull_requests: z.boolean(),
  send_write_tokens_to_workflows: z.boolean(),
  send_secrets_and_variables: z.boolean(),
  require_approval_for_fork_pr_workflows: z.boolean()
});

const checkRunsSchema = z.object({
  total_count: z.number().int(),
  check_runs: z.array(z.object({ name: z.string(), conclusion: z.string().nullable(), app: z.object({ id: z.number().int(), slug: z.string().optional() }).nullable() }))
});

const rulesetName = (r: { ruleset_source?: string | undefined; ruleset_id?: number | undefined }): string =>
  `${r.ruleset_source ?? 'a ruleset'}${r.ruleset_id !== undefined ? ` #${r.ruleset_id}` : ''}`;

class OctokitSettingsReader implements RepositorySettingsReader {
  constructor(private readonly octokit: Octokit) {}

  async repository(owner: string, repo: string): Promise<{ id: number; defaultBranch: string; private: boolean }> {
    try {
      const { data } = await this.octokit.rest.repos.get({ owner, repo });
      return { id: data.id, defaultBranch: data.default_branch, private: data.private };
    } catch (error) {
      throw new InfrastructureError(`could not read the repository ${owner}/${repo} (HTTP ${statusOf(error) ?? '?'}): ${messageOf(error)}; the token needs metadata: read`, {
        cause: error
      });
    }
  }

  async classicChecks(owner: string, repo: string, branch: string): Promise<Read<ClassicCheck[] | null>> {
    let data: unknown;
    try {
      ({ data } = await this.octokit.request('GET /repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks', { owner, repo, branch }));
    } catch (error) {
      // GitHub's two documented "none" answers; any other 404 (a token that may not see it) is unreadable.
      if (statusOf(error) === 404 && /^(Branch not protected|Required status checks not enabled)$/i.test(messageOf(error))) return { read: true, value: null };
      return notRead(error, 'Administration: read (a workflow token cannot have it: use settings-token)');
    }
    const parsed = classicSchema.safeParse(data);
    if (!parsed.success) return malformed('required status checks', parsed.error);
    const checks: ClassicCheck[] = parsed.data.checks.map((c) => ({ context: c.context, appId: c.app_id }));
    // `contexts` names every required check; one without a `checks` entry is required from any source.
    for (const context of parsed.data.contexts) if (!checks.some((c) => c.context === context)) checks.push({ context, appId: null });
    return { read: true, value: checks };
  }

  async branchRules(owner: string, repo: string, branch: string): Promise<Read<{ checks: RulesetCheck[]; workflows: RulesetWorkflow[] }>> {
    let data: unknown;
    try {
      data = await this.octokit.paginate('GET /repos/{owner}/{repo}/rules/branches/{branch}', { owner, repo, branch, per_page: 100 });
    } catch (error) {
      return notRead(error, 'Metadata: read');
    }
    const parsed = z.array(ruleSchema).safeParse(data);
    if (!parsed.success) return malformed('the branch rules', parsed.error);
    const checks: RulesetCheck[] = [];
    const workflows: RulesetWorkflow[] = [];
    for (const rule of parsed.data) {
      if (rule.type === 'required_status_checks' && 'parameters' in rule && 'required_status_checks' in rule.parameters) {
        for (const c of rule.parameters.required_status_checks) {
          checks.push({ context: c.context, ...(c.integration_id !== undefined ? { integrationId: c.integration_id } : {}), ruleset: rulesetName(rule) });
        }
      } else if (rule.type === 'workflows' && 'parameters' in rule && 'workflows' in rule.parameters) {
        for (const w of rule.parameters.workflows) {
          workflows.push({
            path: w.path,
            repositoryId: w.repository_id,
            ...(w.ref !== undefined ? { ref: w.ref } : {}),
            ...(w.sha !== undefined ? { sha: w.sha } : {}),
            ruleset: rulesetName(rule)
          });
        }
      }
    }
    return { read: true, value: { checks, workflows } };
  }

  async environment(owner: string, repo: string, name: string): Promise<Read<EnvironmentFacts | null>> {
    let data: unknown;
    try {
      ({ data } = await this.octokit.request('GET /repos/{owner}/{repo}/environments/{environment_name}', { owner, repo, environment_name: name }));
    } catch (error) {
      // Environments are readable by anyone who can read the repository: a 404 here is "no such environment".
      if (statusOf(error) === 404) return { read: true, value: null };
      return notRead(error, 'read access to the repository (Actions: read)');
    }
    const parsed = environmentSchema.safeParse(data);
    if (!parsed.success) return malformed(`environment ${name}`, parsed.error);
    const policy = parsed.data.deployment_branch_policy ?? null;
    const facts: EnvironmentFacts = {
      branchPolicy: policy === null ? null : { protectedBranches: policy.protected_branches, customBranchPolicies: policy.custom_branch_policies },
      requiredReviewers: (parsed.data.protection_rules ?? []).some((r) => r.type === 'required_reviewers')
    };
    if (policy !== null && policy.custom_branch_policies) {
      try {
        const pages: unknown = await this.octokit.paginate('GET /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies', {
          owner,
          repo,
          environment_name: name,
          per_page: 100
        });
        const policies = z.array(branchPoliciesSchema.shape.branch_policies.element).safeParse(pages);
        facts.patterns = policies.success
          ? { read: true, value: policies.data.map((p) => ({ name: p.name, type: p.type ?? 'branch' })) }
          : malformed(`the deployment branch policies of ${name}`, policies.error);
      } catch (error) {
        facts.patterns = notRead(error, 'read access to the repository (Actions: read)');
      }
    }
    return { read: true, value: facts };
  }

  async forkApproval(owner: string, repo: string): Promise<Read<ApprovalPolicy>> {
    try {
      const { data } = await this.octokit.request('GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval', { owner, repo });
      const parsed = approvalSchema.safeParse(data);
      return parsed.success ? { read: true, value: parsed.data.approval_policy } : malformed('the fork approval policy', parsed.error);
    } catch (error) {
      return notRead(error, 'Administration: read (a workflow token cannot have it: use settings-token)');
    }
  }

  async privateForkSettings(owner: string, repo: string): Promise<Read<PrivateForkSettings>> {
    try {
      const { data } = await this.octokit.request('GET /repos/{owner}/{repo}/actions/permissions/fork-pr-workflows-private-repos', { owner, repo });
      const parsed = privateForkSchema.safeParse(data);
      if (!parsed.success) return malformed('the fork workflow settings', parsed.error);
      const s = parsed.data;
      return {
        read: true,
        value: {
          runWorkflows: s.run_workflows_from_fork_pull_requests,
          requireApproval: s.require_approval_for_fork_pr_workflows,
          sendSecrets: s.send_secrets_and_variables,
          sendWriteTokens: s.send_write_tokens_to_workflows
        }
      };
    } catch (error) {
      return notRead(error, 'Administration: read (a workflow token cannot have it: use settings-token)');
    }
  }

  async appBySlug(slug: string): Promise<Read<{ id: number; slug: string }>> {
    try {
      const { data } = await this.octokit.request('GET /apps/{app_slug}', { app_slug: slug });
      const parsed = z.object({ id: z.number().int(), slug: z.string().optional() }).safeParse(data);
      return parsed.success ? { read: true, value: { id: parsed.data.id, slug: parsed.data.slug ?? slug } } : malformed(`app ${slug}`, parsed.error);
    } catch (error) {
      return notRead(error, 'read access to public data');
    }
  }

  async checkRunsNamed(owner: string, repo: string, sha: string, name: string): Promise<Read<NamedCheckRun[]>> {
    const runs: NamedCheckRun[] = [];
    try {
      for (let page = 1; runs.length < CHECK_RUNS_MAX; page += 1) {
        const { data } = await this.octokit.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', {
          owner,
          repo,
          ref: sha,
          check_name: name,
          filter: 'latest',
          per_page: 100,
          page
        });
        const parsed = checkRunsSchema.safeParse(data);
        if (!parsed.success) return malformed(`the check runs of ${sha}`, parsed.error);
        for (const run of parsed.data.check_runs) {
          if (run.name !== name) continue;
          runs.push({ appId: run.app?.id ?? 0, appSlug: run.app?.slug ?? 'unknown app', conclusion: run.conclusion });
        }
        if (parsed.data.check_runs.length < 100) break;
      }
    } catch (error) {
      return notRead(error, 'checks: read');
    }
    return { read: true, value: runs };
  }
}

/** A reader through @actions/github's octokit, authenticated with `token`. */
export function createRepositorySettingsReader(token: string, baseUrl: string): RepositorySettingsReader {
  return new OctokitSettingsReader(getOctokit(token, { baseUrl }));
}
