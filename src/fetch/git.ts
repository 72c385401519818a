import { spawn } from 'node:child_process';
import { mkdir, open, symlink } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { quoteForMessage } from '../core/diff-policy.js';
import { COMMIT_SHA_PATTERN } from '../core/hashing.js';
import { ConfigurationError, InfrastructureError, PolicyError } from '../errors.js';

/**
 * The one module that runs git, for the CLI's snapshots (`createGit`) and the action's trusted
 * checkout (`createGitSource`). Every command goes through `runGit`: an argv array (never a shell),
 * the settings of `gitCommandLine` (no hooks, no fsmonitor, no submodule recursion) and the
 * environment of `gitEnvironment` (no GIT_* variable of the caller's).
 */

/** One index entry, as `git ls-files -s` reports it. */
export interface TrackedFile {
  /** Octal mode from the index: `100644`, `100755`, `120000`, or `160000` for a submodule (gitlink). */
  mode: string;
  /** Merge stage: 0 normally, 1 to 3 for a path with an unresolved conflict. */
  stage: number;
  /** Relative to the directory asked about, `/`-separated, as raw bytes: git does not promise UTF-8. */
  path: Buffer;
}

/** The git operations a snapshot needs (the CLI, the action's base tree check). */
export interface Git {
  /** The top folder of the work tree holding `dir`; undefined when `dir` is not inside a work tree. */
  workTreeTop(dir: string): Promise<string | undefined>;
  /** Every file git tracks under `dir` (the index, not HEAD), relative to `dir`. */
  lsFiles(dir: string): Promise<TrackedFile[]>;
}

/** A Git that runs the `git` found on PATH. Failures throw InfrastructureError. */
export function createGit(): Git {
  return new GitCommandManager();
}

const NOT_A_WORK_TREE = [/not a git repository/i, /must be run in a work tree/i];
/** What git's listing of one folder may print (the old execFile bound). */
const LISTING_MAX_BYTES = 1024 * 1024 * 1024;
const LS_FILES_META = /^([0-7]{6}) [0-9a-f]{40,64} ([0-3])$/;

class GitCommandManager implements Git {
  async workTreeTop(dir: string): Promise<string | undefined> {
    const result = await runGit(dir, ['rev-parse', '--show-toplevel'], { maxBytes: LISTING_MAX_BYTES });
    if (result.exitCode !== 0) {
      if (NOT_A_WORK_TREE.some((pattern) => pattern.test(result.stderr))) {
        return undefined;
      }
      throw failureIn(['rev-parse', '--show-toplevel'], dir, result);
    }
    const top = result.stdout.toString('utf8').replace(/\n$/, '');
    if (top === '') {
      return undefined;
    }
    return top;
  }

  async lsFiles(dir: string): Promise<TrackedFile[]> {
    const result = await runGit(dir, ['ls-files', '-z', '--stage'], { maxBytes: LISTING_MAX_BYTES });
    if (result.overflow) {
      throw new InfrastructureError(`git ls-files printed more than ${LISTING_MAX_BYTES} bytes in '${dir}'; PatchProof snapshots smaller trees`);
    }
    if (result.exitCode !== 0) {
      throw failureIn(['ls-files'], dir, result);
    }
    return parseLsFiles(result.stdout);
  }
}

/** `<mode> <object> <stage>\t<path>\0` records; paths stay bytes. */
function parseLsFiles(output: Buffer): TrackedFile[] {
  const files: TrackedFile[] = [];
  let start = 0;
  while (start < output.length) {
    let end = output.indexOf(0, start);
    if (end === -1) {
      end = output.length;
    }
    const tab = output.indexOf(0x09, start);
    const meta = tab === -1 || tab > end ? null : LS_FILES_META.exec(output.toString('latin1', start, tab));
    if (meta === null) {
      throw new InfrastructureError(`git ls-files printed a record PatchProof cannot read: ${JSON.stringify(output.toString('latin1', start, end))}`);
    }
    files.push({ mode: meta[1] ?? '', stage: Number(meta[2]), path: output.subarray(tab + 1, end) });
    start = end + 1;
  }
  return files;
}

