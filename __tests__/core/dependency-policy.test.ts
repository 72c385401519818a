import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseRegistryOrigins, dependencyRefusals } from '../../src/core/dependency-policy.js';

/**
 * The dependency policy on the real jest-money manifests (jest 30's lockfile, 300 packages), with
 * the edits a candidate could make when the pack allows dependency changes.
 */

const ROOT = new URL('../..', import.meta.url).pathname;
const PKG = readFileSync(join(ROOT, 'fixtures/jest-money/repo/package.json'), 'utf8');
const LOCK = readFileSync(join(ROOT, 'fixtures/jest-money/repo/package-lock.json'), 'utf8');
const REGISTRY = 'https://registry.example.test';

type Json = Record<string, unknown>;
/** A package-lock.json: the fields these tests edit. */
interface Lockfile extends Json {
  packages: Record<string, Json>;
}

function files(pkg: Json | string, lock: Lockfile | string): Map<string, string> {
  return new Map([
    ['package.json', typeof pkg === 'string' ? pkg : JSON.stringify(pkg)],
    ['package-lock.json', typeof lock === 'string' ? lock : JSON.stringify(lock)]
  ]);
}

function edited(edit: (lock: Lockfile) => void): Lockfile {
  const lock = JSON.parse(LOCK) as Lockfile;
  edit(lock);
  return lock;
}

/** The base with a registry origin in its lockfile (jest-money's own lockfile has no `resolved`). */
function withResolved(lock: Lockfile): Lockfile {
  lock.packages['node_modules/ms'] = { version: '2.1.3', resolved: `${REGISTRY}/ms/-/ms-2.1.3.tgz`, integrity: 'sha512-x' };
  return lock;
}

