import type { CanaryPlan } from '../adapter.js';
import { CHANNEL_ENV, FRAME_MARK } from '../shared/results-channel.js';
import { checkCanaryPlan } from '../shared/canary.js';
import { canaryDeclarations, environmentDocblock, indentBody, tripwirePreamble, wrapperSpecifier } from '../shared/js-runner-wrapper.js';

/**
 * The vitest adapter's generated files: the runner script staged as
 * `.patchproof/harness/vitest-run.mjs`, and the wrapper of each test file (see
 * js-runner-wrapper.ts for why wrappers exist).
 *
 * The runner script starts vitest through its own Node API (`startVitest` from `vitest/node`,
 * resolved from the copy's node_modules) because vitest's command line cannot replace `include`,
 * and a repository's `include` would not match wrappers under `.patchproof/`. The options it passes
 * override only test selection and what would write into the copy: `include` (the wrappers),
 * `exclude`, `dir`, no watch, no results cache, no coverage, no snapshot writes, vite's cacheDir
 * under the temp folder, and `configLoader: 'runner'` (vite's default loader bundles a TypeScript
 * config into a temporary file beside it or in node_modules, both read-only). vitest < 3.1 and
 * vite < 6.1 ignore `configLoader`: there the script finds the config as vitest would and hands it
 * over through a symlink in a fresh temp folder, so vite's temporary file lands there (the config
 * still resolves its imports and `import.meta.url` from its real place). Everything else of the
 * repository's vitest/vite config applies.
 *
 * After the run it writes every file's task tree (suites, tests, modes, states, `fails`, errors with
 * their stacks) to the results folder. The script runs in vitest's main process, and the tests in
 * worker processes (vitest's default `forks` pool), so code under test does not run where the
 * results are written. vitest's own JSON reporter writes a second file, whose tallies are the
 * cross-check. Neither JSON nor JUnit from vitest carries a `beforeAll` failure (the tests just
 * read "skipped"), hence the task tree.
 *
 * The results channel (results-channel.ts): with the nonce in PATCHPROOF_CHANNEL, once vitest's run
 * has ended the script writes, straight to its fd 1, one frame per test of the task tree it is about
 * to write (`vitestFrameId`, and the test's state), then writes the tree, then the final frame with
 * the SHA-256 of the tree's bytes and of vitest's JSON as it read it. A worker's detached child that
 * rewrites both files afterwards disagrees. The frames come from the main process's view of the
 * run once it ended, not test by test as each finished (vitest's reporter hooks for that differ
 * between 3.0 and 3.2).
 */

/** File name of the staged runner script (under HARNESS_DIR). */
export const VITEST_RUNNER_FILE = 'vitest-run.mjs';

/** Result file of the runner script: the task tree. */
export const VITEST_RESULTS_FILE = 'vitest-tasks.json';

/** Result file of vitest's own JSON reporter: the tallies. */
export const VITEST_CLAIMS_FILE = 'vitest.json';

/** The `format` field of the task tree file. */
export const VITEST_RESULTS_FORMAT = 'patchproof-vitest-tasks/v1';

/** The channel's id of one test of the task tree (`file` is the tree's absolute `file`). */
export function vitestFrameId(file: string, suites: readonly string[], name: string): string {
  return JSON.stringify([file, ...suites, name]);
}

