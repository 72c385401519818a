import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGitSource } from '../../src/fetch/git.js';
import { ConfigurationError, PolicyError } from '../../src/errors.js';
import { JS_DURATION, PACK_PATH, PULL_NUMBER, git, makePullRequest, removePullRequest, type PullRequestRepos } from './data/validate-repos.js';

/** The action's git against real repositories: a bare origin and a shallow workspace clone of the base. */

describe('createGitSource (real git)', () => {
  let repos: PullRequestRepos;
  let out: string;
  beforeAll(() => {
    // Enough history that the first shallow fetch of the head does not reach the merge base.
    repos = makePullRequest({ kind: 'diff', file: join(JS_DURATION, 'candidates', 'fix.diff') }, { history: 3 });
    out = mkdtempSync(join(tmpdir(), 'pp-validate-git-'));
  });
  afterAll(() => {
    removePullRequest(repos);
    rmSync(out, { recursive: true, force: true });
  });

  it('fetches the head by id into a shallow checkout, finds the merge base and diffs exactly the change, checking nothing out', async () => {
    const source = createGitSource(repos.workspace);
    expect(() => git(repos.workspace, ['cat-file', '-e', `${repos.head}^{commit}`])).toThrow();
    await source.fetchCommits(repos.base, repos.head, PULL_NUMBER);
    expect(git(repos.workspace, ['merge-base', repos.base, repos.head])).toBe(repos.base);
    const diff = await source.diff(repos.base, repos.head, 1 << 20);
    const expected = readFileSync(join(JS_DURATION, 'candidates', 'fix.diff'), 'utf8');
    // Same change as the fixture; git's --full-index writes whole object ids in the index line.
    const strip = (text: string): string => text.replace(/^index .*$/m, 'index');
    expect(strip(diff)).toBe(strip(expected));
    expect(diff).toMatch(/^index [0-9a-f]{40}\.\.[0-9a-f]{40} 100644$/m);
    // The checkout still is the base, clean: the candidate was never checked out.
    expect(git(repos.workspace, ['rev-parse', 'HEAD'])).toBe(repos.base);
    expect(git(repos.workspace, ['status', '--porcelain'])).toBe('');
  });

  it('refuses a diff over the byte limit as a policy violation', async () => {
    const source = createGitSource(repos.workspace);
    await source.fetchCommits(repos.base, repos.head);
    await expect(source.diff(repos.base, repos.head, 100)).rejects.toThrow(PolicyError);
  });

  it('writes the base tree byte for byte from git objects, and a pack folder from a commit path', async () => {
    const source = createGitSource(repos.workspace);
    const base = join(out, 'base');
    const written = await source.writeTree(repos.base, base);
    const tree = git(repos.workspace, ['ls-tree', '-r', '--full-tree', repos.base])
      .split('\n')
      .map((line) => /^(\d+) blob ([0-9a-f]+)\t(.+)$/.exec(line));
    expect(written).toEqual(tree.map((m) => m?.[3]));
    for (const match of tree) {
      // hash-object --no-filters: the object id of the bytes on disk, exactly as written.
      expect(git(repos.workspace, ['hash-object', '--no-filters', join(base, match?.[3] ?? '')])).toBe(match?.[2]);
    }
    expect(lstatSync(join(base, 'src', 'duration.js')).mode & 0o777).toBe(0o644);

    const pack = join(out, 'pack');
    expect((await source.writeTree(`${repos.base}:${PACK_PATH}`, pack)).sort()).toEqual([
      'hidden/millisecond-unit-hidden.test.js',
      // The pack is sealed: its oracle file and the author's originals (issue 11) come with it.
      'oracle/expected.json',
      'oracle/original/hidden/millisecond-unit-hidden.test.js',
      'oracle/original/reproduction/millisecond-unit.test.js',
      'reproduction/millisecond-unit.test.js',
      'witness.json'
    ]);
  });

  it('resolves a ref in the checkout, fetches one it lacks, and tells ancestry', async () => {
    const source = createGitSource(repos.workspace);
    await source.fetchCommits(repos.base, repos.head);
    expect(await source.resolveCommit(repos.base)).toBe(repos.base);
    expect(await source.resolveCommit('refs/heads/main')).toBe(repos.base);
    await expect(source.resolveCommit('refs/heads/no-such-branch')).rejects.toThrow(ConfigurationError);
    expect(await source.isAncestor(repos.base, repos.head)).toBe(true);
    expect(await source.isAncestor(repos.head, repos.base)).toBe(false);
  });
});

describe('createGitSource on a long pull request', () => {
  let repos: PullRequestRepos | undefined;
  afterAll(() => removePullRequest(repos));

  it('deepens a shallow fetch until the merge base is reached', async () => {
    repos = makePullRequest({ kind: 'diff', file: join(JS_DURATION, 'candidates', 'fix.diff') }, { headCommits: 60 });
    const source = createGitSource(repos.workspace);
    await source.fetchCommits(repos.base, repos.head, PULL_NUMBER);
    expect(git(repos.workspace, ['merge-base', repos.base, repos.head])).toBe(repos.base);
    const diff = await source.diff(repos.base, repos.head, 1 << 20);
    expect(diff).toMatch(/^diff --git a\/NOTES.md b\/NOTES.md$/m);
    expect(diff).toMatch(/^diff --git a\/src\/duration.js b\/src\/duration.js$/m);
  });
});

describe('createGitSource with links', () => {
  let repos: PullRequestRepos | undefined;
  afterAll(() => removePullRequest(repos));

  it('writes links as links (a tree that holds one: the head of this test repository)', async () => {
    repos = makePullRequest({ kind: 'symlink', path: 'latest.js', target: 'src/duration.js' });
    const source = createGitSource(repos.workspace);
    await source.fetchCommits(repos.base, repos.head, PULL_NUMBER);
    const dest = join(repos.dir, 'head-tree');
    await source.writeTree(repos.head, dest);
    expect(lstatSync(join(dest, 'latest.js')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dest, 'latest.js'))).toBe('src/duration.js');
  });
});
