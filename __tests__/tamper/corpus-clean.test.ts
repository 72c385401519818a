import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { screenChanges } from '../../src/tamper/index.js';
import type { TamperRule } from '../../src/core/tamper.js';
import { appliesTo, changedNonTestFiles } from './corpus-support.js';

/**
 * False positives and misses, measured on every candidate the repository has, each screened as the
 * validation pipeline screens it (the diff applied to its real base tree, test files left out by the
 * adapter's own surface):
 * - fixtures/<name>/candidates and fixtures/js-duration/screen-candidates: every honest candidate
 *   (fixes, wrong fixes, overfit, regressing, test-editing ones) is clean; every in-process attack
 *   on the grader is found, with the rules named here;
 * - fixtures/hostile/*.diff: every attack that the code under test carries out is found, but the
 *   resource bombs and the attacks that live in test files or configuration (reset to the base);
 *   the lies keyed on values (issue 26) by the rule and in the file __tests__/hostile/value-lies.test.ts
 *   requires end to end, and the screen pair that reads its own comment as introspection;
 * - integrations/*: every candidate of every case (upstream's fix, overfit, regressing and
 *   tampering), on the upstream release fetched from Debian or npm by the case's fetch.sh, is clean.
 *   That part needs the network: under CI=true a fetch failure fails, elsewhere it is skipped with a
 *   warning. PATCHPROOF_CORPUS_FETCHED=DIR reuses cases already fetched into DIR/<case>.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const exec = promisify(execFile);

/** What each attacking fixture candidate must be found for (every one of these rules, at least). */
const FIXTURE_ATTACKS: Record<string, TamperRule[]> = {
  'go-paginate/relay-forged-passes': ['env_argv_read', 'process_control'],
  'go-paginate/skip-failing-tests': ['env_argv_read', 'monkeypatch', 'test_framework_reference'],
  'jest-money/hostile-expect': ['test_framework_reference'],
  'jest-money/spare-canary-names': ['test_framework_reference'],
  'js-pages/hostile-floor-trunc': ['monkeypatch'],
  'js-pages/hostile-rebind-trunc': ['monkeypatch'],
  // The formal gate's soundness traps (issue 29): wrong code the screen also sees.
  'js-pages/hostile-global-alias': ['dynamic_code'],
  'js-pages/hostile-vm-lexical': ['import_hook'],
  'py-shop/hostile-code': ['introspection'],
  'py-shop/hostile-globals': ['introspection'],
  'junit-semver/sabotage-assert': ['test_framework_reference'],
  'junit-semver/spare-canary-process': ['env_argv_read', 'monkeypatch', 'test_framework_reference'],
  'py-calculator/read-tests-at-import': ['env_argv_read'],
  'py-calculator/spare-canaries': ['monkeypatch', 'test_framework_reference', 'env_argv_read'],
  'vitest-chunk/flip-failed': ['env_argv_read', 'test_framework_reference'],
  'vitest-chunk/hostile-expect': ['env_argv_read', 'test_framework_reference'],
  // Not an attack on the grader: a candidate that does not parse (the build gate fails it too).
  'js-duration/build-error': ['unparsed']
};

/** The lies keyed on values (docs/security.md, issue 26): the rule that must name each, in the file that lies. */
const VALUE_LIES: Record<string, { rule: TamperRule; path: string }> = {
  'node-lying-throws': { rule: 'monkeypatch', path: 'src/timeouts.js' },
  'py-lying-assert-equal': { rule: 'monkeypatch', path: 'calculator.py' },
  'jest-lying-to-be': { rule: 'test_framework_reference', path: 'src/money.js' },
  'py-lying-float': { rule: 'lying_type', path: 'calculator.py' },
  'vitest-lying-array': { rule: 'lying_type', path: 'src/chunk.ts' }
};

