import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, VerificationError } from '../../src/errors.js';
import { packWitnessEntries } from '../../src/fetch/witness/archive.js';
import { digestWitnessEntries } from '../../src/fetch/witness/digest.js';
import type { WitnessEntry } from '../../src/fetch/witness/entries.js';
import { encryptTo, generateWitnessKey, openSealedEntries, parseWitnessKey, sealHiddenEntries } from '../../src/fetch/witness/sealed.js';

const text = (path: string, body: string): WitnessEntry => ({ path, mode: '100644', data: new TextEncoder().encode(body) });
const PLAIN = [
  text('witness.json', '{"schema":"patchproof.witness/v1","adapter":"node-test"}'),
  text('reproduction/a.test.js', 'repro'),
  text('hidden/secret.test.js', 'HIDDEN SOURCE'),
  text('sealed/expectations.json', '{"x":1}')
];

async function key(): Promise<{ identity: string; recipient: string }> {
  const made = await generateWitnessKey();
  return { identity: parseWitnessKey(made.fileText, 'key'), recipient: made.recipient };
}

describe('sealed witness packs (age)', () => {
  it('moves hidden/ and sealed/ into hidden.age and opens them again with the key only', async () => {
    const k = await key();
    const sealed = await sealHiddenEntries(PLAIN, 'hidden', [k.recipient]);
    expect(sealed.map((e) => e.path).sort()).toEqual(['hidden.age', 'reproduction/a.test.js', 'witness.json']);
    expect(Buffer.concat(sealed.map((e) => Buffer.from(e.data))).includes('HIDDEN SOURCE')).toBe(false);
    const opened = await openSealedEntries(sealed, 'hidden', k.identity);
    expect(opened.entries.map((e) => e.path).sort()).toEqual(['hidden/secret.test.js', 'reproduction/a.test.js', 'witness.json']);
    expect(opened.sealed.map((e) => e.path)).toEqual(['sealed/expectations.json']);
    await expect(openSealedEntries(sealed, 'hidden', undefined)).rejects.toThrow(ConfigurationError);
    await expect(openSealedEntries(sealed, 'hidden', (await key()).identity)).rejects.toThrow(/could not be decrypted with the witness key/);
  });

  it('binds the ciphertext in the pack digest, and refuses a flipped byte', async () => {
    const k = await key();
    const sealed = await sealHiddenEntries(PLAIN, 'hidden', [k.recipient]);
    const file = sealed.find((e) => e.path === 'hidden.age') as WitnessEntry;
    const flipped = Uint8Array.from(file.data);
    flipped[flipped.length - 5] = (flipped[flipped.length - 5] as number) ^ 1;
    const tampered = sealed.map((e) => (e === file ? { ...e, data: flipped } : e));
    expect(digestWitnessEntries(tampered)).not.toBe(digestWitnessEntries(sealed));
    await expect(openSealedEntries(tampered, 'hidden', k.identity)).rejects.toThrow(/could not be decrypted/);
  });

  it('refuses plain hidden files beside hidden.age, and an archive entry outside hidden/ and sealed/', async () => {
    const k = await key();
    const sealed = await sealHiddenEntries(PLAIN, 'hidden', [k.recipient]);
    await expect(openSealedEntries([...sealed, text('hidden/extra.test.js', 'x')], 'hidden', k.identity)).rejects.toThrow(VerificationError);
    const stray = await encryptTo([k.recipient], await packWitnessEntries([text('hidden/a.test.js', 'a'), text('reproduction/override.test.js', 'evil')]));
    const crafted = [...PLAIN.slice(0, 2), { path: 'hidden.age', mode: '100644' as const, data: stray }];
    await expect(openSealedEntries(crafted, 'hidden', k.identity)).rejects.toThrow(/outside hidden\/ and sealed\//);
  });

  it('refuses to seal a sealed pack or one without hidden tests, and a key file with two identities', async () => {
    const k = await key();
    const sealed = await sealHiddenEntries(PLAIN, 'hidden', [k.recipient]);
    await expect(sealHiddenEntries(sealed, 'hidden', [k.recipient])).rejects.toThrow(/already has hidden.age/);
    await expect(sealHiddenEntries(PLAIN.slice(0, 2), 'hidden', [k.recipient])).rejects.toThrow(/no files in/);
    expect(() => parseWitnessKey(`${k.identity}\n${k.identity}\n`, 'key')).toThrow(/does not hold one age identity/);
    const dir = await mkdtemp(join(tmpdir(), 'sealed-'));
    expect(await readdir(dir)).toEqual([]);
    await rm(dir, { recursive: true });
  });
});
