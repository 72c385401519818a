import path from 'node:path';
import { HARNESS_DIR } from '../adapter.js';
import type { CommandRequest, TestAdapter, TestCommand } from '../adapter.js';
import { checkCanaryPlan } from '../shared/canary.js';
import { cargoCanaryFallbackPath, cargoCanaryFallbackSource, cargoTargetName, cargoTargetPath, cargoTargetSource } from './entry.js';
import { CARGO_SKIP_MARKERS, CARGO_SURFACE, cargoSuiteFiles, cargoUnitTestFiles, isCargoTestFile } from './files.js';
import { changedUnitTests } from './unit-tests.js';
import { CARGO_BUILD_FILE, CARGO_HARNESS_FILE, CARGO_HARNESS_SOURCE, CARGO_RUN_FILE } from './harness.js';
import { parseCargoResults } from './results.js';
import { nonDumpableCopy, SUPERVISOR_FILE, SUPERVISOR_SOURCE } from '../shared/supervisor.js';
import { checkTestFiles } from '../shared/test-files.js';
import { PLAIN_ENV } from '../shared/plain-env.js';

/**
 * Runs `node "$@"` from a copy of node the test user may execute but not read, so the harness, the
 * container's PID 1, is non-dumpable: no test binary can reach it through /proc (supervisor.ts).
 */
const CARGO_LAUNCH_SCRIPT = [nonDumpableCopy('nodebin', '$(command -v node)', 'patchproof-node'), 'exec "$nodebin" "$@"'].join('; ');

/**
 * The cargo adapter: `cargo test`'s work done in steps PatchProof can check, by a node harness
 * (cargo-harness.ts): build with `cargo build --frozen --message-format=json`, then run every test
 * binary with libtest's JSON output (`RUSTC_BOOTSTRAP=1` for the test binary only, never for the
 * crate's compilation), its `--list` inventory first. External tests and the grader canaries are
 * compiled into one generated test target (cargo-entry.ts); results are parsed by
 * cargo-results.ts. Which files are tests, the test surface and skip markers are in
 * cargo-files.ts.
 *
 * Requirements: one package with `Cargo.toml` and `Cargo.lock` at the repository root, buildable
 * offline (no dependencies, path dependencies, or vendored sources configured in
 * `.cargo/config.toml`), auto-discovered integration tests (not `autotests = false`). Doc tests are
 * not run (rustdoc compiles them itself).
 */

function cargoCommand(request: CommandRequest): TestCommand {
  const { workdir, resultsDir } = request.view;
  checkTestFiles(request.files);
  checkCanaryPlan(request.canary);
  const external = request.suite ? [] : request.files;
  return {
    argv: [
      'sh',
      '-c',
      CARGO_LAUNCH_SCRIPT,
      'patchproof-cargo',
      path.posix.join(workdir, HARNESS_DIR, CARGO_HARNESS_FILE),
      '--results',
      resultsDir,
      '--target',
      cargoTargetName(request.canary),
      '--mode',
      request.suite ? 'suite' : 'external',
      '--fallback',
      cargoCanaryFallbackPath(request.canary),
      '--supervisor',
      path.posix.join(workdir, HARNESS_DIR, SUPERVISOR_FILE),
      '--',
      ...request.files
    ],
    // A plain run's environment (plain-env.ts): output to a pipe is not coloured anyway.
    env: { ...PLAIN_ENV },
    resultFiles: [CARGO_RUN_FILE, CARGO_BUILD_FILE, 't+([0-9])-list.jsonl', 't+([0-9])-run.jsonl'],
    stage: {
      [cargoTargetPath(request.canary)]: cargoTargetSource(external, request.canary),
      [cargoCanaryFallbackPath(request.canary)]: cargoCanaryFallbackSource(request.canary)
    }
  };
}

/** The cargo adapter (stateless). */
export const cargoAdapter: TestAdapter<'cargo'> = {
  name: 'cargo',
  execTmp: true,
  harness: { [CARGO_HARNESS_FILE]: CARGO_HARNESS_SOURCE, [SUPERVISOR_FILE]: SUPERVISOR_SOURCE },
  // The launcher's $0, the node copy, the canary fallback and its binary say what they are:
  // hidden whole each run (the generated target, tests/patchproof_<nonce>.rs, gets the run's word).
  markerNames: ['patchproof-node', 'patchproof-cargo', 'patchproof_canary', 'patchproof-canary'],
  // The harness is PID 1 and starts every test binary under the supervisor (supervisor.ts).
  pid1: true,
  isTestFile: isCargoTestFile,
  suiteFiles: cargoSuiteFiles,
  surface: CARGO_SURFACE,
  skipMarkers: CARGO_SKIP_MARKERS,
  inSourceTests: { files: cargoUnitTestFiles, changed: changedUnitTests },
  command: cargoCommand,
  parse: parseCargoResults
};
