import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ROOT, ensureCli, fixture as fixtureOf, runCli, tempDir } from '../helpers/cli.js';
import { packDigest, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate, recordPytestCalculatorFix } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * Issue 28 items 4 and 7, end to end through the bundled CLI in the hardened Docker runner, with
 * packs made by the documented commands only (`witness init`, `witness seal`, `witness record`):
 * - pytest (py-calculator): a reproduction test whose first assertion already holds on the base, as
 *   upstream's tests do. Sealed per site it "passed before" and the real fix was inconclusive
 *   (repro_passes_before); judged per test the fix passes with proof grade, and a fix that does not
 *   cure the bug is not fixed.
 * - jest (jest-money): the ids `witness init` pins stay valid after `seal` and `record` (they were
 *   test_ids_mismatch), with a reproduction whose first assertions hold on the base too.
 */

const gate = await dockerGate('per-test reproduction Docker end-to-end tests');
const py = fixtureOf('py-calculator');
const PY_HIDDEN = join(ROOT, 'witness-packs', 'py-calculator', 'oracle', 'original', 'hidden');
const JEST = join(ROOT, 'fixtures', 'jest-money');
const JEST_HIDDEN = join(ROOT, 'witness-packs', 'jest-money', 'oracle', 'original', 'hidden');

const PY_REPRODUCTION = [
  'from calculator import evaluate',
  '',
  '',
  'class TestChainedSubtraction:',
  '    def test_subtractions_are_applied_left_to_right(self):',
  '        # Holds on the base already: one subtraction was never wrong.',
  '        assert evaluate("10 - 4") == 6',
  '        assert evaluate("10 - 4 - 3") == 3',
  ''
].join('\n');

const JEST_REPRODUCTION = [
  "const { formatCents, formatMoney } = require('../../src/money');",
  '',
  "const TEN_OH_FIVE = ['10', '05'].join('.');",
  '',
  "describe('cents below ten', () => {",
  "  test('formatCents pads them to two digits', () => {",
  '    // Holds on the base already: two-digit cents were never wrong.',
  "    expect(formatCents(1234)).toBe('12.34');",
  "    expect(formatCents(5)).toBe('0.05');",
  '  });',
  '',
  "  test('formatMoney pads them after the symbol', () => {",
  "    expect(formatMoney(1000, '€')).toBe('€10.00');",
  '    // Not a literal: witness record takes its value from the reference fix.',
  '    expect(formatCents(1005)).toBe(TEN_OH_FIVE);',
  '  });',
  '});',
  ''
].join('\n');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  witness: { pinned_ids?: { reproduction?: string[] } };
  phases: { name: string; status: string; reasons: string[]; grading?: string; results: { id: string; status: string }[]; sealed_tests?: { id: string; results: string[] }[] }[];
}

/** A pack made with the documented commands: init from the given folders, then seal. */
async function initAndSeal(tmp: string, adapter: string, reproduction: string, hidden: string): Promise<{ pack: string; initOut: string; sealOut: string }> {
  const pack = join(tmp, `${adapter}-pack`);
  const init = await runCli(['witness', 'init', pack, '--adapter', adapter, '--reproduction', reproduction, '--hidden', hidden], { tmp });
  expect({ status: init.status, stderr: init.stderr }).toMatchObject({ status: 0 });
  const seal = await runCli(['witness', 'seal', pack], { tmp });
  expect({ status: seal.status, stderr: seal.stderr }).toMatchObject({ status: 0 });
  return { pack, initOut: init.stdout, sealOut: seal.stdout };
}

