import path from 'node:path';
import type { AdapterName } from '../adapters/adapter.js';
import { JEST_LOADING_KEYS, moduleImports, scanConfigSource, VITEST_LOADING_KEYS, type ConfigScan } from './js-config.js';
import { moduleFiles, pytestPluginsOf, scanPytestConfig } from './pytest-config.js';

/**
 * The files the base tree's resolved test configuration loads, so that a candidate's edit to any of
 * them is test surface (reset to the base, `grader_tampered`), like an edit to the config itself.
 * Everything is read statically from the base tree: no config is executed, nothing of the
 * candidate's is read. Pure apart from the reader it is given.
 *
 * - jest: the root `jest.config.{js,ts,mjs,cjs,mts,cts,json}` and package.json's "jest" key; the
 *   modules under setupFiles, setupFilesAfterEnv, globalSetup/Teardown, transform, moduleNameMapper
 *   (literal targets only: a `$1` template maps to the code itself), testEnvironment, reporters,
 *   snapshotResolver and the other module-loading options (JEST_LOADING_KEYS), a relative `preset`'s
 *   jest-preset file, and the relative imports of the config module, transitively.
 * - vitest: the root `vitest.config.*` and `vite.config.*` (both, conservatively), their setupFiles,
 *   globalSetup, environment and reporters (VITEST_LOADING_KEYS), and what the config imports
 *   (relative imports, transitively).
 * - Loaded setup files: their relative imports are followed too, but only into their own folder
 *   and below (a setup file at the repository root: only files beside it), so a setup file that
 *   imports the code under test does not make the code under test the grader.
 * - pytest: plugins named by `-p` in addopts and by `pytest_plugins` in conftest.py files (and in
 *   those plugins), found under the root, `src/` and the `pythonpath` entries. conftest.py files
 *   are surface anyway (IMPORTABLE_SURFACE).
 * - go: files declaring `func TestMain(` (they are `_test.go` files, test surface already; listed
 *   so the rule does not depend on the file-name globs).
 *
 * A value that is not a literal (`path.resolve(__dirname, './setup.ts')`, an imported constant) is
 * read conservatively: every relative-path literal inside it counts, and the key is reported in
 * `unresolved` so the log says the resolution was a best effort.
 */

/** The base tree, as the resolver sees it. */
export interface TreeReader {
  /** Every file path of the tree (repository-relative, '/'-separated). */
  paths: readonly string[];
  /** A file's UTF-8 text; undefined when it is absent, not a regular file, or too large to read. */
  read(path: string): string | undefined;
}

export interface LoadedSurface {
  /** Repository paths (present in the base or not: a new file that would win resolution counts). */
  paths: string[];
  /** Bare module names the configuration loads (packages from the dependency stage's outputs). */
  packages: string[];
  /** Human-readable notes on what could only be read conservatively. */
  unresolved: string[];
}

const JS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx', '.json', '.node'];
const JEST_CONFIGS = ['jest.config.js', 'jest.config.ts', 'jest.config.mjs', 'jest.config.cjs', 'jest.config.mts', 'jest.config.cts', 'jest.config.json'];
const VITEST_CONFIG_EXTENSIONS = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'];
const VITEST_CONFIGS = ['vitest.config', 'vite.config', 'vitest.workspace', 'vitest.projects'].flatMap((stem) => VITEST_CONFIG_EXTENSIONS.map((ext) => `${stem}.${ext}`));
/** Keys whose bare values are jest's or vitest's own names, not modules of the repository. */
const BUILTIN_VALUES: Readonly<Record<string, readonly string[]>> = {
  testEnvironment: ['node', 'jsdom'],
  environment: ['node', 'jsdom', 'happy-dom', 'edge-runtime'],
  reporters: ['default', 'summary', 'github-actions', 'verbose', 'dot', 'basic', 'json', 'junit', 'tap', 'tap-flat', 'hanging-process', 'blob', 'html']
};
/** Keys whose targets are setup-like modules: their own relative imports are followed (within their folder). */
const SETUP_KEYS = new Set(['setupFiles', 'setupFilesAfterEnv', 'globalSetup', 'globalTeardown']);
/** How many files the transitive import walk reads at most (a bound, reported when reached). */
const MAX_FOLLOWED = 500;

/** Normalise a path inside the repository; undefined when it leaves it (or is absolute). */
function inRepo(p: string): string | undefined {
  if (p.startsWith('/')) return undefined;
  const normal = path.posix.normalize(p);
  if (normal === '..' || normal.startsWith('../')) return undefined;
  return normal === '.' ? '' : normal.replace(/\/+$/, '');
}

/** The repository paths Node-style resolution could pick for a relative specifier from `dir`. */
function candidates(dir: string, specifier: string): string[] {
  const target = inRepo(path.posix.join(dir, specifier));
  if (target === undefined || target === '') return [];
  return [target, ...JS_EXTENSIONS.map((ext) => `${target}${ext}`), ...JS_EXTENSIONS.map((ext) => `${target}/index${ext}`)];
}

function isTypescript(file: string): boolean {
  return /\.(c|m)?tsx?$/.test(file);
}

