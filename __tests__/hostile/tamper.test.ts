import { PHASES, area, dockerGate, ensureCli, hostileDiff, validateCandidate, type Area } from './hostile-support.js';

/**
 * Candidates whose code under test sabotages the grader from inside the test process: disarming
 * node:assert so every assertion passes, or forging the results file and exiting 0. The grader
 * canaries (a must-fail test in the same process) and the exit-code check catch both.
 */

const gate = await dockerGate('hostile tamper tests');

gate.describeDocker('grader sabotage in the Docker runner', () => {
  let where: Area;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-tamper');
  });

  afterEach(async () => {
    await where.dispose();
  });

  it.each(['disarm-assert', 'forge-results'])(
    '%s is caught by the canaries: failed, grader_compromised',
    async (name) => {
      const result = await validateCandidate(where, { diff: hostileDiff(name), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 20 });
      expect(result.verify?.status).toBe(0);
      expect(result.validation.status).toBe(1);
      expect(result.receipt!.verdict).toBe('failed');
      expect(result.receipt!.proof_grade).toBe(false);
      expect(result.receipt!.reasons).toContain('grader_compromised');
      expect(result.receipt!.phases.map((p) => p.name)).toEqual(PHASES);
      // The patched runs carry the sabotage; the base runs do not and stay clean.
      for (const name of ['reproduction_after', 'hidden']) {
        expect(result.receipt!.phases.find((p) => p.name === name)!.reasons).toContain('grader_compromised');
      }
      expect(result.receipt!.phases[0]!.status).toBe('passed');
      expect(result.containersLeft).toEqual([]);
      expect(result.scratchLeft).toEqual([]);
    },
    90_000
  );
});
