import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { area, dockerGate, ensureCli, hostileDiff, validateCandidate, type Area } from './hostile-support.js';

/**
 * Results rewritten at exit, end to end in Docker (py-calculator, unittest, an overfit fix): an
 * `atexit` hook in the code under test rewrites the harness's results file after the harness
 * wrote it, every real failure turned into a pass with consistent tallies and the same exit code.
 * The harness streamed each test's outcome and sealed the file's digest on its stdout channel
 * before exiting; the host cross-checks them: grader_compromised.
 */

const gate = await dockerGate('hostile results-channel tests');

interface RunView {
  label: string;
  channel?: { frames: number; disagreements: string[]; after_end_bytes: number };
}

gate.describeDocker('the results channel', () => {
  let where: Area;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-channel');
  });

  afterEach(async () => {
    await where.dispose();
  });

  // Skipped after the merge of sealed oracles: py-calculator's pack is sealed now, and the sealed hidden
  // run does not record the channel's disagreement; the test must move to an in-process pack
  // (issue 11 is open for this).
  it.skip('unittest: results rewritten by an atexit hook disagree with the stream: grader_compromised', async () => {
    const result = await validateCandidate(where, { diff: hostileDiff('py-rewrite-at-exit'), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 60, fixture: 'py-calculator' });
    expect(result.receipt).not.toBeNull();
    expect(result.verify?.status).toBe(0);
    expect(result.receipt!.verdict).toBe('failed');
    const hidden = result.receipt!.phases.find((p) => p.name === 'hidden')!;
    expect(hidden.status).toBe('failed');
    // py-calculator's pack is sealed now (issue 11): the oracle fails the rewritten hidden run by
    // itself (hidden_failed); the channel's own finding is asserted on the run records below.
    expect(hidden.reasons.some((r) => r === 'grader_compromised' || r === 'hidden_failed')).toBe(true);
    const receipt = JSON.parse(readFileSync(join(where.dir, 'out', 'receipt.json'), 'utf8')) as { phases: { runs: RunView[] }[] };
    const runs = receipt.phases.flatMap((p) => p.runs);
    const base = runs.filter((r) => r.label === 'reproduction_before');
    // Base runs import the base code only: their stream agrees with their file.
    expect(base.length).toBeGreaterThan(0);
    for (const run of base) expect(run.channel?.disagreements).toEqual([]);
    const patched = runs.filter((r) => r.label === 'hidden');
    expect(patched.some((r) => r.channel?.disagreements.some((d) => /rewritten after the run/.test(d)))).toBe(true);
  }, 120_000);
});
