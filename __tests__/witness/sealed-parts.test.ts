import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOracleFile } from '../../src/core/oracle.js';
import { ConfigurationError } from '../../src/errors.js';
import { packWitnessEntries, readWitnessArchive, writeWitnessEntries } from '../../src/fetch/witness/archive.js';
import { digestWitnessEntries } from '../../src/fetch/witness/digest.js';
import type { WitnessEntry } from '../../src/fetch/witness/entries.js';
import { resolveWitness } from '../../src/fetch/witness/fetch.js';
import { readWitnessFolder } from '../../src/fetch/witness/folder.js';
import { SEALED_PARTS } from '../../src/fetch/witness/sealed-parts.js';
import { decryptWith, generateWitnessKey, parseWitnessKey, sealHiddenEntries } from '../../src/fetch/witness/sealed.js';

/**
 * A sealed pack's plain part gives no hidden test away: the real js-duration pack (sealed oracles,
 * the author's originals kept by `witness seal`) with its hidden ids pinned is sealed with
 * seal-hidden, and neither its hidden expectations, nor its hidden originals, nor its pinned ids are
 * left in any plain file; they are restored in memory once the pack is opened with the key; and a
 * sealed pack that still carries any of them in plain text is refused, with or without the key.
 */

const PACK = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'witness-packs', 'js-duration');
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const text = (entry: WitnessEntry | undefined): string => decoder.decode(entry?.data ?? new Uint8Array());

