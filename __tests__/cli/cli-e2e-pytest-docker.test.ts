import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli, fixture, proposeAndApprove, readJson, runCli, tempDir, treeListing } from '../helpers/cli.js';
import { dockerGate } from '../hostile/hostile-support.js';

/**
 * The pytest adapter end to end in the hardened Docker runner: the py-calculator fixture graded by
 * a pytest witness pack (pytest runs unittest-style tests too), through the bundled CLI. The pack is
 * made with `witness init --adapter pytest` from the unittest pack's folders, so the grader's tests
 * exist once in the repository.
 */

const gate = await dockerGate('pytest Docker end-to-end tests');
const py = fixture('py-calculator');
const SOURCE_PACK = join(ROOT, 'witness-packs', 'py-calculator');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  runner: { isolated: boolean };
  phases: { name: string; status: string }[];
}

gate.describeDocker('pytest witness pack in the Docker runner', () => {
  let tmp: string;
  let pack: string;
  let digest: string;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    tmp = await tempDir('pytest-docker');
    pack = join(tmp, 'pytest-pack');
    const init = await runCli(
      ['witness', 'init', pack, '--adapter', 'pytest', '--reproduction', join(SOURCE_PACK, 'reproduction'), '--hidden', join(SOURCE_PACK, 'hidden')],
      { tmp }
    );
    expect(init.status).toBe(0);
    const printed = await runCli(['witness', 'digest', pack], { tmp });
    expect(printed.status).toBe(0);
    digest = printed.stdout.trim();
  }, 180_000);

  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  async function validateCandidate(candidate: string): Promise<{ status: number | null; receipt: ReceiptView }> {
    const work = join(tmp, candidate);
    const approved = await proposeAndApprove(py.repo, py.candidate(candidate), work, tmp, `pytest-${candidate}`);
    const out = join(work, 'out');
    const result = await runCli(
      ['validate', '--repo', py.repo, '--proposal', approved.proposalPath, '--approval', approved.approvalPath, '--witness', pack, '--witness-digest', digest,
        '--runner', 'docker', '--image', gate.imageId, '--out', out, '--timeout', '60'],
      { tmp, timeoutMs: 120_000 }
    );
    const verify = await runCli(['verify-receipt', join(out, 'receipt.json')], { tmp });
    expect(verify.status).toBe(0);
    return { status: result.status, receipt: await readJson<ReceiptView>(join(out, 'receipt.json')) };
  }

  it('passes the correct fix as proof grade', async () => {
    const before = treeListing(py.repo);
    const { status, receipt } = await validateCandidate('fix');
    expect(status).toBe(0);
    expect(receipt).toMatchObject({ verdict: 'passed', reasons: [], proof_grade: true, adapter: 'pytest', runner: { isolated: true } });
    expect(receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(treeListing(py.repo)).toEqual(before);
  }, 150_000);

  it('fails the overfitting fix on the hidden tests', async () => {
    const { status, receipt } = await validateCandidate('overfit');
    expect(status).toBe(1);
    expect(receipt).toMatchObject({ verdict: 'failed', reasons: ['hidden_failed'], proof_grade: false, adapter: 'pytest' });
  }, 150_000);
});
