import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { takeTwins } from '../adapters/shared/twin-stage.js';
import { HARNESS_DIR, type CanaryOutcome } from '../adapters/adapter.js';
import type { RunRecord } from '../core/receipt-schema.js';
import { errorExcerpt, excerptSha256 } from '../core/base-failure.js';
import { runNames, type RunNames } from '../core/run-names.js';
import { RUN_MARKER_NAMES } from '../adapters/shared/marker-names.js';
import { sealOf } from '../adapters/shared/results-channel.js';
import type { ParsedResults } from '../core/test-results.js';
import type { RecordLabel, RunEvidence, RunLabel } from '../core/verdict.js';
import { InfrastructureError } from '../errors.js';
import { cloneTree, readResults, stageExternalTests, stageFiles, type Scratch } from './workspace.js';
import { outcomeRecordFields, type RunRequest } from '../runners/runner.js';
import type { WitnessManifest } from '../fetch/witness/manifest.js';
import { judgeObservations, parseObservations, sealedTestResults, type OraclePhase } from '../core/oracle.js';
import { observerFiles } from '../oracle/observer.js';
import { sealedTests, testOfCases } from '../core/sealed-tests.js';
import { scheduleRuns, type RunProgress, type Scheduled, type SchedulerOptions } from './run-scheduler.js';
import { runOutcomeText } from '../core/progress.js';
import { DEFAULT_PREPARE_AHEAD, type RunOutput, type RunPlan, type Tree, type Trees, type ValidationDeps, type ValidationRequest } from './types.js';

/**
 * Run planning and execution: which runs a validation makes, and how one run is staged (copy,
 * harness, tests, observers), started, read and turned into its evidence and record.
 */

/** Result files larger than this in total are not read (the run then has a problem, never a pass). */
const MAX_RESULT_BYTES = 64 * 1024 * 1024;

/**
 * Generated files with the run's names (src/core/run-names.ts): every path hidden, and the text of
 * every file but the repository's own (`repository`: a suite file staged with its twins keeps its
 * text as the repository wrote it).
 */
function hiddenFiles(names: RunNames, files: Readonly<Record<string, string>>, repository: ReadonlySet<string> = new Set()): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([path, text]) => [names.hide(path), repository.has(path) ? text : names.hide(text)]));
}

/** The result files a run wrote, with the host's names back, and each one's digest as written (harnesses seal those bytes). */
function revealedResults(names: RunNames, files: Readonly<Record<string, string>>): { files: Record<string, string>; digests: Record<string, string> } {
  const revealed: Record<string, string> = {};
  const digests: Record<string, string> = {};
  for (const [name, text] of Object.entries(files)) {
    revealed[names.reveal(name)] = names.reveal(text);
    digests[names.reveal(name)] = sealOf(text) as string;
  }
  return { files: revealed, digests };
}

/** The oracle phase a run label belongs to (the suite has none: it is always graded in-process). */
export function oraclePhaseOf(label: RecordLabel): OraclePhase | undefined {
  if (label === 'reproduction_before' || label === 'reproduction_after') return 'reproduction';
  return label === 'hidden' ? 'hidden' : undefined;
}

function infraOutput(plan: RunPlan, nonce: string, argv: string[], error: unknown): RunOutput {
  const message = error instanceof InfrastructureError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
  const excerpt = plan.tree === 'base' ? errorExcerpt(message) : undefined;
  return {
    ...(excerpt === undefined ? {} : { excerpt }),
    evidence: { label: plan.label, attempt: plan.attempt, exitCode: null, timedOut: false, outputTruncated: false, infraError: message },
    record: {
      label: plan.label,
      attempt: plan.attempt,
      argv,
      exit_code: null,
      signal: null,
      timed_out: false,
      output_truncated: false,
      output_bytes: 0,
      output_sha256: createHash('sha256').digest('hex'),
      ...(excerpt === undefined ? {} : { output_excerpt_sha256: excerptSha256(excerpt) }),
      duration_ms: 0,
      problems: [],
      canary: { nonce, pass: 'missing', fail: 'missing' },
      infra_error: message
    }
  };
}

