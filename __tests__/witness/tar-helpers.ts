import { mkdtemp, readdir, lstat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import tarStream, { type Header } from 'tar-stream';

/** Builders for hostile tar archives, written with tar-stream as any tool could write them. */

/** One tar entry to write. */
export interface TarItem {
  name: string;
  type?: Header['type'];
  data?: string | Buffer;
  mode?: number;
  linkname?: string;
  size?: number;
}

/** An uncompressed tar stream of the items, in the order given. */
export async function tarOf(items: readonly TarItem[]): Promise<Buffer> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const item of items) {
    const header = { name: item.name, type: item.type ?? 'file', mode: item.mode ?? 0o644, mtime: new Date(0), linkname: item.linkname } as Header;
    const type = item.type ?? 'file';
    if (type === 'file' || type === 'contiguous-file') {
      pack.entry(header, typeof item.data === 'string' ? Buffer.from(item.data) : (item.data ?? Buffer.alloc(0)));
    } else {
      pack.entry(header, Buffer.alloc(0));
    }
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** A `.tar.gz` of the items. */
export async function tgzOf(items: readonly TarItem[]): Promise<Buffer> {
  return gzipSync(await tarOf(items));
}

/**
 * One raw ustar header block: `name` as raw bytes (so it can hold bytes that are not UTF-8),
 * `typeflag` as a character, a valid checksum.
 */
export function rawHeader(name: Buffer, options: { size?: number; typeflag?: string; mode?: number } = {}): Buffer {
  const block = Buffer.alloc(512);
  name.copy(block, 0, 0, Math.min(name.length, 100));
  block.write(`${(options.mode ?? 0o644).toString(8).padStart(6, '0')} \0`, 100, 'latin1');
  block.write('000000 \0', 108, 'latin1');
  block.write('000000 \0', 116, 'latin1');
  block.write(`${(options.size ?? 0).toString(8).padStart(11, '0')} `, 124, 'latin1');
  block.write('00000000000 ', 136, 'latin1');
  block.write(options.typeflag ?? '0', 156, 'latin1');
  block.write('ustar\0' + '00', 257, 'latin1');
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return block;
}

/** A raw file entry: header, data and padding. */
export function rawFile(name: Buffer, data: Buffer, options: { typeflag?: string; mode?: number } = {}): Buffer {
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([rawHeader(name, { ...options, size: data.length }), data, padding]);
}

/** The end-of-archive marker: two zero blocks. */
export const END_OF_TAR = Buffer.alloc(1024);

/** A fresh temporary folder. */
export async function tempFolder(prefix = 'pp-witness-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Every path under `root` (folders with a trailing '/', links marked '@'), sorted. */
export async function listTree(root: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (folder: string, prefix: string): Promise<void> => {
    for (const name of await readdir(folder)) {
      const path = join(folder, name);
      const info = await lstat(path);
      if (info.isSymbolicLink()) {
        out.push(`${prefix}${name}@`);
      } else if (info.isDirectory()) {
        out.push(`${prefix}${name}/`);
        await visit(path, `${prefix}${name}/`);
      } else {
        out.push(`${prefix}${name}`);
      }
    }
  };
  await visit(root, '');
  return out.sort();
}