function dirOf(file: string): string {
  const dir = path.posix.dirname(file);
  return dir === '.' ? '' : dir;
}

class Collector {
  readonly paths = new Set<string>();
  readonly packages = new Set<string>();
  readonly unresolved: string[] = [];
  private readonly present: Set<string>;
  private readonly followed = new Set<string>();

  constructor(private readonly tree: TreeReader) {
    this.present = new Set(tree.paths);
  }

  /** The existing file a relative specifier resolves to, when there is one. */
  resolveExisting(dir: string, specifier: string): string | undefined {
    return candidates(dir, specifier).find((p) => this.present.has(p));
  }

  /** Record a relative specifier: every file resolution could pick; follow its imports if asked. */
  addRelative(dir: string, specifier: string, follow: 'all' | 'within' | 'none'): void {
    for (const p of candidates(dir, specifier)) this.paths.add(p);
    const existing = this.resolveExisting(dir, specifier);
    if (existing !== undefined && follow !== 'none') this.follow(existing, follow === 'within' ? dirOf(existing) : undefined);
  }

  /** Follow a loaded module's relative imports, transitively; `within` bounds them to a folder. */
  follow(file: string, within: string | undefined): void {
    const queue = [file];
    while (queue.length > 0) {
      const current = queue.shift()!;
      if (this.followed.has(current)) continue;
      if (this.followed.size >= MAX_FOLLOWED) {
        this.note(`stopped following imports after ${MAX_FOLLOWED} files`);
        return;
      }
      this.followed.add(current);
      if (!/\.(c|m)?[jt]sx?$/.test(current)) continue;
      const source = this.tree.read(current);
      if (source === undefined) continue;
      for (const specifier of moduleImports(source, isTypescript(current))) {
        const target = this.resolveExisting(dirOf(current), specifier);
        const allowed = target !== undefined && (within === undefined || (within === '' ? !target.includes('/') : target.startsWith(`${within}/`)));
        if (target === undefined || !allowed) continue;
        for (const p of candidates(dirOf(current), specifier)) this.paths.add(p);
        queue.push(target);
      }
    }
  }

  note(text: string): void {
    if (!this.unresolved.includes(text)) this.unresolved.push(text);
  }
}

/** A jest/vitest value: `<rootDir>` replaced; relative or bare-but-pathlike as files, bare as packages. */
function addReference(collector: Collector, key: string, specifier: string, base: 'root' | 'file', rootDir: string, configDir: string): void {
  if (BUILTIN_VALUES[key]?.includes(specifier)) {
    // jest's `node`/`jsdom` are the jest-environment-* packages; vitest's are jsdom, happy-dom...
    if (key === 'testEnvironment') collector.packages.add(`jest-environment-${specifier}`);
    if (key === 'environment' && specifier !== 'node') collector.packages.add(specifier);
    return;
  }
  // A moduleNameMapper target with `$1` stands for the mapped modules themselves (the code): not one file.
  if (key === 'moduleNameMapper' && /\$\d/.test(specifier)) return;
  const follow = SETUP_KEYS.has(key) ? 'within' : 'none';
  if (base === 'file') {
    collector.addRelative(configDir, specifier, follow);
    return;
  }
  const replaced = specifier.replace(/^<rootDir>\/?/, './');
  if (/^\.\.?(\/|$)/.test(replaced)) {
    collector.addRelative(rootDir, replaced, follow);
    return;
  }
  if (replaced.startsWith('/')) {
    collector.note(`${key}: absolute path ${JSON.stringify(specifier)} not resolved`);
    return;
  }
  // A bare name is a package (from the dependency outputs, node_modules is surface anyway) — or,
  // for jest, a file under rootDir when no package has that name: both count.
  const pkg = replaced.startsWith('@') ? replaced.split('/').slice(0, 2).join('/') : replaced.split('/')[0]!;
  if (/^[@a-z0-9][\w.\-/@]*$/i.test(pkg)) {
    collector.packages.add(pkg);
    if (key === 'testEnvironment' && !pkg.startsWith('jest-environment-') && !pkg.startsWith('@')) collector.packages.add(`jest-environment-${pkg}`);
  }
  collector.addRelative(rootDir, `./${replaced}`, follow);
}

function applyScan(collector: Collector, scan: ConfigScan | undefined, configFile: string, label: string, projectRoot?: string): ConfigScan | undefined {
  const configDir = projectRoot ?? dirOf(configFile);
  if (scan === undefined) {
    collector.note(`${label}: does not parse; only the file itself counts`);
    return undefined;
  }
  const rootDir = scan.rootDir === undefined ? configDir : (inRepo(path.posix.join(configDir, scan.rootDir.replace(/^<rootDir>\/?/, './'))) ?? configDir);
  for (const reference of scan.references) addReference(collector, reference.key, reference.specifier, reference.base, rootDir, configDir);
  for (const key of scan.unresolved) collector.note(`${label}: ${key} is not a literal; its relative-path literals count`);
  for (const specifier of scan.imports) collector.addRelative(configDir, specifier, 'all');
  return scan;
}

