import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ROOT, ensureCli, fixture as fixtureOf, runCli, tempDir, treeListing } from '../helpers/cli.js';
import { packDigest, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * The pytest adapter end to end in the hardened Docker runner: the py-calculator fixture graded by
 * a pytest witness pack (pytest runs unittest-style tests too), through the bundled CLI. The pack is
 * made with `witness init --adapter pytest` from the unittest pack's folders, so the grader's tests
 * exist once in the repository, and sealed with `witness seal` (pytest's form of the observations).
 */

const gate = await dockerGate('pytest Docker end-to-end tests');
const py = fixtureOf('py-calculator');
// The unittest pack is sealed (issue 11); this pytest pack is built from the author's originals and sealed again.
const SOURCE_PACK = join(ROOT, 'witness-packs', 'py-calculator', 'oracle', 'original');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  runner: { isolated: boolean };
  phases: { name: string; status: string }[];
}

gate.describeDocker('pytest witness pack in the Docker runner', () => {
  let fixture: StagedFixture;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    const tmp = await tempDir('pytest-docker');
    const pack = join(tmp, 'pytest-pack');
    const init = await runCli(['witness', 'init', pack, '--adapter', 'pytest', '--reproduction', join(SOURCE_PACK, 'reproduction'), '--hidden', join(SOURCE_PACK, 'hidden')], {
      tmp
    });
    expect(init.status).toBe(0);
    // Sealed with witness seal: the pytest form of the same tests observes (issue 11), so the fix is proof grade.
    const seal = await runCli(['witness', 'seal', pack], { tmp });
    expect({ status: seal.status, stdout: seal.stdout }).toMatchObject({ status: 0, stdout: expect.stringMatching(/reproduction: sealed\nhidden: sealed/) });
    fixture = { tmp, repo: py.repo, pack, digest: await packDigest(pack, tmp) };
  }, 180_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  async function validateCandidate(candidate: string): Promise<{ status: number | null; receipt: ReceiptView }> {
    return validateInDocker<ReceiptView>(fixture, { diff: py.candidate(candidate), label: `pytest-${candidate}`, imageId: gate.imageId, timeoutSeconds: 60, timeoutMs: 120_000 });
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
