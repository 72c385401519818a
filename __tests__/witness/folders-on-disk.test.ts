import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { GitRepo } from '../helpers/git-repo.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { witnessFromFolders } from '../../src/fetch/witness/shortcut.js';
import { listTree, tempFolder } from './tar-helpers.js';

/**
 * Issue 12, item 4: a folder of tests given on the command line (`--reproduction`, `--hidden`,
 * `witness init --reproduction …`) is read as it is on disk, even when it sits untracked or
 * git-ignored inside a git work tree, where a tracked-files listing finds nothing.
 */

describe('test folders given on the command line, inside a git work tree', () => {
  let repo: GitRepo;
  let scratch: string;

  beforeAll(async () => {
    scratch = await tempFolder();
    repo = GitRepo.create('pp-on-disk-');
    repo.write('src/app.js', 'export const x = 1;\n');
    repo.write('.gitignore', 'ignored-tests/\n');
    repo.write('tracked-tests/a.test.js', "import 'node:test';\n");
    repo.commit();
    // An untracked file next to a tracked one, a wholly untracked folder and an ignored one.
    repo.write('tracked-tests/b.test.js', "import 'node:test';\n");
    repo.write('untracked-tests/repro.test.js', "import 'node:test';\n");
    repo.write('ignored-tests/hidden.test.js', "import 'node:test';\n");
    repo.write('ignored-tests/nested/more.test.js', "import 'node:test';\n");
    await mkdir(join(repo.dir, 'empty-tests'));
  });
  afterAll(async () => {
    await rm(repo.dir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  });

  it('is what a tracked-files listing would miss (the control)', async () => {
    expect((await takeSnapshot(join(repo.dir, 'untracked-tests'))).entries).toEqual([]);
    expect((await takeSnapshot(join(repo.dir, 'ignored-tests'))).entries).toEqual([]);
    expect((await takeSnapshot(join(repo.dir, 'tracked-tests'))).entries.map((e) => e.path)).toEqual(['a.test.js']);
  });

  it('witness init copies the untracked and the ignored folder as they are on disk', async () => {
    const pack = join(scratch, 'pack');
    const init = await runCliInProcess([
      'witness',
      'init',
      pack,
      '--adapter',
      'node-test',
      '--reproduction',
      join(repo.dir, 'untracked-tests'),
      '--hidden',
      join(repo.dir, 'ignored-tests')
    ]);
    // stderr holds only witness init's notes on how to pin node:test ids (never an error).
    expect({ status: init.status, stderr: init.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('note: ')) }).toEqual({ status: 0, stderr: [] });
    expect(init.stderr).toMatch(/^note: reproduction\.ids not pinned/);
    expect(await listTree(pack)).toEqual([
      'hidden/',
      'hidden/hidden.test.js',
      'hidden/nested/',
      'hidden/nested/more.test.js',
      'reproduction/',
      'reproduction/repro.test.js',
      'witness.json'
    ]);
    expect(await readFile(join(pack, 'reproduction', 'repro.test.js'), 'utf8')).toBe("import 'node:test';\n");
  });

  it('the --reproduction/--hidden shortcut takes tracked and untracked files alike', async () => {
    const built = await witnessFromFolders(join(repo.dir, 'tracked-tests'), join(repo.dir, 'ignored-tests'), 'node-test');
    try {
      expect((await listTree(built.dir)).filter((p) => p.startsWith('reproduction/'))).toEqual(['reproduction/', 'reproduction/a.test.js', 'reproduction/b.test.js']);
    } finally {
      await built.dispose();
    }
  });

  it('an empty folder is refused with why', async () => {
    const init = await runCliInProcess(['witness', 'init', join(scratch, 'pack2'), '--adapter', 'node-test', '--reproduction', join(repo.dir, 'empty-tests')]);
    expect(init.status).toBe(2);
    expect(init.stderr).toMatch(/reproduction folder '.*empty-tests' holds no files on disk/);
  });
});
