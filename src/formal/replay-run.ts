import { createHash } from 'node:crypto';
import { chmod } from 'node:fs/promises';
import { posix } from 'node:path';
import type { FormalRecord } from '../core/formal.js';
import { InfrastructureError } from '../errors.js';
import { cloneTree, stageFiles, type Scratch } from '../phases/workspace.js';
import type { RunMount, Runner } from '../runners/runner.js';
import { readReplay, replayArgv, replayPaths, replayTestSource, withReplays, type ReplayRun } from './replay.js';
import { targetName, type FormalBlock } from './spec.js';

/**
 * The replay of every counterexample in the runner the phases use (the hardened container under
 * `--runner docker`): a copy of the candidate's graded tree, the generated node:test test staged
 * in its reserved folder, `node TEST` run under the run limits. Never throws for what the run
 * does: a fault, a timeout or a missing verdict line is `no_result`, so the target is `unknown`.
 */

export interface ReplayDeps {
  runner: Runner;
  scratch: Scratch;
  /** The candidate's graded tree (what the phases' patched runs copy). */
  patchedDir: string;
  mounts: RunMount[];
  env: Record<string, string>;
  timeoutMs: number;
  outputLimitBytes: number;
  nonce(): string;
  log(line: string): void;
}

export async function replayCounterexamples(block: FormalBlock, record: FormalRecord, deps: ReplayDeps): Promise<FormalRecord> {
  const runs = new Map<string, ReplayRun>();
  for (const [index, t] of record.targets.entries()) {
    if (t.status !== 'counterexample' || t.counterexample === undefined) continue;
    const target = block.targets.find((b) => targetName(b) === t.name);
    if (target === undefined) throw new Error(`formal target ${t.name} is not in the pack`);
    const nonce = deps.nonce();
    const testText = replayTestSource(target, t.counterexample.inputs, nonce);
    const started = Date.now();
    let run: ReplayRun;
    try {
      const copy = await deps.scratch.folder(`formal-replay-${index + 1}-repo`);
      await cloneTree(deps.patchedDir, copy);
      const { test } = replayPaths(target, nonce);
      await stageFiles(copy, { [test]: testText });
      const results = await deps.scratch.folder(`formal-replay-${index + 1}-results`);
      await chmod(results, 0o777);
      const view = deps.runner.view(copy, results);
      const outcome = await deps.runner.run({
        hostWorkdir: copy,
        hostResultsDir: results,
        argv: replayArgv(target, posix.join(view.workdir, test)),
        env: { ...deps.env, TZ: 'UTC', LANG: 'C.UTF-8', NO_COLOR: '1' },
        timeoutMs: deps.timeoutMs,
        outputLimitBytes: deps.outputLimitBytes,
        label: `formal-replay-${index + 1}`,
        mounts: deps.mounts,
        resultFiles: []
      });
      run = { verdict: readReplay(outcome.stdout, nonce, outcome), testText, outputSha256: outcome.outputSha256, exitCode: outcome.exitCode, durationMs: outcome.durationMs };
    } catch (error) {
      const message = error instanceof InfrastructureError || error instanceof Error ? error.message : String(error);
      run = {
        verdict: readReplay('', nonce, { timedOut: false, outputTruncated: false, infraError: message }),
        testText,
        outputSha256: createHash('sha256').digest('hex'),
        exitCode: null,
        durationMs: Date.now() - started
      };
    }
    deps.log(`formal: the counterexample of ${t.name} replayed in the ${deps.runner.description.kind} runner: ${run.verdict.outcome} (${run.verdict.detail})`);
    runs.set(t.name, run);
  }
  return runs.size === 0 ? record : withReplays(record, runs);
}
