import { getOctokit } from '@actions/github';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startGitHubServer, type GitHubServer } from './github-server.js';

const TOKEN = 'ghs_test';
const HEAD_SHA = 'a'.repeat(40);
const repo = { owner: 'octo-org', repo: 'hello-world' };

function annotations(count: number, from = 0): { path: string; start_line: number; end_line: number; annotation_level: 'warning'; message: string }[] {
  return Array.from({ length: count }, (_, i) => ({
    path: `src/file-${from + i}.ts`,
    start_line: 1,
    end_line: 1,
    annotation_level: 'warning' as const,
    message: `finding ${from + i}`
  }));
}

describe('loopback GitHub API (validated against GitHub OpenAPI description)', () => {
  let server: GitHubServer;
  beforeAll(async () => {
    server = await startGitHubServer({ token: TOKEN, pulls: [{ number: 7, headSha: HEAD_SHA, headRef: 'fix-bug' }] });
  });
  afterAll(async () => server.close());

  it('creates, updates in batches of 50 annotations, gets and lists a check run through real octokit', async () => {
    const octokit = getOctokit(TOKEN, { baseUrl: server.url });
    const { data: pr } = await octokit.rest.pulls.get({ ...repo, pull_number: 7 });
    expect(pr.head.sha).toBe(HEAD_SHA);

    const all = annotations(120);
    const created = await octokit.rest.checks.create({
      ...repo,
      name: 'patchproof',
      head_sha: pr.head.sha,
      status: 'in_progress',
      output: { title: 'Verifying', summary: 'Running', annotations: all.slice(0, 50) }
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'patchproof', head_sha: HEAD_SHA, status: 'in_progress', conclusion: null });
    expect(created.data.pull_requests.map((p) => p.number)).toEqual([7]);

    await octokit.rest.checks.update({
      ...repo,
      check_run_id: created.data.id,
      output: { title: 'Verifying', summary: 'Running', annotations: all.slice(50, 100) }
    });
    const done = await octokit.rest.checks.update({
      ...repo,
      check_run_id: created.data.id,
      conclusion: 'failure',
      output: { title: 'Not verified', summary: 'F2P test still fails', annotations: all.slice(100) }
    });
    expect(done.data).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(done.data.output.annotations_count).toBe(120);

    const got = await octokit.rest.checks.get({ ...repo, check_run_id: created.data.id });
    expect(got.data.output.summary).toBe('F2P test still fails');
    const listed = await octokit.rest.checks.listForRef({ ...repo, ref: HEAD_SHA, check_name: 'patchproof' });
    expect(listed.data.check_runs.map((r) => r.id)).toEqual([created.data.id]);
    const paged = await octokit.paginate(octokit.rest.checks.listAnnotations, { ...repo, check_run_id: created.data.id, per_page: 100 });
    expect(paged.map((a) => a.message)).toEqual(all.map((a) => a.message));

    const [stored] = server.checkRuns();
    expect(stored?.annotations).toEqual(all);
    expect(stored?.writes).toBe(3);
    expect(server.invalidRequests()).toEqual([]);
    expect(server.invalidResponses()).toEqual([]);
  });

  it('rejects with 422 and records a body with an unknown field, a wrong type, or over GitHub limits', async () => {
    const octokit = getOctokit(TOKEN, { baseUrl: server.url });
    const before = server.invalidRequests().length;
    const unknownField = octokit.request('POST /repos/{owner}/{repo}/check-runs', {
      ...repo,
      name: 'x',
      head_sha: HEAD_SHA,
      detail_url: 'https://example.test'
    });
    await expect(unknownField).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/detail_url/) });
    const wrongType = octokit.request('POST /repos/{owner}/{repo}/check-runs', { ...repo, name: 'x', head_sha: 42 as unknown as string });
    await expect(wrongType).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/head_sha must be string/) });
    const tooMany = octokit.rest.checks.create({
      ...repo,
      name: 'x',
      head_sha: HEAD_SHA,
      output: { title: 't', summary: 's', annotations: annotations(51) }
    });
    await expect(tooMany).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/annotations must NOT have more than 50 items/) });
    const tooLong = octokit.rest.checks.create({
      ...repo,
      name: 'x',
      head_sha: HEAD_SHA,
      output: { title: 't', summary: 'x'.repeat(65536) }
    });
    await expect(tooLong).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/summary must NOT have more than 65535/) });
    const noConclusion = octokit.rest.checks.create({ ...repo, name: 'x', head_sha: HEAD_SHA, status: 'completed' });
    await expect(noConclusion).rejects.toMatchObject({ status: 422 });
    const badPathParam = octokit.request('GET /repos/{owner}/{repo}/check-runs/{check_run_id}', { ...repo, check_run_id: 'abc' as unknown as number });
    await expect(badPathParam).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/path\/check_run_id must be integer/) });
    const unknownQuery = octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repo, pull_number: 7, expand: 'all' });
    await expect(unknownQuery).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/query must NOT have additional properties 'expand'/) });
    await expect(octokit.request('GET /repos/{owner}/{repo}/no-such-route', repo)).rejects.toMatchObject({ status: 404 });

    const invalid = server.invalidRequests().slice(before);
    expect(invalid.map((r) => r.status)).toEqual([422, 422, 422, 422, 422, 422, 422, 404]);
    expect(invalid[0]?.errors.join()).toMatch(/must NOT have additional properties 'detail_url'/);
    expect(server.checkRuns()).toHaveLength(1);
  });

  it('checks the token', async () => {
    await expect(getOctokit('wrong', { baseUrl: server.url }).rest.pulls.get({ ...repo, pull_number: 7 })).rejects.toMatchObject({
      status: 401
    });
    const last = server.requests().at(-1);
    expect(last?.headers['authorization']).toBe('token wrong');
  });
});

describe('read-only token (a fork pull request)', () => {
  it('answers writes with 403 Resource not accessible by integration, reads still work', async () => {
    const server = await startGitHubServer({ token: TOKEN, readOnlyToken: true, pulls: [{ number: 3, headSha: HEAD_SHA }] });
    try {
      const octokit = getOctokit(TOKEN, { baseUrl: server.url });
      const attempt = octokit.rest.checks.create({ ...repo, name: 'patchproof', head_sha: HEAD_SHA });
      await expect(attempt).rejects.toMatchObject({
        name: 'HttpError',
        status: 403,
        message: expect.stringContaining('Resource not accessible by integration')
      });
      await expect(octokit.rest.pulls.get({ ...repo, pull_number: 3 })).resolves.toMatchObject({ status: 200 });
      expect(server.checkRuns()).toEqual([]);
      expect(server.invalidRequests()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