function jestSurface(collector: Collector, tree: TreeReader): void {
  const present = new Set(tree.paths);
  for (const config of JEST_CONFIGS.filter((c) => present.has(c))) {
    const source = tree.read(config);
    if (source === undefined) continue;
    collector.paths.add(config);
    const scan = applyScan(collector, scanConfigSource(source, JEST_LOADING_KEYS, { typescript: isTypescript(config), json: config.endsWith('.json') }), config, config);
    followPreset(collector, tree, scan, '');
  }
  const pkg = tree.read('package.json');
  if (pkg !== undefined) {
    let jest: unknown;
    try {
      jest = (JSON.parse(pkg) as { jest?: unknown }).jest;
    } catch {
      collector.note('package.json: not JSON');
    }
    if (jest !== undefined && jest !== null && typeof jest === 'object') {
      const scan = applyScan(collector, scanConfigSource(JSON.stringify(jest), JEST_LOADING_KEYS, { json: true }), 'package.json', 'package.json "jest"');
      followPreset(collector, tree, scan, '');
    }
  }
}

/** A relative preset loads `<preset>/jest-preset.{json,js,cjs,mjs}`: that file and what it names. */
function followPreset(collector: Collector, tree: TreeReader, scan: ConfigScan | undefined, configDir: string): void {
  const preset = scan?.references.find((r) => r.key === 'preset')?.specifier.replace(/^<rootDir>\/?/, './');
  if (preset === undefined || !/^\.\.?(\/|$)/.test(preset)) return;
  const dir = inRepo(path.posix.join(configDir, preset));
  if (dir === undefined) return;
  for (const ext of ['json', 'js', 'cjs', 'mjs']) {
    const file = dir === '' ? `jest-preset.${ext}` : `${dir}/jest-preset.${ext}`;
    collector.paths.add(file);
    const source = tree.read(file);
    // A preset's `<rootDir>` is the project's, not the preset's folder.
    if (source !== undefined) applyScan(collector, scanConfigSource(source, JEST_LOADING_KEYS, { json: ext === 'json' }), file, file, configDir);
  }
}

function vitestSurface(collector: Collector, tree: TreeReader): void {
  const present = new Set(tree.paths);
  for (const config of VITEST_CONFIGS.filter((c) => present.has(c))) {
    const source = tree.read(config);
    if (source === undefined) continue;
    collector.paths.add(config);
    applyScan(collector, scanConfigSource(source, VITEST_LOADING_KEYS, { typescript: isTypescript(config) }), config, config);
  }
}

function pytestSurface(collector: Collector, tree: TreeReader): void {
  const plugins = new Set<string>();
  const roots = new Set(['', 'src']);
  for (const config of ['pytest.ini', 'tox.ini', 'setup.cfg', 'pyproject.toml']) {
    const text = tree.read(config);
    if (text === undefined) continue;
    const scan = scanPytestConfig(config, text);
    scan.plugins.forEach((p) => plugins.add(p));
    scan.pythonpath.forEach((p) => {
      const root = inRepo(p);
      if (root !== undefined) roots.add(root);
    });
  }
  const queue = tree.paths.filter((p) => p === 'conftest.py' || p.endsWith('/conftest.py'));
  const read = new Set<string>();
  for (const conftest of queue) for (const name of pytestPluginsOf(tree.read(conftest) ?? '')) plugins.add(name);
  // Plugins may name further plugins (`pytest_plugins` in the plugin module).
  const pending = [...plugins];
  while (pending.length > 0) {
    const name = pending.shift()!;
    for (const file of moduleFiles(name, [...roots])) {
      collector.paths.add(file);
      if (read.has(file)) continue;
      read.add(file);
      for (const next of pytestPluginsOf(tree.read(file) ?? '')) {
        if (!plugins.has(next)) {
          plugins.add(next);
          pending.push(next);
        }
      }
    }
  }
}

function goSurface(collector: Collector, tree: TreeReader): void {
  for (const file of tree.paths.filter((p) => p.endsWith('_test.go'))) {
    if (/^func\s+TestMain\s*\(/m.test(tree.read(file) ?? '')) collector.paths.add(file);
  }
}

/** The files (and runner packages) the base tree's test configuration loads, for one adapter. */
export function loadedSurface(adapter: AdapterName, tree: TreeReader): LoadedSurface {
  const collector = new Collector(tree);
  switch (adapter) {
    case 'jest':
      collector.packages.add('jest');
      jestSurface(collector, tree);
      break;
    case 'vitest':
      collector.packages.add('vitest');
      vitestSurface(collector, tree);
      break;
    case 'pytest':
      pytestSurface(collector, tree);
      break;
    case 'go':
      goSurface(collector, tree);
      break;
    case 'node-test':
    case 'unittest':
    case 'junit':
    case 'cargo':
      break;
    default: {
      const never: never = adapter;
      throw new Error(`unknown adapter ${String(never)}`);
    }
  }
  return { paths: [...collector.paths].sort(), packages: [...collector.packages].sort(), unresolved: [...collector.unresolved] };
}