/**
 * A prepared run: its copy staged, its command built and (on a runner that can) its container
 * started and held before the command; calling it makes the command run.
 */
type PreparedRun = () => Promise<RunOutput>;

/** Stage and make one run now (a retry), with its progress events. */
export async function executeRun(plan: RunPlan, request: ValidationRequest, deps: ValidationDeps, scratch: Scratch, trees: Trees): Promise<RunOutput> {
  const prepared = await prepareRun(plan, request, deps, scratch, trees);
  const progress = progressOf(request);
  const began = Date.now();
  progress?.started(plan);
  const output = await prepared();
  progress?.ended(plan, output, Date.now() - began);
  return output;
}

/** The scheduler's progress callbacks, turned into the request's run events. */
export function progressOf(request: Pick<ValidationRequest, 'progress'>): RunProgress<RunPlan, RunOutput> | undefined {
  const sink = request.progress;
  if (sink === undefined) return undefined;
  return {
    started: (plan) => sink.run({ kind: 'start', phase: plan.label, tree: plan.tree, attempt: plan.attempt }),
    ended: (plan, output, durationMs) =>
      sink.run({
        kind: 'end',
        phase: plan.label,
        tree: plan.tree,
        attempt: plan.attempt,
        durationMs,
        outcome: output === undefined ? 'cancelled' : runOutcomeText({ ...output.evidence, statuses: output.evidence.parsed?.tests.map((t) => t.status) ?? [] })
      })
  };
}

/**
 * Stage one run (copy, harness, tests, command) and return the function that runs it. Never
 * throws: whatever stops the run, in either step, becomes its infrastructure-error output.
 */