gate.describeDocker('a sealed reproduction is judged per test', () => {
  let fixture: StagedFixture;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    const tmp = await tempDir('per-test-py');
    const reproduction = join(tmp, 'reproduction');
    await mkdir(reproduction, { recursive: true });
    await writeFile(join(reproduction, 'test_chained_subtraction.py'), PY_REPRODUCTION);
    const { pack } = await initAndSeal(tmp, 'pytest', reproduction, PY_HIDDEN);
    // The hidden assertRaisesRegex site's exact exception type comes from the fix.
    fixture = await recordPytestCalculatorFix({ tmp, repo: py.repo, pack }, gate.imageId, 1);
  }, 180_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  it('the sealed oracle names the test of both sites', async () => {
    const oracle = JSON.parse(await readFile(join(fixture.pack, 'oracle', 'expected.json'), 'utf8')) as { cases: { phase: string; test?: string }[] };
    const tests = oracle.cases.filter((c) => c.phase === 'reproduction').map((c) => c.test);
    expect(tests).toEqual([
      '.patchproof/reproduction/test_chained_subtraction.py::TestChainedSubtraction::test_subtractions_are_applied_left_to_right',
      '.patchproof/reproduction/test_chained_subtraction.py::TestChainedSubtraction::test_subtractions_are_applied_left_to_right'
    ]);
  });

  it('passes the real fix with proof grade; the receipt lists both sites and their test', async () => {
    const { status, receipt } = await validateInDocker<ReceiptView>(fixture, {
      diff: py.candidate('fix'),
      label: 'per-test-fix',
      imageId: gate.imageId,
      timeoutSeconds: 60,
      timeoutMs: 240_000
    });
    expect({ verdict: receipt.verdict, reasons: receipt.reasons, proof_grade: receipt.proof_grade, status }).toEqual({
      verdict: 'passed',
      reasons: [],
      proof_grade: true,
      status: 0
    });
    const before = receipt.phases.find((p) => p.name === 'reproduction_before')!;
    expect(before.grading).toBe('sealed');
    // One site held on the base, the other did not: every site is listed, the test failed.
    expect(before.results.map((r) => r.status).sort()).toEqual(['failed', 'passed']);
    expect(before.sealed_tests).toHaveLength(1);
  }, 300_000);

  it('a candidate that does not cure the bug is not fixed', async () => {
    const { status, receipt } = await validateInDocker<ReceiptView>(fixture, {
      diff: py.candidate('not-fixed'),
      label: 'per-test-not-fixed',
      imageId: gate.imageId,
      timeoutSeconds: 60,
      timeoutMs: 240_000
    });
    expect(status).toBe(1);
    expect(receipt.verdict).toBe('failed');
    expect(receipt.reasons).toContain('not_fixed');
  }, 300_000);
});

gate.describeDocker('pins that survive sealing', () => {
  let fixture: StagedFixture;
  let pinned: string[];
  let recordOut: string;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    const tmp = await tempDir('per-test-jest');
    const reproduction = join(tmp, 'reproduction');
    await mkdir(reproduction, { recursive: true });
    await writeFile(join(reproduction, 'money-repro.test.js'), JEST_REPRODUCTION);
    const { pack } = await initAndSeal(tmp, 'jest', reproduction, JEST_HIDDEN);
    // jest-money installs jest in a dependency stage: the committed pack's, unchanged.
    const manifest = JSON.parse(await readFile(join(pack, 'witness.json'), 'utf8')) as Record<string, unknown>;
    const committed = JSON.parse(await readFile(join(ROOT, 'witness-packs', 'jest-money', 'witness.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(pack, 'witness.json'), `${JSON.stringify({ ...manifest, setup: committed.setup, limits: committed.limits }, null, 2)}\n`);
    pinned = (manifest.reproduction as { ids: string[] }).ids;
    const repo = join(tmp, 'repo');
    await cp(join(JEST, 'repo'), repo, { recursive: true });
    const record = await runCli(
      ['witness', 'record', pack, '--reference', join(JEST, 'candidates', 'fix.diff'), '--repo', repo, '--runner', 'docker', '--image', gate.imageId, '--timeout', '180'],
      { tmp, timeoutMs: 900_000 }
    );
    recordOut = `${record.stdout}\n${record.stderr}`;
    if (record.status !== 0) throw new Error(`witness record refused the pack (exit ${String(record.status)}):\n${recordOut}`);
    fixture = { tmp, repo, pack, digest: await packDigest(pack, tmp) };
  }, 1_200_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  it('init pinned the two tests, and seal and record kept them', async () => {
    expect(pinned).toEqual([
      '.patchproof/reproduction/money-repro.test.js > cents below ten > formatCents pads them to two digits',
      '.patchproof/reproduction/money-repro.test.js > cents below ten > formatMoney pads them after the symbol'
    ]);
    const manifest = JSON.parse(await readFile(join(fixture.pack, 'witness.json'), 'utf8')) as { reproduction: { ids: string[] } };
    expect(manifest.reproduction.ids).toEqual(pinned);
  });

  it('the real fix passes with proof grade, no test_ids_mismatch', async () => {
    const { status, receipt } = await validateInDocker<ReceiptView>(fixture, {
      diff: join(JEST, 'candidates', 'fix.diff'),
      label: 'pins-fix',
      imageId: gate.imageId,
      timeoutSeconds: 180,
      timeoutMs: 900_000,
      setupCache: join(fixture.tmp, 'setup-cache')
    });
    expect({ verdict: receipt.verdict, reasons: receipt.reasons, proof_grade: receipt.proof_grade, status }).toEqual({
      verdict: 'passed',
      reasons: [],
      proof_grade: true,
      status: 0
    });
    expect(receipt.witness.pinned_ids?.reproduction).toEqual(pinned);
  }, 900_000);
});
