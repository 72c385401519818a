import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli, treeListing } from '../helpers/cli.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * The jest and vitest adapters end to end in the hardened Docker runner, with the witness pack's
 * dependency stage (`setup`: `npm ci` with network, node_modules mounted read-only into every test
 * run): fixtures/jest-money graded by witness-packs/jest-money and fixtures/vitest-chunk by
 * witness-packs/vitest-chunk, through the bundled CLI. The correct fix passes as proof grade, the
 * overfitting fix fails on the hidden tests, and a candidate whose code under test neutralises an
 * `expect` matcher is caught by the must-fail canary. Fixture and pack are copied out of the git work
 * tree first (inside it only tracked files would count).
 */

const gate = await dockerGate('jest/vitest Docker end-to-end tests');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  runner: { isolated: boolean };
  phases: { name: string; status: string; reasons: string[]; grading?: string }[];
}

const CASES: readonly { adapter: 'jest' | 'vitest'; name: string }[] = [
  { adapter: 'jest', name: 'jest-money' },
  { adapter: 'vitest', name: 'vitest-chunk' }
];

describe.each(CASES)('$adapter witness pack with a dependency stage in the Docker runner', ({ adapter, name }) => {
  let fixture: StagedFixture;
  let repo: string;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    fixture = await stageFixture(`${adapter}-docker`, { repo: join(ROOT, 'fixtures', name, 'repo'), pack: join(ROOT, 'witness-packs', name) });
    repo = fixture.repo;
  }, 60_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  // The candidates share one base, so `npm ci` runs once and the others reuse its outputs.
  async function validateCandidate(candidate: string): Promise<{ status: number | null; stderr: string; receipt: ReceiptView }> {
    return validateInDocker<ReceiptView>(fixture, {
      diff: join(ROOT, 'fixtures', name, 'candidates', `${candidate}.diff`),
      label: `${name}-${candidate}`,
      imageId: gate.imageId,
      timeoutSeconds: 180,
      timeoutMs: 900_000,
      setupCache: join(fixture.tmp, 'setup-cache')
    });
  }

  gate.describeDocker('graded in Docker', () => {
    it('passes the correct fix as proof grade, leaving the repository unchanged', async () => {
      const before = treeListing(repo);
      const { status, receipt } = await validateCandidate('fix');
      // The pack is sealed (witness seal; vitest's loop sites recorded with witness record): proof grade.
      expect(receipt).toMatchObject({ verdict: 'passed', reasons: [], proof_grade: true, adapter, runner: { isolated: true } });
      expect(receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
      expect(status).toBe(0);
      expect(treeListing(repo)).toEqual(before);
    }, 900_000);

    it('fails the overfitting fix on the hidden tests', async () => {
      const { status, receipt } = await validateCandidate('wrong-fix');
      expect(receipt).toMatchObject({ verdict: 'failed', reasons: ['hidden_failed'], proof_grade: false, adapter });
      expect(receipt.phases.find((p) => p.name === 'hidden')?.grading).toBe('sealed');
      expect(status).toBe(1);
    }, 900_000);

    it('catches code under test that neutralises an expect matcher: grader_compromised', async () => {
      const { status, receipt } = await validateCandidate('hostile-expect');
      expect(receipt.verdict).toBe('failed');
      expect(receipt.reasons).toContain('grader_compromised');
      expect(receipt.phases.find((p) => p.name === 'reproduction_after')?.reasons).toContain('grader_compromised');
      expect(status).toBe(1);
    }, 900_000);
  });
});
