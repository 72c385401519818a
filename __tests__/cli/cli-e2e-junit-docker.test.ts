import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli, treeListing } from '../helpers/cli.js';
import { HIDDEN_MARKER } from '../../src/core/hidden-ids.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * The generic junit adapter end to end in the hardened Docker runner: the junit-semver fixture
 * (node's built-in test runner writing JUnit XML) graded by the witness pack
 * witness-packs/junit-semver, whose witness.json gives the command, the report and the canary
 * tests, through the bundled CLI. The repository and the pack are copied out of this git work tree
 * first, so they are digested as they are on disk. The pack is sealed by hand in the generic
 * observation form (its tests call the observer PatchProof stages beside them; docs/witness-pack.md):
 * reproduction and hidden are graded on the host against oracle/expected.json.
 */

const gate = await dockerGate('junit Docker end-to-end tests');
const FIXTURE = join(ROOT, 'fixtures', 'junit-semver');
const PACK = join(ROOT, 'witness-packs', 'junit-semver');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  runner: { isolated: boolean };
  phases: {
    name: string;
    status: string;
    reasons: string[];
    grading: string;
    runs: { argv: string[]; canary: { pass: string; fail: string }; oracle?: { cases: number; observed: number; matched: number } }[];
  }[];
}

gate.describeDocker('junit witness pack in the Docker runner', () => {
  let fixture: StagedFixture;
  let repo: string;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    fixture = await stageFixture('junit-docker', { repo: join(FIXTURE, 'repo'), pack: PACK });
    repo = fixture.repo;
  }, 60_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  async function validateCandidate(candidate: string): Promise<{ status: number | null; stderr: string; receipt: ReceiptView }> {
    return validateInDocker<ReceiptView>(fixture, {
      diff: join(FIXTURE, 'candidates', `${candidate}.diff`),
      label: `junit-${candidate}`,
      imageId: gate.imageId,
      timeoutSeconds: 60,
      timeoutMs: 150_000
    });
  }

  it('passes the correct fix as proof grade, running the pack argv with its canaries', async () => {
    const before = treeListing(repo);
    const { status, receipt } = await validateCandidate('fix');
    expect(status).toBe(0);
    expect(receipt).toMatchObject({ verdict: 'passed', reasons: [], proof_grade: true, adapter: 'junit', runner: { isolated: true } });
    expect(receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(receipt.phases.map((p) => p.grading)).toEqual(['sealed', 'sealed', 'in_process', 'sealed']);
    const hidden = receipt.phases.find((p) => p.name === 'hidden');
    const after = receipt.phases.find((p) => p.name === 'reproduction_after');
    // Receipt v2: the hidden runs' argv (it names the hidden files) is redacted; the public runs show the pack argv.
    expect(after?.runs[0]?.argv).toEqual(expect.arrayContaining(['node', '--test', '--test-reporter=junit', '.patchproof/harness/canary/grader.test.js']));
    expect(hidden?.runs[0]?.argv).toEqual([HIDDEN_MARKER]);
    expect(hidden?.runs[0]?.canary).toMatchObject({ pass: 'passed', fail: 'failed' });
    expect(hidden?.runs[0]?.oracle).toMatchObject({ cases: 6, observed: 6, matched: 6 });
    expect(treeListing(repo)).toEqual(before);
  }, 200_000);

  it('fails the wrong fix on the hidden tests', async () => {
    const { status, receipt } = await validateCandidate('wrong-fix');
    expect(status).toBe(1);
    expect(receipt).toMatchObject({ verdict: 'failed', reasons: ['hidden_failed'], proof_grade: false, adapter: 'junit' });
    expect(receipt.phases.find((p) => p.name === 'reproduction_after')?.status).toBe('passed');
    // Three-digit parts and latest() are still wrong: 3 of the 6 hidden cases do not match.
    expect(receipt.phases.find((p) => p.name === 'hidden')?.runs[0]?.oracle).toMatchObject({ cases: 6, observed: 6, matched: 3 });
  }, 200_000);

  it('catches code that makes every assertion pass with the pack canary: grader_compromised', async () => {
    const { status, receipt } = await validateCandidate('sabotage-assert');
    expect(status).toBe(1);
    expect(receipt.verdict).toBe('failed');
    expect(receipt.reasons).toContain('grader_compromised');
    for (const name of ['reproduction_after', 'hidden']) {
      const phase = receipt.phases.find((p) => p.name === name);
      expect(phase?.reasons).toContain('grader_compromised');
      expect(phase?.runs[0]?.canary).toMatchObject({ pass: 'passed', fail: 'passed' });
      // Sealed, the disarmed assertions buy nothing: the bug's values still do not match.
      const oracle = phase?.runs[0]?.oracle;
      expect(oracle !== undefined && oracle.observed === oracle.cases && oracle.matched < oracle.cases).toBe(true);
    }
  }, 200_000);
});
