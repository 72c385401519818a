import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES, ROOT, ensureCli } from '../helpers/cli.js';
import { stageFixture, unsealedPack, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate, hostileDiff } from './hostile-support.js';

/**
 * Sealed oracles against hostile candidates, end to end in the hardened Docker runner. Each attack
 * is first shown to work against the same pack *unsealed* (its control: graded in-process, it
 * passes), then shown to buy nothing once the pack is sealed (the expected values are not in the
 * container, so the only way to pass is to compute them).
 */

const gate = await dockerGate('sealed-oracle hostile tests');

interface Receipt {
  verdict: string;
  proof_grade: boolean;
  reasons: string[];
  phases: { name: string; status: string; reasons: string[]; grading?: string; runs: { oracle?: { cases: number; observed: number; matched: number } }[] }[];
}

const grading = (receipt: Receipt): Record<string, string | undefined> => Object.fromEntries(receipt.phases.map((p) => [p.name, p.grading]));

gate.describeDocker('sealed oracles against hostile candidates (Docker)', () => {
  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 300_000);

  describe('py-calculator (unittest)', () => {
    let sealed: StagedFixture;
    let unsealed: StagedFixture;
    const repo = join(FIXTURES, 'py-calculator', 'repo');
    const candidate = (name: string): string => join(FIXTURES, 'py-calculator', 'candidates', `${name}.diff`);

    beforeAll(async () => {
      sealed = await stageFixture('sealed-py', { repo, pack: join(ROOT, 'witness-packs', 'py-calculator') });
      unsealed = await unsealedPack(sealed);
    }, 120_000);

    afterAll(async () => {
      await rm(sealed.tmp, { recursive: true, force: true });
    });

    it('the correct fix passes with proof grade; every candidate-side phase is sealed and every case matched', async () => {
      const result = await validateInDocker<Receipt>(sealed, { diff: candidate('fix'), label: 'fix', imageId: gate.imageId, timeoutMs: 240_000 });
      expect([result.receipt.verdict, result.receipt.reasons, result.receipt.proof_grade]).toEqual(['passed', [], true]);
      expect(grading(result.receipt)).toEqual({ reproduction_before: 'sealed', reproduction_after: 'sealed', regression: 'in_process', hidden: 'sealed' });
      const hidden = result.receipt.phases.find((p) => p.name === 'hidden')!;
      expect(hidden.runs.every((r) => r.oracle !== undefined && r.oracle.cases === 7 && r.oracle.matched === 7 && r.oracle.observed === 7)).toBe(true);
      const before = result.receipt.phases.find((p) => p.name === 'reproduction_before')!;
      expect(before.status).toBe('passed');
    }, 300_000);

    it('hidden tests read at import: passes in-process (the control), fails once sealed', async () => {
      const control = await validateInDocker<Receipt>(unsealed, { diff: candidate('read-tests-at-import'), label: 'read-control', imageId: gate.imageId, timeoutMs: 240_000 });
      // In-process grading alone (before twin canaries) passed this attack. Since the merge of the
      // mutant twins, the in-process run fails it too: the candidate answers the mutated copies of
      // the hidden tests it read as well. Never proof grade, in_process.
      expect([control.receipt.verdict, control.receipt.proof_grade]).toEqual(['failed', false]);
      expect(grading(control.receipt).hidden).toBe('in_process');
      const attacked = await validateInDocker<Receipt>(sealed, { diff: candidate('read-tests-at-import'), label: 'read-sealed', imageId: gate.imageId, timeoutMs: 240_000 });
      expect(attacked.receipt.verdict).toBe('failed');
      expect(attacked.receipt.proof_grade).toBe(false);
      expect(attacked.receipt.reasons).toEqual(expect.arrayContaining(['hidden_failed']));
      expect(attacked.status).toBe(1);
    }, 600_000);
  });

  describe('js-duration (node:test)', () => {
    let sealed: StagedFixture;
    const repo = join(FIXTURES, 'js-duration', 'repo');

    beforeAll(async () => {
      sealed = await stageFixture('sealed-js', { repo, pack: join(ROOT, 'witness-packs', 'js-duration') });
    }, 120_000);

    afterAll(async () => {
      await rm(sealed.tmp, { recursive: true, force: true });
    });

    it('the correct fix passes with proof grade, sealed', async () => {
      const result = await validateInDocker<Receipt>(sealed, {
        diff: join(FIXTURES, 'js-duration', 'candidates', 'fix.diff'),
        label: 'fix',
        imageId: gate.imageId,
        timeoutMs: 240_000
      });
      expect([result.receipt.verdict, result.receipt.reasons, result.receipt.proof_grade]).toEqual(['passed', [], true]);
      expect(grading(result.receipt)).toEqual({ reproduction_before: 'sealed', reproduction_after: 'sealed', regression: 'in_process', hidden: 'sealed' });
    }, 300_000);

    it.each([
      ['disarm-assert', 'every assertion disarmed in the process'],
      ['forge-results', 'results forged at exit']
    ])(
      '%s (%s): no pass, and the sealed cases themselves fail',
      async (name) => {
        const result = await validateInDocker<Receipt>(sealed, { diff: hostileDiff(name), label: name, imageId: gate.imageId, timeoutMs: 240_000 });
        expect(result.receipt.verdict).toBe('failed');
        expect(result.receipt.proof_grade).toBe(false);
        // Whatever the canaries say, the oracle alone fails it: not one hidden case matched.
        const hidden = result.receipt.phases.find((p) => p.name === 'hidden')!;
        expect(hidden.grading).toBe('sealed');
        expect(hidden.status).toBe('failed');
        expect(hidden.runs.every((r) => r.oracle !== undefined && r.oracle.matched < r.oracle.cases)).toBe(true);
      },
      300_000
    );
  });
});
