import { cp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, runCli, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { validateFormalCandidate } from './formal-e2e-support.js';

/**
 * The formal gate on a Python target end to end through the CLI in the Docker runner:
 * fixtures/py-pages with witness-packs/py-pages (unittest adapter), whose page_count target is
 * `required` and whose spec is written in Python. Every candidate passes the tests it meets
 * (reproduction, suite, hidden); the gate alone tells them apart, and every receipt verifies offline.
 * - fix (-(-total // per_page)): proved, passed;
 * - plus-one (total // per_page + 1): a counterexample (total = 0, or an exact multiple), replayed
 *   as a generated Python test in the container, where it fails too: failed;
 * - ceil (math.ceil(total / per_page), a float): outside the subset, unknown, inconclusive.
 * With PATCHPROOF_TEST_CLI set, the CLI is that bundle (its wasm from tree-sitter/ beside it:
 * scripts/bundle-tree-sitter.mjs), run as a process; otherwise the sources, in this process.
 */

const gate = await dockerGate('formal gate (Python) end-to-end test');

interface FormalTargetView {
  name: string;
  status: string;
  reason?: string;
  counterexample?: { inputs: Record<string, number>; result?: number; violated: string[] };
  replay?: { outcome: string; exit_code: number | null };
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
    candidate: 'plus-one',
    verdict: 'failed',
    reasons: ['formal_counterexample'],
    formal: 'counterexample',
    check: (t) => {
      const { total, per_page } = t.counterexample!.inputs as { total: number; per_page: number };
      // The model's result is what real Python computes, and it breaks ensures.
      expect(t.counterexample!.result).toBe(Math.floor(total / per_page) + 1);
      expect(total % per_page).toBe(0);
      expect(t.counterexample!.violated).toEqual(['ensures']);
      expect(t.replay).toMatchObject({ outcome: 'failed', exit_code: 1 });
    }
  },
  {
    candidate: 'ceil',
    verdict: 'inconclusive',
    reasons: ['formal_unknown'],
    formal: 'unknown',
    check: (t) => expect(t.reason).toMatch(/a call other than min, max, abs, len \(line 10\)/)
  }
];

gate.describeDocker('the formal gate on py-pages', () => {
  let tmp = '';
  beforeAll(async () => {
    gate.requireDocker();
    tmp = await tempDir('formal-py');
  });
  const cli = (args: string[]) => (process.env.PATCHPROOF_TEST_CLI !== undefined ? runCli(args, { tmp, timeoutMs: 900_000 }) : runCliInProcess(args));
  afterAll(async () => {
    if (tmp !== '') await rm(tmp, { recursive: true, force: true });
  });

  it('tells the Python candidates apart where the tests cannot', async () => {
    const repo = join(tmp, 'repo');
    const pack = join(tmp, 'pack');
    await cp(join(ROOT, 'fixtures', 'py-pages', 'repo'), repo, { recursive: true });
    await cp(join(ROOT, 'witness-packs', 'py-pages'), pack, { recursive: true });
    const digest = await cli(['witness', 'digest', pack]);
    expect([digest.status, digest.stderr]).toEqual([0, '']);
    for (const c of CASES) {
      const { receipt, out } = await validateFormalCandidate<ReceiptView>(
        cli,
        { fixture: 'py-pages', candidate: c.candidate, label: `formal-py-${c.candidate}` },
        { repo, pack, digest: digest.stdout.trim(), tmp, imageId: gate.imageId }
      );
      expect([c.candidate, receipt.phases.map((p) => p.status)]).toEqual([c.candidate, ['passed', 'passed', 'passed', 'passed']]);
      expect([c.candidate, receipt.verdict, receipt.reasons, receipt.formal?.status]).toEqual([c.candidate, c.verdict, c.reasons, c.formal]);
      const target = receipt.formal!.targets[0]!;
      expect(target.name).toBe('page_count');
      c.check?.(target);
      const report = await readFile(join(out, 'report.md'), 'utf8');
      expect(report).toContain({ proved: 'PROVED', counterexample: 'COUNTEREXAMPLE', unknown: 'UNKNOWN' }[c.formal]!);
    }
  }, 1_800_000);
});
