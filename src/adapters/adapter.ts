import type { ParsedResults, TestStatus } from '../core/test-results.js';
import type { RunView } from '../runners/runner.js';

/** The reserved namespace inside every disposable copy; diffs may never touch it. */
export const RESERVED_DIR = '.patchproof';
/** Where adapter harness files (reporters, result writers) are staged in a copy. */
export const HARNESS_DIR = `${RESERVED_DIR}/harness`;

/**
 * Grader canaries: two generated tests with names made from a fresh random nonce, run in the same
 * process as the tests (after the code under test was imported), one that must pass and one that
 * must fail. Code that rewrites failures into successes turns the must-fail canary green.
 */
export interface CanaryPlan {
  /** Lowercase hex, fresh per run. */
  nonce: string;
}

/**
 * A generated copy of a real test, placed among the real tests of the same file (see
 * python-twins.ts). Its role stays on the host: the test process only sees one more test.
 * - `twin`: an exact copy; it must end as its original does (both passed, or both not).
 * - `mutant`: a copy with one assertion perturbed; when its original passed, it must fail.
 */
export interface TwinCanary {
  /** Repository-relative file the copy is in. */
  file: string;
  /** Class holding it, or null for a module-level test function. */
  owner: string | null;
  /** The copy's function name (unique in the run). */
  name: string;
  /** The original test function's name, in the same owner and file. */
  of: string;
  kind: 'twin' | 'mutant';
  /** The copy was inserted after this line of the original file... */
  after: number;
  /** ...as this many lines (reported locations of the real tests are mapped back). */
  lines: number;
}

/** What the canaries of a run did, as parsed from its results. */
export interface CanaryOutcome {
  /** Status of the must-pass canary, or 'missing' when it is absent from the results. */
  pass: TestStatus | 'missing';
  /** Status of the must-fail canary, or 'missing'. Only 'failed' (an assertion failure) is right. */
  fail: TestStatus | 'missing';
  /**
   * What the tripwire found changed in the grader (shared/tripwire.ts), as the must-pass canary's
   * failure named it (`node:assert/strict.throws replaced`); absent when it named nothing.
   */
  changed?: string[];
}

export interface CommandRequest {
  view: RunView;
  /**
   * Test files to run, relative to the copy's root: the staged external tests, or for the
   * regression suite the files `suiteFiles()` chose. Never empty.
   */
  files: string[];
  /** True for the repository's own suite (regression); false for staged external tests. */
  suite: boolean;
  /** Repository-relative folders holding the external tests of this run; empty for the suite. */
  testRoots: string[];
  canary: CanaryPlan;
  /**
   * False turns twin and mutant canaries off (adapter tests of other behaviour, which assert exact
   * line numbers and tallies); validation always leaves them on.
   */
  twins?: false;
  /**
   * Reads a repository-relative file of the copy as UTF-8 (undefined when absent), for adapters
   * whose generated files depend on the sources (e.g. a Go package clause). Never for tests' results.
   */
  readFile?: (path: string) => string | undefined;
}

export interface TestCommand {
  argv: string[];
  /** Only these variables reach the test process (besides what the runner adds: HOME, TMPDIR, PATH). */
  env: Record<string, string>;
  /** Generated files to write into the copy before the run (repository-relative path → text). */
  stage: Record<string, string>;
  /** Twin and mutant canaries placed into staged test files (their roles never enter the container). */
  twins?: TwinCanary[];
  /**
   * Globs (picomatch, relative to the results directory) of the only result files `parse` reads;
   * nothing else the run writes there is collected or read.
   */
  resultFiles: readonly string[];
  /**
   * Top-level test names the staged test files declare (read by the host from the pack's files):
   * each must appear in the results of a run whose test binary ended normally. Set by adapters
   * whose framework can be told in-process to leave tests out (go's -test.skip via flag.Set).
   */
  declared?: readonly string[];
}

