import { readdir, realpath, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, posix } from 'node:path';
import { buildSnapshot, type Snapshot, type SnapshotEntry, type SnapshotSource } from '../core/snapshot-record.js';
import { ConfigurationError, InfrastructureError } from '../errors.js';
import { createGit, type Git } from '../fetch/git.js';
import { createFileHasher, type FileHasher, type HashOutcome } from './hash-worker.js';

/** How to take a snapshot. */
export interface SnapshotOptions {
  /** The git to ask which files are tracked; `createGit()` when absent. */
  git?: Git;
  /**
   * Hashing threads, each reading one file at a time; the number of cores when absent. Raise it for
   * a cold cache on storage that serves many reads at once.
   */
  concurrency?: number;
  /**
   * List every file under the root as it is on disk (source `walk`), even inside a git work tree.
   * For folders named on the command line (`--reproduction`, `--hidden`): there the user means the
   * files they see, tracked or not, ignored or not; a repository keeps the tracked-files rule.
   */
  onDisk?: boolean;
}

/** Paths per message to a hashing thread: enough to make messaging cheap, few enough to balance. */
const BATCH_SIZE = 32;

const TRACKED_MODES = new Set(['100644', '100755', '120000']);

/**
 * The content of the repository at `root`. Inside a git work tree the entries are exactly the files
 * git tracks under `root` (source `git`); elsewhere every file under `root` except `.git` folders
 * (source `walk`). Symbolic links are recorded as links and never followed.
 *
 * Fails closed with a ConfigurationError on anything it cannot record faithfully: a FIFO, socket or
 * device; a tracked file missing from the working tree, or now a folder; a submodule or unresolved
 * conflict; a name or link target that is not UTF-8; a tracked path reached through a symbolic link
 * (wherever it points); a root that is not a directory. Git and file system faults throw
 * InfrastructureError, as does a file that changes while it is read.
 *
 * Files are streamed, never read whole, by `concurrency` worker threads. The snapshot is of one
 * moment only if nothing writes to the tree meanwhile; the checks and the reads are not atomic.
 */
export async function takeSnapshot(root: string, options: SnapshotOptions = {}): Promise<Snapshot> {
  const threads = threadCount(options.concurrency);
  const realRoot = await resolveRoot(root);
  const git = options.git ?? createGit();
  const hasher = createFileHasher(threads);
  try {
    const source: SnapshotSource = options.onDisk === true || (await git.workTreeTop(realRoot)) === undefined ? 'walk' : 'git';
    const collector = new Collector(realRoot, source, hasher);
    if (source === 'git') {
      const paths = await trackedPaths(git, realRoot);
      await checkParentFolders(realRoot, paths);
      paths.forEach((path) => collector.add(path));
    } else {
      await walk(realRoot, collector);
    }
    return buildSnapshot(source, await collector.finish());
  } finally {
    await hasher.close();
  }
}

function threadCount(concurrency: number | undefined): number {
  if (concurrency === undefined) {
    return availableParallelism();
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ConfigurationError(`Snapshot concurrency ${concurrency} is not valid. Expected a whole number of at least 1.`);
  }
  return concurrency;
}

async function resolveRoot(root: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(root);
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) {
      throw new ConfigurationError(`Repository root '${root}' does not exist. Expected the path of an existing directory.`);
    }
    throw new InfrastructureError(`Could not resolve repository root '${root}': ${messageOf(error)}`, { cause: error });
  }
  if (!(await stat(real)).isDirectory()) {
    throw new ConfigurationError(`Repository root '${root}' is not a directory. Expected the path of a directory.`);
  }
  return real;
}

/** Tracked paths under the root as text, refusing what a snapshot cannot hold. */
async function trackedPaths(git: Git, realRoot: string): Promise<string[]> {
  const paths: string[] = [];
  for (const file of await git.lsFiles(realRoot)) {
    const path = decodeName(file.path, '');
    if (file.stage !== 0) {
      throw new ConfigurationError(`'${path}' has an unresolved merge conflict. Resolve it and stage the result (git add) first.`);
    }
    if (file.mode === '160000') {
      throw new ConfigurationError(`'${path}' is a git submodule. PatchProof cannot snapshot submodules; remove it (git rm) or use a repository without submodules.`);
    }
    if (!TRACKED_MODES.has(file.mode)) {
      throw new ConfigurationError(`'${path}' has git mode ${file.mode}. Expected a regular file (100644, 100755) or a symbolic link (120000).`);
    }
    paths.push(path);
  }
  return paths;
}

/**
 * Every folder above a tracked path must be the real folder of that name under the root. A folder
 * replaced by a symbolic link would make us read what it points to, possibly outside the root.
 */
async function checkParentFolders(realRoot: string, paths: readonly string[]): Promise<void> {
  const firstPathByFolder = new Map<string, string>();
  for (const path of paths) {
    const folder = posix.dirname(path);
    if (folder !== '.' && !firstPathByFolder.has(folder)) {
      firstPathByFolder.set(folder, path);
    }
  }
  // libuv's thread pool bounds how many of these run at once.
  await Promise.all(
    [...firstPathByFolder].map(async ([folder, path]) => {
      const expected = join(realRoot, folder);
      let real: string;
      try {
        real = await realpath(expected);
      } catch (error) {
        if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) {
          throw missingTracked(path);
        }
        throw new InfrastructureError(`Could not resolve folder '${folder}': ${messageOf(error)}`, { cause: error });
      }
      if (real !== expected) {
        throw new ConfigurationError(
          `Tracked file '${path}' is reached through a symbolic link: '${folder}' resolves to '${real}'. Replace the link with the tracked folder (git checkout -- '${folder}').`
        );
      }
    })
  );
}

