import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModeResult } from '../../src/action/mode.js';
import { readActionSettings } from '../../src/inputs/action-settings.js';
import { diffDigest } from '../../src/core/proposal.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { serializeReceipt } from '../../src/core/receipt.js';
import { RECEIPT_BUNDLE_FILE } from '../../src/receipt/attestation.js';
import { createTestSigstore, githubIdentity, type TestSigstore } from '../helpers/sigstore-fixture.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import { JS_DURATION, JS_PACK, PACK_PATH, git, makePullRequest, removePullRequest, type PullRequestRepos } from './data/validate-repos.js';
import { setEnv, quietly } from '../helpers/process-env.js';
import { asIsolated, patchproof, receiptFor, recordingOutcome, uploadReceiptArtifact } from '../helpers/action-receipts.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * reverifyMode in process with the real artifact and Checks clients against the loopback services,
 * and real git: a receipt made by the bundled CLI for a pull request whose base...head diff is the
 * fixture's fix.diff, uploaded as the validate step would, then re-verified on that head, on a
 * moved head, and tampered with.
 */

const TOKEN = 'ghs_test';
/** The dedicated GitHub App that may post the check instead of the workflow token (app-token.ts). */
const APP = { id: 424242, installationId: 9_100_001, installationToken: 'ghs_installation_token_of_the_app' };
const APP_KEYS = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });

