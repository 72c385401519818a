import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import tarStream, { type Header } from 'tar-stream';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ConfigurationError, VerificationError } from '../../src/errors.js';
import { packWitness, packWitnessEntries, readWitnessArchive, writeWitnessEntries } from '../../src/fetch/witness/archive.js';
import { digestWitnessEntries, digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import type { WitnessEntry } from '../../src/fetch/witness/entries.js';
import { readWitnessFolder } from '../../src/fetch/witness/folder.js';
import { END_OF_TAR, listTree, rawFile, rawHeader, tarOf, tempFolder, tgzOf } from './tar-helpers.js';

const LONG_NAME = `deep/${'nested-folder-name/'.repeat(8)}and-a-file-name-that-is-long.test.js`;

let scratch: string;
beforeEach(async () => {
  scratch = await tempFolder();
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A small pack tree: nested folders, an executable, a non-ASCII name, a name past ustar's 100 bytes. */
async function makeTree(root: string): Promise<void> {
  await mkdir(join(root, 'reproduction', 'sub'), { recursive: true });
  await mkdir(join(root, 'hidden'), { recursive: true });
  await mkdir(join(root, ...LONG_NAME.split('/').slice(0, -1)), { recursive: true });
  await writeFile(join(root, 'witness.json'), '{"schema":"patchproof.witness/v1","adapter":"node-test"}\n');
  await writeFile(join(root, 'reproduction', 'a.test.js'), 'test a\n');
  await writeFile(join(root, 'reproduction', 'sub', 'run.sh'), '#!/bin/sh\necho hi\n');
  await chmod(join(root, 'reproduction', 'sub', 'run.sh'), 0o755);
  await writeFile(join(root, 'hidden', 'größe-日本.test.js'), 'unicode\n');
  await writeFile(join(root, 'hidden', 'empty.txt'), '');
  await writeFile(join(root, ...LONG_NAME.split('/')), 'long\n');
}

async function refusal(bytes: Uint8Array, limits?: { maxFiles?: number; maxBytes?: number }): Promise<string> {
  const error = await readWitnessArchive(bytes, limits).then(
    () => undefined,
    (caught: unknown) => caught
  );
  expect(error).toBeInstanceOf(VerificationError);
  expect((error as VerificationError).code).toBe('witness_unsafe');
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

/** The headers of an uncompressed tar stream, in order. */
async function headersOf(tar: Buffer): Promise<Header[]> {
  const extract = tarStream.extract();
  extract.end(tar);
  const headers: Header[] = [];
  for await (const entry of extract) {
    headers.push(entry.header);
    entry.resume();
  }
  return headers;
}

describe('packWitness', () => {
  it('gives the same bytes for the same tree, whatever the times, modes and order of creation', async () => {
    const first = join(scratch, 'first');
    await makeTree(first);
    const a = await packWitness(first);
    expect(await packWitness(first)).toEqual(a);

    const second = join(scratch, 'second');
    await cp(first, second, { recursive: true });
    // Another machine: other file times, a tight umask (no group/other bits), folders 0700.
    await utimes(join(second, 'witness.json'), new Date('2030-01-01'), new Date('2030-01-01'));
    await utimes(join(second, 'hidden', 'empty.txt'), 12345, 67890);
    await chmod(join(second, 'reproduction', 'a.test.js'), 0o600);
    await chmod(join(second, 'reproduction', 'sub', 'run.sh'), 0o700);
    await chmod(join(second, 'hidden'), 0o700);
    expect(await packWitness(second)).toEqual(a);
  });

  it('writes normalised headers, sorted by path, and a gzip header with no time and OS byte 255', async () => {
    await makeTree(scratch);
    const archive = await packWitness(scratch);
    expect([...archive.subarray(0, 4)]).toEqual([0x1f, 0x8b, 8, 0]);
    expect(archive.readUInt32LE(4)).toBe(0);
    expect(archive[9]).toBe(0xff);
    const headers = await headersOf(gunzipSync(archive));
    expect(headers.map((h) => h.name)).toEqual([LONG_NAME, 'hidden/empty.txt', 'hidden/größe-日本.test.js', 'reproduction/a.test.js', 'reproduction/sub/run.sh', 'witness.json']);
    for (const header of headers) {
      expect(header).toMatchObject({ type: 'file', mtime: new Date(0), uid: 0, gid: 0, uname: '', gname: '' });
      expect(header.mode).toBe(header.name.endsWith('.sh') ? 0o755 : 0o644);
    }
  });

  it('packs what readWitnessArchive reads back, with the folder digest', async () => {
    await makeTree(scratch);
    const entries = await readWitnessArchive(await packWitness(scratch));
    expect(entries).toEqual(await readWitnessFolder(scratch));
    expect(digestWitnessEntries(entries)).toBe((await digestWitnessFolder(scratch)).digest);
  });

  it('is read by GNU tar, which lists and extracts the same tree', async () => {
    const source = join(scratch, 'source');
    await makeTree(source);
    const file = join(scratch, 'pack.tgz');
    await writeFile(file, await packWitness(source));
    const listed = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(listed).toHaveLength(6);
    const out = join(scratch, 'out');
    await mkdir(out);
    execFileSync('tar', ['-xzf', file, '-C', out]);
    expect((await digestWitnessFolder(out)).digest).toBe((await digestWitnessFolder(source)).digest);
  });

  it('reads an archive made by GNU tar with explicit folder entries', async () => {
    const source = join(scratch, 'source');
    await makeTree(source);
    const file = join(scratch, 'gnu.tar.gz');
    execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '-czf', file, '-C', source, 'hidden', 'reproduction', 'deep', 'witness.json']);
    const entries = await readWitnessArchive(await readFile(file));
    expect(digestWitnessEntries(entries)).toBe((await digestWitnessFolder(source)).digest);
  });

  it('refuses a folder holding a symbolic link', async () => {
    await makeTree(scratch);
    await symlink('witness.json', join(scratch, 'link.json'));
    await expect(packWitness(scratch)).rejects.toMatchObject({ code: 'witness_unsafe', message: expect.stringContaining("'link.json' is a symbolic link") });
  });

  it('refuses entries that are not a tree', async () => {
    const data = Buffer.from('x');
    await expect(
      packWitnessEntries([
        { path: 'a', mode: '100644', data },
        { path: 'a/b', mode: '100644', data }
      ])
    ).rejects.toMatchObject({ code: 'witness_unsafe' });
  });
});

describe('readWitnessArchive refusals', () => {
  it.each([
    ['a parent segment', '../x', "contains '..'"],
    ['a parent segment inside', 'a/../../x', "contains '..'"],
    ['an absolute path', '/abs', 'is absolute'],
    ['a drive letter', 'C:/x', 'is absolute'],
    ['a dot segment', './x', "has a '.' component"],
    ['an empty segment', 'a//b', 'has an empty component'],
    ['a backslash', 'a\\b', 'contains a backslash'],
    ['a newline', 'a\nb', 'contains a control character'],
    ['a .git segment', 'x/.git/config', "has a '.git' component"],
    ['a leading .patchproof', '.patchproof/harness/x', "is under '.patchproof/'"]
  ])('refuses %s', async (_what, name, problem) => {
    expect(
      await refusal(
        await tgzOf([
          { name: 'ok', data: 'x' },
          { name, data: 'x' }
        ])
      )
    ).toContain(problem);
  });

  it('refuses a NUL byte in a pax path', async () => {
    const record = ' path=a\u0000b\n';
    const pax = Buffer.from(`${record.length + 2}${record}`);
    const tar = Buffer.concat([rawFile(Buffer.from('PaxHeader'), pax, { typeflag: 'x' }), rawFile(Buffer.from('plain'), Buffer.from('x')), END_OF_TAR]);
    expect(await refusal(gzipSync(tar))).toContain('contains a control character');
  });

  it.each([
    ['symlink', { name: 'link', type: 'symlink', linkname: '/etc/passwd' }],
    ['link', { name: 'hard', type: 'link', linkname: 'witness.json' }],
    ['character-device', { name: 'tty', type: 'character-device' }],
    ['block-device', { name: 'disk', type: 'block-device' }],
    ['fifo', { name: 'pipe', type: 'fifo' }],
    ['contiguous-file', { name: 'contig', type: 'contiguous-file', data: 'x' }]
  ] as const)('refuses a %s entry', async (type, item) => {
    expect(await refusal(await tgzOf([item]))).toContain(`is a ${type}; packs hold only files and folders`);
  });

  it('refuses an entry of unknown type', async () => {
    const tar = Buffer.concat([rawFile(Buffer.from('odd'), Buffer.from('x'), { typeflag: 'Z' }), END_OF_TAR]);
    expect(await refusal(gzipSync(tar))).toContain('is a tar entry of unknown type');
  });

  it('refuses a path listed twice, as two files or as a folder and a file', async () => {
    expect(
      await refusal(
        await tgzOf([
          { name: 'a', data: '1' },
          { name: 'a', data: '2' }
        ])
      )
    ).toContain("entry 'a' appears twice");
    expect(
      await refusal(
        await tgzOf([
          { name: 'a/', type: 'directory' },
          { name: 'a', data: '2' }
        ])
      )
    ).toContain("entry 'a' appears twice");
  });

  it('refuses a file under a path that is a file, in either order', async () => {
    expect(
      await refusal(
        await tgzOf([
          { name: 'a', data: '1' },
          { name: 'a/b', data: '2' }
        ])
      )
    ).toContain("'a' is a file, but another entry needs it to be a folder");
    expect(
      await refusal(
        await tgzOf([
          { name: 'a/b/c', data: '1' },
          { name: 'a/b', data: '2' }
        ])
      )
    ).toContain("'a/b' is a file");
  });

  it('refuses a name that is not UTF-8, in a ustar header or a pax header', async () => {
    const ustar = Buffer.concat([rawFile(Buffer.from([0x61, 0xff, 0x62]), Buffer.from('x')), END_OF_TAR]);
    expect(await refusal(gzipSync(ustar))).toContain('entry name (bytes 61ff62) is not valid UTF-8');
    const record = Buffer.concat([Buffer.from(' path=a'), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]);
    const pax = Buffer.concat([Buffer.from(String(record.length + 3)), record]);
    const paxTar = Buffer.concat([rawFile(Buffer.from('PaxHeader'), pax, { typeflag: 'x' }), rawFile(Buffer.from('plain'), Buffer.from('x')), END_OF_TAR]);
    expect(await refusal(gzipSync(paxTar))).toContain('is not valid UTF-8 (it holds U+FFFD');
  });

  it('refuses more entries than the limit, by default 10,000', async () => {
    const items = Array.from({ length: 6 }, (_, i) => ({ name: `f${i}`, data: '' }));
    expect(await refusal(await tgzOf(items), { maxFiles: 5 })).toContain('more than 5 entries');
    await expect(readWitnessArchive(await tgzOf(items.slice(0, 5)), { maxFiles: 5 })).resolves.toHaveLength(5);
    const many = Array.from({ length: 10_001 }, (_, i) => ({ name: `d${i % 10}/f${i}`, data: '' }));
    expect(await refusal(await tgzOf(many))).toContain('more than 10000 entries');
  });

  it('stops decompressing a zip bomb at the limit (64 MiB by default)', async () => {
    // 256 MiB of zeros in one file: about 250 KiB compressed.
    const gzip = createGzip();
    const chunks: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise((resolve) => gzip.on('end', resolve));
    gzip.write(rawHeader(Buffer.from('bomb'), { size: 256 * 1024 * 1024 }));
    const zeros = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 256; i++) gzip.write(zeros);
    gzip.end(END_OF_TAR);
    await done;
    const bomb = Buffer.concat(chunks);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await refusal(bomb)).toContain('more than 67108864 bytes uncompressed');
    expect(await refusal(bomb, { maxBytes: 1024 * 1024 })).toContain('more than 1048576 bytes uncompressed');
  });

  it('refuses a compressed archive larger than the limit before decompressing it', async () => {
    expect(await refusal(Buffer.alloc(2000), { maxBytes: 1000 })).toContain('the archive is 2000 bytes, more than the limit of 1000');
  });

  it('refuses truncated or corrupt gzip, and data that is not gzip', async () => {
    const good = await tgzOf([{ name: 'a', data: 'hello '.repeat(100) }]);
    expect(await refusal(good.subarray(0, good.length - 10))).toContain('the archive is not valid gzip');
    const flipped = Buffer.from(good);
    flipped[good.length - 6] = (flipped[good.length - 6] ?? 0) ^ 0xff;
    expect(await refusal(flipped)).toContain('the archive is not valid gzip');
    expect(await refusal(await tarOf([{ name: 'a', data: 'x' }]))).toContain('the archive is not valid gzip');
  });

  it('refuses a truncated or corrupt tar stream inside valid gzip', async () => {
    const tar = await tarOf([{ name: 'a', data: 'x'.repeat(2000) }]);
    expect(await refusal(gzipSync(tar.subarray(0, 1024)))).toContain('not a valid tar stream');
    const corrupt = Buffer.from(tar);
    corrupt[10] = 0x41;
    expect(await refusal(gzipSync(corrupt))).toContain('not a valid tar stream');
  });

  it('refuses entries hidden from other tar readers: after the end marker, or behind a zero block', async () => {
    const a = rawFile(Buffer.from('a'), Buffer.from('1'));
    const b = rawFile(Buffer.from('b'), Buffer.from('2'));
    expect(await refusal(gzipSync(Buffer.concat([a, END_OF_TAR, b, END_OF_TAR])))).toContain('has an empty block at byte 1024');
    expect(await refusal(gzipSync(Buffer.concat([a, Buffer.alloc(512), b, END_OF_TAR])))).toContain('has an empty block at byte 1024');
    // tar-stream reads on after the marker, so trailing junk is refused as a broken header or a short block.
    expect(await refusal(gzipSync(Buffer.concat([a, END_OF_TAR, Buffer.from('junk')])))).toContain('not a valid tar stream');
    expect(await refusal(gzipSync(Buffer.concat([a, END_OF_TAR, Buffer.alloc(512, 0x41)])))).toContain('not a valid tar stream');
  });

  it('refuses a folder entry that carries data', async () => {
    const tar = Buffer.concat([rawHeader(Buffer.from('dir/'), { typeflag: '5', size: 512 }), rawFile(Buffer.from('x'), Buffer.from('1')), END_OF_TAR]);
    expect(await refusal(gzipSync(tar))).toContain("folder entry 'dir/' carries 512 bytes of data");
  });
});

