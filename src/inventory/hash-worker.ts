import { Worker } from 'node:worker_threads';
import type { EntryKind, EntryMode } from '../core/snapshot-record.js';
import { InfrastructureError } from '../errors.js';

/**
 * Hashing files on worker threads. SHA-256 is CPU-bound, so one thread is one core; a small pool
 * lets a snapshot use every core while each thread streams its files through a fixed buffer.
 */

/** What one path turned out to be. Links are read with readlink, never followed. */
export type HashOutcome =
  | { status: 'hashed'; kind: EntryKind; mode: EntryMode; sha256: string; size: number }
  /** Nothing there, or a parent is not a directory. */
  | { status: 'missing' }
  | { status: 'directory' }
  /** A FIFO, socket or device: `detail` names which. */
  | { status: 'special'; detail: string }
  | { status: 'link-target-not-utf8' }
  /** The path was replaced between lstat and open. */
  | { status: 'changed' }
  /** The file system refused: `detail` is the error message. */
  | { status: 'error'; detail: string };

/** A pool of hashing threads. `close()` must be called when done, also after a failure. */
export interface FileHasher {
  /** Hashes absolute paths; the outcomes are in the same order. Rejects only if a thread dies. */
  hash(paths: readonly string[]): Promise<HashOutcome[]>;
  close(): Promise<void>;
}

/**
 * The worker's code, evaluated from a string (`eval: true`) rather than loaded from a file, so it
 * survives the CLI being bundled into one file by ncc. It loads modules with `import()` because an
 * eval worker runs as CommonJS or as ESM depending on the flags it inherits (`--input-type`).
 *
 * O_NOFOLLOW makes open fail if the path became a link after lstat; O_NONBLOCK keeps open from
 * hanging if it became a FIFO. Both are checked again with fstat against the lstat result.
 */
const WORKER_SOURCE = String.raw`
'use strict';
const CHUNK = 256 * 1024;

function main(parentPort, fs, createHash) {
  const buffer = Buffer.allocUnsafe(CHUNK);
  const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW || 0) | (fs.constants.O_NONBLOCK || 0);
  const utf8 = new TextDecoder('utf-8', { fatal: true });

  function special(stat) {
    if (stat.isFIFO()) return 'FIFO (named pipe)';
    if (stat.isSocket()) return 'socket';
    if (stat.isCharacterDevice()) return 'character device';
    if (stat.isBlockDevice()) return 'block device';
    return 'file of unknown type';
  }

  function hashOne(path) {
    let stat;
    try {
      stat = fs.lstatSync(path);
    } catch (error) {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return { status: 'missing' };
      throw error;
    }
    if (stat.isSymbolicLink()) {
      const target = fs.readlinkSync(path, { encoding: 'buffer' });
      try {
        utf8.decode(target);
      } catch {
        return { status: 'link-target-not-utf8' };
      }
      const sha256 = createHash('sha256').update(target).digest('hex');
      return { status: 'hashed', kind: 'symlink', mode: '120000', sha256, size: target.length };
    }
    if (stat.isDirectory()) return { status: 'directory' };
    if (!stat.isFile()) return { status: 'special', detail: special(stat) };
    let fd;
    try {
      fd = fs.openSync(path, OPEN_FLAGS);
    } catch (error) {
      if (error.code === 'ELOOP' || error.code === 'ENOENT' || error.code === 'ENXIO') return { status: 'changed' };
      throw error;
    }
    try {
      const opened = fs.fstatSync(fd);
      if (!opened.isFile() || opened.ino !== stat.ino || opened.dev !== stat.dev) return { status: 'changed' };
      const hash = createHash('sha256');
      let size = 0;
      let read;
      while ((read = fs.readSync(fd, buffer, 0, CHUNK, null)) > 0) {
        hash.update(buffer.subarray(0, read));
        size += read;
      }
      const mode = (opened.mode & 0o100) !== 0 ? '100755' : '100644';
      return { status: 'hashed', kind: 'file', mode, sha256: hash.digest('hex'), size };
    } finally {
      fs.closeSync(fd);
    }
  }

  parentPort.on('message', ({ id, paths }) => {
    const outcomes = paths.map((path) => {
      try {
        return hashOne(path);
      } catch (error) {
        return { status: 'error', detail: String(error && error.message ? error.message : error) };
      }
    });
    parentPort.postMessage({ id, outcomes });
  });
}

Promise.all([import('node:worker_threads'), import('node:fs'), import('node:crypto')]).then(
  ([threads, fs, crypto]) => main(threads.parentPort, fs, crypto.createHash)
);
`;

/** Batches a thread may hold at once: one running, one waiting, so it never idles between messages. */
const BATCHES_PER_THREAD = 2;

interface Job {
  id: number;
  paths: readonly string[];
  resolve: (outcomes: HashOutcome[]) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  running: Map<number, Job>;
}

/**
 * A FileHasher with `threads` worker threads, started at once so their start-up overlaps with
 * listing the files.
 */
export function createFileHasher(threads: number): FileHasher {
  return new WorkerPool(threads);
}

class WorkerPool implements FileHasher {
  private readonly threads: Thread[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private failure: Error | undefined;

  constructor(threads: number) {
    try {
      for (let i = 0; i < threads; i++) {
        this.startThread();
      }
    } catch (error) {
      this.threads.forEach((thread) => void thread.worker.terminate());
      throw new InfrastructureError(`Could not start a hashing thread: ${String(error)}`, { cause: error });
    }
  }

  hash(paths: readonly string[]): Promise<HashOutcome[]> {
    if (this.failure !== undefined) {
      return Promise.reject(this.failure);
    }
    if (paths.length === 0) {
      return Promise.resolve([]);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, paths, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.fail(new InfrastructureError('The hashing pool was closed before the work finished.'));
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = this.pickThread();
      if (thread === undefined) {
        return;
      }
      const job = this.queue.shift() as Job;
      thread.running.set(job.id, job);
      thread.worker.postMessage({ id: job.id, paths: job.paths });
    }
  }

  /** The least busy thread with room for another batch. */
  private pickThread(): Thread | undefined {
    let best: Thread | undefined;
    for (const thread of this.threads) {
      if (thread.running.size < BATCHES_PER_THREAD && (best === undefined || thread.running.size < best.running.size)) {
        best = thread;
      }
    }
    return best;
  }

  private startThread(): Thread {
    const thread: Thread = { worker: new Worker(WORKER_SOURCE, { eval: true }), running: new Map() };
    thread.worker.on('message', (message: { id: number; outcomes: HashOutcome[] }) => {
      const job = thread.running.get(message.id);
      thread.running.delete(message.id);
      job?.resolve(message.outcomes);
      this.dispatch();
    });
    thread.worker.on('error', (error: unknown) => {
      this.fail(new InfrastructureError(`A hashing thread failed: ${String(error)}`, { cause: error }));
    });
    thread.worker.on('exit', (code) => {
      if (thread.running.size > 0) {
        this.fail(new InfrastructureError(`A hashing thread stopped (exit ${code}) with work unfinished.`));
      }
    });
    this.threads.push(thread);
    return thread;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const thread of this.threads) {
      for (const job of thread.running.values()) {
        job.reject(this.failure);
      }
      thread.running.clear();
    }
    for (const job of this.queue.splice(0)) {
      job.reject(this.failure);
    }
  }
}
