import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, proposeAndApprove, readJson, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { type Receipt } from '../../src/core/receipt-schema.js';
import { JS, dockerGate } from './hostile-support.js';

/**
 * The tamper screen end to end (validate's sources, in this process, in the Docker runner) on
 * fixtures/js-duration, whose reproduction and hidden phases are sealed: an attack of issue 26 that
 * the grader's other defences let through, and the honest fix as the control.
 *
 * The attack fixes the bug (so the sealed reproduction and hidden phases pass), breaks whitespace
 * between the parts (a feature only the repository's own suite covers: the regressing candidate),
 * and makes node:assert/strict's `equal` lie for exactly the two value pairs that regression gives.
 * The suite is graded in-process: the canaries behave (a lie keyed on values spares them), so on
 * main at 2e4d4e3 every phase passed and only the screen withheld proof grade. Since the tripwire
 * (issue 26 item 4) the replaced `equal` fails every patched run as grader_compromised; the screen
 * still names the lie's lines on its own. (The screen alone withholding proof grade over a passed
 * verdict is shown by __tests__/hostile/value-lies.test.ts's lying types, which no tripwire sees.)
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

  async function validate(diff: string, label: string): Promise<{ receipt: Receipt; stdout: string }> {
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
    const verify = await runCliInProcess(['verify-receipt', join(out, 'receipt.json')]);
    expect([label, verify.status, run.stderr.slice(-1500)]).toEqual([label, 0, run.stderr.slice(-1500)]);
    return { receipt: await readJson<Receipt>(join(out, 'receipt.json')), stdout: run.stdout };
  }

  it('an assertion library lying by value hides a regression: the tripwire fails it, and the tamper screen names the lines of the lie', async () => {
    const { receipt, stdout } = await validate(await attackDiff(tmp), 'assert-lie');
    // The tripwire (issue 26 item 4) took node:assert/strict's functions before the code under test
    // loaded; the must-pass canary of every patched run finds `equal` replaced.
    expect(receipt.phases.map((p) => [p.name, p.status])).toEqual([
      ['reproduction_before', 'passed'],
      ['reproduction_after', 'failed'],
      ['regression', 'failed'],
      ['hidden', 'failed']
    ]);
    expect([receipt.verdict, receipt.reasons, receipt.proof_grade]).toEqual(['failed', ['grader_compromised'], false]);
    const regression = receipt.phases.find((p) => p.name === 'regression');
    expect(regression?.checks?.filter((c) => c.check === 'tripwire').map((c) => c.detail)).toEqual(['the tripwire found the grader changed: node:assert/strict.equal replaced']);
    // The screen finds the same lie in the diff, independently, at its lines.
    expect(receipt.tamper_screen?.files_screened).toBe(1);
    expect(receipt.tamper_screen?.findings.map((f) => [f.rule, f.path, f.line, f.allowed])).toEqual([
      ['test_framework_reference', 'src/duration.js', 1, false],
      ['test_framework_reference', 'src/duration.js', 4, false],
      ['monkeypatch', 'src/duration.js', 5, false],
      ['test_framework_reference', 'src/duration.js', 5, false]
    ]);
    expect(stdout).toContain('tamper screen (1 file)                (4 findings: test_framework_reference src/duration.js:1,');
  }, 600_000);

  it('control: the honest fix passes with proof grade and a clean screen', async () => {
    const { receipt } = await validate(JS.candidate('fix'), 'fix');
    expect([receipt.verdict, receipt.proof_grade]).toEqual(['passed', true]);
    expect(receipt.tamper_screen).toEqual({ files_screened: 1, findings: [], not_screened: [] });
  }, 600_000);
});
