import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli, proposeAndApprove, readJson, runCli, tempDir, treeListing } from '../helpers/cli.js';
import { dockerGate } from '../hostile/hostile-support.js';

/**
 * The generic junit adapter end to end in the hardened Docker runner: the junit-semver fixture
 * (node's built-in test runner writing JUnit XML) graded by the witness pack
 * witness-packs/junit-semver, whose witness.json gives the command, the report and the canary
 * tests, through the bundled CLI. The repository and the pack are copied out of this git work tree
 * first, so they are digested as they are on disk.
 */

const gate = await dockerGate('junit Docker end-to-end tests');
const FIXTURE = join(ROOT, 'fixtures', 'junit-semver');
const PACK = join(ROOT, 'witness-packs', 'junit-semver');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  runner: { isolated: boolean };
  phases: { name: string; status: string; reasons: string[]; runs: { argv: string[]; canary: { pass: string; fail: string } }[] }[];
}

gate.describeDocker('junit witness pack in the Docker runner', () => {
  let tmp: string;
  let repo: string;
  let pack: string;
  let digest: string;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    tmp = await tempDir('junit-docker');
    repo = join(tmp, 'repo');
    pack = join(tmp, 'pack');
    await cp(join(FIXTURE, 'repo'), repo, { recursive: true });
    await cp(PACK, pack, { recursive: true });
    const printed = await runCli(['witness', 'digest', pack], { tmp });
    expect(printed.stderr).toBe('');
    expect(printed.status).toBe(0);
    digest = printed.stdout.trim();
  }, 60_000);

  afterAll(async () => {
    if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
  });

  async function validateCandidate(candidate: string): Promise<{ status: number | null; stderr: string; receipt: ReceiptView }> {
    const work = join(tmp, candidate);
    const approved = await proposeAndApprove(repo, join(FIXTURE, 'candidates', `${candidate}.diff`), work, tmp, `junit-${candidate}`);
    const out = join(work, 'out');
    const result = await runCli(
      ['validate', '--repo', repo, '--proposal', approved.proposalPath, '--approval', approved.approvalPath, '--witness', pack, '--witness-digest', digest,
        '--runner', 'docker', '--image', gate.imageId, '--out', out, '--timeout', '60'],
      { tmp, timeoutMs: 150_000 }
    );
    const verify = await runCli(['verify-receipt', join(out, 'receipt.json')], { tmp });
    expect(verify.status).toBe(0);
    return { status: result.status, stderr: result.stderr, receipt: await readJson<ReceiptView>(join(out, 'receipt.json')) };
  }

  it('passes the correct fix as proof grade, running the pack argv with its canaries', async () => {
    const before = treeListing(repo);
    const { status, receipt } = await validateCandidate('fix');
    expect(status).toBe(0);
    expect(receipt).toMatchObject({ verdict: 'passed', reasons: [], proof_grade: true, adapter: 'junit', runner: { isolated: true } });
    expect(receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    const hidden = receipt.phases.find((p) => p.name === 'hidden');
    expect(hidden?.runs[0]?.argv).toEqual(expect.arrayContaining(['node', '--test', '--test-reporter=junit', '.patchproof/hidden/numeric-parts.test.js', '.patchproof/harness/canary/grader.test.js']));
    expect(hidden?.runs[0]?.canary).toMatchObject({ pass: 'passed', fail: 'failed' });
    expect(treeListing(repo)).toEqual(before);
  }, 200_000);

  it('fails the wrong fix on the hidden tests', async () => {
    const { status, receipt } = await validateCandidate('wrong-fix');
    expect(status).toBe(1);
    expect(receipt).toMatchObject({ verdict: 'failed', reasons: ['hidden_failed'], proof_grade: false, adapter: 'junit' });
    expect(receipt.phases.find((p) => p.name === 'reproduction_after')?.status).toBe('passed');
  }, 200_000);

  it('catches code that makes every assertion pass with the pack canary: grader_compromised', async () => {
    const { status, receipt } = await validateCandidate('sabotage-assert');
    expect(status).toBe(1);
    expect(receipt.verdict).toBe('failed');
    expect(receipt.reasons).toContain('grader_compromised');
    for (const name of ['reproduction_after', 'hidden']) {
      const phase = receipt.phases.find((p) => p.name === name);
      expect(phase?.reasons).toContain('grader_compromised');
      expect(phase?.runs[0]?.canary).toMatchObject({ pass: 'passed', fail: 'passed' });
    }
  }, 200_000);
});
