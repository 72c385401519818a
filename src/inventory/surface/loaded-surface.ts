import path from 'node:path';
import picomatch from 'picomatch';
import { ConfigurationError } from '../../errors.js';
import type { AdapterName } from '../../adapters/registry.js';
import { JEST_LOADING_KEYS, moduleImports, scanConfigSource, VITEST_LOADING_KEYS, type ConfigScan } from './js-config.js';
import { moduleFiles, pytestPluginsOf, scanPytestConfig } from './pytest-config.js';

/**
 * The files the base tree's resolved test configuration loads, so that a candidate's edit to any of
 * them is test surface (reset to the base, `grader_tampered`), like an edit to the config itself.
 * Everything is read statically from the base tree: no config is executed, nothing of the
 * candidate's is read. Pure apart from the reader it is given.
 *
 * - jest: the root `jest.config.{js,ts,mjs,cjs,mts,cts,json}` and package.json's "jest" key; the
 *   modules under setupFiles, setupFilesAfterEnv, globalSetup/Teardown, transform, moduleNameMapper,
 *   testEnvironment, reporters, snapshotResolver and the other module-loading options
 *   (JEST_LOADING_KEYS), a relative `preset`'s jest-preset file, the relative imports of the config
 *   module, transitively, and `projects` (folders, config files, globs) read the same way.
 * - vitest: the root `vitest.config.*`, `vite.config.*` and workspace files (all, conservatively),
 *   their setupFiles, globalSetup, environment and reporters (VITEST_LOADING_KEYS), what the config
 *   imports (relative imports, transitively), and `projects`/`workspace` entries.
 * - A project entry or a rootDir outside the repository is a ConfigurationError: it cannot be read,
 *   reset or trusted.
 * - moduleNameMapper templates (`<rootDir>/tools/testkit/$1`): every base or candidate file under
 *   the fixed prefix counts, unless the prefix is the code under test (isCodeUnderTest: the usual
 *   `<rootDir>/src/$1` alias), which would make every fix a grader edit.
 * - Loaded setup files: their relative imports are followed anywhere in the repository,
 *   transitively (bounded: past MAX_FOLLOWED files the configuration is refused; a file that does
 *   not parse counts with its folder), except into the code under test, which is neither counted
 *   nor followed: a setup file that imports the code does not make the code the grader.
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
  /**
   * Paths the candidate adds or changes: never read, only matched against what the base's
   * configuration can route to (a `moduleNameMapper` template's folder).
   */
  extraPaths?: readonly string[];
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
/** Keys whose targets are setup-like modules: their own relative imports are followed, except into the code under test. */
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

/**
 * Folders (the first path segment) that hold a project's own code: what a candidate's fix edits.
 * A file under one is the code under test, not the grader, unless it is test support by name.
 */
const SOURCE_FOLDERS = new Set(['src', 'lib', 'app', 'source', 'packages', 'pkg', 'internal', 'server', 'client']);
/** Folder names that hold tests or their support, wherever they sit (`src/test-utils/` too). */
const TEST_SUPPORT_SEGMENT =
  /^(__)?(tests?|specs?|mocks?|fixtures?|testing|test[-_.]?(utils?|helpers?|support|kit|setup)|testkit|setup|support|e2e|jest|vitest|__snapshots__)(__)?$/i;
/** File names of tests and their setup (`x.test.js`, `setupTests.ts`, `jest.setup.js`...). */
const TEST_SUPPORT_FILE = /(^|[._-])(test|spec)s?[._-]|^setup|^(jest|vitest)\.|^test[-_]?(utils?|helpers?|support)[._-]/i;

/**
 * Is a repository file the code under test (under a source folder, and neither in a test-support
 * folder nor named like a test or setup file)? Everything else a loaded file reaches is grader.
 * Exported for the unit tests: the rule is documented in docs/security.md ("Surface").
 */
export function isCodeUnderTest(file: string): boolean {
  const parts = file.split('/');
  if (parts.length < 2 || !SOURCE_FOLDERS.has(parts[0]!)) return false;
  if (parts.slice(0, -1).some((segment) => TEST_SUPPORT_SEGMENT.test(segment))) return false;
  return !TEST_SUPPORT_FILE.test(parts.at(-1)!);
}

/** How a loaded module's own relative imports are followed. */
type Follow = 'all' | 'support' | 'none';
/** How deep the transitive import walk goes at most (a bound; reaching it refuses the configuration). */
const MAX_DEPTH = 32;

class Collector {
  readonly paths = new Set<string>();
  readonly packages = new Set<string>();
  readonly unresolved: string[] = [];
  private readonly present: Set<string>;
  /** The base's paths and the candidate's (paths only, never read): what a mapping can route to. */
  readonly routable: readonly string[];
  private readonly followed = new Set<string>();
  /** Config files already read (a project list that names its own root, `['<rootDir>']`, is common). */
  readonly configsRead = new Set<string>();

