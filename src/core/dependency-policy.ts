/**
 * What a candidate may not do to its dependencies even when the witness pack allows dependency
 * changes: point a dependency at code in the repository or anywhere but the registry the base
 * uses, or change the test runner's own dependency closure. Pure: the manifests' texts in,
 * refusals out (each one line, naming the file and the entry). Checked on the host before the
 * candidate's dependency stage runs; a refusal means the stage never runs (`dependency_refused`).
 *
 * - package.json (any depth): `file:`, `link:`, `portal:`, `workspace:`, git, URL and path specs
 *   in dependencies, devDependencies, optionalDependencies, peerDependencies, overrides (nested),
 *   resolutions and pnpm.overrides, unless the base's same file has the same spec for the same name.
 * - package-lock.json / npm-shrinkwrap.json: entries with `link: true`, a `resolved` that is not an
 *   `https:` URL on an origin the base's lockfiles use (no registry host is written here: the base
 *   says which registry is trusted), or a `file:`/`link:`/git version; unless the base has the
 *   same entry. The test runner's closure (the runner packages and everything they resolve to,
 *   with Node's nested node_modules lookup) must be entry for entry the base's.
 * - yarn.lock / pnpm-lock.yaml: the same rules, read line by line (`resolved`, `resolution`,
 *   `tarball`, `directory:` and `file:`/`link:`/`portal:` specifiers).
 */

/** Dependency manifests and lockfiles of one tree, by repository path. */
export type ManifestFiles = ReadonlyMap<string, string>;

