import path from 'node:path';
import { ConfigurationError } from '../../errors.js';
import { HARNESS_DIR } from '../adapter.js';
import type { CommandRequest, TestAdapter, TestCommand } from '../adapter.js';
import { checkCanaryPlan } from '../shared/canary.js';
import { checkRelativePath, checkTestFiles } from '../shared/test-files.js';
import { pythonTwinStage } from '../shared/twin-stage.js';
import { isUnittestFile, UNITTEST_SKIP_MARKERS, UNITTEST_SURFACE, unittestSuiteFiles } from '../shared/unittest-files.js';
import { UNITTEST_HARNESS_FILE, UNITTEST_HARNESS_SOURCE } from './harness.js';
import { parseUnittestResults, UNITTEST_RESULTS_FILE } from './results.js';

/**
 * The unittest adapter: Python's unittest, run through PatchProof's harness (unittest-harness.ts),
 * which discovers the tests, appends the grader canaries and writes one JSON document, parsed by
 * unittest-results.ts. Which files are tests, the test surface and skip markers are in
 * unittest-files.ts.
 *
 * The regression suite is discovered from the repository root, as `python -m unittest` does, so
 * `files` then only documents what discovery covers; staged external tests are discovered from
 * their folder (`testRoots[0]`), and every one of `files` must be a module discovery there runs.
 */

/** The harness's `--start`/`--top` folder for staged external tests, after checking the files lie in it. */
function externalTestFolder(request: CommandRequest): string {
  const folder = request.testRoots[0];
  if (folder === undefined) {
    throw new ConfigurationError('unittest needs the folder the external tests were staged under (testRoots[0]) to discover them');
  }
  checkRelativePath(folder, 'test folder');
  const prefix = `${folder.replace(/\/+$/, '')}/`;
  const skipped = request.files.filter((file) => !isUnittestFile(file) || !file.startsWith(prefix));
  if (skipped.length > 0) {
    throw new ConfigurationError(`unittest discovers test*.py modules under '${folder}' only; would not run: ${skipped.join(', ')}`);
  }
  return folder;
}

function unittestCommand(request: CommandRequest): TestCommand {
  const { workdir, resultsDir } = request.view;
  checkTestFiles(request.files);
  checkCanaryPlan(request.canary);
  const argv = [
    'python3',
    '-B',
    path.posix.join(workdir, HARNESS_DIR, UNITTEST_HARNESS_FILE),
    '--repo',
    workdir,
    '--results',
    path.posix.join(resultsDir, UNITTEST_RESULTS_FILE),
    '--seed',
    request.canary.nonce
  ];
  if (!request.suite) {
    const start = path.posix.join(workdir, externalTestFolder(request));
    argv.push('--start', start, '--top', start);
  }
  // Twin and mutant canaries among the real tests of the same files (python-twins.ts).
  const { stage, twins } = pythonTwinStage('unittest', request);
  return {
    argv,
    env: { PYTHONDONTWRITEBYTECODE: '1', PYTHONHASHSEED: '0', PYTHONNOUSERSITE: '1', PYTHONIOENCODING: 'utf-8', TZ: 'UTC', LANG: 'C.UTF-8' },
    resultFiles: [UNITTEST_RESULTS_FILE],
    stage,
    ...(twins.length > 0 ? { twins } : {})
  };
}

/** The unittest adapter (stateless). */
export const unittestAdapter: TestAdapter<'unittest'> = {
  name: 'unittest',
  harness: { [UNITTEST_HARNESS_FILE]: UNITTEST_HARNESS_SOURCE },
  // The harness's module name (`patchproof_unittest`) says what it is: hidden whole each run.
  markerNames: ['patchproof_unittest'],
  isTestFile: isUnittestFile,
  suiteFiles: unittestSuiteFiles,
  importGraph: 'python',
  surface: UNITTEST_SURFACE,
  skipMarkers: UNITTEST_SKIP_MARKERS,
  command: unittestCommand,
  parse: parseUnittestResults
};
