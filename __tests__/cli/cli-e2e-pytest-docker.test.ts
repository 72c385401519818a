import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ensureCli, fixture as fixtureOf, treeListing } from '../helpers/cli.js';
import { validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate, pytestCalculatorPack, sealPytestCalculatorPack } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * The pytest adapter end to end in the hardened Docker runner: the py-calculator fixture graded by
 * a pytest witness pack (pytest runs unittest-style tests too), through the bundled CLI. The pack is
 * made with `witness init --adapter pytest` from the unittest pack's folders, so the grader's tests
 * exist once in the repository, and sealed with `witness seal` (pytest's form of the observations), its one pending site recorded
 * from the fix.
 */

const gate = await dockerGate('pytest Docker end-to-end tests');
const py = fixtureOf('py-calculator');

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
    // The pytest form of the unittest pack's originals, sealed with witness seal (issue 11), so the fix is proof grade.
    fixture = await sealPytestCalculatorPack(await pytestCalculatorPack('pytest-docker'), gate.imageId);
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
