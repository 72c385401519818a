import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, REFUSAL_LINE, ROOT, cliEnv, ensureCli, patchproofLeftovers, runCli, tempDir, type CliResult } from '../helpers/cli.js';

/** End to end: the bundled CLI's usage, as installed by `npm ci` (package.json `bin`) and run with node. */

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

let tmp: string;
let help: CliResult;

beforeAll(async () => {
  await ensureCli();
  tmp = await tempDir('cli-tmpdir');
  help = await runCli(['--help'], { tmp });
}, 300_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

function expectUsage(result: CliResult): void {
  expect(result.status).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout.startsWith(`patchproof ${pkg.version}\nusage:\n`)).toBe(true);
  for (const command of ['propose', 'approve', 'validate', 'verify-receipt', 'promote']) expect(result.stdout).toContain(`  patchproof ${command} `);
  expect(result.stdout).toContain('--runner local|docker [--image REF] --out DIR');
  expect(result.stdout).toContain('exit codes: 0 passed (verify-receipt: valid; promote: applied or planned), 1 failed (verify-receipt: invalid),');
  expect(result.stdout).toContain('2 refused (promote: nothing written), 3 inconclusive, 4 promote stopped half-way by a race (partial_conflict)');
}

describe('usage', () => {
  it('package.json bin points `patchproof` at the bundled CLI, a node script', () => {
    expect(pkg.bin).toEqual({ patchproof: 'dist/cli/index.js' });
    expect(join(ROOT, pkg.bin.patchproof as string)).toBe(CLI);
    expect(readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('`npx patchproof --help` works from the project root and runs this very CLI', () => {
    // Offline: npx must resolve the project's own bin, never fetch a package of that name.
    const result = spawnSync('npx', ['patchproof', '--help'], { cwd: ROOT, env: { ...cliEnv(tmp), npm_config_offline: 'true' }, encoding: 'utf8', timeout: 60_000 });
    expectUsage({ status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr });
    expect(result.stdout).toBe(help.stdout);
  });

  it('`node dist/cli/index.js` with no arguments prints usage and exits 0', async () => {
    const result = await runCli([], { tmp });
    expectUsage(result);
    expect(result.stdout).toBe(help.stdout);
  });

  it.each([['--help'], ['-h'], ['help']])('%s prints the same usage', async (flag) => {
    expectUsage(await runCli([flag], { tmp }));
  });

  it('works from any working directory', async () => {
    const result = await runCli(['--help'], { tmp, cwd: tmp });
    expectUsage(result);
  });

  it.each([
    [['frobnicate'], /unknown command 'frobnicate'; use propose, approve, validate, screen, merge, compare, verify-receipt, promote, witness or hidden-detail/],
    [['propose', '--repo', '.', '--diff', 'x.diff', '--out', 'p.json', '--bogus', '1'], /Unknown option '--bogus'.*patchproof --help/],
    [['verify-receipt'], /verify-receipt takes exactly one receipt file/],
    [['validate', '--adapter', 'node-test', '--runner', 'local'], /--repo is required: give the repository folder/]
  ])('%j is refused: exit 2, one line (bad_input)', async (argv, message) => {
    const result = await runCli(argv, { tmp });
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    const lines = result.stderr.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(REFUSAL_LINE);
    expect(REFUSAL_LINE.exec(lines[0] as string)?.[1]).toBe('bad_input');
    expect(lines[0]).toMatch(message);
  });

  it('leaves nothing in its TMPDIR', () => {
    expect(patchproofLeftovers(tmp)).toEqual([]);
  });
});
