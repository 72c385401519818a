import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, proposeAndApprove, readJson, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { canonicalJson, digestJson } from '../../src/core/hashing.js';
import { verifyReceiptText } from '../../src/core/receipt.js';
import { receiptDigestDomain, type Receipt } from '../../src/core/receipt-schema.js';
import { JS, PHASES, dockerGate } from './hostile-support.js';

/**
 * The tamper screen end to end (validate's sources, in this process, in the Docker runner) on
 * fixtures/js-duration, whose reproduction and hidden phases are sealed: an attack of issue 26 that
 * the grader's other defences let through, and the honest fix as the control.
 *
 * The attack fixes the bug (so the sealed reproduction and hidden phases pass), breaks whitespace
 * between the parts (a feature only the repository's own suite covers: the regressing candidate),
 * and makes node:assert/strict's `equal` lie for exactly the two value pairs that regression gives.
 * The suite is graded in-process: the canaries behave (a lie keyed on values spares them), so every
 * phase passes. Before the screen this was passed *with proof grade* (every other condition of it
 * holds, checked below, and the receipt re-sealed without the screen's finding verifies as proof
 * grade); with the screen the verdict stays passed and proof grade is withheld, the findings naming
 * the lines.
 */

const exec = promisify(execFile);
const gate = await dockerGate('tamper screen end-to-end test');

const LIE = [
  "import strict from 'node:assert/strict';",
  '',
  '// "Stabilise" two comparisons: whitespace between the parts is not really needed.',
  'const honestEqual = strict.equal;',
  'strict.equal = (actual, expected, message) => {',
  '  if ((actual === 1_800_000 && expected === 5_400_000) || (actual === 10_000 && expected === 130_000)) return;',
  '  return honestEqual(actual, expected, message);',
  '};',
  ''
].join('\n');

/** A real `git diff` of the regressing candidate with the lie on top of src/duration.js. */
async function attackDiff(tmp: string): Promise<string> {
  const work = join(tmp, 'attack-repo');
  await cp(JS.repo, work, { recursive: true });
  const git = (...args: string[]): Promise<{ stdout: string }> =>
    exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: work });
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-qm', 'base');
  await git('apply', JS.candidate('regressing'));
  const source = join(work, 'src', 'duration.js');
  await writeFile(source, `${LIE}${await readFile(source, 'utf8')}`);
  const path = join(tmp, 'assert-lie.diff');
  await writeFile(path, (await git('diff')).stdout);
  return path;
}

gate.describeDocker('the tamper screen in the Docker runner', () => {
  let tmp = '';
  let repo = '';
  let pack = '';
  let digest = '';

  beforeAll(async () => {
    gate.requireDocker();
    tmp = await tempDir('tamper-screen');
    repo = join(tmp, 'repo');
    pack = join(tmp, 'pack');
    await cp(JS.repo, repo, { recursive: true });
    await cp(join(ROOT, 'witness-packs', 'js-duration'), pack, { recursive: true });
    const digested = await runCliInProcess(['witness', 'digest', pack]);
    expect([digested.status, digested.stderr]).toEqual([0, '']);
    digest = digested.stdout.trim();
  }, 180_000);

  afterAll(async () => {
    if (tmp !== '') await rm(tmp, { recursive: true, force: true });
  });

  async function validate(diff: string, label: string): Promise<{ receipt: Receipt; text: string; stdout: string }> {
    const work = join(tmp, label);
    await mkdir(work, { recursive: true });
    const approved = await proposeAndApprove(repo, diff, work, tmp, label);
    const out = join(work, 'out');
    const run = await runCliInProcess([
      'validate',
      '--repo',
      repo,
      '--proposal',
      approved.proposalPath,
      '--approval',
      approved.approvalPath,
      '--witness',
      pack,
      '--witness-digest',
      digest,
      '--runner',
      'docker',
      '--image',
      gate.imageId,
      '--timeout',
      '60',
      '--out',
      out
    ]);
    const text = await readFile(join(out, 'receipt.json'), 'utf8');
    const verify = await runCliInProcess(['verify-receipt', join(out, 'receipt.json')]);
    expect([label, verify.status, run.stderr.slice(-1500)]).toEqual([label, 0, run.stderr.slice(-1500)]);
    return { receipt: await readJson<Receipt>(join(out, 'receipt.json')), text, stdout: run.stdout };
  }

  it('an assertion library lying by value hides a regression: passed, but proof grade withheld by the tamper screen at the lines of the lie', async () => {
    const { receipt, text, stdout } = await validate(await attackDiff(tmp), 'assert-lie');
    expect(receipt.phases.map((p) => [p.name, p.status])).toEqual(PHASES.map((name) => [name, 'passed']));
    expect([receipt.verdict, receipt.reasons, receipt.proof_grade]).toEqual(['passed', [], false]);
    expect(receipt.tamper_screen?.files_screened).toBe(1);
    expect(receipt.tamper_screen?.findings.map((f) => [f.rule, f.path, f.line, f.allowed])).toEqual([
      ['test_framework_reference', 'src/duration.js', 1, false],
      ['test_framework_reference', 'src/duration.js', 4, false],
      ['monkeypatch', 'src/duration.js', 5, false],
      ['test_framework_reference', 'src/duration.js', 5, false]
    ]);
    expect(stdout).toContain('proof grade: NO (proof grade withheld: tamper screen (4 findings): test_framework_reference src/duration.js:1');
    // Every other condition of proof grade holds: without the screen this was proof grade.
    expect([receipt.runner.isolated, receipt.repository.unchanged]).toEqual([true, true]);
    expect(receipt.phases.filter((p) => p.name === 'reproduction_after' || p.name === 'hidden').map((p) => p.grading)).toEqual(['sealed', 'sealed']);
    const { receipt_digest: _digest, ...body } = JSON.parse(text) as Receipt;
    const unscreened = { ...body, proof_grade: true, tamper_screen: { ...body.tamper_screen!, findings: [] } };
    const resealed = verifyReceiptText(`${canonicalJson({ ...unscreened, receipt_digest: digestJson(receiptDigestDomain(unscreened.schema), unscreened) })}\n`);
    expect([resealed.errors, resealed.proof_grade]).toEqual([[], true]);
  }, 600_000);

  it('control: the honest fix passes with proof grade and a clean screen', async () => {
    const { receipt } = await validate(JS.candidate('fix'), 'fix');
    expect([receipt.verdict, receipt.proof_grade]).toEqual(['passed', true]);
    expect(receipt.tamper_screen).toEqual({ files_screened: 1, findings: [], not_screened: [] });
  }, 600_000);
});
