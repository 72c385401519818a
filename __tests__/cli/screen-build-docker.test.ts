import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, readJson, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import type { Feedback } from '../../src/core/feedback.js';

/**
 * The L1 build gate end to end in the Docker runner, from the sources: fixtures/js-duration's pack
 * with a `build` (node --check of every source file, in the hardened container). Screened: the fix
 * and `build-error` (the fix plus a missing parenthesis), which is stopped at L1 with its first
 * error at file:line, every later phase `not_run`. Validated without early exit, the same candidate
 * still runs every phase and fails by the build. A build broken on the base is inconclusive for the
 * fix, never blamed on it.
 */

const gate = await dockerGate('screen build-gate end-to-end test');

const CHECK_SOURCES = ['sh', '-c', 'for f in src/*.js; do node --check "$f" || exit 1; done'];

interface Staged {
  tmp: string;
  repo: string;
  pack: string;
  digest: string;
  candidates: string;
}

/** The fixture's repo, its pack with `build` (and the L0 gate's allowed_paths) and the named candidates. */
async function stage(label: string, build: string[], names: Record<string, string>): Promise<Staged> {
  const tmp = await tempDir(label);
  const repo = join(tmp, 'repo');
  const pack = join(tmp, 'pack');
  const candidates = join(tmp, 'candidates');
  await cp(join(ROOT, 'fixtures', 'js-duration', 'repo'), repo, { recursive: true });
  await cp(join(ROOT, 'witness-packs', 'js-duration'), pack, { recursive: true });
  const manifest = JSON.parse(await readFile(join(pack, 'witness.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(join(pack, 'witness.json'), `${JSON.stringify({ ...manifest, allowed_paths: ['src/**'], build: { argv: build } }, null, 2)}\n`);
  await mkdir(candidates);
  for (const [name, path] of Object.entries(names)) await cp(join(ROOT, 'fixtures', 'js-duration', path), join(candidates, `${name}.diff`));
  return { tmp, repo, pack, candidates, digest: (await digestWitnessFolder(pack)).digest };
}

/** Screen every candidate of `staged`, approving each by the hash the refusal names. */
async function screen(staged: Staged, out: string): Promise<{ status: number | null; stderr: string }> {
  const common = [
    '--repo',
    staged.repo,
    '--witness',
    staged.pack,
    '--witness-digest',
    staged.digest,
    '--candidates',
    staged.candidates,
    '--approved-by',
    'build-test',
    '--runner',
    'docker',
    '--image',
    gate.imageId
  ];
  const refused = await runCliInProcess(['screen', ...common, '--out', join(staged.tmp, 'refused')]);
  expect(refused.status).toBe(2);
  const hashes = [...refused.stderr.matchAll(/([a-z-]+) ([0-9a-f]{64})/g)].map((m) => m[2] ?? '');
  const result = await runCliInProcess(['screen', ...common, ...hashes.flatMap((hash) => ['--approve', hash]), '--out', out, '--timeout', '180']);
  return { status: result.status, stderr: result.stderr };
}

gate.describeDocker('the L1 build gate', () => {
  const cleanup: string[] = [];
  afterAll(async () => {
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
  });

  it('screen: a candidate that breaks the build stops at L1 with its first error at file:line; the fix passes it', async () => {
    gate.requireDocker();
    const staged = await stage('screen-build', CHECK_SOURCES, { fix: 'candidates/fix.diff', 'build-error': 'screen-candidates/build-error.diff' });
    cleanup.push(staged.tmp);
    const out = join(staged.tmp, 'out');
    const { status, stderr } = await screen(staged, out);
    expect([status, stderr.slice(-1500)]).toEqual([0, stderr.slice(-1500)]);
    const fix = await readJson<Receipt>(join(out, 'candidates', 'fix', 'receipt.json'));
    const broken = await readJson<Receipt>(join(out, 'candidates', 'build-error', 'receipt.json'));
    expect(fix.verdict).toBe('passed');
    expect(fix.build).toMatchObject({ argv: CHECK_SOURCES, status: 'passed', base: { exit_code: 0 }, candidate: { exit_code: 0 } });
    expect(broken.verdict).toBe('failed');
    expect(broken.reasons).toContain('build_failed');
    expect(broken.phases.map((p) => p.status)).toEqual(['passed', 'not_run', 'not_run', 'not_run']);
    // No run of the candidate's tree after the failed gate.
    expect(broken.phases.flatMap((p) => p.runs.map((r) => r.label)).filter((l) => l !== 'reproduction_before' && l !== 'regression_before')).toEqual([]);
    expect(broken.build).toMatchObject({
      status: 'failed',
      candidate: { diagnostic: { tool: 'node', file: 'src/duration.js', line: 45, message: 'SyntaxError: missing ) after argument list' } }
    });
    // The base build ran once, shared like the rest of the baseline.
    expect(broken.build!.base).toEqual(fix.build!.base);
    expect(broken.baseline!.digest).toBe(fix.baseline!.digest);
    const feedback = await readJson<Feedback>(join(out, 'candidates', 'build-error', 'feedback.json'));
    expect(feedback.failed_gate).toBe('L1_build');
    expect(feedback.build).toMatchObject({ status: 'failed', tree: 'patched', first_error: 'src/duration.js:45: SyntaxError: missing ) after argument list' });
    expect(await readFile(join(out, 'candidates', 'build-error', 'report.md'), 'utf8')).toContain('`src/duration.js:45: SyntaxError: missing ) after argument list`');
    const verified = await runCliInProcess(['verify-receipt', join(out, 'screening.json')]);
    expect([verified.status, verified.stdout]).toEqual([0, expect.stringContaining('"best": "fix"')]);
  }, 1_200_000);

  it('validate without --early-exit: every phase still runs, and the build fails the verdict', async () => {
    gate.requireDocker();
    const staged = await stage('validate-build', CHECK_SOURCES, {});
    cleanup.push(staged.tmp);
    const diff = join(ROOT, 'fixtures', 'js-duration', 'screen-candidates', 'build-error.diff');
    const proposal = join(staged.tmp, 'proposal.json');
    const approval = join(staged.tmp, 'approval.json');
    expect((await runCliInProcess(['propose', '--repo', staged.repo, '--diff', diff, '--out', proposal])).status).toBe(0);
    const hash = (await readJson<{ proposal_hash: string }>(proposal)).proposal_hash;
    expect((await runCliInProcess(['approve', '--proposal', proposal, '--proposal-hash', hash, '--approved-by', 'build-test', '--run-id', 'b', '--out', approval])).status).toBe(0);
    const out = join(staged.tmp, 'out');
    const result = await runCliInProcess([
      'validate',
      '--repo',
      staged.repo,
      '--proposal',
      proposal,
      '--approval',
      approval,
      '--witness',
      staged.pack,
      '--witness-digest',
      staged.digest,
      '--runner',
      'docker',
      '--image',
      gate.imageId,
      '--out',
      out,
      '--timeout',
      '180'
    ]);
    expect([result.status, result.stderr.slice(-1500)]).toEqual([1, result.stderr.slice(-1500)]);
    const receipt = await readJson<Receipt>(join(out, 'receipt.json'));
    expect(receipt.reasons).toContain('build_failed');
    expect(receipt.phases.every((p) => p.status !== 'not_run')).toBe(true);
    expect(receipt.build).toMatchObject({ status: 'failed', candidate: { diagnostic: { file: 'src/duration.js', line: 45 } } });
    expect((await runCliInProcess(['verify-receipt', join(out, 'receipt.json')])).status).toBe(0);
  }, 1_200_000);

  it('a build that fails on the base is inconclusive for the fix, never blamed on it', async () => {
    gate.requireDocker();
    const staged = await stage('base-build', ['node', '--check', 'src/missing.js'], { fix: 'candidates/fix.diff' });
    cleanup.push(staged.tmp);
    const out = join(staged.tmp, 'out');
    const { status } = await screen(staged, out);
    expect(status).toBe(1);
    const receipt = await readJson<Receipt>(join(out, 'candidates', 'fix', 'receipt.json'));
    expect(receipt.verdict).toBe('inconclusive');
    expect(receipt.reasons).toEqual(['build_base_failed']);
    expect(receipt.build).toMatchObject({ status: 'inconclusive', base: { exit_code: 1 } });
    expect((await runCliInProcess(['verify-receipt', join(out, 'screening.json')])).status).toBe(0);
  }, 1_200_000);
});
