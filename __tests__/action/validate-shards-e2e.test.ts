import { createHash, generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergedOutcome, verifyMergedText } from '../../src/core/merged.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { deriveShardKey, SHARD_TAG_FILE, tagShard } from '../../src/core/shard-tag.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { readBound } from '../../src/phases/screen-pipeline.js';
import { mergeShardReceipts } from '../../src/phases/suite-shards.js';
import { dockerTestGate } from '../../src/runners/docker-available.js';
import { TOOL_VERSION } from '../../src/version.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import { mayBeUnset } from '../helpers/lifecycle.js';
import type { ArtifactClient } from '@actions/artifact';
import { ensureActionBundle } from './data/validate-bundle.js';
import { asJobOf as asRunJob, dockerJobInputs, expectExit, filesUnder, runActionJob, type Job } from './data/action-job.js';
import { JS_DURATION, JS_PACK, PACK_PATH, git } from './data/validate-repos.js';

/**
 * End to end: one pull request's regression suite validated in two shard jobs (`mode: validate`,
 * `shard: K/2`) and merged by a third (`mode: validate-merge`), as the reusable workflow
 * .github/workflows/patchproof-validate-shards.yml runs them: the bundled action against real git
 * repositories (a bare origin with two pull requests on one base, a shallow checkout of the base),
 * the loopback GitHub API (every request checked against GitHub's OpenAPI description), the loopback
 * artifact service (the real @actions/artifact client) and the real Docker engine.
 *
 * fixtures/js-duration has three suite files; N = 2 cuts them {duration, timeouts} and {format}.
 * Pull request 21 is the fix; 22 is the regressing candidate, whose regression is in shard 1's files.
 * Then the attacks on the merge: a forged shard tagged without the run's shard key (which every job
 * derives from the GitHub App's private key; nothing prints it), a complete shard set of another
 * proposal tagged with it, a missing shard. The merge posts its check run as the app.
 */

const REPOSITORY = 'octo-org/hello-world';
const TOKEN = 'ghs_test';
const FIX = 21;
const REGRESSING = 22;
const GATE_REF = `${REPOSITORY}/.github/workflows/patchproof-gate.yml@refs/heads/main`;
/** The repository's GitHub App (its private key is the environment secret every job of the run reads). */
const APP = { id: 515151, installationId: 8_800_001, installationToken: 'ghs_patchproof_app_installation' };
const pemPair = () => generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const appKeys = pemPair();
/** A forger's own app: it can mint keys of its own, never the repository app's. */
const forgerKeys = pemPair();
const appInputs = (privateKey: string) => ({ 'INPUT_APP-ID': String(APP.id), 'INPUT_APP-PRIVATE-KEY': privateKey });
/** The shard key of a run of the gate, as each of its jobs derives it. */
const runKey = (privateKey: string, runId: number) => deriveShardKey(privateKey, { repository: REPOSITORY, runId: String(runId), runAttempt: '1' });
const gate = await dockerTestGate();
if (gate.mode === 'skip') console.warn(`validate-shards-e2e: skipped: ${gate.reason}`);
const describeDocker = gate.mode === 'skip' ? describe.skip : describe;

interface Repos {
  dir: string;
  origin: string;
  workspace: string;
  base: string;
  heads: Record<number, string>;
}

const DIFFS: Record<number, string> = {
  [FIX]: join(JS_DURATION, 'candidates', 'fix.diff'),
  [REGRESSING]: join(JS_DURATION, 'candidates', 'regressing.diff')
};

