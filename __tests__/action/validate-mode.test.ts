import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createGitSource } from '../../src/fetch/git.js';
import type { ModeResult } from '../../src/action/mode.js';
import { ChecksPermissionError, type CheckRunTarget, type ChecksClient, type ReceiptArtifacts, type RenderedCheck, type StepOutcome } from '../../src/publish/ports.js';
import { readActionSettings, type ActionSettings } from '../../src/inputs/action-settings.js';
import { validateMode, type ValidateModeDeps } from '../../src/action/validate-mode.js';
import { verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { InfrastructureError } from '../../src/errors.js';
import { deriveShardKey } from '../../src/core/shard-tag.js';
import { createHash } from 'node:crypto';
import type { ClaimArtifactRequest, ClaimArtifacts } from '../../src/publish/claim-artifact.js';
import { createHeadChecksReader, type HeadChecksReader } from '../../src/action/head-checks.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import { createLocalRunner } from '../../src/runners/local-runner.js';
import { packWitness } from '../../src/fetch/witness/archive.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { JS_DURATION, JS_PACK, PACK_PATH, PULL_NUMBER, makePullRequest, type HeadChange, type PullRequestRepos } from './data/validate-repos.js';

/**
 * validateMode in process, against real git repositories and the trusted-local runner, with
 * recording fakes for the step outcome, the Checks API and the artifact store (typed against the
 * ports). The bundled action against the loopback servers is validate-e2e.test.ts.
 */

interface Recorded {
  outcome: StepOutcome;
  infos: string[];
  warnings: string[];
  summaries: string[];
}

function recordingOutcome(): Recorded {
  const infos: string[] = [];
  const warnings: string[] = [];
  const summaries: string[] = [];
  const outcome: StepOutcome = {
    setOutput: () => {
      throw new Error('validate mode must not set outputs: only run() does');
    },
    setFailed: () => {
      throw new Error('validate mode must not fail the step: only run() does');
    },
    summary: (markdown) => {
      summaries.push(markdown);
      return Promise.resolve();
    },
    info: (message) => infos.push(message),
    warning: (message) => warnings.push(message)
  };
  return { outcome, infos, warnings, summaries };
}

interface Published {
  target: CheckRunTarget;
  conclusion: 'success' | 'failure' | 'neutral';
  check: RenderedCheck;
}

type ChecksBehaviour = 'ok' | 'forbidden' | 'broken';

function fakeChecks(behaviour: ChecksBehaviour, published: Published[]): ChecksClient {
  return {
    publish(target, conclusion, check) {
      if (behaviour === 'forbidden')
        return Promise.reject(
          new ChecksPermissionError('cannot create check run (403): the token is read-only, as on a pull request from a fork. Publish it from a workflow_run workflow.')
        );
      if (behaviour === 'broken') return Promise.reject(new InfrastructureError('the Checks API answered 502'));
      published.push({ target, conclusion, check });
      return Promise.resolve(1001 + published.length);
    }
  };
}

interface Uploaded {
  receipt: Receipt;
  receiptText: string;
  reportText: string;
}

function fakeArtifacts(uploads: Uploaded[], broken = false): ReceiptArtifacts {
  return {
    async upload(receipt, files) {
      if (broken) throw new InfrastructureError('the artifact service is down');
      uploads.push({ receipt, receiptText: await readFile(files.receipt, 'utf8'), reportText: await readFile(files.report, 'utf8') });
      return { id: 77, name: `patchproof-receipt-${receipt.receipt_digest.slice(7)}` };
    },
    download() {
      return Promise.reject(new Error('not used by validate mode'));
    }
  };
}

interface Scenario {
  change: HeadChange;
  inputs?: Record<string, string>;
  checks?: ChecksBehaviour;
  brokenArtifacts?: boolean;
  fork?: boolean;
  createRunner?: ValidateModeDeps['createRunner'];
  /** The workspace's .git removed: no checkout. */
  workspaceWithoutGit?: boolean;
  /** Default pull_request_target. */
  eventName?: string;
  /** The agent's claim, written under RUNNER_TEMP and named by the input `claimed`. */
  claim?: string;
  /** Ports to replace (claim artifacts, the head-checks reader). */
  deps?: Partial<ValidateModeDeps>;
}

interface Outcome extends Recorded {
  result: ModeResult;
  published: Published[];
  uploads: Uploaded[];
  repos: PullRequestRepos;
  runnerTemp: string;
}

const cleanup: string[] = [];
let packDigest: string;

beforeAll(async () => {
  packDigest = (await digestWitnessFolder(JS_PACK)).digest;
});
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

const nothingRuns = (): Promise<never> => Promise.reject(new Error('nothing may run for a refused candidate'));

const fix: HeadChange = { kind: 'diff', file: join(JS_DURATION, 'candidates', 'fix.diff') };

async function runScenario(scenario: Scenario): Promise<Outcome> {
  const repos = makePullRequest(scenario.change);
  cleanup.push(repos.dir);
  if (scenario.workspaceWithoutGit) rmSync(join(repos.workspace, '.git'), { recursive: true, force: true });
  const runnerTemp = mkdtempSync(join(tmpdir(), 'pp-validate-temp-'));
  cleanup.push(runnerTemp);
  const eventPath = join(repos.dir, 'event.json');
  const repository = 'octo-org/hello-world';
  writeFileSync(
    eventPath,
    JSON.stringify({
      action: 'synchronize',
      number: PULL_NUMBER,
      pull_request: {
        number: PULL_NUMBER,
        base: { sha: repos.base, ref: 'main', repo: { full_name: repository } },
        head: { sha: repos.head, ref: 'fix-ms', repo: { full_name: scenario.fork ? 'contributor/hello-world' : repository } }
      },
      repository: { full_name: repository, default_branch: 'main' }
    })
  );
  const inputs: Record<string, string> = {
    mode: 'validate',
    runner: 'local',
    'github-token': 'ghs_test',
    'check-name': 'PatchProof',
    'repository-path': '.',
    'witness-pack': PACK_PATH,
    'witness-digest': packDigest,
    ...(scenario.claim !== undefined ? { claimed: join(runnerTemp, 'claim.xml') } : {}),
    ...scenario.inputs
  };
  if (scenario.claim !== undefined) writeFileSync(join(runnerTemp, 'claim.xml'), scenario.claim);
  const settings: ActionSettings = readActionSettings((name) => inputs[name] ?? '');
  const recorded = recordingOutcome();
  const published: Published[] = [];
  const uploads: Uploaded[] = [];
  const deps: ValidateModeDeps = {
    env: {
      GITHUB_EVENT_NAME: scenario.eventName ?? 'pull_request_target',
      GITHUB_WORKFLOW_REF: `${repository}/.github/workflows/patchproof-gate.yml@refs/heads/main`,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: repository,
      GITHUB_WORKSPACE: repos.workspace,
      RUNNER_TEMP: runnerTemp,
      GITHUB_ACTOR: 'octocat',
      GITHUB_RUN_ID: '4242',
      GITHUB_RUN_ATTEMPT: '2',
      GITHUB_API_URL: 'http://127.0.0.1:9',
      GITHUB_SERVER_URL: 'https://github.com'
    },
    gitSource: createGitSource,
    checksClient: () => fakeChecks(scenario.checks ?? 'ok', published),
    receiptArtifacts: () => fakeArtifacts(uploads, scenario.brokenArtifacts),
    createRunner: scenario.createRunner ?? (() => Promise.resolve(createLocalRunner())),
    nonce: () => randomBytes(16).toString('hex'),
    appToken: () => Promise.reject(new Error('no app configured in these tests')),
    ...scenario.deps
  };
  const result = await validateMode(settings, recorded.outcome, deps);
  return { ...recorded, result, published, uploads, repos, runnerTemp };
}

describe('validateMode: a validation', () => {
  let run: Outcome;
  beforeAll(async () => {
    run = await runScenario({ change: fix });
  });

  it('a local-runner pass of the correct fix posts failure (not proof grade) on the head commit, and the same rendering as the summary', () => {
    expect(run.result).toMatchObject({ verdict: 'failed', proofGrade: false, artifactId: 77 });
    expect(run.result.message).toMatch(/^PatchProof passed; proof grade: no; receipt sha256:[0-9a-f]{64}; posted failure \(not_proof_grade\): .*runner: docker/);
    expect(run.published).toHaveLength(1);
    const [posted] = run.published;
    expect(posted?.target).toEqual({ owner: 'octo-org', repo: 'hello-world', headSha: run.repos.head, name: 'PatchProof' });
    expect(posted?.conclusion).toBe('failure');
    expect(posted?.check.title).toBe('PatchProof: FAILED — not_proof_grade');
    expect(posted?.check.summary).toMatch(/^\*\*not_proof_grade\*\*: the candidate passed, but not with proof grade/);
    expect(run.summaries).toHaveLength(1);
    expect(run.summaries[0]).toContain(`## ${posted?.check.title}`);
    expect(run.summaries[0]).toContain(posted?.check.summary);
    // The trust decision is stated in the check run and the job summary.
    const trusted =
      "**信任 / Trust: ✅ trusted / 可信** — this pull\\_request\\_target run's workflow file `octo-org/hello-world/.github/workflows/patchproof-gate.yml@refs/heads/main` is out of the pull request's reach, so it may post success.";
    expect(posted?.check.summary).toContain(trusted);
    expect(run.summaries[0]).toContain(trusted);
    expect(run.warnings).toEqual([]);
  });

  it('writes a receipt that verifies, bound to the run and the actor as declared metadata, under RUNNER_TEMP', () => {
    const path = run.result.receiptPath as string;
    expect(path).toBe(join(run.runnerTemp, `patchproof-${(run.result.receiptDigest as string).slice(7)}`, 'receipt.json'));
    const text = readFileSync(path, 'utf8');
    const check = verifyReceiptText(text);
    expect(check).toMatchObject({ integrity_valid: true, verdict: 'passed', receipt_digest: run.result.receiptDigest });
    const receipt = JSON.parse(text) as Receipt;
    expect(receipt.run_id).toBe('4242-2');
    expect(receipt.bindings.approved_by).toBe('github-actions:octocat');
    expect(receipt.bindings.witness_digest).toBe(packDigest);
    expect(receipt.witness.source).toEqual({ kind: 'dir', location: PACK_PATH });
    expect(receipt.repository.unchanged).toBe(true);
    expect(existsSync(join(path, '..', 'report.md'))).toBe(true);
    expect(run.uploads).toHaveLength(1);
    expect(run.uploads[0]?.receiptText).toBe(text);
    // Only the receipt folder is left in RUNNER_TEMP: the base tree and the pack copy are gone.
    expect(readdirSync(run.runnerTemp)).toEqual([`patchproof-${(run.result.receiptDigest as string).slice(7)}`]);
    expect(run.infos.some((line) => /^proposal_hash: [0-9a-f]{64} /.test(line))).toBe(true);
  });
});

describe("validateMode: the agent's claim (input claimed)", () => {
  // As node's junit reporter or a JS runner with file attributes would write it, from the agent's workspace.
  const claim = [
    '<testsuites><testsuite name="agent">',
    '<testcase name="parses a single unit" classname="" file="/home/agent/ws/test/duration.test.js"/>',
    '<testcase name="a test the agent made up" classname="" file="/home/agent/ws/test/duration.test.js"/>',
    '</testsuite></testsuites>'
  ].join('');

  it('is compared in the receipt and shown in the check run, and changes neither verdict nor conclusion', async () => {
    const [withClaim, without] = [await runScenario({ change: fix, claim }), await runScenario({ change: fix })];
    expect({ verdict: withClaim.result.verdict, proof: withClaim.result.proofGrade, conclusion: withClaim.published[0]?.conclusion }).toEqual({
      verdict: without.result.verdict,
      proof: without.result.proofGrade,
      conclusion: without.published[0]?.conclusion
    });
    const receipt = JSON.parse(readFileSync(withClaim.result.receiptPath as string, 'utf8')) as Receipt;
    expect(receipt.claim).toMatchObject({ format: 'junit', tests: 2, matched: 1, findings: { possible_hidden_state_dependency: 0, claim_unknown_test: 1 } });
    const summary = withClaim.published[0]?.check.summary ?? '';
    expect(summary).toContain("## 代理声明对照 / The agent's claim against the clean room");
    expect(summary).toContain('| `test/duration.test.js > parses a single unit` | passed | passed | — |');
    expect(summary).toMatch(/\| `[^`]*a test the agent made up` \| passed \| absent \| claim_unknown_test \|/);
  });

  it('refuses a claim path outside the workspace and RUNNER_TEMP, before anything runs', async () => {
    const outside = await runScenario({ change: fix, inputs: { claimed: '/etc/hostname' }, createRunner: nothingRuns });
    expect(outside.result.verdict).toBe('failed');
    expect(outside.published[0]?.check.summary).toMatch(/claimed .*leaves the workspace/);
  });
});

describe("validateMode: the claim as an artifact of the pull request's CI (claimed-artifact), and the head commit's other checks (head-checks)", () => {
  const claim = '<testsuites><testsuite name="agent"><testcase name="parses a single unit" classname="" file="/home/agent/ws/test/duration.test.js"/></testsuite></testsuites>';
  const notFixed: HeadChange = { kind: 'diff', file: join(JS_DURATION, 'candidates', 'not-fixed.diff') };
  let github: GitHubServer;
  beforeAll(async () => {
    github = await startGitHubServer({ token: 'ghs_test' });
  });
  afterAll(() => github.close());
  afterEach(() => {
    expect(github.invalidRequests()).toEqual([]);
    expect(github.invalidResponses()).toEqual([]);
  });

  it("fetches the claim for the pull request's head, reads the named file, and changes neither verdict nor conclusion", async () => {
    const asked: ClaimArtifactRequest[] = [];
    const claimArtifacts = (): ClaimArtifacts => ({
      fetch: (request) => {
        asked.push(request);
        return Promise.resolve({
          bytes: Buffer.from(claim),
          label: `claimed-artifact '${request.name}' (id 7001) of run 4300, "reports/junit.xml"`,
          runId: 4300,
          artifactId: 7001
        });
      }
    });
    const inputs = { 'claimed-artifact': 'agent-junit', claimed: 'reports/junit.xml' };
    const [withClaim, without] = [await runScenario({ change: fix, inputs, deps: { claimArtifacts } }), await runScenario({ change: fix })];
    expect(asked).toEqual([{ name: 'agent-junit', headSha: withClaim.repos.head, path: 'reports/junit.xml' }]);
    expect({ verdict: withClaim.result.verdict, conclusion: withClaim.published[0]?.conclusion }).toEqual({
      verdict: without.result.verdict,
      conclusion: without.published[0]?.conclusion
    });
    const receipt = JSON.parse(readFileSync(withClaim.result.receiptPath as string, 'utf8')) as Receipt;
    expect(receipt.claim).toMatchObject({ format: 'junit', tests: 1, matched: 1, digest: `sha256:${createHash('sha256').update(claim).digest('hex')}` });
    expect(withClaim.infos).toContainEqual(expect.stringMatching(/^claim: claimed-artifact 'agent-junit' \(id 7001\) of run 4300, "reports\/junit.xml", 1 tests, sha256:/));
  });

  it('refuses, before anything runs, a claim artifact that is not a claim', async () => {
    const claimArtifacts = (): ClaimArtifacts => ({
      fetch: (request) => Promise.resolve({ bytes: Buffer.from('PK not a claim'), label: `claimed-artifact '${request.name}' (id 1) of run 2`, runId: 2, artifactId: 1 })
    });
    const run = await runScenario({ change: fix, inputs: { 'claimed-artifact': 'agent-junit' }, deps: { claimArtifacts }, createRunner: nothingRuns });
    expect(run.result.verdict).toBe('failed');
    expect(run.result.message).toMatch(/^refused \(bad_input\): claimed-artifact 'agent-junit' \(id 1\) of run 2 is not a claim PatchProof reads: /);
  });

  it("shows what the agent's CI said beside a failing clean room, leaves PatchProof's own run out, and changes nothing else", async () => {
    // The agent's CI passed on the head, and an earlier PatchProof run failed it: both posted before this read.
    const headChecks = (token: string): HeadChecksReader => ({
      read: async (target, own) => {
        github.addCheckRun({ name: 'test', headSha: target.sha, app: { id: 15368, slug: 'github-actions' } });
        github.addCheckRun({ name: 'PatchProof', headSha: target.sha, conclusion: 'failure', app: { id: 15368, slug: 'github-actions' } });
        return createHeadChecksReader(token, github.url).read(target, own);
      }
    });
    const again = await runScenario({ change: notFixed, inputs: { 'head-checks': 'true' }, deps: { headChecks } });
    const without = await runScenario({ change: notFixed });
    const summary = again.published[0]?.check.summary ?? '';
    expect(summary).toContain("### 智能体 CI 的声明 / What the agent's CI said on this commit");
    expect(summary).toContain('CI: **success** · 干净环境 / clean room: **failed** · **ci_success_clean_room_failed**');
    expect(summary).toContain('| test | github\\-actions | success |');
    expect(summary).not.toMatch(/\| PatchProof \|/);
    expect(again.infos).toContainEqual(expect.stringMatching(/^the agent's CI on [0-9a-f]{40}: success \(1 check runs and statuses\); ci_success_clean_room_failed$/));
    expect({ verdict: again.result.verdict, proof: again.result.proofGrade, conclusion: again.published[0]?.conclusion, reasons: again.uploads[0]?.receipt.reasons }).toEqual({
      verdict: without.result.verdict,
      proof: without.result.proofGrade,
      conclusion: without.published[0]?.conclusion,
      reasons: without.uploads[0]?.receipt.reasons
    });
    // Nothing of the CI's claim is in the receipt.
    expect(again.uploads[0]?.receiptText).not.toContain('ci_success_clean_room_failed');
  });

  it('a head-checks read that fails is a warning and a line in the check run, never a changed outcome', async () => {
    const headChecks = (): HeadChecksReader => createHeadChecksReader('ghs_wrong', github.url);
    const run = await runScenario({ change: fix, inputs: { 'head-checks': 'true' }, deps: { headChecks } });
    expect(run.result.verdict).toBe('failed');
    expect(run.result.message).toMatch(/posted failure \(not_proof_grade\)/);
    expect(run.warnings).toContainEqual(expect.stringMatching(/^head-checks: could not read the check runs of [0-9a-f]{40} \(HTTP 401\)/));
    expect(run.published[0]?.check.summary).toContain('未能读取 / could not be read');
  });
});

describe('validateMode: refusals publish a failed check run and return failed', () => {
  it('refuses a candidate that adds a symbolic link, before anything runs', async () => {
    const run = await runScenario({ change: { kind: 'symlink', path: 'src/link.js', target: 'duration.js' }, createRunner: nothingRuns });
    expect(run.result).toMatchObject({ verdict: 'failed', proofGrade: false });
    expect(run.result.message).toMatch(/^refused \(policy_violation\): /);
    expect(run.published.map((p) => [p.conclusion, p.check.title])).toEqual([['failure', 'PatchProof: REFUSED — policy_violation']]);
    expect(run.summaries[0]).toContain('REFUSED');
    expect(readdirSync(run.runnerTemp)).toEqual([]);
  });

  it('refuses a wrong witness digest', async () => {
    const run = await runScenario({ change: fix, inputs: { 'witness-digest': `sha256:${'0'.repeat(64)}` } });
    expect(run.result.message).toMatch(/^refused \(witness_digest_mismatch\): witness pack digest is sha256:/);
    expect(run.published[0]?.check.title).toBe('PatchProof: REFUSED — witness_digest_mismatch');
  });

  it('reads a ref: pack from a trusted branch, and refuses when the approved proposal hash is another', async () => {
    const run = await runScenario({
      change: fix,
      inputs: { 'witness-pack': `ref:refs/heads/main:${PACK_PATH}`, 'approved-proposal-hash': 'a'.repeat(64) },
      createRunner: nothingRuns
    });
    expect(run.result.message).toMatch(/^refused \(approval_mismatch\): approved-proposal-hash a{64} is not this pull request's proposal hash [0-9a-f]{64}/);
    expect(run.published[0]?.conclusion).toBe('failure');
  });

  it('downloads a URL pack (a reproducible .tar.gz on a loopback server), verified by digest', async () => {
    const archive = await packWitness(JS_PACK);
    const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/gzip' }).end(archive));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const toolCache = mkdtempSync(join(tmpdir(), 'pp-validate-toolcache-'));
    cleanup.push(toolCache);
    const previous = process.env['RUNNER_TOOL_CACHE'];
    process.env['RUNNER_TOOL_CACHE'] = toolCache;
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/js-duration.tar.gz`;
      // A hash that is not this proposal's stops the run right after the pack was resolved.
      const run = await runScenario({ change: fix, inputs: { 'witness-pack': url, 'approved-proposal-hash': 'b'.repeat(64) }, createRunner: nothingRuns });
      expect(run.result.message).toMatch(/^refused \(approval_mismatch\): /);
    } finally {
      if (previous === undefined) delete process.env['RUNNER_TOOL_CACHE'];
      else process.env['RUNNER_TOOL_CACHE'] = previous;
      await new Promise((done) => server.close(done));
    }
  });

  it('refuses a ref: pack on a branch that is not the default branch, before anything runs', async () => {
    const run = await runScenario({ change: fix, inputs: { 'witness-pack': `ref:refs/heads/fix-ms:${PACK_PATH}` }, createRunner: nothingRuns });
    expect(run.result.message).toBe(
      `refused (bad_input): witness-pack ref 'refs/heads/fix-ms' is not the default branch or a tag, so whoever can push it chooses the grader; use ref:refs/heads/main:PATH or ref:refs/tags/<tag>:PATH`
    );
    expect(run.published.map((p) => p.conclusion)).toEqual(['failure']);
    const short = await runScenario({ change: fix, inputs: { 'witness-pack': `ref:main:${PACK_PATH}` }, createRunner: nothingRuns });
    expect(short.result.message).toMatch(/^refused \(bad_input\): witness-pack ref 'main' is not the default branch or a tag/);
  });

  it('a pull_request run (the PR controls the workflow) warns that it will not post success', async () => {
    const run = await runScenario({ change: fix, eventName: 'pull_request', inputs: { 'approved-proposal-hash': 'c'.repeat(64) }, createRunner: nothingRuns });
    expect(run.warnings).toEqual([
      expect.stringMatching(
        /^PatchProof will not post success from this run: on pull_request GitHub runs the workflow files of the pull request's merge commit.*pull_request_target/
      )
    ]);
    expect(run.published.map((p) => p.conclusion)).toEqual(['failure']);
    // The refusal's check run and the job summary say the run is untrusted, and why.
    for (const markdown of [run.published[0]?.check.summary ?? '', run.summaries[0] ?? '']) {
      expect(markdown).toMatch(/^\*\*信任 \/ Trust: ❌ untrusted \/ 不可信\*\* — a pass is posted as failure: on pull\\_request GitHub runs the workflow files/m);
    }
  });

  it('refuses a ref: pack from the pull request itself', async () => {
    const byRef = await runScenario({ change: fix, inputs: { 'witness-pack': `ref:refs/pull/${PULL_NUMBER}/head:${PACK_PATH}` } });
    expect(byRef.result.message).toMatch(/^refused \(bad_input\): witness-pack ref 'refs\/pull\/7\/head' belongs to a pull request/);
    const byCommit = await runScenario({ change: fix, inputs: { 'witness-pack': `ref:${'0'.repeat(40)}:x` } });
    expect(byCommit.result.verdict).toBe('failed');
  });

  it('refuses a repository-path outside the workspace, or one that is not a checkout', async () => {
    const run = await runScenario({ change: fix, inputs: { 'repository-path': '../elsewhere' } });
    expect(run.result.message).toBe("refused (bad_input): repository-path '../elsewhere' leaves the workspace; give a path inside GITHUB_WORKSPACE");
    const notCheckedOut = await runScenario({ change: fix, inputs: { 'repository-path': 'src' }, workspaceWithoutGit: true });
    expect(notCheckedOut.result.message).toMatch(/^refused \(bad_input\): '.*' is not a git checkout .*actions\/checkout/);
  });
});

