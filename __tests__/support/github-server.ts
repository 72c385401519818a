import { createHash, createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describedExample, matchRoute, pathExists, validateRequest, validateResponse, type OpenApiOperation } from './openapi.js';

/**
 * A loopback GitHub REST API for tests. Every request is matched to an operation of GitHub's
 * published OpenAPI description and validated against it (path, query, JSON body); invalid ones
 * get 422 and are recorded, so a test can assert `invalidRequests()` is empty. Every answer is
 * validated against the description's response schema too (`invalidResponses()`).
 */

/** One request as the server saw it. */
export interface RecordedRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Raw path and query string. */
  url: string;
  /** GitHub's operation id (`checks/create`), when the route exists in the description. */
  operationId: string | undefined;
  /** Request headers (lower-case names). */
  headers: Record<string, string>;
  /** Parsed JSON body, `undefined` when there was none. */
  body: unknown;
  /** Status the server answered with. */
  status: number;
  /** Why the request was invalid; empty when it was valid. */
  errors: string[];
  /** Where the server's own answer broke the description (a bug in this file); normally empty. */
  responseErrors: string[];
}

/** One annotation of a check run, as sent by the client. */
export interface CheckRunAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  message: string;
  title?: string;
  raw_details?: string;
}

/** A check run as stored, with every annotation appended across updates. */
export interface StoredCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  started_at: string | null;
  completed_at: string | null;
  details_url: string | null;
  external_id: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  /** All annotations received, in order. */
  annotations: CheckRunAnnotation[];
  /** How many create/update requests touched it. */
  writes: number;
  /** The app GitHub shows as the check run's source: GitHub Actions for the workflow token, the GitHub App for its installation token. */
  app: { id: number; slug: string };
}

/** A pull request to serve from `GET /repos/{owner}/{repo}/pulls/{pull_number}`. */
export interface PullRequestFixture {
  number: number;
  /** Head commit: what a check run for the PR must use as `head_sha`. */
  headSha: string;
  headRef?: string;
  baseSha?: string;
  baseRef?: string;
  /** `owner/repo` of the head; a value other than the server's repository makes it a fork PR. */
  headRepository?: string;
  title?: string;
  state?: 'open' | 'closed';
  /** false: `PUT .../merge` answers 405 "Pull Request is not mergeable" (conflicts, a failing required check). */
  mergeable?: boolean;
  /** Label names, as `GET /repos/{owner}/{repo}/pulls` lists them. */
  labels?: string[];
}

/** An issue comment as stored (`GET/POST /repos/{o}/{r}/issues/{n}/comments`, `PATCH .../issues/comments/{id}`). */
export interface StoredComment {
  id: number;
  issue: number;
  body: string;
  /** Who wrote it: a person (`User`) or an app's bot account (`Bot`, what a workflow token writes as). */
  user: { login: string; type: 'User' | 'Bot' };
  /** How many times it was updated. */
  updates: number;
}

/** A merge the server performed (`PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge` answered 200). */
export interface RecordedMerge {
  number: number;
  /** The head commit that was merged. */
  headSha: string;
  method: 'merge' | 'squash' | 'rebase';
  /** The merge commit the server made up. */
  mergeSha: string;
}

/** An artifact as the Actions REST API lists it (see `artifact-server.ts`). */
export interface ListedArtifact {
  id: number;
  name: string;
  size: number;
  /** `sha256:<hex>`. */
  digest: string;
  createdAt: Date;
  expiresAt: Date | undefined;
}

/** A workflow run of the served repository (or, with `repository`, one GitHub would show as another's). */
export interface WorkflowRunFixture {
  id: number;
  headSha: string;
  /** The workflow's name. Default `CI`. */
  name?: string;
  event?: string;
  status?: 'queued' | 'in_progress' | 'completed';
  conclusion?: 'success' | 'failure' | null;
  /** `owner/repo` the run belongs to; default the served repository. */
  repository?: string;
}

/** A commit status (`POST /repos/{o}/{r}/statuses/{sha}` as a CI service would have made it). */
export interface CommitStatusFixture {
  sha: string;
  context: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  description?: string;
}

/** A check run another app posted, seeded with {@link GitHubServer.addCheckRun}. */
export interface CheckRunFixture {
  name: string;
  headSha: string;
  status?: 'queued' | 'in_progress' | 'completed';
  conclusion?: string | null;
  app: { id: number; slug: string };
}

/** An environment as `GET .../environments/{name}` serves it (doctor mode reads it). */
export interface EnvironmentFixture {
  /** null: any branch may deploy (GitHub's "no policy"). */
  deploymentBranchPolicy: null | { protected_branches: boolean; custom_branch_policies: boolean };
  /** With custom policies: the name patterns (`GET .../deployment-branch-policies`). */
  branchPolicies?: { name: string; type?: 'branch' | 'tag' }[];
  /** A required-reviewers protection rule. */
  requiredReviewers?: boolean;
}

/**
 * The repository's settings the setup check (`mode: doctor`) reads, served as GitHub's description
 * shapes them. An absent field is what GitHub answers when nothing is set.
 */
export interface RepositorySettingsFixture {
  /** `GET /repos/{o}/{r}`: the default branch (default `main`), the repository id (default 1296269), private (default false). */
  defaultBranch?: string;
  id?: number;
  private?: boolean;
  /** Classic protection's required status checks of every branch; absent: 404 "Branch not protected". */
  requiredStatusChecks?: { checks: { context: string; app_id: number | null }[]; strict?: boolean };
  /** The active rules on every branch (`GET .../rules/branches/{branch}`), as GitHub details them. Default none. */
  rules?: Record<string, unknown>[];
  /** Environments by name; any other name is 404. */
  environments?: Record<string, EnvironmentFixture>;
  /** The fork pull request approval policy; default `first_time_contributors` (GitHub's default). */
  forkApproval?: 'first_time_contributors_new_to_github' | 'first_time_contributors' | 'all_external_contributors';
  /** A private repository's fork workflow settings; default: fork workflows do not run. */
  privateForkWorkflows?: {
    run_workflows_from_fork_pull_requests: boolean;
    send_write_tokens_to_workflows: boolean;
    send_secrets_and_variables: boolean;
    require_approval_for_fork_pr_workflows: boolean;
  };
  /**
   * Operation ids answered 403 "Resource not accessible by integration", as GitHub answers a token
   * without the permission (a workflow token reading branch protection, for one).
   */
  denied?: string[];
  /** Operation ids answered 404 "Not Found", as GitHub answers a token that may not see the setting at all. */
  hidden?: string[];
}

