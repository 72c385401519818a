import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { stageFixture, stagedFixtureHooks, validateInDocker } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';

/**
 * The early exit, end to end through the bundled CLI in the Docker runner: fixtures/js-duration
 * with upstream's fix already in the base, so the sealed reproduction passes before any patch and
 * the bug is not established. The candidate's runs (reproduction after, the patched suite, hidden)
 * are cancelled and recorded as `not_run`; the verdict is inconclusive (repro_passes_before: the pack's
 * fault, never the candidate's), never passed, and the receipt verifies offline.
 */

const gate = await dockerGate('not_run end-to-end test');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  phases: { name: string; status: string; reasons: string[]; runs: { label: string }[] }[];
  inventory: { test_ids: Record<string, string[]> };
}

gate.describeDocker('a base that already passes the reproduction', () => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());

  it('records the candidate phases as not_run and fails, without a pass', async () => {
    const fixture = hooks.track(await stageFixture('not-run', { repo: join(ROOT, 'fixtures', 'js-duration', 'repo'), pack: join(ROOT, 'witness-packs', 'js-duration') }));
    execFileSync('git', ['apply', join(ROOT, 'fixtures', 'js-duration', 'candidates', 'fix.diff')], { cwd: fixture.repo });
    const diff = join(fixture.tmp, 'readme.diff');
    await writeFile(diff, '--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-# tiny-duration\n+# tiny-duration (fixed)\n');
    const { status, receipt } = await validateInDocker<ReceiptView>(fixture, { diff, label: 'not-run', imageId: gate.imageId, timeoutSeconds: 180, timeoutMs: 900_000 });
    expect({ status, verdict: receipt.verdict, proof_grade: receipt.proof_grade }).toEqual({ status: 3, verdict: 'inconclusive', proof_grade: false });
    expect(receipt.reasons).toContain('repro_passes_before');
    expect(receipt.phases.map((p) => [p.name, p.status, p.reasons, p.runs.map((r) => r.label)])).toEqual([
      ['reproduction_before', 'inconclusive', expect.arrayContaining(['repro_passes_before']), ['reproduction_before', 'reproduction_before']],
      ['reproduction_after', 'not_run', [], []],
      ['regression', 'not_run', [], ['regression_before']],
      ['hidden', 'not_run', [], []]
    ]);
    // Nothing of the discarded runs reaches the receipt.
    expect([receipt.inventory.test_ids.reproduction_after, receipt.inventory.test_ids.regression_after, receipt.inventory.test_ids.hidden]).toEqual([[], [], []]);
  }, 900_000);
});
