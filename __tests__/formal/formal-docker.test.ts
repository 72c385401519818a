import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { stageFormalFixture, validateFormalCandidate, type FormalTargetView } from './formal-e2e-support.js';

/**
 * The formal gate end to end through the CLI (its sources, in this process: the committed bundle
 * is rebuilt at merge; `node dist/cli/index.js` was checked by hand, see docs/witness-pack.md) in the
 * Docker runner: fixtures/js-pages with witness-packs/js-pages, whose pageCount
 * target is `required`. Every candidate passes the tests it meets (reproduction, suite, hidden);
 * the gate alone tells them apart, and every receipt verifies offline.
 * - fix: proved, passed;
 * - minus-one ((total - 1) / perPage + 1, a floor-division idiom that JS truncates): a
 *   counterexample (total = 0), failed;
 * - ceil (Math.ceil, correct but outside the subset): unknown, inconclusive;
 * - hostile-rebind-trunc: the fix, plus a changed file that rebinds Math.trunc for large values
 *   (the tests never reach them): without the rebinding check the gate would prove code that does
 *   not run; it is unknown, inconclusive.
 * And fixtures/ts-pages (vitest, `npm ci` in the pack's setup stage) with the target in a `.ts` file:
 * Node 20 cannot import it, so the replay strips the types on the host (amaro) into the disposable
 * copy; minus-one's counterexample replays there and fails (before: unknown), fix is proved.
 */

const gate = await dockerGate('formal gate end-to-end test');

const CASES: { candidate: string; verdict: string; reasons: string[]; formal: string; check?: (target: FormalTargetView) => void }[] = [
  {
    candidate: 'fix',
    verdict: 'passed',
    reasons: [],
    formal: 'proved',
    check: (t) => {
      expect(t.scope.solver).toMatch(/^Z3 \d+\.\d+/);
      // The binding check ran in the container: the function the tests reach is the analysed one.
      expect(t.binding).toMatchObject({ outcome: 'bound', exit_code: 0 });
    }
  },
  {
    candidate: 'minus-one',
    verdict: 'failed',
    reasons: ['formal_counterexample'],
    formal: 'counterexample',
    // Replayed as a node:test test in the container: it fails there too, so the counterexample stands.
    check: (t) => {
      expect(t.counterexample).toMatchObject({ inputs: { total: 0 }, result: 1, violated: ['ensures'] });
      expect(t.replay).toMatchObject({ outcome: 'failed', exit_code: 1 });
    }
  },
  {
    // Hostile: minus-one's pageCount text, with a changed file that makes Math.trunc Math.floor, so
    // the code that runs is right where the solver's counterexample says it is wrong. The replay in
    // the container passes: unknown, never a counterexample the code does not have.
    candidate: 'hostile-floor-trunc',
    verdict: 'inconclusive',
    reasons: ['formal_unknown'],
    formal: 'unknown',
    check: (t) => {
      expect(t.counterexample).toBeUndefined();
      expect(t.replay).toMatchObject({ outcome: 'passed', exit_code: 0 });
      expect(t.reason).toMatch(/counterexample pageCount\(0, \d+\) does not replay: in the runner it returned 0 and ensures held/);
    }
  },
  { candidate: 'ceil', verdict: 'inconclusive', reasons: ['formal_unknown'], formal: 'unknown', check: (t) => expect(t.reason).toMatch(/Math\.ceil/) },
  {
    candidate: 'hostile-rebind-trunc',
    verdict: 'inconclusive',
    reasons: ['formal_unknown'],
    formal: 'unknown',
    check: (t) => expect(t.reason).toMatch(/src\/compat\.js: a write to Math/)
  }
];

gate.describeDocker('the formal gate on js-pages', () => {
  let tmp = '';
  beforeAll(async () => {
    gate.requireDocker();
    tmp = await tempDir('formal');
  });
  afterAll(async () => {
    if (tmp !== '') await rm(tmp, { recursive: true, force: true });
  });

  it('tells the candidates apart where the tests cannot', async () => {
    const where = await stageFormalFixture(runCliInProcess, 'js-pages', tmp, gate.imageId);
    for (const c of CASES) {
      const { receipt, out } = await validateFormalCandidate(runCliInProcess, { fixture: 'js-pages', candidate: c.candidate, label: `formal-${c.candidate}` }, where);
      // The tests pass for every candidate: only the formal gate decides.
      expect([c.candidate, receipt.phases.map((p) => p.status)]).toEqual([c.candidate, ['passed', 'passed', 'passed', 'passed']]);
      expect([c.candidate, receipt.verdict, receipt.reasons, receipt.formal?.status]).toEqual([c.candidate, c.verdict, c.reasons, c.formal]);
      const target = receipt.formal!.targets[0]!;
      expect(target.name).toBe('pageCount');
      c.check?.(target);
      const report = await readFile(join(out, 'report.md'), 'utf8');
      expect(report).toContain('## 形式化关卡 / Formal gate');
      expect(report).toContain({ proved: 'PROVED', counterexample: 'COUNTEREXAMPLE', unknown: 'UNKNOWN' }[c.formal]!);
      if (c.formal === 'counterexample') expect(report).toContain('pageCount(0, ');
    }
  }, 1_800_000);

  it("replays a TypeScript target's counterexample on Node 20, its types stripped on the host", async () => {
    const where = await stageFormalFixture(runCliInProcess, 'ts-pages', tmp, gate.imageId);
    const minus = await validateFormalCandidate(runCliInProcess, { fixture: 'ts-pages', candidate: 'minus-one', label: 'formal-ts-minus-one' }, where);
    expect(minus.receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    const t = minus.receipt.formal!.targets[0]!;
    expect([minus.receipt.verdict, minus.receipt.reasons, minus.receipt.formal?.status, t.reason]).toEqual(['failed', ['formal_counterexample'], 'counterexample', undefined]);
    expect(t.counterexample).toMatchObject({ inputs: { total: 0 }, result: 1, violated: ['ensures'] });
    expect(t.replay).toMatchObject({ outcome: 'failed', exit_code: 1 });
    const fix = await validateFormalCandidate(runCliInProcess, { fixture: 'ts-pages', candidate: 'fix', label: 'formal-ts-fix' }, where);
    expect([fix.receipt.verdict, fix.receipt.formal?.status, fix.receipt.formal?.targets[0]?.binding?.outcome]).toEqual(['passed', 'proved', 'bound']);
  }, 1_800_000);
});
