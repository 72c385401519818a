import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { snapshotDigest, type Snapshot, type SnapshotEntry } from '../../src/core/snapshot-record.js';
import { ConfigurationError } from '../../src/errors.js';
import { createGit } from '../../src/fetch/git.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';

const roots: string[] = [];

/** A fresh folder under the system temp folder, outside any git work tree. */
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'patchproof-snapshot-')));
  roots.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of roots) {
    rmSync(dir, { recursive: true, force: true });
  }
});

function write(root: string, path: string, content: string | Buffer, mode = 0o644): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  chmodSync(join(root, path), mode);
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=test@example.invalid', '-c', 'user.name=Test', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  });
}

/** A committed repository with the given files. */
function repo(files: Record<string, string>): string {
  const root = tempDir();
  git(root, 'init', '-q');
  for (const [path, content] of Object.entries(files)) {
    write(root, path, content);
  }
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial', '--allow-empty');
  return root;
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function fileEntry(path: string, content: string | Buffer, mode: SnapshotEntry['mode'] = '100644'): SnapshotEntry {
  return { path, kind: 'file', mode, sha256: sha256(content), size: Buffer.byteLength(content) };
}

function linkEntry(path: string, target: string): SnapshotEntry {
  return { path, kind: 'symlink', mode: '120000', sha256: sha256(target), size: Buffer.byteLength(target) };
}

function paths(snapshot: Snapshot): string[] {
  return snapshot.entries.map((entry) => entry.path);
}

async function refusal(root: string): Promise<ConfigurationError> {
  const error: unknown = await takeSnapshot(root).then(
    () => undefined,
    (reason: unknown) => reason
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  const message = (error as ConfigurationError).message;
  expect(message).not.toContain('\n');
  return error as ConfigurationError;
}

describe('takeSnapshot in a git work tree', () => {
  it('records exactly the tracked files, ignoring untracked and ignored ones', async () => {
    const root = repo({ 'README.md': 'hello\n', 'src/app.js': 'console.log(1);\n', '.gitignore': 'build/\n' });
    write(root, 'untracked.txt', 'not mine\n');
    write(root, 'build/out.js', 'generated\n');
    const snapshot = await takeSnapshot(root);
    expect(snapshot.source).toBe('git');
    expect(snapshot.entries).toEqual([fileEntry('.gitignore', 'build/\n'), fileEntry('README.md', 'hello\n'), fileEntry('src/app.js', 'console.log(1);\n')]);
    expect(snapshot.digest).toBe(snapshotDigest(snapshot.entries));
  });

  it('records staged files and the working-tree content, not the committed content', async () => {
    const root = repo({ 'a.txt': 'committed\n' });
    write(root, 'a.txt', 'edited\n');
    write(root, 'staged.txt', 'new\n');
    git(root, 'add', 'staged.txt');
    const snapshot = await takeSnapshot(root);
    expect(snapshot.entries).toEqual([fileEntry('a.txt', 'edited\n'), fileEntry('staged.txt', 'new\n')]);
  });

  it('gives a subfolder the tracked files under it, relative to it', async () => {
    const root = repo({ 'a/x.txt': 'x', 'a/b/y.txt': 'y', 'c/z.txt': 'z', 'top.txt': 't' });
    write(root, 'a/untracked.txt', 'u');
    const snapshot = await takeSnapshot(join(root, 'a'));
    expect(snapshot.source).toBe('git');
    expect(snapshot.entries).toEqual([fileEntry('b/y.txt', 'y'), fileEntry('x.txt', 'x')]);
  });

  it('records the executable bit from the working tree', async () => {
    const root = repo({ 'run.sh': '#!/bin/sh\n', 'data.txt': 'd' });
    chmodSync(join(root, 'run.sh'), 0o755);
    chmodSync(join(root, 'data.txt'), 0o654);
    const snapshot = await takeSnapshot(root);
    expect(snapshot.entries.map((entry) => [entry.path, entry.mode])).toEqual([
      ['data.txt', '100644'],
      ['run.sh', '100755']
    ]);
  });

  it('records tracked symbolic links as links, without following them', async () => {
    const outside = tempDir();
    write(outside, 'secret.txt', 'outside the root\n');
    const root = repo({ 'a/b.txt': 'inside\n' });
    symlinkSync('a/b.txt', join(root, 'relative'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'absolute'));
    symlinkSync('does/not/exist', join(root, 'dangling'));
    symlinkSync(outside, join(root, 'folder-outside'));
    git(root, 'add', '-A');
    const snapshot = await takeSnapshot(root);
    expect(snapshot.entries).toEqual([
      fileEntry('a/b.txt', 'inside\n'),
      linkEntry('absolute', join(outside, 'secret.txt')),
      linkEntry('dangling', 'does/not/exist'),
      linkEntry('folder-outside', outside),
      linkEntry('relative', 'a/b.txt')
    ]);
  });

  it('refuses a tracked file missing from the working tree', async () => {
    const root = repo({ 'keep.txt': 'k', 'lost.txt': 'l' });
    unlinkSync(join(root, 'lost.txt'));
    expect((await refusal(root)).message).toMatch(/^Tracked file 'lost\.txt' is missing from the working tree\. Restore it/);
  });

  it('refuses a tracked file whose folder is gone', async () => {
    const root = repo({ 'keep.txt': 'k', 'gone/lost.txt': 'l' });
    rmSync(join(root, 'gone'), { recursive: true });
    expect((await refusal(root)).message).toContain("Tracked file 'gone/lost.txt' is missing");
  });

  it('refuses a tracked file that is now a folder', async () => {
    const root = repo({ thing: 'was a file' });
    unlinkSync(join(root, 'thing'));
    write(root, 'thing/inside.txt', 'now a folder');
    expect((await refusal(root)).message).toContain("Tracked file 'thing' is a folder in the working tree");
  });

  it('refuses a tracked path reached through a symbolic link pointing outside the root', async () => {
    const outside = tempDir();
    write(outside, 'f.txt', 'not the tracked content');
    const root = repo({ 'dir/f.txt': 'tracked' });
    rmSync(join(root, 'dir'), { recursive: true });
    symlinkSync(outside, join(root, 'dir'));
    expect((await refusal(root)).message).toBe(
      `Tracked file 'dir/f.txt' is reached through a symbolic link: 'dir' resolves to '${outside}'. Replace the link with the tracked folder (git checkout -- 'dir').`
    );
  });

  it('refuses a tracked file replaced by a FIFO, but ignores an untracked one', async () => {
    const root = repo({ pipe: 'was a file', 'ok.txt': 'ok' });
    execFileSync('mkfifo', [join(root, 'untracked-pipe')]);
    expect(paths(await takeSnapshot(root))).toEqual(['ok.txt', 'pipe']);
    unlinkSync(join(root, 'pipe'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    expect((await refusal(root)).message).toMatch(/^'pipe' is a FIFO \(named pipe\)\./);
  });

  it('refuses a submodule', async () => {
    const inner = repo({ 'inner.txt': 'i' });
    const root = repo({ 'outer.txt': 'o' });
    execFileSync('cp', ['-R', inner, join(root, 'vendored')]);
    git(root, 'add', 'vendored');
    expect(git(root, 'ls-files', '-s', 'vendored')).toMatch(/^160000 /);
    expect((await refusal(root)).message).toMatch(/^'vendored' is a git submodule\./);
  });

  it('refuses a tracked name that is not UTF-8', async () => {
    const root = repo({ 'ok.txt': 'ok' });
    writeFileSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0x66, 0xff])]), 'latin-1 name');
    git(root, 'add', '-A');
    expect((await refusal(root)).message).toBe('File name "f\ufffd" (bytes 66 ff) is not valid UTF-8. Rename it to a UTF-8 name.');
  });

  it('refuses a path with an unresolved merge conflict', async () => {
    const root = repo({ 'c.txt': 'base\n' });
    git(root, 'checkout', '-q', '-b', 'other');
    write(root, 'c.txt', 'other\n');
    git(root, 'commit', '-q', '-am', 'other');
    git(root, 'checkout', '-q', 'main');
    write(root, 'c.txt', 'main\n');
    git(root, 'commit', '-q', '-am', 'main');
    expect(() => git(root, 'merge', '-q', 'other')).toThrow();
    expect((await refusal(root)).message).toMatch(/^'c\.txt' has an unresolved merge conflict\./);
  });

  it('describes the folder given, whatever GIT_DIR says', async () => {
    const root = repo({ 'mine.txt': 'm' });
    const other = repo({ 'theirs.txt': 't' });
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = join(other, '.git');
    try {
      expect(paths(await takeSnapshot(root))).toEqual(['mine.txt']);
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  });
});