/** Source of the runner script: `node vitest-run.mjs <tasks file> <claims file> <wrapper>...` (vitest 3.0 or later). */
export const VITEST_RUNNER_SOURCE = `// PatchProof vitest runner (generated; see src/adapters/vitest/harness.ts).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vitestNode from 'vitest/node';

const { startVitest } = vitestNode;
const [resultsFile, claimsFile, ...wrappers] = process.argv.slice(2);
// A plain run's argv from here on (npx vitest run): a test that reads process.argv (in vitest's
// threads pool it is this process's) sees no file or flag of the grader's.
process.argv = [process.argv[0], path.join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs'), 'run'];
const NONCE = /^[0-9a-f]{64}$/.test(process.env.${CHANNEL_ENV} ?? '') ? process.env.${CHANNEL_ENV} : undefined;

function frame(kind, value) {
  if (NONCE === undefined) return;
  try {
    writeSync(1, '\\n${FRAME_MARK} ' + NONCE + ' ' + kind + ' ' + JSON.stringify(value) + '\\n');
  } catch {
    // a closed stdout loses the frames: the host then finds the final frame missing
  }
}

// One frame per test of the tree about to be written, keyed as vitest-results.ts keys it.
function frameTests(file, tasks, suites) {
  let count = 0;
  for (const one of tasks) {
    if (one.type === 'suite') {
      count += frameTests(file, one.tasks ?? [], [...suites, one.name]);
    } else {
      count += 1;
      frame('test', { id: JSON.stringify([file, ...suites, one.name]), status: one.state ?? null });
    }
  }
  return count;
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

function atLeast(version, major, minor) {
  const [a, b] = String(version ?? '0.0').split('.').map((part) => Number.parseInt(part, 10));
  return a > major || (a === major && b >= minor);
}

// vitest's own lookup: vitest.config.* then vite.config.*, in this order, from the root upwards.
const CONFIG_FILES = ['vitest.config', 'vite.config'].flatMap((name) =>
  ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'].map((ext) => name + ext)
);

function findConfig(dir) {
  for (;;) {
    for (const name of CONFIG_FILES) {
      if (existsSync(path.join(dir, name))) return path.join(dir, name);
    }
    if (path.dirname(dir) === dir) return undefined;
    dir = path.dirname(dir);
  }
}

function packageType(dir) {
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')).type === 'module' ? 'module' : 'commonjs';
      } catch {
        return 'commonjs';
      }
    }
    if (path.dirname(dir) === dir) return 'commonjs';
    dir = path.dirname(dir);
  }
}

// vitest < 3.1 does not pass configLoader on, and vite < 6.1 has none: vite bundles a config into
// the nearest node_modules/.vite-temp (else beside the config), both read-only here. Handing it the
// config through a symlink in a fresh temp folder makes both of those lie under the temp folder;
// esbuild follows the link, so the config's relative imports, __dirname and import.meta.url are
// those of its real place. A package.json beside the link keeps the module type vite would see.
function configOption() {
  if (atLeast(vitestNode.version, 3, 1) && atLeast(vitestNode.viteVersion, 6, 1)) return { configLoader: 'runner' };
  const found = findConfig(process.cwd());
  if (found === undefined) return {};
  const real = realpathSync(found);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'patchproof-vitest-config-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: packageType(path.dirname(real)) }));
  const link = path.join(dir, path.basename(real));
  symlinkSync(real, link);
  return { config: link };
}

function error(value) {
  return {
    name: String(value?.name ?? 'Error'),
    message: String(value?.message ?? value),
    ...(typeof value?.stack === 'string' ? { stack: value.stack } : {})
  };
}

function task(value) {
  return {
    type: value.type,
    name: value.name,
    mode: value.mode,
    fails: value.fails === true,
    ...(value.location?.line === undefined ? {} : { line: value.location.line }),
    ...(value.result?.state === undefined ? {} : { state: value.result.state }),
    errors: (value.result?.errors ?? []).map(error),
    ...(value.type === 'suite' ? { tasks: value.tasks.map(task) } : {})
  };
}

const vitest = await startVitest(
  'test',
  [],
  {
    run: true,
    watch: false,
    dir: process.cwd(),
    include: wrappers,
    exclude: [],
    includeTaskLocation: true,
    reporters: ['default', 'json'],
    outputFile: { json: claimsFile },
    cache: false,
    ...configOption(),
    passWithNoTests: false,
    allowOnly: false,
    update: false,
    coverage: { enabled: false }
  },
  { cacheDir: path.join(os.tmpdir(), 'patchproof-vite-cache') }
);
if (vitest === undefined) {
  process.exitCode = 1;
} else {
  const files = vitest.state.getFiles().map((file) => ({ ...task(file), file: file.filepath }));
  const unhandled = vitest.state.getUnhandledErrors().map(error);
  const tests = files.reduce((sum, file) => sum + frameTests(file.file, file.tasks ?? [], []), 0);
  let claims = null;
  try {
    claims = sha256(readFileSync(claimsFile));
  } catch {
    claims = null;
  }
  const data = JSON.stringify({ format: '${VITEST_RESULTS_FORMAT}', files, unhandled });
  writeFileSync(resultsFile, data);
  frame('end', { tests, files: { '${VITEST_RESULTS_FILE}': sha256(data), '${VITEST_CLAIMS_FILE}': claims } });
  await vitest.close();
}
`;

/**
 * Source of the wrapper of `file` (repository-relative): an ES module that imports the test file
 * (vite transforms it with the repository's plugins, and hoists its `vi.mock` calls as usual) and
 * then registers the canaries (see canaryDeclarations) with `test` from `vitest`. They use the
 * global `expect` when globals are on (what the tests use), else vitest's exported one, and node's
 * `assert`, all looked up when they run. Before the test file loads, the wrapper takes the
 * tripwire's identities (tripwirePreamble); the must-pass canary compares them.
 */
export function vitestWrapperSource(file: string, plan: CanaryPlan, fileSource?: string): string {
  checkCanaryPlan(plan);
  const docblock = environmentDocblock(fileSource);
  const canaries = canaryDeclarations(plan).map(
    ([name, body]) =>
      `patchproofVitest.test(${JSON.stringify(name)}, () => {\n  const e = globalThis.expect ?? patchproofVitest.expect;\n  const a = patchproofAssert;\n${indentBody(body)}\n});`
  );
  return [
    ...(docblock === undefined ? [] : [docblock]),
    '// PatchProof vitest wrapper (generated; see src/adapters/vitest/harness.ts).',
    "import patchproofAssert from 'node:assert';",
    "import * as patchproofVitest from 'vitest';",
    '',
    ...tripwirePreamble('globalThis.expect ?? patchproofVitest.expect'),
    'let patchproofLoadError;',
    'try {',
    `  await import(${JSON.stringify(wrapperSpecifier('vitest', file))});`,
    '} catch (error) {',
    '  patchproofLoadError = error ?? new Error(String(error));',
    '}',
    'if (patchproofLoadError !== undefined) {',
    `  patchproofVitest.test(${JSON.stringify(file)}, () => {`,
    '    throw patchproofLoadError;',
    '  });',
    '}',
    '',
    ...canaries,
    ''
  ].join('\n');
}