export async function prepareRun(plan: RunPlan, request: ValidationRequest, deps: ValidationDeps, scratch: Scratch, trees: Trees, signal?: AbortSignal): Promise<PreparedRun> {
  const { adapter, runner, limits } = request;
  const nonce = deps.nonce();
  const oracleNonce = deps.nonce();
  // This run's names (src/core/run-names.ts): the test process sees neither `patchproof` nor a name
  // that says what a generated file or variable is for.
  const namesSeed = deps.nonce();
  let argv: string[] = [];
  const failed = (error: unknown): RunOutput => {
    const phase = oraclePhaseOf(plan.label);
    // Whatever stopped this run (Docker, the file system), it is never a pass and never the patch's fault.
    const output = infraOutput(plan, nonce, argv, error);
    if (phase !== undefined && request.recordObservations !== undefined) {
      request.recordObservations({
        phase,
        tree: plan.tree,
        attempt: plan.attempt,
        observations: [],
        malformed: [],
        problem: `infrastructure error: ${(error as Error).message}`,
        evidence: output.evidence
      });
    }
    return output;
  };
  try {
    const copy = await scratch.folder(`${plan.label}-${plan.attempt}-repo`);
    await cloneTree(trees.dirs[plan.tree], copy);
    let files: string[];
    let testRoots: string[] = [];
    const oraclePhase = oraclePhaseOf(plan.label);
    const sealedCases = oraclePhase === undefined ? [] : (trees.oracle?.cases ?? []).filter((c) => c.phase === oraclePhase);
    // A phase observes when it has sealed cases or sites whose values witness record records.
    const observing = sealedCases.length > 0 || (oraclePhase !== undefined && (trees.oracle?.pending ?? []).some((p) => p.phase === oraclePhase));
    const results = await scratch.folder(`${plan.label}-${plan.attempt}-results`);
    // The container's non-root uid must be able to write its results here, and nowhere else.
    await chmod(results, 0o777);
    const view = runner.view(copy, results);
    // The repository's own test files keep their names, whatever they hold, and so do the runner's
    // folders (the trusted-local runner's are the host's scratch folders).
    const suite = plan.tests === 'suite' ? trees.suite[plan.tree] : plan.tests === 'related' ? (trees.related ?? []) : [];
    const names = runNames(namesSeed, { names: [...RUN_MARKER_NAMES, ...(adapter.markerNames ?? [])], keep: [...suite, view.workdir, view.resultsDir] });
    await stageFiles(copy, hiddenFiles(names, Object.fromEntries(Object.entries(adapter.harness).map(([name, text]) => [`${HARNESS_DIR}/${name}`, text]))));
    if (plan.tests === 'suite' || plan.tests === 'related') {
      files = suite;
    } else {
      const { dir, placement } = plan.tests;
      const staged = await stageExternalTests(copy, dir, placement, (text) => names.hide(text));
      files = staged.filter((f) => adapter.isTestFile(f.slice(placement.length + 1)));
      testRoots = [placement];
      // The observers beside the sealed tests, with this run's nonce; the expectations stay here.
      if (observing) {
        await stageFiles(copy, hiddenFiles(names, Object.fromEntries(Object.entries(observerFiles(oracleNonce)).map(([name, text]) => [`${placement}/${name}`, text]))));
      }
    }
    const canary = { nonce };
    const readFile = (path: string): string | undefined => {
      try {
        return names.reveal(readFileSync(join(copy, ...names.hide(path).split('/')), 'utf8'));
      } catch {
        return undefined;
      }
    };
    // No twins in a sealed run: a copy of a test that observes would observe its cases twice, and
    // sealing already makes framework sabotage pointless there.
    const command = adapter.command({
      view,
      files,
      suite: plan.tests === 'suite' || plan.tests === 'related',
      testRoots,
      canary,
      readFile,
      ...(observing ? { twins: false as const } : {})
    });
    argv = command.argv;
    await stageFiles(copy, hiddenFiles(names, command.stage, new Set(suite)));
    const mounts = trees.mounts[plan.tree].map((mount) => ({ ...mount, path: names.hide(mount.path) }));
    // Mount points for the dependency outputs: a container cannot create them in its read-only copy.
    for (const mount of mounts) await mkdir(join(copy, ...mount.path.split('/')), { recursive: true });
    const resultFiles = command.resultFiles.map((glob) => names.hide(glob));
    const runRequest: RunRequest = {
      hostWorkdir: copy,
      hostResultsDir: results,
      argv: command.argv.map((arg) => names.hide(arg)),
      env: Object.fromEntries(Object.entries({ ...trees.env, ...command.env, ...trees.testEnv }).map(([key, value]) => [names.hide(key), names.hide(value)])),
      timeoutMs: limits.timeoutMs,
      outputLimitBytes: limits.outputLimitBytes,
      label: `${plan.label}-${plan.attempt}`,
      mounts,
      execTmp: adapter.execTmp === true,
      ...(adapter.pid1 === true ? { init: false } : {}),
      resultFiles,
      ...(signal !== undefined ? { signal } : {})
    };
    // Container start-up overlaps the runs ahead of this one; the command waits for its turn.
    const prestarted = runner.prestart === undefined ? undefined : await runner.prestart(runRequest);
    return async (): Promise<RunOutput> => {
      try {
        const ran = prestarted === undefined ? await runner.run(runRequest) : await prestarted.go();
        // Everything the run produced is read with the host's names back; the record keeps the
        // size and digest of the output as it came.
        const outcome = {
          ...ran,
          output: names.reveal(ran.output),
          stdout: names.reveal(ran.stdout),
          ...(ran.stderr !== undefined ? { stderr: names.reveal(ran.stderr) } : {})
        };
        const read = await readResults(results, MAX_RESULT_BYTES, resultFiles);
        const written = revealedResults(names, read.files);
        const parsed: ParsedResults & { canary: CanaryOutcome } = adapter.parse({
          files: written.files,
          resultDigests: written.digests,
          exitCode: outcome.exitCode,
          workdir: view.workdir,
          testRoots,
          canary,
          output: outcome.stdout,
          ...(command.declared === undefined ? {} : { declared: command.declared })
        });
        parsed.problems.push(...read.problems);
        const { canary: canaryBase, ...parsedRest } = parsed;
        // Twin and mutant canaries come out of the tests here; their roles never left the host.
        const twinned = takeTwins(parsedRest.tests, parsedRest.claimed, command.twins ?? []);
        const { claimed: _claimed, ...withoutClaimed } = parsedRest;
        const results_: ParsedResults = { ...withoutClaimed, tests: twinned.tests, ...(twinned.claimed === undefined ? {} : { claimed: twinned.claimed }) };
        const canaryOutcome = command.twins === undefined ? canaryBase : { ...canaryBase, twins: twinned.outcomes };
        // Each stream whole (stderr, then stdout): in the combined output their lines interleave as the
        // pipes happened to be read, so the excerpt would change from run to run.
        const excerpt = plan.tree === 'base' ? errorExcerpt(outcome.stderr === undefined ? outcome.output : `${outcome.stderr}\n\n${outcome.stdout}`) : undefined;
        let sealed: RunEvidence['sealed'];
        let oracleRecord: RunRecord['oracle'];
        if (observing && oraclePhase !== undefined && request.recordObservations !== undefined) {
          const observations = parseObservations(outcome.stdout, oracleNonce);
          const problem = outcome.timedOut ? 'it timed out' : outcome.outputTruncated ? 'its output was truncated' : undefined;
          // The framework's own results go along (never judged here): witness record refuses a
          // reproduction that fails for the wrong reason, on the reference or on the base.
          const evidence: RunEvidence = {
            label: plan.label,
            attempt: plan.attempt,
            exitCode: outcome.exitCode,
            timedOut: outcome.timedOut,
            outputTruncated: outcome.outputTruncated,
            parsed: results_,
            canary: canaryOutcome
          };
          request.recordObservations({ phase: oraclePhase, tree: plan.tree, attempt: plan.attempt, ...observations, evidence, ...(problem !== undefined ? { problem } : {}) });
        }
        if (observing) {
          // Read from the stdout the host collected as the run produced it; never from a results file,
          // nor from the combined output, where stderr bytes can cut an observation line in two.
          const observations = parseObservations(outcome.stdout, oracleNonce);
          const judged = judgeObservations(sealedCases, observations);
          // The sites of one test are judged together on the base (src/core/sealed-tests.ts).
          const tests = sealedTests(sealedCases, results_.tests);
          sealed = {
            results: sealedTestResults(judged, plan.tree === 'base', testOfCases(sealedCases)),
            problems: judged.problems,
            ...(tests.length > 0 ? { tests } : {})
          };
          oracleRecord = {
            nonce: oracleNonce,
            cases: sealedCases.length,
            observed: observations.observations.length,
            matched: judged.cases.filter((c) => c.outcome === 'matched').length
          };
        }
        return {
          ...(excerpt === undefined ? {} : { excerpt }),
          evidence: {
            label: plan.label,
            attempt: plan.attempt,
            exitCode: outcome.exitCode,
            timedOut: outcome.timedOut,
            outputTruncated: outcome.outputTruncated,
            parsed: results_,
            canary: canaryOutcome,
            ...(sealed !== undefined ? { sealed } : {})
          },
          record: {
            label: plan.label,
            attempt: plan.attempt,
            argv: command.argv,
            ...outcomeRecordFields(outcome),
            signal: outcome.signal,
            ...(excerpt === undefined ? {} : { output_excerpt_sha256: excerptSha256(excerpt) }),
            problems: [...results_.problems, ...(sealed?.problems ?? [])],
            canary: { nonce, ...canaryOutcome },
            ...(oracleRecord !== undefined ? { oracle: oracleRecord } : {}),
            ...(results_.channel ? { channel: results_.channel } : {})
          }
        };
      } catch (error) {
        return failed(error);
      }
    };
  } catch (error) {
    const output = failed(error);
    return () => Promise.resolve(output);
  }
}