  constructor(private readonly tree: TreeReader) {
    this.present = new Set(tree.paths);
    this.routable = [...new Set([...tree.paths, ...(tree.extraPaths ?? [])])].sort();
  }

  /** The existing file a relative specifier resolves to, when there is one. */
  resolveExisting(dir: string, specifier: string): string | undefined {
    return candidates(dir, specifier).find((p) => this.present.has(p));
  }

  /** Record a relative specifier: every file resolution could pick; follow its imports if asked. */
  addRelative(dir: string, specifier: string, follow: Follow): void {
    for (const p of candidates(dir, specifier)) this.paths.add(p);
    const existing = this.resolveExisting(dir, specifier);
    if (existing !== undefined && follow !== 'none') this.follow(existing, follow);
  }

  /**
   * Follow a loaded module's relative imports, transitively, anywhere in the repository. `support`
   * (a setup file's, a mapped helper's): a file that is the code under test (isCodeUnderTest) is
   * neither counted nor followed, so a setup file that imports the code does not make the code the
   * grader. Fails closed: a file that does not parse counts with every non-code file of its folder,
   * and a walk past MAX_FOLLOWED files or MAX_DEPTH levels refuses the configuration.
   */
  follow(file: string, mode: 'all' | 'support'): void {
    const queue: { file: string; depth: number }[] = [{ file, depth: 0 }];
    while (queue.length > 0) {
      const { file: current, depth } = queue.shift()!;
      if (this.followed.has(current)) continue;
      if (this.followed.size >= MAX_FOLLOWED || depth > MAX_DEPTH) {
        throw new ConfigurationError(
          `the base's test configuration loads more than ${MAX_FOLLOWED} files (or ${MAX_DEPTH} levels) through setup and config imports; PatchProof cannot bound its test surface`
        );
      }
      this.followed.add(current);
      if (!/\.(c|m)?[jt]sx?$/.test(current)) continue;
      const source = this.tree.read(current);
      if (source === undefined) continue;
      const imports = moduleImports(source, isTypescript(current));
      if (imports === undefined) {
        this.note(`${current}: does not parse; every file of its folder counts`);
        const dir = dirOf(current);
        for (const p of this.routable) if (dirOf(p) === dir && (mode === 'all' || !isCodeUnderTest(p))) this.paths.add(p);
        continue;
      }
      for (const specifier of imports) {
        const target = this.resolveExisting(dirOf(current), specifier);
        if (target === undefined) {
          // A file the candidate adds where resolution would look still counts.
          for (const p of candidates(dirOf(current), specifier)) if (mode === 'all' || !isCodeUnderTest(p)) this.paths.add(p);
          continue;
        }
        if (mode === 'support' && isCodeUnderTest(target)) continue;
        for (const p of candidates(dirOf(current), specifier)) this.paths.add(p);
        queue.push({ file: target, depth: depth + 1 });
      }
    }
  }

  note(text: string): void {
    if (!this.unresolved.includes(text)) this.unresolved.push(text);
  }
}

/**
 * A moduleNameMapper target with capture groups (`<rootDir>/test/helpers/$1`) routes any matching
 * import to any file under its fixed prefix. Those files are surface (with what they import) unless
 * the prefix is the code under test (`<rootDir>/src/$1`, the usual alias): counting the code as
 * the grader would forbid every fix. Paths the candidate adds under the prefix count too.
 */
