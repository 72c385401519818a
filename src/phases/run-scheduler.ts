/**
 * The run scheduler: one validation's container runs as a small DAG.
 *
 * Every run has two steps: `prepare` (copy the tree, stage the harness and tests, build the
 * command: host work) and `run` (the container). Preparing is overlapped with running: up to
 * `prepareAhead` runs are prepared while `concurrency` others run, so a container starts as soon
 * as a slot frees instead of after its copy is made.
 *
 * One edge makes it a DAG rather than a list: gated runs (the patched tree's) count only when the
 * gate (the base reproduction's runs) opens. They start speculatively, in parallel with the gate;
 * when the gate closes they are cancelled through their AbortSignal and every one of them is
 * `not_run`, including any that had already finished: the outcome depends on the gate's results
 * alone, never on which run happened to finish first. A gated run is never reported as done
 * unless the gate opened.
 *
 * `rank` orders the work: jobs are prepared, and take a free container slot, highest rank first
 * (ties in job order). Callers rank the runs expected to be longest highest (the suites), so the
 * short runs fill the slots around them instead of one long run going alone at the end.
 *
 * Results come back in job order, whatever order the runs ended in.
 */

export interface SchedulerOptions<J, P, R> {
  jobs: readonly J[];
  /** Runs (containers) at once; at least 1. */
  concurrency: number;
  /** Runs prepared beyond those running; 0 prepares each run only when a slot is free. */
  prepareAhead: number;
  prepare(job: J, signal: AbortSignal): Promise<P>;
  run(job: J, prepared: P, signal: AbortSignal): Promise<R>;
  /**
   * A job's priority (a finite number; absent: 0 for every job). Higher ranks are prepared first
   * and take a free slot first; equal ranks go in job order. It changes when runs happen, never
   * which runs count or what they return.
   */
  rank?: (job: J) => number;
  /** Absent: every job runs. */
  gate?: {
    /** The jobs whose results decide the gate. */
    member(job: J): boolean;
    /** The jobs that are only needed when the gate opens (never a gate member). */
    gated(job: J): boolean;
    /** Told the gate members' results in job order; true opens the gate. */
    open(results: R[]): boolean;
  };
  /**
   * Told when each run (the container step, after its preparation) starts and ends: the event
   * source of progress lines. `result` is absent when the run was cancelled or threw. Must not throw.
   */
  progress?: RunProgress<J, R>;
}

/** The scheduler's narrow progress interface. */
export interface RunProgress<J, R> {
  started(job: J): void;
  ended(job: J, result: R | undefined, durationMs: number): void;
}

export type Scheduled<J, R> = { job: J; status: 'done'; result: R } | { job: J; status: 'not_run' };

/**
 * A counting semaphore whose waiters are served by priority: the lowest `order` first (callers
 * pass a job's position in rank order), so equal priorities are served first come, first served.
 */
class Slots {
  private free: number;
  private readonly waiting: { order: number; resolve: () => void }[] = [];
  constructor(count: number) {
    this.free = count;
  }
  async take(order: number): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    await new Promise<void>((resolve) => {
      const at = this.waiting.findIndex((w) => w.order > order);
      this.waiting.splice(at === -1 ? this.waiting.length : at, 0, { order, resolve });
    });
  }
  give(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next.resolve();
    else this.free += 1;
  }
}

/** Job indexes, highest rank first, ties in job order; a rank that is not a finite number is refused. */
function rankOrder<J>(jobs: readonly J[], rank: ((job: J) => number) | undefined): number[] {
  const ranks = jobs.map((job, index) => {
    const value = rank === undefined ? 0 : rank(job);
    if (!Number.isFinite(value)) throw new Error(`the run scheduler was given rank ${String(value)} for job ${index}; a rank must be a finite number`);
    return value;
  });
  return jobs.map((_, index) => index).sort((a, b) => ranks[b]! - ranks[a]! || a - b);
}

/** Thrown inside a cancelled job's steps; never escapes scheduleRuns. */
class Cancelled extends Error {}

/**
 * Run every job (prepare, then run) under the limits, with the gate's early exit. Errors thrown by
 * `prepare` or `run` of a job that counts reject the whole schedule (callers turn run failures
 * into results themselves); those of a cancelled job are ignored.
 */
export async function scheduleRuns<J, P, R>(options: SchedulerOptions<J, P, R>): Promise<Scheduled<J, R>[]> {
  const { jobs, gate } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const running = new Slots(concurrency);
  // A slot of `staged` is held from the start of a job's preparation to the end of its run.
  const staged = new Slots(concurrency + Math.max(0, Math.floor(options.prepareAhead)));
  const cancel = new AbortController();
  const gatedJob = (job: J): boolean => gate !== undefined && gate.gated(job) && !gate.member(job);
  const members = gate === undefined ? [] : jobs.map((job, index) => ({ job, index })).filter(({ job }) => gate.member(job));
  let gateOpen: boolean | undefined = gate === undefined ? true : undefined;

  const results: (Scheduled<J, R> | undefined)[] = new Array<Scheduled<J, R> | undefined>(jobs.length);
  const memberResults = new Map<number, R>();
  let gateDecided: () => void = () => undefined;
  const decided = new Promise<void>((resolve) => {
    gateDecided = resolve;
  });
  const decide = (): void => {
    if (gate === undefined || gateOpen !== undefined || memberResults.size < members.length) return;
    gateOpen = gate.open(members.map(({ index }) => memberResults.get(index) as R));
    if (!gateOpen) cancel.abort();
    gateDecided();
  };
  if (gate === undefined) gateDecided();
  else decide();

  const one = async (job: J, index: number, order: number): Promise<void> => {
    const gated = gatedJob(job);
    const signal = gated ? cancel.signal : new AbortController().signal;
    const stop = (): void => {
      if (gated && signal.aborted) throw new Cancelled();
    };
    await staged.take(order);
    try {
      stop();
      const prepared = await options.prepare(job, signal);
      stop();
      await running.take(order);
      let began: number | undefined;
      let result: R | undefined;
      try {
        stop();
        began = Date.now();
        options.progress?.started(job);
        result = await options.run(job, prepared, signal);
        results[index] = { job, status: 'done', result };
      } finally {
        running.give();
        // A cancelled or failed run ends too (without a result), so a status line never hangs on it.
        if (began !== undefined) options.progress?.ended(job, gated && signal.aborted ? undefined : result, Date.now() - began);
      }
    } catch (error) {
      if (!(gated && signal.aborted)) throw error;
    } finally {
      staged.give();
    }
    if (gate?.member(job) === true) {
      memberResults.set(index, (results[index] as { result: R }).result);
      decide();
    }
  };

  // Slots are taken in rank order (job order among equals): jobs are started one after another up
  // to the point where a slot is missing, so no job is starved by those ranked below it, and the
  // gate's members (listed first by callers) are never starved by gated jobs of their own rank.
  const all: Promise<void>[] = [];
  for (const [order, index] of rankOrder(jobs, options.rank).entries()) {
    all.push(one(jobs[index]!, index, order));
  }
  const settled = await Promise.allSettled(all);
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure !== undefined) {
    cancel.abort();
    throw failure.reason;
  }
  await decided;
  return jobs.map((job, index) => {
    if (gatedJob(job) && gateOpen !== true) return { job, status: 'not_run' };
    const result = results[index];
    // Every job that counts has a result here: a missing one is a scheduler bug, never a pass.
    if (result === undefined) throw new Error(`the run scheduler lost job ${index}`);
    return result;
  });
}
