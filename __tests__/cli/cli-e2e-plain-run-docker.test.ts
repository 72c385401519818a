import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli } from '../helpers/cli.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * The grader does not change what the suite does (issue 28 item 6), end to end in the hardened
 * Docker runner with the bundled CLI: fixtures/jest-money's suite gains fixtures/plain-run's test
 * file, which holds in a plain `npx jest` run and fails when NO_COLOR is set, and exits the whole
 * jest process when process.argv carries an option (as a real CLI library's test file did). Its
 * tests must be in PASS_TO_PASS (passed on the base) and the fix must pass at proof grade.
 *
 * On wip/land2 (the adapter set NO_COLOR and jest's flags were in argv) the base suite's jest exited
 * at that file: the base run lost its canaries and the regression phase was inconclusive.
 */

const gate = await dockerGate('plain-run Docker end-to-end tests');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  phases: { name: string; status: string; reasons: string[]; baseline?: { results: { id: string; status: string }[] }; checks?: unknown[] }[];
}

describe('a suite graded as a plain run of it (jest)', () => {
  let fixture: StagedFixture;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    fixture = await stageFixture('plain-run-jest', { repo: join(ROOT, 'fixtures', 'jest-money', 'repo'), pack: join(ROOT, 'witness-packs', 'jest-money') });
    await copyFile(join(ROOT, 'fixtures', 'plain-run', 'plain-run.test.js'), join(fixture.repo, 'test', 'plain-run.test.js'));
  }, 60_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  gate.describeDocker('graded in Docker', () => {
    it('keeps the tests that read NO_COLOR, NODE_ENV and process.argv in PASS_TO_PASS, and passes the fix', async () => {
      const { receipt } = await validateInDocker<ReceiptView>(fixture, {
        diff: join(ROOT, 'fixtures', 'jest-money', 'candidates', 'fix.diff'),
        label: 'plain-run-fix',
        imageId: gate.imageId,
        timeoutSeconds: 180,
        timeoutMs: 900_000,
        setupCache: join(fixture.tmp, 'setup-cache')
      });
      const regression = receipt.phases.find((p) => p.name === 'regression');
      const plain = (regression?.baseline?.results ?? []).filter((t) => t.id.startsWith('test/plain-run.test.js > ')).map((t) => ({ id: t.id, status: t.status }));
      expect({ regression: [regression?.status, regression?.reasons, regression?.checks], plain }).toEqual({
        regression: ['passed', [], undefined],
        plain: [
          { id: 'test/plain-run.test.js > prints without colour codes only when the user asked for it', status: 'passed' },
          { id: 'test/plain-run.test.js > runs under NODE_ENV=test, as jest sets it', status: 'passed' },
          { id: 'test/plain-run.test.js > sees no option of the grader in argv', status: 'passed' }
        ]
      });
      expect(receipt).toMatchObject({ verdict: 'passed', reasons: [], proof_grade: true });
    }, 900_000);
  });
});
