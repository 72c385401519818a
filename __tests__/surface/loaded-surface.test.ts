import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseSurface, resetPlan, surfaceReasons } from '../../src/core/surface.js';
import { JEST_SURFACE, VITEST_SURFACE } from '../../src/adapters/shared/js-runner-files.js';
import { loadedSurface, type TreeReader } from '../../src/inventory/surface/loaded-surface.js';
import { addoptsPlugins, pytestPluginsOf, scanPytestConfig } from '../../src/inventory/surface/pytest-config.js';
import type { FileChange } from '../../src/core/diff-policy.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** A tree from a map of files. */
function tree(files: Record<string, string>): TreeReader {
  return { paths: Object.keys(files), read: (path) => files[path] };
}

function modify(path: string): FileChange {
  return { path, op: 'modify', hunks: [], binary: false } as unknown as FileChange;
}

const NO_ALLOW = { test_edits: false, test_removal: false, skips: false, config_edits: false, dependency_changes: false };

describe('loadedSurface: jest', () => {
  it('reads package.json "jest": setup files, transforms, mapped files, environment, reporters and the snapshot resolver', () => {
    const pkg = {
      name: 'x',
      jest: {
        setupFiles: ['<rootDir>/test/polyfills.js'],
        setupFilesAfterEnv: ['./test/setup-matchers'],
        globalSetup: './test/global-setup.js',
        globalTeardown: '<rootDir>/test/global-teardown.js',
        transform: { '^.+\\.txt$': '<rootDir>/tools/txt-transform.js', '^.+\\.js$': ['babel-jest', { rootMode: 'upward' }] },
        moduleNameMapper: { '\\.css$': '<rootDir>/test/style-mock.js', '^@/(.*)$': '<rootDir>/src/$1' },
        testEnvironment: './test/env.js',
        snapshotResolver: './test/snapshot-resolver.js',
        reporters: ['default', ['<rootDir>/tools/reporter.js', { out: 'x' }]]
      }
    };
    const files = {
      'package.json': JSON.stringify(pkg),
      'test/polyfills.js': '',
      'test/setup-matchers.js': "require('./matchers');\nrequire('../src/money');\n",
      'test/matchers.js': '',
      'src/money.js': '',
      'test/global-setup.js': ''
    };
    const surface = loadedSurface('jest', tree(files));
    for (const path of [
      'test/polyfills.js',
      'test/setup-matchers.js',
      'test/matchers.js',
      'test/global-setup.js',
      'test/global-teardown.js',
      'tools/txt-transform.js',
      'test/style-mock.js',
      'test/env.js',
      'test/snapshot-resolver.js',
      'tools/reporter.js'
    ]) {
      expect(surface.paths).toContain(path);
    }
    // A setup file's imports count within its own folder only: the code under test is not the grader.
    expect(surface.paths).not.toContain('src/money.js');
    // A `$1` mapping stands for the code itself, not for one file.
    expect(surface.paths.some((p) => p.startsWith('src/'))).toBe(false);
    expect(surface.packages).toEqual(expect.arrayContaining(['jest', 'babel-jest']));
    expect(surface.unresolved).toEqual(['moduleNameMapper: "<rootDir>/src/$1" maps into the code under test (src/); not surface']);
  });

  it('reads jest.config.js without running it, and is conservative about non-literal values', () => {
    const config = `
      const path = require('path');
      const shared = require('./jest.shared');
      module.exports = {
        ...shared,
        rootDir: '.',
        setupFilesAfterEnv: [path.resolve(__dirname, './test/after-env.js')],
        testEnvironment: 'jsdom',
      };`;
    const surface = loadedSurface('jest', tree({ 'jest.config.js': config, 'jest.shared.js': "module.exports = { setupFiles: ['./test/shared-setup.js'] };" }));
    expect(surface.paths).toEqual(expect.arrayContaining(['jest.config.js', 'jest.shared.js', 'test/after-env.js']));
    expect(surface.packages).toContain('jest-environment-jsdom');
    expect(surface.unresolved).toEqual(['jest.config.js: setupFilesAfterEnv is not a literal; its relative-path literals count']);
  });

  it('reads a TypeScript config and a relative preset', () => {
    const config = `import type { Config } from 'jest';
      const config: Config = { preset: './tools', setupFiles: ['<rootDir>/setup.ts'] };
      export default config;`;
    const surface = loadedSurface('jest', tree({ 'jest.config.ts': config, 'setup.ts': '', 'tools/jest-preset.json': JSON.stringify({ globalSetup: '<rootDir>/tools/up.js' }) }));
    expect(surface.paths).toEqual(expect.arrayContaining(['jest.config.ts', 'setup.ts', 'tools/jest-preset.json', 'tools/up.js']));
  });

  it('never leaves the repository', () => {
    const surface = loadedSurface('jest', tree({ 'package.json': JSON.stringify({ jest: { setupFiles: ['../../etc/passwd', '/abs/setup.js'] } }) }));
    expect(surface.paths.every((p) => !p.startsWith('..') && !p.startsWith('/'))).toBe(true);
    expect(surface.unresolved).toEqual(['setupFiles: absolute path "/abs/setup.js" not resolved']);
  });
});

