import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startArtifactServer, type ArtifactServer } from './artifact-server.js';
import { startGitHubServer, type GitHubServer } from './github-server.js';
import { setEnv, quietly } from '../helpers/process-env.js';

describe('loopback artifact service with the real @actions/artifact client', () => {
  let artifacts: ArtifactServer;
  let github: GitHubServer;
  let dir: string;
  let client: import('@actions/artifact').ArtifactClient;
  let restoreEnv: () => void;

  beforeAll(async () => {
    artifacts = await startArtifactServer();
    github = await startGitHubServer({ token: 'ghs_test', artifacts });
    // @actions/github reads GITHUB_API_URL once, when first imported: set the env, then import.
    restoreEnv = setEnv({ ...artifacts.env(), GITHUB_API_URL: github.url });
    const { DefaultArtifactClient } = await import('@actions/artifact');
    client = new DefaultArtifactClient();
    dir = await mkdtemp(join(tmpdir(), 'pp-artifact-'));
  });
  afterAll(async () => {
    restoreEnv();
    await Promise.all([artifacts.close(), github.close(), rm(dir, { recursive: true, force: true })]);
  });

  it('uploads, lists, gets and downloads a receipt with matching digest; a corrupted blob reports digestMismatch', async () => {
    const receipt = Buffer.from(JSON.stringify({ verdict: 'verified', digest: 'sha256:00' }, null, 2));
    const report = Buffer.from('# PatchProof\n\nAll FAIL_TO_PASS tests pass.\n'.repeat(200));
    await writeFile(join(dir, 'receipt.json'), receipt);
    await writeFile(join(dir, 'report.md'), report);

    const uploaded = await quietly(() => client.uploadArtifact('patchproof-receipt', [join(dir, 'receipt.json'), join(dir, 'report.md')], dir, { retentionDays: 5 }));
    expect(uploaded.id).toBeGreaterThan(0);
    const [stored] = artifacts.artifacts();
    expect(stored).toMatchObject({ name: 'patchproof-receipt', finalized: true, contentType: 'application/zip' });
    expect(uploaded.size).toBe(stored?.bytes.length);
    // The upload result carries bare hex; the service (and list/get) carry `sha256:<hex>`.
    expect(stored?.digest).toBe(`sha256:${uploaded.digest}`);

    const { artifacts: listed } = await quietly(() => client.listArtifacts());
    expect(listed).toEqual([expect.objectContaining({ id: uploaded.id, name: 'patchproof-receipt', digest: stored?.digest })]);
    const { artifact } = await quietly(() => client.getArtifact('patchproof-receipt'));
    expect(artifact.id).toBe(uploaded.id);

    const out = join(dir, 'download');
    const good = await quietly(() => client.downloadArtifact(artifact.id, { path: out, expectedHash: artifact.digest }));
    expect(good.digestMismatch).toBe(false);
    expect(await readFile(join(out, 'receipt.json'))).toEqual(receipt);
    expect(await readFile(join(out, 'report.md'))).toEqual(report);

    artifacts.corrupt('patchproof-receipt');
    const bad = await quietly(() => client.downloadArtifact(artifact.id, { path: join(dir, 'tampered'), expectedHash: artifact.digest }));
    expect(bad.digestMismatch).toBe(true);
    expect(artifacts.invalidRequests()).toEqual([]);
    expect(
      artifacts
        .requests()
        .map((r) => r.operation)
        .slice(0, 4)
    ).toEqual(['CreateArtifact', 'Put Block', 'Put Block List', 'FinalizeArtifact']);
  });

  it("serves another run's artifacts through the REST API (findBy), as a workflow_run publisher would fetch them", async () => {
    await writeFile(join(dir, 'results.xml'), '<testsuites/>');
    const { id } = await quietly(() => client.uploadArtifact('junit', [join(dir, 'results.xml')], dir));
    const findBy = { token: 'ghs_test', workflowRunId: artifacts.runId, repositoryOwner: 'octo-org', repositoryName: 'hello-world' };

    const { artifact } = await quietly(() => client.getArtifact('junit', { findBy }));
    expect(artifact).toMatchObject({ id, name: 'junit' });
    const out = join(dir, 'cross-run');
    const result = await quietly(() => client.downloadArtifact(artifact.id, { path: out, findBy, expectedHash: artifact.digest }));
    expect(result.digestMismatch).toBe(false);
    expect(await readFile(join(out, 'results.xml'), 'utf8')).toBe('<testsuites/>');
    expect(github.invalidRequests()).toEqual([]);
    expect(github.invalidResponses()).toEqual([]);
  });

  it('refuses a finalize whose hash does not match the upload, and a second artifact with the same name', async () => {
    const token = artifacts.runtimeToken;
    const [, payload = ''] = token.split('.');
    const scp = (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { scp: string }).scp;
    const [, run, job] = /Actions\.Results:([^:]+):(\S+)/.exec(scp) ?? [];
    const call = async (method: string, body: object): Promise<{ status: number; body: { code?: string } }> => {
      const res = await fetch(`${artifacts.resultsUrl}twirp/github.actions.results.api.v1.ArtifactService/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ workflow_run_backend_id: run, workflow_job_run_backend_id: job, ...body })
      });
      return { status: res.status, body: (await res.json()) as { code?: string } };
    };
    expect(await call('CreateArtifact', { name: 'junit', version: 7 })).toMatchObject({ status: 409, body: { code: 'already_exists' } });
    expect((await call('CreateArtifact', { name: 'empty', version: 7 })).status).toBe(200);
    const finalize = await call('FinalizeArtifact', { name: 'empty', size: '0', hash: `sha256:${'f'.repeat(64)}` });
    expect(finalize).toMatchObject({ status: 400, body: { code: 'invalid_argument' } });
    expect(await call('ListArtifacts', { bogus: 1 })).toMatchObject({ status: 400, body: { code: 'malformed' } });
  });
});