/** Where the REST artifact routes get their data: the loopback artifact service. */
export interface ArtifactSource {
  /** The workflow run (GITHUB_RUN_ID) the artifacts belong to. */
  readonly runId: number;
  /** Finalized artifacts of that run. */
  listArtifacts(): ListedArtifact[];
  /** A short-lived signed download URL for an artifact, if it exists. */
  downloadUrl(id: number): string | undefined;
}

/** Options for {@link startGitHubServer}. */
export interface GitHubServerOptions {
  /** The token clients must send (`authorization: token X` or `Bearer X`). Default `ghs_test`. */
  token?: string;
  /** The only repository served, `owner/repo`. Default `octo-org/hello-world`. */
  repository?: string;
  /** Answer every write with 403, as GitHub does for a fork pull request's token. */
  readOnlyToken?: boolean;
  /** Pull requests to serve. */
  pulls?: PullRequestFixture[];
  /** Issue comments already there (e.g. a person's comment quoting a marker). */
  comments?: Omit<StoredComment, 'id' | 'updates'>[];
  /** Backing store for the Actions artifact routes: one artifact service per workflow run. */
  artifacts?: ArtifactSource | ArtifactSource[];
  /** Workflow runs to serve from `GET .../actions/runs` (filtered by head_sha) and `GET .../actions/runs/{run_id}`. */
  workflowRuns?: WorkflowRunFixture[];
  /** Commit statuses to serve from `GET .../commits/{ref}/status`. */
  statuses?: CommitStatusFixture[];
  /** Accept request-body fields the description does not name (GitHub ignores them). Default false. */
  allowUnknownFields?: boolean;
  /** A GitHub App installed on the repository: its JWTs and installation tokens are accepted. */
  app?: TestGitHubApp;
  /** The repository's settings, for the setup check's reads. */
  settings?: RepositorySettingsFixture;
  /**
   * Branch protection's required status checks of the base branch, which `PUT .../pulls/{n}/merge`
   * enforces (405 until each holds on the head commit), as GitHub documents the matching: a check
   * named `context` counts when its latest run (per app) completed with success, neutral or skipped;
   * with `appId` (the "expected source") only that app's check runs count. Without `appId` any check
   * run of that name counts, whoever made it: a pull request's own workflow job of that name too.
   */
  requiredChecks?: { context: string; appId?: number }[];
}

/**
 * A GitHub App as the server knows it: JWTs (RS256, `iss` = the app id) are verified with the public
 * key; `POST /app/installations/{id}/access_tokens` hands out `installationToken`, which is then
 * accepted like `token` on the repository's routes.
 */
export interface TestGitHubApp {
  id: number;
  /** PEM (SPKI or PKCS#1) public key of the app's private key. */
  publicKey: string;
  installationId: number;
  installationToken: string;
}

/** Why a JWT is not the app's, or undefined when it is: signature, algorithm, issuer, lifetime. */
export function appJwtErrors(jwt: string, app: { id: number; publicKey: KeyObject }, nowSeconds = Math.floor(Date.now() / 1000)): string[] {
  const parts = jwt.split('.');
  if (parts.length !== 3) return ['not a JWT (three dot-separated parts)'];
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as Record<string, unknown>;
    claims = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return ['the JWT header or payload is not base64url JSON'];
  }
  const errors: string[] = [];
  if (header['alg'] !== 'RS256') errors.push(`JWT alg must be RS256, got ${String(header['alg'])}`);
  const signed = verifySignature('RSA-SHA256', Buffer.from(`${headerPart}.${payloadPart}`), app.publicKey, Buffer.from(signaturePart, 'base64url'));
  if (!signed) errors.push("the JWT's signature does not verify with the app's public key");
  if (String(claims['iss']) !== String(app.id)) errors.push(`JWT iss must be the app id ${app.id}, got ${String(claims['iss'])}`);
  const iat = Number(claims['iat']);
  const exp = Number(claims['exp']);
  if (!Number.isFinite(iat) || !Number.isFinite(exp)) errors.push('JWT iat and exp must be numbers');
  else {
    if (exp <= nowSeconds) errors.push('the JWT has expired');
    if (iat > nowSeconds + 60) errors.push('the JWT was issued in the future');
    // GitHub refuses a JWT whose lifetime exceeds ten minutes.
    if (exp - iat > 600 + 60) errors.push('the JWT lives longer than ten minutes');
  }
  return errors;
}

