import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { defaultDoctorModeDeps, doctorMode } from '../../src/action/doctor-mode.js';
import { run } from '../../src/action/main.js';
import type { ModeResult } from '../../src/action/mode.js';
import { GITHUB_ACTIONS_APP_ID, type FindingId, type Severity } from '../../src/core/setup-doctor.js';
import { readActionSettings } from '../../src/inputs/action-settings.js';
import type { StepOutcome } from '../../src/publish/ports.js';
import { recordingOutcome } from '../helpers/action-receipts.js';
import { quietly, setEnv } from '../helpers/process-env.js';
import { startGitHubServer, type GitHubServer, type GitHubServerOptions, type RepositorySettingsFixture } from '../support/github-server.js';

/**
 * doctorMode end to end, in process, with the real toolkit clients (@actions/github's octokit, the
 * GitHub App token flow) against the loopback GitHub server, which serves each setting in the shape
 * of GitHub's published OpenAPI description and validates every request and answer against it. One
 * test per answer the doctor gives.
 */

const TOKEN = 'ghs_test';
const APP_ID = 424242;
const INSTALLATION = 9_100_001;
const INSTALLATION_TOKEN = 'ghs_installation_token_of_the_app';
const REPO_ID = 1296269;
/** The commit the doctor job runs on (GITHUB_SHA): its check run goes there. */
const MAIN_SHA = 'a'.repeat(40);
/** A pull request's head, for `head`. */
const PR_HEAD = 'b'.repeat(40);
const keys = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const testApp = { id: APP_ID, publicKey: keys.publicKey, installationId: INSTALLATION, installationToken: INSTALLATION_TOKEN };

/** A rule of an active ruleset, as `GET .../rules/branches/{branch}` details it. */
const requiredChecksRule = (checks: { context: string; integration_id?: number }[]): Record<string, unknown> => ({
  type: 'required_status_checks',
  ruleset_source_type: 'Repository',
  ruleset_source: 'octo-org/hello-world',
  ruleset_id: 42,
  parameters: { required_status_checks: checks, strict_required_status_checks_policy: true }
});
const workflowsRule = (workflows: { path: string; repository_id: number; ref?: string; sha?: string }[]): Record<string, unknown> => ({
  type: 'workflows',
  ruleset_source_type: 'Organization',
  ruleset_source: 'octo-org',
  ruleset_id: 43,
  parameters: { workflows }
});
const pullRequestRule: Record<string, unknown> = {
  type: 'pull_request',
  ruleset_source_type: 'Repository',
  ruleset_source: 'octo-org/hello-world',
  ruleset_id: 42,
  parameters: {
    dismiss_stale_reviews_on_push: true,
    require_code_owner_review: false,
    require_last_push_approval: true,
    required_approving_review_count: 1,
    required_review_thread_resolution: false
  }
};

/** The environment holding the key, open to main only. */
const mainOnly = {
  patchproof: { deploymentBranchPolicy: { protected_branches: false, custom_branch_policies: true }, branchPolicies: [{ name: 'main', type: 'branch' as const }] }
};

let github: GitHubServer | undefined;
afterEach(async () => {
  const server = github;
  github = undefined;
  if (server === undefined) return;
  try {
    // Every request the doctor sent, and every answer the server gave, follows the description.
    expect(server.invalidRequests()).toEqual([]);
    expect(server.invalidResponses()).toEqual([]);
  } finally {
    await server.close();
  }
});

interface Doctored {
  result: ModeResult;
  severities: Partial<Record<FindingId, Severity>>;
  summary: string;
  warnings: string[];
  server: GitHubServer;
}

