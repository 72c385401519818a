import { treeListing } from '../helpers/cli.js';
import { JS, PHASES, area, dockerGate, ensureCli, validateCandidate, type Area } from './hostile-support.js';

/**
 * The happy path the hostile tests are measured against: the fixture's correct fix, validated in
 * the hardened Docker runner, passes as proof grade and names the image it ran in; the same
 * candidate on the trusted-local runner passes too but is never proof grade.
 */

const gate = await dockerGate('proof-grade tests');

gate.describeDocker('proof grade of the correct fix', () => {
  let where: Area;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-proof');
  });

  afterEach(async () => {
    await where.dispose();
  });

  it('fix.diff in the Docker runner: exit 0, passed, proof grade, isolated, pinned image ID, nothing left', async () => {
    const before = treeListing(JS.repo);
    // An honest candidate ends in seconds; the time limit only bounds the test under heavy load.
    const result = await validateCandidate(where, { diff: JS.candidate('fix'), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 30 });
    expect(result.validation.status).toBe(0);
    expect(result.verify?.status).toBe(0);
    expect(JSON.parse(result.verify!.stdout)).toMatchObject({ integrity_valid: true, verdict: 'passed', proof_grade: true });
    const receipt = result.receipt!;
    expect(receipt.verdict).toBe('passed');
    expect(receipt.reasons).toEqual([]);
    expect(receipt.proof_grade).toBe(true);
    expect(receipt.runner.isolated).toBe(true);
    expect(receipt.runner.image_id).toBe(gate.imageId);
    expect(receipt.repository.unchanged).toBe(true);
    expect(receipt.phases.map((p) => [p.name, p.status, p.reasons])).toEqual(PHASES.map((name) => [name, 'passed', []]));
    expect(treeListing(JS.repo)).toEqual(before);
    expect(result.containersLeft).toEqual([]);
    expect(result.processesLeft).toEqual([]);
    expect(result.scratchLeft).toEqual([]);
  }, 60_000);

  it('fix.diff on the trusted-local runner: passed, but never proof grade', async () => {
    const result = await validateCandidate(where, { diff: JS.candidate('fix'), runner: 'local', timeoutSeconds: 30 });
    expect(result.validation.status).toBe(0);
    expect(result.verify?.status).toBe(0);
    expect(result.receipt!.verdict).toBe('passed');
    expect(result.receipt!.proof_grade).toBe(false);
    expect(result.receipt!.runner.isolated).toBe(false);
    expect(result.receipt!.runner.image_id).toBeUndefined();
    expect(result.scratchLeft).toEqual([]);
  }, 60_000);
});
