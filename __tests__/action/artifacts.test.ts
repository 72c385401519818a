import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ReceiptArtifacts } from '../../src/publish/ports.js';
import { serializeReceipt } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { renderReport } from '../../src/core/report.js';
import { ConfigurationError, VerificationError } from '../../src/errors.js';
import { fail, passingRuns, receiptFrom, run } from '../helpers/evidence.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import { setEnv, quietly } from '../helpers/process-env.js';

/**
 * The real DefaultArtifactClient against the loopback artifact service, with the loopback GitHub API
 * behind findBy. The tests share one pair of servers (GITHUB_API_URL is read once, when
 * @actions/github is first imported) and run in order: the service's state builds up.
 */

const TOKEN = 'ghs_test';

describe('receipt artifacts through the real @actions/artifact client', () => {
  let artifacts: ArtifactServer;
  let github: GitHubServer;
  let restoreEnv: () => void;
  let work: string;
  let runnerTemp: string;
  let store: ReceiptArtifacts;
  let create: typeof import('../../src/publish/artifacts.js').createReceiptArtifacts;
  let artifactName: typeof import('../../src/publish/artifacts.js').receiptArtifactName;

  /** A sealed receipt written as validate writes it: receipt.json and report.md in one folder. */
  async function written(receipt: Receipt, label: string): Promise<{ receipt: string; report: string }> {
    const dir = await mkdtemp(join(work, `${label}-`));
    const files = { receipt: join(dir, 'receipt.json'), report: join(dir, 'report.md') };
    await writeFile(files.receipt, serializeReceipt(receipt));
    await writeFile(files.report, renderReport(receipt));
    return files;
  }

  const passed = receiptFrom(passingRuns());
  const failedRuns = passingRuns();
  failedRuns.hidden = [run('hidden', [fail('hidden > x')])];
  const failed = receiptFrom(failedRuns);

  beforeAll(async () => {
    artifacts = await startArtifactServer();
    github = await startGitHubServer({ token: TOKEN, artifacts });
    work = await mkdtemp(join(tmpdir(), 'pp-artifacts-'));
    runnerTemp = await mkdtemp(join(tmpdir(), 'pp-runner-temp-'));
    // @actions/github reads GITHUB_API_URL once, when first imported: set the env, then import.
    restoreEnv = setEnv({ ...artifacts.env(), GITHUB_API_URL: github.url, RUNNER_TEMP: runnerTemp });
    ({ createReceiptArtifacts: create, receiptArtifactName: artifactName } = await import('../../src/publish/artifacts.js'));
    store = create({ token: TOKEN, retentionDays: 7, repository: 'octo-org/hello-world', tempRoot: runnerTemp });
  });
  afterAll(async () => {
    restoreEnv();
    await Promise.all([artifacts.close(), github.close(), rm(work, { recursive: true, force: true }), rm(runnerTemp, { recursive: true, force: true })]);
  });
  afterEach(() => {
    expect(artifacts.invalidRequests()).toEqual([]);
    expect(github.invalidRequests()).toEqual([]);
    expect(github.invalidResponses()).toEqual([]);
  });

  it('names the artifact after the first 16 hex digits of the receipt digest', () => {
    expect(artifactName(`sha256:${'0123456789abcdef'.repeat(4)}`)).toBe('patchproof-receipt-0123456789abcdef');
    expect(() => artifactName('sha256:abc')).toThrow(VerificationError);
  });

  it('refuses to download without a token, and to upload a file that is not the receipt it is named after', async () => {
    await expect(create({ repository: 'octo-org/hello-world', tempRoot: runnerTemp }).download(artifacts.runId)).rejects.toThrow(ConfigurationError);
    const files = await written(failed, 'stale');
    await expect(store.upload(passed, files)).rejects.toThrow(VerificationError);
    expect(artifacts.artifacts()).toEqual([]);
  });

  it('refuses to upload a hidden detail that is plaintext, or ciphertext the receipt does not bind by SHA-256', async () => {
    const files = await written(passed, 'detail');
    const plain = join(dirname(files.receipt), 'hidden-detail.age');
    await writeFile(plain, JSON.stringify({ schema: 'patchproof.hidden-detail/v1', test_ids: ['hidden > secret edge'] }));
    await expect(store.upload(passed, { ...files, hiddenDetail: plain })).rejects.toThrow(/is not the age-encrypted hidden detail this receipt binds/);
    // An age file, but this receipt binds no hidden detail (a plain pack's run).
    await writeFile(plain, 'age-encryption.org/v1\n-> X25519 stub\n');
    await expect(store.upload(passed, { ...files, hiddenDetail: plain })).rejects.toThrow(VerificationError);
    expect(artifacts.artifacts()).toEqual([]);
  });

  it('refuses a run without a receipt artifact, naming what it found', async () => {
    await expect(quietly(() => store.download(artifacts.runId))).rejects.toThrow(
      new ConfigurationError(`workflow run ${artifacts.runId} has no patchproof-receipt-* artifact; it has no artifacts. Check run-id, or give artifact-name`)
    );
  });

  it('uploads receipt.json and report.md, and downloads them from the run byte for byte, under RUNNER_TEMP', async () => {
    const files = await written(passed, 'passed');
    const uploaded = await quietly(() => store.upload(passed, files));
    const name = `patchproof-receipt-${passed.receipt_digest.slice(7, 23)}`;
    const [stored] = artifacts.artifacts();
    expect(uploaded).toEqual({ id: stored?.id, name, digest: stored?.digest });
    expect(stored?.expiresAt).toBeDefined();

    const found = await quietly(() => store.download(artifacts.runId));
    expect(found.artifactName).toBe(name);
    expect(dirname(dirname(found.receiptPath))).toBe(runnerTemp);
    expect(await readFile(found.receiptPath)).toEqual(await readFile(files.receipt));
    expect(await readFile(join(dirname(found.receiptPath), 'report.md'))).toEqual(await readFile(files.report));
    // An unsigned receipt: no bundle, and none is made up.
    expect(found.bundlePath).toBeUndefined();

    const named = await quietly(() => store.download(artifacts.runId, name));
    expect(named.receiptPath).not.toBe(found.receiptPath);
    expect(await readFile(named.receiptPath)).toEqual(await readFile(files.receipt));
    expect(github.requests().map((r) => r.operationId)).toContain('actions/download-artifact');
  });

  it('refuses a missing artifact name, and a run with no artifacts, naming what it found', async () => {
    const name = `patchproof-receipt-${passed.receipt_digest.slice(7, 23)}`;
    await expect(quietly(() => store.download(artifacts.runId, 'patchproof-receipt-0000000000000000'))).rejects.toThrow(
      new ConfigurationError(`workflow run ${artifacts.runId} has no artifact named 'patchproof-receipt-0000000000000000'; it has: ${name}. Check run-id and artifact-name`)
    );
    await expect(quietly(() => store.download(artifacts.runId + 1))).rejects.toThrow(ConfigurationError);
  });

  it('refuses to guess between several receipt artifacts', async () => {
    await quietly(async () => store.upload(failed, await written(failed, 'failed')));
    const names = [passed, failed].map((r) => `patchproof-receipt-${r.receipt_digest.slice(7, 23)}`).sort();
    await expect(quietly(() => store.download(artifacts.runId))).rejects.toThrow(
      new ConfigurationError(`workflow run ${artifacts.runId} has 2 receipt artifacts (${names.join(', ')}); give artifact-name to say which one`)
    );
  });

  it('refuses an artifact whose bytes changed after upload, and leaves nothing of it behind', async () => {
    const name = `patchproof-receipt-${passed.receipt_digest.slice(7, 23)}`;
    const before = await readdir(runnerTemp);
    artifacts.corrupt(name);
    const download = quietly(() => store.download(artifacts.runId, name));
    await expect(download).rejects.toThrow(VerificationError);
    await expect(download).rejects.toThrow(/does not match the digest recorded at upload/);
    expect(await readdir(runnerTemp)).toEqual(before);
  });

  const unisolated = receiptFrom(passingRuns(), { isolated: false });

  it('carries the Sigstore bundle: uploaded inside the receipt artifact, downloaded next to receipt.json', async () => {
    const files = await written(unisolated, 'signed');
    const bundle = join(dirname(files.receipt), 'bundle.json');
    await writeFile(bundle, '{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json"}');
    const { name } = await quietly(() => store.upload(unisolated, { ...files, bundle }));
    const found = await quietly(() => store.download(artifacts.runId, name));
    expect(found.bundlePath).toBe(join(dirname(found.receiptPath), 'receipt.sigstore.json'));
    expect(await readFile(found.bundlePath as string)).toEqual(await readFile(bundle));
  });

  it('carries the bundle of a companion patchproof-attestation-* artifact, and refuses one changed after upload', async () => {
    const name = `patchproof-receipt-${failed.receipt_digest.slice(7, 23)}`;
    const dir = await mkdtemp(join(work, 'companion-'));
    await writeFile(join(dir, 'receipt.sigstore.json'), '{"companion":true}');
    const { DefaultArtifactClient } = await import('@actions/artifact');
    const companion = `patchproof-attestation-${failed.receipt_digest.slice(7, 23)}`;
    await quietly(() => new DefaultArtifactClient().uploadArtifact(companion, [join(dir, 'receipt.sigstore.json')], dir));
    const found = await quietly(() => store.download(artifacts.runId, name));
    expect(found.bundlePath).toBe(join(dirname(found.receiptPath), 'receipt.sigstore.json'));
    expect(await readFile(found.bundlePath as string, 'utf8')).toBe('{"companion":true}');
    // The companion is not a receipt artifact: choosing "the one receipt artifact" ignores it.
    artifacts.corrupt(companion);
    await expect(quietly(() => store.download(artifacts.runId, name))).rejects.toThrow(new RegExp(`artifact ${companion} .* does not match the digest recorded at upload`));
  });
});
