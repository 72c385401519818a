import { PHASES, area, dockerGate, ensureCli, hostileDiff, validateCandidate, type Area, type Validation } from './hostile-support.js';

/**
 * Candidates whose code under test never ends, never stops printing, or exits before any test ran,
 * validated end to end in the hardened Docker runner: each is contained by a limit and judged
 * failed, never passed. One validation at a time in this file (Jest runs two files at once, and
 * the machine has two cores).
 */

const gate = await dockerGate('hostile runaway tests');

gate.describeDocker('runaway candidates in the Docker runner', () => {
  let where: Area;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-runaway');
  });

  afterEach(async () => {
    await where.dispose();
  });

  /** What every hostile validation must show: sealed, valid, never passed, nothing left over. */
  function expectContainedAndJudged(result: Validation): void {
    expect(result.receipt).not.toBeNull();
    expect(result.verify?.status).toBe(0);
    expect(result.receipt!.verdict).not.toBe('passed');
    expect(result.receipt!.proof_grade).toBe(false);
    expect(result.receipt!.runner.isolated).toBe(true);
    expect(result.receipt!.repository.unchanged).toBe(true);
    expect(result.receipt!.phases.map((p) => p.name)).toEqual(PHASES);
    expect(result.containersLeft).toEqual([]);
    expect(result.processesLeft).toEqual([]);
    expect(result.scratchLeft).toEqual([]);
  }

  it('never-ending code under test is killed at the time limit and judged failed (timeout)', async () => {
    // A limit the base's own runs meet under a loaded CI (at 8 s they timed out there, so the bug
    // was not established and the patched side was not_run).
    const limitSeconds = 30;
    const result = await validateCandidate(where, { diff: hostileDiff('busy-loop'), runner: 'docker', imageId: gate.imageId, timeoutSeconds: limitSeconds });
    expectContainedAndJudged(result);
    expect(result.validation.status).toBe(1);
    expect(result.receipt!.verdict).toBe('failed');
    expect(result.receipt!.reasons).toContain('timeout');
    // Every patched run hangs: each of those phases failed for the timeout itself.
    for (const name of ['reproduction_after', 'hidden']) {
      const phase = result.receipt!.phases.find((p) => p.name === name)!;
      expect(phase.status).toBe('failed');
      expect(phase.reasons).toContain('timeout');
    }
    // Three hanging runs, two at a time: bounded by the limit (three limits and a minute of
    // everything else at most), not by the candidate, which would never end.
    expect(result.durationMs).toBeLessThan((3 * limitSeconds + 60) * 1000);
  }, 240_000);

  it('writing past the results cap is stopped and judged failed (output_limit), never filling the host disk', async () => {
    const result = await validateCandidate(where, { diff: hostileDiff('disk-fill'), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 20 });
    expectContainedAndJudged(result);
    expect(result.receipt!.verdict).toBe('failed');
    expect(result.receipt!.reasons).toContain('output_limit');
    expect((result.receipt!.runner as { settings?: string[] }).settings).toContain('results-limit=67108864');
  }, 90_000);

  it('endless output is cut at the output cap and judged failed (output_limit)', async () => {
    // The cap ends these runs, not the time limit; the limit only has to let the base's runs finish under load.
    const result = await validateCandidate(where, { diff: hostileDiff('endless-output'), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 30 });
    expectContainedAndJudged(result);
    expect(result.validation.status).toBe(1);
    expect(result.receipt!.verdict).toBe('failed');
    expect(result.receipt!.reasons).toContain('output_limit');
    const after = result.receipt!.phases.find((p) => p.name === 'reproduction_after')!;
    expect(after.status).toBe('failed');
    expect(after.reasons).toContain('output_limit');
  }, 180_000);

  it('code that exits 0 before any test runs is judged failed, never passed (no_results)', async () => {
    // A generous per-run limit: this case is about results, and under a loaded CI the base's jest
    // run alone can take 8 s (it then timed out, and the verdict said so instead of no_results).
    const result = await validateCandidate(where, { diff: hostileDiff('exit-early'), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 60 });
    expectContainedAndJudged(result);
    expect(result.validation.status).toBe(1);
    expect(result.receipt!.verdict).toBe('failed');
    expect(result.receipt!.reasons).toContain('no_results');
    // Every phase that ran the patched tree failed.
    expect(result.receipt!.phases.slice(1).map((p) => p.status)).toEqual(['failed', 'failed', 'failed']);
  }, 150_000);
});
