/**
 * The one interface through which candidate code is executed. The trusted-local runner and the
 * hardened Docker runner both implement it; the orchestrator never runs a test process itself.
 */

/** What the receipt records about the runner. */
export interface RunnerDescription {
  kind: 'local' | 'docker';
  /** True only for a runner that contains the candidate (no network, read-only, non-root...). */
  isolated: boolean;
  /** Docker only: the image reference as given, and the resolved local image ID. */
  image?: string;
  image_id?: string;
  /** The security-relevant settings in force, e.g. `network=none`, `user=65534:65534`. */
  settings: string[];
}

/** Paths as the test process sees them (the host paths for the local runner, mount points in Docker). */
export interface RunView {
  /** The repository copy: the working directory of the test process. */
  workdir: string;
  /** The only directory the test process may write results into. */
  resultsDir: string;
}

/** A host folder shown to the test process at a repository-relative path inside its copy. */
export interface RunMount {
  /** Repository-relative folder ('/'-separated); it must not exist in the copy's tree. */
  path: string;
  hostDir: string;
  /** Only the dependency stage writes into its outputs; every test run sees them read-only. */
  writable: boolean;
}

export interface RunRequest {
  /** Host path of the disposable repository copy (external tests and harness already staged in it). */
  hostWorkdir: string;
  /** Host path of an empty directory for structured results. */
  hostResultsDir: string;
  /** The command, built by the adapter against `view(...)`. */
  argv: string[];
  /** The complete environment of the test process (nothing is inherited from the host). */
  env: Record<string, string>;
  timeoutMs: number;
  /** Combined stdout+stderr bytes kept; past it the process is killed and the run is `outputTruncated`. */
  outputLimitBytes: number;
  /** A label for logs and container names, e.g. `reproduction_before`. */
  label: string;
  /** Dependency outputs shown inside the copy (the dependency stage's, or its cached result). */
  mounts?: RunMount[];
  /** Network for this run: only the dependency stage may ask, and only when its pack opts in. */
  network?: boolean;
  /**
   * Globs (picomatch, relative to the results directory) of the result files the adapter reads.
   * Only these are collected after the run; anything else the run wrote there is discarded.
   * Absent: everything, still bounded by the runner's file cap and deadline.
   */
  resultFiles?: readonly string[];
  /** The toolchain executes what it builds under /tmp (go test, cargo test): /tmp without noexec. */
  execTmp?: boolean;
  /**
   * False: the command is the container's PID 1 (no docker-init), for harnesses that supervise
   * their test binaries (src/adapters/shared/supervisor.ts). The local runner ignores it.
   */
  init?: boolean;
  /**
   * Aborted when the run is no longer needed (the scheduler's early exit): the runner stops it as
   * on a timeout. Such a run's outcome is discarded, never judged.
   */
  signal?: AbortSignal;
}

export interface RunOutcome {
  /** Exit code of the test process; null when it was killed by a signal or never exited. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal: string | null;
  timedOut: boolean;
  outputTruncated: boolean;
  /** Combined output, at most `outputLimitBytes` bytes (decoded as UTF-8). */
  output: string;
  /**
   * The kept bytes that came from the process's stdout alone, in order (decoded as UTF-8). Line
   * protocols written to stdout (the results channel's frames, sealed-oracle observations) are read
   * from here: in `output` a line can be cut by stderr bytes that arrived in between (the docker
   * client forwards a container's stdout in reads that need not end at a line), and is then lost.
   */
  stdout: string;
  /** The kept bytes that came from stderr alone, in order (absent from runners that cannot tell). */
  stderr?: string;
  /** Bytes of output seen (kept or not) and the SHA-256 hex of the kept bytes. */
  outputBytes: number;
  outputSha256: string;
  durationMs: number;
}

/** A run made ready ahead by `Runner.prestart`. */
export interface PrestartedRun {
  /** Begin the command (at most once); resolves as `Runner.run` does. */
  go(): Promise<RunOutcome>;
  /** Kill and remove it without running the command; resolves when it is gone. */
  discard(): Promise<void>;
}

export interface Runner {
  readonly description: RunnerDescription;
  /** Where the test process sees the copy and the results directory. */
  view(hostWorkdir: string, hostResultsDir: string): RunView;
  /**
   * Run one test command to completion, timeout or output cap, and clean up everything it started.
   * Throws InfrastructureError when the command could not be run at all.
   */
  run(request: RunRequest): Promise<RunOutcome>;
  /**
   * Optional: get the run ready ahead of its turn (the Docker runner starts its container, held
   * before the command), so `go()` then runs it like `run(request)`. `discard()` drops a run that
   * is no longer needed; so does aborting `request.signal`.
   */
  prestart?(request: RunRequest): Promise<PrestartedRun>;
  /** Stop and remove anything still running (called on SIGINT/SIGTERM). */
  dispose(): Promise<void>;
}

/** The fields every recorded run (a test run, the dependency stage, a build) keeps of its outcome. */
export function outcomeRecordFields(outcome: RunOutcome): {
  exit_code: number | null;
  timed_out: boolean;
  output_truncated: boolean;
  output_bytes: number;
  output_sha256: string;
  duration_ms: number;
} {
  return {
    exit_code: outcome.exitCode,
    timed_out: outcome.timedOut,
    output_truncated: outcome.outputTruncated,
    output_bytes: outcome.outputBytes,
    output_sha256: outcome.outputSha256,
    duration_ms: Math.round(outcome.durationMs)
  };
}