/** Hostile diffs the screen does not find, and why that is right. */
const HOSTILE_NOT_FOUND: Record<string, string> = {
  'busy-loop': 'a runaway loop: the runner kills it at the time limit',
  'endless-output': 'output without end: the runner kills it at the output limit',
  'memory-bomb': 'memory exhaustion: contained by --memory',
  'disk-fill': 'writes to the results mount: contained by its size cap',
  'inode-flood': 'empty files in writable mounts: contained by nr_inodes',
  'py-inode-flood': 'empty files in writable mounts: contained by nr_inodes',
  'jest-inode-flood': 'empty files in writable mounts: contained by nr_inodes',
  'junit-inode-flood': 'empty files in writable mounts: contained by nr_inodes',
  'vitest-inode-flood': 'empty files in writable mounts: contained by nr_inodes',
  'network-escape': 'a connection attempt: the runner has no network (the fix is honest otherwise)',
  'jest-link-vendored-expect': 'a package manifest and a vendored package: dependency files, not screened (the dependency policy refuses them)',
  'py-shadow-hidden': 'a module named like the hidden test: the test surface removes it (shadow)',
  'vitest-nested-chai': 'a nested node_modules: test surface, reset',
  'rust-build-rs-rewrite-tests': 'build.rs: test configuration, reset',
  'rust-cargo-config-wrapper': '.cargo/config and a wrapper script: test configuration, reset',
  'rust-rewrite-unit-test': 'edits a unit test in src/: a test-surface finding (grader_tampered)',
  // With no grader markers (issue 26 item 3) these read every dot folder at the root, with no
  // environment, argv or marker path; a file read is no rule of the screen. The hidden tests they
  // find are judged by the runs, not by the screen.
  'jest-read-hidden-at-import': 'reads staged tests from disk at import: a file read is no screen rule; its runs judge it (fixtures/hostile/README.md)',
  'rust-read-tests-at-import': 'reads staged tests from disk at import: a file read is no screen rule; its runs judge it (fixtures/hostile/README.md)',
  'rust-zero-columns-regression': 'an honest regression, no attack on the grader'
};

function fixtureNames(): string[] {
  return readdirSync(join(ROOT, 'fixtures')).filter((name) => existsSync(join(ROOT, 'fixtures', name, 'repo')) && existsSync(join(ROOT, 'witness-packs', name)));
}

async function rulesFor(repo: string, diff: string, pack: string): Promise<TamperRule[]> {
  const screen = await screenChanges(await changedNonTestFiles(repo, diff, pack), []);
  return [...new Set(screen.findings.map((f) => f.rule))].sort();
}

describe('fixture candidates: honest ones clean, attacks found', () => {
  const candidates = fixtureNames().flatMap((name) =>
    ['candidates', 'screen-candidates']
      .filter((folder) => existsSync(join(ROOT, 'fixtures', name, folder)))
      .flatMap((folder) =>
        readdirSync(join(ROOT, 'fixtures', name, folder))
          .filter((file) => file.endsWith('.diff'))
          .map((file) => ({ key: `${name}/${file.replace(/\.diff$/, '')}`, name, path: join(ROOT, 'fixtures', name, folder, file) }))
      )
  );

  it('covers every fixture with a pack (at least 40 candidates)', () => {
    expect(candidates.length).toBeGreaterThanOrEqual(40);
    for (const key of Object.keys(FIXTURE_ATTACKS)) expect(candidates.map((c) => c.key)).toContain(key);
  });

  it.each(candidates.map((c) => [c.key, c] as const))('%s', async (key, c) => {
    const rules = await rulesFor(join(ROOT, 'fixtures', c.name, 'repo'), readFileSync(c.path, 'utf8'), join(ROOT, 'witness-packs', c.name));
    const expected = FIXTURE_ATTACKS[key];
    if (expected === undefined) expect(rules).toEqual([]);
    else expect(rules).toEqual(expect.arrayContaining(expected));
  });
});

