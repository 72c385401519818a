import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGitSource } from '../../src/fetch/git.js';
import { sealReceipt, serializeReceipt } from '../../src/core/receipt.js';
import { receiptSchema, type Receipt } from '../../src/core/receipt-schema.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import { createTestSigstore, githubIdentity } from '../helpers/sigstore-fixture.js';
import { quietly, setEnv } from '../helpers/process-env.js';
import { ensureActionBundle, parseOutputFile, runAction } from './data/validate-bundle.js';
import { JS_DURATION, JS_PACK, ROOT, git, makePullRequest, removePullRequest, type PullRequestRepos } from './data/validate-repos.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * End to end: the bundled action (`node dist/index.js`) in reverify mode against the loopback
 * GitHub API and artifact service, with real git. The receipts a pull request's side could upload
 * — a genuine local receipt flipped to a proof-grade pass and re-sealed, with and without a
 * signature; a signed receipt of another diff — never get a success check; the same flipped
 * receipt signed by the gate (a test Sigstore stands in for Fulcio and Rekor) does, which shows
 * the signature is what decides.
 */

const TOKEN = 'ghs_test';
const CLI = join(ROOT, 'dist', 'cli', 'index.js');

function patchproof(args: string[]): string {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (![0, 1].includes(result.status ?? -1)) throw new Error(`patchproof ${args[0]} exited ${result.status}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

let repos: PullRequestRepos;
let work: string;
let artifacts: ArtifactServer;
let github: GitHubServer;
let restoreEnv: () => void;
let bundle: ReturnType<typeof ensureActionBundle>;
let forgedText: string;
let movedHead: string;
let rootPath: string;
/** The agent's copy of the base (the same tree, not on main's history) and the candidate's change on it. */
let offBase: string;
let offHead: string;

beforeAll(async () => {
  repos = makePullRequest({ kind: 'diff', file: join(JS_DURATION, 'candidates', 'fix.diff') });
  work = mkdtempSync(join(tmpdir(), 'pp-reverify-e2e-'));
  // The receipt a validate run would make (local runner), as in reverify-mode.test.ts.
  const source = createGitSource(repos.workspace);
  await source.fetchCommits(repos.base, repos.head);
  const baseDir = join(work, 'base');
  await source.writeTree(repos.base, baseDir);
  writeFileSync(join(work, 'candidate.diff'), await source.diff(repos.base, repos.head, 1 << 20));
  patchproof(['propose', '--repo', baseDir, '--diff', join(work, 'candidate.diff'), '--out', join(work, 'proposal.json')]);
  const { proposal_hash: hash } = JSON.parse(readFileSync(join(work, 'proposal.json'), 'utf8')) as { proposal_hash: string };
  patchproof([
    'approve',
    '--proposal',
    join(work, 'proposal.json'),
    '--proposal-hash',
    hash,
    '--approved-by',
    'reviewer',
    '--run-id',
    'run-1',
    '--out',
    join(work, 'approval.json')
  ]);
  const digest = patchproof(['witness', 'digest', JS_PACK]).trim();
  patchproof([
    'validate',
    '--repo',
    baseDir,
    '--proposal',
    join(work, 'proposal.json'),
    '--approval',
    join(work, 'approval.json'),
    '--witness',
    JS_PACK,
    '--witness-digest',
    digest,
    '--runner',
    'local',
    '--out',
    join(work, 'out')
  ]);
  const real: Receipt = receiptSchema.parse(JSON.parse(readFileSync(join(work, 'out', 'receipt.json'), 'utf8')));
  const { receipt_digest: _digest, ...body } = real;
  forgedText = serializeReceipt(
    sealReceipt({
      ...body,
      runner: { ...body.runner, kind: 'docker', isolated: true, image: `patchproof-test@sha256:${'1'.repeat(64)}`, image_id: `sha256:${'1'.repeat(64)}` },
      proof_grade: true
    })
  );

  const author = join(repos.dir, 'author');
  writeFileSync(join(author, 'src', 'duration.js'), `${readFileSync(join(author, 'src', 'duration.js'), 'utf8')}\n// a later push\n`);
  git(author, ['commit', '-q', '-am', 'A later push']);
  movedHead = git(author, ['rev-parse', 'HEAD']);
  git(author, ['push', '-q', repos.origin, 'candidate:refs/pull/8/head']);
  // A commit with the base's very tree but not on main's history, and the same change on top: pushed
  // as a pull request's head, as any fork can. A dispatch of reverify.yml can name them as base and head.
  offBase = git(author, ['commit-tree', `${repos.base}^{tree}`, '-p', `${repos.base}^`, '-m', "The agent's copy of the base"]);
  offHead = git(author, ['commit-tree', `${repos.head}^{tree}`, '-p', offBase, '-m', 'The candidate on it']);
  git(author, ['push', '-q', repos.origin, `${offHead}:refs/pull/9/head`]);

  artifacts = await startArtifactServer();
  github = await startGitHubServer({ token: TOKEN, artifacts });
  restoreEnv = setEnv({ ...artifacts.env(), GITHUB_API_URL: github.url });
  const sigstore = await createTestSigstore();
  rootPath = join(work, 'trusted_root.jsonl');
  writeFileSync(rootPath, `${JSON.stringify(sigstore.trustedRoot)}\n`);
  const gate = githubIdentity({
    signerUri: 'https://github.com/octo-org/hello-world/.github/workflows/patchproof.yml@refs/heads/main',
    sourceRepository: 'https://github.com/octo-org/hello-world'
  });
  const { DefaultArtifactClient } = await import('@actions/artifact');
  const upload = async (name: string, files: Record<string, string | Buffer>): Promise<void> => {
    const dir = mkdtempSync(join(work, 'upload-'));
    for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
    await quietly(() =>
      new DefaultArtifactClient().uploadArtifact(
        name,
        Object.keys(files).map((file) => join(dir, file)),
        dir
      )
    );
  };
  const report = readFileSync(join(work, 'out', 'report.md'));
  await upload('patchproof-receipt-unsigned', { 'receipt.json': forgedText, 'report.md': report });
  await upload('patchproof-receipt-gate', { 'receipt.json': forgedText, 'report.md': report });
  await upload('patchproof-attestation-gate', { 'receipt.sigstore.json': JSON.stringify(await sigstore.attest(Buffer.from(forgedText), { identity: gate })) });
  await upload('patchproof-receipt-fork', {
    'receipt.json': forgedText,
    'report.md': report,
    'receipt.sigstore.json': JSON.stringify(await sigstore.attest(Buffer.from(forgedText), { identity: { ...gate, trigger: 'pull_request', sourceRef: 'refs/pull/7/merge' } }))
  });
  bundle = ensureActionBundle();
}, 240_000);

