import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { tagShard, SHARD_TAG_FILE } from '../../src/core/shard-tag.js';
import { dockerTestGate } from '../../src/runners/docker-available.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import type { ArtifactClient } from '@actions/artifact';
import { ensureActionBundle } from './data/validate-bundle.js';
import { asJobOf as asRunJob, dockerJobInputs, expectExit, filesUnder, runActionJob, type Job } from './data/action-job.js';
import { JS_DURATION, JS_PACK, PACK_PATH, git } from './data/validate-repos.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * End to end: the bundled action's screen mode against real git repositories (a bare origin with
 * five pull requests, a shallow checkout of the base), the loopback GitHub API (every request
 * checked against GitHub's OpenAPI description), the loopback artifact service (the real
 * @actions/artifact client) and the real Docker engine. One job screens the labelled pull requests
 * (a fix, a byte-identical copy of it in another commit, one that does not fix the bug; one into
 * another branch is skipped); then a two-shard matrix (shard 1/2, shard 2/2, merge) of the same, with a head pushed
 * between the shards and the merge; then the merge's attacks: a re-sealed shard receipt, a missing
 * shard, a dispatch from another branch.
 */

const REPOSITORY = 'octo-org/hello-world';
const TOKEN = 'ghs_test';
const LABEL = 'patchproof-screen';
const TRACKING_ISSUE = 99;
const gate = await dockerTestGate();
if (gate.mode === 'skip') console.warn(`screen-e2e: skipped: ${gate.reason}`);
const describeDocker = gate.mode === 'skip' ? describe.skip : describe;

interface Repos {
  dir: string;
  origin: string;
  workspace: string;
  base: string;
  heads: Record<number, string>;
}

/** PR number → candidate diff, base branch, labelled. */
const PULLS: Record<number, { diff: string; baseRef: string; labelled: boolean }> = {
  11: { diff: join(JS_DURATION, 'candidates', 'fix.diff'), baseRef: 'main', labelled: true },
  12: { diff: join(JS_DURATION, 'screen-candidates', 'fix-context.diff'), baseRef: 'main', labelled: true },
  13: { diff: join(JS_DURATION, 'candidates', 'not-fixed.diff'), baseRef: 'main', labelled: true },
  14: { diff: join(JS_DURATION, 'candidates', 'fix.diff'), baseRef: 'release', labelled: true },
  15: { diff: join(JS_DURATION, 'candidates', 'fix.diff'), baseRef: 'main', labelled: false }
};

function makeRepos(): Repos {
  const dir = mkdtempSync(join(tmpdir(), 'pp-screen-e2e-'));
  const author = join(dir, 'author');
  mkdirSync(author);
  git(author, ['init', '-q', '-b', 'main']);
  cpSync(join(JS_DURATION, 'repo'), author, { recursive: true });
  cpSync(JS_PACK, join(author, PACK_PATH), { recursive: true });
  git(author, ['add', '-A']);
  git(author, ['commit', '-q', '-m', 'Duration parser and its witness pack']);
  const base = git(author, ['rev-parse', 'HEAD']);
  const origin = join(dir, 'origin.git');
  git(dir, ['init', '-q', '--bare', origin]);
  git(author, ['push', '-q', origin, 'main:refs/heads/main', 'main:refs/heads/release']);
  const heads: Record<number, string> = {};
  for (const [number, pull] of Object.entries(PULLS)) {
    git(author, ['checkout', '-q', '-B', `pr-${number}`, base]);
    git(author, ['apply', '--whitespace=nowarn', pull.diff]);
    git(author, ['add', '-A']);
    git(author, ['commit', '-q', '-m', `Candidate ${number}`]);
    heads[Number(number)] = git(author, ['rev-parse', 'HEAD']);
    git(author, ['push', '-q', origin, `pr-${number}:refs/pull/${number}/head`]);
  }
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  git(workspace, ['init', '-q']);
  git(workspace, ['remote', 'add', 'origin', `file://${origin}`]);
  git(workspace, ['fetch', '-q', '--no-tags', '--depth=1', 'origin', base]);
  git(workspace, ['checkout', '-q', '--detach', base]);
  return { dir, origin, workspace, base, heads };
}

