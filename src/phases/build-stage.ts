import { createHash } from 'node:crypto';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { firstBuildError, formatDiagnostic } from '../core/build-diagnostics.js';
import type { BuildRunRecord } from '../core/build-gate.js';
import { InfrastructureError } from '../errors.js';
import { cloneTree, type Scratch } from './workspace.js';
import { outcomeRecordFields, type RunMount, type Runner } from '../runners/runner.js';

/**
 * The L1 build gate's one side effect: the pack's `build.argv` run in the hardened container on a
 * disposable copy of one tree (the base, or the candidate's graded tree), with the dependency
 * outputs mounted read-only and the pack's setup environment. Its output is reduced to the first
 * root cause (src/core/build-diagnostics.ts); only that diagnostic and the output's digest are kept.
 */

export interface BuildRunRequest {
  tree: 'base' | 'patched';
  treeDir: string;
  argv: readonly string[];
  runner: Runner;
  scratch: Scratch;
  mounts: readonly RunMount[];
  env: Record<string, string>;
  timeoutMs: number;
  outputLimitBytes: number;
  execTmp: boolean;
  log(line: string): void;
}

/** Run the build once on one tree. Never throws: an infrastructure fault is the run's `infra_error`. */
export async function runBuild(request: BuildRunRequest): Promise<BuildRunRecord> {
  const started = Date.now();
  try {
    const copy = await request.scratch.folder(`build-${request.tree}-repo`);
    await cloneTree(request.treeDir, copy);
    for (const mount of request.mounts) await mkdir(join(copy, ...mount.path.split('/')), { recursive: true });
    const results = await request.scratch.folder(`build-${request.tree}-results`);
    await chmod(results, 0o777);
    const view = request.runner.view(copy, results);
    const outcome = await request.runner.run({
      hostWorkdir: copy,
      hostResultsDir: results,
      argv: [...request.argv],
      env: { ...request.env },
      timeoutMs: request.timeoutMs,
      outputLimitBytes: request.outputLimitBytes,
      label: `build-${request.tree}`,
      mounts: [...request.mounts],
      execTmp: request.execTmp,
      // Nothing of a build is a result file.
      resultFiles: []
    });
    // Each stream whole: in the combined output their lines interleave as the pipes were read.
    const text = outcome.stderr === undefined ? outcome.output : `${outcome.stdout}\n${outcome.stderr}`;
    const diagnostic = outcome.exitCode !== 0 ? firstBuildError(text, view.workdir) : undefined;
    const record: BuildRunRecord = {
      ...outcomeRecordFields(outcome),
      signal: outcome.signal,
      ...(diagnostic !== undefined ? { diagnostic } : {})
    };
    const how = outcome.timedOut ? 'timed out' : outcome.outputTruncated ? 'output cut at the cap' : `exit ${String(outcome.exitCode)}`;
    request.log(`build (${request.tree}): ${how} in ${record.duration_ms} ms${diagnostic !== undefined ? `; first error: ${formatDiagnostic(diagnostic)}` : ''}`);
    return record;
  } catch (error) {
    const message = error instanceof InfrastructureError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
    request.log(`build (${request.tree}): infrastructure error: ${message}`);
    return {
      exit_code: null,
      signal: null,
      timed_out: false,
      output_truncated: false,
      output_bytes: 0,
      output_sha256: createHash('sha256').digest('hex'),
      duration_ms: Math.round(Date.now() - started),
      infra_error: message
    };
  }
}