describe('validateMode: publishing', () => {
  it('a read-only token (fork) is a warning: the summary and the artifact still carry the result', async () => {
    const run = await runScenario({ change: fix, checks: 'forbidden', fork: true });
    expect(run.result.verdict).toBe('failed');
    expect(run.published).toEqual([]);
    expect(run.uploads).toHaveLength(1);
    expect(run.summaries).toHaveLength(1);
    expect(run.warnings).toEqual([
      expect.stringMatching(/^PatchProof could not post the check run: cannot create check run \(403\).* This run's receipt artifact is patchproof-receipt-[0-9a-f]{64}\.$/)
    ]);
  });

  it('an artifact upload failure is a warning; a check run that cannot be posted makes the result inconclusive', async () => {
    const run = await runScenario({ change: fix, checks: 'broken', brokenArtifacts: true });
    expect(run.warnings).toEqual([expect.stringMatching(/^the receipt artifact could not be uploaded \(the artifact service is down\); the receipt is at /)]);
    expect(run.result).toMatchObject({ verdict: 'inconclusive', receiptDigest: expect.stringMatching(/^sha256:/) });
    expect(run.result.artifactId).toBeUndefined();
    expect(run.result.message).toMatch(/^PatchProof passed; .* but the check run could not be posted: the Checks API answered 502$/);
  });

  it('an infrastructure fault is inconclusive, never a pass', async () => {
    const run = await runScenario({
      change: fix,
      createRunner: () => Promise.reject(new InfrastructureError('docker engine not answering'))
    });
    expect(run.result).toEqual({ verdict: 'inconclusive', proofGrade: false, message: 'infrastructure error, nothing was judged: docker engine not answering' });
    expect(run.published).toEqual([]);
    expect(run.summaries).toEqual([expect.stringContaining('INCONCLUSIVE')]);
  });
});

describe('validateMode with shard K/N (a job of patchproof-validate-shards.yml)', () => {
  const PEM = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  // The job derives the run's shard key from the app's private key and the run (GITHUB_REPOSITORY, RUN_ID 4242, attempt 2).
  const KEY = deriveShardKey(PEM, { repository: 'octo-org/hello-world', runId: '4242', runAttempt: '2' });
  const shardInputs = { shard: '1/2', 'app-id': '123', 'app-private-key': PEM };
  const recordingShards = (uploaded: { name: string; files: string[]; key: string }[], broken = false) => ({
    shardArtifacts: () => ({
      upload: (name: string, dir: string, key: string) => {
        if (broken) return Promise.reject(new InfrastructureError('the artifact service is down'));
        uploaded.push({ name, files: readdirSync(dir).sort(), key });
        return Promise.resolve(91);
      },
      download: () => Promise.reject(new Error('a shard job downloads nothing'))
    })
  });

  it("uploads its receipt as patchproof-validate-shard-1-of-2 tagged with the key derived from the app's private key and this run, posts no check, and reports uploaded (never passed)", async () => {
    const uploaded: { name: string; files: string[]; key: string }[] = [];
    const run = await runScenario({ change: fix, inputs: shardInputs, deps: recordingShards(uploaded) });
    expect(run.result).toMatchObject({ verdict: 'uploaded', proofGrade: false, artifactId: 91 });
    expect(run.result.message).toMatch(
      /^shard 1\/2: this share passed; receipt sha256:[0-9a-f]{64} uploaded as patchproof-validate-shard-1-of-2 \(id 91\); only the merge job judges/
    );
    expect(uploaded).toEqual([{ name: 'patchproof-validate-shard-1-of-2', files: ['receipt.json', 'report.md'], key: KEY }]);
    expect(run.published).toEqual([]);
    expect(run.uploads).toEqual([]);
    const receipt = JSON.parse(readFileSync(run.result.receiptPath as string, 'utf8')) as Receipt;
    expect(receipt.shard).toMatchObject({ index: 1, count: 2 });
    expect(run.summaries[0]).toContain('never a pass on its own');
  });

  it('a refusal in a shard job posts no check run and uploads nothing (the merge finds the shard missing)', async () => {
    const uploaded: { name: string; files: string[]; key: string }[] = [];
    const run = await runScenario({
      change: { kind: 'symlink', path: 'src/link.js', target: 'duration.js' },
      createRunner: nothingRuns,
      inputs: shardInputs,
      deps: recordingShards(uploaded)
    });
    expect(run.result).toMatchObject({ verdict: 'failed', proofGrade: false });
    expect(run.result.message).toMatch(/^refused \(policy_violation\): .*; nothing was uploaded and no check run was posted$/);
    expect(run.published).toEqual([]);
    expect(uploaded).toEqual([]);
    expect(run.summaries[0]).toContain('REFUSED');
  });

  it('a shard upload that fails is an infrastructure fault: thrown, so the step is inconclusive', async () => {
    await expect(runScenario({ change: fix, inputs: shardInputs, deps: recordingShards([], true) })).rejects.toThrow(/the artifact service is down/);
  });
});