let work: string;
let plain: WitnessEntry[];
let sealed: WitnessEntry[];
let identity: string;
let recipient: string;
let hiddenIds: string[];
/** What would give a hidden test away: its case ids, file, source, pinned ids and distinctive expected values. */
let secrets: string[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pp-sealed-parts-'));
  const key = await generateWitnessKey();
  identity = parseWitnessKey(key.fileText, 'key');
  recipient = key.recipient;
  const entries = await readWitnessFolder(PACK);
  const oracle = parseOracleFile(JSON.parse(text(entries.find((e) => e.path === 'oracle/expected.json'))));
  const hiddenCases = oracle.cases.filter((c) => c.phase === 'hidden');
  hiddenIds = hiddenCases.map((c) => `oracle > ${c.id}`).sort();
  const manifest = JSON.parse(text(entries.find((e) => e.path === 'witness.json'))) as { hidden: Record<string, unknown> };
  plain = entries.map((e) =>
    e.path === 'witness.json' ? { ...e, data: encoder.encode(JSON.stringify({ ...manifest, hidden: { ...manifest.hidden, ids: hiddenIds } }, null, 2)) } : e
  );
  const reproductionValues = new Set(oracle.cases.filter((c) => c.phase === 'reproduction').map((c) => JSON.stringify(c.expected)));
  const values = hiddenCases
    .filter((c) => typeof c.expected === 'number')
    .map((c) => JSON.stringify(c.expected))
    .filter((v) => v.length >= 6 && !reproductionValues.has(v));
  expect(values.length).toBeGreaterThanOrEqual(3);
  const original = text(entries.find((e) => e.path === 'oracle/original/hidden/millisecond-unit-hidden.test.js'));
  expect(original).toContain("parseDuration('2m500ms')");
  secrets = ['millisecond-unit-hidden', 'hidden:', "parseDuration('2m500ms')", 'on inputs the candidate never saw', ...hiddenIds, ...values];
  sealed = await sealHiddenEntries(plain, 'hidden', [recipient]);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Write entries as a pack folder; returns the folder and its digest. */
async function written(entries: readonly WitnessEntry[], name: string): Promise<{ dir: string; digest: string }> {
  const dir = join(work, name);
  await writeWitnessEntries([...entries], dir);
  return { dir, digest: digestWitnessEntries(entries) };
}

describe('seal-hidden moves every secret part into hidden.age', () => {
  it('the unsealed pack does carry them in plain text (so the checks below can fail)', () => {
    const all = plain.map(text).join('\n');
    for (const secret of secrets) expect([secret, all.includes(secret)]).toEqual([secret, true]);
  });

  it('no plain file of the sealed pack holds a hidden case id, expected value, original, source line or pinned id', () => {
    expect(sealed.map((e) => e.path).sort()).toEqual([
      'hidden.age',
      'oracle/expected.json',
      'oracle/original/reproduction/millisecond-unit.test.js',
      'reproduction/millisecond-unit.test.js',
      'witness.json'
    ]);
    const open = sealed
      .filter((e) => e.path !== 'hidden.age')
      .map((e) => `${e.path}\n${text(e)}`)
      .join('\n');
    for (const secret of secrets) expect([secret, open.includes(secret)]).toEqual([secret, false]);
    // The reproduction's expectations stay plain: the reproduction is public.
    const oracle = parseOracleFile(JSON.parse(text(sealed.find((e) => e.path === 'oracle/expected.json'))));
    expect(oracle.cases.map((c) => c.phase)).toEqual(['reproduction', 'reproduction']);
    expect((JSON.parse(text(sealed.find((e) => e.path === 'witness.json'))) as { hidden?: unknown }).hidden).toEqual({
      path: 'hidden',
      placement: '.patchproof/hidden',
      repeat: 1
    });
  });

  it("hidden.age holds them: the hidden tests, the oracle's hidden half, the originals and the pinned ids", async () => {
    const inner = await readWitnessArchive(await decryptWith(identity, (sealed.find((e) => e.path === 'hidden.age') as WitnessEntry).data, 'hidden.age'));
    expect(inner.map((e) => e.path).sort()).toEqual([
      'hidden/millisecond-unit-hidden.test.js',
      SEALED_PARTS.ids,
      SEALED_PARTS.oracle,
      `${SEALED_PARTS.originals}/millisecond-unit-hidden.test.js`
    ]);
    expect(JSON.parse(text(inner.find((e) => e.path === SEALED_PARTS.ids)))).toEqual(hiddenIds);
  });
});

describe('the loader restores them in memory, and refuses a sealed pack that has them plain', () => {
  it("opened with the key: the manifest has its pinned ids back, the oracle's hidden half is in memory, and nothing secret is on disk but the hidden tests", async () => {
    const { dir, digest } = await written(sealed, 'sealed');
    const resolved = await resolveWitness(dir, digest, { witnessKey: identity, tempDir: work });
    try {
      expect(resolved.manifest.hidden.ids).toEqual(hiddenIds);
      expect(resolved.hiddenOracle?.cases.map((c) => `oracle > ${c.id}`).sort()).toEqual(hiddenIds);
      expect(existsSync(join(resolved.dir, 'sealed'))).toBe(false);
      expect(existsSync(join(resolved.dir, 'oracle', 'original', 'hidden'))).toBe(false);
      expect(existsSync(join(resolved.dir, 'hidden', 'millisecond-unit-hidden.test.js'))).toBe(true);
      expect((JSON.parse(await readFile(join(resolved.dir, 'witness.json'), 'utf8')) as { hidden: { ids?: unknown } }).hidden.ids).toBeUndefined();
    } finally {
      await resolved.dispose();
    }
    // witness digest checks a sealed pack without its key.
    const closed = await resolveWitness(dir, digest, { leaveSealed: true, tempDir: work });
    expect(closed.manifest.hidden.ids).toBeUndefined();
    await closed.dispose();
  });

  const leaks: [string, (entries: WitnessEntry[]) => WitnessEntry[], RegExp][] = [
    [
      'pinned hidden ids in witness.json',
      (entries) => entries.map((e) => (e.path === 'witness.json' ? (plain.find((p) => p.path === 'witness.json') as WitnessEntry) : e)),
      /lists hidden\.ids in plain text/
    ],
    [
      "the hidden tests' originals",
      (entries) => [...entries, plain.find((p) => p.path === 'oracle/original/hidden/millisecond-unit-hidden.test.js') as WitnessEntry],
      /holds the hidden tests' originals in plain text/
    ],
    [
      'hidden cases in the oracle file',
      (entries) => entries.map((e) => (e.path === 'oracle/expected.json' ? (plain.find((p) => p.path === 'oracle/expected.json') as WitnessEntry) : e)),
      /holds hidden expectations in plain text/
    ]
  ];

  it.each(leaks)('refuses a sealed pack with %s, in one line, with or without the key, writing nothing', async (name, leak, message) => {
    const { dir, digest } = await written(leak(sealed), `leak-${name.replace(/\W+/g, '-')}`);
    const temp = await mkdtemp(join(work, 'temp-'));
    for (const options of [{ witnessKey: identity }, { leaveSealed: true }]) {
      const error = await resolveWitness(dir, digest, { ...options, tempDir: temp }).then(
        () => undefined,
        (e: unknown) => e
      );
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/seal-hidden/);
      expect((error as Error).message.split('\n')).toHaveLength(1);
    }
    expect(await readdirCount(temp)).toBe(0);
  });

  it('refuses a hidden.age whose oracle half holds reproduction cases', async () => {
    const inner = await readWitnessArchive(await decryptWith(identity, (sealed.find((e) => e.path === 'hidden.age') as WitnessEntry).data, 'hidden.age'));
    const oracle = parseOracleFile(JSON.parse(text(inner.find((e) => e.path === SEALED_PARTS.oracle))));
    const swapped = { ...oracle, cases: oracle.cases.map((c, i) => (i === 0 ? { ...c, phase: 'reproduction' as const } : c)) };
    const crafted = inner.map((e) => (e.path === SEALED_PARTS.oracle ? { ...e, data: encoder.encode(JSON.stringify(swapped)) } : e));
    const { encryptTo } = await import('../../src/fetch/witness/sealed.js');
    const ciphertext = await encryptTo([recipient], await packWitnessEntries(crafted));
    const { dir, digest } = await written(
      sealed.map((e) => (e.path === 'hidden.age' ? { ...e, data: ciphertext } : e)),
      'crafted'
    );
    await expect(resolveWitness(dir, digest, { witnessKey: identity, tempDir: work })).rejects.toThrow(/holds reproduction cases/);
  });
});

async function readdirCount(dir: string): Promise<number> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(dir)).length;
}
