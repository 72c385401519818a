import { execFile } from 'node:child_process';
import { chmod, copyFile, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import picomatch from 'picomatch';
import { InfrastructureError } from '../errors.js';

/**
 * The one host-backed writable mount a container gets, bounded in size. The per-file `fsize` ulimit
 * does not bound how many files a candidate writes, so:
 *  - as root, the container writes into a tmpfs capped in bytes (`size=`) and in files (`nr_inodes=`:
 *    without it a tmpfs takes millions of empty files) mounted on the host for that run; only the
 *    adapter's expected result files (regular files matching its globs) are copied to the results
 *    folder, within a deadline, and the tmpfs is unmounted;
 *  - in every case a watchdog sums the folder's size and counts its entries while the run goes on
 *    and stops the run when either passes its cap (a non-root host cannot mount; the overshoot is
 *    bounded by the poll interval). Every walk stops at the file cap, so no walk is unbounded.
 */

const run = promisify(execFile);

/** Default cap on everything a run may write to its results mount. */
export const DEFAULT_RESULTS_LIMIT_BYTES = 64 * 1024 * 1024;
/** Default cap on how many files and folders a run may create in its results mount. */
export const DEFAULT_RESULTS_LIMIT_FILES = 4096;
const WATCH_INTERVAL_MS = 100;

/** The caps of one results mount. */
export interface ResultsLimits {
  bytes: number;
  /** Files and folders together (each takes an inode). */
  files: number;
}

/** What the run's adapter expects to find, and how long copying it may take. */
export interface ResultsCollection {
  /** Globs (picomatch) of the result files the adapter reads, relative to the results folder. */
  expected: readonly string[];
  /** Epoch milliseconds by which copying must be done; past it the copy stops and is incomplete. */
  deadline: number;
}

export interface ResultsMount {
  /** The host folder to bind-mount into the container. */
  hostDir: string;
  /** Starts watching; calls `onExceeded` once when the folder grows past the cap. */
  watch(onExceeded: () => void): void;
  /** True when the run's results reached a cap (a full tmpfs refuses further writes silently). */
  full(): Promise<boolean>;
  /**
   * Stop watching, copy the expected results to the final folder, and unmount. Safe to call twice.
   * Resolves to false when the copy could not finish (file cap or deadline): the results are then
   * incomplete and the run must not pass.
   */
  finish(collect?: ResultsCollection): Promise<boolean>;
}

/** Bytes of regular files and count of entries under `dir`, never following links, stopping at `maxEntries`. */
async function folderUsage(dir: string, maxEntries: number): Promise<{ bytes: number; entries: number }> {
  const usage = { bytes: 0, entries: 0 };
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      usage.entries += 1;
      if (usage.entries >= maxEntries) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) usage.bytes += (await lstat(path).catch(() => ({ size: 0 }))).size;
      if (usage.entries >= maxEntries) return;
    }
  };
  await walk(dir);
  return usage;
}

/**
 * Copy the regular files matching `collect.expected` from `from` to `to`; links, special files and
 * anything else are left behind. False when it stopped early (more than `maxEntries` entries
 * walked, or past the deadline).
 */
async function copyExpected(from: string, to: string, collect: ResultsCollection, maxEntries: number): Promise<boolean> {
  const isExpected = collect.expected.length === 0 ? () => false : picomatch([...collect.expected], { dot: true });
  let walked = 0;
  const walk = async (folder: string, prefix: string): Promise<boolean> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      walked += 1;
      if (walked > maxEntries || Date.now() > collect.deadline) return false;
      const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      const source = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!(await walk(source, name))) return false;
      } else if (entry.isFile() && isExpected(name)) {
        const target = join(to, ...name.split('/'));
        await mkdir(join(target, '..'), { recursive: true });
        await copyFile(source, target);
      }
    }
    return true;
  };
  await mkdir(to, { recursive: true });
  return walk(from, '');
}

/**
 * Prepare the results mount for one run. `resultsDir` is where the orchestrator reads results;
 * it is made world-writable because the container's uid 65534 owns nothing on the host (the
 * orchestrator keeps it inside a private 0700 folder).
 */
export async function prepareResultsMount(resultsDir: string, limits: ResultsLimits): Promise<ResultsMount> {
  const { bytes: limitBytes, files: limitFiles } = limits;
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
      // The source is named like any tmpfs: the container's mount table shows it.
      await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,nr_inodes=${limitFiles + 1},mode=0777,nosuid,nodev,noexec`, 'tmpfs', mountpoint]);
      hostDir = mountpoint;
      mounted = true;
    } catch {
      // Some hosts forbid mounts even to root (a container without CAP_SYS_ADMIN): the watchdog still bounds it.
      await rm(mountpoint, { recursive: true, force: true });
    }
  }
  let timer: NodeJS.Timeout | undefined;
  // One finish for everyone: dispose() must wait for a finish the run itself already began.
  let finishing: Promise<boolean> | undefined;
  const release = async (collect: ResultsCollection | undefined): Promise<boolean> => {
    if (!mounted) return true;
    try {
      // Without a collection (dispose(), a refused run) nothing is read: the results are discarded.
      return collect === undefined ? true : await copyExpected(hostDir, resultsDir, collect, limitFiles);
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
        void folderUsage(hostDir, limitFiles)
          .then(({ bytes, entries }) => {
            if ((bytes >= limitBytes || entries >= limitFiles) && !fired) {
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
      const { bytes, entries } = await folderUsage(hostDir, limitFiles);
      return bytes >= limitBytes || entries >= limitFiles;
    },
    finish(collect) {
      if (timer) clearInterval(timer);
      finishing ??= release(collect);
      return finishing;
    }
  };
}
