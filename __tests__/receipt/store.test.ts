import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStoredScreening, storeEntryDir, storeScreening } from '../../src/receipt/store.js';

/** The receipt store's writes (no Docker): whole entries, kept when present, private modes, no temporaries left. */
describe('receipt store entries', () => {
  let store: string;
  const receiptDigest = `sha256:${'1'.repeat(64)}`;
  const screeningDigest = `sha256:${'2'.repeat(64)}`;

  beforeEach(async () => {
    store = join(await mkdtemp(join(tmpdir(), 'pp-store-')), 'store');
  });
  afterEach(async () => {
    await rm(join(store, '..'), { recursive: true, force: true });
  });

  it('refuses a screening whose candidate receipt the store does not hold, and writes nothing', async () => {
    await expect(storeScreening(store, screeningDigest, '{"s":1}', [{ digest: receiptDigest, text: '{"r":1}' }])).rejects.toThrow(/not in the receipt store/);
    await expect(stat(storeEntryDir(store, screeningDigest))).rejects.toThrow();
  });

  it('stores a screening whose receipts it holds, reads it back byte for byte, refuses other bytes, and keeps the first copy', async () => {
    await mkdir(storeEntryDir(store, receiptDigest), { recursive: true });
    await writeFile(join(storeEntryDir(store, receiptDigest), 'receipt.json'), '{"r":1}');
    const dir = await storeScreening(store, screeningDigest, '{"s":1}', [{ digest: receiptDigest, text: '{"r":1}' }]);
    expect(dir).toBe(storeEntryDir(store, screeningDigest));
    expect(await readFile(join(dir, 'screening.json'), 'utf8')).toBe('{"s":1}');
    expect((await stat(join(dir, 'screening.json'))).mode & 0o777).toBe(0o600);
    await expect(readStoredScreening(store, screeningDigest, '{"s":1}')).resolves.toBeUndefined();
    await expect(readStoredScreening(store, screeningDigest, '{"s":2}')).rejects.toThrow();
    // A second write of the same digest keeps the entry there (its name is the digest of its bytes).
    await storeScreening(store, screeningDigest, '{"s":1}', [{ digest: receiptDigest, text: '{"r":1}' }]);
    expect(await readFile(join(dir, 'screening.json'), 'utf8')).toBe('{"s":1}');
    expect((await readdir(store)).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });
});