afterAll(async () => {
  mayBeUnset(restoreEnv)?.();
  mayBeUnset(bundle)?.dispose();
  await Promise.all([mayBeUnset(artifacts)?.close(), mayBeUnset(github)?.close()]);
  removePullRequest(repos);
  rmSync(work, { recursive: true, force: true });
});

/** One run of the bundle, as the runner runs a workflow_dispatch of reverify.yml. */
async function reverify(
  artifactName: string,
  head = repos.head,
  extra: Record<string, string> = {}
): Promise<{ status: number | null; stdout: string; outputs: Record<string, string>; conclusion: string | null | undefined; title: string | null | undefined }> {
  const tmp = mkdtempSync(join(work, 'run-'));
  const runnerTemp = join(tmp, 'runner-temp');
  mkdirSync(runnerTemp);
  writeFileSync(join(tmp, 'event.json'), JSON.stringify({ inputs: {}, ref: 'refs/heads/main', repository: { full_name: 'octo-org/hello-world', default_branch: 'main' } }));
  writeFileSync(join(tmp, 'output.txt'), '');
  writeFileSync(join(tmp, 'summary.md'), '');
  const before = github.checkRuns().length;
  const run = await runAction(
    bundle.path,
    {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: process.env['HOME'] ?? tmp,
      ...artifacts.env(),
      GITHUB_ACTIONS: 'true',
      GITHUB_API_URL: github.url,
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      // reverify.yml dispatched on the default branch: a workflow the pull request cannot change.
      GITHUB_WORKFLOW_REF: 'octo-org/hello-world/.github/workflows/reverify.yml@refs/heads/main',
      GITHUB_EVENT_PATH: join(tmp, 'event.json'),
      GITHUB_WORKSPACE: repos.workspace,
      GITHUB_OUTPUT: join(tmp, 'output.txt'),
      GITHUB_STEP_SUMMARY: join(tmp, 'summary.md'),
      RUNNER_TEMP: runnerTemp,
      INPUT_MODE: 'reverify',
      'INPUT_GITHUB-TOKEN': TOKEN,
      'INPUT_RUN-ID': String(artifacts.runId),
      'INPUT_ARTIFACT-NAME': artifactName,
      INPUT_BASE: repos.base,
      INPUT_HEAD: head,
      INPUT_RUNNER: 'docker',
      INPUT_REPLAY: 'false',
      'INPUT_CHECK-NAME': 'PatchProof',
      'INPUT_REPOSITORY-PATH': '.',
      'INPUT_TRUSTED-ROOT': rootPath,
      ...extra
    },
    repos.workspace
  );
  const runs = github.checkRuns().slice(before);
  return {
    status: run.status,
    stdout: run.stdout,
    outputs: parseOutputFile(readFileSync(join(tmp, 'output.txt'), 'utf8')),
    conclusion: runs[runs.length - 1]?.conclusion,
    title: runs[runs.length - 1]?.output.title
  };
}

