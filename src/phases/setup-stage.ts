import { createHash, randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ManifestFiles } from '../core/dependency-policy.js';
import { digestJson, DIGEST_PATTERN, type Digest } from '../core/hashing.js';
import type { SetupRunRecord } from '../core/receipt-schema.js';
import { ConfigurationError, InfrastructureError } from '../errors.js';
import { cloneTree, type Scratch } from './workspace.js';
import { outcomeRecordFields, type RunMount, type Runner } from '../runners/runner.js';
import type { WitnessSetup } from '../fetch/witness/manifest.js';

/**
 * The dependency stage: the pack's setup command, run in its own container against a copy of one
 * tree (the base, or the candidate's when the pack allows dependency changes), filling the pack's
 * output folders. It is the only run that may have network, and only when the pack says so. Its
 * outputs are kept in a cache keyed by (tree snapshot, pack digest, runner and image, command), and
 * every test run sees them read-only. A cached entry is re-hashed before use and discarded when its
 * files no longer match the digest recorded when it was made.
 */

/** Variables that turn install scripts off for the candidate's manifests (npm, pnpm, yarn). */
export const NO_INSTALL_SCRIPTS_ENV: Readonly<Record<string, string>> = Object.freeze({
  npm_config_ignore_scripts: 'true',
  YARN_ENABLE_SCRIPTS: 'false'
});

export interface SetupStageRequest {
  tree: 'base' | 'patched';
  /** Host folder of the staged tree (never written: the stage works on a copy). */
  treeDir: string;
  snapshot: Digest;
  witnessDigest: Digest;
  setup: WitnessSetup;
  runner: Runner;
  /** From the adapter: the toolchain may need to execute what it builds under /tmp. */
  execTmp: boolean;
  outputLimitBytes: number;
  /** Where entries are kept between validations; a scratch folder when none is configured. */
  cacheDir: string;
  scratch: Scratch;
  /** Snapshot digest of a folder (the output folders' common root). */
  digestTree: (dir: string) => Promise<Digest>;
  log(line: string): void;
}

export interface SetupStageResult {
  record: SetupRunRecord;
  /** The outputs, read-only, for the test runs; empty when the stage failed. */
  mounts: RunMount[];
}

interface CacheEntryFile {
  outputs_digest: Digest;
  record: SetupRunRecord;
}

const ENTRY_FILE = 'entry.json';
const OUTPUTS = 'outputs';

function outputDir(entry: string, index: number): string {
  return join(entry, OUTPUTS, String(index));
}

/** The folders inside a tree that the outputs will cover must not exist there. */
async function checkOutputsAbsent(treeDir: string, outputs: readonly string[], tree: string): Promise<void> {
  for (const output of outputs) {
    const present = await stat(join(treeDir, ...output.split('/'))).then(
      () => true,
      () => false
    );
    if (present) {
      throw new ConfigurationError(
        `the witness pack's setup output '${output}' exists in the ${tree} tree; choose an output folder the repository does not have (e.g. remove the committed ${output})`
      );
    }
  }
}

/** The argv and environment of the stage for one tree. */
export function setupCommand(setup: WitnessSetup, tree: 'base' | 'patched'): { argv: string[]; env: Record<string, string>; installScripts: 'as_argv' | 'disabled' } {
  if (tree === 'base') return { argv: [...setup.argv], env: { ...setup.env }, installScripts: 'as_argv' };
  return { argv: [...(setup.candidate_argv ?? setup.argv)], env: { ...setup.env, ...NO_INSTALL_SCRIPTS_ENV }, installScripts: 'disabled' };
}

/** The cache key: everything that decides what the stage produces. */
export function setupCacheKey(request: Pick<SetupStageRequest, 'tree' | 'snapshot' | 'witnessDigest' | 'setup' | 'runner' | 'execTmp'>): Digest {
  const command = setupCommand(request.setup, request.tree);
  return digestJson('patchproof/setup-cache/v1', {
    snapshot: request.snapshot,
    witness: request.witnessDigest,
    runner: request.runner.description.kind,
    image_id: request.runner.description.image_id ?? null,
    argv: command.argv,
    env: command.env,
    network: request.setup.network,
    outputs: request.setup.outputs,
    exec_tmp: request.execTmp
  });
}

/** An entry file as read back: JSON of any shape (null, a primitive, an object), so its fields are unknown until checked. */
type StoredEntryFile = { [K in keyof CacheEntryFile]?: unknown } | null;

async function readEntry(entry: string, digestTree: (dir: string) => Promise<Digest>): Promise<CacheEntryFile | undefined> {
  let parsed: StoredEntryFile;
  try {
    parsed = JSON.parse(await readFile(join(entry, ENTRY_FILE), 'utf8')) as StoredEntryFile;
  } catch {
    return undefined;
  }
  if (typeof parsed?.outputs_digest !== 'string' || !DIGEST_PATTERN.test(parsed.outputs_digest)) return undefined;
  const actual = await digestTree(join(entry, OUTPUTS)).catch(() => undefined);
  // Only the outputs' digest is checked, as before: the record is taken as runSetupStage wrote it beside them.
  return actual === parsed.outputs_digest ? (parsed as CacheEntryFile) : undefined;
}

function readOnlyMounts(entry: string, outputs: readonly string[]): RunMount[] {
  return outputs.map((path, index) => ({ path, hostDir: outputDir(entry, index), writable: false }));
}

/**
 * Run the stage for one tree, or reuse its cached outputs. A failed stage returns a record with
 * status `failed` and no mounts; the caller decides what that means (inconclusive for the base,
 * a failed candidate for the candidate's manifests). Infrastructure faults throw.
 */