const SPEC_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;
const LOCAL_OR_REMOTE_SPEC = /^(?:file|link|portal|workspace|git|git\+[a-z]+|github|gitlab|bitbucket|gist|https?):|^[./~]|^[^@\s/:][^\s/:]*\/[^\s/:]+(?:#.*)?$/i;
const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json'];

function baseName(path: string): string {
  return path.split('/').pop() ?? '';
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Every `name → spec` pair of a package.json, keyed by where it sits (`devDependencies.jest`). */
function specsOf(manifest: unknown): Map<string, string> {
  const specs = new Map<string, string>();
  if (!isObject(manifest)) return specs;
  const nested = (prefix: string, value: unknown): void => {
    if (typeof value === 'string') specs.set(prefix, value);
    else if (isObject(value)) for (const [key, inner] of Object.entries(value)) nested(`${prefix}.${key}`, inner);
  };
  for (const field of SPEC_FIELDS)
    if (isObject(manifest[field])) for (const [name, spec] of Object.entries(manifest[field])) if (typeof spec === 'string') specs.set(`${field}.${name}`, spec);
  nested('overrides', manifest.overrides);
  nested('resolutions', manifest.resolutions);
  if (isObject(manifest.pnpm)) nested('pnpm.overrides', manifest.pnpm.overrides);
  return specs;
}

/** A `resolved` URL's origin when it is `https:`; undefined otherwise. */
function httpsOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && parsed.username === '' && parsed.password === '' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The origins of every https `resolved`/`tarball` URL in the base's lockfiles: the trusted registries. */
export function baseRegistryOrigins(base: ManifestFiles): Set<string> {
  const origins = new Set<string>();
  for (const [path, text] of base) {
    if (baseName(path) === 'package.json') continue;
    for (const match of text.matchAll(/https:\/\/[^\s"',)]+/g)) {
      const origin = httpsOrigin(match[0]);
      if (origin !== undefined) origins.add(origin);
    }
  }
  return origins;
}

type LockEntry = Record<string, unknown>;

/** A v2/v3 lockfile's `packages`, or a v1 lockfile's nested `dependencies` flattened to paths. */
function lockEntries(lock: unknown): Map<string, LockEntry> | undefined {
  if (!isObject(lock)) return undefined;
  const entries = new Map<string, LockEntry>();
  if (isObject(lock.packages)) {
    for (const [key, entry] of Object.entries(lock.packages)) if (isObject(entry)) entries.set(key, entry);
    return entries;
  }
  const walk = (prefix: string, deps: unknown): void => {
    if (!isObject(deps)) return;
    for (const [name, entry] of Object.entries(deps)) {
      if (!isObject(entry)) continue;
      const key = `${prefix}node_modules/${name}`;
      entries.set(key, entry);
      walk(`${key}/`, entry.dependencies);
    }
  };
  walk('', lock.dependencies);
  return entries;
}

/** What decides what is installed at a lockfile path (flags such as `dev` are left out). */
function entryIdentity(entry: LockEntry | undefined): string {
  if (entry === undefined) return 'absent';
  const { version, resolved, integrity, link, dependencies, optionalDependencies, peerDependencies } = entry;
  return JSON.stringify({ version, resolved, integrity, link, dependencies, optionalDependencies, peerDependencies });
}

/** Node's lookup from a package at `from` (a lockfile key) for `name`: nested node_modules first. */
function resolveIn(entries: ReadonlyMap<string, LockEntry>, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const key = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (entries.has(key)) return key;
    if (dir === '') return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

/** The lockfile keys the runner packages resolve to, transitively (links followed to their target). */
function closure(entries: ReadonlyMap<string, LockEntry>, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = roots.map((name) => resolveIn(entries, '', name)).filter((k): k is string => k !== undefined);
  while (queue.length > 0) {
    const key = queue.shift()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = entries.get(key)!;
    if (entry.link === true && typeof entry.resolved === 'string' && entries.has(entry.resolved)) queue.push(entry.resolved);
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
      const deps = entry[field];
      if (!isObject(deps)) continue;
      for (const name of Object.keys(deps)) {
        const target = resolveIn(entries, key, name);
        if (target !== undefined) queue.push(target);
      }
    }
  }
  return seen;
}

function checkPackageJson(path: string, candidate: string, base: string | undefined, refuse: (line: string) => void): void {
  const manifest = parseJson(candidate);
  if (manifest === undefined) {
    refuse(`${path}: not valid JSON`);
    return;
  }
  const before = specsOf(parseJson(base));
  for (const [where, spec] of specsOf(manifest)) {
    if (LOCAL_OR_REMOTE_SPEC.test(spec.trim()) && before.get(where) !== spec) refuse(`${path}: ${where} is ${JSON.stringify(spec)} (not a registry version)`);
  }
}

function checkLockEntries(
  path: string,
  entries: ReadonlyMap<string, LockEntry>,
  baseEntries: ReadonlyMap<string, LockEntry>,
  origins: ReadonlySet<string>,
  refuse: (line: string) => void
): void {
  for (const [key, entry] of entries) {
    if (key === '') continue;
    const unchanged = entryIdentity(entry) === entryIdentity(baseEntries.get(key));
    if (unchanged) continue;
    const shown = key === '' ? '(root)' : key;
    if (entry.link === true) refuse(`${path}: ${shown} is a link (to ${JSON.stringify(entry.resolved ?? '')})`);
    if (typeof entry.resolved === 'string' && entry.link !== true) {
      const origin = httpsOrigin(entry.resolved);
      if (origin === undefined || !origins.has(origin))
        refuse(`${path}: ${shown} resolves to ${JSON.stringify(entry.resolved)}, not an https URL on a registry the base's lockfiles use`);
    }
    if (typeof entry.version === 'string' && LOCAL_OR_REMOTE_SPEC.test(entry.version)) refuse(`${path}: ${shown} has version ${JSON.stringify(entry.version)}`);
    // A workspace package of the repository (a key outside node_modules) that is new: local code.
    if (!key.startsWith('node_modules/') && !key.includes('/node_modules/') && !baseEntries.has(key)) refuse(`${path}: ${shown} is a local package the base does not have`);
  }
}

function checkTextLockfile(path: string, candidate: string, base: string | undefined, origins: ReadonlySet<string>, refuse: (line: string) => void): void {
  const known = new Set((base ?? '').split('\n').map((l) => l.trim()));
  for (const raw of candidate.split('\n')) {
    const line = raw.trim();
    if (line === '' || known.has(line)) continue;
    if (/(?:^|["'\s@:])(?:file|link|portal):/.test(line) || /\bdirectory:/.test(line)) {
      refuse(`${path}: ${line.slice(0, 160)} (a local dependency)`);
      continue;
    }
    const url = /^(?:resolved|tarball|resolution)\b.*?(\w[\w+.-]*:\/\/[^\s"',}]+)/.exec(line)?.[1];
    if (url !== undefined && !origins.has(httpsOrigin(url) ?? '')) refuse(`${path}: ${line.slice(0, 160)} (not an https URL on a registry the base's lockfiles use)`);
  }
}

/**
 * Refusals for the candidate's dependency manifests (empty: the stage may run on them).
 * `runnerPackages` are the test runner and the packages its configuration loads (jest, babel-jest,
 * jest-environment-node...); their closure in the root lockfile must be the base's.
 */
export function dependencyRefusals(base: ManifestFiles, candidate: ManifestFiles, runnerPackages: readonly string[]): string[] {
  const refusals: string[] = [];
  const refuse = (line: string): void => {
    if (!refusals.includes(line)) refusals.push(line);
  };
  const origins = baseRegistryOrigins(base);
  for (const [path, text] of [...candidate].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (text === base.get(path)) continue;
    const name = baseName(path);
    if (name === 'package.json') checkPackageJson(path, text, base.get(path), refuse);
    else if (LOCKFILES.includes(name)) {
      const entries = lockEntries(parseJson(text));
      if (entries === undefined) refuse(`${path}: not a lockfile PatchProof can read`);
      else checkLockEntries(path, entries, lockEntries(parseJson(base.get(path))) ?? new Map(), origins, refuse);
    } else if (name === 'yarn.lock' || name === 'pnpm-lock.yaml') checkTextLockfile(path, text, base.get(path), origins, refuse);
  }
  if (runnerPackages.length > 0) {
    for (const lockfile of LOCKFILES) {
      const baseText = base.get(lockfile);
      const candidateText = candidate.get(lockfile);
      if (candidateText === baseText) continue;
      const baseEntries = lockEntries(parseJson(baseText));
      const candidateEntries = lockEntries(parseJson(candidateText));
      if (baseEntries === undefined || candidateEntries === undefined) {
        refuse(`${lockfile}: the test runner's dependencies cannot be compared with the base's (a lockfile is missing or unreadable on one side)`);
        continue;
      }
      const before = closure(baseEntries, runnerPackages);
      const after = closure(candidateEntries, runnerPackages);
      for (const key of [...new Set([...before, ...after])].sort()) {
        if (entryIdentity(baseEntries.get(key)) !== entryIdentity(candidateEntries.get(key)) || before.has(key) !== after.has(key)) {
          refuse(`${lockfile}: ${key} belongs to the test runner's dependencies (${runnerPackages.join(', ')}) and differs from the base's`);
        }
      }
    }
  }
  return refusals;
}
