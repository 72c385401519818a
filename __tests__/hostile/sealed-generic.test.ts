import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES, ROOT, ensureCli } from '../helpers/cli.js';
import { stageFixture, unsealedPack, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from './hostile-support.js';

/**
 * The generic sealed-oracle form against hostile go candidates, end to end in the hardened Docker
 * runner. Each is the overfitting fix of go-paginate (Count one page too many for exact multiples)
 * plus sabotage of the testing framework in an `init()` of the code under test:
 *
 * - `skip-failing-tests.diff` appends `-test.skip` to the test binary's own arguments before the
 *   testing package parses them: the hidden tests the wrong Count fails never run and leave no
 *   result, while the canaries and the other tests run as usual;
 * - `relay-forged-passes.diff` re-executes the test binary and relays the child's output with every
 *   `--- FAIL` of a real test turned into `--- PASS` (the canaries' lines left alone).
 *
 * Graded in-process (the control: the pack's unsealed originals, no pinned ids) each passes. Sealed,
 * it fails: the skipped tests' cases are never observed, and the relayed child's observations land
 * in the output `go test -json` captures, not the stream the host reads; a missing case fails. The
 * only way to pass is to compute the right values. (If the in-process grader learns to catch one of
 * these, its control fails too, and the control assertion is the one to update.)
 */

const gate = await dockerGate('generic sealed-oracle hostile tests');

interface Receipt {
  verdict: string;
  proof_grade: boolean;
  reasons: string[];
  phases: { name: string; status: string; reasons: string[]; grading?: string; runs: { oracle?: { cases: number; observed: number; matched: number } }[] }[];
}

gate.describeDocker('sealed oracles against hostile go candidates (Docker)', () => {
  let sealed: StagedFixture;
  let unsealed: StagedFixture;
  let setupCache: string;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    sealed = await stageFixture('sealed-go', { repo: join(FIXTURES, 'go-paginate', 'repo'), pack: join(ROOT, 'witness-packs', 'go-paginate') });
    unsealed = await unsealedPack(sealed);
    // One dependency stage per pack digest, shared by the candidates.
    setupCache = join(sealed.tmp, 'setup-cache');
  }, 300_000);

  afterAll(async () => {
    if (sealed !== undefined) await rm(sealed.tmp, { recursive: true, force: true });
  });

  it.each([
    ['skip-failing-tests', '-test.skip from init()', ['hidden_failed'], { cases: 74, observed: 1, matched: 1 }],
    ['relay-forged-passes', 'a re-executed binary relaying forged passes', ['hidden_failed', 'not_fixed'], { cases: 74, observed: 0, matched: 0 }]
  ])('%s (%s): passes in-process (the control), fails once sealed', async (name, _what, reasons, hiddenOracle) => {
    const diff = join(FIXTURES, 'go-paginate', 'candidates', `${name}.diff`);
    const control = await validateInDocker<Receipt>(unsealed, { diff, label: `${name}-control`, imageId: gate.imageId, timeoutMs: 900_000, setupCache });
    // The attack works against in-process grading.
    expect([control.receipt.verdict, control.receipt.reasons, control.receipt.proof_grade]).toEqual(['passed', [], false]);
    expect(control.receipt.phases.find((p) => p.name === 'hidden')?.grading).toBe('in_process');

    const attacked = await validateInDocker<Receipt>(sealed, { diff, label: `${name}-sealed`, imageId: gate.imageId, timeoutMs: 900_000, setupCache });
    expect([attacked.status, attacked.receipt.verdict, attacked.receipt.reasons, attacked.receipt.proof_grade]).toEqual([1, 'failed', reasons, false]);
    const hidden = attacked.receipt.phases.find((p) => p.name === 'hidden')!;
    expect(hidden.grading).toBe('sealed');
    // -test.skip: only the test the sabotage spared observed its case (a right one). The relay: the
    // child's lines never reach the host's stream.
    expect(hidden.runs.map((r) => r.oracle)).toEqual([expect.objectContaining(hiddenOracle)]);
  }, 1_900_000);
});