export async function runSetupStage(request: SetupStageRequest): Promise<SetupStageResult> {
  const { setup, runner, tree } = request;
  await checkOutputsAbsent(request.treeDir, setup.outputs, tree);
  const key = setupCacheKey(request);
  const entry = join(request.cacheDir, key.slice('sha256:'.length));
  const cached = await readEntry(entry, request.digestTree);
  if (cached !== undefined) {
    request.log(`dependency stage (${tree}): reusing ${key}`);
    return { record: { ...cached.record, cached: true }, mounts: readOnlyMounts(entry, setup.outputs) };
  }
  await rm(entry, { recursive: true, force: true });

  const command = setupCommand(setup, tree);
  await mkdir(request.cacheDir, { recursive: true });
  const building = `${entry}.building-${randomBytes(6).toString('hex')}`;
  try {
    const copy = await request.scratch.folder(`setup-${tree}-repo`);
    await cloneTree(request.treeDir, copy);
    const mounts: RunMount[] = [];
    for (const [index, path] of setup.outputs.entries()) {
      const hostDir = outputDir(building, index);
      await mkdir(hostDir, { recursive: true });
      // The stage runs as an unprivileged uid: it may write its outputs and nothing else.
      await chmod(hostDir, 0o777);
      // The container mount point must exist in the (read-only) copy.
      await mkdir(join(copy, ...path.split('/')), { recursive: true });
      mounts.push({ path, hostDir, writable: true });
    }
    const results = await request.scratch.folder(`setup-${tree}-results`);
    await chmod(results, 0o777);
    request.log(`dependency stage (${tree}): ${command.argv.join(' ')}${setup.network ? ' (network on)' : ''}`);
    const outcome = await runner.run({
      hostWorkdir: copy,
      hostResultsDir: results,
      argv: command.argv,
      env: command.env,
      timeoutMs: setup.timeout_seconds * 1000,
      outputLimitBytes: request.outputLimitBytes,
      label: `setup-${tree}`,
      mounts,
      network: setup.network,
      execTmp: request.execTmp
    });
    const succeeded = outcome.exitCode === 0 && !outcome.timedOut && !outcome.outputTruncated;
    const outputsDigest = succeeded ? await request.digestTree(join(building, OUTPUTS)) : null;
    const record: SetupRunRecord = {
      tree,
      argv: command.argv,
      install_scripts: command.installScripts,
      cache_key: key,
      cached: false,
      status: outputsDigest !== null ? 'ok' : 'failed',
      ...outcomeRecordFields(outcome),
      outputs_digest: outputsDigest
    };
    if (outputsDigest === null) {
      const last = outcome.output.trim().split('\n').slice(-3).join(' | ');
      request.log(`dependency stage (${tree}) failed: exit ${String(outcome.exitCode)}${outcome.timedOut ? ', timed out' : ''}: ${last}`);
      await rm(building, { recursive: true, force: true });
      return { record, mounts: [] };
    }
    const file: CacheEntryFile = { outputs_digest: outputsDigest, record };
    await writeFile(join(building, ENTRY_FILE), `${JSON.stringify(file)}\n`);
    // Whole or not at all: a concurrent or interrupted stage never leaves a half-written entry in place.
    const placed = await rename(building, entry).then(
      () => true,
      async (error: unknown) => {
        // fs/promises rejects with an ErrnoException.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
        await rm(building, { recursive: true, force: true });
        return false;
      }
    );
    if (placed) return { record, mounts: readOnlyMounts(entry, setup.outputs) };
    // A concurrent validation placed its entry first: use that one, once its files check out.
    const kept = await readEntry(entry, request.digestTree);
    if (kept === undefined) throw new InfrastructureError(`the dependency stage's cache entry ${entry} does not match its recorded digest`);
    return { record: { ...record, outputs_digest: kept.outputs_digest }, mounts: readOnlyMounts(entry, setup.outputs) };
  } catch (error) {
    await rm(building, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}

/** The dependency manifests and lockfiles the dependency policy reads (src/core/dependency-policy.ts). */
const MANIFEST_NAMES = new Set(['package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml']);
/** A manifest larger than this is not read; the policy then sees it as missing (and refuses). */
const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;

/**
 * Read a staged tree's dependency manifests (regular files only, never through a symlink, never
 * inside node_modules or .git), by repository path.
 */
export async function readDependencyManifests(treeDir: string): Promise<ManifestFiles> {
  const files = new Map<string, string>();
  async function walk(dir: string, prefix: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== '.git') await walk(join(dir, entry.name), path);
      } else if (entry.isFile() && MANIFEST_NAMES.has(entry.name)) {
        const full = join(dir, entry.name);
        if ((await lstat(full)).size <= MAX_MANIFEST_BYTES) files.set(path, await readFile(full, 'utf8'));
      }
    }
  }
  await walk(treeDir, '');
  return files;
}

/**
 * The candidate's stage record when the dependency policy refused its manifests: the stage never
 * ran (no exit code, no outputs), and `refused` says why.
 */
export function refusedSetupRecord(request: Pick<SetupStageRequest, 'snapshot' | 'witnessDigest' | 'setup' | 'runner' | 'execTmp'>, refused: readonly string[]): SetupRunRecord {
  const command = setupCommand(request.setup, 'patched');
  return {
    tree: 'patched',
    argv: command.argv,
    install_scripts: command.installScripts,
    cache_key: setupCacheKey({ ...request, tree: 'patched' }),
    cached: false,
    status: 'failed',
    exit_code: null,
    timed_out: false,
    output_truncated: false,
    output_bytes: 0,
    output_sha256: createHash('sha256').update('').digest('hex'),
    duration_ms: 0,
    outputs_digest: null,
    refused: [...refused]
  };
}