/** A running loopback GitHub API. */
export interface GitHubServer {
  /** Base URL to hand to octokit (`baseUrl`) or to set as GITHUB_API_URL. */
  url: string;
  /** Every request, in arrival order. */
  requests(): RecordedRequest[];
  /** Requests that broke the description or GitHub's documented rules. */
  invalidRequests(): RecordedRequest[];
  /** Requests whose answer broke the description's response schema. */
  invalidResponses(): RecordedRequest[];
  /** Stored check runs with their accumulated annotations. */
  checkRuns(): StoredCheckRun[];
  /** Change a served pull request, e.g. a push moves its head (`headSha`). */
  updatePull(number: number, change: Partial<Omit<PullRequestFixture, 'number'>>): void;
  /** Merges performed, in order. */
  merges(): RecordedMerge[];
  /** Issue comments, in creation order. */
  comments(): StoredComment[];
  /** Store a check run as another app (CI) would have posted it; returns its id. */
  addCheckRun(fixture: CheckRunFixture): number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Handler = (ctx: HandlerContext) => Reply;

/** A JSON object: a request body, or one of the description's examples being edited into a response. */
type Body = Record<string, unknown>;
const isBody = (value: unknown): value is Body => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The object at `path` inside an example, to edit in place (the examples have these; a missing one is a broken fixture). */
function objectIn(body: Body, ...path: string[]): Body {
  let here: unknown = body;
  for (const key of path) here = isBody(here) ? here[key] : undefined;
  if (!isBody(here)) throw new TypeError(`the example has no object at ${path.join('.')}`);
  return here;
}

interface HandlerContext {
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown>;
  op: OpenApiOperation;
  /** The token the request authenticated with. */
  token: string;
}

const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function error(status: number, message: string, op: OpenApiOperation | undefined, extra: object = {}): Reply {
  const documentation_url = op?.docsUrl ?? 'https://docs.github.com/rest';
  return { status, body: { message, documentation_url, status: String(status), ...extra } };
}

function invalid(op: OpenApiOperation, errors: string[]): Reply {
  return error(422, `Invalid request.\n\n${errors.join('\n')}`, op, {
    errors: errors.map((message) => ({ code: 'invalid', message }))
  });
}

/** Slices one page and builds GitHub's Link header. */
function paginate<T>(items: T[], query: Record<string, string>, selfUrl: string): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(Number(query['per_page'] ?? 30), 100);
  const page = Math.max(Number(query['page'] ?? 1), 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const link = (p: number, rel: string): string => {
    const u = new URL(selfUrl);
    u.searchParams.set('per_page', String(perPage));
    u.searchParams.set('page', String(p));
    return `<${u.href}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
  return {
    page: items.slice((page - 1) * perPage, page * perPage),
    headers: links.length > 0 ? { link: links.join(', ') } : {}
  };
}

/** Starts the server on 127.0.0.1 with a random port. */
export async function startGitHubServer(options: GitHubServerOptions = {}): Promise<GitHubServer> {
  const token = options.token ?? 'ghs_test';
  const repository = options.repository ?? 'octo-org/hello-world';
  const [owner = '', repo = ''] = repository.split('/');
  const recorded: RecordedRequest[] = [];
  const runs = new Map<number, StoredCheckRun>();
  let nextCheckRunId = 1001;
  let baseUrl = '';
  const htmlBase = `https://github.com/${repository}`;
  const example = describedExample('check-run-example-of-completed-conclusion');
  const actionsApp = { ...(example['app'] as object), id: 15368, slug: 'github-actions', name: 'GitHub Actions' };
  // Who posts with a token: an installation token is its app's; any other token is a workflow's GITHUB_TOKEN.
  const appOf = (presented: string): { id: number; slug: string; name: string } =>
    options.app !== undefined && presented === options.app.installationToken
      ? { id: options.app.id, slug: 'patchproof-test-app', name: 'PatchProof test app' }
      : { id: 15368, slug: 'github-actions', name: 'GitHub Actions' };
  const pulls = new Map((options.pulls ?? []).map((p) => [p.number, { ...p }]));
  const sources: ArtifactSource[] = options.artifacts === undefined ? [] : Array.isArray(options.artifacts) ? options.artifacts : [options.artifacts];
  const merged = new Map<number, RecordedMerge>();
  let nextCommentId = 5001;
  const comments = new Map<number, StoredComment>(
    (options.comments ?? []).map((c) => {
      const id = nextCommentId++;
      return [id, { ...c, id, updates: 0 }];
    })
  );
  // A workflow's GITHUB_TOKEN writes as github-actions[bot]; the test app's installation token as the app's bot.
  const commenterOf = (presented: string): StoredComment['user'] => ({ login: `${appOf(presented).slug}[bot]`, type: 'Bot' });
  const commentBody = (c: StoredComment): object => {
    const body: Body = describedExample('issue-comment');
    Object.assign(body, {
      id: c.id,
      node_id: Buffer.from(`012:IssueComment${c.id}`).toString('base64'),
      url: `${baseUrl}/repos/${repository}/issues/comments/${c.id}`,
      html_url: `${htmlBase}/issues/${c.issue}#issuecomment-${c.id}`,
      issue_url: `${baseUrl}/repos/${repository}/issues/${c.issue}`,
      body: c.body,
      created_at: now(),
      updated_at: now()
    });
    if (body['user'] !== null && typeof body['user'] === 'object') Object.assign(body['user'], { login: c.user.login, type: c.user.type });
    delete body['performed_via_github_app'];
    delete body['reactions'];
    return body;
  };

  const checkRunBody = (run: StoredCheckRun): object => ({
    id: run.id,
    head_sha: run.head_sha,
    node_id: Buffer.from(`04:CheckRun${run.id}`).toString('base64'),
    external_id: run.external_id ?? '',
    url: `${baseUrl}/repos/${repository}/check-runs/${run.id}`,
    html_url: `${htmlBase}/runs/${run.id}`,
    details_url: run.details_url ?? `${htmlBase}/runs/${run.id}`,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.started_at,
    completed_at: run.completed_at,
    output: {
      ...run.output,
      annotations_count: run.annotations.length,
      annotations_url: `${baseUrl}/repos/${repository}/check-runs/${run.id}/annotations`
    },
    name: run.name,
    check_suite: { id: 5000 + run.id },
    app: { ...actionsApp, ...run.app },
    pull_requests: [...pulls.values()]
      .filter((p) => p.headSha === run.head_sha && (p.headRepository ?? repository) === repository)
      .map((p) => ({
        url: `${baseUrl}/repos/${repository}/pulls/${p.number}`,
        id: 90000 + p.number,
        number: p.number,
        head: { ref: p.headRef ?? 'feature', sha: p.headSha, repo: { id: 1, url: `${baseUrl}/repos/${repository}`, name: repo } },
        base: { ref: p.baseRef ?? 'main', sha: p.baseSha ?? '0'.repeat(40), repo: { id: 1, url: `${baseUrl}/repos/${repository}`, name: repo } }
      }))
  });

  /** GitHub's own rules that the description states only in prose. */
  const checkRunRules = (body: Record<string, unknown>, existing: StoredCheckRun | undefined): string[] => {
    const errors: string[] = [];
    const conclusion = body['conclusion'] ?? existing?.conclusion ?? null;
    if ((body['status'] === 'completed' || body['completed_at'] !== undefined) && conclusion === null) {
      errors.push('conclusion is required when status is completed or completed_at is given');
    }
    if (body['conclusion'] === 'stale') errors.push('conclusion stale can only be set by GitHub');
    return errors;
  };

  const applyWrite = (run: StoredCheckRun, body: Record<string, unknown>): void => {
    for (const key of ['name', 'details_url', 'external_id', 'started_at', 'completed_at'] as const) {
      if (typeof body[key] === 'string') run[key] = body[key];
    }
    if (typeof body['status'] === 'string') run.status = body['status'];
    if (typeof body['conclusion'] === 'string') {
      // Providing a conclusion sets the status to completed (GitHub's documented behaviour).
      run.conclusion = body['conclusion'];
      run.status = 'completed';
      run.completed_at ??= now();
    }
    const output = body['output'] as Record<string, unknown> | undefined;
    if (output !== undefined) {
      if (typeof output['title'] === 'string') run.output.title = output['title'];
      if (typeof output['summary'] === 'string') run.output.summary = output['summary'];
      if (typeof output['text'] === 'string') run.output.text = output['text'];
      // Annotations are appended across updates, never replaced.
      run.annotations.push(...((output['annotations'] as CheckRunAnnotation[] | undefined) ?? []));
    }
    run.writes += 1;
  };

  const findRun = (ctx: HandlerContext): StoredCheckRun | undefined => runs.get(Number(ctx.params['check_run_id']));

  /** Whether a required check holds on `sha`: the latest run of that name per app, from the expected app when one is set. */
  const requiredCheckHolds = (required: { context: string; appId?: number }, sha: string): boolean => {
    const latest = new Map<number, StoredCheckRun>();
    for (const r of runs.values()) {
      if (r.head_sha !== sha || r.name !== required.context) continue;
      if (required.appId !== undefined && r.app.id !== required.appId) continue;
      if ((latest.get(r.app.id)?.id ?? 0) < r.id) latest.set(r.app.id, r);
    }
    return [...latest.values()].some((r) => r.status === 'completed' && ['success', 'neutral', 'skipped'].includes(r.conclusion ?? ''));
  };

  const appKey = options.app !== undefined ? createPublicKey(options.app.publicKey) : undefined;
  const installationBody = (): object => {
    const body: Body = describedExample('installation');
    Object.assign(body, { id: options.app?.installationId, app_id: options.app?.id, target_type: 'Organization' });
    Object.assign(objectIn(body, 'account'), { login: owner });
    return body;
  };
  const handlers: Record<string, Handler> = {
    'apps/get-repo-installation': () => (options.app === undefined ? error(404, 'Not Found', undefined) : { status: 200, body: installationBody() }),
    'apps/create-installation-access-token': (ctx) => {
      if (options.app === undefined || Number(ctx.params['installation_id']) !== options.app.installationId) return error(404, 'Not Found', ctx.op);
      const token: Body = describedExample('installation-token');
      const requested = (ctx.body['permissions'] as Record<string, string> | undefined) ?? { checks: 'write', contents: 'read', metadata: 'read' };
      const names = ctx.body['repositories'] as string[] | undefined;
      Object.assign(token, {
        token: options.app.installationToken,
        expires_at: new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        permissions: requested,
        repository_selection: names !== undefined ? 'selected' : 'all'
      });
      if (names !== undefined) token['repositories'] = (token['repositories'] as object[]).slice(0, 1).map((r) => ({ ...r, name: repo, full_name: repository }));
      else delete token['repositories'];
      return { status: 201, body: token };
    },
    'repos/get': () => {
      const body: Body = describedExample('full-repository-default-response');
      const settings = options.settings ?? {};
      Object.assign(body, {
        id: settings.id ?? 1296269,
        name: repo,
        full_name: repository,
        default_branch: settings.defaultBranch ?? 'main',
        private: settings.private ?? false,
        visibility: settings.private === true ? 'private' : 'public',
        url: `${baseUrl}/repos/${repository}`,
        html_url: htmlBase
      });
      Object.assign(objectIn(body, 'owner'), { login: owner });
      // The description's own example leaves out `language`, which its schema requires (here and in `source`).
      body['language'] = null;
      if (isBody(body['source'])) body['source']['language'] = null;
      if (isBody(body['parent'])) body['parent']['language'] = null;
      return { status: 200, body };
    },
    'repos/get-status-checks-protection': (ctx) => {
      const required = options.settings?.requiredStatusChecks;
      if (required === undefined) return error(404, 'Branch not protected', ctx.op);
      const url = `${baseUrl}/repos/${repository}/branches/${encodeURIComponent(ctx.params['branch'] ?? '')}/protection/required_status_checks`;
      return {
        status: 200,
        body: { url, strict: required.strict ?? true, contexts: required.checks.map((c) => c.context), checks: required.checks, contexts_url: `${url}/contexts` }
      };
    },
    'repos/get-branch-rules': (ctx) => {
      const { page, headers } = paginate(
        options.settings?.rules ?? [],
        ctx.query,
        `${baseUrl}/repos/${repository}/rules/branches/${encodeURIComponent(ctx.params['branch'] ?? '')}`
      );
      return { status: 200, body: page, headers };
    },
    'repos/get-environment': (ctx) => {
      const name = ctx.params['environment_name'] ?? '';
      const env = options.settings?.environments?.[name];
      if (env === undefined) return error(404, 'Not Found', ctx.op);
      const body: Body = describedExample('environment');
      const rules: object[] = [{ id: 3736, node_id: 'MDQ6R2F0ZTM3MzY=', type: 'wait_timer', wait_timer: 0 }];
      if (env.requiredReviewers === true) rules.push({ id: 3755, node_id: 'MDQ6R2F0ZTM3NTU=', prevent_self_review: true, type: 'required_reviewers', reviewers: [] });
      if (env.deploymentBranchPolicy !== null) rules.push({ id: 3756, node_id: 'MDQ6R2F0ZTM3NTY=', type: 'branch_policy' });
      Object.assign(body, {
        name,
        url: `${baseUrl}/repos/${repository}/environments/${encodeURIComponent(name)}`,
        html_url: `${htmlBase}/deployments/activity_log?environments_filter=${encodeURIComponent(name)}`,
        protection_rules: rules,
        deployment_branch_policy: env.deploymentBranchPolicy
      });
      return { status: 200, body };
    },
    'repos/list-deployment-branch-policies': (ctx) => {
      const env = options.settings?.environments?.[ctx.params['environment_name'] ?? ''];
      if (env === undefined) return error(404, 'Not Found', ctx.op);
      const all = (env.branchPolicies ?? []).map((p, i) => ({
        id: 361471 + i,
        node_id: Buffer.from(`04:GateBranchPolicy${361471 + i}`).toString('base64'),
        name: p.name,
        ...(p.type !== undefined ? { type: p.type } : {})
      }));
      const { page, headers } = paginate(
        all,
        ctx.query,
        `${baseUrl}/repos/${repository}/environments/${encodeURIComponent(ctx.params['environment_name'] ?? '')}/deployment-branch-policies`
      );
      return { status: 200, body: { total_count: all.length, branch_policies: page }, headers };
    },
    'actions/get-fork-pr-contributor-approval-permissions-repository': () => ({
      status: 200,
      body: { approval_policy: options.settings?.forkApproval ?? 'first_time_contributors' }
    }),
    'actions/get-private-repo-fork-pr-workflows-settings-repository': (ctx) => {
      if (options.settings?.private !== true) return error(404, 'Not Found', ctx.op);
      return {
        status: 200,
        body: options.settings.privateForkWorkflows ?? {
          run_workflows_from_fork_pull_requests: false,
          send_write_tokens_to_workflows: false,
          send_secrets_and_variables: false,
          require_approval_for_fork_pr_workflows: true
        }
      };
    },
    'apps/get-by-slug': (ctx) => {
      const known = [
        { id: 15368, slug: 'github-actions', name: 'GitHub Actions' },
        ...(options.app !== undefined ? [{ id: options.app.id, slug: 'patchproof-test-app', name: 'PatchProof test app' }] : [])
      ].find((a) => a.slug === ctx.params['app_slug']);
      if (known === undefined) return error(404, 'Not Found', ctx.op);
      const body: Body = describedExample('integration');
      Object.assign(body, known);
      return { status: 200, body };
    },
    'checks/create': (ctx) => {
      const rules = checkRunRules(ctx.body, undefined);
      if (rules.length > 0) return invalid(ctx.op, rules);
      const run: StoredCheckRun = {
        id: nextCheckRunId++,
        name: String(ctx.body['name']),
        head_sha: String(ctx.body['head_sha']),
        status: 'queued',
        conclusion: null,
        started_at: now(),
        completed_at: null,
        details_url: null,
        external_id: null,
        output: { title: null, summary: null, text: null },
        annotations: [],
        writes: 0,
        app: (({ id, slug }) => ({ id, slug }))(appOf(ctx.token))
      };
      applyWrite(run, ctx.body);
      runs.set(run.id, run);
      return { status: 201, body: checkRunBody(run) };
    },
    'checks/update': (ctx) => {
      const run = findRun(ctx);
      if (run === undefined) return error(404, 'Not Found', ctx.op);
      const rules = checkRunRules(ctx.body, run);
      if (rules.length > 0) return invalid(ctx.op, rules);
      applyWrite(run, ctx.body);
      return { status: 200, body: checkRunBody(run) };
    },
    'checks/get': (ctx) => {
      const run = findRun(ctx);
      return run === undefined ? error(404, 'Not Found', ctx.op) : { status: 200, body: checkRunBody(run) };
    },
    'checks/list-annotations': (ctx) => {
      const run = findRun(ctx);
      if (run === undefined) return error(404, 'Not Found', ctx.op);
      const all = run.annotations.map((a) => ({
        path: a.path,
        start_line: a.start_line,
        end_line: a.end_line,
        start_column: a.start_column ?? null,
        end_column: a.end_column ?? null,
        annotation_level: a.annotation_level,
        title: a.title ?? null,
        message: a.message,
        raw_details: a.raw_details ?? null,
        blob_href: `${htmlBase}/blob/${run.head_sha}/${a.path}`
      }));
      const { page, headers } = paginate(all, ctx.query, `${baseUrl}/repos/${repository}/check-runs/${run.id}/annotations`);
      return { status: 200, body: page, headers };
    },
    'checks/list-for-ref': (ctx) => {
      const ref = ctx.params['ref'] ?? '';
      let list = [...runs.values()].filter((r) => r.head_sha === ref);
      if (ctx.query['check_name'] !== undefined) list = list.filter((r) => r.name === ctx.query['check_name']);
      if (ctx.query['status'] !== undefined) list = list.filter((r) => r.status === ctx.query['status']);
      if ((ctx.query['filter'] ?? 'latest') === 'latest') {
        // The latest run of each name within its check suite, and a check suite is one app's on the commit.
        const latest = new Map<string, StoredCheckRun>();
        for (const r of list) if ((latest.get(`${r.app.id}/${r.name}`)?.id ?? 0) < r.id) latest.set(`${r.app.id}/${r.name}`, r);
        list = [...latest.values()];
      }
      list.sort((a, b) => b.id - a.id);
      const { page, headers } = paginate(list, ctx.query, `${baseUrl}/repos/${repository}/commits/${encodeURIComponent(ref)}/check-runs`);
      return { status: 200, body: { total_count: list.length, check_runs: page.map(checkRunBody) }, headers };
    },
    'pulls/get': (ctx) => {
      const fixture = pulls.get(Number(ctx.params['pull_number']));
      return fixture === undefined ? error(404, 'Not Found', ctx.op) : { status: 200, body: pullRequestBody(fixture) };
    },
    'pulls/list': (ctx) => {
      const state = ctx.query['state'] ?? 'open';
      const list = [...pulls.values()]
        .filter((p) => state === 'all' || (merged.has(p.number) ? 'closed' : (p.state ?? 'open')) === state)
        .filter((p) => ctx.query['base'] === undefined || (p.baseRef ?? 'main') === ctx.query['base'])
        .sort((a, b) => b.number - a.number);
      const { page, headers } = paginate(list, ctx.query, `${baseUrl}/repos/${repository}/pulls`);
      return { status: 200, body: page.map(pullRequestSimpleBody), headers };
    },
    'issues/list-comments': (ctx) => {
      const list = [...comments.values()].filter((c) => c.issue === Number(ctx.params['issue_number'])).sort((a, b) => a.id - b.id);
      const { page, headers } = paginate(list, ctx.query, `${baseUrl}/repos/${repository}/issues/${ctx.params['issue_number']}/comments`);
      return { status: 200, body: page.map(commentBody), headers };
    },
    'issues/create-comment': (ctx) => {
      const c: StoredComment = { id: nextCommentId++, issue: Number(ctx.params['issue_number']), body: String(ctx.body['body']), user: commenterOf(ctx.token), updates: 0 };
      comments.set(c.id, c);
      return { status: 201, body: commentBody(c) };
    },
    'issues/update-comment': (ctx) => {
      const c = comments.get(Number(ctx.params['comment_id']));
      if (c === undefined) return error(404, 'Not Found', ctx.op);
      // Only the author may edit (a token of another account gets GitHub's 403).
      if (c.user.login !== commenterOf(ctx.token).login) return error(403, 'Resource not accessible by integration', ctx.op);
      c.body = String(ctx.body['body']);
      c.updates += 1;
      return { status: 200, body: commentBody(c) };
    },
    'pulls/merge': (ctx) => {
      const fixture = pulls.get(Number(ctx.params['pull_number']));
      if (fixture === undefined) return error(404, 'Not Found', ctx.op);
      // GitHub's documented refusals: a merged or closed pull request, one it cannot merge (405), a head other than `sha` (409).
      if (merged.has(fixture.number) || (fixture.state ?? 'open') !== 'open') return error(405, 'Pull Request is not mergeable', ctx.op);
      if (fixture.mergeable === false) return error(405, 'Pull Request is not mergeable', ctx.op);
      const unmet = (options.requiredChecks ?? []).find((required) => !requiredCheckHolds(required, fixture.headSha));
      if (unmet !== undefined) return error(405, `Required status check "${unmet.context}" is expected.`, ctx.op);
      const sha = ctx.body['sha'];
      if (sha !== undefined && sha !== fixture.headSha) return error(409, 'Head branch was modified. Review and try the merge again.', ctx.op);
      const method = (ctx.body['merge_method'] as RecordedMerge['method'] | undefined) ?? 'merge';
      const mergeSha = createHash('sha1').update(`merge ${fixture.number} ${fixture.headSha} ${method}`).digest('hex');
      merged.set(fixture.number, { number: fixture.number, headSha: fixture.headSha, method, mergeSha });
      return { status: 200, body: { sha: mergeSha, merged: true, message: 'Pull Request successfully merged' } };
    },
    'actions/list-workflow-runs-for-repo': (ctx) => {
      let list = [...(options.workflowRuns ?? [])].filter((r) => (r.repository ?? repository) === repository);
      if (ctx.query['head_sha'] !== undefined) list = list.filter((r) => r.headSha === ctx.query['head_sha']);
      if (ctx.query['event'] !== undefined) list = list.filter((r) => (r.event ?? 'pull_request') === ctx.query['event']);
      list.sort((a, b) => b.id - a.id);
      const { page, headers } = paginate(list, ctx.query, `${baseUrl}/repos/${repository}/actions/runs`);
      return { status: 200, body: { total_count: list.length, workflow_runs: page.map(workflowRunBody) }, headers };
    },
    'actions/get-workflow-run': (ctx) => {
      // A run id of another repository is served as GitHub would not: to test that the client checks.
      const run = (options.workflowRuns ?? []).find((r) => r.id === Number(ctx.params['run_id']));
      return run === undefined ? error(404, 'Not Found', ctx.op) : { status: 200, body: workflowRunBody(run) };
    },
    'repos/get-combined-status-for-ref': (ctx) => {
      const ref = ctx.params['ref'] ?? '';
      const all = (options.statuses ?? [])
        .filter((st) => st.sha === ref)
        .map((st, i) => ({
          url: `${baseUrl}/repos/${repository}/statuses/${st.sha}`,
          avatar_url: null,
          id: 3000 + i,
          node_id: Buffer.from(`06:Status${3000 + i}`).toString('base64'),
          state: st.state,
          description: st.description ?? null,
          target_url: null,
          context: st.context,
          created_at: now(),
          updated_at: now()
        }));
      const { page, headers } = paginate(all, ctx.query, `${baseUrl}/repos/${repository}/commits/${encodeURIComponent(ref)}/status`);
      const states = new Set(all.map((st) => st.state));
      const combined = states.has('failure') || states.has('error') ? 'failure' : states.has('pending') || all.length === 0 ? 'pending' : 'success';
      const example: Body = describedExample('combined-commit-status');
      return {
        status: 200,
        body: {
          ...example,
          state: combined,
          statuses: page,
          sha: ref,
          total_count: all.length,
          commit_url: `${baseUrl}/repos/${repository}/commits/${ref}`,
          url: `${baseUrl}/repos/${repository}/commits/${ref}/status`
        },
        headers
      };
    },
    'actions/list-workflow-run-artifacts': (ctx) => {
      const source = sources.find((a) => a.runId === Number(ctx.params['run_id']));
      let list = source !== undefined ? source.listArtifacts() : [];
      if (ctx.query['name'] !== undefined) list = list.filter((a) => a.name === ctx.query['name']);
      const { page, headers } = paginate(list, ctx.query, `${baseUrl}/repos/${repository}/actions/runs/${ctx.params['run_id']}/artifacts`);
      return {
        status: 200,
        body: { total_count: list.length, artifacts: page.map((a) => artifactBody(a, source?.runId ?? 0)) },
        headers
      };
    },
    'actions/download-artifact': (ctx) => {
      const location = sources.map((a) => a.downloadUrl(Number(ctx.params['artifact_id']))).find((u) => u !== undefined);
      if (location === undefined || ctx.params['archive_format'] !== 'zip') return error(404, 'Not Found', ctx.op);
      return { status: 302, headers: { location } };
    }
  };

  const pullRequestBody = (p: PullRequestFixture): object => {
    const pr: Body = describedExample('pull-request');
    const headRepoName = p.headRepository ?? repository;
    const [headOwner = owner, headName = repo] = headRepoName.split('/');
    const url = `${baseUrl}/repos/${repository}/pulls/${p.number}`;
    Object.assign(pr, {
      id: 90000 + p.number,
      number: p.number,
      url,
      html_url: `${htmlBase}/pull/${p.number}`,
      title: p.title ?? `Pull request #${p.number}`,
      state: merged.has(p.number) ? 'closed' : (p.state ?? 'open'),
      merged: merged.has(p.number),
      merged_at: merged.has(p.number) ? now() : null,
      merged_by: null,
      closed_at: null,
      // The description's own example lists a team without the `type` its schema requires.
      requested_teams: []
    });
    Object.assign(objectIn(pr, 'head'), { ref: p.headRef ?? 'feature', sha: p.headSha, label: `${headOwner}:${p.headRef ?? 'feature'}` });
    Object.assign(objectIn(pr, 'head', 'repo'), { name: headName, full_name: headRepoName, fork: headRepoName !== repository });
    Object.assign(objectIn(pr, 'head', 'repo', 'owner'), { login: headOwner });
    Object.assign(objectIn(pr, 'base'), { ref: p.baseRef ?? 'main', sha: p.baseSha ?? '0'.repeat(40), label: `${owner}:${p.baseRef ?? 'main'}` });
    Object.assign(objectIn(pr, 'base', 'repo'), { name: repo, full_name: repository, fork: false });
    Object.assign(objectIn(pr, 'base', 'repo', 'owner'), { login: owner });
    return pr;
  };

  const pullRequestSimpleBody = (p: PullRequestFixture): object => {
    const full = pullRequestBody(p) as Body;
    const simple: Body = describedExample('pull-request-simple');
    for (const key of Object.keys(simple)) if (key in full) simple[key] = full[key];
    simple['labels'] = (p.labels ?? []).map((name, i) => ({
      id: 7000 + i,
      node_id: Buffer.from(`05:Label${7000 + i}`).toString('base64'),
      url: `${baseUrl}/repos/${repository}/labels/${encodeURIComponent(name)}`,
      name,
      description: '',
      color: 'ededed',
      default: false
    }));
    return simple;
  };

  const workflowRunBody = (r: WorkflowRunFixture): object => {
    const body: Body = describedExample('workflow-run');
    const full = r.repository ?? repository;
    const [runOwner = owner, runRepo = repo] = full.split('/');
    Object.assign(body, {
      id: r.id,
      name: r.name ?? 'CI',
      head_sha: r.headSha,
      event: r.event ?? 'pull_request',
      status: r.status ?? 'completed',
      conclusion: r.conclusion === undefined ? 'success' : r.conclusion,
      url: `${baseUrl}/repos/${full}/actions/runs/${r.id}`,
      html_url: `https://github.com/${full}/actions/runs/${r.id}`,
      pull_requests: []
    });
    Object.assign(objectIn(body, 'head_commit'), { id: r.headSha, tree_id: r.headSha });
    Object.assign(objectIn(body, 'repository'), { name: runRepo, full_name: full });
    Object.assign(objectIn(body, 'repository', 'owner'), { login: runOwner });
    Object.assign(objectIn(body, 'head_repository'), { name: runRepo, full_name: full });
    return body;
  };

  const artifactBody = (a: ListedArtifact, runId: number): object => ({
    id: a.id,
    node_id: Buffer.from(`05:Artifact${a.id}`).toString('base64'),
    name: a.name,
    size_in_bytes: a.size,
    url: `${baseUrl}/repos/${repository}/actions/artifacts/${a.id}`,
    archive_download_url: `${baseUrl}/repos/${repository}/actions/artifacts/${a.id}/zip`,
    expired: false,
    created_at: a.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    expires_at: (a.expiresAt ?? new Date(a.createdAt.getTime() + 90 * 86400_000)).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    updated_at: a.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    digest: a.digest,
    workflow_run: { id: runId, repository_id: 1, head_repository_id: 1, head_branch: 'main', head_sha: '0'.repeat(40) }
  });

  const respond = (res: ServerResponse, reply: Reply): void => {
    const headers: Record<string, string> = {
      'x-github-request-id': `0000:${recorded.length}`,
      'x-github-media-type': 'github.v3; format=json',
      ...reply.headers
    };
    if (reply.body === undefined) {
      res.writeHead(reply.status, headers).end();
      return;
    }
    res.writeHead(reply.status, { ...headers, 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(reply.body));
  };

  const handle = (req: IncomingMessage, raw: Buffer): { reply: Reply; record: RecordedRequest } => {
    const method = (req.method ?? 'GET').toUpperCase();
    const parsedUrl = new URL(req.url ?? '/', baseUrl);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    const record: RecordedRequest = { method, url: req.url ?? '/', operationId: undefined, headers, body: undefined, status: 0, errors: [], responseErrors: [] };
    const match = matchRoute(method, parsedUrl.pathname);
    if (match === undefined) {
      record.errors.push(`route ${method} ${parsedUrl.pathname} is not in GitHub's REST API description`);
      return { reply: error(pathExists(parsedUrl.pathname) ? 405 : 404, 'Not Found', undefined), record };
    }
    const op = match.operation;
    record.operationId = op.operationId;
    if (raw.length > 0) {
      const type = headers['content-type'] ?? '';
      if (!type.startsWith('application/json')) record.errors.push(`body: content-type must be application/json, got '${type}'`);
      try {
        record.body = JSON.parse(raw.toString('utf8'));
      } catch {
        record.errors.push('body: not valid JSON');
        return { reply: error(400, 'Problems parsing JSON', op), record };
      }
    }
    const query = Object.fromEntries(parsedUrl.searchParams.entries());
    record.errors.push(...validateRequest(op, { pathParams: match.pathParams, query, body: record.body }, options.allowUnknownFields));

    const auth = headers['authorization'] ?? '';
    const presented = /^(?:token|bearer)\s+(\S+)$/i.exec(auth)?.[1];
    if (presented === undefined) return { reply: error(401, 'Requires authentication', op), record };
    // The app's own routes take its JWT, and only those; every other route takes a token.
    const appRoute = op.operationId === 'apps/get-repo-installation' || op.operationId === 'apps/create-installation-access-token';
    if (appRoute) {
      const jwtErrors =
        appKey === undefined || options.app === undefined ? ['no GitHub App is installed on this test server'] : appJwtErrors(presented, { id: options.app.id, publicKey: appKey });
      if (jwtErrors.length > 0) {
        record.errors.push(...jwtErrors.map((e) => `authorization: ${e}`));
        return { reply: error(401, 'A JSON web token could not be decoded', op), record };
      }
    } else if (presented !== token && presented !== options.app?.installationToken) {
      return { reply: error(401, 'Bad credentials', op), record };
    }
    if (record.errors.length > 0) return { reply: invalid(op, record.errors), record };
    const repositoryLess = op.operationId === 'apps/create-installation-access-token' || op.operationId === 'apps/get-by-slug';
    if (!repositoryLess && `${match.pathParams['owner']}/${match.pathParams['repo']}`.toLowerCase() !== repository.toLowerCase()) {
      return { reply: error(404, 'Not Found', op), record };
    }
    if (options.settings?.denied?.includes(op.operationId) === true) {
      // What GitHub answers a token without the permission (a workflow token reading branch protection).
      return { reply: { ...error(403, 'Resource not accessible by integration', op), headers: { 'x-accepted-github-permissions': 'administration=read' } }, record };
    }
    if (options.settings?.hidden?.includes(op.operationId) === true) return { reply: error(404, 'Not Found', op), record };
    // Read-only is the workflow's GITHUB_TOKEN; an app's installation token keeps its own grants.
    if (options.readOnlyToken && presented === token && method !== 'GET' && method !== 'HEAD') {
      // What a fork pull request's GITHUB_TOKEN gets for any write.
      return {
        reply: { ...error(403, 'Resource not accessible by integration', op), headers: { 'x-accepted-github-permissions': 'checks=write' } },
        record
      };
    }
    const handler = handlers[op.operationId];
    if (handler === undefined) {
      record.errors.push(`${op.operationId} is described by GitHub but not implemented by this test server`);
      return { reply: error(501, 'Not implemented by the test server', op), record };
    }
    const reply = handler({ params: match.pathParams, query, body: (record.body ?? {}) as Record<string, unknown>, op, token: presented });
    if (reply.status === 422) record.errors.push(...((reply.body as { errors?: { message: string }[] }).errors ?? []).map((e) => e.message));
    record.responseErrors.push(...validateResponse(op, reply.status, reply.body));
    return { reply, record };
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let outcome: { reply: Reply; record: RecordedRequest };
      try {
        outcome = handle(req, Buffer.concat(chunks));
      } catch (e) {
        const record: RecordedRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          operationId: undefined,
          headers: {},
          body: undefined,
          status: 0,
          errors: [],
          responseErrors: [`test server crashed: ${e instanceof Error ? e.stack : String(e)}`]
        };
        // 400, not 500: octokit's retry plugin would retry a 5xx.
        outcome = { reply: error(400, 'test server error', undefined), record };
      }
      outcome.record.status = outcome.reply.status;
      recorded.push(outcome.record);
      respond(res, outcome.reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    requests: () => [...recorded],
    invalidRequests: () => recorded.filter((r) => r.errors.length > 0),
    invalidResponses: () => recorded.filter((r) => r.responseErrors.length > 0),
    checkRuns: () => [...runs.values()].map((r) => ({ ...r, output: { ...r.output }, annotations: [...r.annotations] })),
    updatePull: (number, change) => {
      const fixture = pulls.get(number);
      if (fixture === undefined) throw new Error(`the test server serves no pull request #${number}`);
      Object.assign(fixture, change);
    },
    merges: () => [...merged.values()],
    comments: () => [...comments.values()].map((c) => ({ ...c, user: { ...c.user } })),
    addCheckRun: (fixture) => {
      const run: StoredCheckRun = {
        id: nextCheckRunId++,
        name: fixture.name,
        head_sha: fixture.headSha,
        status: fixture.status ?? 'completed',
        conclusion: fixture.conclusion === undefined ? ((fixture.status ?? 'completed') === 'completed' ? 'success' : null) : fixture.conclusion,
        started_at: now(),
        completed_at: (fixture.status ?? 'completed') === 'completed' ? now() : null,
        details_url: null,
        external_id: null,
        output: { title: null, summary: null, text: null },
        annotations: [],
        writes: 0,
        app: fixture.app
      };
      runs.set(run.id, run);
      return run.id;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      })
  };
}
