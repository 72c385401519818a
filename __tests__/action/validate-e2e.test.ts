import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gatePredicateError } from '../../src/receipt/attestation.js';
import { verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { dockerTestGate } from '../../src/runners/docker-available.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import { ensureActionBundle, parseOutputFile, runAction, type ActionRun } from './data/validate-bundle.js';
import { JS_DURATION, JS_PACK, PACK_PATH, PULL_NUMBER, git, makePullRequest, removePullRequest, type HeadChange, type PullRequestRepos } from './data/validate-repos.js';

/**
 * End to end: the bundled action (`node dist/index.js`, as the runner runs it) validates real pull
 * requests — a bare origin, a shallow checkout of the base, the head fetched by id — against the
 * loopback GitHub API (every request checked against GitHub's OpenAPI description) and the loopback
 * artifact service (the real @actions/artifact client). All runs start at once in beforeAll; the
 * tests read what they left behind.
 */

const REPOSITORY = 'octo-org/hello-world';
const TOKEN = 'ghs_test';
const gate = await dockerTestGate();
if (gate.mode === 'skip') console.warn(`validate-e2e: the Docker run is skipped: ${gate.reason}`);

interface Scenario {
  change: HeadChange;
  runner: 'local' | 'docker';
  fork?: boolean;
  digest?: string;
  /** Default pull_request_target, the recommended gate. */
  event?: 'pull_request' | 'pull_request_target';
  /** Default the gate workflow on the default branch. */
  workflowRef?: string;
  /** Extra or replaced inputs. */
  inputs?: Record<string, string>;
  /** The check run is posted with the test GitHub App's installation token. */
  app?: boolean;
  /** A branch of this name is pushed to the origin at the base commit. */
  pushBranch?: string;
}

const APP = { id: 515151, installationId: 8_800_001, installationToken: 'ghs_patchproof_app_installation' };
const appKeys = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const GATE_REF = `${REPOSITORY}/.github/workflows/patchproof-gate.yml@refs/heads/main`;

interface Result {
  repos: PullRequestRepos;
  run: ActionRun;
  outputs: Record<string, string>;
  summary: string;
  github: GitHubServer;
  artifacts: ArtifactServer;
  runnerTemp: string;
  tmp: string;
}

const fix: HeadChange = { kind: 'diff', file: join(JS_DURATION, 'candidates', 'fix.diff') };
const SCENARIOS = {
  passed: { change: fix, runner: 'local' },
  overfit: { change: { kind: 'diff', file: join(JS_DURATION, 'candidates', 'overfit.diff') }, runner: 'local' },
  fork: { change: fix, runner: 'local', fork: true, event: 'pull_request' },
  localPass: { change: fix, runner: 'local', fork: true },
  workflowEdit: { change: { kind: 'files', files: { '.github/CODEOWNERS': '* @contributor\n' } }, runner: 'local' },
  // A branch the agent pushed, holding the base (so not the head): only the protected-ref rule stops it.
  refBranch: { change: fix, runner: 'local', pushBranch: 'agent-pack', inputs: { 'INPUT_WITNESS-PACK': `ref:refs/heads/agent-pack:${PACK_PATH}` } },
  publish: { change: fix, runner: 'local', inputs: { INPUT_MODE: 'publish', 'INPUT_RUN-ID': '4242' } },
  symlink: { change: { kind: 'symlink', path: 'src/alias.js', target: 'duration.js' }, runner: 'local' },
  binary: { change: { kind: 'binary', path: 'src/table.bin', bytes: Buffer.from([0, 1, 2, 0xff, 0, 0x89, 0x50, 0x4e, 0x47]) }, runner: 'local' },
  wrongDigest: { change: fix, runner: 'local', digest: `sha256:${'1'.repeat(64)}` },
  ...(gate.mode === 'skip'
    ? {}
    : {
        docker: { change: fix, runner: 'docker', fork: true, app: true },
        dockerOverfit: { change: { kind: 'diff', file: join(JS_DURATION, 'candidates', 'overfit.diff') }, runner: 'docker', fork: true },
        dockerPullRequest: { change: fix, runner: 'docker', event: 'pull_request' }
      })
} satisfies Record<string, Scenario>;
type Name = keyof typeof SCENARIOS;

const results = new Map<string, Result>();
let bundle: ReturnType<typeof ensureActionBundle> | undefined;
let packDigest: string;

function pullRequestEvent(repos: PullRequestRepos, fork: boolean): object {
  const repo = { full_name: REPOSITORY, name: 'hello-world', owner: { login: 'octo-org' } };
  return {
    action: 'synchronize',
    number: PULL_NUMBER,
    pull_request: {
      number: PULL_NUMBER,
      state: 'open',
      title: 'Parse "250ms" as milliseconds',
      base: { ref: 'main', sha: repos.base, repo },
      head: {
        ref: 'fix-ms',
        sha: repos.head,
        repo: fork ? { full_name: 'contributor/hello-world', name: 'hello-world', owner: { login: 'contributor' } } : repo
      }
    },
    repository: { ...repo, default_branch: 'main' },
    sender: { login: 'contributor' }
  };
}

async function runScenario(name: string, scenario: Scenario): Promise<Result> {
  const repos = makePullRequest(scenario.change);
  if (scenario.pushBranch !== undefined) git(repos.origin, ['update-ref', `refs/heads/${scenario.pushBranch}`, repos.base]);
  const tmp = mkdtempSync(join(tmpdir(), `pp-validate-e2e-${name}-`));
  const runnerTemp = join(tmp, 'runner-temp');
  const scratch = join(tmp, 'scratch');
  mkdirSync(runnerTemp);
  mkdirSync(scratch);
  const artifacts = await startArtifactServer({ repository: REPOSITORY });
  const github = await startGitHubServer({
    token: TOKEN,
    repository: REPOSITORY,
    artifacts,
    // GitHub gives a fork's pull_request run a read-only token; pull_request_target gets the base's.
    readOnlyToken: scenario.fork === true && scenario.event === 'pull_request',
    ...(scenario.app === true ? { app: { ...APP, publicKey: appKeys.publicKey } } : {}),
    pulls: [{ number: PULL_NUMBER, headSha: repos.head, baseSha: repos.base, headRepository: scenario.fork ? 'contributor/hello-world' : REPOSITORY }]
  });
  const eventPath = join(tmp, 'event.json');
  const outputPath = join(tmp, 'output.txt');
  const summaryPath = join(tmp, 'step-summary.md');
  writeFileSync(eventPath, JSON.stringify(pullRequestEvent(repos, scenario.fork === true)));
  writeFileSync(outputPath, '');
  writeFileSync(summaryPath, '');
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? tmp,
    ...(process.env['DOCKER_HOST'] !== undefined ? { DOCKER_HOST: process.env['DOCKER_HOST'] } : {}),
    TMPDIR: scratch,
    ...artifacts.env(),
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_API_URL: github.url,
    GITHUB_EVENT_NAME: scenario.event ?? 'pull_request_target',
    GITHUB_WORKFLOW_REF:
      scenario.workflowRef ?? (scenario.event === 'pull_request' ? `${REPOSITORY}/.github/workflows/patchproof-gate.yml@refs/pull/${PULL_NUMBER}/merge` : GATE_REF),
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: repos.workspace,
    GITHUB_ACTOR: 'contributor',
    GITHUB_SHA: repos.head,
    GITHUB_REF: scenario.event === 'pull_request' ? `refs/pull/${PULL_NUMBER}/merge` : 'refs/heads/main',
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    RUNNER_TEMP: runnerTemp,
    // As the runner passes them: upper case, hyphens kept, defaults from action.yml filled in.
    INPUT_MODE: 'validate',
    INPUT_RUNNER: scenario.runner,
    ...(scenario.runner === 'docker' && gate.mode === 'run' ? { INPUT_IMAGE: gate.imageId } : {}),
    'INPUT_WITNESS-PACK': PACK_PATH,
    'INPUT_WITNESS-DIGEST': scenario.digest ?? packDigest,
    'INPUT_GITHUB-TOKEN': TOKEN,
    'INPUT_CHECK-NAME': 'PatchProof',
    'INPUT_REPOSITORY-PATH': '.',
    INPUT_REPLAY: 'false',
    ...(scenario.app === true ? { 'INPUT_APP-ID': String(APP.id), 'INPUT_APP-PRIVATE-KEY': appKeys.privateKey } : {}),
    ...scenario.inputs
  };
  const run = await runAction((bundle as { path: string }).path, env, repos.workspace);
  return {
    repos,
    run,
    outputs: parseOutputFile(readFileSync(outputPath, 'utf8')),
    summary: readFileSync(summaryPath, 'utf8'),
    github,
    artifacts,
    runnerTemp,
    tmp
  };
}