function makeRepos(): Repos {
  const dir = mkdtempSync(join(tmpdir(), 'pp-vshards-e2e-'));
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
  git(author, ['push', '-q', origin, 'main:refs/heads/main']);
  const heads: Record<number, string> = {};
  for (const [number, diff] of Object.entries(DIFFS)) {
    git(author, ['checkout', '-q', '-B', `pr-${number}`, base]);
    git(author, ['apply', '--whitespace=nowarn', diff]);
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

let repos: Repos;
let github: GitHubServer;
let bundle: ReturnType<typeof ensureActionBundle> | undefined;
let packDigest: string;
const tmps: string[] = [];
const servers: ArtifactServer[] = [];

function pullRequestEvent(number: number): object {
  const repo = { full_name: REPOSITORY, name: 'hello-world', owner: { login: 'octo-org' } };
  return {
    action: 'synchronize',
    number,
    pull_request: {
      number,
      state: 'open',
      title: `Candidate ${number}`,
      base: { ref: 'main', sha: repos.base, repo },
      head: { ref: `pr-${number}`, sha: repos.heads[number], repo: { full_name: 'contributor/hello-world', name: 'hello-world', owner: { login: 'contributor' } } }
    },
    repository: { ...repo, default_branch: 'main' },
    sender: { login: 'contributor' }
  };
}

/** One job of a pull_request_target run of the gate, for pull request `number`, in the run `artifacts` stands for. */
function runJob(artifacts: ArtifactServer, number: number, inputs: Record<string, string>, overrides: Record<string, string> = {}): Promise<Job> {
  return runActionJob({
    bundlePath: (bundle as { path: string }).path,
    workspace: repos.workspace,
    artifacts,
    apiUrl: github.url,
    event: pullRequestEvent(number),
    env: {
      GITHUB_EVENT_NAME: 'pull_request_target',
      GITHUB_WORKFLOW_REF: GATE_REF,
      GITHUB_ACTOR: 'contributor',
      GITHUB_SHA: repos.base,
      GITHUB_REF: 'refs/heads/main',
      ...dockerJobInputs({ path: PACK_PATH, digest: packDigest }, gate.mode === 'run' ? gate.imageId : undefined, TOKEN),
      ...inputs,
      ...overrides
    },
    tmps,
    prefix: 'pp-vshards-job-',
    timeoutMs: 900_000
  });
}

/** Run `body` with the real artifact client pointed at `artifacts`. */
const asJobOf = <T>(artifacts: ArtifactServer, body: (client: ArtifactClient) => Promise<T>): Promise<T> => asRunJob(artifacts, github.url, body);

/** Every artifact of `run`, downloaded into `dir/<name>`. */
async function downloadAll(run: ArtifactServer, dir: string): Promise<void> {
  await asJobOf(run, async (client) => {
    for (const { id, name } of (await client.listArtifacts()).artifacts) await client.downloadArtifact(id, { path: join(dir, name) });
  });
}

/** Re-tag the folder `dir` as artifact `name` with `key` (its files as they are now). */
function retag(dir: string, name: string, key: string): void {
  const files = filesUnder(dir).filter((f) => !f.endsWith(SHARD_TAG_FILE));
  const listing = files.map((f) => ({ path: f.slice(dir.length + 1), sha256: createHash('sha256').update(readFileSync(f)).digest('hex') }));
  writeFileSync(join(dir, SHARD_TAG_FILE), JSON.stringify(tagShard(key, name, listing)));
}

/** A new run's artifact service holding `folders` (name → folder) as uploaded artifacts. */
async function runHolding(runId: number, firstArtifactId: number, folders: Record<string, string>): Promise<ArtifactServer> {
  const run = await startArtifactServer({ repository: REPOSITORY, runId, firstArtifactId });
  servers.push(run);
  await asJobOf(run, async (client) => {
    for (const [name, dir] of Object.entries(folders)) await client.uploadArtifact(name, filesUnder(dir), dir);
  });
  return run;
}

const SHARD1 = 'patchproof-validate-shard-1-of-2';
const SHARD2 = 'patchproof-validate-shard-2-of-2';
const shardInputs = (k: number) => ({ INPUT_MODE: 'validate', INPUT_SHARD: `${k}/2`, ...appInputs(appKeys.privateKey) });
const MERGE = { INPUT_MODE: 'validate-merge', INPUT_SHARDS: '2', ...appInputs(appKeys.privateKey) };
const checksOn = (sha: string) => github.checkRuns().filter((r) => r.head_sha === sha);
const receiptIn = (dir: string, name: string): Receipt => JSON.parse(readFileSync(join(dir, name, 'receipt.json'), 'utf8')) as Receipt;

/** The runs: the fix's (6001) and the regressing candidate's (6002), each two shard jobs and a merge. */
let fixRun: ArtifactServer;
let regRun: ArtifactServer;
let fixShards: Job[];
let fixMerge: Job;
let regShards: Job[];
let regMerge: Job;
/** Every artifact of each run, downloaded as any job of the run can. */
let fixDl: string;
let regDl: string;

describeDocker('validate shards and validate-merge end to end', () => {
  beforeAll(async () => {
    if (gate.mode === 'fail') throw new Error(gate.reason);
    packDigest = (await digestWitnessFolder(JS_PACK)).digest;
    bundle = ensureActionBundle();
    repos = makeRepos();
    github = await startGitHubServer({
      token: TOKEN,
      repository: REPOSITORY,
      app: { ...APP, publicKey: appKeys.publicKey },
      pulls: [FIX, REGRESSING].map((number) => ({ number, headSha: repos.heads[number] as string, baseSha: repos.base, headRepository: 'contributor/hello-world' }))
    });
    fixRun = await startArtifactServer({ repository: REPOSITORY, runId: 6001, firstArtifactId: 8001 });
    regRun = await startArtifactServer({ repository: REPOSITORY, runId: 6002, firstArtifactId: 8101 });
    servers.push(fixRun, regRun);
    // The matrix jobs of a run go at once; the two runs one after the other (the machine has two cores).
    fixShards = await Promise.all([1, 2].map((k) => runJob(fixRun, FIX, shardInputs(k))));
    regShards = await Promise.all([1, 2].map((k) => runJob(regRun, REGRESSING, shardInputs(k))));
    fixMerge = await runJob(fixRun, FIX, MERGE);
    regMerge = await runJob(regRun, REGRESSING, MERGE);
    fixDl = mkdtempSync(join(tmpdir(), 'pp-vshards-fix-'));
    regDl = mkdtempSync(join(tmpdir(), 'pp-vshards-reg-'));
    tmps.push(fixDl, regDl);
    await downloadAll(fixRun, fixDl);
    await downloadAll(regRun, regDl);
  }, 1_800_000);

  afterAll(async () => {
    await mayBeUnset(github)?.close();
    for (const s of servers) await s.close();
    if (mayBeUnset(repos) !== undefined) rmSync(repos.dir, { recursive: true, force: true });
    for (const t of tmps) rmSync(t, { recursive: true, force: true });
    bundle?.dispose();
  });

  test("the fix's two shard jobs upload their tagged shard receipts, report uploaded (never passed) and post no check", () => {
    for (const [i, job] of fixShards.entries()) {
      expectExit(job, 0);
      expect(job.outputs['verdict']).toBe('uploaded');
      expect(job.outputs['proof-grade']).toBe('false');
      expect(job.run.stdout).toContain(`shard ${i + 1}/2:`);
    }
    // The shares partition the whole suite (the base checkout's pack folder holds test files too).
    const [one, two] = [receiptIn(fixDl, SHARD1), receiptIn(fixDl, SHARD2)];
    expect(one.inventory.suite_files.base).toEqual(expect.arrayContaining(['test/duration.test.js', 'test/timeouts.test.js']));
    expect(two.inventory.suite_files.base).toEqual(expect.arrayContaining(['test/format.test.js']));
    expect([...one.inventory.suite_files.base, ...two.inventory.suite_files.base].sort()).toEqual([...(one.shard?.suite_files.base ?? [])].sort());
    expect(one.inventory.suite_files.base.filter((f) => two.inventory.suite_files.base.includes(f))).toEqual([]);
    expect([one.shard, two.shard]).toEqual([expect.objectContaining({ index: 1, count: 2 }), expect.objectContaining({ index: 2, count: 2 })]);
    for (const name of [SHARD1, SHARD2]) expect(readFileSync(join(fixDl, name, SHARD_TAG_FILE), 'utf8')).toContain(name);
  });

  test('the merge job posts one success check run on the head with the merged pass; the merged receipt verifies', () => {
    expectExit(fixMerge, 0);
    expect(fixMerge.outputs['verdict']).toBe('passed');
    expect(fixMerge.outputs['proof-grade']).toBe('true');
    const checks = checksOn(repos.heads[FIX] as string);
    expect(checks.map((c) => c.conclusion)).toEqual(['success']);
    expect(checks[0]?.output.title).toBe('PatchProof: PASSED — 2 shards merged');
    // Posted by the app: the check no pull request's own job can make.
    expect(checks[0]?.app.slug).toBe('patchproof-test-app');
    expect(fixMerge.summary).toContain('2 shards merged');
    expect(
      fixRun
        .artifacts()
        .map((a) => a.name)
        .sort()
    ).toEqual(['patchproof-validate-merged', SHARD1, SHARD2]);
    // The uploaded merged receipt verifies from its own shard receipts, and is the one the step names.
    const merged = join(fixDl, 'patchproof-validate-merged');
    const check = verifyMergedText(readFileSync(join(merged, 'merged.json'), 'utf8'), (rel) => readBound(merged, rel));
    expect(check).toMatchObject({ integrity_valid: true, verdict: 'passed', proof_grade: true, errors: [] });
    expect(fixMerge.outputs['receipt-digest']).toBe(check.merged_digest);
    expect(github.invalidRequests()).toEqual([]);
    expect(github.invalidResponses()).toEqual([]);
  });

  test('a regressing candidate whose regression is in shard 1: shard 2 alone passes, the merge is failed', () => {
    for (const job of regShards) {
      expectExit(job, 0);
      expect(job.outputs['verdict']).toBe('uploaded');
    }
    expect([receiptIn(regDl, SHARD1).verdict, receiptIn(regDl, SHARD2).verdict]).toEqual(['failed', 'passed']);
    expect(receiptIn(regDl, SHARD1).reasons).toContain('regression');
    expectExit(regMerge, 1);
    expect(regMerge.outputs['verdict']).toBe('failed');
    const checks = checksOn(repos.heads[REGRESSING] as string);
    expect(checks.map((c) => c.conclusion)).toEqual(['failure']);
    expect(checks[0]?.output.title).toBe('PatchProof: FAILED — 2 shards merged');
    expect(checks[0]?.output.summary).toContain('regression');
  });

  test('nothing a job prints or keeps with the run holds the shard key: no output, no log line, no summary', () => {
    // Before issue 27 the key was a plan job's output passed as with: screen-run-key, and the runner
    // prints every with: input in the step's log. Now each job derives it from the app's private key.
    const key = runKey(appKeys.privateKey, 6001);
    for (const job of [...fixShards, fixMerge]) {
      const kept = [job.run.stdout, job.run.stderr, job.summary, JSON.stringify(job.outputs)].join('\n');
      expect(kept).not.toContain(key);
      expect(kept).not.toContain(appKeys.privateKey.split('\n')[1]);
    }
  });

  test('attack: a shard re-sealed as a pass and tagged without the run key is refused (failed, failing check)', async () => {
    // The forgery: the fix's passing shard 1, rebound to the regressing candidate's bindings and
    // re-sealed (the seal is self-consistent), uploaded beside the genuine shard 2, tagged by a forger
    // with a key of its own app (it can read everything the run printed, but not the repository app's
    // private key). Without the tag check (a merge whose app key is the forger's, below) it gets
    // through: the regressing candidate gets a success check.
    const dir = mkdtempSync(join(tmpdir(), 'pp-vshards-forge-'));
    tmps.push(dir);
    cpSync(join(regDl, SHARD1), join(dir, SHARD1), { recursive: true });
    cpSync(join(regDl, SHARD2), join(dir, SHARD2), { recursive: true });
    const genuine = receiptIn(regDl, SHARD1);
    const pass = receiptIn(fixDl, SHARD1);
    const { receipt_digest: _drop, ...body } = { ...pass, bindings: genuine.bindings };
    const forged = serializeReceipt(sealReceipt(body));
    expect(verifyReceiptText(forged).errors).toEqual([]);
    writeFileSync(join(dir, SHARD1, 'receipt.json'), forged);
    const forgerKey = runKey(forgerKeys.privateKey, 6002);
    retag(join(dir, SHARD1), SHARD1, forgerKey);
    retag(join(dir, SHARD2), SHARD2, forgerKey);
    // The same run id as the regressing run: the approval the merge computes is the one they bind.
    const forgedRun = await runHolding(6002, 9001, { [SHARD1]: join(dir, SHARD1), [SHARD2]: join(dir, SHARD2) });
    const head = repos.heads[REGRESSING] as string;
    const before = checksOn(head).length;
    const refused = await runJob(forgedRun, REGRESSING, MERGE);
    expectExit(refused, 1);
    expect(refused.outputs['verdict']).toBe('failed');
    expect(refused.run.stdout).toContain("its tag was not made with this run's key");
    expect(
      checksOn(head)
        .slice(before)
        .map((c) => c.conclusion)
    ).toEqual(['failure']);
    // Without the defence: a merge holding the forger's key (its app installed on a repository of the
    // same name, a GitHub of its own) accepts the same artifacts and passes the regressing candidate.
    const forgersGitHub = await startGitHubServer({
      token: TOKEN,
      repository: REPOSITORY,
      app: { ...APP, publicKey: forgerKeys.publicKey },
      pulls: [{ number: REGRESSING, headSha: head, baseSha: repos.base, headRepository: 'contributor/hello-world' }]
    });
    try {
      const fooled = await runJob(forgedRun, REGRESSING, { ...MERGE, ...appInputs(forgerKeys.privateKey) }, { GITHUB_API_URL: forgersGitHub.url });
      expectExit(fooled, 0);
      expect(fooled.outputs['verdict']).toBe('passed');
      expect(forgersGitHub.checkRuns().map((c) => [c.head_sha, c.conclusion])).toEqual([[head, 'success']]);
    } finally {
      await forgersGitHub.close();
    }
  }, 600_000);

  test("attack: a complete shard set of another proposal, with valid tags, is refused: the merge computes the pull request's proposal itself", async () => {
    // The fix's two genuine shards, tagged with this run's key, uploaded as the shards of a run for
    // the regressing pull request (as a job of the run holding the key could, or a shard job that
    // validated an earlier head). Every receipt verifies, every tag verifies, and the set is one
    // validation: without the merge job's own proposal (mergeShardReceipts without `expected`,
    // below) it is a merged pass, and the regressing candidate would get a success check.
    const set = mkdtempSync(join(tmpdir(), 'pp-vshards-other-'));
    tmps.push(set);
    for (const name of [SHARD1, SHARD2]) {
      cpSync(join(fixDl, name), join(set, name), { recursive: true });
      retag(join(set, name), name, runKey(appKeys.privateKey, 6002));
    }
    const run = await runHolding(6002, 9101, { [SHARD1]: join(set, SHARD1), [SHARD2]: join(set, SHARD2) });
    const texts = [SHARD1, SHARD2].map((name) => ({ label: name, text: readFileSync(join(fixDl, name, 'receipt.json'), 'utf8') }));
    expect(mergeShardReceipts(texts, TOOL_VERSION).body.verdict).toBe('passed');
    const head = repos.heads[REGRESSING] as string;
    const before = checksOn(head).length;
    const refused = await runJob(run, REGRESSING, MERGE);
    expectExit(refused, 1);
    expect(refused.outputs['verdict']).toBe('failed');
    expect(refused.run.stdout).toContain("the shard receipts are not of this pull request's candidate");
    expect(refused.run.stdout).toContain('binds another proposal_hash');
    expect(
      checksOn(head)
        .slice(before)
        .map((c) => c.conclusion)
    ).toEqual(['failure']);
  }, 600_000);

  test('attack: only the passing shard 2 of the regressing candidate is present: never a pass (inconclusive, no check)', async () => {
    // Shard 1 (where the regression is) did not upload. Without the merge's demand for shards 1..N
    // (its missing-shard check, and shardSetErrors behind it), shard 2 alone is a pass (below).
    expect(mergedOutcome([receiptIn(regDl, SHARD2)]).verdict).toBe('passed');
    const run = await runHolding(6002, 9201, { [SHARD2]: join(regDl, SHARD2) });
    const head = repos.heads[REGRESSING] as string;
    const before = checksOn(head).length;
    const job = await runJob(run, REGRESSING, MERGE);
    expectExit(job, 1);
    expect(job.outputs['verdict']).toBe('inconclusive');
    expect(job.outputs['proof-grade']).toBe('false');
    expect(job.run.stdout).toContain(`the shard artifact(s) ${SHARD1} of this run are missing`);
    expect(job.summary.replace(/\\(.)/g, '$1')).toContain(SHARD1);
    expect(checksOn(head).length).toBe(before);
  }, 600_000);

  test("the merge job refuses an approved-proposal-hash that is not the pull request's (failed, failing check)", async () => {
    const head = repos.heads[FIX] as string;
    const before = checksOn(head).length;
    const job = await runJob(fixRun, FIX, { ...MERGE, 'INPUT_APPROVED-PROPOSAL-HASH': 'f'.repeat(64) });
    expectExit(job, 1);
    expect(job.outputs['verdict']).toBe('failed');
    expect(job.run.stdout).toContain('refused (approval_mismatch)');
    expect(
      checksOn(head)
        .slice(before)
        .map((c) => [c.conclusion, c.output.title])
    ).toEqual([['failure', 'PatchProof: REFUSED — approval_mismatch']]);
  }, 300_000);

  test('a merged pass in a workflow the pull request controls (pull_request) is posted as failure: untrusted_workflow', async () => {
    const head = repos.heads[FIX] as string;
    const before = checksOn(head).length;
    const job = await runJob(fixRun, FIX, MERGE, {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_WORKFLOW_REF: `${REPOSITORY}/.github/workflows/patchproof-gate.yml@refs/pull/${FIX}/merge`,
      GITHUB_REF: `refs/pull/${FIX}/merge`
    });
    expectExit(job, 1);
    expect(job.outputs['verdict']).toBe('failed');
    expect(job.outputs['proof-grade']).toBe('false');
    expect(
      checksOn(head)
        .slice(before)
        .map((c) => [c.conclusion, c.output.title])
    ).toEqual([['failure', 'PatchProof: FAILED — untrusted_workflow']]);
  }, 300_000);
});
