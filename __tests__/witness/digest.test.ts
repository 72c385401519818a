import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { VerificationError } from '../../src/errors.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { packWitness, readWitnessArchive } from '../../src/fetch/witness/archive.js';
import { digestWitnessEntries, digestWitnessFolder, witnessDigest } from '../../src/fetch/witness/digest.js';
import { readWitnessFolder } from '../../src/fetch/witness/folder.js';
import { tempFolder } from './tar-helpers.js';

let scratch: string;
beforeEach(async () => {
  scratch = await tempFolder();
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function makePack(root: string): Promise<void> {
  await mkdir(join(root, 'reproduction'), { recursive: true });
  await mkdir(join(root, 'hidden'), { recursive: true });
  await writeFile(join(root, 'witness.json'), '{"schema":"patchproof.witness/v1","adapter":"unittest"}\n');
  await writeFile(join(root, 'reproduction', 'test_bug.py'), 'import unittest\n');
  await writeFile(join(root, 'hidden', 'test_more.py'), 'import unittest\n');
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('pack digest', () => {
  it('is the documented hash, recomputable by hand', async () => {
    await mkdir(join(scratch, 'b'));
    await writeFile(join(scratch, 'b', 'x.py'), 'x\n');
    await writeFile(join(scratch, 'a.sh'), 'run\n');
    await chmod(join(scratch, 'a.sh'), 0o755);
    // sha256("patchproof/witness/v1" NUL canonical JSON), entries sorted by path bytes.
    const payload = '{"entries":[' + `["a.sh","file","100755","${sha('run\n')}",4],` + `["b/x.py","file","100644","${sha('x\n')}",2]` + '],"format":"patchproof/witness/v1"}';
    const expected = `sha256:${sha(`patchproof/witness/v1\u0000${payload}`)}`;
    expect((await digestWitnessFolder(scratch)).digest).toBe(expected);
  });

  it('is the same from the folder, from its entries and from its archive', async () => {
    await makePack(scratch);
    const { digest } = await digestWitnessFolder(scratch);
    expect(digestWitnessEntries(await readWitnessFolder(scratch))).toBe(digest);
    expect(digestWitnessEntries(await readWitnessArchive(await packWitness(scratch)))).toBe(digest);
  });

  it('is not the snapshot digest of the same tree (its own domain)', async () => {
    await makePack(scratch);
    const snapshot = await takeSnapshot(scratch);
    expect((await digestWitnessFolder(scratch)).digest).not.toBe(snapshot.digest);
    expect(witnessDigest(snapshot.entries)).toBe((await digestWitnessFolder(scratch)).digest);
  });

  it('changes with one byte, one mode bit or one name', async () => {
    await makePack(scratch);
    const base = (await digestWitnessFolder(scratch)).digest;
    const digest = async (): Promise<string> => (await digestWitnessFolder(scratch)).digest;

    await writeFile(join(scratch, 'hidden', 'test_more.py'), 'import unittesT\n');
    const byte = await digest();
    expect(byte).not.toBe(base);
    await writeFile(join(scratch, 'hidden', 'test_more.py'), 'import unittest\n');
    expect(await digest()).toBe(base);

    await chmod(join(scratch, 'hidden', 'test_more.py'), 0o755);
    const mode = await digest();
    expect(mode).not.toBe(base);
    await chmod(join(scratch, 'hidden', 'test_more.py'), 0o644);
    expect(await digest()).toBe(base);

    await rename(join(scratch, 'hidden', 'test_more.py'), join(scratch, 'hidden', 'test_mora.py'));
    const name = await digest();
    expect(name).not.toBe(base);
    expect(new Set([base, byte, mode, name]).size).toBe(4);
  });

  it('ignores file times and group/other permission bits', async () => {
    await makePack(scratch);
    const base = (await digestWitnessFolder(scratch)).digest;
    await chmod(join(scratch, 'witness.json'), 0o600);
    await chmod(join(scratch, 'hidden'), 0o700);
    expect((await digestWitnessFolder(scratch)).digest).toBe(base);
  });

  it('refuses a symbolic link in the folder, wherever it points', async () => {
    await makePack(scratch);
    await symlink('test_bug.py', join(scratch, 'reproduction', 'alias.py'));
    const error = await digestWitnessFolder(scratch).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VerificationError);
    expect(error).toMatchObject({ code: 'witness_unsafe', message: "witness pack refused: 'reproduction/alias.py' is a symbolic link; packs hold regular files only" });
    await expect(readWitnessFolder(scratch)).rejects.toMatchObject({ code: 'witness_unsafe' });
  });

  it('refuses a name a pack may not hold', async () => {
    await makePack(scratch);
    await mkdir(join(scratch, '.patchproof'));
    await writeFile(join(scratch, '.patchproof', 'x'), 'x');
    await expect(digestWitnessFolder(scratch)).rejects.toMatchObject({ code: 'witness_unsafe', message: expect.stringContaining("is under '.patchproof/'") });
  });

  it('inside a git work tree, covers the tracked files only', async () => {
    await makePack(scratch);
    const git = (...args: string[]): void => {
      execFileSync('git', ['-C', scratch, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'ignore' });
    };
    git('init', '-q');
    git('add', '.');
    const tracked = (await digestWitnessFolder(scratch)).digest;
    const outside = await tempFolder();
    try {
      await makePack(outside);
      expect((await digestWitnessFolder(outside)).digest).toBe(tracked);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
    await writeFile(join(scratch, 'hidden', 'untracked.py'), 'not in the pack');
    expect((await digestWitnessFolder(scratch)).digest).toBe(tracked);
    expect((await readWitnessFolder(scratch)).map((entry) => entry.path)).not.toContain('hidden/untracked.py');
  });
});
