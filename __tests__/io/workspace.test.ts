import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloneTree, createScratch, listFiles, readResults, stageExternalTests, stageFiles, stageTree, writeChanges } from '../../src/phases/workspace.js';
import type { SnapshotEntry } from '../../src/core/snapshot-record.js';
import { VerificationError } from '../../src/errors.js';

const sha = (data: string): string => createHash('sha256').update(data).digest('hex');
const file = (path: string, content: string, mode: SnapshotEntry['mode'] = '100644'): SnapshotEntry => ({
  path,
  kind: 'file',
  mode,
  sha256: sha(content),
  size: Buffer.byteLength(content)
});

describe('workspace', () => {
  let repo: string;
  let out: string;
  beforeEach(async () => {
    repo = await mkdtemp(join(tmpdir(), 'pp-ws-repo-'));
    out = await mkdtemp(join(tmpdir(), 'pp-ws-out-'));
    await mkdir(join(repo, 'src'));
    await writeFile(join(repo, 'src', 'a.js'), 'export const a = 1;\n');
    await writeFile(join(repo, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    await writeFile(join(repo, 'untracked.txt'), 'not in the snapshot');
    await symlink('src/a.js', join(repo, 'link.js'));
  });
  afterEach(async () => {
    await rm(repo, { recursive: true, force: true });
    await rm(out, { recursive: true, force: true });
  });
  const entries = (): SnapshotEntry[] => [
    file('src/a.js', 'export const a = 1;\n'),
    file('run.sh', '#!/bin/sh\n', '100755'),
    { path: 'link.js', kind: 'symlink', mode: '120000', sha256: sha('src/a.js'), size: 8 }
  ];

  it('stages exactly the snapshot entries, with modes and links', async () => {
    await stageTree(repo, entries(), out);
    expect(await listFiles(out)).toEqual(['run.sh', 'src/a.js']);
    expect(await readlink(join(out, 'link.js'))).toBe('src/a.js');
    expect((await stat(join(out, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect((await stat(join(out, 'src', 'a.js'))).mode & 0o777).toBe(0o644);
  });

  it('refuses a file that changed after the snapshot', async () => {
    await writeFile(join(repo, 'src', 'a.js'), 'export const a = 2;\n');
    await expect(stageTree(repo, entries(), out)).rejects.toThrow(VerificationError);
  });

  it('refuses a link retargeted after the snapshot', async () => {
    await rm(join(repo, 'link.js'));
    await symlink('/etc/passwd', join(repo, 'link.js'));
    await expect(stageTree(repo, entries(), out)).rejects.toThrow(/link 'link.js' changed/);
  });

  it('writes changes and deletions into a copy without touching the source tree', async () => {
    await stageTree(repo, entries(), out);
    const copy = join(out, '..', `${out.split('/').pop()}-copy`);
    await cloneTree(out, copy);
    try {
      await writeChanges(
        copy,
        new Map([
          ['src/a.js', Buffer.from('changed\n')],
          ['src/new.js', Buffer.from('new\n')],
          ['run.sh', null]
        ]),
        new Map([['run.sh', '100755']])
      );
      expect(await listFiles(copy)).toEqual(['src/a.js', 'src/new.js']);
      expect(await readFile(join(copy, 'src', 'a.js'), 'utf8')).toBe('changed\n');
      expect(await readFile(join(out, 'src', 'a.js'), 'utf8')).toBe('export const a = 1;\n');
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('replaces anything the candidate put where external tests go', async () => {
    const tests = await mkdtemp(join(tmpdir(), 'pp-ws-tests-'));
    try {
      await writeFile(join(tests, 'repro.test.js'), 'real test\n');
      await mkdir(join(out, '.patchproof', 'reproduction'), { recursive: true });
      await writeFile(join(out, '.patchproof', 'reproduction', 'repro.test.js'), 'fake always-passing test\n');
      await writeFile(join(out, '.patchproof', 'reproduction', 'extra.test.js'), 'planted\n');
      const staged = await stageExternalTests(out, tests, '.patchproof/reproduction');
      expect(staged).toEqual(['.patchproof/reproduction/repro.test.js']);
      expect(await listFiles(join(out, '.patchproof'))).toEqual(['reproduction/repro.test.js']);
      expect(await readFile(join(out, '.patchproof', 'reproduction', 'repro.test.js'), 'utf8')).toBe('real test\n');
    } finally {
      await rm(tests, { recursive: true, force: true });
    }
  });

  it("stages external tests under the run's names: folder, file names and UTF-8 text; other bytes as they are", async () => {
    const tests = await mkdtemp(join(tmpdir(), 'pp-ws-tests-'));
    try {
      await writeFile(join(tests, 'test_x.py'), 'from patchproof_oracle import observe\n');
      await writeFile(join(tests, 'patchproof_oracle.py'), 'def observe(): pass\n');
      const binary = Buffer.from([0xff, 0xfe, 0x70, 0x61, 0x74, 0x63, 0x68, 0x70, 0x72, 0x6f, 0x6f, 0x66]);
      await writeFile(join(tests, 'data.bin'), binary);
      const hide = (text: string): string => text.replace(/patchproof/g, 'qwertyuiop');
      const staged = await stageExternalTests(out, tests, '.patchproof/reproduction', hide);
      expect(staged).toEqual(['.patchproof/reproduction/data.bin', '.patchproof/reproduction/patchproof_oracle.py', '.patchproof/reproduction/test_x.py']);
      expect(await listFiles(join(out, '.qwertyuiop'))).toEqual(['reproduction/data.bin', 'reproduction/qwertyuiop_oracle.py', 'reproduction/test_x.py']);
      expect(await readFile(join(out, '.qwertyuiop', 'reproduction', 'test_x.py'), 'utf8')).toBe('from qwertyuiop_oracle import observe\n');
      expect(await readFile(join(out, '.qwertyuiop', 'reproduction', 'data.bin'))).toEqual(binary);
    } finally {
      await rm(tests, { recursive: true, force: true });
    }
  });

  it('stages harness files and reads results, ignoring links and capping size', async () => {
    await stageFiles(out, { '.patchproof/harness/r.mjs': 'export default 1;\n' });
    expect(await readFile(join(out, '.patchproof', 'harness', 'r.mjs'), 'utf8')).toBe('export default 1;\n');
    const results = join(out, 'results');
    await mkdir(results);
    await writeFile(join(results, 'a.json'), '{"ok":true}');
    await symlink('/etc/hostname', join(results, 'sneaky.json'));
    expect(await readResults(results, 1000)).toEqual({ files: { 'a.json': '{"ok":true}' }, problems: [] });
    await writeFile(join(results, 'b.json'), 'x'.repeat(2000));
    expect((await readResults(results, 1000)).problems).toEqual(['result files exceed 1000 bytes']);
  });

  it('removes the whole scratch area on dispose', async () => {
    const scratch = await createScratch();
    const folder = await scratch.folder('x');
    expect((await stat(folder)).mode & 0o777).toBe(0o755);
    await scratch.dispose();
    await expect(stat(scratch.root)).rejects.toThrow();
  });
});
