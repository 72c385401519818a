import path from 'node:path';
import { HARNESS_DIR } from '../adapter.js';
import type { CommandRequest, TestAdapter, TestCommand } from '../adapter.js';
import { checkCanaryPlan } from '../shared/canary.js';
import { isNodeTestFile, NODE_TEST_SKIP_MARKERS, NODE_TEST_SURFACE, nodeTestSuiteFiles } from '../shared/node-test-files.js';
import { nodeTestEntryPath, nodeTestEntrySource } from './entry.js';
import { NODE_TEST_RESULTS_FILE } from './lines.js';
import { NODE_TEST_REPORTER_FILE, NODE_TEST_REPORTER_SOURCE } from './reporter.js';
import { parseNodeTestResults } from './results.js';
import { CHANNEL_ENV, channelNonce } from '../shared/results-channel.js';
import { checkTestFiles } from '../shared/test-files.js';
import { PLAIN_ENV } from '../shared/plain-env.js';
import { jsTwinStage } from '../shared/twin-stage.js';

/**
 * The node-test adapter: node's built-in runner (`node --test`) on one generated entry module that
 * imports the run's test files and then registers the grader canaries, all in one process
 * (node-test-entry.ts, which also says what that costs), reported through PatchProof's JSON-lines
 * reporter (node-test-reporter.ts) and parsed by node-test-results.ts. Which files are tests, the
 * test surface and skip markers are in node-test-files.ts.
 */

function nodeTestCommand(request: CommandRequest): TestCommand {
  const { workdir, resultsDir } = request.view;
  checkTestFiles(request.files);
  checkCanaryPlan(request.canary);
  const entry = nodeTestEntryPath(request.canary);
  // Twin and mutant canaries among the real tests of the same files (js-twins.ts).
  const { stage, twins } = jsTwinStage(request);
  return {
    argv: [
      'node',
      '--test',
      `--test-reporter=${path.posix.join(workdir, HARNESS_DIR, NODE_TEST_REPORTER_FILE)}`,
      `--test-reporter-destination=${path.posix.join(resultsDir, NODE_TEST_RESULTS_FILE)}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      entry
    ],
    // The results channel's nonce, for the reporter (node-test-reporter.ts).
    env: { ...PLAIN_ENV, [CHANNEL_ENV]: channelNonce(request.canary) },
    resultFiles: [NODE_TEST_RESULTS_FILE],
    stage: { ...stage, [entry]: nodeTestEntrySource(request.files, request.canary) },
    ...(twins.length > 0 ? { twins } : {})
  };
}

/** The node-test adapter (stateless). */
export const nodeTestAdapter: TestAdapter<'node-test'> = {
  name: 'node-test',
  harness: { [NODE_TEST_REPORTER_FILE]: NODE_TEST_REPORTER_SOURCE },
  // The reporter's file name (`patchproof-reporter.mjs`) says what it is: hidden whole each run.
  markerNames: ['patchproof-reporter'],
  isTestFile: isNodeTestFile,
  suiteFiles: nodeTestSuiteFiles,
  importGraph: 'js',
  surface: NODE_TEST_SURFACE,
  skipMarkers: NODE_TEST_SKIP_MARKERS,
  command: nodeTestCommand,
  parse: parseNodeTestResults
};
