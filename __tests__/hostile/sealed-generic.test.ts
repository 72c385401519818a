import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES, ROOT, ensureCli } from '../helpers/cli.js';
import { stageFixture, unsealedPack, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from './hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

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
 * Graded in-process (the control: the pack's unsealed originals, no pinned ids) each passed before
 * the go supervisor (src/adapters/shared/supervisor.ts, go-supervision.ts) landed; now the in-process
 * grader catches both too (the skipped tests were declared and never ran: hidden_failed; the
 * re-execution is killed on its fork: grader_compromised), so the control asserts that second
 * defence, and `reexec.test.ts` keeps the record of the attack passing before it. Sealed, each
 * fails on its own terms: the skipped tests' cases are never observed, and the relay observes
 * nothing; a missing case fails. The only way to pass is to compute the right values.
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
    if (mayBeUnset(sealed) !== undefined) await rm(sealed.tmp, { recursive: true, force: true });
  });

  it.each([
    ['skip-failing-tests', '-test.skip from init()', 'hidden_failed', ['hidden_failed'], { cases: 74, observed: 1, matched: 1 }],
    ['relay-forged-passes', 'a re-executed binary relaying forged passes', 'grader_compromised', ['grader_compromised'], { cases: 74, observed: 0, matched: 0 }]
  ])(
    '%s (%s): caught in-process by the go supervision, and fails once sealed',
    async (name, _what, inProcessReason, reasons, hiddenOracle) => {
      const diff = join(FIXTURES, 'go-paginate', 'candidates', `${name}.diff`);
      const control = await validateInDocker<Receipt>(unsealed, { diff, label: `${name}-control`, imageId: gate.imageId, timeoutMs: 900_000, setupCache });
      // In-process grading: caught by the supervision (the attack passed before it: reexec.test.ts).
      expect([control.receipt.verdict, control.receipt.proof_grade]).toEqual(['failed', false]);
      expect(control.receipt.reasons).toContain(inProcessReason);
      expect(control.receipt.phases.find((p) => p.name === 'hidden')?.grading).toBe('in_process');

      const attacked = await validateInDocker<Receipt>(sealed, { diff, label: `${name}-sealed`, imageId: gate.imageId, timeoutMs: 900_000, setupCache });
      expect([attacked.status, attacked.receipt.verdict, attacked.receipt.proof_grade]).toEqual([1, 'failed', false]);
      expect(attacked.receipt.reasons).toEqual(expect.arrayContaining(reasons));
      const hidden = attacked.receipt.phases.find((p) => p.name === 'hidden')!;
      expect(hidden.grading).toBe('sealed');
      // -test.skip: only the test the sabotage spared observed its case (a right one). The relay: the
      // child's lines never reach the host's stream.
      expect(hidden.runs.map((r) => r.oracle)).toEqual([expect.objectContaining(hiddenOracle)]);
    },
    1_900_000
  );
});
