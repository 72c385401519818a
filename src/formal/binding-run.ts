import { createHash } from 'node:crypto';
import { chmod, mkdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { FormalRecord } from '../core/formal.js';
import { cloneTree, stageFiles } from '../phases/workspace.js';
import {
  bindingArgv,
  bindingPaths,
  judgeJs,
  judgePython,
  jsExpectation,
  jsProbeSource,
  pythonProbeSource,
  readProbe,
  withBindings,
  type BindingRun,
  type BindingVerdict
} from './binding.js';
import { readRegularFile, writeNewFile, type ReplayDeps } from './replay-run.js';
import { strippedPath } from './replay.js';
import { targetName, type FormalBlock } from './spec.js';
import { needsStripping, stripTypes } from './strip-types.js';

/**
 * The binding check of every proved or checked target (src/formal/binding.ts), in the runner the
 * phases use: a copy of the candidate's graded tree, the generated probe staged in the reserved
 * folder, `node PROBE` or `python3 -I -B PROBE` under the run limits. A TypeScript target is
 * stripped on the host first, as for the replay. Never throws for what the run does: a fault, a
 * timeout or missing facts are `no_result`, so the target is `unknown`.
 */

/** The runner, the tree and the limits: the replay's (src/formal/replay-run.ts). */
export type BindingDeps = ReplayDeps;

/** A probe that could not be set up for a reason of the candidate's: no result. */
function refused(detail: string): BindingVerdict {
  return { outcome: 'no_result', detail };
}

/**
 * Check every proved or checked target's binding. `sources` holds the text the gate analysed for
 * each target (by the target's name): the probe's expectations come from it, never from a file
 * the candidate could have changed since.
 */
export async function checkBindings(block: FormalBlock, record: FormalRecord, sources: ReadonlyMap<string, string>, deps: BindingDeps): Promise<FormalRecord> {
  const runs = await runBindings(block, record, sources, deps);
  return runs.size === 0 ? record : withBindings(record, runs);
}

/**
 * The binding runs of every proved or checked target, by name, without applying them: the formal
 * phase starts these while the tests run and applies them when it concludes (src/phases/formal.ts).
 */
export async function runBindings(block: FormalBlock, record: FormalRecord, sources: ReadonlyMap<string, string>, deps: BindingDeps): Promise<Map<string, BindingRun>> {
  const runs = new Map<string, BindingRun>();
  for (const [index, t] of record.targets.entries()) {
    if (t.status !== 'proved' && t.status !== 'checked') continue;
    const target = block.targets.find((b) => targetName(b) === t.name);
    if (target === undefined) throw new Error(`formal target ${t.name} is not in the pack`);
    const nonce = deps.nonce();
    const started = Date.now();
    let probeText = '';
    let run: BindingRun;
    try {
      const analysed = sources.get(t.name);
      if (analysed === undefined) throw new RefusedProbe('the text the gate analysed is not known');
      const copy = await deps.scratch.folder(`formal-binding-${index + 1}-repo`);
      await cloneTree(deps.patchedDir, copy);
      // The tree the tests run must hold the text the gate read (a regular file, no link on its path).
      if ((await readRegularFile(copy, target.file).catch((error: unknown) => Promise.reject(new RefusedProbe((error as Error).message)))) !== analysed) {
        throw new RefusedProbe(`${target.file} in the tree the tests run is not the text the gate read`);
      }
      const python = /\.py$/.test(target.file);
      let judge: (stdout: string, run: { timedOut: boolean; outputTruncated: boolean; infraError?: string }, workdir: string) => BindingVerdict;
      if (python) {
        probeText = pythonProbeSource(target, nonce, analysed);
        judge = (stdout, outcome) => judgePython(readProbe(stdout, nonce, outcome), target.file, analysed, target.function);
      } else {
        let loads = target.file;
        let loadedText = analysed;
        if (needsStripping(target.file)) {
          // Node 20 cannot import .ts: the analysed text stripped on the host (positions kept), as for the replay.
          const stripped = stripTypes(analysed, target.file);
          if ('refused' in stripped) throw new RefusedProbe(stripped.refused);
          loads = strippedPath(target.file, nonce, stripped.extension);
          loadedText = stripped.text;
          await writeNewFile(copy, loads, loadedText);
        }
        const expected = jsExpectation(target, analysed, loads, loadedText);
        probeText = jsProbeSource(target, nonce, loads);
        judge = (stdout, outcome, workdir) => judgeJs(readProbe(stdout, nonce, outcome), expected, workdir, target.function);
      }
      const { probe } = bindingPaths(target, nonce);
      await stageFiles(copy, { [probe]: probeText });
      // Mount points for the dependency outputs (a pack's setup stage): a container cannot create them in its read-only copy.
      for (const mount of deps.mounts) await mkdir(join(copy, ...mount.path.split('/')), { recursive: true });
      const results = await deps.scratch.folder(`formal-binding-${index + 1}-results`);
      await chmod(results, 0o777);
      const view = deps.runner.view(copy, results);
      const outcome = await deps.runner.run({
        hostWorkdir: copy,
        hostResultsDir: results,
        argv: bindingArgv(target, posix.join(view.workdir, probe)),
        env: { ...deps.env, TZ: 'UTC', LANG: 'C.UTF-8', NO_COLOR: '1' },
        timeoutMs: deps.timeoutMs,
        outputLimitBytes: deps.outputLimitBytes,
        label: `formal-binding-${index + 1}`,
        mounts: deps.mounts,
        resultFiles: []
      });
      // The whole step (copy, probe, run), not only the container: what the check adds to the formal phase.
      run = { verdict: judge(outcome.stdout, outcome, view.workdir), probeText, outputSha256: outcome.outputSha256, exitCode: outcome.exitCode, durationMs: Date.now() - started };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      run = {
        verdict: error instanceof RefusedProbe ? refused(`it cannot run: ${message}`) : refused(`the run failed: ${message}`),
        probeText,
        outputSha256: createHash('sha256').digest('hex'),
        exitCode: null,
        durationMs: Date.now() - started
      };
    }
    deps.log(
      `formal: the binding check of ${t.name} in the ${deps.runner.description.kind} runner: ${run.verdict.outcome} (${run.verdict.detail}) in ${Math.round(run.durationMs)} ms`
    );
    runs.set(t.name, run);
  }
  return runs;
}

/** The probe cannot be set up for a reason of the candidate's tree. */
class RefusedProbe extends Error {}
