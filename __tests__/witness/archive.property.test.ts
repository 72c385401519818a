import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { checkRepoPath } from '../../src/core/diff-policy.js';
import { VerificationError } from '../../src/errors.js';
import { readWitnessArchive, writeWitnessEntries } from '../../src/fetch/witness/archive.js';
import type { WitnessEntry } from '../../src/fetch/witness/entries.js';
import { listTree, tarOf, tempFolder, type TarItem } from './tar-helpers.js';

const TYPES = ['file', 'file', 'file', 'directory', 'symlink', 'link', 'fifo', 'character-device', 'block-device', 'contiguous-file'] as const;

const segment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '',
    'a',
    'b',
    'a',
    'b',
    'é',
    'e\u0301',
    '日本',
    '\u{1f600}',
    '.git',
    '.GIT',
    '.patchproof',
    'C:',
    'a\\b',
    '\u0000',
    '\n',
    ' ',
    '\ufffd',
    'x'.repeat(120)
  ),
  fc.string({ unit: 'binary', maxLength: 6 })
);

const name = fc
  .tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([absolute, parts, trailing]) => `${absolute ? '/' : ''}${parts.join('/')}${trailing ? '/' : ''}`);

const hostileItem: fc.Arbitrary<TarItem> = fc.record({
  name,
  type: fc.constantFrom(...TYPES),
  data: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  mode: fc.integer({ min: 0, max: 0o7777 }),
  linkname: fc.constantFrom('../../etc/passwd', '/etc/passwd', 'a', 'a/b')
});

/** Mostly plausible entries, so that accepted archives (and so the writing) are exercised too. */
const plausibleItem: fc.Arbitrary<TarItem> = fc.record({
  name: fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'c', 'é', '日本', '\u{1f600}', 'dir', 'x'.repeat(120)) },
        { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 4 }) }
      ),
      {
        minLength: 1,
        maxLength: 3
      }
    )
    .chain((parts) => fc.nat({ max: 1000 }).map((n) => [...parts.slice(0, -1), `${parts.at(-1)}-${n}`].join('/'))),
  type: fc.constantFrom('file', 'file', 'file', 'directory'),
  data: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  mode: fc.integer({ min: 0, max: 0o7777 })
});

const item = fc.oneof({ weight: 5, arbitrary: plausibleItem }, { weight: 1, arbitrary: hostileItem });

/** A byte to overwrite in the tar stream before it is compressed: corrupt input must be refused too. */
const mutation = fc.option(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { freq: 4 });

let scratch: string;
beforeAll(async () => {
  scratch = await tempFolder('pp-witness-property-');
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

let run = 0;

/** Write entries into `<scratch>/<run>/dest`; return what appeared under the scratch folder. */
async function writeAndList(entries: readonly WitnessEntry[]): Promise<{ added: string[]; error?: unknown; prefix: string }> {
  run += 1;
  const prefix = `run-${run}/`;
  const before = new Set(await listTree(scratch));
  let error: unknown;
  try {
    await writeWitnessEntries(entries, join(scratch, `run-${run}`, 'dest'));
  } catch (caught) {
    error = caught;
  }
  const added = (await listTree(scratch)).filter((path) => !before.has(path));
  return { added, error, prefix };
}

function expectInside(added: readonly string[], prefix: string): void {
  for (const path of added) {
    expect(path.endsWith('@')).toBe(false);
    expect(path === prefix || path === `${prefix}dest/` || path.startsWith(`${prefix}dest/`)).toBe(true);
  }
}

describe('readWitnessArchive and writeWitnessEntries on arbitrary archives', () => {
  it('either refuse with witness_unsafe, or give safe paths that are written inside the destination only', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 8 }), mutation, async (items, change) => {
        let tar: Buffer;
        try {
          tar = await tarOf(items);
        } catch {
          return; // tar-stream will not write this header; nothing to read.
        }
        if (change !== null) {
          tar[change[0] % tar.length] = change[1];
        }
        let entries: WitnessEntry[];
        try {
          entries = await readWitnessArchive(gzipSync(tar));
        } catch (error) {
          expect(error).toBeInstanceOf(VerificationError);
          expect((error as VerificationError).code).toBe('witness_unsafe');
          return;
        }
        for (const entry of entries) {
          expect(checkRepoPath(entry.path)).toBeUndefined();
        }
        const { added, error, prefix } = await writeAndList(entries);
        expect(error).toBeUndefined();
        expectInside(added, prefix);
        const files = added.filter((path) => !path.endsWith('/')).map((path) => path.slice(`${prefix}dest/`.length));
        expect(files.sort()).toEqual(entries.map((entry) => entry.path).sort());
        for (const entry of entries) {
          expect(Buffer.compare(await readFile(join(scratch, prefix, 'dest', entry.path)), Buffer.from(entry.data))).toBe(0);
        }
      }),
      { numRuns: 200 }
    );
  });

  it('writeWitnessEntries given arbitrary entries refuses before writing, or writes inside the destination only', async () => {
    const entry = fc.record({
      path: name,
      mode: fc.constantFrom('100644', '100755'),
      data: fc.uint8Array({ maxLength: 16 })
    }) as fc.Arbitrary<WitnessEntry>;
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 6 }), async (entries) => {
        const { added, error, prefix } = await writeAndList(entries);
        if (error !== undefined) {
          expect(error).toBeInstanceOf(VerificationError);
          expect(added).toEqual([]);
          return;
        }
        for (const written of entries) {
          expect(checkRepoPath(written.path)).toBeUndefined();
        }
        expectInside(added, prefix);
      }),
      { numRuns: 200 }
    );
  });
});
