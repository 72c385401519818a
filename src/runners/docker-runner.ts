import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { ConfigurationError, InfrastructureError } from '../errors.js';
import { runCappedProcess } from './capped-process.js';
import {
  buildDockerRunArgs,
  checkContainerLayout,
  DEFAULT_DOCKER_LIMITS,
  defaultContainerLayout,
  describeDockerSettings,
  type ContainerLayout,
  type DockerLimits
} from './docker-args.js';
import { dockerCli, dockerClientEnv } from './docker-available.js';
import { resolveImage } from './image-ref.js';
import { DEFAULT_RESULTS_LIMIT_BYTES, DEFAULT_RESULTS_LIMIT_FILES, prepareResultsMount, type ResultsLimits, type ResultsMount } from './results-mount.js';
import type { PrestartedRun, RunOutcome, RunRequest, Runner, RunnerDescription, RunView } from './runner.js';

/**
 * The hardened Docker runner: every test command runs in a fresh container from a pinned local
 * image, with no network, a read-only root and repository copy, no capabilities, a non-root user
 * and resource caps. The container is removed after every run, whatever happened.
 */

/** Label naming the runner instance that started a container, so `dispose()` finds all of them. */
export const RUNNER_ID_LABEL = 'patchproof.runner';
/** Label carrying the request's label (`reproduction_before`...), for logs and lookups. */
export const RUN_LABEL = 'patchproof.label';

/** Options of `createDockerRunner`: the image plus any limit to override. */
export interface DockerRunnerOptions extends Partial<DockerLimits> {
  /** `--image`: `name@sha256:<64 hex>` or a local image ID `sha256:<64 hex>`. */
  image: string;
  /** Cap on everything one run writes to its results mount (default 64 MiB). */
  resultsLimitBytes?: number;
  /** Cap on the files and folders one run creates in its results mount (default 4096). */
  resultsLimitFiles?: number;
  /** Paths, user and added environment of the test process; default `defaultContainerLayout()`. */
  layout?: Partial<ContainerLayout>;
}

/** Time copying results may take past the run's own timeout: post-run work stays within the budget. */
export const RESULTS_COLLECTION_GRACE_MS = 2_000;

/**
 * Create the Docker runner. Resolves the image first (ConfigurationError when it is malformed or
 * not present locally; nothing is pulled).
 */
export async function createDockerRunner(options: DockerRunnerOptions): Promise<Runner> {
  const { image } = options;
  const limits: DockerLimits = {
    pidsLimit: options.pidsLimit ?? DEFAULT_DOCKER_LIMITS.pidsLimit,
    memoryMiB: options.memoryMiB ?? DEFAULT_DOCKER_LIMITS.memoryMiB,
    cpus: options.cpus ?? DEFAULT_DOCKER_LIMITS.cpus,
    tmpfsMiB: options.tmpfsMiB ?? DEFAULT_DOCKER_LIMITS.tmpfsMiB,
    shmMiB: options.shmMiB ?? DEFAULT_DOCKER_LIMITS.shmMiB,
    fileSizeMiB: options.fileSizeMiB ?? DEFAULT_DOCKER_LIMITS.fileSizeMiB,
    tmpNoexec: options.tmpNoexec ?? DEFAULT_DOCKER_LIMITS.tmpNoexec
  };
  const resultsLimits: ResultsLimits = {
    bytes: options.resultsLimitBytes ?? DEFAULT_RESULTS_LIMIT_BYTES,
    files: options.resultsLimitFiles ?? DEFAULT_RESULTS_LIMIT_FILES
  };
  if (!Number.isSafeInteger(resultsLimits.files) || resultsLimits.files <= 0) {
    throw new ConfigurationError(`Invalid results file limit ${String(resultsLimits.files)}. Expected a positive integer.`);
  }
  const base = defaultContainerLayout();
  const layout: ContainerLayout = { ...base, ...options.layout, env: { ...base.env, ...options.layout?.env } };
  checkContainerLayout(layout);
  const settings = [...describeDockerSettings(limits, layout), `results-limit=${resultsLimits.bytes}`, `results-files-limit=${resultsLimits.files}`];
  const resolved = await resolveImage(image);
  const runner = new DockerRunner(resolved.ref, resolved.imageId, limits, settings, resultsLimits, layout);
  // Asked now, so the answer is there by the first run (it overlaps the host's preparation).
  void runner.warm();
  return runner;
}

