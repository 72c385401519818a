import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { stageFixture, stagedFixtureHooks, validateInDocker } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';

/**
 * The formal gate end to end through the bundled CLI in the Docker runner (which also shows the
 * bundle loads Z3 from dist/z3): fixtures/js-pages with witness-packs/js-pages, whose pageCount
 * target is `required`. Every candidate passes the tests it meets (reproduction, suite, hidden);
 * the gate alone tells them apart, and every receipt verifies offline.
 * - fix: proved, passed;
 * - minus-one ((total - 1) / perPage + 1, a floor-division idiom that JS truncates): a
 *   counterexample (total = 0), failed;
 * - ceil (Math.ceil, correct but outside the subset): unknown, inconclusive;
 * - hostile-rebind-trunc: the fix, plus a changed file that rebinds Math.trunc for large values
 *   (the tests never reach them): without the rebinding check the gate would prove code that does
 *   not run; it is unknown, inconclusive.
 */

const gate = await dockerGate('formal gate end-to-end test');

interface FormalTargetView {
  name: string;
  status: string;
  reason?: string;
  counterexample?: { inputs: Record<string, unknown>; result?: unknown; violated: string[] };
  scope: { solver: string };
}

interface ReceiptView {
  verdict: string;
  reasons: string[];
  phases: { name: string; status: string }[];
  formal?: { status: string; targets: FormalTargetView[] };
}

const CASES: { candidate: string; verdict: string; reasons: string[]; formal: string; check?: (target: FormalTargetView) => void }[] = [
  { candidate: 'fix', verdict: 'passed', reasons: [], formal: 'proved', check: (t) => expect(t.scope.solver).toMatch(/^Z3 \d+\.\d+/) },
  {
    candidate: 'minus-one',
    verdict: 'failed',
    reasons: ['formal_counterexample'],
    formal: 'counterexample',
    check: (t) => expect(t.counterexample).toMatchObject({ inputs: { total: 0 }, result: 1, violated: ['ensures'] })
  },
  { candidate: 'ceil', verdict: 'inconclusive', reasons: ['formal_unknown'], formal: 'unknown', check: (t) => expect(t.reason).toMatch(/Math\.ceil/) },
  { candidate: 'hostile-rebind-trunc', verdict: 'inconclusive', reasons: ['formal_unknown'], formal: 'unknown', check: (t) => expect(t.reason).toMatch(/src\/compat\.js: a write to Math/) }
];

gate.describeDocker('the formal gate on js-pages', () => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());

  it('tells the candidates apart where the tests cannot', async () => {
    const fixture = hooks.track(await stageFixture('formal', { repo: join(ROOT, 'fixtures', 'js-pages', 'repo'), pack: join(ROOT, 'witness-packs', 'js-pages') }));
    for (const c of CASES) {
      const diff = join(ROOT, 'fixtures', 'js-pages', 'candidates', `${c.candidate}.diff`);
      const run = await validateInDocker<ReceiptView>(fixture, { diff, label: `formal-${c.candidate}`, imageId: gate.imageId, timeoutMs: 900_000 });
      // The tests pass for every candidate: only the formal gate decides.
      expect([c.candidate, run.receipt.phases.map((p) => p.status)]).toEqual([c.candidate, ['passed', 'passed', 'passed', 'passed']]);
      expect([c.candidate, run.receipt.verdict, run.receipt.reasons, run.receipt.formal?.status]).toEqual([c.candidate, c.verdict, c.reasons, c.formal]);
      const target = run.receipt.formal!.targets[0]!;
      expect(target.name).toBe('pageCount');
      c.check?.(target);
      const report = await readFile(join(run.out, 'report.md'), 'utf8');
      expect(report).toContain('## 形式化关卡 / Formal gate');
      expect(report).toContain({ proved: 'PROVED', counterexample: 'COUNTEREXAMPLE', unknown: 'UNKNOWN' }[c.formal]!);
      if (c.formal === 'counterexample') expect(report).toContain('pageCount(0, ');
    }
  }, 1_800_000);
});