export interface ParseRequest {
  /** Result files the run wrote, by name (relative to the results directory), as UTF-8 text. */
  files: Record<string, string>;
  /** The run's exit code, for adapters whose format needs it. */
  exitCode: number | null;
  /** The copy root as the test process saw it, to make stack paths repository-relative. */
  workdir: string;
  /** Repository-relative folders holding the test files of this run (to tell test code from code under test). */
  testRoots: string[];
  /** The canary the command was built with; its tests are taken out of `tests` into `canary`. */
  canary: CanaryPlan;
  /** The run's stdout, read by the host as it came (the results channel's frames); never stderr, whose bytes can cut a stdout line in the combined stream. */
  output?: string;
  /** `TestCommand.declared` of the command that ran. */
  declared?: readonly string[];
  /**
   * SHA-256 (hex) of each result file's UTF-8 text as the run wrote it, by name, before the run's
   * neutral names were turned back into the host's (src/core/run-names.ts): a harness seals those
   * bytes. Absent: `files` are as written.
   */
  resultDigests?: Readonly<Record<string, string>>;
}

/**
 * Globs (picomatch syntax, matched against repository-relative paths) describing an ecosystem's
 * test surface: what a candidate may not touch without it being reported.
 */
export interface TestSurface {
  /** Test files. */
  tests: readonly string[];
  /** Test configuration: runner configs, conftest.py, package.json (scripts), CI files. */
  config: readonly string[];
  /** Dependency manifests and lockfiles. */
  dependencies: readonly string[];
}

/**
 * One test ecosystem: how to run tests and how to read their structured results.
 * `parse` is pure (strings in, data out) so it is tested on real result files.
 */
export interface TestAdapter<Name extends string = string> {
  /** The adapter's name: its key in registry.ts's table (the only list of names; AdapterName is derived there). */
  readonly name: Name;
  /**
   * True when the toolchain builds and then executes binaries under /tmp (go test, cargo test): the
   * Docker runner then mounts /tmp without noexec for this adapter's runs (still nosuid, nodev,
   * size-capped and discarded with the container).
   */
  readonly execTmp?: boolean;
  /**
   * True when the adapter's command must be the container's PID 1 (no docker-init): its harness
   * supervises the test binaries (src/adapters/shared/supervisor.ts).
   */
  readonly pid1?: boolean;
  /** Files staged under HARNESS_DIR in every copy, by file name. */
  readonly harness: Readonly<Record<string, string>>;
  /**
   * Names this adapter gives generated modules, files and variables that hold `patchproof` and say
   * what they are (`PATCHPROOF_CANARY_ORDER`, `patchproof_canary`): each run replaces each one whole
   * by a random word (src/core/run-names.ts); any other `patchproof` becomes the run's random word.
   */
  readonly markerNames?: readonly string[];
  /** File names (relative to the reproduction/hidden folders) that this adapter treats as tests. */
  isTestFile(relativePath: string): boolean;
  /**
   * The repository's own suite among all files of a tree (repository-relative, '/'-separated):
   * what the runner would discover by default, never anything under RESERVED_DIR or dependencies.
   */
  suiteFiles(paths: readonly string[]): string[];
  readonly surface: TestSurface;
  /** Patterns that, on a line the candidate adds to a test file, skip, focus or expect-fail a test. */
  readonly skipMarkers: readonly RegExp[];
  /**
   * Unit tests that live in the code's own files (cargo's `#[cfg(test)]` modules in `src/`), which
   * no path glob can put on the surface: which files may hold them, and which of the base's such
   * tests the candidate removed or changed (src/inventory/surface/in-source-tests.ts makes them findings).
   */
  readonly inSourceTests?: {
    files(paths: readonly string[]): string[];
    changed(baseFiles: ReadonlyMap<string, string>, patched: ReadonlyMap<string, string | undefined>): { path: string; changed: string[] }[];
  };
  /**
   * How L3's first tier finds the suite files that import a changed module (src/core/related-tests.ts):
   * `js` for the JS/TS import graph, `python` for the host's `ast` (src/adapters/shared/python-imports.ts). Absent: the adapter cannot tell, and the tier is skipped.
   */
  readonly importGraph?: 'js' | 'python';
  command(request: CommandRequest): TestCommand;
  /** Parse a run's results; canary tests are reported in `canary`, never in `tests`. */
  parse(request: ParseRequest): ParsedResults & { canary: CanaryOutcome };
}
