import { execFile } from 'node:child_process';
import { chmod, copyFile, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, fixture as fixtureOf, proposeAndApprove, runCli } from '../helpers/cli.js';
import { stageFixture, stagedFixtureHooks, validateInDocker, type DockerValidation, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';

/**
 * The hidden-state case end to end: the agent's fix calls a helper module (`grouping.py`) that sits
 * in its workspace but not in its diff. Its own run, in its dirty tree, passes every test; that run
 * is real (pytest in the test image, JUnit XML written by pytest) and is the claim. The clean room
 * (the unittest pack of py-calculator in the Docker runner) has no such module: the tests that add
 * or subtract error. The claim's comparison reports possible_hidden_state_dependency for them, and
 * the verdict, reasons, proof grade, phases and exit code are those of the same validation without
 * the claim.
 */

const gate = await dockerGate('claim Docker end-to-end tests');
const py = fixtureOf('py-calculator');
const run = promisify(execFile);

interface ClaimView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  phases: { name: string; status: string; reasons: string[]; tests: Record<string, number>; results: { id: string; status: string }[] }[];
  claim?: {
    digest: string;
    format: string;
    tests: number;
    matched: number;
    findings: { possible_hidden_state_dependency: number; claim_unknown_test: number };
    rows: { id: string; claimed: string; clean_room: string; finding?: string }[];
  };
}

/** The agent's own run: its workspace (the repository, its diff applied, its leftover file), pytest --junitxml in the test image. */
async function agentClaim(tmp: string, diff: string, imageId: string): Promise<string> {
  const workspace = join(tmp, 'agent-workspace');
  await cp(py.repo, workspace, { recursive: true });
  await run('git', ['apply', diff], { cwd: workspace });
  await copyFile(join(py.dir, 'agent-leftover', 'grouping.py'), join(workspace, 'grouping.py'));
  const out = join(tmp, 'agent-results');
  await mkdir(out);
  await chmod(out, 0o777);
  await run(
    'docker',
    [
      'run',
      '--rm',
      '--network',
      'none',
      '--user',
      '65534:65534',
      '--read-only',
      '--tmpfs',
      '/tmp',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '-e',
      'HOME=/tmp',
      '-e',
      'PYTHONDONTWRITEBYTECODE=1',
      '-v',
      `${workspace}:/work/agent:ro`,
      '-v',
      `${out}:/out`,
      '-w',
      '/work/agent',
      imageId,
      'python3',
      '-m',
      'pytest',
      '-p',
      'no:cacheprovider',
      '-q',
      '--junitxml=/out/claim.xml',
      'tests'
    ],
    { timeout: 120_000 }
  );
  return join(out, 'claim.xml');
}

gate.describeDocker("the agent's claim against the clean room (Docker)", () => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());
  let staged: StagedFixture;
  let claimFile: string;
  const diff = join(py.dir, 'candidates', 'hidden-state.diff');

  beforeAll(async () => {
    staged = hooks.track(await stageFixture('claim-hidden-state', { repo: py.repo, pack: join(ROOT, 'witness-packs', 'py-calculator') }));
    claimFile = await agentClaim(staged.tmp, diff, gate.imageId);
  }, 180_000);

  const validate = (label: string, extra: string[] = []): Promise<DockerValidation<ClaimView>> =>
    validateInDocker<ClaimView>(staged, { diff, label, imageId: gate.imageId, timeoutSeconds: 60, timeoutMs: 240_000, extra });

  it("reports possible_hidden_state_dependency for the tests that passed only in the agent's workspace, and changes nothing else", async () => {
    const claimText = await readFile(claimFile, 'utf8');
    // The claim is real pytest output: every test passed in the dirty tree.
    expect(claimText).toMatch(/<testsuite name="pytest" errors="0" failures="0" skipped="0" tests="14"/);

    const withClaim = await validate('with-claim', ['--claimed', claimFile]);
    const without = await validate('without-claim');
    expect(without.receipt.verdict).toBe('failed');
    expect({ status: withClaim.status, verdict: withClaim.receipt.verdict, reasons: withClaim.receipt.reasons, proof: withClaim.receipt.proof_grade }).toEqual({
      status: without.status,
      verdict: without.receipt.verdict,
      reasons: without.receipt.reasons,
      proof: without.receipt.proof_grade
    });
    // Runs differ in nonces, durations and output bytes; the judged phases do not.
    const judged = (view: ClaimView): unknown =>
      view.phases.map((p) => ({ name: p.name, status: p.status, reasons: p.reasons, tests: p.tests, results: p.results.map((r) => [r.id, r.status]) }));
    expect(judged(withClaim.receipt)).toEqual(judged(without.receipt));
    expect(without.receipt.claim).toBeUndefined();

    const claim = withClaim.receipt.claim!;
    expect(claim).toMatchObject({ format: 'junit', tests: 14, matched: 14, findings: { claim_unknown_test: 0 } });
    expect(claim.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(claim.findings.possible_hidden_state_dependency).toBeGreaterThan(0);
    expect(claim.rows).toContainEqual({
      id: 'tests.test_calculator.EvaluateTest.test_long_sums_and_products',
      claimed: 'passed',
      clean_room: 'errored',
      finding: 'possible_hidden_state_dependency'
    });
    // A test that never adds or subtracts agrees.
    expect(claim.rows).toContainEqual({ id: 'tests.test_calculator.EvaluateTest.test_rejects_non_strings', claimed: 'passed', clean_room: 'passed' });

    expect(withClaim.stdout).toMatch(/^claim: 14 claimed \(junit\), 14 matched; possible_hidden_state_dependency: [1-9]\d*, claim_unknown_test: 0 \(not part of the verdict\)$/m);
    const report = await readFile(join(withClaim.out, 'report.md'), 'utf8');
    expect(report).toContain("## 代理声明对照 / The agent's claim against the clean room");
    expect(report).toContain('| `tests.test_calculator.EvaluateTest.test_long_sums_and_products` | passed | errored | possible_hidden_state_dependency |');
  }, 600_000);

  it('refuses a malformed claim in one line before any run (exit 2)', async () => {
    const work = join(staged.tmp, 'malformed');
    await mkdir(work);
    const bad = join(work, 'claim.xml');
    await writeFile(bad, '<testsuites><testsuite name="pytest"><testcase name="x">');
    const approved = await proposeAndApprove(staged.repo, diff, work, staged.tmp, 'malformed');
    const result = await runCli(
      [
        'validate',
        '--repo',
        staged.repo,
        '--proposal',
        approved.proposalPath,
        '--approval',
        approved.approvalPath,
        '--witness',
        staged.pack,
        '--witness-digest',
        staged.digest,
        '--runner',
        'docker',
        '--image',
        gate.imageId,
        '--out',
        join(work, 'out'),
        '--claimed',
        bad
      ],
      { tmp: staged.tmp }
    );
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--claimed '.*claim\.xml' is not a claim PatchProof reads: .*not well-formed XML/);
  }, 120_000);
});