/** The full run plan of a validation, in order: the base side, then the candidate side. */
export function plansFor(manifest: WitnessManifest, witnessDir: string): RunPlan[] {
  const reproduction = { dir: join(witnessDir, ...manifest.reproduction.path.split('/')), placement: manifest.reproduction.placement };
  const hidden = { dir: join(witnessDir, ...manifest.hidden.path.split('/')), placement: manifest.hidden.placement };
  const repeat = (label: RunLabel, tree: Tree, tests: RunPlan['tests'], times: number): RunPlan[] =>
    Array.from({ length: times }, (_, i) => ({ label, attempt: i + 1, tree, tests }));
  return [
    ...repeat('reproduction_before', 'base', reproduction, manifest.reproduction.repeat),
    ...repeat('regression_before', 'base', 'suite', 1),
    ...repeat('reproduction_after', 'patched', reproduction, manifest.reproduction.repeat),
    ...repeat('regression_after', 'patched', 'suite', 1),
    ...repeat('hidden', 'patched', hidden, manifest.hidden.repeat)
  ];
}

/**
 * `witness record`: the patched tree's reproduction and hidden runs, each at least twice
 * (determinism), and the base's reproduction runs (as many as validate makes): the recorded sites
 * must tell the base from the reference fix.
 */
export function recordPlans(manifest: WitnessManifest, witnessDir: string): RunPlan[] {
  const twice = (n: number): number => Math.max(2, n);
  const base = plansFor(manifest, witnessDir).filter((plan) => plan.label === 'reproduction_before');
  const patched = plansFor(
    { ...manifest, reproduction: { ...manifest.reproduction, repeat: twice(manifest.reproduction.repeat) }, hidden: { ...manifest.hidden, repeat: twice(manifest.hidden.repeat) } },
    witnessDir
  ).filter((plan) => plan.label === 'reproduction_after' || plan.label === 'hidden');
  return [...base, ...patched];
}

