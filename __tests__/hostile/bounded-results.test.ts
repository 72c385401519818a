import { PHASES, area, dockerGate, ensureCli, hostileDiff, validateCandidate, type Area, type Validation } from './hostile-support.js';

/**
 * A flood of files in the results mount: the code under test creates up to 100,000 empty files in
 * every writable bind mount it finds, then hangs. The results tmpfs caps inodes (`nr_inodes`) and a
 * watchdog counts files, so the run is stopped as `output_limit` long before its timeout, and the
 * post-run copy (only the adapter's expected files, within the run's budget) cannot stretch it.
 * Before the file cap, the same candidate took three times its timeout. One fixture per test, one
 * validation at a time.
 */

const gate = await dockerGate('hostile bounded-results tests');

const TIMEOUT_SECONDS = 10;

gate.describeDocker('a flood of files in the results mount', () => {
  let where: Area;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-flood');
  });

  afterEach(async () => {
    await where.dispose();
  });

  function expectFloodStopped(result: Validation): void {
    expect(result.receipt).not.toBeNull();
    expect(result.verify?.status).toBe(0);
    expect(result.validation.status).toBe(1);
    expect(result.receipt!.verdict).toBe('failed');
    expect(result.receipt!.reasons).toContain('output_limit');
    expect(result.receipt!.phases.map((p) => p.name)).toEqual(PHASES);
    for (const name of ['reproduction_after', 'hidden']) {
      const phase = result.receipt!.phases.find((p) => p.name === name)!;
      expect(phase.status).toBe('failed');
      expect(phase.reasons).toContain('output_limit');
    }
    expect((result.receipt!.runner as { settings?: string[] }).settings).toContain('results-files-limit=4096');
    expect(result.containersLeft).toEqual([]);
    expect(result.processesLeft).toEqual([]);
    expect(result.scratchLeft).toEqual([]);
  }

  it.each([
    ['js-duration', 'inode-flood'],
    ['py-calculator', 'py-inode-flood']
  ] as const)(
    '%s: 100,000 empty files then a hang ends as output_limit, within the timeout',
    async (fixture, diff) => {
      const result = await validateCandidate(where, { diff: hostileDiff(diff), runner: 'docker', imageId: gate.imageId, timeoutSeconds: TIMEOUT_SECONDS, fixture });
      expectFloodStopped(result);
      // Three or four patched runs, two at a time: were any of them to run to its timeout (or past it,
      // copying files), this would take at least 2 × 10 s plus the base runs.
      expect(result.durationMs).toBeLessThan(3 * TIMEOUT_SECONDS * 1000);
    },
    90_000
  );
});
