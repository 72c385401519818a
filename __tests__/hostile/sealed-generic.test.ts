import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES, ROOT, ensureCli } from '../helpers/cli.js';
import { stageFixture, unsealedPack, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from './hostile-support.js';

/**
 * The generic sealed-oracle form against a hostile go candidate, end to end in the hardened Docker
 * runner. `skip-failing-tests.diff` is the overfitting fix of go-paginate (Count one page too many
 * for exact multiples) plus, in an `init()` of the code under test, `-test.skip` appended to the test
 * binary's own arguments before the testing package parses them: the hidden tests the wrong Count
 * fails never run and leave no result, while the canaries and the other tests run as usual.
 *
 * Graded in-process (the control: the pack's unsealed originals) this passes, because a test that
 * never ran is not in the results and the pack pins no ids. Sealed, the skipped tests' cases are
 * never observed, and a missing case fails: the only way to pass is to compute the right values.
 */

const gate = await dockerGate('generic sealed-oracle hostile tests');

interface Receipt {
  verdict: string;
  proof_grade: boolean;
  reasons: string[];
  phases: { name: string; status: string; reasons: string[]; grading?: string; runs: { oracle?: { cases: number; observed: number; matched: number } }[] }[];
}

gate.describeDocker('sealed oracles against a hostile go candidate (Docker)', () => {
  let sealed: StagedFixture;
  const diff = join(FIXTURES, 'go-paginate', 'candidates', 'skip-failing-tests.diff');

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    sealed = await stageFixture('sealed-go', { repo: join(FIXTURES, 'go-paginate', 'repo'), pack: join(ROOT, 'witness-packs', 'go-paginate') });
  }, 300_000);

  afterAll(async () => {
    if (sealed !== undefined) await rm(sealed.tmp, { recursive: true, force: true });
  });

  it('-test.skip from init(): passes in-process (the control), fails once sealed', async () => {
    const setupCache = join(sealed.tmp, 'setup-cache');
    const control = await validateInDocker<Receipt>(await unsealedPack(sealed), { diff, label: 'skip-control', imageId: gate.imageId, timeoutMs: 600_000, setupCache });
    // The attack works against in-process grading: the failing hidden tests simply never ran.
    expect([control.receipt.verdict, control.receipt.reasons, control.receipt.proof_grade]).toEqual(['passed', [], false]);
    expect(control.receipt.phases.find((p) => p.name === 'hidden')?.grading).toBe('in_process');

    const attacked = await validateInDocker<Receipt>(sealed, { diff, label: 'skip-sealed', imageId: gate.imageId, timeoutMs: 600_000, setupCache });
    expect([attacked.status, attacked.receipt.verdict, attacked.receipt.reasons, attacked.receipt.proof_grade]).toEqual([1, 'failed', ['hidden_failed'], false]);
    const hidden = attacked.receipt.phases.find((p) => p.name === 'hidden')!;
    expect(hidden.grading).toBe('sealed');
    // Only the test the sabotage spared observed its case (and it is right); the other 73 are missing.
    expect(hidden.runs.map((r) => r.oracle)).toEqual([expect.objectContaining({ cases: 74, observed: 1, matched: 1 })]);
    // The reproduction, which the overfitting fix does satisfy, still passes sealed: the oracle
    // fails the candidate on what it computes, not on the sabotage as such.
    expect(attacked.receipt.phases.find((p) => p.name === 'reproduction_after')?.status).toBe('passed');
  }, 1_300_000);
});
