import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli } from '../helpers/cli.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * A project locked to vitest 3.0 (vite 6.0) with a TypeScript config (`vitest.config.mts`), its
 * dependencies installed by the pack's setup stage and mounted read-only, graded in the hardened
 * Docker runner through the bundled CLI (fixtures/vitest30-chunk, witness-packs/vitest30-chunk).
 * vitest 3.0 ignores `configLoader: 'runner'`, so vite bundles the config into
 * `node_modules/.vite-temp`, read-only: without the harness's own config loading every phase stops
 * with "failed to load config" and even the correct fix is not passed. The config sets `root` from
 * its own `import.meta.url`, so a config loaded from anywhere but its real place finds no tests.
 */

const gate = await dockerGate('vitest 3.0 Docker end-to-end tests');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  phases: { name: string; status: string; reasons: string[] }[];
}

describe('a vitest 3.0 project with a TypeScript config in the Docker runner', () => {
  let fixture: StagedFixture;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    fixture = await stageFixture('vitest30-docker', {
      repo: join(ROOT, 'fixtures', 'vitest30-chunk', 'repo'),
      pack: join(ROOT, 'witness-packs', 'vitest30-chunk')
    });
  }, 60_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  async function validateCandidate(candidate: string): Promise<{ status: number | null; stdout: string; receipt: ReceiptView }> {
    return validateInDocker<ReceiptView>(fixture, {
      diff: join(ROOT, 'fixtures', 'vitest30-chunk', 'candidates', `${candidate}.diff`),
      label: `vitest30-${candidate}`,
      imageId: gate.imageId,
      timeoutSeconds: 180,
      timeoutMs: 900_000,
      setupCache: join(fixture.tmp, 'setup-cache')
    });
  }

  gate.describeDocker('graded in Docker', () => {
    it('loads the config and passes the correct fix as proof grade', async () => {
      const { status, stdout, receipt } = await validateCandidate('fix');
      expect({ verdict: receipt.verdict, reasons: receipt.reasons, stdout: receipt.verdict === 'passed' ? '' : stdout }).toEqual({ verdict: 'passed', reasons: [], stdout: '' });
      // The pack is sealed (its loop sites recorded from the fix with witness record): proof grade.
      expect(receipt).toMatchObject({ proof_grade: true, adapter: 'vitest' });
      expect(receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
      expect(status).toBe(0);
    }, 900_000);

    it('fails the overfitting fix on the hidden tests', async () => {
      const { status, receipt } = await validateCandidate('wrong-fix');
      expect(receipt).toMatchObject({ verdict: 'failed', reasons: ['hidden_failed'], proof_grade: false });
      expect(status).toBe(1);
    }, 900_000);
  });
});