/** Every file and link under the root, skipping `.git` folders; subfolders are read concurrently. */
async function walk(realRoot: string, collector: Collector): Promise<void> {
  const visit = async (folder: string): Promise<void> => {
    if (collector.failed) {
      return;
    }
    let dirents;
    try {
      dirents = await readdir(folder === '' ? realRoot : join(realRoot, folder), { encoding: 'buffer', withFileTypes: true });
    } catch (error) {
      throw new InfrastructureError(`Could not read folder '${folder || '.'}': ${messageOf(error)}`, { cause: error });
    }
    const subfolders: string[] = [];
    for (const dirent of dirents) {
      const name = decodeName(dirent.name, folder);
      const path = folder === '' ? name : `${folder}/${name}`;
      if (!dirent.isDirectory()) {
        collector.add(path);
      } else if (name !== '.git') {
        subfolders.push(path);
      }
    }
    await Promise.all(subfolders.map(visit));
  };
  await visit('');
}

/** Sends paths to the hashers in batches and turns outcomes into entries, keeping the first failure. */
class Collector {
  /** In the order paths were added: git lists them sorted, which makes the final sort cheap. */
  private readonly entries: SnapshotEntry[] = [];
  private readonly pending: Promise<void>[] = [];
  private batch: string[] = [];
  private added = 0;
  private failure: unknown;
  failed = false;

  constructor(
    private readonly realRoot: string,
    private readonly source: SnapshotSource,
    private readonly hasher: FileHasher
  ) {}

  add(path: string): void {
    this.batch.push(path);
    if (this.batch.length >= BATCH_SIZE) {
      this.flush();
    }
  }

  async finish(): Promise<SnapshotEntry[]> {
    this.flush();
    await Promise.all(this.pending);
    if (this.failed) {
      throw this.failure;
    }
    return this.entries;
  }

  private flush(): void {
    if (this.batch.length === 0) {
      return;
    }
    const paths = this.batch;
    const first = this.added;
    this.batch = [];
    this.added += paths.length;
    // Paths are already normal and relative, and the root absolute: no need for path.join.
    const prefix = this.realRoot.endsWith('/') ? this.realRoot : `${this.realRoot}/`;
    const work = this.hasher.hash(paths.map((path) => prefix + path)).then((outcomes) => {
      outcomes.forEach((outcome, index) => {
        this.entries[first + index] = this.entry(paths[index] ?? '', outcome);
      });
    });
    // Handled at once: a failure while the walk is still running must not become an unhandled rejection.
    this.pending.push(
      work.catch((error: unknown) => {
        if (!this.failed) {
          this.failed = true;
          this.failure = error;
        }
      })
    );
  }

  private entry(path: string, outcome: HashOutcome): SnapshotEntry {
    switch (outcome.status) {
      case 'hashed':
        return { path, kind: outcome.kind, mode: outcome.mode, sha256: outcome.sha256, size: outcome.size };
      case 'missing':
        if (this.source === 'git') {
          throw missingTracked(path);
        }
        throw changedWhileReading(path);
      case 'directory':
        if (this.source === 'git') {
          throw new ConfigurationError(`Tracked file '${path}' is a folder in the working tree. Restore the file (git checkout -- '${path}') or stage the change.`);
        }
        throw changedWhileReading(path);
      case 'special':
        throw new ConfigurationError(`'${path}' is a ${outcome.detail}. A snapshot holds only regular files and symbolic links; remove it or move it out of the repository.`);
      case 'link-target-not-utf8':
        throw new ConfigurationError(`Symbolic link '${path}' points to a name that is not valid UTF-8. Point it to a UTF-8 name.`);
      case 'changed':
        throw changedWhileReading(path);
      case 'error':
        throw new InfrastructureError(`Could not read '${path}': ${outcome.detail}`);
      default:
        return assertNever(outcome);
    }
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** A file name's bytes as text; names that are not UTF-8 cannot be recorded, so they are refused. */
function decodeName(bytes: Uint8Array, folder: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    const shown = (folder === '' ? '' : `${folder}/`) + lenientUtf8.decode(bytes);
    const hex = Buffer.from(bytes)
      .toString('hex')
      .replace(/(..)(?!$)/g, '$1 ');
    throw new ConfigurationError(`File name ${JSON.stringify(shown)} (bytes ${hex}) is not valid UTF-8. Rename it to a UTF-8 name.`);
  }
}

function missingTracked(path: string): ConfigurationError {
  return new ConfigurationError(`Tracked file '${path}' is missing from the working tree. Restore it (git checkout -- '${path}') or stage its removal (git rm).`);
}

function changedWhileReading(path: string): InfrastructureError {
  return new InfrastructureError(`'${path}' changed while the snapshot was being taken. Take it again when nothing is writing to the repository.`);
}

// Duck-typed, not `instanceof Error`: errors from another realm (a VM context, a worker) fail that test.
function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === code;
}

function messageOf(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : String(error);
}

function assertNever(value: never): never {
  throw new InfrastructureError(`Unexpected hashing outcome ${JSON.stringify(value)}`);
}