/** Markdown as a reader sees it: the backslash escapes of ASCII punctuation (markdown.ts's escapeMarkdown) removed. */
const shown = (markdown: string | null): string => (markdown ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** Serve `settings`, run doctor mode with `inputs`, and return what it said. */
async function doctor(
  settings: RepositorySettingsFixture,
  inputs: Record<string, string> = {},
  server: Partial<GitHubServerOptions> = {},
  seed: (server: GitHubServer) => void = () => undefined
): Promise<Doctored> {
  github = await startGitHubServer({ token: TOKEN, settings, ...server });
  seed(github);
  const all: Record<string, string> = { mode: 'doctor', 'github-token': TOKEN, ...inputs };
  const parsed = readActionSettings((name) => all[name] ?? '');
  const recorded = recordingOutcome();
  const env = { GITHUB_REPOSITORY: 'octo-org/hello-world', GITHUB_SHA: MAIN_SHA, GITHUB_API_URL: github.url };
  const result = await quietly(() => doctorMode(parsed, recorded.outcome, { ...defaultDoctorModeDeps(), env }));
  return { result, severities: result.doctor?.findings ?? {}, summary: recorded.summaries.join('\n'), warnings: recorded.warnings, server: github };
}

/** The doctor's own check run on the default branch's commit. */
function doctorCheck(server: GitHubServer): { name: string; conclusion: string | null; head_sha: string; summary: string | null; text: string | null } {
  const runs = server.checkRuns().filter((r) => r.name === 'PatchProof doctor');
  expect(runs).toHaveLength(1);
  const [check] = runs;
  if (check === undefined) throw new Error('no doctor check run');
  return { name: check.name, conclusion: check.conclusion, head_sha: check.head_sha, summary: check.output.summary, text: check.output.text };
}

describe('the required check: can another source satisfy it?', () => {
  it('name only (classic protection, app_id null): fail, the step fails, a failing doctor check run (not named like the gate)', async () => {
    const d = await doctor(
      { requiredStatusChecks: { checks: [{ context: 'PatchProof', app_id: null }] }, environments: mainOnly },
      { 'expected-app': String(APP_ID), 'app-environment': 'patchproof' }
    );
    expect(d.severities['required-check']).toBe('fail');
    expect(d.result.verdict).toBe('failed');
    expect(d.result.message).toMatch(/by name only \(any source\)/);
    const check = doctorCheck(d.server);
    expect(check).toMatchObject({ conclusion: 'failure', head_sha: MAIN_SHA });
    expect(d.server.checkRuns().some((r) => r.name === 'PatchProof')).toBe(false);
    expect(shown(check.summary)).toContain("any workflow job named 'PatchProof' satisfies it");
    expect(d.summary).toContain('必需检查能否被其他来源满足');
    expect(d.warnings.some((w) => w.startsWith('doctor required-check: fail:'))).toBe(true);
  });

  it("GitHub Actions (15368) as the source: fail; a pull request job's check run of that name, beside the App's, is reported as satisfying it", async () => {
    // The pull request's head carries the gate's check run (posted by the App, failing) and a job's
    // of the same name (posted as GitHub Actions, passing): the requirement takes the job's.
    const d = await doctor(
      { requiredStatusChecks: { checks: [{ context: 'PatchProof', app_id: GITHUB_ACTIONS_APP_ID }] }, environments: mainOnly, forkApproval: 'all_external_contributors' },
      { 'expected-app': String(APP_ID), 'app-environment': 'patchproof', head: PR_HEAD },
      {},
      (server) => {
        server.addCheckRun({ name: 'PatchProof', headSha: PR_HEAD, conclusion: 'failure', app: { id: APP_ID, slug: 'patchproof-test-app' } });
        server.addCheckRun({ name: 'PatchProof', headSha: PR_HEAD, conclusion: 'success', app: { id: GITHUB_ACTIONS_APP_ID, slug: 'github-actions' } });
      }
    );
    expect(d.severities).toMatchObject({ 'required-check': 'fail', 'head-check-runs': 'fail' });
    expect(d.summary).toMatch(/with GitHub Actions as the source/);
    expect(shown(d.summary)).toContain("carries 'PatchProof' from github-actions (app 15368), not from PatchProof's App");
    expect(doctorCheck(d.server).text).toContain("'PatchProof' from github-actions (app 15368): success");
  });

  it("the same two check runs with the requirement pinned to the App's id: ok, and the job's check run is only a warning", async () => {
    const d = await doctor(
      { requiredStatusChecks: { checks: [{ context: 'PatchProof', app_id: APP_ID }] }, environments: mainOnly, forkApproval: 'all_external_contributors' },
      { 'expected-app': String(APP_ID), 'app-environment': 'patchproof', head: PR_HEAD },
      {},
      (server) => {
        server.addCheckRun({ name: 'PatchProof', headSha: PR_HEAD, conclusion: 'failure', app: { id: APP_ID, slug: 'patchproof-test-app' } });
        server.addCheckRun({ name: 'PatchProof', headSha: PR_HEAD, conclusion: 'success', app: { id: GITHUB_ACTIONS_APP_ID, slug: 'github-actions' } });
      }
    );
    expect(d.severities).toEqual({ 'required-check': 'ok', 'app-key-environment': 'ok', 'fork-workflows': 'ok', 'head-check-runs': 'warn' });
    expect(d.result.verdict).toBe('checked');
    expect(doctorCheck(d.server).conclusion).toBe('neutral');
  });

  it("required with the App's id, the id taken from the App credentials (the app token flow): ok, and the key is shown to work", async () => {
    const d = await doctor(
      { requiredStatusChecks: { checks: [{ context: 'PatchProof', app_id: APP_ID }] }, environments: mainOnly, forkApproval: 'all_external_contributors' },
      { 'app-id': String(APP_ID), 'app-private-key': keys.privateKey, 'app-environment': 'patchproof' },
      { app: testApp }
    );
    expect(d.severities).toEqual({ 'required-check': 'ok', 'app-key-environment': 'ok', 'fork-workflows': 'ok', 'app-credentials': 'ok' });
    expect(d.result).toMatchObject({ verdict: 'checked', proofGrade: false, doctor: { worst: 'ok' } });
    expect(d.server.requests().map((r) => r.operationId)).toEqual(expect.arrayContaining(['apps/get-repo-installation', 'apps/create-installation-access-token']));
    // The doctor's own check run is posted with github-token, never as the App: the App posts verdicts only.
    expect(d.server.checkRuns().map((r) => [r.name, r.app.id, r.conclusion])).toEqual([['PatchProof doctor', GITHUB_ACTIONS_APP_ID, 'neutral']]);
  });

  it("a key that is not the App's: app-credentials fails", async () => {
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const d = await doctor(
      { requiredStatusChecks: { checks: [{ context: 'PatchProof', app_id: APP_ID }] }, environments: mainOnly, forkApproval: 'all_external_contributors' },
      { 'app-id': String(APP_ID), 'app-private-key': stranger.privateKey, 'app-environment': 'patchproof' },
      { app: testApp }
    );
    expect(d.severities['app-credentials']).toBe('fail');
    expect(d.result.verdict).toBe('failed');
    // The one invalid request is the JWT the server refused; everything else follows the description.
    expect(d.server.invalidRequests().map((r) => [r.operationId, r.status])).toEqual([['apps/get-repo-installation', 401]]);
    expect(d.server.invalidResponses()).toEqual([]);
    await d.server.close();
    github = undefined;
  });

  it('expected-app by slug: resolved with GET /apps/{slug}', async () => {
    const d = await doctor(
      { rules: [requiredChecksRule([{ context: 'PatchProof', integration_id: APP_ID }])], environments: mainOnly, forkApproval: 'all_external_contributors' },
      { 'expected-app': 'patchproof-test-app', 'app-environment': 'patchproof' },
      { app: testApp }
    );
    expect(d.severities['required-check']).toBe('ok');
    expect(d.summary).toContain('`patchproof-test-app` (id 424242)');
    expect(d.server.requests().some((r) => r.operationId === 'apps/get-by-slug')).toBe(true);
  });

  it('a ruleset whose workflows rule requires the gate workflow at the default branch: ok (other rules are ignored)', async () => {
    const d = await doctor(
      {
        rules: [pullRequestRule, workflowsRule([{ path: '.github/workflows/patchproof-gate.yml', repository_id: REPO_ID, ref: 'refs/heads/main' }])],
        environments: mainOnly,
        forkApproval: 'first_time_contributors'
      },
      { 'app-environment': 'patchproof' }
    );
    expect(d.severities['required-check']).toBe('ok');
    // Pinned, so forks' unapproved workflows are only a warning.
    expect(d.severities['fork-workflows']).toBe('warn');
    expect(shown(d.summary)).toContain('requires the gate workflow');
  });

  it('a ruleset requiring the check by name only: fail, like classic protection', async () => {
    const d = await doctor(
      { rules: [requiredChecksRule([{ context: 'PatchProof' }])], environments: mainOnly },
      { 'expected-app': String(APP_ID), 'app-environment': 'patchproof' }
    );
    expect(d.severities['required-check']).toBe('fail');
  });

  it('no required check at all: fail, a failing verdict blocks nothing', async () => {
    const d = await doctor({ environments: mainOnly, forkApproval: 'all_external_contributors' }, { 'expected-app': String(APP_ID), 'app-environment': 'patchproof' });
    expect(d.severities['required-check']).toBe('fail');
    expect(d.result.message).toMatch(/No rule of main requires 'PatchProof'/);
  });

  it('403 on branch protection (a workflow token): unknown with the reason, never ok; the step stays green with warnings', async () => {
    const d = await doctor(
      { environments: mainOnly, denied: ['repos/get-status-checks-protection', 'actions/get-fork-pr-contributor-approval-permissions-repository'] },
      { 'expected-app': String(APP_ID), 'app-environment': 'patchproof' }
    );
    expect(d.severities).toEqual({ 'required-check': 'unknown', 'app-key-environment': 'ok', 'fork-workflows': 'unknown' });
    expect(d.result.verdict).toBe('checked');
    const check = doctorCheck(d.server);
    expect(check.conclusion).toBe('neutral');
    expect(check.text).toContain('classic branch protection of main: could not read (HTTP 403): Resource not accessible by integration; the token needs Administration: read');
    expect(d.warnings.filter((w) => /: unknown:/.test(w))).toHaveLength(2);
  });

  it('a 404 "Not Found" on branch protection is a token that may not see it: unknown; only "Branch not protected" means none', async () => {
    const hidden = await doctor({ environments: mainOnly, hidden: ['repos/get-status-checks-protection'] }, { 'expected-app': String(APP_ID), 'app-environment': 'patchproof' });
    expect(hidden.severities['required-check']).toBe('unknown');
    expect(doctorCheck(hidden.server).text).toContain('classic branch protection of main: could not read (HTTP 404): Not Found');
    expect(hidden.server.invalidRequests()).toEqual([]);
    expect(hidden.server.invalidResponses()).toEqual([]);
    await hidden.server.close();
    github = undefined;
    const unprotected = await doctor({ environments: mainOnly }, { 'expected-app': String(APP_ID), 'app-environment': 'patchproof' });
    expect(unprotected.severities['required-check']).toBe('fail');
    expect(doctorCheck(unprotected.server).text).toContain('classic branch protection of main: no required status checks');
  });

  it('settings-token reads the settings; github-token posts the check run', async () => {
    const d = await doctor(
      { requiredStatusChecks: { checks: [{ context: 'PatchProof', app_id: APP_ID }] }, environments: mainOnly, forkApproval: 'all_external_contributors' },
      { 'expected-app': String(APP_ID), 'app-environment': 'patchproof', 'settings-token': INSTALLATION_TOKEN },
      { app: testApp }
    );
    expect(d.severities['required-check']).toBe('ok');
    const protection = d.server.requests().find((r) => r.operationId === 'repos/get-status-checks-protection');
    expect(protection?.headers['authorization']).toBe(`token ${INSTALLATION_TOKEN}`);
    const create = d.server.requests().find((r) => r.operationId === 'checks/create');
    expect(create?.headers['authorization']).toBe(`token ${TOKEN}`);
  });
});

describe('the App key: limited to the default branch?', () => {
  const pinned: RepositorySettingsFixture = { requiredStatusChecks: { checks: [{ context: 'PatchProof', app_id: APP_ID }] }, forkApproval: 'all_external_contributors' };
  it.each<[string, RepositorySettingsFixture['environments'], Severity]>([
    ['protected branches only', { patchproof: { deploymentBranchPolicy: { protected_branches: true, custom_branch_policies: false } } }, 'ok'],
    ['main only', mainOnly, 'ok'],
    ['no policy: any branch', { patchproof: { deploymentBranchPolicy: null } }, 'fail'],
    ['no policy, a required reviewer', { patchproof: { deploymentBranchPolicy: null, requiredReviewers: true } }, 'warn'],
    [
      'main and release/*',
      {
        patchproof: {
          deploymentBranchPolicy: { protected_branches: false, custom_branch_policies: true },
          branchPolicies: [
            { name: 'main', type: 'branch' },
            { name: 'release/*', type: 'branch' }
          ]
        }
      },
      'fail'
    ],
    ['no such environment', {}, 'fail']
  ])('%s: %s', async (_name, environments, severity) => {
    const d = await doctor({ ...pinned, ...(environments !== undefined ? { environments } : {}) }, { 'expected-app': String(APP_ID), 'app-environment': 'patchproof' });
    expect(d.severities['app-key-environment']).toBe(severity);
  });

  it('not named: unknown, not checked', async () => {
    const d = await doctor(pinned, { 'expected-app': String(APP_ID) });
    expect(d.severities['app-key-environment']).toBe('unknown');
    expect(d.server.requests().some((r) => r.operationId === 'repos/get-environment')).toBe(false);
  });
});

describe("forks' workflows: run without approval?", () => {
  const base = (forkApproval: RepositorySettingsFixture['forkApproval']): RepositorySettingsFixture => ({
    requiredStatusChecks: { checks: [{ context: 'PatchProof', app_id: null }] },
    environments: mainOnly,
    ...(forkApproval !== undefined ? { forkApproval } : {})
  });
  it.each<[RepositorySettingsFixture['forkApproval'], Severity]>([
    ['all_external_contributors', 'ok'],
    ['first_time_contributors', 'fail'],
    ['first_time_contributors_new_to_github', 'fail']
  ])('public, %s, check by name only: %s', async (policy, severity) => {
    const d = await doctor(base(policy), { 'expected-app': String(APP_ID), 'app-environment': 'patchproof' });
    expect(d.severities['fork-workflows']).toBe(severity);
  });

  it.each<[string, NonNullable<RepositorySettingsFixture['privateForkWorkflows']>, Severity]>([
    [
      'fork workflows off',
      { run_workflows_from_fork_pull_requests: false, send_write_tokens_to_workflows: false, send_secrets_and_variables: false, require_approval_for_fork_pr_workflows: false },
      'ok'
    ],
    [
      'after approval',
      { run_workflows_from_fork_pull_requests: true, send_write_tokens_to_workflows: false, send_secrets_and_variables: false, require_approval_for_fork_pr_workflows: true },
      'ok'
    ],
    [
      'with secrets',
      { run_workflows_from_fork_pull_requests: true, send_write_tokens_to_workflows: false, send_secrets_and_variables: true, require_approval_for_fork_pr_workflows: true },
      'fail'
    ]
  ])('private, %s: %s', async (_name, privateForkWorkflows, severity) => {
    const d = await doctor(
      { private: true, privateForkWorkflows, requiredStatusChecks: { checks: [{ context: 'PatchProof', app_id: APP_ID }] }, environments: mainOnly },
      { 'expected-app': String(APP_ID), 'app-environment': 'patchproof' }
    );
    expect(d.severities['fork-workflows']).toBe(severity);
    expect(d.server.requests().some((r) => r.operationId === 'actions/get-fork-pr-contributor-approval-permissions-repository')).toBe(false);
  });
});

describe('doctor through run(), the action entry', () => {
  it('reads its inputs, sets verdict and the doctor outputs, and fails the step on a setup problem; never passed', async () => {
    github = await startGitHubServer({ token: TOKEN, settings: { requiredStatusChecks: { checks: [{ context: 'PatchProof', app_id: null }] }, environments: mainOnly } });
    const outputs: Record<string, string> = {};
    const failed: string[] = [];
    const outcome: StepOutcome = {
      setOutput: (name, value) => void (outputs[name] = value),
      summary: () => Promise.resolve(),
      setFailed: (message) => void failed.push(message),
      info: () => undefined,
      warning: () => undefined
    };
    const restore = setEnv({
      INPUT_MODE: 'doctor',
      'INPUT_GITHUB-TOKEN': TOKEN,
      'INPUT_EXPECTED-APP': String(APP_ID),
      'INPUT_APP-ENVIRONMENT': 'patchproof',
      GITHUB_REPOSITORY: 'octo-org/hello-world',
      GITHUB_SHA: MAIN_SHA,
      GITHUB_API_URL: github.url
    });
    try {
      await quietly(() => run(outcome));
    } finally {
      restore();
    }
    expect(outputs).toEqual({
      verdict: 'failed',
      'proof-grade': 'false',
      doctor: 'fail',
      'doctor-findings': JSON.stringify({ 'required-check': 'fail', 'app-key-environment': 'ok', 'fork-workflows': 'fail' })
    });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/^PatchProof doctor: 2 failed: required-check: /);
  });
});
