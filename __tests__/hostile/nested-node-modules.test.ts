import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { ROOT } from '../helpers/cli.js';
import { stageFixture, stagedFixtureHooks, validateInDocker } from '../helpers/docker-fixture.js';
import { dockerGate, hostileDiff } from './hostile-support.js';

/**
 * A nested `node_modules/` that stands in for a package the repository's own tests import by name
 * (docs/security.md, hostile matrix row d, note 2), end to end in Docker: the vitest-chai fixture
 * (vitest-chunk's code, its suite's pairs() tests asserting with `chai`, which the dependency
 * stage installs) with vitest-chunk's committed sealed pack. `vitest-nested-chai` is the correct
 * chunk() fix, a regression in pairs() (a single item gives `[[7, undefined]]`), and a
 * `test/node_modules/chai/` whose `assert.deepEqual` drops those half-empty pairs and is the real
 * chai otherwise. Checked by hand with plain vitest 3.2.7 on the host (npm ci of the fixture's
 * lockfile), no PatchProof: with the candidate the suite passes 7 of 7; with the nested folder
 * removed it fails the regression's test (1 of 7). By hand through PatchProof with the rule taken
 * out (a second bundle): every phase passed, canaries and mutant twins behaving; only the nested
 * package.json (dependency surface) still failed it, `dependency_changed`. With the rule (every `node_modules` folder in the tree is
 * importable surface: config) the folder is removed before any run: `grader_tampered`, and the
 * suite, now resolving the real chai from the dependency stage, fails the regression.
 */

const gate = await dockerGate('hostile nested node_modules (vitest-chai)');

interface ReceiptView {
  adapter: string;
  verdict: string;
  reasons: string[];
  surface: { findings: { path: string; change: string; categories: string[] }[]; removed: string[]; restored: string[] };
  phases: { name: string; status: string; results: { id: string; status: string }[] }[];
}

gate.describeDocker("vitest: a nested node_modules shadowing chai for the repository's own tests", () => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());

  it('is test surface (config): removed, grader_tampered, and the real chai fails the regression', async () => {
    const fixture = hooks.track(
      await stageFixture('nested-node-modules', { repo: join(ROOT, 'fixtures', 'vitest-chai', 'repo'), pack: join(ROOT, 'witness-packs', 'vitest-chunk') })
    );
    const { status, receipt } = await validateInDocker<ReceiptView>(fixture, {
      diff: hostileDiff('vitest-nested-chai'),
      label: 'nested-chai',
      imageId: gate.imageId,
      timeoutMs: 1_500_000,
      setupCache: join(fixture.tmp, 'setup-cache')
    });
    expect([receipt.adapter, status, receipt.verdict]).toEqual(['vitest', 1, 'failed']);
    expect(receipt.reasons).toContain('grader_tampered');
    for (const path of ['test/node_modules/chai/index.js', 'test/node_modules/chai/package.json']) {
      expect(receipt.surface.findings).toContainEqual(expect.objectContaining({ path, categories: expect.arrayContaining(['config']) }));
      expect(receipt.surface.removed).toContain(path);
    }
    // The fix itself is right: the staged tests pass.
    expect(receipt.phases.find((p) => p.name === 'reproduction_after')?.status).toBe('passed');
    expect(receipt.phases.find((p) => p.name === 'hidden')?.status).toBe('passed');
    // The suite ran under the real chai: the regression's own assertion failed, the rest passed.
    const regression = receipt.phases.find((p) => p.name === 'regression');
    expect(regression?.status).toBe('failed');
    const failed = (regression?.results ?? []).filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toEqual([expect.stringMatching(/pairs.*has no pairs for fewer than two items$/)]);
  }, 1_600_000);
});
