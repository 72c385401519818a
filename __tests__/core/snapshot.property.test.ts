import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { compareUtf8, snapshotDigest, type EntryMode, type SnapshotEntry } from '../../src/core/snapshot-record.js';
import { DIGEST_PATTERN } from '../../src/core/hashing.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';

/** Any well-formed text segment: every code point except NUL and '/', never '.' or '..'. */
const segment = fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }).filter((text) => !text.includes('/') && !text.includes('\0') && text !== '.' && text !== '..');

const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'));

const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('hex'));

const body = fc.record({
  kind: fc.constantFrom<SnapshotEntry['kind']>('file', 'symlink'),
  executable: fc.boolean(),
  sha256: hex64,
  size: fc.maxSafeNat()
});

const entries = fc.uniqueArray(fc.tuple(path, body), { selector: ([p]) => p, maxLength: 30 }).map((list) =>
  list.map(([p, b]): SnapshotEntry => {
    const mode: EntryMode = b.kind === 'symlink' ? '120000' : b.executable ? '100755' : '100644';
    return { path: p, kind: b.kind, mode, sha256: b.sha256, size: b.size };
  })
);

describe('snapshotDigest properties', () => {
  it('gives a digest for any valid entries', () => {
    fc.assert(
      fc.property(entries, (list) => {
        expect(snapshotDigest(list)).toMatch(DIGEST_PATTERN);
      })
    );
  });

  it('does not depend on input order', () => {
    fc.assert(
      fc.property(
        entries.chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }))),
        ([list, shuffled]) => {
          expect(snapshotDigest(shuffled)).toBe(snapshotDigest(list));
        }
      )
    );
  });

  it('changes when any single field of any entry changes', () => {
    const change = fc.constantFrom('path', 'kind', 'mode', 'sha256', 'size');
    fc.assert(
      fc.property(
        entries.filter((list) => list.length > 0),
        fc.nat(),
        change,
        segment,
        hex64,
        (list, pick, field, extra, otherHex) => {
          const index = pick % list.length;
          const original = list[index] as SnapshotEntry;
          const changed: SnapshotEntry = { ...original };
          switch (field) {
            case 'path':
              changed.path = `${original.path}/${extra}`;
              break;
            case 'kind':
              changed.kind = original.kind === 'file' ? 'symlink' : 'file';
              changed.mode = original.kind === 'file' ? '120000' : '100644';
              break;
            case 'mode':
              if (original.kind === 'symlink') return;
              changed.mode = original.mode === '100644' ? '100755' : '100644';
              break;
            case 'sha256':
              if (otherHex === original.sha256) return;
              changed.sha256 = otherHex;
              break;
            case 'size':
              changed.size = original.size === 0 ? 1 : original.size - 1;
              break;
          }
          const others = list.filter((_, i) => i !== index);
          if (others.some((entry) => entry.path === changed.path)) return;
          expect(snapshotDigest([...others, changed])).not.toBe(snapshotDigest(list));
        }
      )
    );
  });

  it('orders paths exactly as their UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(compareUtf8(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      })
    );
  });
});

/** Names from a safe alphabet, never `.`, `..` or `.git`. */
const safeName = fc
  .string({ unit: fc.constantFrom(...'abcXYZ019._- é'.split('')), minLength: 1, maxLength: 6 })
  .filter((name) => name !== '.' && name !== '..' && name.toLowerCase() !== '.git');

const treeFile = fc.record({
  segments: fc.array(safeName, { minLength: 1, maxLength: 3 }),
  content: fc.uint8Array({ maxLength: 4096 }),
  executable: fc.boolean()
});

/** A random tree: later files whose path clashes with an earlier file or folder are dropped. */
const tree = fc.array(treeFile, { maxLength: 25 }).map((files) => {
  const kept = new Map<string, { content: Uint8Array; executable: boolean }>();
  const folders = new Set<string>();
  for (const file of files) {
    const filePath = file.segments.join('/');
    const parents = file.segments.slice(0, -1).map((_, i) => file.segments.slice(0, i + 1).join('/'));
    if (kept.has(filePath) || folders.has(filePath) || parents.some((parent) => kept.has(parent))) continue;
    parents.forEach((parent) => folders.add(parent));
    kept.set(filePath, { content: file.content, executable: file.executable });
  }
  return kept;
});

describe('takeSnapshot properties', () => {
  it('matches a reference computed with node:crypto, by walking and through git', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async (files) => {
        const root = realpathSync(mkdtempSync(join(tmpdir(), 'patchproof-property-')));
        try {
          const reference: SnapshotEntry[] = [];
          for (const [filePath, { content, executable }] of files) {
            const absolute = join(root, filePath);
            mkdirSync(dirname(absolute), { recursive: true });
            writeFileSync(absolute, content);
            chmodSync(absolute, executable ? 0o755 : 0o644);
            reference.push({
              path: filePath,
              kind: 'file',
              mode: executable ? '100755' : '100644',
              sha256: createHash('sha256').update(content).digest('hex'),
              size: content.length
            });
          }
          reference.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));

          const walked = await takeSnapshot(root);
          expect(walked.source).toBe('walk');
          expect(walked.entries).toEqual(reference);
          expect(walked.digest).toBe(snapshotDigest(reference));

          execFileSync('git', ['init', '-q'], { cwd: root });
          execFileSync('git', ['add', '-A'], { cwd: root });
          const tracked = await takeSnapshot(root);
          expect(tracked.source).toBe('git');
          expect(tracked.entries).toEqual(reference);
          expect(tracked.digest).toBe(walked.digest);
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 25 }
    );
  });
});
