import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { SAFE_GIT_CONFIG, createGit, createGitSource, gitCommandLine, gitEnvironment } from '../../src/fetch/git.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { setEnv } from '../helpers/process-env.js';
import { GitRepo } from '../helpers/git-repo.js';
import { JS_DURATION, ROOT, makePullRequest, removePullRequest, type PullRequestRepos } from '../action/data/validate-repos.js';

/**
 * The one git runner (src/fetch/git.ts) against a hostile environment and a hostile repository, with
 * real git. An earlier workflow step can set any variable for later steps (GITHUB_ENV), and the
 * CLI snapshots folders the candidate's author may have written.
 */

/** A program that appends its name to `marker` when git runs it. */
function markerProgram(dir: string, name: string, marker: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho "${name} $*" >> '${marker}'\nexit 1\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('gitCommandLine and gitEnvironment (pure)', () => {
  it('puts the safe settings (no hooks, no fsmonitor) in front of every command', () => {
    expect(SAFE_GIT_CONFIG).toEqual(expect.arrayContaining(['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'submodule.recurse=false']));
    expect(gitCommandLine('/repo', ['ls-files', '-z'])).toEqual(['-C', '/repo', ...SAFE_GIT_CONFIG, 'ls-files', '-z']);
  });

  it("drops every GIT_* variable of the caller's except the trust roots, and adds PatchProof's own last", () => {
    const env = gitEnvironment(
      {
        PATH: '/usr/bin',
        HOME: '/home/u',
        GIT_DIR: '/elsewhere/.git',
        GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='/tmp/x'",
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'core.fsmonitor',
        GIT_CONFIG_VALUE_0: '/tmp/x',
        GIT_CONFIG_GLOBAL: '/tmp/evil.gitconfig',
        GIT_EXEC_PATH: '/tmp/evil',
        GIT_SSH_COMMAND: 'evil',
        GIT_TRACE_CURL: '/tmp/headers.log',
        GIT_TRACE_REDACT: '0',
        GIT_SSL_CAINFO: '/etc/ca.pem'
      },
      { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.https://example.test/.extraheader', GIT_CONFIG_VALUE_0: 'AUTHORIZATION: basic x' }
    );
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      GIT_SSL_CAINFO: '/etc/ca.pem',
      LC_ALL: 'C',
      GIT_TERMINAL_PROMPT: '0',
      GCM_INTERACTIVE: 'never',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.https://example.test/.extraheader',
      GIT_CONFIG_VALUE_0: 'AUTHORIZATION: basic x'
    });
  });

  it('src/fetch/git.ts is the only file in src that starts git', () => {
    const starts = /\b(spawn|spawnSync|execFile|execFileSync|exec|execSync)\(\s*['"`]git['"`]/;
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name.endsWith('.ts') && starts.test(readFileSync(full, 'utf8'))) offenders.push(relative(ROOT, full));
      }
    };
    walk(join(ROOT, 'src'));
    expect(offenders).toEqual(['src/fetch/git.ts']);
  });
});

describe('createGit (snapshots) in a hostile environment and repository (real git)', () => {
  let scratch: string;
  let repo: GitRepo;
  let other: GitRepo;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'pp-git-runner-'));
    repo = GitRepo.create('pp-git-runner-repo-');
    repo.write('a.txt', 'a\n');
    repo.commit();
    other = GitRepo.create('pp-git-runner-other-');
    other.write('planted.txt', 'not in the folder asked about\n');
    other.commit();
  });
  afterAll(() => {
    for (const dir of [scratch, repo.dir, other.dir]) rmSync(dir, { recursive: true, force: true });
  });

  it('writes no trace file that GIT_TRACE* variables name (the old snapshot runner let git write them)', async () => {
    const traces = ['GIT_TRACE', 'GIT_TRACE2', 'GIT_TRACE2_EVENT', 'GIT_TRACE_SETUP'].map((name) => [name, join(scratch, `${name}.log`)] as const);
    const restore = setEnv(Object.fromEntries(traces));
    try {
      const files = await createGit().lsFiles(repo.dir);
      expect(files.map((file) => file.path.toString('utf8'))).toEqual(['a.txt']);
      expect(await createGit().workTreeTop(repo.dir)).toBe(repo.dir);
    } finally {
      restore();
    }
    expect(traces.filter(([, path]) => existsSync(path)).map(([name]) => name)).toEqual([]);
  });

  it('never runs an fsmonitor program, whether the environment (GIT_CONFIG_*) or the repository config names it', async () => {
    const marker = join(scratch, 'fsmonitor-ran');
    const program = markerProgram(scratch, 'fsmonitor', marker);
    repo.git('config', 'core.fsmonitor', program);
    const restore = setEnv({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.fsmonitor', GIT_CONFIG_VALUE_0: program, GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${program}'` });
    try {
      const snapshot = await takeSnapshot(repo.dir);
      expect(snapshot.source).toBe('git');
      expect(snapshot.entries.map((entry) => entry.path)).toEqual(['a.txt']);
    } finally {
      restore();
      repo.git('config', '--unset', 'core.fsmonitor');
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('snapshots the folder asked about, not the repository GIT_DIR / GIT_INDEX_FILE point at', async () => {
    const restore = setEnv({ GIT_DIR: join(other.dir, '.git'), GIT_WORK_TREE: other.dir, GIT_INDEX_FILE: join(other.dir, '.git', 'index') });
    try {
      expect((await createGit().lsFiles(repo.dir)).map((file) => file.path.toString('utf8'))).toEqual(['a.txt']);
    } finally {
      restore();
    }
  });
});

describe('createGitSource (the trusted checkout) in a hostile environment (real git)', () => {
  let repos: PullRequestRepos;
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'pp-git-runner-src-'));
  });
  beforeEach(() => {
    repos = makePullRequest({ kind: 'diff', file: join(JS_DURATION, 'candidates', 'fix.diff') });
  });
  afterEach(() => {
    removePullRequest(repos);
  });
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it('never runs the git-upload-pack of a GIT_EXEC_PATH the environment names (the old action runner ran it)', async () => {
    const evil = join(scratch, 'exec-path');
    mkdirSync(evil, { recursive: true });
    const marker = join(scratch, 'upload-pack-ran');
    markerProgram(evil, 'git-upload-pack', marker);
    const restore = setEnv({ GIT_EXEC_PATH: evil });
    try {
      await createGitSource(repos.workspace).fetchCommits(repos.base, repos.head);
    } finally {
      restore();
    }
    expect(existsSync(marker)).toBe(false);
    expect(await createGitSource(repos.workspace).isAncestor(repos.base, repos.head)).toBe(true);
  });

  it('ignores settings injected through GIT_CONFIG_COUNT/KEY_n/VALUE_n and GIT_CONFIG_PARAMETERS (here: one that forbids the fetch)', async () => {
    const restore = setEnv({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'protocol.file.allow',
      GIT_CONFIG_VALUE_0: 'never',
      GIT_CONFIG_PARAMETERS: "'protocol.allow'='never'"
    });
    try {
      const source = createGitSource(repos.workspace);
      await source.fetchCommits(repos.base, repos.head);
      expect(await source.diff(repos.base, repos.head, 1 << 20)).toMatch(/^diff --git a\//);
    } finally {
      restore();
    }
  });
});

describe('isAncestor in a shallow checkout (the ref: pack check: the grader must not come from the candidate)', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("answers yes for a pack commit on top of the candidate's head though the checkout holds neither's history, and no for a sibling", async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-shallow-'));
    const author = join(dir, 'author');
    mkdirSync(author);
    const run = (cwd: string, args: string[]) =>
      execFileSync('git', ['-C', cwd, ...args], {
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.test', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.test' }
      }).trim();
    run(author, ['init', '-q', '-b', 'main']);
    const commit = (file: string) => {
      writeFileSync(join(author, file), `${file}\n`);
      run(author, ['add', '-A']);
      run(author, ['commit', '-q', '-m', file]);
      return run(author, ['rev-parse', 'HEAD']);
    };
    // A history longer than the runner's first fetch depth (50): the checkout stays shallow.
    for (let i = 0; i < 60; i += 1) run(author, ['commit', '-q', '--allow-empty', '-m', `history ${i}`]);
    const base = commit('base.txt');
    run(author, ['checkout', '-q', '-b', 'candidate']);
    const head = commit('candidate.txt');
    // Several commits between the candidate's head and the pack's commit: depth 1 never sees the head.
    for (let i = 0; i < 3; i += 1) commit(`between-${i}.txt`);
    commit('pack.txt');
    run(author, ['tag', 'graded']);
    run(author, ['checkout', '-q', '-b', 'sibling', base]);
    const sibling = commit('sibling.txt');
    const origin = join(dir, 'origin.git');
    run(dir, ['init', '-q', '--bare', origin]);
    run(author, ['push', '-q', origin, 'main', 'candidate', 'sibling', 'refs/tags/graded']);
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace);
    run(workspace, ['init', '-q']);
    run(workspace, ['remote', 'add', 'origin', `file://${origin}`]);
    run(workspace, ['fetch', '-q', '--no-tags', '--depth=1', 'origin', base]);
    const source = createGitSource(workspace);
    await source.fetchCommits(base, head);
    await source.fetchCommits(base, sibling);
    const pack = await source.resolveCommit('refs/tags/graded');
    expect(run(workspace, ['rev-parse', '--is-shallow-repository'])).toBe('true');
    // Without the deepening, git answers no here: the pack commit was fetched at depth 1.
    expect(spawnSync('git', ['-C', workspace, 'merge-base', '--is-ancestor', head, pack]).status).toBe(1);
    expect(await source.isAncestor(head, pack)).toBe(true);
    expect(await source.isAncestor(sibling, pack)).toBe(false);
  });
});
