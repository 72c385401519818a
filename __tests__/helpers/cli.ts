import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Support for end-to-end tests of the bundled CLI: they run `node dist/cli/index.js …` in a child
 * process, exactly as a user would, on real folders.
 */

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The bundle under test; PATCHPROOF_TEST_CLI points at another build (e.g. one made with `ncc build -o`). */
export const CLI = process.env.PATCHPROOF_TEST_CLI ?? join(ROOT, 'dist', 'cli', 'index.js');
export const FIXTURES = join(ROOT, 'fixtures');

/** What one CLI invocation did. */
export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** One refusal line, as the README documents it. */
export const REFUSAL_LINE = /^patchproof: refused \(([a-z_]+)\): .+$/;

function newestMtime(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** Is the bundle older than any of its sources (by modification time)? */
function cliIsStale(): boolean {
  const inputs = [join(ROOT, 'src'), join(ROOT, 'package.json'), join(ROOT, 'package-lock.json'), join(ROOT, 'tsconfig.json')];
  return Math.max(...inputs.map(newestMtime)) > statSync(CLI).mtimeMs;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Make sure dist/cli/index.js exists, building it with `npm run build` only when it is missing.
 * Test files in parallel Jest workers share that one build through a lock folder.
 *
 * An existing bundle is used as it is, even when src/ is newer: the bundle is what users run, it is
 * committed, and CI rebuilds it and checks it equals the committed one before the tests. Rebuilding
 * here would rewrite a committed file as a side effect of a test run, and would tie these tests to the
 * type-check of every file in the project. A stale bundle is reported, so nobody mistakes what ran.
 */
export async function ensureCli(): Promise<void> {
  if (existsSync(CLI)) {
    if (cliIsStale()) console.warn('dist/cli/index.js is older than src/: these tests run the bundle as it is; run `npm run build` to test the current sources');
    return;
  }
  const lock = join(ROOT, '.tmp', 'cli-build.lock');
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a crashed build is stale after four minutes.
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held !== undefined && Date.now() - held.mtimeMs > 240_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited too long for another worker's build (${lock})`);
      await sleep(250);
    }
  }
  try {
    if (existsSync(CLI)) return;
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0 || !existsSync(CLI)) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A fresh temp folder for a test; the name never starts with `patchproof-`, which the CLI owns. */
export function tempDir(label: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `pp-e2e-${label}-`));
}

/**
 * The environment of a CLI child: the test's own, with TMPDIR pointing at `tmp` so the CLI's scratch
 * folders can be counted without racing other test files, and without the Jest-only NODE_OPTIONS.
 */
export function cliEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
  delete env.NODE_OPTIONS;
  return env;
}

/** Run `node dist/cli/index.js ...args` and collect its exit code and output (never rejects on exit codes). */
export function runCli(args: readonly string[], options: { tmp: string; cwd?: string; timeoutMs?: number }): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: options.cwd ?? ROOT, env: cliEnv(options.tmp), encoding: 'utf8', timeout: options.timeoutMs ?? 90_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : (error as NodeJS.ErrnoException).code;
        resolve({
          status: typeof code === 'number' ? code : null,
          signal: error === null ? null : ((error as { signal?: NodeJS.Signals }).signal ?? null),
          stdout,
          stderr
        });
      }
    );
  });
}

/**
 * A listing of everything under `dir` (including untracked and hidden files): path, type, mode and
 * the SHA-256 of each file's bytes or each link's target. Equal listings mean byte-identical trees.
 * A missing `dir` lists as `null`.
 */
export function treeListing(dir: string): string[] | null {
  if (!existsSync(dir)) return null;
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current).sort()) {
      const full = join(current, name);
      const rel = relative(dir, full).split(sep).join('/');
      const info = lstatSync(full);
      const mode = (info.mode & 0o7777).toString(8);
      if (info.isSymbolicLink()) {
        out.push(`link ${rel} -> ${readlinkSync(full)}`);
      } else if (info.isDirectory()) {
        out.push(`dir ${rel} ${mode}`);
        walk(full);
      } else if (info.isFile()) {
        out.push(`file ${rel} ${mode} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`);
      } else {
        out.push(`other ${rel} ${mode}`);
      }
    }
  };
  walk(dir);
  return out;
}

/** Names in `dir` that the CLI's scratch areas use (`patchproof-…`). */
export function patchproofLeftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('patchproof-'));
}

/** Read a JSON file. */
export async function readJson<T = Record<string, unknown>>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

/** Paths of one fixture's parts. */
export function fixture(name: 'js-duration' | 'py-calculator'): { dir: string; repo: string; reproduction: string; hidden: string; candidate(name: string): string } {
  const dir = join(FIXTURES, name);
  return {
    dir,
    repo: join(dir, 'repo'),
    // The grader lives in the fixture's witness pack, not beside the repository.
    reproduction: join(FIXTURES, '..', 'witness-packs', name, 'reproduction'),
    hidden: join(FIXTURES, '..', 'witness-packs', name, 'hidden'),
    candidate: (candidate) => join(dir, 'candidates', `${candidate}.diff`)
  };
}

/** The proposal and approval files of one candidate, made through the CLI. */
export interface Approved {
  proposalPath: string;
  approvalPath: string;
  proposal: { proposal_hash: string; diff_digest: string; base_snapshot: string; diff: string };
  approval: { proposal_hash: string; approval_digest: string; approved_by: string; run_id: string };
}

/** `patchproof propose` then `patchproof approve` with the proposal's full hash; throws unless both exit 0. */
export async function proposeAndApprove(repo: string, diffFile: string, workDir: string, tmp: string, runId: string): Promise<Approved> {
  const proposalPath = join(workDir, 'proposal.json');
  const approvalPath = join(workDir, 'approval.json');
  const proposed = await runCli(['propose', '--repo', repo, '--diff', diffFile, '--out', proposalPath], { tmp });
  if (proposed.status !== 0) throw new Error(`propose exited ${proposed.status}: ${proposed.stderr}`);
  const proposal = await readJson<Approved['proposal']>(proposalPath);
  const approved = await runCli(
    ['approve', '--proposal', proposalPath, '--proposal-hash', proposal.proposal_hash, '--approved-by', 'e2e-reviewer', '--run-id', runId, '--out', approvalPath],
    { tmp }
  );
  if (approved.status !== 0) throw new Error(`approve exited ${approved.status}: ${approved.stderr}`);
  return { proposalPath, approvalPath, proposal, approval: await readJson<Approved['approval']>(approvalPath) };
}

/** The `validate` argv for the trusted-local runner. */
export function validateArgs(options: { repo: string; approved: Approved; reproduction: string; hidden: string; adapter: string; out: string }): string[] {
  return [
    'validate',
    '--repo',
    options.repo,
    '--proposal',
    options.approved.proposalPath,
    '--approval',
    options.approved.approvalPath,
    '--reproduction',
    options.reproduction,
    '--hidden',
    options.hidden,
    '--adapter',
    options.adapter,
    '--runner',
    'local',
    '--out',
    options.out
  ];
}

/** Is python3 on PATH? */
export function hasPython3(): boolean {
  return spawnSync('python3', ['--version'], { encoding: 'utf8' }).status === 0;
}