beforeAll(async () => {
  packDigest = (await digestWitnessFolder(JS_PACK)).digest;
  bundle = ensureActionBundle();
  await Promise.all(
    Object.entries(SCENARIOS).map(async ([name, scenario]) => {
      results.set(name, await runScenario(name, scenario));
    })
  );
}, 600_000);

afterAll(async () => {
  for (const result of results.values()) {
    await Promise.all([result.github.close(), result.artifacts.close()]);
    removePullRequest(result.repos);
    rmSync(result.tmp, { recursive: true, force: true });
  }
  bundle?.dispose();
});

function get(name: Name): Result {
  const result = results.get(name);
  if (result === undefined) throw new Error(`scenario ${name} did not run`);
  return result;
}

/** Check the action's exit code, showing its output when it is not the one expected. */
function expectExit(result: Result, status: number): void {
  if (result.run.status !== status) {
    throw new Error(
      `expected exit ${status}, got ${result.run.status} after ${result.run.durationMs} ms\n--- stdout ---\n${result.run.stdout}\n--- stderr ---\n${result.run.stderr}`
    );
  }
}

/** The receipt in the run's artifact, downloaded with the real client, as another job would. */
async function downloadReceipt(result: Result): Promise<{ text: string; digestMismatch: boolean }> {
  const previous = { ...process.env };
  Object.assign(process.env, result.artifacts.env(), { GITHUB_API_URL: result.github.url });
  // The toolkit's ::debug:: lines would flood the test output.
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = () => true;
  try {
    const { DefaultArtifactClient } = await import('@actions/artifact');
    const client = new DefaultArtifactClient();
    const [stored] = result.artifacts.artifacts();
    const { artifact } = await client.getArtifact(stored?.name ?? '');
    const path = join(result.tmp, 'download');
    const downloaded = await client.downloadArtifact(artifact.id, { path, expectedHash: artifact.digest });
    return { text: readFileSync(join(path, 'receipt.json'), 'utf8'), digestMismatch: downloaded.digestMismatch === true };
  } finally {
    process.stdout.write = write;
    for (const key of Object.keys(process.env)) if (!(key in previous)) Reflect.deleteProperty(process.env, key);
    Object.assign(process.env, previous);
  }
}