describe('dependencyRefusals', () => {
  it('accepts a new registry dependency outside the test runner', () => {
    const pkg = { ...(JSON.parse(PKG) as Json), dependencies: { ms: '2.1.3' } };
    const base = files(PKG, withResolved(JSON.parse(LOCK) as Lockfile));
    const lock = withResolved(JSON.parse(LOCK) as Lockfile);
    lock.packages['']!.dependencies = { ms: '2.1.3' };
    lock.packages['node_modules/left-pad'] = { version: '1.3.0', resolved: `${REGISTRY}/left-pad/-/left-pad-1.3.0.tgz`, integrity: 'sha512-y' };
    expect(dependencyRefusals(base, files(pkg, lock), ['jest'])).toEqual([]);
    expect([...baseRegistryOrigins(base)]).toEqual([REGISTRY]);
  });

  it('refuses file:, link: and path specs in package.json, also in overrides', () => {
    const pkg = {
      ...(JSON.parse(PKG) as Json),
      dependencies: { a: 'file:../a', b: 'link:./vendor/b', c: './vendor/c', d: 'github:evil/d', e: '1.2.3' },
      overrides: { expect: 'file:vendor/expect' }
    };
    expect(dependencyRefusals(files(PKG, LOCK), files(pkg, LOCK), [])).toEqual([
      'package.json: dependencies.a is "file:../a" (not a registry version)',
      'package.json: dependencies.b is "link:./vendor/b" (not a registry version)',
      'package.json: dependencies.c is "./vendor/c" (not a registry version)',
      'package.json: dependencies.d is "github:evil/d" (not a registry version)',
      'package.json: overrides.expect is "file:vendor/expect" (not a registry version)'
    ]);
  });

  it('keeps a local spec the base already had', () => {
    const pkg = { ...(JSON.parse(PKG) as Json), dependencies: { a: 'file:./packages/a' } };
    const changed = { ...pkg, description: 'changed' };
    expect(dependencyRefusals(files(pkg, LOCK), files(changed, LOCK), [])).toEqual([]);
  });

  it('refuses a lockfile that links a dependency of the test runner to vendored code', () => {
    const lock = edited((l) => {
      l.packages['node_modules/expect'] = { resolved: 'vendor/expect', link: true };
      l.packages['vendor/expect'] = { name: 'expect', version: '30.5.2' };
    });
    const refusals = dependencyRefusals(files(PKG, LOCK), files(PKG, lock), ['jest']);
    expect(refusals).toContain('package-lock.json: node_modules/expect is a link (to "vendor/expect")');
    expect(refusals).toContain('package-lock.json: vendor/expect is a local package the base does not have');
    expect(refusals).toContain("package-lock.json: node_modules/expect belongs to the test runner's dependencies (jest) and differs from the base's");
  });

  it('refuses resolved URLs that are not https on a registry the base uses', () => {
    const base = files(PKG, withResolved(JSON.parse(LOCK) as Lockfile));
    for (const resolved of [
      'http://registry.example.test/x.tgz',
      'https://evil.example.test/x.tgz',
      'git+ssh://git@example.test/x.git',
      'file:vendor/x.tgz',
      'https://user:pw@registry.example.test/x.tgz'
    ]) {
      const lock = withResolved(JSON.parse(LOCK) as Lockfile);
      lock.packages['node_modules/x'] = { version: '1.0.0', resolved, integrity: 'sha512-z' };
      expect(dependencyRefusals(base, files(PKG, lock), [])).toEqual([
        `package-lock.json: node_modules/x resolves to ${JSON.stringify(resolved)}, not an https URL on a registry the base's lockfiles use`
      ]);
    }
  });

  it("refuses a registry version change inside the test runner's closure, and a nested copy that shadows it", () => {
    const bumped = edited((l) => {
      l.packages['node_modules/jest-util']!.version = '30.0.0';
    });
    expect(dependencyRefusals(files(PKG, LOCK), files(PKG, bumped), ['jest'])).toEqual([
      "package-lock.json: node_modules/jest-util belongs to the test runner's dependencies (jest) and differs from the base's"
    ]);
    const shadowed = edited((l) => {
      l.packages['node_modules/expect/node_modules/jest-util'] = { version: '30.5.1', integrity: 'sha512-other' };
    });
    expect(dependencyRefusals(files(PKG, LOCK), files(PKG, shadowed), ['jest'])).toEqual([
      "package-lock.json: node_modules/expect/node_modules/jest-util belongs to the test runner's dependencies (jest) and differs from the base's"
    ]);
    // Outside the runner's closure a registry bump is the candidate's business.
    expect(dependencyRefusals(files(PKG, LOCK), files(PKG, bumped), [])).toEqual([]);
  });

  it('refuses a lockfile it cannot compare, and local specs in yarn and pnpm lockfiles', () => {
    expect(dependencyRefusals(files(PKG, LOCK), files(PKG, 'not json'), ['jest'])).toEqual([
      'package-lock.json: not a lockfile PatchProof can read',
      "package-lock.json: the test runner's dependencies cannot be compared with the base's (a lockfile is missing or unreadable on one side)"
    ]);
    const yarnBase = new Map([['yarn.lock', `ms@2.1.3:\n  resolved "${REGISTRY}/ms/-/ms-2.1.3.tgz#abc"\n`]]);
    const yarn = new Map([
      [
        'yarn.lock',
        `ms@2.1.3:\n  resolved "${REGISTRY}/ms/-/ms-2.1.3.tgz#abc"\n"expect@file:./vendor/expect":\n  version "30.5.2"\nevil@1.0.0:\n  resolved "https://evil.example.test/e.tgz"\n`
      ]
    ]);
    expect(dependencyRefusals(yarnBase, yarn, [])).toEqual([
      'yarn.lock: "expect@file:./vendor/expect": (a local dependency)',
      'yarn.lock: resolved "https://evil.example.test/e.tgz" (not an https URL on a registry the base\'s lockfiles use)'
    ]);
    const pnpm = new Map([['pnpm-lock.yaml', 'packages:\n  expect@30.5.2:\n    resolution: {directory: vendor/expect, type: directory}\n']]);
    expect(dependencyRefusals(new Map(), pnpm, [])).toHaveLength(1);
  });
});
