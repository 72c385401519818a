import { afterEach, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { OLD_LAYOUT, PHASES, area, dockerGate, ensureCli, hostileDiff, validateCandidate, type Area } from './hostile-support.js';

/**
 * Grading-aware candidates: a real fix that applies only when the process sees the grader's old
 * fixed layout (workdir under /patchproof/, uid 65534), the old bug everywhere else. Under the new
 * defaults (a CI job's /home/runner/work/<repo>/<repo>, uid 1001) they are graded as what they are
 * outside the gate: failed. The same candidates given the old layout back (--container-*) pass,
 * which shows what the defaults buy and that this is a limit, not a fix: a candidate that keys on
 * something else the container still shows gets the same.
 */

const gate = await dockerGate('hostile neutral-environment tests');

gate.describeDocker('grading-aware candidates against the neutral defaults', () => {
  let where: Area;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-neutral');
  });

  afterEach(async () => {
    await where.dispose();
  });

  it.each([
    ['js-duration', 'grading-aware'],
    ['py-calculator', 'py-grading-aware']
  ] as const)(
    '%s: keyed on the old mount path and uid, it fails under the new defaults and passes only with the old layout',
    async (fixture, diff) => {
      const neutral = await validateCandidate(where, { diff: hostileDiff(diff), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 30, fixture });
      expect(neutral.receipt).not.toBeNull();
      expect(neutral.verify?.status).toBe(0);
      expect(neutral.validation.status).toBe(1);
      expect(neutral.receipt!.verdict).toBe('failed');
      expect(neutral.receipt!.phases.map((p) => p.name)).toEqual(PHASES);
      expect(neutral.receipt!.phases.find((p) => p.name === 'reproduction_after')!.status).toBe('failed');
      expect(neutral.receipt!.runner as { settings?: string[] }).toMatchObject({ settings: expect.arrayContaining(['user=1001:1001', 'env.CI=true']) });

      await where.dispose();
      where = await area('hostile-neutral');
      const old = await validateCandidate(where, { diff: hostileDiff(diff), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 30, fixture, extra: [...OLD_LAYOUT] });
      expect(old.receipt!.verdict).toBe('passed');
      expect(old.containersLeft).toEqual([]);
      // Two validations, each bounded by validateCandidate's outer limit.
    },
    360_000
  );
});
