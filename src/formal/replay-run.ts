import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { FormalRecord } from '../core/formal.js';
import { InfrastructureError } from '../errors.js';
import { cloneTree, stageFiles, type Scratch } from '../phases/workspace.js';
import type { RunMount, Runner } from '../runners/runner.js';
import { readReplay, replayArgv, replayPaths, replayTestSource, strippedPath, withReplays, type ReplayRun } from './replay.js';
import { needsStripping, stripTypes } from './strip-types.js';
import { targetName, type FormalBlock } from './spec.js';

/**
 * The replay of every counterexample in the runner the phases use (the hardened container under
 * `--runner docker`): a copy of the candidate's graded tree, the generated node:test test staged
 * in its reserved folder, `node TEST` run under the run limits. A TypeScript target is stripped of
 * its types on the host first (src/formal/strip-types.ts), into a new file beside it in the copy. Never throws for what the run
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

/** The replay could not be set up for a reason of the candidate's (the stripper refused its file): no result. */
class ReplayRefused extends Error {}

/**
 * Every folder from the copy's root to `path`'s parent is a real folder, never a link: the
 * candidate's tree may hold symbolic links, and a file read or written through one would be a host
 * file, outside the disposable copy.
 */
async function assertRealFolders(copy: string, path: string): Promise<void> {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const folder = join(copy, ...parts.slice(0, i));
    const stat = await lstat(folder).catch(() => undefined);
    if (stat === undefined || !stat.isDirectory() || stat.isSymbolicLink()) throw new ReplayRefused(`${parts.slice(0, i).join('/')} is not a folder of the tree (a link?)`);
  }
}

/** A regular file of the copy, read without following a link (the TypeScript target, to strip). */
export async function readRegularFile(copy: string, path: string): Promise<string> {
  await assertRealFolders(copy, path);
  const stat = await lstat(join(copy, ...path.split('/'))).catch(() => undefined);
  if (stat === undefined || !stat.isFile()) throw new ReplayRefused(`${path} is not a regular file of the tree (a link, or missing)`);
  return readFile(join(copy, ...path.split('/')), 'utf8');
}

/** Write a file the copy must not already have (O_EXCL: never through a link the candidate planted). */
export async function writeNewFile(copy: string, path: string, text: string): Promise<void> {
  await assertRealFolders(copy, path);
  const file = join(copy, ...path.split('/'));
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644).catch((error: unknown) => {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new ReplayRefused(`${path} cannot be created in the copy (${code ?? message})`);
  });
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  await chmod(file, 0o644);
}

export async function replayCounterexamples(block: FormalBlock, record: FormalRecord, deps: ReplayDeps): Promise<FormalRecord> {
  const runs = new Map<string, ReplayRun>();
  for (const [index, t] of record.targets.entries()) {
    if (t.status !== 'counterexample' || t.counterexample === undefined) continue;
    const target = block.targets.find((b) => targetName(b) === t.name);
    if (target === undefined) throw new Error(`formal target ${t.name} is not in the pack`);
    const nonce = deps.nonce();
    let testText = '';
    const started = Date.now();
    let run: ReplayRun;
    try {
      const copy = await deps.scratch.folder(`formal-replay-${index + 1}-repo`);
      await cloneTree(deps.patchedDir, copy);
      let loads = target.file;
      if (needsStripping(target.file)) {
        // Node 20 cannot import .ts: the types are stripped on the host into the disposable copy.
        const stripped = stripTypes(await readRegularFile(copy, target.file), target.file);
        if ('refused' in stripped) throw new ReplayRefused(stripped.refused);
        loads = strippedPath(target.file, nonce, stripped.extension);
        await writeNewFile(copy, loads, stripped.text);
      }
      testText = replayTestSource(target, t.counterexample.inputs, nonce, loads);
      const { test } = replayPaths(target, nonce, loads);
      await stageFiles(copy, { [test]: testText });
      // Mount points for the dependency outputs (a pack's setup stage): a container cannot create them in its read-only copy.
      for (const mount of deps.mounts) await mkdir(join(copy, ...mount.path.split('/')), { recursive: true });
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
        verdict:
          error instanceof ReplayRefused
            ? { outcome: 'no_result', detail: `it cannot replay: ${message}` }
            : readReplay('', nonce, { timedOut: false, outputTruncated: false, infraError: message }),
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