function addMappedTemplate(collector: Collector, specifier: string, rootDir: string): void {
  const replaced = specifier.replace(/^<rootDir>\/?/, './');
  const fixed = replaced.slice(0, replaced.search(/\$\d/));
  if (!/^\.\.?(\/|$)/.test(fixed)) {
    if (fixed.startsWith('/')) collector.note(`moduleNameMapper: absolute template ${JSON.stringify(specifier)} not resolved`);
    else if (/^[@a-z0-9]/i.test(fixed)) collector.packages.add(fixed.startsWith('@') ? fixed.split('/').slice(0, 2).join('/') : fixed.split('/')[0]!);
    return;
  }
  const joined = path.posix.join(rootDir === '' ? '.' : rootDir, fixed);
  const prefixPath = inRepo(fixed.endsWith('/') ? `${joined}/` : joined);
  if (prefixPath === undefined) {
    collector.note(`moduleNameMapper: ${JSON.stringify(specifier)} maps outside the repository; not surface`);
    return;
  }
  const prefix = fixed.endsWith('/') || fixed === '.' || fixed === './' ? (prefixPath === '' ? '' : `${prefixPath}/`) : prefixPath;
  const prefixDir = dirOf(`${prefix}x`);
  if (isCodeUnderTest(prefixDir === '' ? 'x.js' : `${prefixDir}/x.js`)) {
    collector.note(`moduleNameMapper: ${JSON.stringify(specifier)} maps into the code under test (${prefixDir}/); not surface`);
    return;
  }
  for (const p of collector.routable) {
    if (!p.startsWith(prefix) || isCodeUnderTest(p)) continue;
    collector.paths.add(p);
    collector.follow(p, 'support');
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
  if (key === 'moduleNameMapper' && /\$\d/.test(specifier)) {
    addMappedTemplate(collector, specifier, rootDir);
    return;
  }
  const follow = SETUP_KEYS.has(key) ? 'support' : 'none';
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

/** What one configuration (a root config or a project's) is read as. */
interface ConfigContext {
  runner: 'jest' | 'vitest';
  /** Project nesting (a project naming projects); bounded by MAX_PROJECT_DEPTH. */
  depth: number;
}

/** How deeply projects may name further projects before the rest is refused. */
const MAX_PROJECT_DEPTH = 4;

function applyScan(
  collector: Collector,
  tree: TreeReader,
  context: ConfigContext,
  scan: ConfigScan | undefined,
  configFile: string,
  label: string,
  projectRoot?: string
): ConfigScan | undefined {
  const configDir = projectRoot ?? dirOf(configFile);
  if (scan === undefined) {
    collector.note(`${label}: does not parse; only the file itself counts`);
    return undefined;
  }
  let rootDir = configDir;
  if (scan.rootDir !== undefined) {
    const resolved = inRepo(path.posix.join(configDir === '' ? '.' : configDir, scan.rootDir.replace(/^<rootDir>\/?/, './')));
    if (resolved === undefined) throw outside(label, 'rootDir', scan.rootDir);
    rootDir = resolved;
  }
  for (const reference of scan.references) addReference(collector, reference.key, reference.specifier, reference.base, rootDir, configDir);
  for (const key of scan.unresolved) collector.note(`${label}: ${key} is not a literal; its relative-path literals count`);
  for (const specifier of scan.imports) collector.addRelative(configDir, specifier, 'all');
  // jest resolves `projects` against rootDir; vitest against the config's (or workspace file's) folder.
  followProjects(collector, tree, context, scan.projects, context.runner === 'jest' ? rootDir : configDir, label);
  return scan;
}

function outside(label: string, key: string, value: string): ConfigurationError {
  return new ConfigurationError(`${label}: ${key} ${JSON.stringify(value)} lies outside the repository; PatchProof reads and resets only the repository's own test configuration`);
}

/** The config files a project folder can hold, for a runner. */
function projectConfigs(runner: 'jest' | 'vitest', dir: string): string[] {
  const names = runner === 'jest' ? [...JEST_CONFIGS, 'package.json'] : VITEST_CONFIGS;
  return names.map((name) => (dir === '' ? name : `${dir}/${name}`));
}

/**
 * jest `projects` and vitest `projects`/`workspace` entries given as paths or globs: each names a
 * project folder (its config file or package.json "jest") or a config file. Globs are matched
 * against the base's folders and files and the candidate's paths (a new project folder's config
 * counts). An entry that leaves the repository is refused: its configuration cannot be read,
 * reset or trusted. Negated globs only exclude projects, so they are ignored (more is read).
 */
function followProjects(collector: Collector, tree: TreeReader, context: ConfigContext, entries: readonly string[], baseDir: string, label: string): void {
  if (entries.length === 0) return;
  if (context.depth >= MAX_PROJECT_DEPTH) {
    throw new ConfigurationError(`${label}: projects nest more than ${MAX_PROJECT_DEPTH} levels deep; PatchProof cannot bound the test configuration`);
  }
  const next: ConfigContext = { ...context, depth: context.depth + 1 };
  const key = context.runner === 'jest' ? 'projects entry' : 'project entry';
  for (const entry of entries) {
    if (entry.startsWith('!')) continue;
    const replaced = entry.replace(/^<rootDir>\/?/, './');
    if (replaced.startsWith('/')) throw outside(label, key, entry);
    const resolved = inRepo(path.posix.join(baseDir === '' ? '.' : baseDir, replaced));
    if (resolved === undefined) throw outside(label, key, entry);
    if (picomatch.scan(replaced).isGlob) {
      const isMatch = picomatch(resolved === '' ? '**' : resolved, { dot: true });
      const dirs = new Set<string>();
      for (const p of collector.routable) {
        if (isMatch(p) && /\.((c|m)?[jt]s|json)$/.test(p)) readProject(collector, tree, next, p, true);
        for (let dir = dirOf(p); dir !== ''; dir = dirOf(dir)) dirs.add(dir);
      }
      for (const dir of [...dirs].sort()) if (isMatch(dir)) readProject(collector, tree, next, dir, false);
      continue;
    }
    readProject(collector, tree, next, resolved, tree.paths.includes(resolved));
  }
}

/** One project: a config file, or a folder whose config files (present or added later) count. */
function readProject(collector: Collector, tree: TreeReader, context: ConfigContext, target: string, isFile: boolean): void {
  const files = isFile ? [target] : projectConfigs(context.runner, target);
  for (const file of files) {
    const base = file.split('/').at(-1)!;
    const isConfig = isFile || base !== 'package.json' || context.runner === 'jest';
    if (!isConfig) continue;
    // package.json is the dependency surface already; only its "jest" key is read here.
    if (base !== 'package.json') collector.paths.add(file);
    const source = tree.read(file);
    if (source === undefined) continue;
    readConfigFile(collector, tree, context, file, source, isFile ? undefined : target);
  }
}

/** Read one jest or vitest config file of the base (a root config, a project's, a workspace file). */
function readConfigFile(collector: Collector, tree: TreeReader, context: ConfigContext, file: string, source: string, projectRoot?: string): void {
  const key = `${file}\u0000${projectRoot ?? ''}`;
  if (collector.configsRead.has(key)) return;
  collector.configsRead.add(key);
  const base = file.split('/').at(-1)!;
  if (context.runner === 'jest' && base === 'package.json') {
    let jest: unknown;
    try {
      jest = (JSON.parse(source) as { jest?: unknown }).jest;
    } catch {
      collector.note(`${file}: not JSON`);
      return;
    }
    if (jest !== undefined && jest !== null && typeof jest === 'object') {
      const scan = applyScan(collector, tree, context, scanConfigSource(JSON.stringify(jest), JEST_LOADING_KEYS, { json: true }), file, `${file} "jest"`, projectRoot);
      followPreset(collector, tree, context, scan, projectRoot ?? dirOf(file));
    }
    return;
  }
  const keys = context.runner === 'jest' ? JEST_LOADING_KEYS : VITEST_LOADING_KEYS;
  const scan = applyScan(
    collector,
    tree,
    context,
    scanConfigSource(source, keys, {
      typescript: isTypescript(file),
      json: file.endsWith('.json'),
      workspace: /(^|\/)vitest\.(workspace|projects)\./.test(file) || base.includes('workspace')
    }),
    file,
    file,
    projectRoot
  );
  if (context.runner === 'jest') followPreset(collector, tree, context, scan, projectRoot ?? dirOf(file));
}

function jestSurface(collector: Collector, tree: TreeReader): void {
  const present = new Set(tree.paths);
  const context: ConfigContext = { runner: 'jest', depth: 0 };
  for (const config of [...JEST_CONFIGS, 'package.json'].filter((c) => present.has(c))) {
    const source = tree.read(config);
    if (source === undefined) continue;
    if (config !== 'package.json') collector.paths.add(config);
    readConfigFile(collector, tree, context, config, source);
  }
}

/** A relative preset loads `<preset>/jest-preset.{json,js,cjs,mjs}`: that file and what it names. */
function followPreset(collector: Collector, tree: TreeReader, context: ConfigContext, scan: ConfigScan | undefined, configDir: string): void {
  const preset = scan?.references.find((r) => r.key === 'preset')?.specifier.replace(/^<rootDir>\/?/, './');
  if (preset === undefined || !/^\.\.?(\/|$)/.test(preset)) return;
  const dir = inRepo(path.posix.join(configDir === '' ? '.' : configDir, preset));
  if (dir === undefined) return;
  for (const ext of ['json', 'js', 'cjs', 'mjs']) {
    const file = dir === '' ? `jest-preset.${ext}` : `${dir}/jest-preset.${ext}`;
    collector.paths.add(file);
    const source = tree.read(file);
    // A preset's `<rootDir>` is the project's, not the preset's folder.
    if (source !== undefined) applyScan(collector, tree, context, scanConfigSource(source, JEST_LOADING_KEYS, { json: ext === 'json' }), file, file, configDir);
  }
}

function vitestSurface(collector: Collector, tree: TreeReader): void {
  const present = new Set(tree.paths);
  const context: ConfigContext = { runner: 'vitest', depth: 0 };
  for (const config of VITEST_CONFIGS.filter((c) => present.has(c))) {
    const source = tree.read(config);
    if (source === undefined) continue;
    collector.paths.add(config);
    readConfigFile(collector, tree, context, config, source);
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
