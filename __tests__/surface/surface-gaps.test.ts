import { ConfigurationError } from '../../src/errors.js';
import { isCodeUnderTest, loadedSurface, type TreeReader } from '../../src/inventory/surface/loaded-surface.js';
import { scanConfigSource, JEST_LOADING_KEYS } from '../../src/inventory/surface/js-config.js';

/**
 * The loaded surface's three reach rules beyond literal targets (docs/security.md, "Surface"):
 * `moduleNameMapper` templates, a setup file's own imports anywhere in the repository, and
 * projects/workspaces. Each `it` names the gap it closes; the trees are maps of files.
 */

function tree(files: Record<string, string>, extraPaths: string[] = []): TreeReader {
  return { paths: Object.keys(files), read: (path) => files[path], extraPaths };
}

const jestPkg = (jest: Record<string, unknown>): string => JSON.stringify({ name: 'x', jest });

describe('isCodeUnderTest', () => {
  it('is true for source folders, false for tests, support folders and files outside them', () => {
    for (const path of ['src/money.js', 'lib/a/b.ts', 'packages/core/index.js', 'src/matchers.js']) expect(isCodeUnderTest(path)).toBe(true);
    for (const path of [
      'money.js',
      'test/helpers.js',
      'tools/x.js',
      'src/test-utils/render.js',
      'src/__mocks__/fs.js',
      'src/setupTests.ts',
      'src/money.test.js',
      'packages/core/test/support.js',
      'lib/testing/matchers.ts'
    ]) {
      expect(isCodeUnderTest(path)).toBe(false);
    }
  });
});

describe('gap 1: moduleNameMapper targets with capture groups', () => {
  it('counts every base and candidate file under a template target outside the code under test', () => {
    const files = {
      'package.json': jestPkg({ moduleNameMapper: { '^testkit/(.*)$': '<rootDir>/tools/testkit/$1', '^@/(.*)$': '<rootDir>/src/$1' } }),
      'tools/testkit/expect-money.js': "module.exports = require('./shared');\n",
      'tools/testkit/shared.js': "require('../../src/money');\n",
      'tools/other.js': '',
      'src/money.js': ''
    };
    const surface = loadedSurface('jest', tree(files, ['tools/testkit/new-helper.js', 'src/money.js']));
    expect(surface.paths).toEqual(expect.arrayContaining(['tools/testkit/expect-money.js', 'tools/testkit/shared.js', 'tools/testkit/new-helper.js']));
    // The `@/` alias routes into the code itself: not surface, and said so.
    expect(surface.paths).not.toContain('src/money.js');
    expect(surface.paths).not.toContain('tools/other.js');
    expect(surface.unresolved).toContain('moduleNameMapper: "<rootDir>/src/$1" maps into the code under test (src/); not surface');
  });

  it('counts test-support folders under a source folder, and a partial file prefix', () => {
    const files = {
      'jest.config.js': "module.exports = { moduleNameMapper: { '^mocks/(.*)$': '<rootDir>/src/__mocks__/$1', '^fx-(.*)$': '<rootDir>/test/fx-$1' } };",
      'src/__mocks__/fs.js': '',
      'src/money.js': '',
      'test/fx-amounts.js': '',
      'test/other.js': ''
    };
    const surface = loadedSurface('jest', tree(files));
    expect(surface.paths).toEqual(expect.arrayContaining(['src/__mocks__/fs.js', 'test/fx-amounts.js']));
    expect(surface.paths).not.toContain('test/other.js');
    expect(surface.paths).not.toContain('src/money.js');
  });

  it('does not count a target outside the repository, and notes it', () => {
    const surface = loadedSurface('jest', tree({ 'package.json': jestPkg({ moduleNameMapper: { '^x/(.*)$': '<rootDir>/../shared/$1' } }) }));
    expect(surface.paths).toEqual([]);
    expect(surface.unresolved).toEqual(['moduleNameMapper: "<rootDir>/../shared/$1" maps outside the repository; not surface']);
  });
});

