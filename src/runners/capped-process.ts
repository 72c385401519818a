import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { InfrastructureError } from '../errors.js';
import type { RunOutcome } from './runner.js';

/**
 * The one place a process is spawned with a time limit and an output cap. Both runners go through
 * it: the local runner for the test command itself, the Docker runner for the `docker run` client.
 */

/** Why the process group was killed before it ended by itself. */
export type KillReason = 'timeout' | 'output_limit' | 'aborted';

/** How long to wait for the output pipes to close once the process has exited. */
export const CLOSE_GRACE_MS = 2000;

/** What to run and the limits it runs under. */
export interface CappedProcessOptions {
  /** The command and its arguments; run without a shell, argv[0] looked up on `env.PATH`. */
  argv: readonly string[];
  cwd: string;
  /** The complete environment of the process: nothing is inherited. */
  env: Record<string, string>;
  timeoutMs: number;
  /** Combined stdout+stderr bytes kept; the first byte past it kills the process group. */
  outputLimitBytes: number;
  /**
   * Called once, after the process group was sent SIGKILL because of a timeout, the output cap or
   * an abort (the Docker runner `docker kill`s its container here). Awaited before the outcome is
   * returned; a rejection rejects the run.
   */
  onKill?: (reason: KillReason) => void | Promise<void>;
  /** Aborting kills the process group (used by `Runner.dispose()`). */
  signal?: AbortSignal;
  /**
   * Present: the process is spawned at once with a pipe as standard input, and the run begins when
   * `go` resolves: one newline is written and standard input is closed (a pre-started container's
   * start gate, see START_GATE), and only then do the time limit and `durationMs` start counting.
   * Absent: standard input is closed and the run begins at spawn.
   */
  go?: Promise<void>;
}

/**
 * Run `argv` in its own process group and wait until it ends, times out, or exceeds the output
 * cap. Whatever is left of the group when the leader exits is killed too, so nothing it started
 * outlives the run. Throws InfrastructureError when the process cannot be spawned at all.
 */
export function runCappedProcess(options: CappedProcessOptions): Promise<RunOutcome> {
  const { argv, cwd, env, timeoutMs, outputLimitBytes } = options;
  const command = argv[0];
  if (command === undefined || command === '') {
    return Promise.reject(new InfrastructureError('cannot run an empty command line'));
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    return Promise.reject(new InfrastructureError(`timeoutMs must be a positive number, got ${timeoutMs}`));
  }
  if (!Number.isInteger(outputLimitBytes) || outputLimitBytes < 0) {
    return Promise.reject(new InfrastructureError(`outputLimitBytes must be a non-negative integer, got ${outputLimitBytes}`));
  }

  return new Promise<RunOutcome>((resolve, reject) => {
    let started = performance.now();
    const kept: Buffer[] = [];
    // The stdout part of `kept` (the same chunks, not extra bytes): see RunOutcome.stdout.
    const keptStdout: Buffer[] = [];
    // And the stderr part: together they give each stream's bytes in order, whatever the interleaving.
    const keptStderr: Buffer[] = [];
    let keptBytes = 0;
    let seenBytes = 0;
    let timedOut = false;
    let outputTruncated = false;
    let killReason: KillReason | null = null;
    let hook: Promise<void> = Promise.resolve();
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let finished = false;
    let graceTimer: NodeJS.Timeout | undefined;

    // detached: the child leads a new process group, so one kill(-pid) reaches every descendant
    // that did not deliberately leave the group.
    const child = spawn(command, argv.slice(1), {
      cwd,
      env,
      detached: true,
      shell: false,
      stdio: [options.go === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true
    }) as ChildProcessByStdio<Writable | null, Readable, Readable>;

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already empty.
      }
    };

    const killFor = (reason: KillReason): void => {
      if (killReason !== null || exit !== null) return;
      killReason = reason;
      if (reason === 'timeout') timedOut = true;
      if (reason === 'output_limit') outputTruncated = true;
      killGroup();
      if (options.onKill) {
        const onKill = options.onKill;
        hook = Promise.resolve().then(() => onKill(reason));
      }
    };

    let timer: NodeJS.Timeout | undefined;
    const begin = (): void => {
      if (finished || exit !== null || killReason !== null) return;
      started = performance.now();
      timer = setTimeout(() => killFor('timeout'), timeoutMs);
    };
    if (options.go === undefined) {
      begin();
    } else {
      const stdin = child.stdin;
      // A gate that is gone (the container died, or was killed) must not crash the host.
      stdin?.on('error', () => undefined);
      options.go.then(
        () => {
          begin();
          if (!finished && exit === null) stdin?.end('\n');
        },
        () => killFor('aborted')
      );
    }
    const onAbort = (): void => killFor('aborted');
    if (options.signal?.aborted) {
      // Checked after spawn so the same cleanup path runs.
      setImmediate(onAbort);
    } else {
      options.signal?.addEventListener('abort', onAbort, { once: true });
    }

    const onData = (chunk: Buffer, fromStdout: boolean): void => {
      seenBytes += chunk.length;
      if (outputTruncated) return;
      const room = outputLimitBytes - keptBytes;
      if (chunk.length <= room) {
        kept.push(chunk);
        (fromStdout ? keptStdout : keptStderr).push(chunk);
        keptBytes += chunk.length;
        return;
      }
      if (room > 0) {
        kept.push(chunk.subarray(0, room));
        (fromStdout ? keptStdout : keptStderr).push(chunk.subarray(0, room));
        keptBytes += room;
      }
      // Past the cap: endless output must not fill memory or the run's record.
      outputTruncated = true;
      killFor('output_limit');
    };
    child.stdout.on('data', (chunk: Buffer) => onData(chunk, true));
    child.stderr.on('data', (chunk: Buffer) => onData(chunk, false));

    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', onAbort);
      const durationMs = Math.round(performance.now() - started);
      const bytes = Buffer.concat(kept, keptBytes);
      hook.then(
        () =>
          resolve({
            exitCode: exit?.code ?? null,
            signal: exit?.signal ?? null,
            timedOut,
            outputTruncated,
            output: bytes.toString('utf8'),
            stdout: Buffer.concat(keptStdout).toString('utf8'),
            stderr: Buffer.concat(keptStderr).toString('utf8'),
            outputBytes: seenBytes,
            outputSha256: createHash('sha256').update(bytes).digest('hex'),
            durationMs
          }),
        (error: unknown) =>
          reject(error instanceof InfrastructureError ? error : new InfrastructureError(`cleanup after ${killReason ?? 'kill'} failed: ${String(error)}`, { cause: error }))
      );
    };

    child.on('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined && !finished) {
        finished = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        reject(new InfrastructureError(`cannot start '${command}' in ${cwd}: ${error.code ?? error.message}`, { cause: error }));
      }
    });

    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The leader is gone: background children it left in the group must not outlive the run.
      killGroup();
      // A descendant that left the group can hold the pipes open forever; stop waiting for it.
      graceTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, CLOSE_GRACE_MS);
    });

    child.on('close', () => {
      if (exit !== null) finish();
    });
  });
}