describe('takeSnapshot outside git', () => {
  it('records every file and link, skipping .git folders', async () => {
    const root = tempDir();
    write(root, 'a.txt', 'a');
    write(root, 'deep/er/b.txt', 'b');
    write(root, 'nested/tracked.txt', 'n');
    git(join(root, 'nested'), 'init', '-q');
    symlinkSync('a.txt', join(root, 'link'));
    mkdirSync(join(root, 'empty-folder'));
    const snapshot = await takeSnapshot(root);
    expect(snapshot.source).toBe('walk');
    expect(snapshot.entries).toEqual([fileEntry('a.txt', 'a'), fileEntry('deep/er/b.txt', 'b'), linkEntry('link', 'a.txt'), fileEntry('nested/tracked.txt', 'n')]);
  });

  it('hashes like sha256sum, for empty, small and multi-chunk files', async () => {
    const root = tempDir();
    write(root, 'empty', '');
    write(root, 'small', 'small\n');
    write(root, 'big.bin', randomBytes(3 * 1024 * 1024 + 17));
    write(root, 'sub/\ufeffbom name.txt', 'a name starting with a byte order mark');
    const snapshot = await takeSnapshot(root);
    const files = snapshot.entries.map((entry) => entry.path);
    const sums = execFileSync('sha256sum', ['--', ...files], { cwd: root, encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => line.slice(0, 64));
    expect(snapshot.entries.map((entry) => entry.sha256)).toEqual(sums);
    expect(snapshot.entries.map((entry) => [entry.path, entry.size])).toEqual([
      ['big.bin', 3 * 1024 * 1024 + 17],
      ['empty', 0],
      ['small', 6],
      ['sub/\ufeffbom name.txt', 38]
    ]);
  });

  it('streams a file larger than 4 GiB', async () => {
    const root = tempDir();
    const size = 2 ** 32 + 5;
    // Sparse: takes no disk space, but every byte is still read and hashed.
    execFileSync('truncate', ['-s', String(size - 5), join(root, 'huge.bin')]);
    execFileSync('sh', ['-c', 'printf tail! >> "$1"', 'sh', join(root, 'huge.bin')]);
    // (head -c 4294967296 /dev/zero; printf tail!) | sha256sum
    const sha256 = 'fbab6d9a79df0a84cea59a2686e1b12b1cfe341b1b71571578cf4d161c0a3f7b';
    const snapshot = await takeSnapshot(root);
    expect(snapshot.entries).toEqual([{ path: 'huge.bin', kind: 'file', mode: '100644', sha256, size }]);
  });

  it('records symbolic links of every kind without following them', async () => {
    const outside = tempDir();
    write(outside, 'secret.txt', 'outside');
    const root = tempDir();
    write(root, 'x/target.txt', 't');
    symlinkSync('../x/target.txt', join(root, 'x/../rel'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'abs'));
    symlinkSync('nowhere', join(root, 'dangling'));
    symlinkSync(outside, join(root, 'out'));
    symlinkSync('😀 target', join(root, 'unicode'));
    const snapshot = await takeSnapshot(root);
    expect(snapshot.entries).toEqual([
      linkEntry('abs', join(outside, 'secret.txt')),
      linkEntry('dangling', 'nowhere'),
      linkEntry('out', outside),
      linkEntry('rel', '../x/target.txt'),
      linkEntry('unicode', '😀 target'),
      fileEntry('x/target.txt', 't')
    ]);
  });

  it('refuses a FIFO', async () => {
    const root = tempDir();
    write(root, 'a.txt', 'a');
    mkdirSync(join(root, 'sub'));
    execFileSync('mkfifo', [join(root, 'sub/fifo')]);
    expect((await refusal(root)).message).toBe(
      "'sub/fifo' is a FIFO (named pipe). A snapshot holds only regular files and symbolic links; remove it or move it out of the repository."
    );
  });

  it('refuses a file name that is not UTF-8', async () => {
    const root = tempDir();
    write(root, 'dir/ok.txt', 'ok');
    writeFileSync(Buffer.concat([Buffer.from(`${root}/dir/`), Buffer.from([0x66, 0xff])]), 'x');
    expect((await refusal(root)).message).toBe('File name "dir/f\ufffd" (bytes 66 ff) is not valid UTF-8. Rename it to a UTF-8 name.');
  });

  it('refuses a link whose target is not UTF-8', async () => {
    const root = tempDir();
    symlinkSync(Buffer.from([0x66, 0xff]), join(root, 'link'));
    expect((await refusal(root)).message).toMatch(/^Symbolic link 'link' points to a name that is not valid UTF-8\./);
  });

  it('refuses a root that does not exist or is not a folder', async () => {
    const root = tempDir();
    write(root, 'file.txt', 'f');
    expect((await refusal(join(root, 'missing'))).message).toBe(`Repository root '${join(root, 'missing')}' does not exist. Expected the path of an existing directory.`);
    expect((await refusal(join(root, 'file.txt'))).message).toMatch(/is not a directory\./);
  });

  it('follows a root given through a symbolic link', async () => {
    const root = tempDir();
    write(root, 'real/a.txt', 'a');
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    expect(await takeSnapshot(join(root, 'alias'))).toEqual(await takeSnapshot(join(root, 'real')));
  });

  it('records an empty folder as an empty snapshot', async () => {
    const snapshot = await takeSnapshot(tempDir());
    expect(snapshot).toEqual({ digest: snapshotDigest([]), source: 'walk', entries: [] });
  });

  it('is stable across runs and thread counts, and changes with one byte, one mode or one name', async () => {
    const root = tempDir();
    for (let i = 0; i < 150; i++) {
      write(root, `d${i % 7}/f${i}.txt`, `file ${i}\n`);
    }
    const first = await takeSnapshot(root);
    expect((await takeSnapshot(root)).digest).toBe(first.digest);
    expect(await takeSnapshot(root, { concurrency: 1 })).toEqual(first);
    expect(await takeSnapshot(root, { concurrency: 5 })).toEqual(first);

    write(root, 'd3/f3.txt', 'file 4\n');
    const byte = await takeSnapshot(root);
    expect(byte.digest).not.toBe(first.digest);
    write(root, 'd3/f3.txt', 'file 3\n');
    expect((await takeSnapshot(root)).digest).toBe(first.digest);

    chmodSync(join(root, 'd3/f3.txt'), 0o755);
    const mode = await takeSnapshot(root);
    expect(mode.digest).not.toBe(first.digest);
    chmodSync(join(root, 'd3/f3.txt'), 0o644);

    execFileSync('mv', [join(root, 'd3/f3.txt'), join(root, 'd3/f3.txT')]);
    const name = await takeSnapshot(root);
    expect(name.digest).not.toBe(first.digest);
    expect(new Set([byte.digest, mode.digest, name.digest]).size).toBe(3);
  });

  it('refuses a concurrency that is not a positive whole number', async () => {
    await expect(takeSnapshot(tempDir(), { concurrency: 0 })).rejects.toThrow(ConfigurationError);
    await expect(takeSnapshot(tempDir(), { concurrency: 1.5 })).rejects.toThrow(ConfigurationError);
  });
});

describe('createGit', () => {
  it('finds the top of a work tree from a subfolder, and nothing outside one', async () => {
    const root = repo({ 'a/b.txt': 'b' });
    const git = createGit();
    expect(await git.workTreeTop(join(root, 'a'))).toBe(root);
    expect(await git.workTreeTop(tempDir())).toBeUndefined();
    expect(await git.workTreeTop(join(root, '.git'))).toBeUndefined();
  });

  it('lists index entries with their modes and raw names', async () => {
    const root = repo({ 'plain.txt': 'p', 'run.sh': '#!/bin/sh\n', 'sub/é.txt': 'e' });
    chmodSync(join(root, 'run.sh'), 0o755);
    symlinkSync('plain.txt', join(root, 'link'));
    git(root, 'add', '-A');
    const files = await createGit().lsFiles(root);
    expect(files.map((file) => [file.mode, file.stage, file.path.toString('utf8')])).toEqual([
      ['120000', 0, 'link'],
      ['100644', 0, 'plain.txt'],
      ['100755', 0, 'run.sh'],
      ['100644', 0, 'sub/é.txt']
    ]);
    expect((await createGit().lsFiles(join(root, 'sub'))).map((file) => file.path.toString('utf8'))).toEqual(['é.txt']);
  });
});
