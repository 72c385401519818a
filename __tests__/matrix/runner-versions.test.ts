import { execFile } from 'node:child_process';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, ensureCli, runCli, tempDir } from '../helpers/cli.js';
import { packDigest, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { MATRIX, selectRows, type MatrixRow } from './versions.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * The version matrix (`npm run matrix`; rows in ./versions.ts). For each runner version, the
 * fixture is copied to a temp folder; a JS runner is put in its package.json at exactly that
 * version and locked there with `npm install --package-lock-only` (registry needed), which the pack's
 * setup stage installs with `npm ci` in the container; an image toolchain's version is read in the
 * image. Then the correct fix must pass and the overfit fix must fail with hidden_failed, in Docker.
 * Not part of `npm test`: PATCHPROOF_MATRIX selects rows (1 or all, or names / prefixes).
 */

const exec = promisify(execFile);
const rows = selectRows(process.env.PATCHPROOF_MATRIX);
const gate = await dockerGate('runner version matrix (Docker)');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  adapter: string;
  runner: { isolated: boolean };
  phases: { name: string; status: string; reasons: string[] }[];
}

/**
 * The image a row runs in. The bookworm variant is PATCHPROOF_TEST_IMAGE_BOOKWORM when given, else
 * built (or reused: the script is idempotent) with PATCHPROOF_IMAGE_SUITE=bookworm.
 */
async function imageOf(row: MatrixRow): Promise<string> {
  if (row.image === 'default') return gate.imageId;
  const given = process.env.PATCHPROOF_TEST_IMAGE_BOOKWORM;
  if (given !== undefined && given !== '') return given;
  const built = await exec('bash', [join(ROOT, 'scripts', 'build-test-image.sh')], { env: { ...process.env, PATCHPROOF_IMAGE_SUITE: 'bookworm' }, timeout: 1_800_000 }).catch(
    (error: unknown) => {
      const { stderr } = error as { stderr?: string };
      throw new Error(
        `${row.name} needs the bookworm test image, and PATCHPROOF_IMAGE_SUITE=bookworm bash scripts/build-test-image.sh failed (it needs root): ${(stderr ?? '').slice(-1000)}`
      );
    }
  );
  const id = built.stdout.trim().split('\n').pop() ?? '';
  expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
  return id;
}

/** Put the runner at exactly `version` in the copy's package.json and lock it (no node_modules here). */
async function lockRunner(repo: string, npm: { name: string; version: string }): Promise<void> {
  const manifestPath = join(repo, 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { devDependencies?: Record<string, string> };
  manifest.devDependencies = { [npm.name]: npm.version };
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  await rm(join(repo, 'package-lock.json'), { force: true });
  await exec('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: repo, timeout: 300_000 });
  const lock = JSON.parse(await readFile(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  expect(lock.packages[`node_modules/${npm.name}`]?.version).toBe(npm.version);
}

if (rows.length === 0) {
  console.warn(`SKIPPED runner version matrix: set PATCHPROOF_MATRIX=1 (npm run matrix) or to row names: ${MATRIX.map((r) => r.name).join(', ')}`);
  describe.skip('runner version matrix', () => {
    it('runs only when PATCHPROOF_MATRIX selects rows', () => undefined);
  });
} else {
  gate.describeDocker.each(rows.map((row) => [row.name, row] as const))('runner version %s', (_name, row) => matrixRow(row));
}

function matrixRow(row: MatrixRow): void {
  let fixture: StagedFixture;
  let image: string;
  const candidate = (name: string): string => join(ROOT, 'fixtures', row.fixture, 'candidates', `${name}.diff`);

  beforeAll(async () => {
    gate.requireDocker();
    image = await imageOf(row);
    await ensureCli();
    const tmp = await tempDir(`matrix-${row.name}`);
    const repo = join(tmp, 'repo');
    const pack = join(tmp, 'pack');
    await cp(join(ROOT, 'fixtures', row.fixture, 'repo'), repo, { recursive: true });
    if ('dir' in row.pack) {
      await cp(row.pack.dir, pack, { recursive: true });
    } else {
      const init = await runCli(
        ['witness', 'init', pack, '--adapter', row.adapter, '--reproduction', join(row.pack.init, 'reproduction'), '--hidden', join(row.pack.init, 'hidden')],
        { tmp }
      );
      expect([init.status, init.stderr]).toEqual([0, '']);
    }
    if (row.npm !== undefined) await lockRunner(repo, row.npm);
    if (row.toolchain !== undefined) {
      const { stdout } = await exec(
        'docker',
        ['run', '--rm', '--pull=never', '--network=none', '--user=65534:65534', '-e', 'HOME=/tmp', '--tmpfs', '/tmp', image, ...row.toolchain.argv],
        { timeout: 60_000 }
      );
      expect(stdout.trim()).toMatch(row.toolchain.pattern);
      console.log(`${row.name}: ${stdout.trim()}`);
    }
    fixture = { tmp, repo, pack, digest: await packDigest(pack, tmp) };
  }, 600_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  const validate = (name: string) =>
    validateInDocker<ReceiptView>(fixture, {
      diff: candidate(name),
      label: `${row.name}-${name}`,
      imageId: image,
      timeoutSeconds: row.timeoutSeconds,
      timeoutMs: row.timeoutMs,
      setupCache: join(fixture.tmp, 'setup-cache')
    });

  it('passes the correct fix', async () => {
    const result = await validate(row.candidates.pass);
    console.log(`${row.name} ${row.candidates.pass}: exit ${result.status} in ${result.seconds} s`);
    expect([result.status, result.receipt.verdict, result.receipt.reasons, result.receipt.adapter]).toEqual([0, 'passed', [], row.adapter]);
    expect(result.receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
  }, 900_000);

  it('fails the overfit fix on the hidden tests', async () => {
    const result = await validate(row.candidates.overfit);
    console.log(`${row.name} ${row.candidates.overfit}: exit ${result.status} in ${result.seconds} s`);
    expect([result.status, result.receipt.verdict, result.receipt.reasons]).toEqual([1, 'failed', ['hidden_failed']]);
    expect(result.receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'failed']);
  }, 900_000);
}