describe('reverifyMode (real git, real artifact and Checks clients, loopback services)', () => {
  let repos: PullRequestRepos;
  let work: string;
  let artifacts: ArtifactServer;
  let github: GitHubServer;
  let restoreEnv: () => void;
  let made: Awaited<ReturnType<typeof receiptFor>>;
  let movedHead: string;
  // Reverify mode as main.ts wires it (its replay is validate mode).
  let reverifyMode: typeof import('../../src/action/main.js').MODES.reverify;
  let createReceiptArtifacts: typeof import('../../src/publish/artifacts.js').createReceiptArtifacts;
  let receiptArtifactName: typeof import('../../src/publish/artifacts.js').receiptArtifactName;

  /** A workflow_dispatch run of reverify.yml for `head`. */
  async function reverify(inputs: Record<string, string>, head = repos.head): Promise<{ result: ModeResult; warnings: string[]; summaries: string[] }> {
    const event = join(work, `event-${Math.random().toString(16).slice(2)}.json`);
    const all: Record<string, string> = { 'github-token': TOKEN, mode: 'reverify', 'run-id': String(artifacts.runId), base: repos.base, head, runner: 'local', ...inputs };
    writeFileSync(
      event,
      JSON.stringify({
        inputs: { 'run-id': all['run-id'], base: repos.base, head },
        ref: 'refs/heads/main',
        repository: { full_name: 'octo-org/hello-world', default_branch: 'main' }
      })
    );
    process.env['GITHUB_EVENT_PATH'] = event;
    const settings = readActionSettings((name) => all[name] ?? '');
    const recorded = recordingOutcome();
    const result = await quietly(() => reverifyMode(settings, recorded.outcome));
    return { result, warnings: recorded.warnings, summaries: recorded.summaries };
  }

  /** Upload receipt.json (as given) and the report under `name`, as another run's step would; with a bundle inside, when given. */
  const uploadAs = (name: string, receiptText: string, bundle?: unknown): Promise<void> =>
    uploadReceiptArtifact(work, name, receiptText, readFileSync(made.reportPath, 'utf8'), bundle);

  /** Upload a bundle alone, as the reusable workflow's step after actions/attest does. */
  async function uploadCompanion(name: string, bundle: unknown): Promise<void> {
    const dir = mkdtempSync(join(work, 'companion-'));
    writeFileSync(join(dir, RECEIPT_BUNDLE_FILE), JSON.stringify(bundle));
    const { DefaultArtifactClient } = await import('@actions/artifact');
    await quietly(() => new DefaultArtifactClient().uploadArtifact(name, [join(dir, RECEIPT_BUNDLE_FILE)], dir));
  }

  beforeAll(async () => {
    repos = makePullRequest({ kind: 'diff', file: join(JS_DURATION, 'candidates', 'fix.diff') });
    work = mkdtempSync(join(tmpdir(), 'pp-reverify-'));
    made = await receiptFor(repos, join(work, 'made'));

    // A later push to the pull request: one more commit on its head, so base...head is another diff.
    const author = join(repos.dir, 'author');
    writeFileSync(join(author, 'src', 'duration.js'), `${readFileSync(join(author, 'src', 'duration.js'), 'utf8')}\n// a later push\n`);
    git(author, ['commit', '-q', '-am', 'A later push']);
    movedHead = git(author, ['rev-parse', 'HEAD']);
    git(author, ['push', '-q', repos.origin, 'candidate:refs/pull/8/head']);

    artifacts = await startArtifactServer();
    github = await startGitHubServer({ token: TOKEN, artifacts, app: { ...APP, publicKey: APP_KEYS.publicKey } });
    const temp = join(work, 'runner-temp');
    mkdirSync(temp);
    // @actions/github reads GITHUB_API_URL once, when first imported: set the env, then import.
    restoreEnv = setEnv({
      ...artifacts.env(),
      GITHUB_API_URL: github.url,
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      // reverify.yml dispatched on the default branch: a workflow the pull request cannot change.
      GITHUB_WORKFLOW_REF: 'octo-org/hello-world/.github/workflows/reverify.yml@refs/heads/main',
      GITHUB_WORKSPACE: repos.workspace,
      RUNNER_TEMP: temp,
      GITHUB_ACTOR: 'octocat'
    });
    ({ reverify: reverifyMode } = (await import('../../src/action/main.js')).MODES);
    ({ createReceiptArtifacts, receiptArtifactName } = await import('../../src/publish/artifacts.js'));
    // The validate step's upload, with the real client.
    await quietly(() =>
      createReceiptArtifacts({ repository: 'octo-org/hello-world', tempRoot: temp }).upload(made.receipt, { receipt: made.receiptPath, report: made.reportPath })
    );
  });

  afterAll(async () => {
    mayBeUnset(restoreEnv)?.();
    await Promise.all([mayBeUnset(artifacts)?.close(), mayBeUnset(github)?.close()]);
    removePullRequest(repos);
    rmSync(work, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(github.invalidRequests()).toEqual([]);
    expect(github.invalidResponses()).toEqual([]);
    expect(artifacts.invalidRequests()).toEqual([]);
  });

  it('the fixture: a passing receipt for a pull request whose diff is fix.diff', () => {
    expect(made.receipt.verdict).toBe('passed');
    expect(made.receipt.bindings.diff_digest).toBe(diffDigest(made.diff));
    const strip = (text: string): string => text.replace(/^index .*$/m, 'index');
    expect(strip(made.diff)).toBe(strip(readFileSync(join(JS_DURATION, 'candidates', 'fix.diff'), 'utf8')));
  });

  it('a good receipt, bound to this head, but not proof grade (local runner): failure, never success', async () => {
    // Behaviour changed deliberately (issue 10, item 3): a receipt that verifies is not proof by itself.
    const name = receiptArtifactName(made.receipt.receipt_digest);
    const before = github.checkRuns().length;
    const { result, summaries } = await reverify({ 'artifact-name': name });
    expect(result).toMatchObject({ verdict: 'failed', proofGrade: false, receiptDigest: made.receipt.receipt_digest });
    expect(result.message).toMatch(/not proof grade/);
    const runs = github.checkRuns().slice(before);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: 'PatchProof', head_sha: repos.head, status: 'completed', conclusion: 'failure' });
    expect(runs[0]?.output.title).toBe('PatchProof: receipt not proof grade — a pass without the isolated runner is never success');
    expect(runs[0]?.output.summary).toContain(made.receipt.bindings.diff_digest);
    expect(runs[0]?.output.summary).toContain(made.receipt.bindings.base_snapshot);
    expect(summaries[0]).toContain('not proof grade');
    // The checkout is still the base, untouched.
    expect(git(repos.workspace, ['rev-parse', 'HEAD'])).toBe(repos.base);
    expect(git(repos.workspace, ['status', '--porcelain'])).toBe('');
  });

  it('a receipt whose diff is not the current head\'s: failure "not bound to this head"', async () => {
    const before = github.checkRuns().length;
    const { result } = await reverify({ 'artifact-name': receiptArtifactName(made.receipt.receipt_digest) }, movedHead);
    expect(result.verdict).toBe('failed');
    expect(result.message).toMatch(/not bound to this head: diff_digest differs/);
    const runs = github.checkRuns().slice(before);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ head_sha: movedHead, conclusion: 'failure' });
    expect(runs[0]?.output.title).toBe('PatchProof: receipt not bound to this head — diff_digest differs');
    // Its failing-test annotations would point into another diff: none are posted.
    expect(runs[0]?.annotations).toEqual([]);
  });

  it('a receipt graded by another witness pack than the pinned one: failure', async () => {
    const before = github.checkRuns().length;
    const other = `sha256:${'e'.repeat(64)}`;
    const { result } = await reverify({ 'artifact-name': receiptArtifactName(made.receipt.receipt_digest), 'witness-pack': PACK_PATH, 'witness-digest': other });
    expect(result.verdict).toBe('failed');
    expect(result.message).toContain(`not the pinned ${other}`);
    expect(github.checkRuns().slice(before)[0]).toMatchObject({ head_sha: repos.head, conclusion: 'failure' });
  });

  it('a receipt with one byte changed: failure, rejected by verify-receipt', async () => {
    const text = readFileSync(made.receiptPath, 'utf8');
    const at = text.indexOf('"approved_by":"reviewer"') + '"approved_by":"r'.length;
    const tampered = `${text.slice(0, at)}E${text.slice(at + 1)}`;
    expect(Buffer.byteLength(tampered)).toBe(Buffer.byteLength(text));
    await uploadAs('patchproof-receipt-tampered', tampered);
    const before = github.checkRuns().length;
    const { result } = await reverify({ 'artifact-name': 'patchproof-receipt-tampered' });
    expect(result.verdict).toBe('failed');
    expect(result.message).toMatch(/failed verification: receipt_digest does not match the content/);
    const runs = github.checkRuns().slice(before);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ head_sha: repos.head, conclusion: 'failure' });
    expect(runs[0]?.output.title).toBe('PatchProof: REJECTED — the receipt failed offline verification');
  });

  it("an artifact changed after upload (the service's digest no longer matches): failure, refused before reading it", async () => {
    await uploadAs('patchproof-receipt-corrupted', readFileSync(made.receiptPath, 'utf8'));
    artifacts.corrupt('patchproof-receipt-corrupted');
    const before = github.checkRuns().length;
    const { result } = await reverify({ 'artifact-name': 'patchproof-receipt-corrupted' });
    expect(result.verdict).toBe('failed');
    expect(result.message).toMatch(/does not match the digest recorded at upload/);
    expect(github.checkRuns().slice(before)[0]).toMatchObject({ conclusion: 'failure' });
    expect(github.checkRuns().slice(before)[0]?.output.title).toBe('PatchProof: REJECTED — the artifact does not match its recorded digest');
  });

  it('with replay: validates again with the pinned pack and the verdicts agree; a local (not proof-grade) pass is still failure', async () => {
    // Behaviour changed deliberately (issue 10, items 3 and 4): agreement of two local runs proves nothing.
    const digest = patchproof(['witness', 'digest', JS_PACK]).trim();
    const before = github.checkRuns().length;
    const { result } = await reverify({ 'artifact-name': receiptArtifactName(made.receipt.receipt_digest), replay: 'true', 'witness-pack': PACK_PATH, 'witness-digest': digest });
    expect(result).toMatchObject({ verdict: 'failed', proofGrade: false });
    const runs = github.checkRuns().slice(before);
    // Validate mode posts its own check run under another name, then the re-verification's.
    expect(runs.map((r) => [r.name, r.head_sha])).toEqual([
      ['PatchProof (replay)', repos.head],
      ['PatchProof', repos.head]
    ]);
    expect(runs[1]?.conclusion).toBe('failure');
    // The replay itself is gated by the trusted-context rules: a local pass is posted and returned as failed.
    expect(runs[0]?.conclusion).toBe('failure');
    expect(runs[0]?.output.title).toBe('PatchProof: FAILED — not_proof_grade');
    expect(runs[1]?.output.summary).toMatch(/replay `failed`/);
  });

  describe('signed receipts: only a trusted attestation or a proof-grade replay turns a receipt into success', () => {
    let sigstore: TestSigstore & { untrusted: TestSigstore };
    let rootPath: string;
    /** The bound local receipt flipped to a proof-grade pass (isolated runner) and re-sealed: self-consistent, intact, bound. */
    let forged: Receipt;
    let forgedText: string;
    const gate = githubIdentity({
      signerUri: 'https://github.com/octo-org/hello-world/.github/workflows/patchproof.yml@refs/heads/main',
      sourceRepository: 'https://github.com/octo-org/hello-world'
    });
    const signed = (suffix: string): Record<string, string> => ({ 'artifact-name': `patchproof-receipt-${suffix}`, 'trusted-root': rootPath });

    beforeAll(async () => {
      sigstore = await createTestSigstore();
      rootPath = join(work, 'trusted-root.json');
      writeFileSync(rootPath, JSON.stringify(sigstore.trustedRoot));
      forged = asIsolated(made.receipt);
      forgedText = serializeReceipt(forged);
    });

    it('the forged receipt verifies and is bound: the flip is invisible to verify-receipt', async () => {
      await uploadAs('patchproof-receipt-forged', forgedText);
      const before = github.checkRuns().length;
      const { result } = await reverify({ 'artifact-name': 'patchproof-receipt-forged' });
      // No attestation and no replay: failure, with the reason.
      expect(result.verdict).toBe('failed');
      expect(result.message).toMatch(/nothing trusted vouches for it/);
      expect(result.message).toContain(`carries no ${RECEIPT_BUNDLE_FILE}`);
      const runs = github.checkRuns().slice(before);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ head_sha: repos.head, conclusion: 'failure' });
      expect(runs[0]?.output.title).toBe('PatchProof: receipt not proven — no trusted attestation and no proof-grade replay');
      expect(runs[0]?.output.summary).toContain('✅ verify-receipt');
    });

    it('attested by the gate (pull_request_target on the default branch), bundle in a companion artifact: success', async () => {
      await uploadAs('patchproof-receipt-gate', forgedText);
      await uploadCompanion('patchproof-attestation-gate', await sigstore.attest(Buffer.from(forgedText), { identity: gate }));
      const before = github.checkRuns().length;
      const { result } = await reverify(signed('gate'));
      expect(result).toMatchObject({ verdict: 'passed', proofGrade: true, receiptDigest: forged.receipt_digest });
      const runs = github.checkRuns().slice(before);
      expect(runs[0]).toMatchObject({ head_sha: repos.head, conclusion: 'success' });
      expect(runs[0]?.output.title).toBe('PatchProof re-verified: PASSED — receipt intact and bound to this head (trusted attestation)');
      expect(runs[0]?.output.summary).toMatch(
        /^\*\*信任 \/ Trust: ✅ trusted \/ 可信\*\* — this workflow\\_dispatch run's workflow file `octo-org\/hello-world\/.github\/workflows\/reverify.yml@refs\/heads\/main`/
      );
      expect(runs[0]?.output.summary).toContain('https://github.com/octo-org/hello-world/.github/workflows/patchproof.yml@refs/heads/main');
    });

    it('with app credentials, the success check is posted as the GitHub App: a JWT the server verifies, a checks-only token, and that token on checks/create', async () => {
      const before = { runs: github.checkRuns().length, requests: github.requests().length };
      const { result } = await reverify({ ...signed('gate'), 'app-id': String(APP.id), 'app-private-key': APP_KEYS.privateKey });
      expect(result).toMatchObject({ verdict: 'passed', proofGrade: true });
      const runs = github.checkRuns().slice(before.runs);
      expect(runs.map((r) => [r.conclusion, r.app.slug, r.app.id])).toEqual([['success', 'patchproof-test-app', APP.id]]);
      const requests = github.requests().slice(before.requests);
      const ops = requests.map((r) => r.operationId).filter((op) => op?.startsWith('apps/') || op?.startsWith('checks/'));
      expect(ops).toEqual(['apps/get-repo-installation', 'apps/create-installation-access-token', 'checks/create']);
      expect(requests.find((r) => r.operationId === 'apps/create-installation-access-token')?.body).toEqual({ repositories: ['hello-world'], permissions: { checks: 'write' } });
      expect(requests.find((r) => r.operationId === 'checks/create')?.headers['authorization']).toBe(`token ${APP.installationToken}`);
      // Without the app, the same reverify posts as GitHub Actions (the workflow token).
      const plain = github.checkRuns().length;
      await reverify(signed('gate'));
      expect(
        github
          .checkRuns()
          .slice(plain)
          .map((r) => r.app.slug)
      ).toEqual(['github-actions']);
    });

    it('the same attested receipt, reverified by a workflow dispatched on another branch: failure (untrusted_workflow), said in the check run and the summary', async () => {
      const before = github.checkRuns().length;
      const previous = process.env['GITHUB_WORKFLOW_REF'];
      process.env['GITHUB_WORKFLOW_REF'] = 'octo-org/hello-world/.github/workflows/reverify.yml@refs/heads/agent-branch';
      try {
        const { result, warnings, summaries } = await reverify(signed('gate'));
        expect(result).toMatchObject({ verdict: 'failed', proofGrade: false });
        expect(result.message).toMatch(/vouched for \(trusted attestation\), but this run cannot post success: the workflow file runs from the branch refs\/heads\/agent-branch/);
        expect(warnings).toEqual([
          expect.stringMatching(/^PatchProof will not post success from this run: the workflow file runs from the branch refs\/heads\/agent-branch.*workflow_dispatch/)
        ]);
        const runs = github.checkRuns().slice(before);
        expect(runs.map((r) => r.conclusion)).toEqual(['failure']);
        expect(runs[0]?.output.title).toBe('PatchProof: FAILED — untrusted_workflow: this run cannot vouch for the receipt');
        for (const markdown of [runs[0]?.output.summary ?? '', summaries[0] ?? '']) expect(markdown).toMatch(/^\*\*信任 \/ Trust: ❌ untrusted \/ 不可信\*\*/m);
      } finally {
        process.env['GITHUB_WORKFLOW_REF'] = previous;
      }
    });

    it('a trusted root given as JSON lines (gh attestation trusted-root): the attestation verifies under one of them', async () => {
      const other = await createTestSigstore();
      const lines = join(work, 'trusted_root.jsonl');
      writeFileSync(lines, `${JSON.stringify(other.trustedRoot)}\n${JSON.stringify(sigstore.trustedRoot)}\n`);
      const { result } = await reverify({ 'artifact-name': 'patchproof-receipt-gate', 'trusted-root': lines });
      expect(result).toMatchObject({ verdict: 'passed', proofGrade: true });
      // Only the other root: refused.
      writeFileSync(lines, `${JSON.stringify(other.trustedRoot)}\n`);
      const alone = await reverify({ 'artifact-name': 'patchproof-receipt-gate', 'trusted-root': lines });
      expect(alone.result.verdict).toBe('failed');
      expect(alone.result.message).toMatch(/does not verify/);
    });

    it('the same bundle without a trusted-root input: failure (attestations cannot be checked)', async () => {
      const before = github.checkRuns().length;
      const { result } = await reverify({ 'artifact-name': 'patchproof-receipt-gate' });
      expect(result.verdict).toBe('failed');
      expect(result.message).toContain('no trusted-root input');
      expect(github.checkRuns().slice(before)[0]).toMatchObject({ conclusion: 'failure' });
    });

    it("signed by a fork's own pull_request run, by another workflow, or under an untrusted CA (bundle inside the artifact): failure", async () => {
      const cases: [string, Promise<Record<string, unknown>>, RegExp][] = [
        ['fork', sigstore.attest(Buffer.from(forgedText), { identity: { ...gate, trigger: 'pull_request', sourceRef: 'refs/pull/8/merge' } }), /was on refs\/pull\/8\/merge/],
        [
          'other-workflow',
          sigstore.attest(Buffer.from(forgedText), { identity: { ...gate, signerUri: 'https://github.com/octo-org/hello-world/.github/workflows/mine.yml@refs/heads/main' } }),
          /certificate identity error/
        ],
        ['untrusted-ca', sigstore.untrusted.attest(Buffer.from(forgedText), { identity: gate }), /does not verify/]
      ];
      for (const [suffix, bundle, reason] of cases) {
        await uploadAs(`patchproof-receipt-${suffix}`, forgedText, await bundle);
        const before = github.checkRuns().length;
        const { result } = await reverify(signed(suffix));
        expect({ suffix, verdict: result.verdict }).toEqual({ suffix, verdict: 'failed' });
        expect(result.message).toMatch(reason);
        expect(github.checkRuns().slice(before)[0]).toMatchObject({ conclusion: 'failure' });
        expect(github.checkRuns().slice(before)[0]?.output.title).toBe('PatchProof: receipt not proven — no trusted attestation and no proof-grade replay');
      }
    });

    it('a gate attestation of other bytes (the genuine receipt, then flipped): failure', async () => {
      // The gate really signed the local receipt; the flipped receipt carries that bundle.
      await uploadAs('patchproof-receipt-reused', forgedText, await sigstore.attest(readFileSync(made.receiptPath), { identity: gate }));
      const { result } = await reverify(signed('reused'));
      expect(result.verdict).toBe('failed');
      expect(result.message).toMatch(/subject is sha256:[0-9a-f]{64}, but receipt.json is sha256:/);
    });

    it('a valid, attested receipt of another diff (the head moved): failure, not bound', async () => {
      const before = github.checkRuns().length;
      const { result } = await reverify(signed('gate'), movedHead);
      expect(result.verdict).toBe('failed');
      expect(result.message).toMatch(/not bound to this head: diff_digest differs/);
      expect(github.checkRuns().slice(before)[0]).toMatchObject({ head_sha: movedHead, conclusion: 'failure' });
    });

    it('the forged receipt with a replay that is not proof grade (local runner): failure', async () => {
      const digest = patchproof(['witness', 'digest', JS_PACK]).trim();
      const before = github.checkRuns().length;
      const { result } = await reverify({ 'artifact-name': 'patchproof-receipt-forged', replay: 'true', 'witness-pack': PACK_PATH, 'witness-digest': digest });
      expect(result.verdict).toBe('failed');
      const runs = github.checkRuns().slice(before);
      expect(runs[runs.length - 1]).toMatchObject({ name: 'PatchProof', conclusion: 'failure' });
    });
  });

  it('refuses a run without base and head on workflow_dispatch before downloading anything', async () => {
    const event = join(work, 'event-empty.json');
    writeFileSync(event, '{"inputs":{}}');
    process.env['GITHUB_EVENT_PATH'] = event;
    const settings = readActionSettings((name) => ({ 'github-token': TOKEN, mode: 'reverify', 'run-id': '4242' })[name] ?? '');
    const requests = artifacts.requests().length;
    await expect(reverifyMode(settings, recordingOutcome().outcome)).rejects.toThrow(/base and head inputs are required on workflow_dispatch/);
    expect(artifacts.requests()).toHaveLength(requests);
  });
});