class DockerRunner implements Runner {
  readonly description: RunnerDescription;
  private readonly runnerId = randomBytes(8).toString('hex');
  /** Containers of runs in flight, with the controller that kills their client. */
  private readonly live = new Map<string, AbortController>();
  /** Results mounts of runs in flight: dispose() unmounts them so nothing is left mounted on exit. */
  private readonly mounts = new Set<ResultsMount>();
  /** `dispose()` calls begun, and those still in progress. */
  private disposals = 0;
  private disposing = 0;

  constructor(
    image: string,
    private readonly imageId: string,
    private readonly limits: DockerLimits,
    settings: string[],
    private readonly resultsLimits: ResultsLimits,
    private readonly layout: ContainerLayout
  ) {
    this.description = { kind: 'docker', isolated: true, image, image_id: imageId, settings };
  }

  view(): RunView {
    return { workdir: this.layout.workdir, resultsDir: this.layout.resultsDir };
  }

  async run(request: RunRequest): Promise<RunOutcome> {
    return (await this.prestart(request)).go();
  }

  /**
   * Create and start the run's container now, held at its start gate (START_GATE) until `go()`:
   * container start-up, the slow part of a run, then overlaps other runs. The candidate's command
   * has not begun before `go()`, and the time limit counts from there. Aborting `request.signal`,
   * `discard()` or `dispose()` kills and removes it; it is removed after its run whatever happened.
   */
  async prestart(request: RunRequest): Promise<PrestartedRun> {
    const epoch = this.disposals;
    // An image without /bin/sh cannot hold a container at the gate: its runs start at go() instead.
    const gated = await this.gateUsable();
    await checkDirectory(request.hostWorkdir);
    const results = await prepareResultsMount(request.hostResultsDir, this.resultsLimits);
    this.mounts.add(results);
    const containerName = `patchproof-${request.label.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 40)}-${randomBytes(6).toString('hex')}`;
    let args: string[];
    try {
      args = buildDockerRunArgs({
        imageId: this.imageId,
        containerName,
        hostWorkdir: request.hostWorkdir,
        hostResultsDir: results.hostDir,
        containerWorkdir: this.layout.workdir,
        containerResultsDir: this.layout.resultsDir,
        user: this.layout.user,
        home: this.layout.home,
        limits: request.execTmp === true ? { ...this.limits, tmpNoexec: false } : this.limits,
        mounts: (request.mounts ?? []).map((m) => ({ source: m.hostDir, target: `${this.layout.workdir}/${m.path}`, writable: m.writable })),
        network: request.network === true,
        init: request.init !== false,
        // Inside the read-only root only /tmp and the home tmpfs are writable.
        env: { ...this.layout.env, ...request.env, HOME: this.layout.home, TMPDIR: '/tmp' },
        argv: request.argv,
        labels: { [RUNNER_ID_LABEL]: this.runnerId, [RUN_LABEL]: request.label.replace(/[\0\n\r]/g, ' ') },
        startGate: gated
      });
    } catch (error) {
      await results.finish();
      this.mounts.delete(results);
      throw error;
    }

    // A run that would start while dispose() tears the runner down (or after one began since this
    // run was requested) is refused: the CLI exits as soon as dispose() resolves, and a container
    // started meanwhile would be left running with nobody to enforce its time limit.
    if (this.disposing > 0 || this.disposals !== epoch) {
      await results.finish();
      this.mounts.delete(results);
      throw new InfrastructureError(`the Docker runner was disposed before the ${request.label} run could start`);
    }
    const controller = new AbortController();
    this.live.set(containerName, controller);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let goAt: number | undefined;
    let killed = false;
    let removed = false;
    let resultsOverflow = false;
    let finished: Promise<RunOutcome> | undefined;
    let cleaned: Promise<void> | undefined;
    // The scheduler's early exit: the container is killed as on a timeout; its outcome is discarded.
    const cancel = (): void => {
      controller.abort();
      // A run that never launched has no process whose end would clean up after it.
      if (finished === undefined) void cleanup().catch(() => undefined);
    };
    const cleanup = (): Promise<void> =>
      (cleaned ??= (async () => {
        request.signal?.removeEventListener('abort', cancel);
        this.live.delete(containerName);
        // One `docker rm` per run: the second only when the first was never reached or failed.
        if (!removed) await removeContainers([containerName]);
        await results.finish();
        this.mounts.delete(results);
      })());

    if (gated) {
      const created = await dockerCli(args).catch(async (error: unknown) => {
        await cleanup();
        throw error;
      });
      if (created.code !== 0) {
        await cleanup();
        throw new InfrastructureError(`docker create failed: ${firstLine(created.stderr) || `exit ${String(created.code)}`}`);
      }
    }
    if (this.disposing > 0 || this.disposals !== epoch || request.signal?.aborted === true) {
      await cleanup();
      throw new InfrastructureError(`the ${request.label} run was stopped before it could start`);
    }
    request.signal?.addEventListener('abort', cancel, { once: true });
    results.watch(() => {
      resultsOverflow = true;
      controller.abort();
    });

    const launch = async (): Promise<RunOutcome> => {
      try {
        const outcome = await runCappedProcess({
          argv: gated ? ['docker', 'start', '--attach', '--interactive', containerName] : ['docker', ...args],
          cwd: request.hostWorkdir,
          env: dockerClientEnv(),
          timeoutMs: request.timeoutMs,
          outputLimitBytes: request.outputLimitBytes,
          signal: controller.signal,
          ...(gated ? { go: gate } : {}),
          onKill: async () => {
            killed = true;
            // Killing the client does not stop the container: kill it through the daemon.
            await dockerCli(['kill', containerName]).catch(() => undefined);
          }
        });
        if (goAt === undefined && !killed) {
          throw new InfrastructureError(`the container of the ${request.label} run ended before its run began: ${firstLine(outcome.output) || `exit ${String(outcome.exitCode)}`}`);
        }
        // The client exits non-zero both when the daemon could not start the container and when
        // the test process failed: only the container's own state tells them apart.
        if (!killed && outcome.exitCode !== 0 && !(await startedAndExited(containerName, outcome.exitCode))) {
          throw new InfrastructureError(`docker ${gated ? 'start' : 'run'} failed (exit ${String(outcome.exitCode)}): ${firstLine(outcome.output)}`);
        }
        // Writing up to the results cap is judged like output past the output cap: never a pass.
        if (!resultsOverflow && (await results.full())) resultsOverflow = true;
        // Every process of the run has ended before a single result is read: the container goes first.
        this.live.delete(containerName);
        await removeContainers([containerName]);
        removed = true;
        const complete = await results.finish({
          expected: request.resultFiles ?? ['**'],
          deadline: (goAt ?? Date.now()) + request.timeoutMs + RESULTS_COLLECTION_GRACE_MS
        });
        if (!complete) resultsOverflow = true;
        return resultsOverflow ? { ...outcome, outputTruncated: true } : outcome;
      } finally {
        await cleanup();
      }
    };
    const started = (): Promise<RunOutcome> => {
      const running = launch();
      // Nobody may ever await a run that was discarded: its failure must not go unhandled.
      running.catch(() => undefined);
      return running;
    };
    if (gated) finished = started();

    return {
      go: async () => {
        if (goAt !== undefined) throw new Error(`the ${request.label} run was released twice`);
        if (this.disposing > 0 || this.disposals !== epoch) controller.abort();
        goAt = Date.now();
        release();
        finished ??= started();
        return finished;
      },
      discard: async () => {
        controller.abort();
        if (finished === undefined) await cleanup();
        else await finished.catch(() => undefined);
      }
    };
  }