/** A push to pull request `number`: a new commit on top of its head, pushed to refs/pull/N/head. */
function pushTo(repos: Repos, number: number): string {
  const author = join(repos.dir, 'author');
  git(author, ['checkout', '-q', `pr-${number}`]);
  writeFileSync(join(author, 'NOTES.md'), 'a later push\n');
  git(author, ['add', '-A']);
  git(author, ['commit', '-q', '-m', 'A later push']);
  git(author, ['push', '-q', '-f', repos.origin, `pr-${number}:refs/pull/${number}/head`]);
  return git(author, ['rev-parse', 'HEAD']);
}

let repos: Repos;
let github: GitHubServer;
let bundle: ReturnType<typeof ensureActionBundle> | undefined;
let packDigest: string;
const tmps: string[] = [];
const servers: ArtifactServer[] = [];

function runJob(artifacts: ArtifactServer, inputs: Record<string, string>, env: Record<string, string> = {}): Promise<Job> {
  const repository = { full_name: REPOSITORY, name: 'hello-world', owner: { login: 'octo-org' }, default_branch: 'main' };
  return runActionJob({
    bundlePath: (bundle as { path: string }).path,
    workspace: repos.workspace,
    artifacts,
    apiUrl: github.url,
    event: { inputs: {}, ref: env['GITHUB_REF'] ?? 'refs/heads/main', repository, sender: { login: 'maintainer' }, workflow: '.github/workflows/screen.yml' },
    env: {
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      GITHUB_WORKFLOW_REF: `${REPOSITORY}/.github/workflows/screen.yml@refs/heads/main`,
      GITHUB_ACTOR: 'maintainer',
      GITHUB_SHA: repos.base,
      GITHUB_REF: 'refs/heads/main',
      ...dockerJobInputs({ path: PACK_PATH, digest: packDigest }, gate.mode === 'run' ? gate.imageId : undefined, TOKEN),
      ...inputs,
      ...env
    },
    tmps,
    prefix: 'pp-screen-job-',
    timeoutMs: 600_000
  });
}

/** Run `body` with the real artifact client pointed at `artifacts`. */
const asJobOf = <T>(artifacts: ArtifactServer, body: (client: ArtifactClient) => Promise<T>): Promise<T> => asRunJob(artifacts, github.url, body);

const SCREEN = { INPUT_MODE: 'screen', 'INPUT_SCREEN-LABEL': LABEL };
const KEY = randomBytes(32).toString('hex');
const checksOn = (sha: string) => github.checkRuns().filter((r) => r.head_sha === sha);

let single: Job;
let afterSingle: { checks: number; comments: ReturnType<GitHubServer['comments']> };
let shard1: Job;
let shard2: Job;
let merge: Job;
let movedHead: string;
let matrixRun: ArtifactServer;