/**
 * The action's git on the trusted checkout: fetches the pull request's commits (objects only: the
 * candidate is never checked out), computes the pull request's diff, and writes trees of trusted
 * commits (the base, a witness pack from a trusted ref) into fresh folders, byte for byte as git
 * stores them.
 */

/** Git operations on the trusted checkout, as validate mode needs them. */
export interface GitSource {
  /**
   * Make sure `base`, `head` and a merge base of the two are in the object store, fetching from
   * `origin` only what is missing (shallow checkouts are deepened step by step). When the head
   * cannot be fetched by its id, `refs/pull/<pullNumber>/head` is fetched and must equal it.
   */
  fetchCommits(base: string, head: string, pullNumber?: number): Promise<void>;
  /** `git diff base...head`: the pull request's change, as UTF-8 text of at most `maxBytes` bytes (else PolicyError). */
  diff(base: string, head: string, maxBytes: number): Promise<string>;
  /** The commit `ref` names, fetching it from `origin` when the checkout does not have it. */
  resolveCommit(ref: string): Promise<string>;
  /** True when `ancestor` is `commit` or one of its ancestors; in a shallow checkout the history is deepened (at last fetched whole) before it answers false. */
  isAncestor(ancestor: string, commit: string): Promise<boolean>;
  /**
   * The commit `refs/heads/<branch>` names on origin now: always fetched, never the checkout's own
   * ref of that name (which any earlier step could have moved). Throws InfrastructureError when origin
   * cannot be reached, ConfigurationError when it has no such branch.
   */
  fetchBranchTip(branch: string): Promise<string>;
  /**
   * Write the tree `treeish` (`<commit>` or `<commit>:<path>`) into `dest`, an empty folder: every
   * blob exactly as stored (no checkout filters, attributes or hooks), modes 0644/0755, symbolic
   * links as links. Returns the paths written, `/`-separated.
   */
  writeTree(treeish: string, dest: string): Promise<string[]>;
}

/** How to reach `origin` when it needs credentials the checkout did not persist. */
export interface GitSourceOptions {
  /** The token to send to `serverUrl` on fetches, as actions/checkout does; never put on a command line. */
  token?: string;
  /** GITHUB_SERVER_URL, e.g. `https://github.com`. */
  serverUrl?: string;
}

/** A GitSource for the work tree at `repoDir`. Git faults throw InfrastructureError. */
export function createGitSource(repoDir: string, options: GitSourceOptions = {}): GitSource {
  return new GitCommandSource(repoDir, options);
}

/** Depth of the first fetch of a missing commit, then deepening steps before fetching all history. */
const FETCH_DEPTH = 50;
const DEEPEN_STEPS = [200, 1000];
/** Blobs read per `git cat-file --batch`: bounds the memory a large tree needs. */
const BLOB_BATCH = 500;

interface GitResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
  /** stdout passed `maxBytes` and the process was stopped. */
  overflow: boolean;
}

class GitCommandSource implements GitSource {
  private authChecked = false;
  private authEnv: Record<string, string> = {};

  constructor(
    private readonly repoDir: string,
    private readonly options: GitSourceOptions
  ) {}

  async fetchCommits(base: string, head: string, pullNumber?: number): Promise<void> {
    for (const sha of [base, head]) {
      if (!COMMIT_SHA_PATTERN.test(sha)) throw new ConfigurationError(`'${sha}' is not a full commit SHA; give the 40-hex commit id`);
    }
    const repository = await this.git(['rev-parse', '--git-dir']);
    if (repository.exitCode !== 0) {
      throw new ConfigurationError(
        `'${this.repoDir}' is not a git checkout (${firstLine(repository.stderr)}); check the repository out with actions/checkout first, or set repository-path`
      );
    }
    const missing = [];
    for (const sha of [base, head]) if (!(await this.hasCommit(sha))) missing.push(sha);
    if (missing.length > 0) {
      const fetched = await this.tryFetch(await this.depthArgs(FETCH_DEPTH), missing);
      if (!fetched.ok) await this.fetchFallback(missing, head, pullNumber, fetched.message);
    }
    for (const step of [...DEEPEN_STEPS, 0]) {
      if ((await this.git(['merge-base', base, head])).exitCode === 0) return;
      if (!(await this.isShallow())) break;
      // 0: the last step fetches the whole history of both commits.
      await this.fetch(step === 0 ? ['--unshallow'] : [`--deepen=${step}`], [base, head]);
    }
    if ((await this.git(['merge-base', base, head])).exitCode !== 0) {
      throw new ConfigurationError(`commits ${base} and ${head} share no history; the pull request's base and head must have a common ancestor`);
    }
  }