describe('readWitnessArchive', () => {
  it('accepts explicit folders, files of zeros and empty files, and returns files sorted by UTF-8 bytes', async () => {
    const entries = await readWitnessArchive(
      await tgzOf([
        { name: 'z/', type: 'directory' },
        { name: 'z/\u{1f600}', data: 'astral' },
        { name: 'z/\uff01', data: 'bmp' },
        { name: 'zeros', data: Buffer.alloc(4096) },
        // A pax-named file of zero blocks: its data must not be taken for empty tar blocks.
        { name: 'zéros', data: Buffer.alloc(1024) },
        { name: 'empty', data: '' },
        { name: 'exe', data: '#!', mode: 0o4755 },
        { name: 'group-exec-only', data: 'x', mode: 0o654 },
        { name: 'lonely/', type: 'directory' }
      ])
    );
    expect(entries.map((e) => [e.path, e.mode, e.data.byteLength])).toEqual([
      ['empty', '100644', 0],
      ['exe', '100755', 2],
      ['group-exec-only', '100644', 1],
      ['z/\uff01', '100644', 3],
      ['z/\u{1f600}', '100644', 6],
      ['zeros', '100644', 4096],
      ['zéros', '100644', 1024]
    ]);
  });

  it('writes nothing to disk while reading', async () => {
    const before = await listTree(scratch);
    await readWitnessArchive(await tgzOf([{ name: 'a', data: 'x' }]));
    expect(await listTree(scratch)).toEqual(before);
  });
});