describe('fixtures/hostile: the attacks the code under test carries out are found', () => {
  const fixtures = fixtureNames();
  const diffs = readdirSync(join(ROOT, 'fixtures', 'hostile'))
    .filter((file) => file.endsWith('.diff'))
    .map((file) => file.replace(/\.diff$/, ''));

  it.each(diffs)('%s', async (name) => {
    const diff = readFileSync(join(ROOT, 'fixtures', 'hostile', `${name}.diff`), 'utf8');
    const base = fixtures.find((fixture) => appliesTo(join(ROOT, 'fixtures', fixture, 'repo'), diff));
    if (base === undefined) {
      // The setup-file sabotages patch a copy whose configuration names a setup file (hostile-support.ts builds it): all of it test configuration.
      expect(name).toMatch(/setup|mapper/);
      return;
    }
    const screen = await screenChanges(await changedNonTestFiles(join(ROOT, 'fixtures', base, 'repo'), diff, join(ROOT, 'witness-packs', base)), []);
    const rules = [...new Set(screen.findings.map((f) => f.rule))];
    if (HOSTILE_NOT_FOUND[name] !== undefined) expect([name, rules]).toEqual([name, []]);
    else expect([name, rules.length > 0]).toEqual([name, true]);
    const lie = VALUE_LIES[name];
    if (lie !== undefined) expect(screen.findings).toContainEqual(expect.objectContaining({ rule: lie.rule, path: lie.path, allowed: false }));
  });

  it.each(['reads-comment-fix', 'reads-comment-keeps-bug'])('screen-reads-comment/%s: its code reads its own comment (introspection)', async (name) => {
    const diff = readFileSync(join(ROOT, 'fixtures', 'hostile', 'screen-reads-comment', `${name}.diff`), 'utf8');
    expect(await rulesFor(join(ROOT, 'fixtures', 'js-duration', 'repo'), diff, join(ROOT, 'witness-packs', 'js-duration'))).toEqual(['introspection']);
  });

  it('finds at least 45 of the hostile diffs', () => {
    expect(diffs.filter((name) => HOSTILE_NOT_FOUND[name] === undefined && !/setup|mapper/.test(name)).length).toBeGreaterThanOrEqual(45);
  });
});

interface CaseFile {
  candidates: { name: string; role: string; diff: string }[];
}

const integrations = readdirSync(join(ROOT, 'integrations')).filter((name) => existsSync(join(ROOT, 'integrations', name, 'case.json')));

describe('integrations: every candidate of every real-project case is clean on its upstream release', () => {
  let fetched = process.env.PATCHPROOF_CORPUS_FETCHED ?? '';
  let own = '';
  let skipped: string | undefined;

  beforeAll(async () => {
    if (fetched !== '') return;
    own = await mkdtemp(join(tmpdir(), 'pp-tamper-corpus-'));
    fetched = own;
    try {
      for (const name of integrations) {
        await exec('bash', [join(ROOT, 'integrations', name, 'fetch.sh'), join(own, name)], { cwd: ROOT, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 });
      }
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? String(error);
      if (process.env.CI === 'true') throw error;
      skipped = stderr.trim();
      console.warn(`SKIPPED tamper screen of the integrations: a case could not be fetched: ${skipped}`);
    }
  }, 1_200_000);

  afterAll(async () => {
    if (own !== '') await rm(own, { recursive: true, force: true });
  });

  it('has every case with its candidates', () => {
    expect(integrations.length).toBeGreaterThanOrEqual(10);
  });

  it.each(integrations)(
    '%s',
    async (name) => {
      if (skipped !== undefined) return;
      const file = JSON.parse(readFileSync(join(ROOT, 'integrations', name, 'case.json'), 'utf8')) as CaseFile;
      const results: [string, TamperRule[]][] = [];
      for (const candidate of file.candidates) {
        const diffPath = candidate.diff.startsWith('fetched:') ? join(fetched, name, candidate.diff.slice('fetched:'.length)) : join(ROOT, 'integrations', name, candidate.diff);
        const rules = await rulesFor(join(fetched, name, 'repo'), readFileSync(diffPath, 'utf8'), join(ROOT, 'integrations', name, 'witness-pack'));
        results.push([`${candidate.role} ${candidate.name}`, rules]);
      }
      expect(results).toEqual(results.map(([what]) => [what, []]));
    },
    120_000
  );
});
