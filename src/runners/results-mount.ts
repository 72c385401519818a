import { execFile } from 'node:child_process';
import { chmod, copyFile, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { InfrastructureError } from '../errors.js';

/**
 * The one host-backed writable mount a container gets, bounded in size. The per-file `fsize` ulimit
 * does not bound how many files a candidate writes, so:
 *  - as root, the container writes into a size-capped tmpfs mounted on the host for that run; what
 *    it wrote (regular files only) is copied to the results folder and the tmpfs is unmounted;
 *  - in every case a watchdog sums the folder's size while the run goes on and stops the run when
 *    it passes the cap (a non-root host cannot mount; the overshoot is bounded by the poll interval).
 */

const run = promisify(execFile);

/** Default cap on everything a run may write to its results mount. */
export const DEFAULT_RESULTS_LIMIT_BYTES = 64 * 1024 * 1024;
const WATCH_INTERVAL_MS = 100;

export interface ResultsMount {
  /** The host folder to bind-mount into the container. */
  hostDir: string;
  /** Starts watching; calls `onExceeded` once when the folder grows past the cap. */
  watch(onExceeded: () => void): void;
  /** True when the run's results reached the cap (a full tmpfs refuses further writes silently). */
  full(): Promise<boolean>;
  /** Stop watching, copy results to the final folder, and unmount. Safe to call twice. */
  finish(): Promise<void>;
}

/** Total bytes of regular files under `dir`, never following links. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(path);
    else if (entry.isFile()) total += (await lstat(path).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/** Copy regular files and folders from `from` to `to`; links and special files are left behind. */
async function copyRegular(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) await copyRegular(source, target);
    else if (entry.isFile()) await copyFile(source, target);
  }
}

/**
 * Prepare the results mount for one run. `resultsDir` is where the orchestrator reads results;
 * it is made world-writable because the container's uid 65534 owns nothing on the host (the
 * orchestrator keeps it inside a private 0700 folder).
 */
export async function prepareResultsMount(resultsDir: string, limitBytes: number): Promise<ResultsMount> {
  try {
    await mkdir(resultsDir, { recursive: true });
    await chmod(resultsDir, 0o777);
  } catch (error) {
    throw new InfrastructureError(`cannot prepare the results directory ${resultsDir}`, { cause: error });
  }
  let hostDir = resultsDir;
  let mounted = false;
  if (process.getuid?.() === 0) {
    const mountpoint = `${resultsDir}.mount`;
    await mkdir(mountpoint, { recursive: true });
    const sizeKiB = Math.max(1, Math.ceil(limitBytes / 1024));
    try {
      await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0777,nosuid,nodev,noexec`, 'patchproof-results', mountpoint]);
      hostDir = mountpoint;
      mounted = true;
    } catch {
      // Some hosts forbid mounts even to root (a container without CAP_SYS_ADMIN): the watchdog still bounds it.
      await rm(mountpoint, { recursive: true, force: true });
    }
  }
  let timer: NodeJS.Timeout | undefined;
  // One finish for everyone: dispose() must wait for a finish the run itself already began.
  let finishing: Promise<void> | undefined;
  const release = async (): Promise<void> => {
    if (!mounted) return;
    try {
      await copyRegular(hostDir, resultsDir);
    } finally {
      await run('umount', [hostDir]).catch(() => run('umount', ['-l', hostDir]));
      await rm(hostDir, { recursive: true, force: true });
    }
  };
  return {
    hostDir,
    watch(onExceeded) {
      let fired = false;
      let busy = false;
      timer = setInterval(() => {
        if (busy || fired) return;
        busy = true;
        void folderBytes(hostDir)
          .then((bytes) => {
            if (bytes >= limitBytes && !fired) {
              fired = true;
              onExceeded();
            }
          })
          .finally(() => {
            busy = false;
          });
      }, WATCH_INTERVAL_MS);
      timer.unref();
    },
    async full() {
      return (await folderBytes(hostDir)) >= limitBytes;
    },
    finish() {
      if (timer) clearInterval(timer);
      finishing ??= release();
      return finishing;
    }
  };
}