describe('reverify through dist/index.js: a receipt is proof only with a trusted signature', () => {
  afterEach(() => {
    expect(github.invalidRequests()).toEqual([]);
    expect(artifacts.invalidRequests()).toEqual([]);
  });

  it('a flipped, re-sealed, proof-grade receipt without attestation: failure, exit 1', async () => {
    const run = await reverify('patchproof-receipt-unsigned');
    expect(run).toMatchObject({ status: 1, conclusion: 'failure', title: 'PatchProof: receipt not proven — no trusted attestation and no proof-grade replay' });
    expect(run.outputs).toMatchObject({ verdict: 'failed', 'proof-grade': 'false' });
  });

  it("the same receipt signed by a fork's pull_request run: failure", async () => {
    expect(await reverify('patchproof-receipt-fork')).toMatchObject({ status: 1, conclusion: 'failure' });
  });

  it('the same receipt attested by the gate on the default branch: success, proof grade', async () => {
    const run = await reverify('patchproof-receipt-gate');
    expect(run).toMatchObject({ status: 0, conclusion: 'success', title: 'PatchProof re-verified: PASSED — receipt intact and bound to this head (trusted attestation)' });
    expect(run.outputs).toMatchObject({ verdict: 'passed', 'proof-grade': 'true' });
  });

  it('the gate-attested receipt on another diff (the head moved): failure', async () => {
    expect(await reverify('patchproof-receipt-gate', movedHead)).toMatchObject({
      status: 1,
      conclusion: 'failure',
      title: 'PatchProof: receipt not bound to this head — diff_digest differs'
    });
  });

  it("attack: a base off the default branch's history (a pull request's head, with the base's tree): refused before any receipt is read, no check", async () => {
    // Without the check (before issue 27) this dispatch posted success: the receipt is bound (same
    // trees, same diff) and attested. The base is the trusted tree a replay grades with; a dispatcher
    // must not choose it from outside the default branch.
    const before = github.checkRuns().length;
    const run = await reverify('patchproof-receipt-gate', offHead, { INPUT_BASE: offBase });
    expect(run.status).toBe(1);
    expect(run.outputs).toMatchObject({ verdict: 'failed', 'proof-grade': 'false' });
    expect(run.stdout).toContain(`base ${offBase} is not on the history of the default branch refs/heads/main`);
    expect(github.checkRuns().length).toBe(before);
    // The same receipt against the real base and head still re-verifies (above): only the base differs.
    expect(await reverify('patchproof-receipt-gate')).toMatchObject({ status: 0, conclusion: 'success' });
  });

  it('the gate-attested receipt with the signer pinned to another workflow: failure', async () => {
    expect(await reverify('patchproof-receipt-gate', repos.head, { 'INPUT_SIGNER-WORKFLOW': 'patchproof/patchproof/.github/workflows/patchproof.yml' })).toMatchObject({
      status: 1,
      conclusion: 'failure'
    });
  });
});
