import { jsTwinStage } from '../shared/twin-stage.js';
import path from 'node:path';
import { HARNESS_DIR } from '../adapter.js';
import type { CommandRequest, TestAdapter, TestCommand } from '../adapter.js';
import { checkCanaryPlan } from '../shared/canary.js';
import { isVitestTestFile, JS_RUNNER_SKIP_MARKERS, VITEST_SURFACE, vitestSuiteFiles } from '../shared/js-runner-files.js';
import { wrapperPath } from '../shared/js-runner-wrapper.js';
import { CHANNEL_ENV, channelNonce } from '../shared/results-channel.js';
import { checkTestFiles } from '../shared/test-files.js';
import { PLAIN_ENV } from '../shared/plain-env.js';
import { VITEST_CLAIMS_FILE, VITEST_RESULTS_FILE, VITEST_RUNNER_FILE, VITEST_RUNNER_SOURCE, vitestWrapperSource } from './harness.js';
import { parseVitestResults } from './results.js';

/**
 * The vitest adapter: PatchProof's runner script (vitest-harness.ts) starts the repository's own
 * vitest (from the copy's node_modules, installed by the witness pack's dependency stage) on one
 * generated wrapper per test file, and writes the task tree that vitest-results.ts parses. Which
 * files are tests, the test surface and skip markers are in js-runner-files.ts.
 *
 * `allowOnly: false` and `update: false` (through vitest's API) make vitest refuse `.only` (a file
 * with one fails, its canaries are skipped) and never write a new snapshot, as in any CI; the
 * environment is a plain run's (plain-env.ts).
 */

function vitestCommand(request: CommandRequest): TestCommand {
  const { workdir, resultsDir } = request.view;
  checkTestFiles(request.files);
  checkCanaryPlan(request.canary);
  const files = [...new Set(request.files)];
  // Twin and mutant canaries among the real tests of the same files (js-twins.ts).
  const twinned = jsTwinStage({ ...request, files });
  const stage = {
    ...twinned.stage,
    ...Object.fromEntries(files.map((file) => [wrapperPath('vitest', file), vitestWrapperSource(file, request.canary, request.readFile?.(file))]))
  };
  return {
    argv: [
      'node',
      path.posix.join(workdir, HARNESS_DIR, VITEST_RUNNER_FILE),
      path.posix.join(resultsDir, VITEST_RESULTS_FILE),
      path.posix.join(resultsDir, VITEST_CLAIMS_FILE),
      ...files.map((file) => wrapperPath('vitest', file))
    ],
    // A plain run's environment (plain-env.ts): `.only` and snapshot writes are refused through vitest's API.
    env: { ...PLAIN_ENV, [CHANNEL_ENV]: channelNonce(request.canary) },
    resultFiles: [VITEST_RESULTS_FILE, VITEST_CLAIMS_FILE],
    stage,
    ...(twinned.twins.length > 0 ? { twins: twinned.twins } : {})
  };
}

/** The vitest adapter (stateless). */
export const vitestAdapter: TestAdapter<'vitest'> = {
  name: 'vitest',
  harness: { [VITEST_RUNNER_FILE]: VITEST_RUNNER_SOURCE },
  // The runner's temporary config folder and vite's cache folder say what they are: hidden whole each run.
  markerNames: ['patchproof-vitest-config-', 'patchproof-vite-cache'],
  isTestFile: isVitestTestFile,
  suiteFiles: vitestSuiteFiles,
  importGraph: 'js',
  surface: VITEST_SURFACE,
  skipMarkers: JS_RUNNER_SKIP_MARKERS,
  command: vitestCommand,
  parse: parseVitestResults
};