describe('validate mode, bundled, against loopback GitHub and artifact services', () => {
  it("every run made only requests GitHub's description allows", () => {
    for (const [name, result] of results) {
      expect([name, result.github.invalidRequests()]).toEqual([name, []]);
      expect([name, result.github.invalidResponses()]).toEqual([name, []]);
      expect([name, result.artifacts.invalidRequests()]).toEqual([name, []]);
    }
  });

  // Deliberate change: a pass without proof grade (runner local) used to post success.
  it('a local-runner pass of the correct fix posts failure (not_proof_grade) on the head commit, every output set', () => {
    const result = get('passed');
    expectExit(result, 1);
    expect(result.run.stdout).toMatch(/^::error::PatchProof passed; proof grade: no; receipt sha256:[0-9a-f]{64}; posted failure \(not_proof_grade\): /m);
    const checks = result.github.checkRuns();
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({
      head_sha: result.repos.head,
      name: 'PatchProof',
      status: 'completed',
      conclusion: 'failure',
      output: { title: 'PatchProof: FAILED — not_proof_grade' }
    });
    expect(result.outputs).toEqual({
      verdict: 'failed',
      'proof-grade': 'false',
      'receipt-digest': expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      'receipt-path': join(result.runnerTemp, `patchproof-${result.outputs['receipt-digest']?.slice(7)}`, 'receipt.json'),
      'artifact-id': String(result.artifacts.artifacts()[0]?.id)
    });
    expect(result.summary).toContain('## PatchProof: FAILED — not_proof_grade');
    expect(result.run.stdout).not.toMatch(/^::warning::/m);
  }, 60_000);

  it('uploads the receipt: the artifact holds receipt.json, and it verifies to the receipt-digest output', async () => {
    const result = get('passed');
    const { text, digestMismatch } = await downloadReceipt(result);
    expect(digestMismatch).toBe(false);
    expect(text).toBe(readFileSync(result.outputs['receipt-path'] as string, 'utf8'));
    expect(verifyReceiptText(text)).toMatchObject({ integrity_valid: true, verdict: 'passed', receipt_digest: result.outputs['receipt-digest'] });
    const receipt = JSON.parse(text) as Receipt;
    expect(receipt.bindings.approved_by).toBe('github-actions:contributor');
    expect(receipt.run_id).toBe('4242-1');
    expect(receipt.witness.source).toEqual({ kind: 'dir', location: PACK_PATH });
    // Nothing of the run is left but the receipt folder; the scratch folders are gone.
    expect(readdirSync(result.runnerTemp)).toEqual([`patchproof-${result.outputs['receipt-digest']?.slice(7)}`]);
    expect(readdirSync(join(result.tmp, 'scratch')).filter((name) => name.startsWith('patchproof-'))).toEqual([]);
  }, 60_000);

  it('fails the overfitting fix: a failure check run that keeps the hidden tests hidden, exit 1 and an ::error:: line', () => {
    const result = get('overfit');
    expectExit(result, 1);
    expect(result.run.stdout).toMatch(/^::error::PatchProof failed \(hidden_failed\); proof grade: no; receipt sha256:[0-9a-f]{64}$/m);
    const [check] = result.github.checkRuns();
    expect(check).toMatchObject({ head_sha: result.repos.head, conclusion: 'failure', output: { title: 'PatchProof: FAILED — hidden_failed' } });
    // The hidden tests' names, lines and messages never reach the public check run.
    expect(check?.annotations).toEqual([]);
    // (The pack kept in this test repository is itself visible, and its files show up as the
    // base suite's import errors; what must never show is the hidden run's tests.)
    expect(JSON.stringify(check?.output)).not.toMatch(/milliseconds combined with larger units|decimal minutes followed by milliseconds|\.patchproof\/hidden/);
    expect(JSON.stringify(check?.output)).toContain('hidden test 1');
    expect(result.outputs).toMatchObject({ verdict: 'failed', 'proof-grade': 'false', 'receipt-digest': expect.stringMatching(/^sha256:/) });
    expect(result.summary).toContain('## PatchProof: FAILED — hidden_failed');
  });

  it('a fork pull request on pull_request (read-only token, PR-controlled workflow): warnings, no check run, never success', () => {
    const result = get('fork');
    expectExit(result, 1);
    expect(result.github.checkRuns()).toEqual([]);
    expect(
      result.github
        .requests()
        .filter((r) => r.method === 'POST')
        .map((r) => r.status)
    ).toEqual([403]);
    expect(result.run.stdout).toMatch(
      /^::warning::PatchProof will not post success from this run: on pull_request GitHub runs the workflow files of the pull request's merge commit/m
    );
    expect(result.run.stdout).toMatch(/^::warning::PatchProof could not post the check run: .*pull_request_target gate.* This run's receipt artifact is patchproof-receipt-/m);
    expect(result.artifacts.artifacts()).toHaveLength(1);
    expect(result.summary).toContain('## PatchProof: FAILED — not_proof_grade');
    expect(result.outputs).toMatchObject({ verdict: 'failed', 'proof-grade': 'false', 'artifact-id': String(result.artifacts.artifacts()[0]?.id) });
  });

  it('a local-runner pass from a fork on pull_request_target posts failure, never success', () => {
    const result = get('localPass');
    expectExit(result, 1);
    expect(result.github.checkRuns().map((c) => [c.conclusion, c.output.title])).toEqual([['failure', 'PatchProof: FAILED — not_proof_grade']]);
    expect(result.github.checkRuns()[0]?.output.summary).toMatch(/only the isolated docker runner can post success/);
  });

  it('a diff touching .github/ is grader_tampered, although the pack does not list .github as protected', () => {
    const result = get('workflowEdit');
    expectExit(result, 1);
    const receipt = JSON.parse(readFileSync(result.outputs['receipt-path'] as string, 'utf8')) as Receipt;
    expect(receipt.reasons).toContain('grader_tampered');
    expect(receipt.witness.protected).toEqual([]);
    // The adapter calls .github/** configuration (relaxable with allow.config_edits); the default
    // protection makes it `protected`, which only allow.workflow_edits relaxes.
    expect(receipt.surface.findings).toEqual([expect.objectContaining({ path: '.github/CODEOWNERS', change: 'add', categories: ['protected', 'config'] })]);
    expect(receipt.surface.removed).toEqual(['.github/CODEOWNERS']);
    expect(result.github.checkRuns().map((c) => c.conclusion)).toEqual(['failure']);
  });

  it('refuses a ref: pack on a branch the pull request can push: one line naming the fix, a failure check run, nothing ran', () => {
    const result = get('refBranch');
    expectExit(result, 1);
    expect(result.run.stdout).toMatch(
      /^::error::refused \(bad_input\): witness-pack ref 'refs\/heads\/agent-pack' is not the default branch or a tag, so whoever can push it chooses the grader; use ref:refs\/heads\/main:PATH or ref:refs\/tags\/<tag>:PATH$/m
    );
    expect(result.github.checkRuns().map((c) => c.conclusion)).toEqual(['failure']);
    expect(result.artifacts.artifacts()).toEqual([]);
  });

  it('refuses mode publish in one line saying what to use instead; nothing is posted', () => {
    const result = get('publish');
    expectExit(result, 1);
    expect(result.run.stdout).toMatch(
      /^::error::patchproof: mode 'publish' was removed: a receipt from the pull request's run is not evidence; validate in a pull_request_target gate instead/m
    );
    expect(result.github.requests()).toEqual([]);
    expect(result.outputs).toEqual({ verdict: 'failed', 'proof-grade': 'false' });
  });

  it.each([
    ['symlink', 'policy_violation'],
    ['binary', 'policy_violation'],
    ['wrongDigest', 'witness_digest_mismatch']
  ] as const)('refuses the %s candidate: a failure check run saying refused, no receipt, step failed', (name, code) => {
    const result = get(name);
    expectExit(result, 1);
    expect(result.run.stdout).toMatch(new RegExp(`^::error::refused \\(${code}\\): `, 'm'));
    const checks = result.github.checkRuns();
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ head_sha: result.repos.head, conclusion: 'failure', output: { title: `PatchProof: REFUSED — ${code}` } });
    expect(checks[0]?.output.summary).toContain('REFUSED');
    expect(result.outputs).toEqual({ verdict: 'failed', 'proof-grade': 'false' });
    expect(result.artifacts.artifacts()).toEqual([]);
    expect(result.summary).toContain(`## PatchProof: REFUSED — ${code}`);
    expect(readdirSync(result.runnerTemp)).toEqual([]);
  });

  (gate.mode === 'skip' ? it.skip : it)('pull_request_target from a fork: the real fix posts success with proof grade, posted by the GitHub App', () => {
    const result = get('docker');
    expectExit(result, 0);
    expect(result.outputs).toMatchObject({ verdict: 'passed', 'proof-grade': 'true' });
    expect(result.github.checkRuns()).toEqual([
      expect.objectContaining({ head_sha: result.repos.head, conclusion: 'success', output: expect.objectContaining({ title: 'PatchProof: PASSED (proof grade)' }) })
    ]);
    // The JWT was verified with the app's public key, and the check run went with the installation token.
    const requests = result.github.requests();
    expect(requests.filter((r) => r.operationId?.startsWith('apps/')).map((r) => [r.operationId, r.status])).toEqual([
      ['apps/get-repo-installation', 200],
      ['apps/create-installation-access-token', 201]
    ]);
    expect(requests.find((r) => r.operationId === 'checks/create')?.headers['authorization']).toBe(`token ${APP.installationToken}`);
    expect(result.github.checkRuns()[0]?.app.slug).toBe('patchproof-test-app');
    // The trust decision heads the check run's summary and the job summary.
    const trusted =
      /^\*\*信任 \/ Trust: ✅ trusted \/ 可信\*\* — this pull\\_request\\_target run's workflow file `octo-org\/hello-world\/\.github\/workflows\/patchproof-gate\.yml@refs\/heads\/main`/m;
    expect(result.github.checkRuns()[0]?.output.summary).toMatch(trusted);
    expect(result.summary).toMatch(trusted);
    expect(result.run.stdout).toMatch(/trusted workflow: octo-org\/hello-world\/\.github\/workflows\/patchproof-gate\.yml@refs\/heads\/main/);
    const receipt = JSON.parse(readFileSync(result.outputs['receipt-path'] as string, 'utf8')) as Receipt;
    expect(receipt.runner).toMatchObject({ kind: 'docker', isolated: true, image_id: gate.mode === 'run' ? gate.imageId : '' });
    // A trusted success: the one case the action writes the attestation predicate (patchproof.yml attests only then).
    const predicate = JSON.parse(readFileSync(result.outputs['attestation-predicate'] as string, 'utf8')) as unknown;
    expect(predicate).toEqual({
      receipt_digest: receipt.receipt_digest,
      verdict: 'passed',
      proof_grade: true,
      diff_digest: receipt.bindings.diff_digest,
      witness_digest: receipt.bindings.witness_digest,
      check: { conclusion: 'success', trusted: true, name: 'PatchProof', head_sha: result.repos.head, workflow_ref: GATE_REF, event: 'pull_request_target' }
    });
    expect(gatePredicateError(predicate)).toBeUndefined();
  });

  (gate.mode === 'skip' ? it.skip : it)('pull_request_target from a fork: the overfitting fix posts failure in the Docker runner', () => {
    const result = get('dockerOverfit');
    expectExit(result, 1);
    expect(result.github.checkRuns().map((c) => [c.conclusion, c.output.title])).toEqual([['failure', 'PatchProof: FAILED — hidden_failed']]);
  });

  (gate.mode === 'skip' ? it.skip : it)('a PR-controlled pull_request run: a proof-grade pass is still posted as failure (untrusted_workflow)', () => {
    const result = get('dockerPullRequest');
    expectExit(result, 1);
    const receipt = JSON.parse(readFileSync(result.outputs['receipt-path'] as string, 'utf8')) as Receipt;
    expect(receipt).toMatchObject({ verdict: 'passed', proof_grade: true });
    expect(result.github.checkRuns().map((c) => [c.conclusion, c.output.title])).toEqual([['failure', 'PatchProof: FAILED — untrusted_workflow']]);
    // The reason names refs a pusher chose, so it is Markdown-escaped (it renders as the same words).
    expect(result.github.checkRuns()[0]?.output.summary).toMatch(/pull\\_request\\_target workflow on the default branch/);
    expect(result.github.checkRuns()[0]?.output.summary).toMatch(/^\*\*信任 \/ Trust: ❌ untrusted \/ 不可信\*\*/m);
    expect(result.outputs).toMatchObject({ verdict: 'failed', 'proof-grade': 'false' });
    // The receipt says passed with proof grade, but the check was not a trusted success: nothing to attest.
    expect(result.outputs['attestation-predicate']).toBeUndefined();
    expect(readdirSync(result.runnerTemp).filter((name) => name.startsWith('patchproof-predicate-'))).toEqual([]);
  });
});
