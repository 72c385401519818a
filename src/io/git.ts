import { execFile } from 'node:child_process';
import { InfrastructureError } from '../errors.js';

/** One index entry, as `git ls-files -s` reports it. */
export interface TrackedFile {
  /** Octal mode from the index: `100644`, `100755`, `120000`, or `160000` for a submodule (gitlink). */
  mode: string;
  /** Merge stage: 0 normally, 1 to 3 for a path with an unresolved conflict. */
  stage: number;
  /** Relative to the directory asked about, `/`-separated, as raw bytes: git does not promise UTF-8. */
  path: Buffer;
}

/** The git operations PatchProof needs. The only code that runs git is behind `createGit()`. */
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

/**
 * Variables that would make git describe some other repository than the folder it is run in. The
 * snapshot must be of the folder given, whatever the caller's environment says.
 */
const REDIRECTING_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM'
];

const NOT_A_WORK_TREE = [/not a git repository/i, /must be run in a work tree/i];
const LS_FILES_META = /^([0-7]{6}) [0-9a-f]{40,64} ([0-3])$/;

class GitCommandManager implements Git {
  async workTreeTop(dir: string): Promise<string | undefined> {
    const result = await runGit(['-C', dir, 'rev-parse', '--show-toplevel']);
    if (result.exitCode !== 0) {
      if (NOT_A_WORK_TREE.some((pattern) => pattern.test(result.stderr))) {
        return undefined;
      }
      throw failure(['rev-parse', '--show-toplevel'], dir, result);
    }
    const top = result.stdout.toString('utf8').replace(/\n$/, '');
    if (top === '') {
      return undefined;
    }
    return top;
  }

  async lsFiles(dir: string): Promise<TrackedFile[]> {
    const result = await runGit(['-C', dir, 'ls-files', '-z', '--stage']);
    if (result.exitCode !== 0) {
      throw failure(['ls-files'], dir, result);
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

interface GitResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
}

/** The one place git runs: an argv array, never a shell, with a scrubbed environment. */
function runGit(args: string[]): Promise<GitResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' };
  for (const name of REDIRECTING_VARIABLES) {
    delete env[name];
  }
  // An fsmonitor hook named in a repository's config is a program git would run for us.
  const argv = ['-c', 'core.fsmonitor=false', ...args];
  return new Promise((resolve, reject) => {
    execFile('git', argv, { encoding: 'buffer', env, maxBuffer: 1024 * 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => {
      const stderrText = stderr.toString('utf8');
      if (error === null) {
        resolve({ exitCode: 0, stdout, stderr: stderrText });
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code === 'number') {
        resolve({ exitCode: code, stdout, stderr: stderrText });
        return;
      }
      const reason = code === 'ENOENT' ? 'git was not found on PATH; install git' : error.message;
      reject(new InfrastructureError(`Could not run git ${args.slice(2).join(' ')}: ${reason}`, { cause: error }));
    });
  });
}

function failure(command: string[], dir: string, result: GitResult): InfrastructureError {
  const message = result.stderr.trim().split('\n')[0] ?? '';
  return new InfrastructureError(`git ${command.join(' ')} failed in '${dir}' (exit ${result.exitCode}): ${message}`);
}