describeDocker('screen mode end to end', () => {
  beforeAll(async () => {
    if (gate.mode === 'fail') throw new Error(gate.reason);
    packDigest = (await digestWitnessFolder(JS_PACK)).digest;
    bundle = ensureActionBundle();
    repos = makeRepos();
    github = await startGitHubServer({
      token: TOKEN,
      repository: REPOSITORY,
      pulls: Object.entries(PULLS).map(([n, p]) => ({
        number: Number(n),
        headSha: repos.heads[Number(n)] as string,
        baseSha: repos.base,
        baseRef: p.baseRef,
        labels: p.labelled ? [LABEL] : []
      })),
      // A person's comment quoting the marker: never the one updated.
      comments: [{ issue: TRACKING_ISSUE, body: '<!-- patchproof-screen -->\nI quote the marker', user: { login: 'mallory', type: 'User' } }]
    });
    const singleRun = await startArtifactServer({ repository: REPOSITORY, runId: 5001 });
    servers.push(singleRun);
    single = await runJob(singleRun, { ...SCREEN, 'INPUT_SCREEN-COMMENT-ISSUE': String(TRACKING_ISSUE) });
    afterSingle = { checks: github.checkRuns().length, comments: github.comments() };

    matrixRun = await startArtifactServer({ repository: REPOSITORY, runId: 5002, firstArtifactId: 8001 });
    servers.push(matrixRun);
    // Shard 1 first: it makes the base side and uploads it; shard 2 reuses it (one baseline for the screening).
    shard1 = await runJob(matrixRun, { ...SCREEN, INPUT_SHARD: '1/2', 'INPUT_SCREEN-RUN-KEY': KEY });
    shard2 = await runJob(matrixRun, { ...SCREEN, INPUT_SHARD: '2/2', 'INPUT_SCREEN-RUN-KEY': KEY });
    // The fix's head moves after its shard validated it, before the merge posts.
    movedHead = pushTo(repos, 11);
    github.updatePull(11, { headSha: movedHead });
    merge = await runJob(matrixRun, { INPUT_MODE: 'screen-merge', INPUT_SHARDS: '2', 'INPUT_SCREEN-RUN-KEY': KEY, 'INPUT_SCREEN-COMMENT-ISSUE': String(TRACKING_ISSUE) });
  }, 1_500_000);

  afterAll(async () => {
    await mayBeUnset(github)?.close();
    for (const s of servers) await s.close();
    if (mayBeUnset(repos) !== undefined) rmSync(repos.dir, { recursive: true, force: true });
    for (const t of tmps) rmSync(t, { recursive: true, force: true });
    bundle?.dispose();
  });

  test('one job: each labelled pull request into main gets its own check run on its head, with the right conclusion', () => {
    expectExit(single, 0);
    expect(single.outputs['verdict']).toBe('passed');
    const first = github.checkRuns().slice(0, afterSingle.checks);
    const on = (n: number) => first.filter((r) => r.head_sha === repos.heads[n]);
    expect(on(11).map((r) => r.conclusion)).toEqual(['success']);
    expect(on(12).map((r) => r.conclusion)).toEqual(['success']);
    expect(on(13).map((r) => r.conclusion)).toEqual(['failure']);
    // Into another branch: skipped, and said so; not labelled: not a candidate.
    expect(on(14)).toEqual([]);
    expect(on(15)).toEqual([]);
    expect(first).toHaveLength(3);
    expect(github.invalidRequests()).toEqual([]);
    expect(github.invalidResponses()).toEqual([]);
  });

  test('one job: the ranking table in the summary, with the duplicate and the skipped pull request', () => {
    expect(single.summary).toContain('| rank | candidate | commit | verdict |');
    expect(single.summary).toMatch(/\| 1 \| #1[12] \|/);
    expect(single.summary).toContain('duplicate of pr-11');
    expect(single.summary).toContain('- `#14`: its base is `release`, not the default branch `main`');
    expect(single.summary).toMatch(/\| 3 \| #13 \| .* \| \*\*failed\*\* \|/);
  });

  test("one comment on the tracking issue, updated (not duplicated) by the second screening; the quoting person's comment untouched", () => {
    const ours = (list: ReturnType<GitHubServer['comments']>) => list.filter((c) => c.user.type === 'Bot');
    expect(ours(afterSingle.comments)).toHaveLength(1);
    const now = github.comments();
    expect(ours(now)).toHaveLength(1);
    expect(ours(now)[0]?.id).toBe(ours(afterSingle.comments)[0]?.id);
    expect(ours(now)[0]?.updates).toBe(1);
    expect(now.find((c) => c.user.login === 'mallory')?.body).toBe('<!-- patchproof-screen -->\nI quote the marker');
  });

  test('two shards then the merge: every shard uploaded, one screening, checks on the validated commits', () => {
    expectExit(shard1, 0);
    expectExit(shard2, 0);
    // A shard is no verdict on any candidate: its step is green and says `uploaded`, never `passed`.
    expect([shard1.outputs['verdict'], shard2.outputs['verdict']]).toEqual(['uploaded', 'uploaded']);
    expect([shard1.outputs['proof-grade'], shard2.outputs['proof-grade']]).toEqual(['false', 'false']);
    expect(
      matrixRun
        .artifacts()
        .map((a) => a.name)
        .sort()
    ).toEqual(['patchproof-screen-baseline', 'patchproof-screen-shard-1-of-2', 'patchproof-screen-shard-2-of-2']);
    expect(shard2.run.stdout).toContain('baseline cache: reusing entry');
    // The shard jobs post nothing: only the merge judges.
    expectExit(merge, 0);
    expect(merge.outputs['verdict']).toBe('passed');
    const mergeChecks = github.checkRuns().slice(afterSingle.checks);
    expect(mergeChecks).toHaveLength(3);
    expect(mergeChecks.filter((r) => r.head_sha === repos.heads[13]).map((r) => r.conclusion)).toEqual(['failure']);
    expect(mergeChecks.filter((r) => r.head_sha === repos.heads[12]).map((r) => r.conclusion)).toEqual(['success']);
    expect(merge.summary).toContain('duplicate of pr-11');
  });

  test('a head pushed after validation gets no check: the check goes on the commit that was validated', () => {
    const mergeChecks = github.checkRuns().slice(afterSingle.checks);
    expect(mergeChecks.filter((r) => r.head_sha === repos.heads[11]).map((r) => r.conclusion)).toEqual(['success']);
    expect(checksOn(movedHead)).toEqual([]);
  });

  test('attack: a shard receipt changed to pass and re-sealed, uploaded by a matrix job, is refused by the merge (no check posted)', async () => {
    // Download the genuine shards of the matrix run, as any job of the run can.
    const dl = mkdtempSync(join(tmpdir(), 'pp-screen-forge-'));
    tmps.push(dl);
    await asJobOf(matrixRun, async (client) => {
      for (const { id, name } of (await client.listArtifacts()).artifacts) if (name.includes('-shard-')) await client.downloadArtifact(id, { path: join(dl, name) });
    });
    const forgedIn = ['patchproof-screen-shard-1-of-2', 'patchproof-screen-shard-2-of-2'].find((n) =>
      (JSON.parse(readFileSync(join(dl, n, 'shard.json'), 'utf8')) as { validated: string[] }).validated.includes('pr-13')
    ) as string;
    const receiptPath = join(dl, forgedIn, 'candidates', 'pr-13', 'receipt.json');
    const genuine = JSON.parse(readFileSync(receiptPath, 'utf8')) as Receipt;
    expect(genuine.verdict).toBe('failed');
    // The forgery: the fix's passing receipt, rebound to pr-13's proposal, and re-sealed.
    const fixIn = ['patchproof-screen-shard-1-of-2', 'patchproof-screen-shard-2-of-2'].find((n) =>
      (JSON.parse(readFileSync(join(dl, n, 'shard.json'), 'utf8')) as { validated: string[] }).validated.includes('pr-11')
    ) as string;
    const pass = JSON.parse(readFileSync(join(dl, fixIn, 'candidates', 'pr-11', 'receipt.json'), 'utf8')) as Receipt;
    expect(pass.verdict).toBe('passed');
    const { receipt_digest: _drop, ...body } = {
      ...pass,
      bindings: {
        ...pass.bindings,
        proposal_hash: genuine.bindings.proposal_hash,
        approval_digest: genuine.bindings.approval_digest,
        approved_by: genuine.bindings.approved_by,
        diff_digest: genuine.bindings.diff_digest
      }
    };
    const forged = serializeReceipt(sealReceipt(body));
    // Self-consistent: the seal alone cannot tell it from a real one.
    expect(verifyReceiptText(forged).errors).toEqual([]);
    writeFileSync(receiptPath, forged);
    // The forger re-tags both folders, without this run's key (it has its own).
    const forgerKey = randomBytes(32).toString('hex');
    const { createHash } = await import('node:crypto');
    for (const name of ['patchproof-screen-shard-1-of-2', 'patchproof-screen-shard-2-of-2']) {
      const files = filesUnder(join(dl, name)).filter((f) => !f.endsWith(SHARD_TAG_FILE));
      const listing = files.map((f) => ({ path: f.slice(join(dl, name).length + 1), sha256: createHash('sha256').update(readFileSync(f)).digest('hex') }));
      writeFileSync(join(dl, name, SHARD_TAG_FILE), JSON.stringify(tagShard(forgerKey, name, listing)));
    }
    const forgedRun = await startArtifactServer({ repository: REPOSITORY, runId: 5003, firstArtifactId: 9001 });
    servers.push(forgedRun);
    await asJobOf(forgedRun, async (client) => {
      for (const name of ['patchproof-screen-shard-1-of-2', 'patchproof-screen-shard-2-of-2']) await client.uploadArtifact(name, filesUnder(join(dl, name)), join(dl, name));
    });
    const before = github.checkRuns().length;
    const refused = await runJob(forgedRun, { INPUT_MODE: 'screen-merge', INPUT_SHARDS: '2', 'INPUT_SCREEN-RUN-KEY': KEY });
    expectExit(refused, 1);
    expect(refused.outputs['verdict']).toBe('failed');
    expect(refused.summary).toContain('not made with this run');
    expect(github.checkRuns().length).toBe(before);
    // Without the tag check (a merge that accepts the forger's key), the forgery gets through: pr-13 turns green.
    const fooled = await runJob(forgedRun, { INPUT_MODE: 'screen-merge', INPUT_SHARDS: '2', 'INPUT_SCREEN-RUN-KEY': forgerKey });
    expectExit(fooled, 0);
    expect(checksOn(repos.heads[13] as string).map((r) => r.conclusion)).toContain('success');
  }, 300_000);

  test('attack: a missing shard is inconclusive, and no check is posted', async () => {
    const dl = mkdtempSync(join(tmpdir(), 'pp-screen-missing-'));
    tmps.push(dl);
    await asJobOf(matrixRun, async (client) => {
      const found = (await client.listArtifacts()).artifacts.find((a) => a.name === 'patchproof-screen-shard-1-of-2');
      await client.downloadArtifact(found!.id, { path: join(dl, 'one') });
    });
    const partial = await startArtifactServer({ repository: REPOSITORY, runId: 5004, firstArtifactId: 9501 });
    servers.push(partial);
    await asJobOf(partial, async (client) => {
      await client.uploadArtifact('patchproof-screen-shard-1-of-2', filesUnder(join(dl, 'one')), join(dl, 'one'));
    });
    const before = github.checkRuns().length;
    const job = await runJob(partial, { INPUT_MODE: 'screen-merge', INPUT_SHARDS: '2', 'INPUT_SCREEN-RUN-KEY': KEY });
    expectExit(job, 1);
    expect(job.outputs['verdict']).toBe('inconclusive');
    // The summary escapes Markdown punctuation; rendered, the name reads as is.
    expect(job.summary.replace(/\\(.)/g, '$1')).toContain('patchproof-screen-shard-2-of-2');
    expect(github.checkRuns().length).toBe(before);
  }, 300_000);

  test("attack: a ref: pack from a tag on top of a candidate's head does not grade that candidate", async () => {
    // The agent tags a commit holding its own head and the (unchanged, digest-matching) pack.
    const author = join(repos.dir, 'author');
    git(author, ['checkout', '-q', '-B', 'graded', repos.heads[13] as string]);
    writeFileSync(join(author, 'GRADED.md'), 'the pack, from a commit on top of the candidate\n');
    git(author, ['add', '-A']);
    git(author, ['commit', '-q', '-m', 'The pack on top of candidate 13']);
    git(author, ['push', '-q', repos.origin, 'graded:refs/tags/graded', `${repos.heads[13] as string}:refs/heads/agent-13`]);
    const run = await startArtifactServer({ repository: REPOSITORY, runId: 5006, firstArtifactId: 9901 });
    servers.push(run);
    const before = github.checkRuns().length;
    const job = await runJob(run, { INPUT_MODE: 'screen', 'INPUT_SCREEN-REFS': 'refs/heads/agent-13', 'INPUT_WITNESS-PACK': `ref:refs/tags/graded:${PACK_PATH}` });
    expectExit(job, 1);
    expect(job.outputs['verdict']).toBe('inconclusive');
    expect(job.summary).toContain("is this candidate's head or contains it; the grader must not come from the candidate");
    expect(github.checkRuns().length).toBe(before);
  }, 300_000);

  test('attack: a dispatch from another branch is refused before anything is fetched', async () => {
    const run = await startArtifactServer({ repository: REPOSITORY, runId: 5005, firstArtifactId: 9801 });
    servers.push(run);
    const before = github.requests().length;
    const job = await runJob(run, SCREEN, { GITHUB_REF: 'refs/heads/agent-branch', GITHUB_WORKFLOW_REF: `${REPOSITORY}/.github/workflows/screen.yml@refs/heads/agent-branch` });
    expectExit(job, 1);
    expect(job.run.stdout).toContain('must be dispatched from the default branch refs/heads/main, not refs/heads/agent-branch');
    expect(github.requests().length).toBe(before);
  }, 120_000);
});
