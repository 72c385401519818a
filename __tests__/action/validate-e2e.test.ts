import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { dockerTestGate } from '../../src/runners/docker-available.js';
import { digestWitnessFolder } from '../../src/witness/digest.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import { ensureActionBundle, parseOutputFile, runAction, type ActionRun } from './data/validate-bundle.js';
import { JS_DURATION, JS_PACK, PACK_PATH, PULL_NUMBER, makePullRequest, removePullRequest, type HeadChange, type PullRequestRepos } from './data/validate-repos.js';

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
}

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
  fork: { change: fix, runner: 'local', fork: true },
  symlink: { change: { kind: 'symlink', path: 'src/alias.js', target: 'duration.js' }, runner: 'local' },
  binary: { change: { kind: 'binary', path: 'src/table.bin', bytes: Buffer.from([0, 1, 2, 0xff, 0, 0x89, 0x50, 0x4e, 0x47]) }, runner: 'local' },
  wrongDigest: { change: fix, runner: 'local', digest: `sha256:${'1'.repeat(64)}` },
  ...(gate.mode === 'skip' ? {} : { docker: { change: fix, runner: 'docker' } })
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
    repository: repo,
    sender: { login: 'contributor' }
  };
}

async function runScenario(name: string, scenario: Scenario): Promise<Result> {
  const repos = makePullRequest(scenario.change);
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
    readOnlyToken: scenario.fork === true,
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
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: repos.workspace,
    GITHUB_ACTOR: 'contributor',
    GITHUB_SHA: repos.head,
    GITHUB_REF: `refs/pull/${PULL_NUMBER}/merge`,
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
    INPUT_REPLAY: 'false'
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
      results.set(name, await runScenario(name, scenario as Scenario));
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
    throw new Error(`expected exit ${status}, got ${result.run.status} after ${result.run.durationMs} ms\n--- stdout ---\n${result.run.stdout}\n--- stderr ---\n${result.run.stderr}`);
  }
}

/** The receipt in the run's artifact, downloaded with the real client, as another job would. */
async function downloadReceipt(result: Result): Promise<{ text: string; digestMismatch: boolean }> {
  const previous = { ...process.env };
  Object.assign(process.env, result.artifacts.env(), { GITHUB_API_URL: result.github.url });
  // The toolkit's ::debug:: lines would flood the test output.
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;
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
    for (const key of Object.keys(process.env)) if (!(key in previous)) delete process.env[key];
    Object.assign(process.env, previous);
  }
}

describe('validate mode, bundled, against loopback GitHub and artifact services', () => {
  it('every run made only requests GitHub\'s description allows', () => {
    for (const [name, result] of results) {
      expect([name, result.github.invalidRequests()]).toEqual([name, []]);
      expect([name, result.github.invalidResponses()]).toEqual([name, []]);
      expect([name, result.artifacts.invalidRequests()]).toEqual([name, []]);
    }
  });

  it('passes the correct fix: a success check run on the head commit, every output set', async () => {
    const result = get('passed');
    expectExit(result, 0);
    const checks = result.github.checkRuns();
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ head_sha: result.repos.head, name: 'PatchProof', status: 'completed', conclusion: 'success', output: { title: 'PatchProof: PASSED (not proof grade)' } });
    expect(result.outputs).toEqual({
      verdict: 'passed',
      'proof-grade': 'false',
      'receipt-digest': expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      'receipt-path': join(result.runnerTemp, `patchproof-${result.outputs['receipt-digest']?.slice(7)}`, 'receipt.json'),
      'artifact-id': String(result.artifacts.artifacts()[0]?.id)
    });
    expect(result.summary).toContain('## PatchProof: PASSED (not proof grade)');
    expect(result.run.stdout).not.toMatch(/^::(error|warning)::/m);
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

  it('a fork pull request (read-only token): summary written, artifact uploaded, a warning, no check run, no crash', () => {
    const result = get('fork');
    expectExit(result, 0);
    expect(result.github.checkRuns()).toEqual([]);
    expect(result.github.requests().filter((r) => r.method === 'POST').map((r) => r.status)).toEqual([403]);
    expect(result.run.stdout).toMatch(/^::warning::PatchProof could not post the check run: .*workflow_run.* This run's receipt artifact is patchproof-receipt-/m);
    expect(result.artifacts.artifacts()).toHaveLength(1);
    expect(result.summary).toContain('## PatchProof: PASSED (not proof grade)');
    expect(result.outputs).toMatchObject({ verdict: 'passed', 'artifact-id': String(result.artifacts.artifacts()[0]?.id) });
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

  (gate.mode === 'skip' ? it.skip : it)('proof grade in the hardened Docker runner with the local test image', () => {
    const result = get('docker' as Name);
    expectExit(result, 0);
    expect(result.outputs).toMatchObject({ verdict: 'passed', 'proof-grade': 'true' });
    expect(result.github.checkRuns()[0]).toMatchObject({ conclusion: 'success', output: { title: 'PatchProof: PASSED (proof grade)' } });
    const receipt = JSON.parse(readFileSync(result.outputs['receipt-path'] as string, 'utf8')) as Receipt;
    expect(receipt.runner).toMatchObject({ kind: 'docker', isolated: true, image_id: gate.mode === 'run' ? gate.imageId : '' });
  });
});
