import { createChecksClient } from '../../src/publish/checks-client.js';
import { checkConclusion, renderCheck } from '../../src/publish/check-report.js';
import { ChecksPermissionError, type CheckAnnotation, type CheckRunTarget, type RenderedCheck } from '../../src/publish/ports.js';
import { InfrastructureError } from '../../src/errors.js';
import { fail, passingRuns, receiptFrom, run } from '../helpers/evidence.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';

/** The real octokit of @actions/github against the loopback API, which validates every request against GitHub's description. */

const TOKEN = 'ghs_test';
const TARGET: CheckRunTarget = { owner: 'octo-org', repo: 'hello-world', headSha: 'b'.repeat(40), name: 'PatchProof' };

function annotations(count: number): CheckAnnotation[] {
  return Array.from({ length: count }, (_, i) => ({
    path: `src/file-${i}.ts`,
    start_line: i + 1,
    end_line: i + 1,
    annotation_level: 'failure' as const,
    title: `finding ${i}`,
    message: `message ${i}`
  }));
}

const check = (count: number): RenderedCheck => ({ title: 'PatchProof: FAILED — hidden_failed', summary: '# summary', text: '## detail', annotations: annotations(count) });

describe('createChecksClient', () => {
  let server: GitHubServer;
  beforeEach(async () => {
    server = await startGitHubServer({ token: TOKEN, pulls: [{ number: 9, headSha: TARGET.headSha }] });
  });
  afterEach(async () => {
    expect(server.invalidRequests()).toEqual([]);
    expect(server.invalidResponses()).toEqual([]);
    await server.close();
  });

  it('creates one completed check run with conclusion success', async () => {
    const id = await createChecksClient(TOKEN, { baseUrl: server.url }).publish(TARGET, 'success', check(3));
    const [stored, ...others] = server.checkRuns();
    expect(others).toEqual([]);
    expect(stored).toMatchObject({
      id,
      name: 'PatchProof',
      head_sha: TARGET.headSha,
      status: 'completed',
      conclusion: 'success',
      output: { title: 'PatchProof: FAILED — hidden_failed', summary: '# summary', text: '## detail' },
      writes: 1
    });
    expect(stored?.annotations).toEqual(annotations(3));
    expect(server.requests().map((r) => r.operationId)).toEqual(['checks/create']);
  });

  it('fails the check with 120 annotations: 50 on create, then updates of 50 and 20, accumulated in order', async () => {
    const id = await createChecksClient(TOKEN, { baseUrl: server.url }).publish(TARGET, 'failure', check(120));
    const [stored] = server.checkRuns();
    expect(stored).toMatchObject({ id, status: 'completed', conclusion: 'failure', writes: 3 });
    expect(stored?.annotations).toEqual(annotations(120));
    const requests = server.requests();
    expect(requests.map((r) => r.operationId)).toEqual(['checks/create', 'checks/update', 'checks/update']);
    expect(requests.map((r) => (r.body as { output: { annotations: unknown[] } }).output.annotations.length)).toEqual([50, 50, 20]);
    expect(requests.every((r) => r.url.includes('/repos/octo-org/hello-world/check-runs'))).toBe(true);
  });

  it('publishes a rendered receipt within every limit GitHub states', async () => {
    const runs = passingRuns();
    runs.hidden = [
      run(
        'hidden',
        Array.from({ length: 2000 }, (_, i) => ({ ...fail(`hidden > 毫秒 ${i} ${'x'.repeat(200)}`), location: `test/h.test.js:${i + 1}` }))
      )
    ];
    const receipt = receiptFrom(runs);
    const rendered = renderCheck(receipt);
    await createChecksClient(TOKEN, { baseUrl: server.url }).publish(TARGET, checkConclusion(receipt.verdict), rendered);
    const [stored] = server.checkRuns();
    expect(stored).toMatchObject({ conclusion: 'failure', output: { summary: rendered.summary, text: rendered.text } });
    expect(stored?.annotations).toHaveLength(rendered.annotations.length);
  });

  it('turns a 401 into an InfrastructureError naming the status', async () => {
    const publish = createChecksClient('wrong-token', { baseUrl: server.url }).publish(TARGET, 'success', check(0));
    await expect(publish).rejects.toThrow(InfrastructureError);
    await expect(publish).rejects.toThrow(/HTTP 401/);
  });
});

describe('createChecksClient with a read-only token (a fork pull request)', () => {
  it('throws ChecksPermissionError that points to the pull_request_target gate, and writes nothing', async () => {
    const server = await startGitHubServer({ token: TOKEN, readOnlyToken: true });
    try {
      const publish = createChecksClient(TOKEN, { baseUrl: server.url }).publish(TARGET, 'failure', check(60));
      await expect(publish).rejects.toThrow(ChecksPermissionError);
      await expect(publish).rejects.toThrow(/read-only.*fork.*pull_request_target gate/s);
      expect(server.checkRuns()).toEqual([]);
      expect(server.invalidRequests()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
