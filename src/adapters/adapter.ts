import type { ParsedResults } from '../core/test-results.js';
import type { RunView } from '../runners/runner.js';

/** The test ecosystems PatchProof knows. Later adapters add names here. */
export type AdapterName = 'node-test' | 'unittest';

export const ADAPTER_NAMES: readonly AdapterName[] = ['node-test', 'unittest'];

/** The reserved namespace inside every disposable copy; diffs may never touch it. */
export const RESERVED_DIR = '.patchproof';
/** Where adapter harness files (reporters, result writers) are staged in a copy. */
export const HARNESS_DIR = `${RESERVED_DIR}/harness`;

export interface CommandRequest {
  view: RunView;
  /**
   * Test files to run, relative to the copy's root (external tests staged under `.patchproof/`).
   * Undefined means the repository's own suite, discovered the adapter's default way (regression).
   */
  files?: string[];
  /** The folder (relative to the copy root) those files were staged under, when `files` is set. */
  testRoot?: string;
}

export interface TestCommand {
  argv: string[];
  /** Only these variables reach the test process (besides what the runner adds: HOME, TMPDIR, PATH). */
  env: Record<string, string>;
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
}

/**
 * One test ecosystem: how to run tests and how to read their structured results.
 * `parse` is pure (strings in, data out) so it is tested on real result files.
 */
export interface TestAdapter {
  readonly name: AdapterName;
  /** Files staged under HARNESS_DIR in every copy, by file name. */
  readonly harness: Readonly<Record<string, string>>;
  /** File names (relative to the reproduction/hidden folders) that this adapter treats as tests. */
  isTestFile(relativePath: string): boolean;
  command(request: CommandRequest): TestCommand;
  parse(request: ParseRequest): ParsedResults;
}
