import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, fixture, readJson, tempDir, type CliResult } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { sealReceipt, serializeReceipt, verifyReceiptText, type ReceiptCheck } from '../../src/core/receipt.js';
import { countTests } from '../../src/core/test-results.js';
import type { Receipt } from '../../src/core/receipt-schema.js';

/**
 * Issue 12, defect 3: a pack with `reproduction.expected_failing` names the reproduction tests that
 * must fail on the base; the others may pass. A real validation of such a pack (js-duration, the
 * trusted-local runner, the CLI's sources run in process) passes, and its receipt must verify. A
 * receipt re-sealed with an expectation flipped must still read INVALID.
 */

const js = fixture('js-duration');
const ORIGINALS = join(ROOT, 'witness-packs', 'js-duration', 'oracle', 'original');
const FILE = '.patchproof/reproduction/millisecond-unit.test.js';
/** The two tests of the bug report, which fail on the base. */
const FAILING = [`${FILE} > parses "250ms" as 250 milliseconds`, `${FILE} > resolves a connect timeout given in milliseconds`];
/** A reproduction test that passes on the base as well: it is not expected to fail. */
const CONTROL = `${FILE} > parses "1h30m" as before`;

const cli = async (args: string[]): Promise<CliResult> => runCliInProcess(args);

describe('a pack with expected_failing, validated for real', () => {
  let tmp: string;
  let receiptText: string;
  let receipt: Receipt;
  let validated: CliResult;

  beforeAll(async () => {
    tmp = await tempDir('expected-failing');
    const pack = join(tmp, 'pack');
    await mkdir(join(pack, 'reproduction'), { recursive: true });
    await cp(join(ORIGINALS, 'hidden'), join(pack, 'hidden'), { recursive: true });
    const reproduction = await readFile(join(ORIGINALS, 'reproduction', 'millisecond-unit.test.js'), 'utf8');
    await writeFile(
      join(pack, 'reproduction', 'millisecond-unit.test.js'),
      `${reproduction}\ntest('parses "1h30m" as before', () => {\n  assert.equal(parseDuration('1h30m'), 5400000);\n});\n`
    );
    const manifest = JSON.parse(await readFile(join(ROOT, 'witness-packs', 'js-duration', 'witness.json'), 'utf8')) as Record<string, unknown> & {
      reproduction: Record<string, unknown>;
    };
    delete manifest.oracle;
    manifest.reproduction.expected_failing = FAILING;
    await writeFile(join(pack, 'witness.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const digest = await cli(['witness', 'digest', pack]);
    expect(digest.stderr).toBe('');
    const proposalPath = join(tmp, 'proposal.json');
    const approvalPath = join(tmp, 'approval.json');
    expect((await cli(['propose', '--repo', js.repo, '--diff', js.candidate('fix'), '--out', proposalPath])).status).toBe(0);
    const { proposal_hash } = await readJson<{ proposal_hash: string }>(proposalPath);
    expect(
      (await cli(['approve', '--proposal', proposalPath, '--proposal-hash', proposal_hash, '--approved-by', 'reviewer', '--run-id', 'ef-1', '--out', approvalPath])).status
    ).toBe(0);
    const out = join(tmp, 'out');
    validated = await cli([
      'validate',
      '--repo',
      js.repo,
      '--proposal',
      proposalPath,
      '--approval',
      approvalPath,
      '--witness',
      pack,
      '--witness-digest',
      digest.stdout.trim(),
      '--runner',
      'local',
      '--out',
      out
    ]);
    receiptText = await readFile(join(out, 'receipt.json'), 'utf8');
    receipt = JSON.parse(receiptText) as Receipt;
  }, 120_000);

  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('passes, with the control test passing before the patch', () => {
    expect([validated.status, receipt.verdict, receipt.reasons]).toEqual([0, 'passed', []]);
    expect(receipt.witness.expected_failing).toEqual(FAILING);
    const before = receipt.phases.find((p) => p.name === 'reproduction_before')!;
    expect(before.results.map((t) => [t.id, t.status]).sort()).toEqual([...FAILING.map((id) => [id, 'failed']), [CONTROL, 'passed']].sort());
  });

  it('verifies offline', async () => {
    expect(verifyReceiptText(receiptText)).toMatchObject({ integrity_valid: true, verdict: 'passed', errors: [] });
    const verify = await cli(['verify-receipt', join(tmp, 'out', 'receipt.json')]);
    expect([verify.status, (JSON.parse(verify.stdout) as ReceiptCheck).integrity_valid]).toEqual([0, true]);
  });

  /** Edit the receipt's body and re-seal it, as a forger who knows the format would. */
  const resealed = (edit: (r: Receipt) => void): string => {
    const copy = structuredClone(receipt);
    edit(copy);
    const { receipt_digest: _, ...body } = copy;
    return serializeReceipt(sealReceipt(body));
  };
  const before = (r: Receipt) => r.phases.find((p) => p.name === 'reproduction_before')!;

  it('is INVALID when the expectation is dropped, so the passing control would have had to fail', () => {
    const check = verifyReceiptText(
      resealed((r) => {
        delete r.witness.expected_failing;
      })
    );
    expect(check.integrity_valid).toBe(false);
    expect(check.errors).toContain('phase reproduction_before: passed but not every test failed for the right reason');
  });

  it('is INVALID when the expectation is flipped onto the passing control', () => {
    const check = verifyReceiptText(resealed((r) => void (r.witness.expected_failing = [FAILING[0]!, CONTROL])));
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(/phase reproduction_before: .*expected to fail/);
  });

  it('is INVALID when an expected-failing test is flipped to passed', () => {
    const check = verifyReceiptText(
      resealed((r) => {
        const phase = before(r);
        phase.results = phase.results.map((t) => (t.id === FAILING[1] ? { id: t.id, status: 'passed' } : t));
        const counts = countTests(phase.results);
        phase.tests = { passed: counts.passed, failed: counts.failed, errored: counts.errored, skipped: counts.skipped };
      })
    );
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(/phase reproduction_before: .*expected to fail/);
  });

  it('is INVALID when an expected-failing test is missing from the results', () => {
    const check = verifyReceiptText(
      resealed((r) => {
        const phase = before(r);
        phase.results = phase.results.filter((t) => t.id !== FAILING[0]);
        const counts = countTests(phase.results);
        phase.tests = { passed: counts.passed, failed: counts.failed, errored: counts.errored, skipped: counts.skipped };
      })
    );
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(/phase reproduction_before: .*expected to fail/);
  });

  it('is INVALID when the expectation is empty (nothing would have to fail)', () => {
    expect(verifyReceiptText(resealed((r) => void (r.witness.expected_failing = []))).errors).toContain('phase reproduction_before: passed with an empty expected_failing');
  });

  it('is INVALID when the expectation is edited without re-sealing', () => {
    const edited = receiptText.replace(JSON.stringify(FAILING[1]), JSON.stringify(CONTROL));
    expect(edited).not.toBe(receiptText);
    expect(verifyReceiptText(edited).errors).toContain('receipt_digest does not match the content');
  });
});