/** PASS_TO_PASS ids that failed (not skipped, not absent) in the latest patched suite run. */
function failingPassToPass(before: RunEvidence | undefined, after: RunEvidence | undefined): string[] {
  const passed = new Set((before?.parsed?.tests ?? []).filter((t) => t.status === 'passed').map((t) => t.id));
  return (after?.parsed?.tests ?? []).filter((t) => passed.has(t.id) && (t.status === 'failed' || t.status === 'errored')).map((t) => t.id);
}

/**
 * Re-run `plan`'s label while a PASS_TO_PASS test fails in its latest run (`retries` times at most):
 * failing every time is a regression, passing once is a flake. Runs already made are not redone.
 */
export async function retryWhileFailing(
  outputs: RunOutput[],
  label: RecordLabel,
  tests: RunPlan['tests'],
  retries: number,
  execute: (plan: RunPlan) => Promise<RunOutput>
): Promise<void> {
  const regressionBefore = outputs.find((o) => o.evidence.label === 'regression_before');
  for (;;) {
    const made = outputs.filter((o) => o.evidence.label === label);
    if (made.length === 0 || made.length >= retries + 1) break;
    if (failingPassToPass(regressionBefore?.evidence, made.at(-1)?.evidence).length === 0) break;
    outputs.push(await execute({ label, attempt: made.length + 1, tree: 'patched', tests }));
  }
}

/** The scheduler's gate over run plans (src/phases/run-scheduler.ts). */
export type RunGate = NonNullable<SchedulerOptions<RunPlan, PreparedRun, RunOutput>['gate']>;

/** Schedule runs of one validation (prepared ahead, at most `concurrency` at once), with an optional gate. */
export async function scheduleValidationRuns(
  jobs: RunPlan[],
  request: ValidationRequest,
  deps: ValidationDeps,
  scratch: Scratch,
  trees: Trees,
  gate?: RunGate
): Promise<Scheduled<RunPlan, RunOutput>[]> {
  return scheduleRuns<RunPlan, PreparedRun, RunOutput>({
    jobs,
    concurrency: request.concurrency,
    prepareAhead: request.prepareAhead ?? DEFAULT_PREPARE_AHEAD,
    prepare: (plan, signal) => prepareRun(plan, request, deps, scratch, trees, signal),
    run: (_plan, prepared) => prepared(),
    ...(request.progress !== undefined ? { progress: progressOf(request)! } : {}),
    ...(gate !== undefined ? { gate } : {})
  });
}

/** The runs a labelled plan names, as evidence. */
export function evidenceOf(outputs: readonly RunOutput[], label: RecordLabel): RunEvidence[] {
  return outputs.filter((o) => o.evidence.label === label).map((o) => o.evidence);
}
