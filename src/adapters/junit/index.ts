import { jsTwinStage } from '../shared/twin-stage.js';
import path from 'node:path';
import picomatch from 'picomatch';
import { ConfigurationError } from '../../errors.js';
import { HARNESS_DIR } from '../adapter.js';
import type { CommandRequest, TestAdapter, TestCommand } from '../adapter.js';
import { expandJunitArgv, JUNIT_CANARY_DIR } from './config.js';
import type { JunitConfig } from './config.js';
import { parseJunitGenericResults } from './results.js';
import { junitFileCanaries } from './file-canaries.js';
import { JUNIT_CHANNEL_FILE, JUNIT_CHANNEL_SOURCE, junitChannelArgv } from './channel.js';
import { CHANNEL_ENV, channelNonce } from '../shared/results-channel.js';
import { checkRelativePath, checkTestFiles, selectSuiteFiles } from '../shared/test-files.js';

/**
 * The generic `junit` adapter: runs whatever command the witness pack's `junit` block gives and
 * reads the JUnit XML it writes (junit-generic-results.ts). It knows no framework, so:
 *
 * - the pack says which files are tests (`junit.tests` globs: the suite, the pack's own folders and
 *   the test surface);
 * - the pack brings the grader canaries: its `junit.canary.path` folder holds one must-pass and one
 *   must-fail test in the pack's framework. They are staged under `.patchproof/harness/canary/` in
 *   every copy, appended to `{files}` in every run, and recognised in the results by the ids the
 *   pack names. Those ids are fixed, which is acceptable because the pack is hidden from the
 *   candidate; the canary tests should import the code under test, so that they run in a process
 *   where it was loaded (node's test runner, for one, gives each file a process of its own);
 * - test configuration and dependency manifests are not known: the pack lists them under
 *   `protected`;
 * - the command runs under the results channel's wrapper, PID 1 of the container, which alone
 *   knows the channel's nonce and seals the result files once the command ended
 *   (junit-channel.ts); JS test files written for node's test runner also get canaries of their
 *   own, inside their own process (junit-file-canaries.ts).
 */

/** The run's JS/TS test files as the copy holds them (none when the copy cannot be read). */
function readJsFiles(request: CommandRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of request.files) {
    if (!/\.[cm]?[jt]sx?$/.test(file)) continue;
    const text = request.readFile?.(file);
    if (text !== undefined) out[file] = text;
  }
  return out;
}

/** Folders never searched for the repository's suite (installed packages). */
const NOT_SUITE = ['node_modules', 'vendor', 'target', 'site-packages', '__pycache__'];

/**
 * Lines that skip, focus or expect-fail a test in the common frameworks: `.skip(` / `.only(` /
 * `.todo(` (node:test, mocha, jest, vitest), `xit(`-style, `skip:`/`only:`/`todo:` options,
 * `@Disabled` / `@Ignore` / `@skip` (JUnit, unittest), `t.Skip(` (Go), `#[ignore` (Rust), xfail and
 * pytest's skip marks. Conservative: a false positive is a reported finding, never a pass.
 */
export const JUNIT_SKIP_MARKERS: readonly RegExp[] = [
  /\.(?:skip|only|todo)\s*\(/,
  /\bx(?:it|test|describe)\s*\(/,
  /\b(?:skip|only|todo)\s*:\s*(?!false\b)\S/,
  /@\s*(?:Disabled|Ignore|Skip|skip|unittest\.skip)\w*/,
  /\bt\.Skip(?:Now|f)?\s*\(/,
  /#\[\s*ignore\b/,
  /\bxfail\b/,
  /\bpytest\.(?:mark\.skip|skip\s*\()/
];

/**
 * The junit adapter for one pack: its `junit` block and the files of its canary folder (path
 * relative to that folder → UTF-8 text). Throws a ConfigurationError when the canary folder holds no
 * file the `tests` globs call a test.
 */
export function junitAdapter(config: JunitConfig, canaryFiles: Readonly<Record<string, string>>): TestAdapter<'junit'> {
  const isTest = picomatch(config.tests, { dot: true });
  for (const file of Object.keys(canaryFiles)) {
    checkRelativePath(file, 'canary file');
  }
  const canaryTests = Object.keys(canaryFiles)
    .filter((file) => isTest(file))
    .sort()
    .map((file) => `${HARNESS_DIR}/${JUNIT_CANARY_DIR}/${file}`);
  if (canaryTests.length === 0) {
    throw new ConfigurationError(
      `the witness pack's junit.canary.path folder '${config.canary.path}' holds no test file matching junit.tests; add a must-pass and a must-fail test to it`
    );
  }
  const command = (request: CommandRequest): TestCommand => {
    checkTestFiles(request.files);
    const { workdir, resultsDir } = request.view;
    // JS/TS test files get twin and mutant canaries inside each file, so in each test file's
    // process (js-twins.ts); other languages have none (sealed oracles are the answer there).
    const twinned = jsTwinStage(request);
    // ...and files written for node's test runner get grader canaries of their own, in their own
    // process (junit-file-canaries.ts); the pack's canaries still run as their own file.
    const own = junitFileCanaries(readJsFiles(request), twinned.stage, request.canary, twinned.twins);
    const stage = { ...twinned.stage, ...own.stage };
    const twins = [...twinned.twins, ...own.twins];
    const argv = expandJunitArgv(config.argv, { workdir, results: resultsDir, files: [...request.files, ...canaryTests] });
    return {
      // The pack's command under the results channel's wrapper (junit-channel.ts), which takes the
      // nonce out of the environment before it starts the command.
      argv: junitChannelArgv(path.posix.join(workdir, HARNESS_DIR, JUNIT_CHANNEL_FILE), resultsDir, argv),
      env: { TZ: 'UTC', LANG: 'C.UTF-8', [CHANNEL_ENV]: channelNonce(request.canary) },
      resultFiles: [config.report],
      stage,
      ...(twins.length > 0 ? { twins } : {})
    };
  };
  return {
    name: 'junit',
    // The wrapper's file and the canary folder say what they are: hidden whole each run (the
    // folder at its depth, src/core/run-names.ts).
    markerNames: ['patchproof-junit-channel', `${HARNESS_DIR}/${JUNIT_CANARY_DIR}`],
    // The results channel's wrapper is PID 1 (no docker-init), non-dumpable (junit-channel.ts).
    pid1: true,
    harness: {
      ...Object.fromEntries(Object.entries(canaryFiles).map(([file, text]) => [`${JUNIT_CANARY_DIR}/${file}`, text])),
      [JUNIT_CHANNEL_FILE]: JUNIT_CHANNEL_SOURCE
    },
    isTestFile: (relativePath) => isTest(relativePath),
    suiteFiles: (paths) => selectSuiteFiles(paths, (file) => isTest(file) && !file.split('/').some((part) => part.startsWith('.')), NOT_SUITE),
    surface: { tests: [...config.tests], config: [], dependencies: [] },
    skipMarkers: JUNIT_SKIP_MARKERS,
    command,
    parse: (request) => parseJunitGenericResults(request, { report: config.report, isTestPath: (file) => isTest(file), canary: config.canary })
  };
}
