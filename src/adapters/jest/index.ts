import { jsTwinStage } from '../shared/twin-stage.js';
import path from 'node:path';
import type { CommandRequest, TestAdapter, TestCommand } from '../adapter.js';
import { checkCanaryPlan } from '../shared/canary.js';
import { JEST_CHANNEL_FILE, JEST_CHANNEL_SOURCE } from './channel.js';
import { jestWrapperSource } from './entry.js';
import { JEST_LAUNCH_FILE, JEST_LAUNCH_SOURCE } from './launch.js';
import { JEST_RESULTS_FILE, parseJestResults } from './results.js';
import { isJestTestFile, JEST_SURFACE, jestSuiteFiles, JS_RUNNER_SKIP_MARKERS } from '../shared/js-runner-files.js';
import { wrapperPath, wrapperRoot } from '../shared/js-runner-wrapper.js';
import { HARNESS_DIR } from '../adapter.js';
import { CHANNEL_ENV, channelNonce } from '../shared/results-channel.js';
import { checkTestFiles } from '../shared/test-files.js';
import { PLAIN_ENV } from '../shared/plain-env.js';

/**
 * The jest adapter: the repository's own jest (`node node_modules/jest/bin/jest.js`, installed by
 * the witness pack's dependency stage) runs one generated wrapper per test file (jest-entry.ts),
 * with `--json` results parsed by jest-results.ts. Which files are tests, the test surface and skip
 * markers are in js-runner-files.ts.
 *
 * The repository's jest configuration applies (jest.config.*, package.json "jest": transforms,
 * setup files, environment, module mappers); the command line only overrides what selects the
 * test files — `roots` (the copy), `testMatch` (the wrappers), `testPathIgnorePatterns` — so the
 * wrappers under `.patchproof/` are found whatever the configuration says, and
 * `--runTestsByPath` runs exactly them. Nothing is written into the (read-only) copy: `--ci`
 * never writes snapshots, coverage is off, the transform cache is off and the haste map goes to
 * /tmp; watchman is not used. `--reporters` replaces the configuration's reporters by jest's default
 * one and the results channel (jest-channel.ts). JSON rather than JUnit (jest-junit is not part of jest): it keeps
 * the describe path as a list, the test's line, jest's matcher result and the raw stack.
 */

/** Where jest's haste map goes: /tmp is the one writable place (a tmpfs in Docker). */
export const JEST_CACHE_DIR = '/tmp/patchproof-jest-cache';

function jestCommand(request: CommandRequest): TestCommand {
  const { workdir } = request.view;
  checkTestFiles(request.files);
  checkCanaryPlan(request.canary);
  const files = [...new Set(request.files)];
  // Twin and mutant canaries among the real tests of the same files (js-twins.ts).
  const twinned = jsTwinStage({ ...request, files });
  const stage = {
    ...twinned.stage,
    ...Object.fromEntries(files.map((file) => [wrapperPath('jest', file), jestWrapperSource(file, request.canary, request.readFile?.(file))]))
  };
  return {
    // The flags reach jest through the launcher (launch.ts), never the test process's argv.
    argv: ['node', path.posix.join(workdir, HARNESS_DIR, JEST_LAUNCH_FILE), JSON.stringify(jestFlags(request))],
    env: jestEnv(request),
    resultFiles: [JEST_RESULTS_FILE],
    stage,
    ...(twinned.twins.length > 0 ? { twins: twinned.twins } : {})
  };
}

/**
 * The environment of the test process: a plain run's (issue 28 item 6). No NO_COLOR (the reporters
 * are told `--colors=false`; a variable would change what colour libraries under test do), no CI
 * (`--ci` says it to jest, and the container's CI=true is the layout's, as on any CI runner), no
 * NODE_ENV (jest sets `test` itself when unset; the launcher does the same). TZ and LANG are the
 * container's plain values, named so a host's never leaks in. The results channel's nonce is the
 * one variable of the grader's, under a name hidden each run (src/core/run-names.ts).
 */
function jestEnv(request: CommandRequest): Record<string, string> {
  return { ...PLAIN_ENV, [CHANNEL_ENV]: channelNonce(request.canary) };
}

function jestFlags(request: CommandRequest): string[] {
  const { workdir, resultsDir } = request.view;
  const files = [...new Set(request.files)];
  return [
    '--ci',
    '--json',
    `--outputFile=${path.posix.join(resultsDir, JEST_RESULTS_FILE)}`,
    '--testLocationInResults',
    '--no-cache',
    `--cacheDirectory=${JEST_CACHE_DIR}`,
    '--watchman=false',
    '--coverage=false',
    '--colors=false',
    // jest's own console output, and the results channel (jest-channel.ts).
    '--reporters=default',
    `--reporters=${path.posix.join(workdir, HARNESS_DIR, JEST_CHANNEL_FILE)}`,
    `--roots=${workdir}`,
    `--testMatch=${path.posix.join(workdir, wrapperRoot('jest'))}/**/*.cjs`,
    '--testPathIgnorePatterns=/node_modules/',
    '--runTestsByPath',
    ...files.map((file) => path.posix.join(workdir, wrapperPath('jest', file)))
  ];
}

/** The jest adapter (stateless). */
export const jestAdapter: TestAdapter<'jest'> = {
  name: 'jest',
  harness: { [JEST_CHANNEL_FILE]: JEST_CHANNEL_SOURCE, [JEST_LAUNCH_FILE]: JEST_LAUNCH_SOURCE },
  // The reporter's and the launcher's files and the haste-map folder say what they are: hidden whole each run.
  markerNames: ['patchproof-jest-channel', 'patchproof-jest-launch', 'patchproof-jest-cache'],
  isTestFile: isJestTestFile,
  suiteFiles: jestSuiteFiles,
  importGraph: 'js',
  surface: JEST_SURFACE,
  skipMarkers: JS_RUNNER_SKIP_MARKERS,
  command: jestCommand,
  parse: parseJestResults
};
