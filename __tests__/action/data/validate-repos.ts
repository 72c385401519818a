import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real git repositories for validate-mode tests, shaped as on a runner: a bare "origin" holding the
 * base branch and the pull request's head under `refs/pull/<n>/head` (as GitHub keeps it, fork or
 * not), and a workspace that is a shallow clone of the base commit only, as `actions/checkout`
 * leaves it with `ref: <base sha>`, `fetch-depth: 1` and `persist-credentials: false`.
 */

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const JS_DURATION = join(ROOT, 'fixtures', 'js-duration');
export const JS_PACK = join(ROOT, 'witness-packs', 'js-duration');
/** Where the base commit keeps the witness pack: the trusted checkout's copy. */
export const PACK_PATH = '.github/patchproof/js-duration';
export const PULL_NUMBER = 7;

/** Fixed identity and dates, so commits are the same on every run. */
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Base Author',
  GIT_AUTHOR_EMAIL: 'base@example.test',
  GIT_COMMITTER_NAME: 'Base Author',
  GIT_COMMITTER_EMAIL: 'base@example.test',
  GIT_AUTHOR_DATE: '2026-01-02T03:04:05Z',
  GIT_COMMITTER_DATE: '2026-01-02T03:04:05Z',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir()
};

/** Run git in `cwd`; returns trimmed stdout, throws with stderr on failure. */
export function git(cwd: string, args: string[]): string {
  const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV };
  for (const name of Object.keys(env)) if (name.startsWith('GIT_DIR') || name === 'GIT_WORK_TREE' || name === 'GIT_INDEX_FILE') Reflect.deleteProperty(env, name);
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** What the head commit does on top of the base. */
export type HeadChange =
  | { kind: 'diff'; file: string }
  | { kind: 'symlink'; path: string; target: string }
  | { kind: 'binary'; path: string; bytes: Buffer }
  | { kind: 'files'; files: Record<string, string> };

export interface PullRequestRepos {
  /** Parent folder of everything; remove it when done. */
  dir: string;
  /** The bare origin. */
  origin: string;
  /** The runner's workspace: a shallow clone of the base commit. */
  workspace: string;
  base: string;
  head: string;
}

function applyChange(author: string, change: HeadChange): void {
  switch (change.kind) {
    case 'diff':
      git(author, ['apply', '--whitespace=nowarn', change.file]);
      break;
    case 'symlink':
      symlinkSync(change.target, join(author, change.path));
      break;
    case 'binary':
      writeFileSync(join(author, change.path), change.bytes);
      break;
    case 'files':
      for (const [path, text] of Object.entries(change.files)) {
        mkdirSync(dirname(join(author, path)), { recursive: true });
        writeFileSync(join(author, path), text);
      }
      break;
  }
}

/**
 * Build origin and workspace: the base commit is fixtures/js-duration/repo plus the witness pack at
 * PACK_PATH (or `options.pack`, e.g. a sealed copy), preceded by a few commits of history; the head commit applies `change` on top (then
 * `headCommits - 1` more commits each rewriting NOTES.md).
 */
export function makePullRequest(change: HeadChange, options: { history?: number; headCommits?: number; pack?: string; baseChange?: HeadChange } = {}): PullRequestRepos {
  const dir = mkdtempSync(join(tmpdir(), 'pp-validate-'));
  const author = join(dir, 'author');
  mkdirSync(author);
  git(author, ['init', '-q', '-b', 'main']);
  cpSync(join(JS_DURATION, 'repo'), author, { recursive: true });
  git(author, ['add', '-A']);
  git(author, ['commit', '-q', '-m', 'Duration parser']);
  for (let i = 0; i < (options.history ?? 2); i++) {
    writeFileSync(join(author, 'CHANGELOG.md'), `# Changes\n\n${'- a change\n'.repeat(i + 1)}`);
    git(author, ['add', '-A']);
    git(author, ['commit', '-q', '-m', `Change ${i + 1}`]);
  }
  if (options.baseChange !== undefined) {
    // A base that already holds a change (e.g. the fix), for tests that need another base.
    applyChange(author, options.baseChange);
    git(author, ['add', '-A']);
    git(author, ['commit', '-q', '-m', 'Change on the base']);
  }
  cpSync(options.pack ?? JS_PACK, join(author, PACK_PATH), { recursive: true });
  git(author, ['add', '-A']);
  git(author, ['commit', '-q', '-m', 'Witness pack for the millisecond bug']);
  const base = git(author, ['rev-parse', 'HEAD']);
  git(author, ['checkout', '-q', '-b', 'candidate']);
  applyChange(author, change);
  git(author, ['add', '-A']);
  git(author, ['commit', '-q', '-m', 'Candidate patch']);
  for (let i = 1; i < (options.headCommits ?? 1); i++) {
    writeFileSync(join(author, 'NOTES.md'), `Candidate note ${i}\n`);
    git(author, ['add', '-A']);
    git(author, ['commit', '-q', '-m', `Candidate note ${i}`]);
  }
  const head = git(author, ['rev-parse', 'HEAD']);

  const origin = join(dir, 'origin.git');
  git(dir, ['init', '-q', '--bare', origin]);
  git(author, ['push', '-q', origin, `main:refs/heads/main`, `candidate:refs/pull/${PULL_NUMBER}/head`]);

  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  git(workspace, ['init', '-q']);
  git(workspace, ['remote', 'add', 'origin', `file://${origin}`]);
  git(workspace, ['fetch', '-q', '--no-tags', '--depth=1', 'origin', base]);
  git(workspace, ['checkout', '-q', '--detach', base]);
  return { dir, origin, workspace, base, head };
}

/** Remove what makePullRequest created. */
export function removePullRequest(repos: PullRequestRepos | undefined): void {
  if (repos !== undefined) rmSync(repos.dir, { recursive: true, force: true });
}
