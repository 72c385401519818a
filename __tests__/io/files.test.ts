import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOutside, existingDir, readJsonFile, readTextFile, writeFileAtomic } from '../../src/io/files.js';
import { ConfigurationError } from '../../src/errors.js';

describe('file helpers', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pp-files-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('names the flag when a file is missing, not UTF-8 or not JSON', async () => {
    await expect(readTextFile(join(dir, 'nope'), '--diff')).rejects.toThrow(/--diff '.*nope' cannot be read \(ENOENT\)/);
    await writeFile(join(dir, 'bin'), Buffer.from([0xff, 0xfe, 0x00]));
    await expect(readTextFile(join(dir, 'bin'), '--diff')).rejects.toThrow(/is not UTF-8 text/);
    await writeFile(join(dir, 'x.json'), '{');
    await expect(readJsonFile(join(dir, 'x.json'), '--proposal')).rejects.toThrow(ConfigurationError);
  });

  it('refuses outputs inside the repository, also through a link or a not-yet-existing folder', async () => {
    const repo = join(dir, 'repo');
    await mkdir(repo);
    const real = await existingDir(repo, '--repo');
    await expect(assertOutside(join(repo, 'out', 'deep'), real, '--out')).rejects.toThrow(/is inside the repository/);
    await expect(assertOutside(repo, real, '--out')).rejects.toThrow(/is inside the repository/);
    await symlink(repo, join(dir, 'alias'));
    await expect(assertOutside(join(dir, 'alias', 'out'), real, '--out')).rejects.toThrow(/is inside the repository/);
    await expect(assertOutside(join(dir, 'elsewhere', 'out'), real, '--out')).resolves.toBeUndefined();
    await expect(assertOutside(join(dir, 'repo-sibling'), real, '--out')).resolves.toBeUndefined();
  });

  it('refuses a folder flag that is not a folder', async () => {
    await writeFile(join(dir, 'f'), 'x');
    await expect(existingDir(join(dir, 'f'), '--repo')).rejects.toThrow(/--repo '.*' is not an existing folder/);
  });

  it('writes atomically, leaving no temp file behind', async () => {
    await writeFileAtomic(join(dir, 'sub', 'r.json'), '{}\n');
    expect(await readFile(join(dir, 'sub', 'r.json'), 'utf8')).toBe('{}\n');
    expect(await readdir(join(dir, 'sub'))).toEqual(['r.json']);
  });
});
