import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ConfigurationError } from '../../src/errors.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { resolveWitness } from '../../src/fetch/witness/fetch.js';
import { parseWitnessManifest } from '../../src/fetch/witness/manifest.js';
import { initWitness, initWitnessPack } from '../../src/fetch/witness/scaffold.js';
import { jsFileTestIds } from '../../src/inventory/test-ids.js';
import { listTree, tempFolder } from './tar-helpers.js';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', 'adapters', 'data');

let scratch: string;
beforeEach(async () => {
  scratch = await tempFolder();
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('initWitness', () => {
  it('writes a manifest with every default and README placeholders, and returns the pack digest', async () => {
    const dir = join(scratch, 'pack');
    const digest = await initWitness(dir, { adapter: 'unittest' });
    expect(await listTree(dir)).toEqual(['hidden/', 'hidden/README.md', 'reproduction/', 'reproduction/README.md', 'witness.json']);
    const text = await readFile(join(dir, 'witness.json'), 'utf8');
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    const written = JSON.parse(text) as unknown;
    // Every default is spelled out: parsing changes nothing.
    expect(parseWitnessManifest(written, 'witness.json')).toEqual(written);
    expect(written).toMatchObject({ schema: 'patchproof.witness/v1', adapter: 'unittest', reproduction: { repeat: 2 }, allow: { skips: false } });
    expect(await readFile(join(dir, 'reproduction', 'README.md'), 'utf8')).toContain('must fail on the unpatched repository');
    expect(await readFile(join(dir, 'hidden', 'README.md'), 'utf8')).toContain('`.patchproof/hidden/`');
    expect(digest).toBe((await digestWitnessFolder(dir)).digest);

    const temp = join(scratch, 'temp');
    await mkdir(temp);
    const witness = await resolveWitness(dir, digest, { tempDir: temp });
    expect(witness.manifest.adapter).toBe('unittest');
    await witness.dispose();
  });

  it('copies real reproduction and hidden folders (the files git tracks there)', async () => {
    const dir = join(scratch, 'pack');
    const reproduction = join(DATA, 'node-reproduction');
    const hidden = join(DATA, 'node-project', 'test');
    const digest = await initWitness(dir, { adapter: 'node-test', reproduction, hidden });
    const tracked = async (folder: string): Promise<string[]> => (await takeSnapshot(folder)).entries.map((entry) => entry.path);
    const files = (await listTree(dir)).filter((path) => !path.endsWith('/'));
    expect(files).toEqual(
      [...(await tracked(reproduction)).map((path) => `reproduction/${path}`), ...(await tracked(hidden)).map((path) => `hidden/${path}`), 'witness.json'].sort()
    );
    expect(await readFile(join(dir, 'reproduction', 'cases.test.js'))).toEqual(await readFile(join(reproduction, 'cases.test.js')));
    expect(digest).toBe((await digestWitnessFolder(dir)).digest);
  });

  it('uses an existing empty folder and refuses a non-empty one or a file', async () => {
    await initWitness(scratch, { adapter: 'node-test' });
    const error = await initWitness(scratch, { adapter: 'node-test' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain('already exists and is not an empty folder');
    await writeFile(join(scratch, 'file'), 'x');
    await expect(initWitness(join(scratch, 'file'), { adapter: 'node-test' })).rejects.toThrow(ConfigurationError);
  });

  it('refuses an unknown adapter and an empty test folder before writing anything', async () => {
    const dir = join(scratch, 'pack');
    await expect(initWitness(dir, { adapter: 'cobol' as never })).rejects.toThrow(/adapter is 'cobol'; expected one of/);
    const empty = join(scratch, 'empty');
    await mkdir(empty);
    await expect(initWitness(dir, { adapter: 'node-test', hidden: empty })).rejects.toThrow(`the hidden folder '${empty}' holds no files`);
    expect(await listTree(scratch)).toEqual(['empty/']);
  });
});

describe('initWitness --adapter junit', () => {
  it('scaffolds a junit block of placeholders, refused until replaced, and a canary README explaining it', async () => {
    const dir = join(scratch, 'pack');
    const digest = await initWitness(dir, { adapter: 'junit' });
    expect(await listTree(dir)).toEqual(['canary/', 'canary/README.md', 'hidden/', 'hidden/README.md', 'reproduction/', 'reproduction/README.md', 'witness.json']);
    expect(digest).toBe((await digestWitnessFolder(dir)).digest);
    const written = JSON.parse(await readFile(join(dir, 'witness.json'), 'utf8')) as { junit: { argv: string[]; report: string; tests: string[]; canary: Record<string, string> } };
    expect(written.junit.report).toBe('junit.xml');
    expect(written.junit.argv.at(-1)).toBe('{files}');
    expect(written.junit.canary.path).toBe('canary');
    for (const value of [written.junit.argv[0], written.junit.tests[0], written.junit.canary.pass, written.junit.canary.fail]) expect(value).toMatch(/^<replace: .+>$/);
    // A scaffold never grades: the first placeholder is named, with the form expected.
    expect(() => parseWitnessManifest(written, 'witness.json')).toThrow(
      /^witness\.json: junit\.argv\[0\] still holds the placeholder .*witness init wrote.*; expected a non-empty string\.$/
    );
    const readme = await readFile(join(dir, 'canary', 'README.md'), 'utf8');
    expect(readme).toContain('one test that must pass and one that must fail');
    for (const field of ['`argv`', '`report`', '`tests`', '`canary.pass`']) expect(readme).toContain(field);
    expect(await readFile(join(dir, 'reproduction', 'README.md'), 'utf8')).toContain('`junit.tests`');

    // Filled in as docs/witness-pack.md shows, the same block parses.
    written.junit.argv = ['node', '--test', '--test-reporter=junit', '--test-reporter-destination={results}/junit.xml', '{files}'];
    written.junit.tests = ['**/*.test.js'];
    expect(() => parseWitnessManifest(written, 'witness.json')).toThrow(/junit\.canary\.pass still holds the placeholder/);
    written.junit.canary = { path: 'canary', pass: 'q7 > test.a41c', fail: 'q7 > test.b7d2' };
    expect(parseWitnessManifest(written, 'witness.json').junit?.argv[0]).toBe('node');
  });

  it('is refused by the --reproduction/--hidden shortcut, which says to scaffold a pack', async () => {
    const folder = join(scratch, 'tests');
    await mkdir(folder);
    await writeFile(join(folder, 'a.test.js'), '');
    const { witnessFromFolders } = await import('../../src/fetch/witness/shortcut.js');
    await expect(witnessFromFolders(folder, folder, 'junit')).rejects.toThrow(/--adapter junit needs a witness pack.*witness init DIR --adapter junit/);
  });
});

describe('initWitnessPack: pinned ids', () => {
  const PACKS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'witness-packs');

  it('pins the ids of jest/vitest tests with literal titles, as the adapters report them', async () => {
    const dir = join(scratch, 'vitest-pack');
    const made = await initWitnessPack(dir, { adapter: 'vitest', reproduction: join(PACKS, 'vitest-chunk', 'reproduction'), hidden: join(PACKS, 'vitest-chunk', 'hidden') });
    expect(made.notes).toEqual([]);
    expect(made.pinned.hidden).toEqual([
      '.patchproof/hidden/chunk-hidden.test.ts > chunk, every remainder > gives one short group when the size exceeds the length',
      '.patchproof/hidden/chunk-hidden.test.ts > chunk, every remainder > keeps a remainder of two',
      '.patchproof/hidden/chunk-hidden.test.ts > chunk, every remainder > keeps every item for every size'
    ]);
    const manifest = parseWitnessManifest(JSON.parse(await readFile(join(dir, 'witness.json'), 'utf8')), 'witness.json');
    expect(manifest.hidden.ids).toEqual(made.pinned.hidden);
    expect(manifest.reproduction.ids).toEqual(made.pinned.reproduction);
    expect(made.pinned.reproduction!.every((id) => id.startsWith('.patchproof/reproduction/chunk-repro.test.ts > '))).toBe(true);
    expect(made.digest).toBe((await digestWitnessFolder(dir)).digest);
  });

  it('does not guess: a test.each table is left unpinned, with exactly how to pin it', async () => {
    const made = await initWitnessPack(join(scratch, 'jest-pack'), {
      adapter: 'jest',
      reproduction: join(PACKS, 'jest-money', 'reproduction'),
      hidden: join(PACKS, 'jest-money', 'hidden')
    });
    expect(made.pinned.hidden).toBeUndefined();
    expect(made.pinned.reproduction).toEqual([
      '.patchproof/reproduction/money-repro.test.js > cents below ten > formatCents pads them to two digits',
      '.patchproof/reproduction/money-repro.test.js > cents below ten > formatMoney pads them after the symbol'
    ]);
    expect(made.notes).toHaveLength(1);
    expect(made.notes[0]).toMatch(/^hidden\.ids not pinned \(\.patchproof\/hidden\/money-hidden\.test\.js: a test call with a modifier \(\.each, \.skip\.\.\.\)/);
    expect(made.notes[0]).toContain('patchproof hidden-detail');
    const manifest = JSON.parse(await readFile(join(scratch, 'jest-pack', 'witness.json'), 'utf8')) as { hidden: Record<string, unknown> };
    expect(manifest.hidden.ids).toBeUndefined();
  });

  it('says how to pin ids for adapters whose ids are not discovered', async () => {
    const made = await initWitnessPack(join(scratch, 'py-pack'), { adapter: 'unittest', hidden: join(PACKS, 'py-calculator', 'hidden') });
    expect(made.pinned).toEqual({});
    expect(made.notes).toEqual([expect.stringMatching(/^hidden\.ids not pinned \(the unittest adapter's ids are not discovered statically\): .*"test_x\.TestClass\.test_name"/)]);
  });
});

describe('jsFileTestIds', () => {
  it('reads nested describes and refuses what it cannot be sure of', () => {
    expect(jsFileTestIds('t.test.js', "describe('a', () => { describe('b', function () { it('c', () => {}); }); test(`d`, () => {}); });")).toEqual({
      ids: ['t.test.js > a > b > c', 't.test.js > a > d']
    });
    expect(jsFileTestIds('t.test.js', "for (const x of [1, 2]) test('x' + x, () => {});")).toEqual({
      reason: 't.test.js: tests declared inside loops, conditions or helper functions'
    });
    expect(jsFileTestIds('t.test.js', "test.skip('a', () => {});")).toMatchObject({ reason: expect.stringContaining('modifier') });
    expect(jsFileTestIds('t.test.js', "test('a', () => {}); test('a', () => {});")).toMatchObject({ reason: expect.stringContaining('share one id') });
  });
});
