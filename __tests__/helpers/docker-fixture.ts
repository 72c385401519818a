import { cp, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from '@jest/globals';
import { unsealPack } from '../../src/oracle/seal.js';
import { ensureCli, proposeAndApprove, readJson, runCli, tempDir, type Approved } from './cli.js';

/**
 * One shape for the adapters' Docker end-to-end tests: a fixture repository and its witness pack
 * copied out of this repository (so their snapshot and digest cover every file, tracked or not),
 * then a candidate proposed, approved and validated by the bundled CLI in the Docker runner, and
 * its receipt checked with verify-receipt.
 */

/** A fixture ready to validate against: where its copies are, and the pack's digest. */
export interface StagedFixture {
  tmp: string;
  repo: string;
  pack: string;
  digest: string;
}

/**
 * Copy `repo` and `pack` into a fresh temp area and print the pack's digest with the CLI. `unsealed`:
 * the pack's author originals instead of its sealed tests (unsealPack), for tests of in-process
 * grading (twin canaries exist only in in-process runs).
 */
export async function stageFixture(label: string, sources: { repo: string; pack: string; unsealed?: boolean }): Promise<StagedFixture> {
  const tmp = await tempDir(label);
  const repo = join(tmp, 'repo');
  const pack = join(tmp, 'pack');
  await cp(sources.repo, repo, { recursive: true });
  await cp(sources.pack, pack, { recursive: true });
  if (sources.unsealed === true) await unsealPack(pack);
  return { tmp, repo, pack, digest: await packDigest(pack, tmp) };
}

/** The digest `witness digest` prints for a pack folder; fails the test when the CLI refuses. */
export async function packDigest(pack: string, tmp: string): Promise<string> {
  const printed = await runCli(['witness', 'digest', pack], { tmp });
  expect({ status: printed.status, stderr: printed.stderr }).toEqual({ status: 0, stderr: '' });
  return printed.stdout.trim();
}

export interface DockerValidation<R> {
  status: number | null;
  stdout: string;
  stderr: string;
  out: string;
  receipt: R;
  seconds: number;
  /**
   * With `baselineCache`: the cache entry whose base side this validation reused (checked against
   * the receipt's `baseline`), or undefined when it ran the base side itself and kept it.
   */
  reusedBaseline?: string;
}

export interface DockerValidationOptions {
  /** The candidate's diff file. */
  diff: string;
  /** Names the work folder and the run id. */
  label: string;
  imageId: string;
  /** `--timeout`, per test run; absent: the pack's own limit. */
  timeoutSeconds?: number;
  /** How long the whole CLI call may take. */
  timeoutMs: number;
  /** `--setup-cache`, for packs with a dependency stage shared by several candidates. */
  setupCache?: string;
  /** More `validate` options (the old container layout, for one). */
  extra?: readonly string[];
  /**
   * `--baseline-cache`: one folder per staged fixture, so candidates on the same base, pack, runner
   * settings and limits run the base side once (the first writes the entry, the others reuse it).
   */
  baselineCache?: string;
  /** A proposal and approval made before (several validations of one approval, e.g. `--shard K/N`); absent: proposed and approved here. */
  approved?: Pick<Approved, 'proposalPath' | 'approvalPath'>;
  /** The output folder's name inside the work folder (default `out`). */
  outName?: string;
}

interface BaselineView {
  baseline?: { shared: boolean; digest: string; cache?: { entry: string } };
}

/** Propose, approve and validate one candidate in the Docker runner; the receipt must verify. */
export async function validateInDocker<R>(fixture: StagedFixture, options: DockerValidationOptions): Promise<DockerValidation<R>> {
  const work = join(fixture.tmp, options.label);
  await mkdir(work, { recursive: true });
  const approved = options.approved ?? (await proposeAndApprove(fixture.repo, options.diff, work, fixture.tmp, options.label));
  const out = join(work, options.outName ?? 'out');
  const started = Date.now();
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
      'docker',
      '--image',
      options.imageId,
      '--out',
      out,
      ...(options.timeoutSeconds !== undefined ? ['--timeout', String(options.timeoutSeconds)] : []),
      ...(options.setupCache !== undefined ? ['--setup-cache', options.setupCache] : []),
      ...(options.baselineCache !== undefined ? ['--baseline-cache', options.baselineCache] : []),
      ...(options.extra ?? [])
    ],
    { tmp: fixture.tmp, timeoutMs: options.timeoutMs }
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  const verify = await runCli(['verify-receipt', join(out, 'receipt.json')], { tmp: fixture.tmp });
  // The CLI's stderr tail is shown when the receipt is missing or does not verify.
  expect([verify.status, result.stderr.slice(-2000)]).toEqual([0, result.stderr.slice(-2000)]);
  const receipt = await readJson<R>(join(out, 'receipt.json'));
  const reusedBaseline = options.baselineCache === undefined ? undefined : expectBaselineRecorded(result.stderr, receipt as BaselineView);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, out, receipt, seconds, ...(reusedBaseline !== undefined ? { reusedBaseline } : {}) };
}

/**
 * What a validation with `--baseline-cache` said it did with the cache, checked against its receipt:
 * a reused entry is recorded as `baseline: {shared: true, cache: {entry}}`; a base side that ran here
 * as `shared: false` without `cache`. Returns the reused entry, or undefined.
 */
function expectBaselineRecorded(stderr: string, receipt: BaselineView): string | undefined {
  const reused = /^baseline cache: reusing entry (sha256:[0-9a-f]{64}) /m.exec(stderr)?.[1];
  if (reused !== undefined) {
    expect(receipt.baseline).toEqual({ shared: true, digest: expect.stringMatching(/^sha256:/), cache: { entry: reused } });
    return reused;
  }
  expect([stderr.match(/^baseline cache: miss \(.*\); the base side runs$/m) !== null, stderr.slice(-2000)]).toEqual([true, stderr.slice(-2000)]);
  expect(receipt.baseline).toEqual({ shared: false, digest: expect.stringMatching(/^sha256:/) });
  return undefined;
}

/**
 * The hooks of a Docker test that stages its own fixture inside the test: before all, Docker must
 * be there (under CI) and the CLI built; after all, the fixture `track` was given is removed.
 */
export function stagedFixtureHooks(requireDocker: () => void): { track(fixture: StagedFixture): StagedFixture } {
  let staged: StagedFixture | undefined;
  beforeAll(async () => {
    requireDocker();
    await ensureCli();
  }, 180_000);
  afterAll(async () => {
    if (staged !== undefined) await rm(staged.tmp, { recursive: true, force: true });
  });
  return { track: (fixture) => (staged = fixture) };
}

/**
 * The pack as its author wrote it, graded in-process: a copy of a sealed pack with the originals
 * that `witness seal` (or a hand sealer) kept in `oracle/original/` back in place and no oracle
 * (src/oracle/seal.ts, unsealPack). For the tests of in-process defences (canaries, twins) and for
 * the in-process controls of the sealed-oracle hostile tests.
 */
export async function unsealedPack(staged: StagedFixture): Promise<StagedFixture> {
  const pack = join(staged.tmp, 'pack-unsealed');
  await cp(staged.pack, pack, { recursive: true });
  await unsealPack(pack);
  return { ...staged, pack, digest: await packDigest(pack, staged.tmp) };
}