  /** Start the one-time questions about the image (see gateUsable). */
  warm(): Promise<boolean> {
    return this.gateUsable();
  }

  /**
   * Whether the image has a /bin/sh to hold containers at (asked once per image and process, by
   * copying it out of a created, never started, container).
   */
  private gateUsable(): Promise<boolean> {
    let probe = shellProbes.get(this.imageId);
    if (probe === undefined) {
      probe = probeShell(this.imageId, this.runnerId).catch(() => false);
      shellProbes.set(this.imageId, probe);
    }
    return probe;
  }

  async dispose(): Promise<void> {
    this.disposals += 1;
    this.disposing += 1;
    try {
      for (const controller of this.live.values()) controller.abort();
      // A probe still under way would otherwise create its container after the listing below.
      await Promise.allSettled([...probesUnderWay]);
      // By label as well as by name: a container the daemon finished creating after its client was
      // killed (and after that run's own `rm -f`) is still found and removed.
      const listed = await dockerCli(['ps', '-aq', '--filter', `label=${RUNNER_ID_LABEL}=${this.runnerId}`]);
      const ids = listed.code === 0 ? listed.stdout.split('\n').filter((line) => line.trim() !== '') : [];
      await removeContainers([...this.live.keys(), ...ids]);
      await Promise.allSettled([...this.mounts].map((mount) => mount.finish()));
    } finally {
      this.disposing -= 1;
    }
  }
}