describe("gap 2: a setup file's own imports, outside its folder, transitively", () => {
  it('follows ../tools and further, but stops at the code under test', () => {
    const files = {
      'package.json': jestPkg({ setupFilesAfterEnv: ['<rootDir>/test/setup.js'] }),
      'test/setup.js': "require('../tools/matchers');\nrequire('../src/money');\n",
      'tools/matchers.js': "import { deep } from './deep/leaf.js';\nexport { deep };\n",
      'tools/deep/leaf.js': "const x = require('../../lib/format');\n",
      'lib/format.js': "require('../tools/never');\n",
      'src/money.js': "require('../tools/from-code');\n"
    };
    const surface = loadedSurface('jest', tree(files));
    expect(surface.paths).toEqual(expect.arrayContaining(['test/setup.js', 'tools/matchers.js', 'tools/deep/leaf.js']));
    for (const path of ['src/money.js', 'lib/format.js', 'tools/never.js', 'tools/from-code.js']) expect(surface.paths).not.toContain(path);
  });

  it('counts a new file the candidate would add where the import resolves', () => {
    const surface = loadedSurface(
      'vitest',
      tree({ 'vitest.config.ts': "export default { test: { setupFiles: ['./test/setup.ts'] } };", 'test/setup.ts': "import '../tools/extend';\n" })
    );
    expect(surface.paths).toEqual(expect.arrayContaining(['tools/extend.ts', 'tools/extend.js', 'tools/extend/index.ts']));
  });

  it('fails closed on a setup import that does not parse: its folder counts', () => {
    const files = {
      'package.json': jestPkg({ globalSetup: './test/global.js' }),
      'test/global.js': "require('../tools/broken');\n",
      'tools/broken.js': 'this is ((( not javascript',
      'tools/sibling.js': ''
    };
    const surface = loadedSurface('jest', tree(files));
    expect(surface.paths).toEqual(expect.arrayContaining(['tools/broken.js', 'tools/sibling.js']));
    expect(surface.unresolved).toContain('tools/broken.js: does not parse; every file of its folder counts');
  });

  it('refuses a walk past its bound', () => {
    const files: Record<string, string> = { 'package.json': jestPkg({ setupFiles: ['./test/s0.js'] }) };
    for (let i = 0; i < 600; i++) files[`test/s${i}.js`] = `require('./s${i + 1}');\n`;
    expect(() => loadedSurface('jest', tree(files))).toThrow(ConfigurationError);
  });
});

describe('gap 3: projects and workspaces', () => {
  it('reads jest project folders, config files and globs', () => {
    const files = {
      'jest.config.js': "module.exports = { projects: ['<rootDir>/jest.unit.config.js', '<rootDir>/packages/*', { displayName: 'inline', setupFiles: ['./test/inline.js'] }] };",
      'jest.unit.config.js': "module.exports = { setupFilesAfterEnv: ['<rootDir>/test/unit-setup.js'] };",
      'packages/a/jest.config.js': "module.exports = { setupFiles: ['<rootDir>/setup/a.js'] };",
      'packages/b/package.json': JSON.stringify({ jest: { globalSetup: './b-global.js' } }),
      'packages/a/setup/a.js': ''
    };
    const surface = loadedSurface('jest', tree(files, ['packages/new/jest.config.js']));
    expect(surface.paths).toEqual(
      expect.arrayContaining([
        'jest.unit.config.js',
        'test/unit-setup.js',
        'packages/a/jest.config.js',
        'packages/a/setup/a.js',
        'packages/b/b-global.js',
        'test/inline.js',
        'packages/new/jest.config.js'
      ])
    );
  });

  it('reads a project list that names its own root once', () => {
    const files = { 'jest.config.js': "module.exports = { projects: ['<rootDir>', '<rootDir>/jest.config.js'], setupFiles: ['./test/s.js'] };" };
    expect(loadedSurface('jest', tree(files)).paths).toEqual(expect.arrayContaining(['jest.config.js', 'test/s.js']));
  });

  it('reads a vitest workspace file and test.projects', () => {
    const files = {
      'vitest.workspace.ts': "import { defineWorkspace } from 'vitest/config';\nexport default defineWorkspace(['packages/*', './e2e/vitest.config.ts']);",
      'vitest.config.ts': "export default { test: { projects: ['./tools/proj'] } };",
      'packages/a/vitest.config.ts': "export default { test: { setupFiles: ['./setup.ts'] } };",
      'e2e/vitest.config.ts': "export default { test: { globalSetup: './global.ts' } };",
      'tools/proj/vite.config.mjs': "export default { test: { setupFiles: ['./s.js'] } };"
    };
    const surface = loadedSurface('vitest', tree(files));
    expect(surface.paths).toEqual(
      expect.arrayContaining(['packages/a/vitest.config.ts', 'packages/a/setup.ts', 'e2e/vitest.config.ts', 'e2e/global.ts', 'tools/proj/vite.config.mjs', 'tools/proj/s.js'])
    );
  });

  it('refuses a project, workspace entry or rootDir outside the repository in one line', () => {
    const cases: Record<string, string>[] = [
      { 'jest.config.js': "module.exports = { projects: ['<rootDir>/../shared/jest.config.js'] };" },
      { 'package.json': jestPkg({ projects: ['/opt/ci/jest.config.js'] }) },
      { 'vitest.workspace.ts': "export default ['../*/vitest.config.ts'];" },
      { 'jest.config.js': "module.exports = { rootDir: '..' };" }
    ];
    for (const files of cases) {
      const adapter = Object.keys(files)[0]!.startsWith('vitest') ? 'vitest' : 'jest';
      let error: unknown;
      try {
        loadedSurface(adapter, tree(files));
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/lies outside the repository/);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('scans project entries as data', () => {
    const scan = scanConfigSource("module.exports = { projects: ['a', { rootDir: 'b' }, path.join(__dirname, './c')] };", JEST_LOADING_KEYS);
    expect(scan?.projects).toEqual(['./c', 'a']);
    expect(scan?.unresolved).toEqual(['projects']);
  });
});
