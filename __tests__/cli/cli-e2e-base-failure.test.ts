import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli, hasPython3, proposeAndApprove, readJson, runCli } from '../helpers/cli.js';
import { stageFixture, type StagedFixture } from '../helpers/docker-fixture.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * End to end through the bundled CLI (trusted-local runner, unittest adapter): fixtures/py-calculator
 * with a syntax error in the base's lexer.py, so neither the reproduction nor the base suite can
 * even import, and a candidate that repairs it. The grader cannot run on the base tree: the
 * validation is inconclusive (exit 3, `base_unrunnable`), not a failure of the candidate, and the
 * CLI and report.md show a redacted excerpt of the first error lines whose digest the receipt keeps.
 */

const PYTHON = hasPython3();
if (!PYTHON) console.warn('base-failure end-to-end test skipped: python3 is not on PATH');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  phases: { name: string; status: string; reasons: string[]; runs: { label: string; output_excerpt_sha256?: string }[] }[];
}

(PYTHON ? describe : describe.skip)('a base tree the grader cannot run', () => {
  let fixture: StagedFixture;

  beforeAll(async () => {
    await ensureCli();
    fixture = await stageFixture('base-failure', { repo: join(ROOT, 'fixtures', 'py-calculator', 'repo'), pack: join(ROOT, 'witness-packs', 'py-calculator') });
  }, 60_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  it('is inconclusive, exit 3, with the error excerpt in the CLI output and report, and its digest in the receipt', async () => {
    const lexer = join(fixture.repo, 'lexer.py');
    const good = await readFile(lexer, 'utf8');
    const broken = good.replace(/^(def tokenize\(.*)\):$/m, '$1:   # SECRET_TOKEN=abc123def');
    expect(broken).not.toBe(good);
    await writeFile(lexer, broken);
    const diff = join(fixture.tmp, 'repair.diff');
    const bad = broken.split('\n').findIndex((line) => line.includes('SECRET_TOKEN'));
    const goodLine = good.split('\n')[bad];
    await writeFile(diff, `--- a/lexer.py\n+++ b/lexer.py\n@@ -${bad + 1} +${bad + 1} @@\n-${broken.split('\n')[bad]}\n+${goodLine}\n`);
    const approved = await proposeAndApprove(fixture.repo, diff, fixture.tmp, fixture.tmp, 'base-failure');
    const out = join(fixture.tmp, 'out');
    const result = await runCli(
      [
        'validate',
        '--repo',
        fixture.repo,
        '--proposal',
        approved.proposalPath,
        '--approval',
        approved.approvalPath,
        '--witness',
        fixture.pack,
        '--witness-digest',
        fixture.digest,
        '--runner',
        'local',
        '--out',
        out
      ],
      { tmp: fixture.tmp, timeoutMs: 300_000 }
    );
    const receipt = await readJson<ReceiptView>(join(out, 'receipt.json'));
    expect({ status: result.status, verdict: receipt.verdict, reasons: receipt.reasons }).toEqual({ status: 3, verdict: 'inconclusive', reasons: ['base_unrunnable'] });
    // The candidate's phases are not needed when the base reproduction established nothing.
    expect(receipt.phases.map((p) => p.status)).toEqual(['inconclusive', 'not_run', 'not_run', 'not_run']);
    expect(result.stdout).toContain('the grader cannot run on the base tree');
    expect(result.stdout).toMatch(/\| .*SyntaxError/);
    expect(result.stdout + result.stderr).not.toContain('abc123def');
    const digest = /excerpt sha256 ([0-9a-f]{64})/.exec(result.stdout)?.[1];
    const baseRuns = receipt.phases.flatMap((p) => p.runs).filter((r) => r.label === 'reproduction_before' || r.label === 'regression_before');
    expect(baseRuns.map((r) => r.output_excerpt_sha256)).toContain(digest);
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toContain('The grader cannot run on the base tree');
    expect(report).toContain(digest);
    const verify = await runCli(['verify-receipt', join(out, 'receipt.json')], { tmp: fixture.tmp });
    expect(verify.status).toBe(0);
  }, 300_000);
});
