import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADAPTER_NAMES } from '../../src/adapters/registry.js';

/**
 * The adapter contract: every folder under src/adapters/ but shared/ is one registered adapter with
 * a README.md and tests, and every registered adapter has its folder. An adapter's tests live in
 * __tests__/adapters/ as `<name>.test.ts` or `<name>-*.test.ts` (a flat folder: the shared test data
 * in __tests__/adapters/data/ is imported by relative paths from there).
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Listing {
  /** Folders under src/adapters/ (shared/ included; the check leaves it out). */
  folders: readonly string[];
  /** Per folder, the names of the files it holds. */
  files: Readonly<Record<string, readonly string[]>>;
  /** The file names in __tests__/adapters/. */
  tests: readonly string[];
  registered: readonly string[];
}

/** What breaks the contract, one line each; empty when it holds. */
function contractProblems(listing: Listing): string[] {
  const problems: string[] = [];
  const folders = listing.folders.filter((folder) => folder !== 'shared');
  for (const folder of folders) {
    const files = listing.files[folder] ?? [];
    if (!listing.registered.includes(folder)) problems.push(`src/adapters/${folder}/ is not in registry.ts's table`);
    if (!files.includes('README.md')) problems.push(`src/adapters/${folder}/ has no README.md`);
    if (!files.includes('index.ts')) problems.push(`src/adapters/${folder}/ has no index.ts`);
    if (!listing.tests.some((name) => name === `${folder}.test.ts` || (name.startsWith(`${folder}-`) && name.endsWith('.test.ts')))) {
      problems.push(`src/adapters/${folder}/ has no tests (__tests__/adapters/${folder}.test.ts or ${folder}-*.test.ts)`);
    }
  }
  for (const name of listing.registered) if (!folders.includes(name)) problems.push(`registry.ts names ${name}, which has no folder src/adapters/${name}/`);
  return problems;
}

function listTree(root: string, registered: readonly string[]): Listing {
  const adapters = join(root, 'src', 'adapters');
  const folders = readdirSync(adapters, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  return {
    folders,
    files: Object.fromEntries(folders.map((folder) => [folder, readdirSync(join(adapters, folder))])),
    tests: readdirSync(join(root, '__tests__', 'adapters')),
    registered
  };
}

describe('the adapter contract', () => {
  const listing = listTree(ROOT, ADAPTER_NAMES);

  it('every adapter folder is registered, has index.ts, README.md and tests; every registered name has its folder', () => {
    expect(listing.folders).toContain('shared');
    expect(listing.folders.length).toBeGreaterThan(1);
    expect(contractProblems(listing)).toEqual([]);
  });

  it('fails for a folder that is not registered, has no README, no tests; and for a name without a folder', () => {
    const bad: Listing = {
      folders: [...listing.folders, 'rspec'],
      files: { ...listing.files, rspec: ['index.ts'], jest: (listing.files.jest ?? []).filter((f) => f !== 'README.md') },
      tests: listing.tests.filter((name) => name !== 'go.test.ts' && !name.startsWith('go-')),
      registered: [...listing.registered, 'phpunit']
    };
    expect(contractProblems(bad)).toEqual(
      expect.arrayContaining([
        "src/adapters/rspec/ is not in registry.ts's table",
        'src/adapters/rspec/ has no README.md',
        'src/adapters/rspec/ has no tests (__tests__/adapters/rspec.test.ts or rspec-*.test.ts)',
        'src/adapters/jest/ has no README.md',
        'src/adapters/go/ has no tests (__tests__/adapters/go.test.ts or go-*.test.ts)',
        'registry.ts names phpunit, which has no folder src/adapters/phpunit/'
      ])
    );
    expect(contractProblems(bad)).toHaveLength(6);
  });

  it('a real tree with an unregistered folder fails the same way (temporary tree)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-adapter-contract-'));
    try {
      for (const folder of ['shared', 'jest', 'extra']) mkdirSync(join(dir, 'src', 'adapters', folder), { recursive: true });
      writeFileSync(join(dir, 'src', 'adapters', 'jest', 'index.ts'), '');
      writeFileSync(join(dir, 'src', 'adapters', 'jest', 'README.md'), '');
      writeFileSync(join(dir, 'src', 'adapters', 'extra', 'index.ts'), '');
      mkdirSync(join(dir, '__tests__', 'adapters'), { recursive: true });
      writeFileSync(join(dir, '__tests__', 'adapters', 'jest.test.ts'), '');
      expect(contractProblems(listTree(dir, ['jest']))).toEqual([
        "src/adapters/extra/ is not in registry.ts's table",
        'src/adapters/extra/ has no README.md',
        'src/adapters/extra/ has no tests (__tests__/adapters/extra.test.ts or extra-*.test.ts)'
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scripts/adapter-docs.mjs (the README adapter table generated from the adapter READMEs)', () => {
  const script = join(ROOT, 'scripts', 'adapter-docs.mjs');
  const node = (args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

  it('the committed README is up to date, with one row per registered adapter', () => {
    const result = node(['--check']);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('--check exits 1 when an adapter README changed; a run regenerates the table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-adapter-docs-'));
    try {
      const adapters = join(dir, 'adapters');
      for (const name of ADAPTER_NAMES) {
        mkdirSync(join(adapters, name), { recursive: true });
        copyFileSync(join(ROOT, 'src', 'adapters', name, 'README.md'), join(adapters, name, 'README.md'));
      }
      const readme = join(dir, 'README.md');
      copyFileSync(join(ROOT, 'README.md'), readme);
      writeFileSync(join(adapters, 'go', 'README.md'), '# go\n\n**Suite:** every package\n\n**Structured results:** go test -json\n\n**Versions:** Go 9\n');
      const stale = node(['--check', '--adapters', adapters, '--readme', readme]);
      expect(stale.status).toBe(1);
      expect(stale.stderr).toContain('the adapter table is stale');
      expect(node(['--adapters', adapters, '--readme', readme]).status).toBe(0);
      expect(node(['--check', '--adapters', adapters, '--readme', readme]).status).toBe(0);
      writeFileSync(join(adapters, 'go', 'README.md'), '# go\n\nno fields\n');
      const broken = node(['--adapters', adapters, '--readme', readme]);
      expect(broken.status).toBe(2);
      expect(broken.stderr).toContain('has no "**Suite:**" paragraph');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