describe('writeWitnessEntries', () => {
  const entries: WitnessEntry[] = [
    { path: 'witness.json', mode: '100644', data: Buffer.from('{}') },
    { path: 'a/b/run.sh', mode: '100755', data: Buffer.from('#!/bin/sh\n') },
    { path: 'a/c.txt', mode: '100644', data: Buffer.from('c') }
  ];

  it('creates the folder and writes files 0644/0755 and folders 0755, whatever the umask', async () => {
    const dest = join(scratch, 'new', 'dest');
    const umask = process.umask(0o077);
    try {
      await writeWitnessEntries(entries, dest);
    } finally {
      process.umask(umask);
    }
    expect(await listTree(dest)).toEqual(['a/', 'a/b/', 'a/b/run.sh', 'a/c.txt', 'witness.json']);
    const mode = async (path: string): Promise<number> => (await stat(join(dest, path))).mode & 0o777;
    expect(await mode('.')).toBe(0o755);
    expect(await mode('a')).toBe(0o755);
    expect(await mode('a/b')).toBe(0o755);
    expect(await mode('a/b/run.sh')).toBe(0o755);
    expect(await mode('a/c.txt')).toBe(0o644);
    expect(await readFile(join(dest, 'a/b/run.sh'), 'utf8')).toBe('#!/bin/sh\n');
  });

  it('writes into an existing empty folder and refuses a non-empty one or a file', async () => {
    await writeWitnessEntries(entries, scratch);
    await expect(writeWitnessEntries(entries, scratch)).rejects.toThrow(ConfigurationError);
    await expect(writeWitnessEntries(entries, join(scratch, 'witness.json'))).rejects.toThrow(/is not a folder/);
  });

  it('refuses unsafe entries before creating anything', async () => {
    const dest = join(scratch, 'dest');
    await expect(writeWitnessEntries([{ path: '../escape', mode: '100644', data: Buffer.from('x') }], dest)).rejects.toMatchObject({ code: 'witness_unsafe' });
    await expect(writeWitnessEntries([{ path: 'a', mode: '120000' as never, data: Buffer.from('x') }], dest)).rejects.toMatchObject({ code: 'witness_unsafe' });
    expect(await listTree(scratch)).toEqual([]);
  });
});
