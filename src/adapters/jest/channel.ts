import { CHANNEL_ENV, FRAME_MARK } from '../shared/results-channel.js';

/**
 * The jest adapter's results channel (see results-channel.ts): a reporter, staged as
 * `.patchproof/harness/patchproof-jest-channel.cjs` and named with `--reporters`, that runs in
 * jest's main process. As each test file finishes (`onTestResult`) it writes, straight to that
 * process's fd 1, one frame per test (`jestFrameId`: file, describe path, title; jest's own status)
 * and one for the file (the status jest's `--json` gives it); `onRunComplete` writes the final
 * frame with the count.
 *
 * jest writes its `--outputFile` only after every reporter finished, so the final frame cannot seal
 * the file's digest: the per-test frames are the whole check. A rewrite of the JSON by the code
 * under test at exit (the real `process`, reached from the sandbox through a constructor) or by a
 * child it left behind changes an outcome the frames already gave, and disagrees.
 */

/** File name of the staged reporter (under HARNESS_DIR; outside the wrappers' testMatch). */
export const JEST_CHANNEL_FILE = 'patchproof-jest-channel.cjs';

/** The channel's id of one test of jest's JSON (`file` is the result's `name`, the absolute path). */
export function jestFrameId(file: string, ancestorTitles: readonly string[], title: string): string {
  return JSON.stringify([file, ...ancestorTitles, title]);
}

/** The channel's id of a test file's own record. */
export function jestFileFrameId(file: string): string {
  return JSON.stringify([file]);
}

/** Source of the reporter (CommonJS, plain JavaScript, jest 27 or later). */
export const JEST_CHANNEL_SOURCE = `// PatchProof results channel for jest (generated; see src/adapters/jest/channel.ts).
'use strict';
const { writeSync } = require('node:fs');

const NONCE = /^[0-9a-f]{64}$/.test(process.env.${CHANNEL_ENV} || '') ? process.env.${CHANNEL_ENV} : undefined;

function frame(kind, value) {
  if (NONCE === undefined) return;
  try {
    writeSync(1, '\\n${FRAME_MARK} ' + NONCE + ' ' + kind + ' ' + JSON.stringify(value) + '\\n');
  } catch {
    // a closed stdout loses the frames: the host then finds the final frame missing
  }
}

// The status jest's --json gives a test file (@jest/test-result's formatTestResult).
function fileStatus(result) {
  if (result.testExecError) return 'failed';
  if (result.skipped) return 'skipped';
  if (result.numFailingTests !== 0) return 'failed';
  return result.numPendingTests === 0 ? 'passed' : 'focused';
}

class PatchProofChannel {
  constructor() {
    this.tests = 0;
  }

  onTestResult(test, result) {
    for (const one of result.testResults || []) {
      this.tests += 1;
      frame('test', { id: JSON.stringify([result.testFilePath, ...one.ancestorTitles, one.title]), status: one.status });
    }
    this.tests += 1;
    frame('test', { id: JSON.stringify([result.testFilePath]), status: fileStatus(result) });
  }

  onRunComplete() {
    frame('end', { tests: this.tests });
  }

  getLastError() {
    return undefined;
  }
}

module.exports = PatchProofChannel;
`;