/**
 * Install SIGINT/SIGTERM handlers (for the CLI) that dispose the runners, then exit with 130 or
 * 143. A second signal while disposing exits at once. Returns a function that uninstalls them.
 */
export function installSignalCleanup(runners: Runner | readonly Runner[], exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let disposing = false;
  const handler = (signal: NodeJS.Signals): void => {
    const code = signal === 'SIGINT' ? 130 : 143;
    if (disposing) {
      exit(code);
      return;
    }
    disposing = true;
    const list: readonly Runner[] = Array.isArray(runners) ? runners : [runners as Runner];
    void Promise.allSettled(list.map((runner) => runner.dispose())).then(() => exit(code));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** Remove containers by name or ID; a container already gone is fine, anything else is not. */
async function removeContainers(names: readonly string[]): Promise<void> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return;
  const result = await dockerCli(['rm', '-f', ...unique]);
  if (result.code === 0) return;
  const problems = result.stderr.split('\n').filter((line) => line.trim() !== '' && !/no such container|already in progress/i.test(line));
  if (problems.length > 0) {
    throw new InfrastructureError(`docker rm -f ${unique.join(' ')} failed: ${problems.join('; ')}`);
  }
}

/** Per image ID: whether it has a /bin/sh (see DockerRunner.gateUsable). */
const shellProbes = new Map<string, Promise<boolean>>();

function probeShell(imageId: string, runnerId: string): Promise<boolean> {
  let answer!: (has: boolean) => void;
  const answered = new Promise<boolean>((resolve) => {
    answer = resolve;
  });
  const name = `patchproof-probe-${randomBytes(6).toString('hex')}`;
  // The whole probe, its container's removal included, is awaited by every dispose(); its answer is
  // given as soon as the copy has answered, so the first run's `docker create` does not wait for
  // that removal (0.2 s and more under load).
  const probe = (async () => {
    const created = await dockerCli(['create', `--name=${name}`, '--network=none', `--label=${RUNNER_ID_LABEL}=${runnerId}`, '--label=patchproof=1', imageId, '/bin/sh']);
    if (created.code !== 0) {
      answer(false);
      return;
    }
    try {
      const copied = await dockerCli(['cp', '--follow-link', `${name}:/bin/sh`, '-']);
      answer(copied.code === 0);
    } finally {
      answer(false);
      await removeContainers([name]).catch(() => undefined);
    }
  })().catch(() => answer(false));
  probesUnderWay.add(probe);
  void probe.finally(() => probesUnderWay.delete(probe));
  return answered;
}

/** Probes (see probeShell) not yet finished, their containers' removal included. */
const probesUnderWay = new Set<Promise<void>>();

/** Whether the container really started and its process exited with `exitCode`. */
async function startedAndExited(containerName: string, exitCode: number | null): Promise<boolean> {
  const result = await dockerCli(['container', 'inspect', '--format', '{{.State.StartedAt}} {{.State.ExitCode}}', containerName]);
  if (result.code !== 0) return false;
  const [startedAt, code] = result.stdout.trim().split(' ');
  return startedAt !== undefined && !startedAt.startsWith('0001-') && code === String(exitCode);
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

async function checkDirectory(path: string): Promise<void> {
  const info = await stat(path).catch((error: unknown) => {
    throw new InfrastructureError(`the repository copy ${path} is missing`, { cause: error });
  });
  if (!info.isDirectory()) throw new InfrastructureError(`the repository copy ${path} is not a directory`);
}
