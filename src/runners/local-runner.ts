import { chmod, cp, mkdir, mkdtemp, readdir, rename, rm, rmdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InfrastructureError } from '../errors.js';
import { runCappedProcess } from './capped-process.js';
import type { RunOutcome, RunRequest, Runner, RunnerDescription, RunView } from './runner.js';

/**
 * The trusted-local runner: runs the test command directly on the host. It contains nothing (the
 * candidate can read and write whatever the user can), so it is declared `isolated: false` and a
 * run through it is never proof grade. It still gives every run a clean environment, a fresh
 * HOME/TMPDIR, a timeout and an output cap, and kills the whole process group afterwards.
 */

/** The settings the receipt records for the local runner. */
export const LOCAL_RUNNER_SETTINGS: readonly string[] = ['isolation=none', 'env=request+PATH,HOME,TMPDIR', 'home=fresh-temp-dir', 'kill=process-group', 'mounts=symlinks'];

/**
 * The local runner has no mounts (nothing is read-only here; it is never proof grade). A read-only
 * output appears in the copy as a symlink to its host folder. A writable one (the dependency stage)
 * is a real folder in the copy, moved to its host folder after the run: installers such as `npm ci`
 * delete and recreate their output folder, which would replace a symlink.
 */
async function linkMounts(request: RunRequest): Promise<void> {
  for (const mount of request.mounts ?? []) {
    const at = join(request.hostWorkdir, ...mount.path.split('/'));
    await mkdir(dirname(at), { recursive: true });
    await rmdir(at).catch(() => undefined);
    if (mount.writable) await mkdir(at, { recursive: true });
    else await symlink(mount.hostDir, at, 'dir');
  }
}

async function collectWritableMounts(request: RunRequest): Promise<void> {
  for (const mount of (request.mounts ?? []).filter((m) => m.writable)) {
    const at = join(request.hostWorkdir, ...mount.path.split('/'));
    await rm(mount.hostDir, { recursive: true, force: true });
    // A rename where both lie on one file system; a copy across file systems.
    await rename(at, mount.hostDir).catch(async (error: unknown) => {
      // fs/promises rejects with an ErrnoException.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return mkdir(mount.hostDir, { recursive: true }); // the command removed its output folder: nothing
      if (code !== 'EXDEV') throw error;
      return cp(at, mount.hostDir, { recursive: true, verbatimSymlinks: true });
    });
  }
}

/** Create the trusted-local runner (never proof grade). */
export function createLocalRunner(): Runner {
  const live = new Set<AbortController>();
  const description: RunnerDescription = { kind: 'local', isolated: false, settings: [...LOCAL_RUNNER_SETTINGS] };

  return {
    description,
    view(hostWorkdir: string, hostResultsDir: string): RunView {
      return { workdir: hostWorkdir, resultsDir: hostResultsDir };
    },
    async run(request: RunRequest): Promise<RunOutcome> {
      await linkMounts(request);
      const home = await mkdtemp(join(tmpdir(), 'patchproof-home-'));
      const controller = new AbortController();
      live.add(controller);
      const cancel = (): void => controller.abort();
      if (request.signal?.aborted === true) cancel();
      request.signal?.addEventListener('abort', cancel, { once: true });
      try {
        const outcome = await runCappedProcess({
          argv: request.argv,
          cwd: request.hostWorkdir,
          env: localEnv(request.env, home),
          timeoutMs: request.timeoutMs,
          outputLimitBytes: request.outputLimitBytes,
          signal: controller.signal
        });
        await collectWritableMounts(request);
        return outcome;
      } finally {
        request.signal?.removeEventListener('abort', cancel);
        live.delete(controller);
        await removeTree(home);
      }
    },
    // eslint-disable-next-line @typescript-eslint/require-await -- Runner.dispose returns a Promise; kept async so any throw stays a rejection, as before
    async dispose(): Promise<void> {
      for (const controller of live) controller.abort();
    }
  };
}

/**
 * The environment of a local test process: the requested entries, the host's PATH unless the
 * request sets one, and HOME/TMPDIR forced to the run's own temp dir. Nothing else of the host's
 * environment (tokens, SSH agent sockets, cloud credentials) reaches the test process.
 */
export function localEnv(requested: Record<string, string>, home: string): Record<string, string> {
  const env: Record<string, string> = { ...requested };
  if (env.PATH === undefined && process.env.PATH !== undefined) env.PATH = process.env.PATH;
  env.HOME = home;
  env.TMPDIR = home;
  return env;
}

/** Remove a temp tree, even when the test left read-only directories in it (e.g. tool caches). */
async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true, maxRetries: 2 });
    return;
  } catch {
    await makeWritable(path);
  }
  try {
    await rm(path, { recursive: true, force: true, maxRetries: 2 });
  } catch (error) {
    throw new InfrastructureError(`cannot remove the run's temp dir ${path}`, { cause: error });
  }
}

async function makeWritable(path: string): Promise<void> {
  try {
    await chmod(path, 0o700);
    for (const entry of await readdir(path, { withFileTypes: true })) {
      if (entry.isDirectory()) await makeWritable(join(path, entry.name));
    }
  } catch {
    // Best effort: the retry reports what is still in the way.
  }
}
