import { createHash } from 'node:crypto';
import { buildSnapshot, compareUtf8, diffSnapshots, snapshotDigest, type SnapshotEntry } from '../../src/core/snapshot-record.js';
import { ConfigurationError } from '../../src/errors.js';

const HELLO = createHash('sha256').update('hello\n').digest('hex');
const EMPTY = createHash('sha256').update('').digest('hex');
const LINK = createHash('sha256').update('README.md').digest('hex');

function file(path: string, sha256 = HELLO, size = 6, mode: SnapshotEntry['mode'] = '100644'): SnapshotEntry {
  return { path, kind: 'file', mode, sha256, size };
}

describe('snapshotDigest', () => {
  it('hashes the documented canonical form, so anyone can recompute it', () => {
    const entries: SnapshotEntry[] = [{ path: 'docs', kind: 'symlink', mode: '120000', sha256: LINK, size: 9 }, file('bin/run', EMPTY, 0, '100755'), file('README.md')];
    const payload =
      '{"entries":[' +
      `["README.md","file","100644","${HELLO}",6],` +
      `["bin/run","file","100755","${EMPTY}",0],` +
      `["docs","symlink","120000","${LINK}",9]` +
      '],"format":"patchproof/snapshot/v1"}';
    const expected = createHash('sha256').update('patchproof/snapshot/v1\0').update(payload).digest('hex');
    expect(snapshotDigest(entries)).toBe(`sha256:${expected}`);
  });

  it('does not depend on the order of its input', () => {
    const entries = [file('a'), file('b/c'), file('b.txt'), file('Z')];
    expect(snapshotDigest([...entries].reverse())).toBe(snapshotDigest(entries));
  });

  it('gives the empty repository a digest of its own', () => {
    expect(snapshotDigest([])).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(snapshotDigest([])).not.toBe(snapshotDigest([file('a')]));
  });

  it('changes when any one field changes', () => {
    const base = snapshotDigest([file('a'), file('b')]);
    expect(snapshotDigest([file('a'), file('c')])).not.toBe(base);
    expect(snapshotDigest([file('a'), file('b', EMPTY)])).not.toBe(base);
    expect(snapshotDigest([file('a'), file('b', HELLO, 7)])).not.toBe(base);
    expect(snapshotDigest([file('a'), file('b', HELLO, 6, '100755')])).not.toBe(base);
    expect(snapshotDigest([file('a'), { path: 'b', kind: 'symlink', mode: '120000', sha256: HELLO, size: 6 }])).not.toBe(base);
  });

  it('refuses a path listed twice', () => {
    expect(() => snapshotDigest([file('a'), file('b'), file('a', EMPTY, 0)])).toThrow(ConfigurationError);
    expect(() => snapshotDigest([file('a'), file('a')])).toThrow("Snapshot lists 'a' twice");
  });

  it.each([
    ['an empty path', file('')],
    ['an absolute path', file('/etc/passwd')],
    ['a parent segment', file('a/../b')],
    ['a dot segment', file('./a')],
    ['an empty segment', file('a//b')],
    ['a trailing slash', file('a/')],
    ['a lone surrogate', file('a\ud800')],
    ['a NUL', file('a\0b')],
    ['a file with link mode', file('a', HELLO, 6, '120000')],
    ['a link with file mode', { path: 'a', kind: 'symlink', mode: '100644', sha256: HELLO, size: 6 } satisfies SnapshotEntry],
    ['an unknown kind', { path: 'a', kind: 'folder', mode: '100644', sha256: HELLO, size: 6 } as unknown as SnapshotEntry],
    ['an upper-case sha256', file('a', HELLO.toUpperCase())],
    ['a prefixed sha256', file('a', `sha256:${HELLO}`)],
    ['a negative size', file('a', HELLO, -1)],
    ['a fractional size', file('a', HELLO, 1.5)]
  ])('refuses an entry with %s', (_name, entry) => {
    expect(() => snapshotDigest([entry])).toThrow(ConfigurationError);
  });
});

describe('buildSnapshot', () => {
  it('sorts paths as UTF-8 bytes, not as JavaScript strings', () => {
    const paths = ['😀', '\ufffd', 'é', 'a/b', 'a-b', 'Z', 'a'];
    const snapshot = buildSnapshot(
      'walk',
      paths.map((path) => file(path))
    );
    expect(snapshot.entries.map((entry) => entry.path)).toEqual(['Z', 'a', 'a-b', 'a/b', 'é', '\ufffd', '😀']);
    const byBytes = [...paths].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(snapshot.entries.map((entry) => entry.path)).toEqual(byBytes);
    // JavaScript's own order would put the emoji (a surrogate pair) before U+FFFD.
    expect([...paths].sort()).not.toEqual(byBytes);
    expect(snapshot.source).toBe('walk');
    expect(snapshot.digest).toBe(snapshotDigest(paths.map((path) => file(path))));
  });

  it('copies entries, so later changes to the input do not alter the snapshot', () => {
    const entries = [file('a')];
    const snapshot = buildSnapshot('git', entries);
    (entries[0] as SnapshotEntry).size = 99;
    expect(snapshot.entries[0]?.size).toBe(6);
  });
});

describe('compareUtf8', () => {
  it('orders by code point', () => {
    expect(compareUtf8('a', 'b')).toBeLessThan(0);
    expect(compareUtf8('ab', 'a')).toBeGreaterThan(0);
    expect(compareUtf8('x', 'x')).toBe(0);
    expect(compareUtf8('\uffff', '\u{10000}')).toBeLessThan(0);
    expect(compareUtf8('\u{10000}', '\u{10001}')).toBeLessThan(0);
    expect(compareUtf8('\ue000', '\ud7ff')).toBeGreaterThan(0);
  });
});

describe('diffSnapshots', () => {
  it('lists added, removed and changed paths', () => {
    const before = buildSnapshot('git', [file('same'), file('gone'), file('edited'), file('chmod'), file('relinked')]);
    const after = buildSnapshot('git', [
      file('same'),
      file('edited', EMPTY, 0),
      file('chmod', HELLO, 6, '100755'),
      { path: 'relinked', kind: 'symlink', mode: '120000', sha256: HELLO, size: 6 },
      file('new/b'),
      file('new/a')
    ]);
    expect(diffSnapshots(before, after)).toEqual({
      added: ['new/a', 'new/b'],
      removed: ['gone'],
      changed: ['chmod', 'edited', 'relinked']
    });
  });

  it('finds nothing between equal snapshots', () => {
    const snapshot = buildSnapshot('walk', [file('a'), file('b')]);
    expect(diffSnapshots(snapshot, snapshot)).toEqual({ added: [], removed: [], changed: [] });
  });
});