describe('loadedSurface: vitest', () => {
  it("reads the fixture's config and what a config imports", () => {
    const fixture = readFileSync(join(ROOT, 'fixtures/vitest-chunk/repo/vitest.config.ts'), 'utf8');
    expect(loadedSurface('vitest', tree({ 'vitest.config.ts': fixture })).paths).toContain('vitest.config.ts');
    const config = `import { defineConfig, mergeConfig } from 'vitest/config';
      import shared from './config/shared';
      export default mergeConfig(shared, defineConfig({ test: { setupFiles: ['./test/setup.ts'], globalSetup: 'test/global.ts', environment: 'happy-dom' } }));`;
    const surface = loadedSurface(
      'vitest',
      tree({ 'vitest.config.ts': config, 'config/shared.ts': "import './more';\nexport default {};", 'config/more.ts': '', 'test/setup.ts': '' })
    );
    expect(surface.paths).toEqual(expect.arrayContaining(['vitest.config.ts', 'config/shared.ts', 'config/more.ts', 'test/setup.ts', 'test/global.ts']));
    expect(surface.packages).toEqual(expect.arrayContaining(['vitest', 'happy-dom']));
  });
});

describe('loadedSurface: pytest and go', () => {
  it('reads -p plugins from addopts and pytest_plugins from conftests, transitively', () => {
    expect(addoptsPlugins('-ra -p myproj.testing.plugin -pno:cacheprovider -p no:warnings -pother')).toEqual(['myproj.testing.plugin', 'other']);
    expect(scanPytestConfig('pyproject.toml', '[tool.pytest.ini_options]\naddopts = "-p tools.plug"\npythonpath = ["lib"]\n')).toEqual({
      plugins: ['tools.plug'],
      pythonpath: ['lib']
    });
    expect(pytestPluginsOf('import x\npytest_plugins = [\n    "a.b",\n    \'c\',\n]\n')).toEqual(['a.b', 'c']);
    const surface = loadedSurface(
      'pytest',
      tree({
        'pytest.ini': '[pytest]\naddopts = -p helpers.plug\n',
        'tests/conftest.py': 'pytest_plugins = "fixtures.db"\n',
        'fixtures/db.py': 'pytest_plugins = ("fixtures.more",)\n'
      })
    );
    expect(surface.paths).toEqual(expect.arrayContaining(['helpers/plug.py', 'helpers/plug/__init__.py', 'fixtures/db.py', 'fixtures/more.py', 'src/fixtures/db.py']));
  });

  it('lists Go files declaring TestMain', () => {
    const surface = loadedSurface('go', tree({ 'pkg/main_test.go': 'package pkg\n\nfunc TestMain(m *testing.M) {}\n', 'pkg/x_test.go': 'package pkg\n' }));
    expect(surface.paths).toEqual(['pkg/main_test.go']);
  });
});

describe('analyseSurface with the loaded surface', () => {
  it('makes an edit to a loaded setup file a config finding: reset, and grader_tampered', () => {
    const rules = { ...JEST_SURFACE, protected: [], placements: ['.patchproof/hidden'], skipMarkers: [] };
    const changes = [modify('test/setup-matchers.js'), modify('src/money.js')];
    // Without the loaded surface the setup file is not test surface: this is the gap being closed.
    expect(analyseSurface(changes, rules)).toEqual([]);
    const findings = analyseSurface(changes, { ...rules, loaded: ['test/setup-matchers.js'] });
    expect(findings).toEqual([{ path: 'test/setup-matchers.js', change: 'modify', categories: ['config'], skip_markers: [] }]);
    expect(surfaceReasons(findings, NO_ALLOW).reasons).toEqual(['grader_tampered']);
    expect(resetPlan(findings, () => true)).toEqual({ restore: ['test/setup-matchers.js'], remove: [] });
    expect(analyseSurface([modify('test/setup.ts')], { ...VITEST_SURFACE, protected: [], placements: [], skipMarkers: [], loaded: ['test/setup.ts'] })).toHaveLength(1);
  });
});