  async diff(base: string, head: string, maxBytes: number): Promise<string> {
    // Every option that config could change is given: prefixes, context, renames, textconv, external diff tools.
    const result = await this.git(
      [
        '-c',
        'diff.suppressBlankEmpty=false',
        'diff',
        '--no-color',
        '--no-ext-diff',
        '--no-textconv',
        '--no-renames',
        '--full-index',
        '--no-relative',
        '--unified=3',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        '--ignore-submodules=none',
        `${base}...${head}`,
        '--'
      ],
      maxBytes
    );
    if (result.overflow) {
      throw new PolicyError(
        'policy_violation',
        `the pull request's diff is larger than ${maxBytes} bytes, the witness pack's limit; split the change or raise limits.diff_max_bytes in the pack`
      );
    }
    if (result.exitCode !== 0) throw failure('diff', result);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(result.stdout);
    } catch {
      throw new PolicyError('patch_invalid', "the pull request's diff is not UTF-8 text; PatchProof validates text changes only");
    }
  }

  async resolveCommit(ref: string): Promise<string> {
    const local = await this.revParse(`${ref}^{commit}`);
    if (local !== undefined) return local;
    const fetched = await this.tryFetch(await this.depthArgs(1), [ref]);
    if (!fetched.ok)
      throw new ConfigurationError(`ref '${ref}' is not in the checkout and could not be fetched from origin (${fetched.message}); give a branch, tag or commit of the repository`);
    const commit = await this.revParse('FETCH_HEAD^{commit}');
    if (commit === undefined) throw new ConfigurationError(`ref '${ref}' does not name a commit`);
    return commit;
  }

  async fetchBranchTip(branch: string): Promise<string> {
    const ref = `refs/heads/${branch}`;
    if ((await this.git(['check-ref-format', ref])).exitCode !== 0) throw new ConfigurationError(`'${branch}' is not a branch name`);
    const fetched = await this.tryFetch(await this.depthArgs(FETCH_DEPTH), [ref]);
    if (!fetched.ok) throw new InfrastructureError(`git fetch of ${ref} from origin failed: ${fetched.message}`);
    const commit = await this.revParse('FETCH_HEAD^{commit}');
    if (commit === undefined) throw new ConfigurationError(`origin's ${ref} does not name a commit`);
    return commit;
  }

  async isAncestor(ancestor: string, commit: string): Promise<boolean> {
    // In a shallow checkout "no" may only mean the history between them was not fetched: deepen
    // `commit`'s history, and at last fetch all of it, before answering no (fail closed).
    for (const step of [...DEEPEN_STEPS, 0, undefined]) {
      const result = await this.git(['merge-base', '--is-ancestor', ancestor, commit]);
      if (result.exitCode === 0) return true;
      if (result.exitCode !== 1) throw failure('merge-base --is-ancestor', result);
      if (step === undefined || !(await this.isShallow())) return false;
      await this.fetch(step === 0 ? ['--unshallow'] : [`--deepen=${step}`], [commit]);
    }
    return false;
  }

  async writeTree(treeish: string, dest: string): Promise<string[]> {
    const listing = await this.git(['ls-tree', '-r', '-z', '--full-tree', treeish]);
    if (listing.exitCode !== 0) throw new ConfigurationError(`'${treeish}' is not a tree in the checkout (${firstLine(listing.stderr)})`);
    const entries = parseTree(listing.stdout, treeish);
    await mkdir(dest, { recursive: true, mode: 0o755 });
    // Links go last: while files are written, no link exists that a later path could lead through.
    const files = entries.filter((entry) => entry.mode !== '120000');
    const links = entries.filter((entry) => entry.mode === '120000');
    for (let at = 0; at < files.length; at += BLOB_BATCH) {
      const batch = files.slice(at, at + BLOB_BATCH);
      const blobs = await this.readBlobs(batch.map((entry) => entry.oid));
      for (const [index, entry] of batch.entries()) {
        const target = await prepareParent(dest, entry.path);
        const mode = entry.mode === '100755' ? 0o755 : 0o644;
        const handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
        try {
          await handle.writeFile(blobs[index] as Buffer);
          await handle.chmod(mode);
        } finally {
          await handle.close();
        }
      }
    }
    const targets = await this.readBlobs(links.map((entry) => entry.oid));
    for (const [index, entry] of links.entries()) {
      let target: string;
      try {
        target = utf8.decode(targets[index]);
      } catch {
        throw new ConfigurationError(`${treeish} holds a link ${quoteForMessage(entry.path)} whose target is not UTF-8; PatchProof needs UTF-8 link targets`);
      }
      await symlink(target, await prepareParent(dest, entry.path));
    }
    return entries.map((entry) => entry.path);
  }

  private async readBlobs(oids: readonly string[]): Promise<Buffer[]> {
    if (oids.length === 0) return [];
    const result = await this.git(['cat-file', '--batch'], undefined, `${oids.join('\n')}\n`);
    if (result.exitCode !== 0) throw failure('cat-file --batch', result);
    const out = result.stdout;
    const blobs: Buffer[] = [];
    let at = 0;
    for (const oid of oids) {
      const newline = out.indexOf(0x0a, at);
      const header = newline < 0 ? '' : out.toString('latin1', at, newline);
      const match = /^([0-9a-f]+) blob (\d+)$/.exec(header);
      if (match === null || match[1] !== oid) throw new InfrastructureError(`git cat-file --batch answered '${header}' for ${oid}`);
      const size = Number(match[2]);
      blobs.push(out.subarray(newline + 1, newline + 1 + size));
      at = newline + 1 + size + 1;
    }
    return blobs;
  }

  private async hasCommit(sha: string): Promise<boolean> {
    return (await this.git(['cat-file', '-e', `${sha}^{commit}`])).exitCode === 0;
  }

  private async isShallow(): Promise<boolean> {
    const result = await this.git(['rev-parse', '--is-shallow-repository']);
    if (result.exitCode !== 0) throw failure('rev-parse --is-shallow-repository', result);
    return result.stdout.toString('utf8').trim() === 'true';
  }

  /** `--depth=N` for a shallow checkout; nothing for a complete one (a depth would make it shallow). */
  private async depthArgs(depth: number): Promise<string[]> {
    return (await this.isShallow()) ? [`--depth=${depth}`] : [];
  }

  private async revParse(spec: string): Promise<string | undefined> {
    const result = await this.git(['rev-parse', '--verify', '--quiet', '--end-of-options', spec]);
    const out = result.stdout.toString('utf8').trim();
    return result.exitCode === 0 && COMMIT_SHA_PATTERN.test(out) ? out : undefined;
  }

  /** When a commit cannot be fetched by id (a server that refuses such wants), try the PR's head ref. */
  private async fetchFallback(missing: string[], head: string, pullNumber: number | undefined, message: string): Promise<void> {
    if (pullNumber === undefined || !missing.includes(head)) {
      throw new InfrastructureError(`git fetch of ${missing.join(', ')} from origin failed: ${message}`);
    }
    await this.fetch(await this.depthArgs(FETCH_DEPTH), [`refs/pull/${pullNumber}/head`]);
    if ((await this.revParse('FETCH_HEAD^{commit}')) !== head) {
      throw new ConfigurationError(`refs/pull/${pullNumber}/head is no longer ${head}: the pull request moved; the newer run validates it`);
    }
    const rest = missing.filter((sha) => sha !== head);
    if (rest.length > 0) await this.fetch(await this.depthArgs(FETCH_DEPTH), rest);
  }

  /** Fetch objects only (never a checkout); throws InfrastructureError when it fails. */
  private async fetch(args: string[], refs: string[]): Promise<void> {
    const result = await this.tryFetch(args, refs);
    if (!result.ok) throw new InfrastructureError(`git fetch ${[...args, 'origin', ...refs].join(' ')} failed: ${result.message}`);
  }

  private async tryFetch(args: string[], refs: string[]): Promise<{ ok: true } | { ok: false; message: string }> {
    const result = await this.git(['fetch', '--no-tags', '--no-recurse-submodules', '--quiet', ...args, 'origin', ...refs], undefined, undefined, await this.credentials());
    return result.exitCode === 0 ? { ok: true } : { ok: false, message: `exit ${result.exitCode}: ${firstLine(result.stderr)}` };
  }

  /**
   * The token as an extra header for the server, as actions/checkout sends it, passed through
   * GIT_CONFIG_* variables (never the command line, which other processes can read) and only when
   * the checkout has no header of its own for that server (two Authorization headers are refused).
   */
  private async credentials(): Promise<Record<string, string>> {
    if (this.authChecked) return this.authEnv;
    this.authChecked = true;
    const { token, serverUrl } = this.options;
    if (token === undefined || serverUrl === undefined || !/^https:\/\//.test(serverUrl)) return this.authEnv;
    const key = `http.${serverUrl.replace(/\/$/, '')}/.extraheader`;
    const existing = await this.git(['config', '--get-regexp', '^http\\..*\\.extraheader$']);
    if (existing.exitCode === 0 && existing.stdout.length > 0) return this.authEnv;
    const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
    this.authEnv = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: key, GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}` };
    return this.authEnv;
  }

  private git(args: string[], maxBytes?: number, stdin?: string, extraEnv: Record<string, string> = {}): Promise<GitResult> {
    return runGit(this.repoDir, args, { maxBytes, stdin, extraEnv });
  }
}

interface TreeEntry {
  mode: '100644' | '100755' | '120000';
  oid: string;
  path: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `<mode> SP <type> SP <oid> TAB <path> NUL` records of `git ls-tree -r -z`, checked. */
function parseTree(output: Buffer, treeish: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let start = 0;
  while (start < output.length) {
    const end = output.indexOf(0, start) < 0 ? output.length : output.indexOf(0, start);
    const tab = output.indexOf(0x09, start);
    const meta = tab < 0 || tab > end ? null : /^([0-7]{6}) (\w+) ([0-9a-f]{40,64})$/.exec(output.toString('latin1', start, tab));
    if (meta === null) throw new InfrastructureError(`git ls-tree printed a record PatchProof cannot read in ${treeish}`);
    let path: string;
    try {
      path = utf8.decode(output.subarray(tab + 1, end));
    } catch {
      throw new ConfigurationError(`${treeish} holds a path that is not UTF-8 (bytes ${output.subarray(tab + 1, end).toString('hex')}); PatchProof needs UTF-8 paths`);
    }
    const mode = meta[1] as string;
    if (mode === '160000') throw new ConfigurationError(`${treeish} holds a submodule at ${quoteForMessage(path)}; PatchProof validates repositories without submodules`);
    if (mode !== '100644' && mode !== '100755' && mode !== '120000')
      throw new ConfigurationError(`${treeish} holds ${quoteForMessage(path)} with mode ${mode}, which PatchProof cannot write`);
    // Git refuses these names on checkout; a tree holding one was not made by git.
    if (path.split('/').some((part) => part === '' || part === '.' || part === '..' || part.toLowerCase() === '.git')) {
      throw new ConfigurationError(`${treeish} holds the unsafe path ${quoteForMessage(path)}`);
    }
    entries.push({ mode, oid: meta[3] as string, path });
    start = end + 1;
  }
  return entries;
}

/** Create the folders above `path` under `dest` (0755) and return the path's full name. */
async function prepareParent(dest: string, path: string): Promise<string> {
  const parts = path.split('/');
  if (parts.length > 1) await mkdir(join(dest, ...parts.slice(0, -1)), { recursive: true, mode: 0o755 });
  return join(dest, ...parts);
}

/**
 * Settings given to every git command, ahead of its own arguments: no hooks and no fsmonitor
 * (programs a repository's config could make git run), no submodule recursion, paths printed as
 * they are. Command-line settings come after any of the environment's, so these win.
 */
export const SAFE_GIT_CONFIG: readonly string[] = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'submodule.recurse=false', '-c', 'core.quotePath=false'];

/**
 * GIT_* variables of the caller's that git still sees: the trust roots a server's certificate may
 * need. Every other one is dropped. They would point git at another repository (GIT_DIR,
 * GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, …), add settings (GIT_CONFIG_PARAMETERS,
 * GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, GIT_CONFIG_GLOBAL/SYSTEM), run programs
 * (GIT_EXEC_PATH, GIT_SSH_COMMAND, GIT_ASKPASS, GIT_EXTERNAL_DIFF, GIT_PROXY_COMMAND) or write files
 * (GIT_TRACE*, which can log request headers), and an earlier workflow step can set any of them.
 */
const KEPT_GIT_VARIABLES: ReadonlySet<string> = new Set(['GIT_SSL_CAINFO', 'GIT_SSL_CAPATH']);

/** The argv of one git command run in `dir`: `-C dir`, the safe settings, then `args`. Pure. */
export function gitCommandLine(dir: string, args: readonly string[]): string[] {
  return ['-C', dir, ...SAFE_GIT_CONFIG, ...args];
}

/**
 * The environment of one git command: `base` without any GIT_* variable but KEPT_GIT_VARIABLES,
 * C locale, no prompts, then `extra` (PatchProof's own settings, such as a fetch's credentials). Pure.
 */
export function gitEnvironment(base: NodeJS.ProcessEnv, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (/^GIT_/i.test(name) && !KEPT_GIT_VARIABLES.has(name)) continue;
    env[name] = value;
  }
  Object.assign(env, { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never' }, extra);
  return env;
}

interface RunOptions {
  /** Stop git (SIGKILL) and set `overflow` once stdout passes this many bytes. */
  maxBytes?: number | undefined;
  stdin?: string | undefined;
  extraEnv?: Readonly<Record<string, string>> | undefined;
}

/** The one place git runs: an argv array, never a shell, `gitCommandLine` and `gitEnvironment`. */
function runGit(dir: string, args: readonly string[], options: RunOptions = {}): Promise<GitResult> {
  const { maxBytes, stdin, extraEnv } = options;
  const env = gitEnvironment(process.env, extraEnv);
  return new Promise((resolve, reject) => {
    const child = spawn('git', gitCommandLine(dir, args), { env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let overflow = false;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) {
        overflow = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 64) err.push(chunk);
    });
    child.on('error', (error) => {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'git was not found on PATH; install git' : error.message;
      reject(new InfrastructureError(`Could not run git ${args.join(' ')}: ${reason}`, { cause: error }));
    });
    child.on('close', (code) => {
      resolve({ exitCode: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), overflow });
    });
    child.stdin.on('error', () => {
      // git exiting early closes its stdin; the exit code says what happened.
    });
    child.stdin.end(stdin ?? '');
  });
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

function failure(command: string, result: GitResult): InfrastructureError {
  return new InfrastructureError(`git ${command} failed (exit ${result.exitCode}): ${firstLine(result.stderr)}`);
}

function failureIn(command: string[], dir: string, result: GitResult): InfrastructureError {
  return new InfrastructureError(`git ${command.join(' ')} failed in '${dir}' (exit ${result.exitCode}): ${firstLine(result.stderr)}`);
}
