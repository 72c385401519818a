import path from 'node:path';
import { HARNESS_DIR } from '../adapter.js';
import type { CommandRequest, TestAdapter, TestCommand } from '../adapter.js';
import { canaryNames, canaryRunOrder, checkCanaryPlan } from '../shared/canary.js';
import { checkTestFiles } from '../shared/test-files.js';
import { pythonTwinStage } from '../shared/twin-stage.js';
import { isPytestFile, PYTEST_SKIP_MARKERS, PYTEST_SURFACE, pytestSuiteFiles } from './files.js';
import { PYTEST_CANARY_ENV, PYTEST_PLUGIN_FILE, PYTEST_PLUGIN_MODULE, PYTEST_PLUGIN_SOURCE, PYTEST_STAGED_ENV } from './harness.js';
import { parsePytestResults, PYTEST_RESULTS_FILE } from './results.js';
import { CHANNEL_ENV, channelNonce } from '../shared/results-channel.js';

/**
 * The pytest adapter: runs `python3 -m pytest` on the given test files with JUnit XML output
 * (parsed by pytest-results.ts through junit-xml.ts) and PatchProof's canary plugin
 * (pytest-harness.ts). Which files are tests, the test surface and skip markers are in
 * pytest-files.ts.
 *
 * The repository's own pytest configuration (pytest.ini, conftest.py) applies, as it would for
 * its developers; the rootdir is pinned to the copy so test ids do not depend on where an ini file
 * is. Collection errors do not stop the run, so one broken module does not hide the rest.
 */

/** `PATCHPROOF_CANARY_ORDER`: the canary names in run order, each tagged with what it must do. */
export function pytestCanaryOrder(request: CommandRequest): string {
  const names = canaryNames(request.canary);
  return canaryRunOrder(request.canary)
    .map((name) => `${name}=${name === names.pass ? 'pass' : 'fail'}`)
    .join(',');
}

function pytestCommand(request: CommandRequest): TestCommand {
  const { workdir, resultsDir } = request.view;
  checkTestFiles(request.files);
  checkCanaryPlan(request.canary);
  const argv = [
    'python3',
    '-B',
    '-m',
    'pytest',
    '-p',
    'no:cacheprovider',
    '-p',
    PYTEST_PLUGIN_MODULE,
    '-q',
    '--tb=native',
    '--continue-on-collection-errors',
    `--rootdir=${workdir}`,
    `--junitxml=${path.posix.join(resultsDir, PYTEST_RESULTS_FILE)}`,
    '-o',
    'junit_family=xunit1',
    '--',
    ...request.files.map((file) => path.posix.join(workdir, file))
  ];
  // Twin and mutant canaries among the real tests of the same files (python-twins.ts).
  const { stage, twins } = pythonTwinStage('pytest', request);
  return {
    argv,
    env: {
      PYTHONPATH: path.posix.join(workdir, HARNESS_DIR),
      [PYTEST_CANARY_ENV]: pytestCanaryOrder(request),
      // Staged tests must be the staged files' own (pytest-harness.ts); never for the suite.
      ...(request.suite || request.testRoots.length === 0 ? {} : { [PYTEST_STAGED_ENV]: request.testRoots.map((root) => path.posix.join(workdir, root)).join(':') }),
      // The results channel's nonce (pytest-harness.ts frames each finished test with it).
      [CHANNEL_ENV]: channelNonce(request.canary),
      // Only the plugins named with -p load: no entry point of any *.dist-info on sys.path.
      PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONHASHSEED: '0',
      PYTHONNOUSERSITE: '1',
      PYTHONIOENCODING: 'utf-8',
      TZ: 'UTC',
      LANG: 'C.UTF-8'
    },
    resultFiles: [PYTEST_RESULTS_FILE],
    stage,
    ...(twins.length > 0 ? { twins } : {})
  };
}

/** The pytest adapter (stateless). */
export const pytestAdapter: TestAdapter<'pytest'> = {
  name: 'pytest',
  harness: { [PYTEST_PLUGIN_FILE]: PYTEST_PLUGIN_SOURCE },
  // The plugin's module and the variables say what they are: hidden whole each run.
  markerNames: [PYTEST_PLUGIN_MODULE, PYTEST_CANARY_ENV, PYTEST_STAGED_ENV],
  isTestFile: isPytestFile,
  suiteFiles: pytestSuiteFiles,
  importGraph: 'python',
  surface: PYTEST_SURFACE,
  skipMarkers: PYTEST_SKIP_MARKERS,
  command: pytestCommand,
  parse: parsePytestResults
};
