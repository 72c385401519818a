import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { stageFormalFixture, validateFormalCandidate, type FormalTargetView } from './formal-e2e-support.js';
import { receiptSchema } from '../../src/core/receipt-schema.js';
import { sealReceipt, serializeReceipt } from '../../src/core/receipt.js';

/**
 * The formal gate on a Python target end to end through the CLI in the Docker runner:
 * fixtures/py-pages with witness-packs/py-pages (unittest adapter), whose page_count target is
 * `required` and whose spec is written in Python. Every candidate passes the tests it meets
 * (reproduction, suite, hidden); the gate alone tells them apart, and every receipt verifies offline.
 * - fix (-(-total // per_page)): proved, passed;
 * - plus-one (total // per_page + 1): a counterexample (total = 0, or an exact multiple), replayed
 *   as a generated Python test in the container, where it fails too: failed;
 * - ceil (math.ceil(total / per_page), a float): outside the subset, unknown, inconclusive.
 * And fixtures/py-ids (a bug only above 2**53), proved over Python's unbounded integers:
 * - fix (last + 1): proved, passed;
 * - int64 (saturates at 2**63 - 1): a counterexample recorded exactly as decimal text, replayed in
 *   the container with that exact int, where it fails: failed; verify-receipt refuses the receipt
 *   re-sealed with the value as a (lossy) JSON number.
 * With PATCHPROOF_TEST_CLI set, the CLI is that bundle (its wasm from tree-sitter/ beside it:
 * scripts/bundle-tree-sitter.mjs), run as a process; otherwise the sources, in this process.
 */

const gate = await dockerGate('formal gate (Python) end-to-end test');

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
    const where = await stageFormalFixture(cli, 'py-pages', tmp, gate.imageId);
    for (const c of CASES) {
      const { receipt, out } = await validateFormalCandidate(cli, { fixture: 'py-pages', candidate: c.candidate, label: `formal-py-${c.candidate}` }, where);
      expect([c.candidate, receipt.phases.map((p) => p.status)]).toEqual([c.candidate, ['passed', 'passed', 'passed', 'passed']]);
      expect([c.candidate, receipt.verdict, receipt.reasons, receipt.formal?.status]).toEqual([c.candidate, c.verdict, c.reasons, c.formal]);
      const target = receipt.formal!.targets[0]!;
      expect(target.name).toBe('page_count');
      c.check?.(target);
      const report = await readFile(join(out, 'report.md'), 'utf8');
      expect(report).toContain({ proved: 'PROVED', counterexample: 'COUNTEREXAMPLE', unknown: 'UNKNOWN' }[c.formal]!);
    }
  }, 1_800_000);

  it('proves and refutes over unbounded integers: the exact big counterexample replays and fails in the container', async () => {
    const where = await stageFormalFixture(cli, 'py-ids', tmp, gate.imageId);
    const fix = await validateFormalCandidate(cli, { fixture: 'py-ids', candidate: 'fix', label: 'formal-py-ids-fix' }, where);
    expect([fix.receipt.verdict, fix.receipt.formal?.status, fix.receipt.formal?.targets[0]?.scope.integers]).toEqual(['passed', 'proved', 'python-int']);
    const int64 = await validateFormalCandidate(cli, { fixture: 'py-ids', candidate: 'int64', label: 'formal-py-ids-int64' }, where);
    expect(int64.receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect([int64.receipt.verdict, int64.receipt.reasons, int64.receipt.formal?.status]).toEqual(['failed', ['formal_counterexample'], 'counterexample']);
    const t = int64.receipt.formal!.targets[0]!;
    expect(t.scope.integers).toBe('python-int');
    const last = t.counterexample!.inputs.last;
    expect(typeof last).toBe('string');
    expect(BigInt(last as string) >= 2n ** 63n - 1n).toBe(true);
    expect(t.replay).toMatchObject({ outcome: 'failed', exit_code: 1 });
    const report = await readFile(join(int64.out, 'report.md'), 'utf8');
    expect(report).toContain(`next_id(${String(last)}) returns ${String(last)}`);
    // A forged value: the exact text swapped for the nearest double, re-sealed: refused.
    const sealed = receiptSchema.parse(JSON.parse(await readFile(join(int64.out, 'receipt.json'), 'utf8')));
    const { receipt_digest: _digest, ...body } = sealed;
    const forgedTarget = { ...body.formal!.targets[0]!, counterexample: { ...body.formal!.targets[0]!.counterexample!, inputs: { last: Number(last) } } };
    const forgedPath = join(tmp, 'forged-receipt.json');
    await writeFile(forgedPath, serializeReceipt(sealReceipt({ ...body, formal: { ...body.formal!, targets: [forgedTarget] } })));
    const verify = await cli(['verify-receipt', forgedPath]);
    expect(verify.status).not.toBe(0);
    expect(verify.stdout + verify.stderr).toMatch(/formal\.targets\.0\.counterexample\.inputs/);
  }, 1_800_000);
});
