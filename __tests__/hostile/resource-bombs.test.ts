import { spawnSync } from 'node:child_process';
import { PHASES, area, dockerGate, ensureCli, hostileDiff, validateCandidate, type Area, type Validation } from './hostile-support.js';

/**
 * A fork bomb and a memory bomb in the code under test, validated end to end in the hardened
 * Docker runner: the pids and memory limits contain them, the host keeps working, nothing is left
 * running, and neither is ever judged passed.
 */

const gate = await dockerGate('hostile resource-bomb tests');

gate.describeDocker('resource bombs in the Docker runner', () => {
  let where: Area;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-bomb');
  });

  afterEach(async () => {
    await where.dispose();
  });

  function expectContainedAndNeverPassed(result: Validation): void {
    expect(result.receipt).not.toBeNull();
    expect(result.verify?.status).toBe(0);
    expect(['failed', 'inconclusive']).toContain(result.receipt!.verdict);
    expect([1, 3]).toContain(result.validation.status);
    expect(result.receipt!.proof_grade).toBe(false);
    expect(result.receipt!.runner.isolated).toBe(true);
    expect(result.receipt!.repository.unchanged).toBe(true);
    expect(result.receipt!.phases.map((p) => p.name)).toEqual(PHASES);
    // The patched runs never pass: the bomb goes off when the code under test is imported.
    for (const phase of result.receipt!.phases.slice(1)) {
      expect(phase.status).not.toBe('passed');
      expect(phase.reasons.length).toBeGreaterThan(0);
    }
    expect(result.containersLeft).toEqual([]);
    // No process of the bomb survives on the host (container processes are visible from the host).
    expect(result.processesLeft).toEqual([]);
    expect(result.scratchLeft).toEqual([]);
  }

  it('a fork bomb is contained by the pids limit: never passed, the host still runs processes, nothing left', async () => {
    const result = await validateCandidate(where, { diff: hostileDiff('fork-bomb'), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 8 });
    expectContainedAndNeverPassed(result);
    // Not a speed claim: the bomb must not stall the validation past its runs' limits (7 runs of at
    // most 8 s, two at a time, plus start-up). 57 s was seen at a loaded CI; the CLI's outer bound is 150 s.
    expect(result.durationMs).toBeLessThan(120_000);

    // The host can still start processes, one after another, promptly.
    const started = Date.now();
    for (let i = 0; i < 50; i++) {
      const child = spawnSync('true', [], { timeout: 5_000 });
      expect(child.error).toBeUndefined();
      expect(child.status).toBe(0);
    }
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 60_000);

  it('a memory bomb is contained by the memory limit: never passed, nothing left', async () => {
    const result = await validateCandidate(where, { diff: hostileDiff('memory-bomb'), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 8 });
    expectContainedAndNeverPassed(result);
    // Not a speed claim: the bomb must not stall the validation past its runs' limits (7 runs of at
    // most 8 s, two at a time, plus start-up). 57 s was seen at a loaded CI; the CLI's outer bound is 150 s.
    expect(result.durationMs).toBeLessThan(120_000);
  }, 60_000);
});
