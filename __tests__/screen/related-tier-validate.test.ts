import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, fixture } from '../helpers/cli.js';
import { witnessAdapter } from '../../src/adapters/registry.js';
import { approveProposal, createProposal } from '../../src/core/proposal.js';
import { verifyReceiptText, serializeReceipt } from '../../src/core/receipt.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { createLocalRunner } from '../../src/runners/local-runner.js';
import { validateWithDetail } from '../../src/phases/validate.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { resolveWitness } from '../../src/fetch/witness/fetch.js';
import { TOOL_VERSION } from '../../src/version.js';

/**
 * L3's related tier wired into validate --early-exit, with real node:test runs on the host (the
 * trusted-local runner; the hardened Docker case is __tests__/cli/screen-docker.test.ts): the
 * regressing candidate is stopped by the suite files that import src/duration.js, and the full
 * suite is never started; the fix passes the tier and the full suite still runs and decides.
 */

async function validateCandidate(candidate: string, name: 'js-duration' | 'py-calculator' = 'js-duration'): Promise<{ text: string; labels: string[] }> {
  const js = fixture(name);
  const pack = join(ROOT, 'witness-packs', name);
  const witness = await resolveWitness(pack, (await digestWitnessFolder(pack)).digest);
  const runner = createLocalRunner();
  const labels: string[] = [];
  const recording = { ...runner, run: async (...args: Parameters<typeof runner.run>) => (labels.push(args[0].label), runner.run(...args)) };
  try {
    const snapshot = await takeSnapshot(js.repo);
    const diff = await readFile(join(ROOT, 'fixtures', name, 'candidates', candidate), 'utf8');
    const proposal = createProposal(diff, snapshot.digest, TOOL_VERSION);
    const approval = approveProposal(proposal, proposal.proposal_hash, 'related-tier', 'reviewer', TOOL_VERSION);
    const { receipt } = await validateWithDetail(
      {
        repoDir: js.repo,
        proposal,
        approval,
        witness,
        adapter: await witnessAdapter(witness.manifest, witness.dir),
        runner: recording,
        limits: { timeoutMs: 120_000, outputLimitBytes: 4 * 1024 * 1024, diff: { maxBytes: 1024 * 1024, maxFiles: 200 } },
        concurrency: 1,
        earlyExit: true
      },
      { snapshot: takeSnapshot, now: () => new Date(), log: () => undefined, nonce: () => randomBytes(16).toString('hex') }
    );
    return { text: serializeReceipt(receipt), labels };
  } finally {
    await runner.dispose();
    await witness.dispose();
  }
}

it('stops the regressing candidate at the related tier; the full suite is never started', async () => {
  const { text, labels } = await validateCandidate('regressing.diff');
  const receipt = JSON.parse(text) as import('../../src/core/receipt-schema.js').Receipt;
  expect(verifyReceiptText(text).errors).toEqual([]);
  expect(receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'failed', 'not_run']);
  expect(receipt.gates!.related).toEqual({
    status: 'failed',
    files: ['test/duration.test.js', 'test/format.test.js'],
    regressions: ['test/duration.test.js > allows whitespace between the parts']
  });
  expect(receipt.verdict).toBe('failed');
  expect(receipt.reasons).toContain('regression');
  // The tier was re-run once (regression.retries), and neither the full suite nor the hidden tests ran.
  expect(labels.filter((l) => l.startsWith('regression_related'))).toEqual(['regression_related-1', 'regression_related-2']);
  expect(labels.some((l) => l.startsWith('regression_after') || l.startsWith('hidden'))).toBe(false);
}, 300_000);

it('lets the fix pass the tier; the full suite still runs and decides the pass', async () => {
  const { text, labels } = await validateCandidate('fix.diff');
  const receipt = JSON.parse(text) as import('../../src/core/receipt-schema.js').Receipt;
  expect(verifyReceiptText(text).errors).toEqual([]);
  expect(receipt.gates!.related).toEqual({ status: 'passed', files: ['test/duration.test.js', 'test/format.test.js'], regressions: [] });
  expect(labels.filter((l) => l.startsWith('regression_'))).toEqual(['regression_before-1', 'regression_related-1', 'regression_after-1']);
  expect(receipt.phases[2]!.tests.passed).toBe(15);
}, 300_000);

it("Python (unittest, the host's ast): py-calculator's regressing candidate is stopped by tests/test_calculator.py, the one suite file importing calculator.py", async () => {
  const { text, labels } = await validateCandidate('regressing.diff', 'py-calculator');
  const receipt = JSON.parse(text) as import('../../src/core/receipt-schema.js').Receipt;
  expect(verifyReceiptText(text).errors).toEqual([]);
  expect(receipt.gates!.related).toMatchObject({ status: 'failed', files: ['tests/test_calculator.py'] });
  expect(receipt.gates!.related!.regressions).toEqual([expect.stringContaining('test_power_is_right_associative')]);
  expect(receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'failed', 'not_run']);
  expect(labels.some((l) => l.startsWith('regression_after') || l.startsWith('hidden'))).toBe(false);
}, 300_000);
