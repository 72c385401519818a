import { scheduleRuns, type RunProgress, type Scheduled } from '../src/phases/run-scheduler.js';

/**
 * The run scheduler against a fake runner whose runs end only when the test says so (no timers):
 * every assertion is about order and counts, never about time.
 */

interface Job {
  name: string;
  tree: 'base' | 'patched';
  gate?: boolean;
}

/** A promise the test resolves or rejects by hand. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Let every pending promise callback run. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
};

/** A fake runner: records what is prepared and running; each run waits for `finish(name, result)`. */
function fakeRunner() {
  const events: string[] = [];
  const running = new Set<string>();
  const preparing = new Set<string>();
  let maxRunning = 0;
  let maxHeld = 0;
  const held = new Set<string>();
  const pending = new Map<string, ReturnType<typeof deferred<string>>>();
  const aborted: string[] = [];
  return {
    events,
    aborted,
    get maxRunning() {
      return maxRunning;
    },
    get maxHeld() {
      return maxHeld;
    },
    running,
    preparing,
    prepare: (job: Job): Promise<string> => {
      events.push(`prepare ${job.name}`);
      held.add(job.name);
      maxHeld = Math.max(maxHeld, held.size);
      return Promise.resolve(`copy-of-${job.name}`);
    },
    run: async (job: Job, prepared: string, signal: AbortSignal): Promise<string> => {
      expect(prepared).toBe(`copy-of-${job.name}`);
      events.push(`run ${job.name}`);
      running.add(job.name);
      maxRunning = Math.max(maxRunning, running.size);
      const done = deferred<string>();
      pending.set(job.name, done);
      const kill = (): void => {
        aborted.push(job.name);
        done.reject(new Error(`${job.name} killed`));
      };
      signal.addEventListener('abort', kill);
      try {
        return await done.promise;
      } finally {
        signal.removeEventListener('abort', kill);
        running.delete(job.name);
        held.delete(job.name);
      }
    },
    finish: async (name: string, result: string): Promise<void> => {
      await settle();
      const done = pending.get(name);
      if (done === undefined) throw new Error(`${name} is not running`);
      done.resolve(result);
      await settle();
    }
  };
}

const JOBS: Job[] = [
  { name: 'repro-before-1', tree: 'base', gate: true },
  { name: 'repro-before-2', tree: 'base', gate: true },
  { name: 'suite-before', tree: 'base' },
  { name: 'repro-after-1', tree: 'patched' },
  { name: 'repro-after-2', tree: 'patched' },
  { name: 'suite-after', tree: 'patched' },
  { name: 'hidden', tree: 'patched' }
];

function start(
  fake: ReturnType<typeof fakeRunner>,
  options: { concurrency?: number; prepareAhead?: number; gateOpens?: (results: string[]) => boolean; progress?: RunProgress<Job, string> } = {}
) {
  return scheduleRuns<Job, string, string>({
    jobs: JOBS,
    concurrency: options.concurrency ?? 2,
    prepareAhead: options.prepareAhead ?? 1,
    prepare: (job) => fake.prepare(job),
    run: (job, prepared, signal) => fake.run(job, prepared, signal),
    ...(options.progress !== undefined ? { progress: options.progress } : {}),
    gate: {
      member: (job) => job.gate === true,
      gated: (job) => job.tree === 'patched',
      open: options.gateOpens ?? ((results) => results.every((r) => r === 'reproduced'))
    }
  });
}

const statuses = (scheduled: Scheduled<Job, string>[]): string[] => scheduled.map((s) => `${s.job.name}:${s.status === 'done' ? s.result : 'not_run'}`);

describe('the run scheduler', () => {
  it('runs every job, at most `concurrency` at once, prepares the next while others run, and returns results in job order', async () => {
    const fake = fakeRunner();
    const schedule = start(fake);
    await settle();
    // Two running, and a third already prepared (prepare ahead 1), waiting for a slot.
    expect([...fake.running].sort()).toEqual(['repro-before-1', 'repro-before-2']);
    expect(fake.events).toContain('prepare suite-before');
    expect(fake.events).not.toContain('run suite-before');
    // Finish in reverse order: results still come back in job order.
    await fake.finish('repro-before-2', 'reproduced');
    expect(fake.running.has('suite-before')).toBe(true);
    await fake.finish('suite-before', 'suite ok');
    await fake.finish('repro-before-1', 'reproduced');
    for (const name of ['hidden', 'suite-after', 'repro-after-2', 'repro-after-1']) {
      await settle();
      // Whatever is running now, finish the wanted one once it started.
      while (!fake.running.has(name)) {
        const other = [...fake.running][0];
        if (other === undefined) break;
        await fake.finish(other, `${other} ok`);
      }
      if (fake.running.has(name)) await fake.finish(name, `${name} ok`);
    }
    const scheduled = await schedule;
    expect(statuses(scheduled)).toEqual([
      'repro-before-1:reproduced',
      'repro-before-2:reproduced',
      'suite-before:suite ok',
      'repro-after-1:repro-after-1 ok',
      'repro-after-2:repro-after-2 ok',
      'suite-after:suite-after ok',
      'hidden:hidden ok'
    ]);
    expect(fake.maxRunning).toBe(2);
    expect(fake.maxHeld).toBe(3);
    expect(fake.aborted).toEqual([]);
  });

  it('cancels the gated runs when the gate closes, and records every one of them not_run, finished or not', async () => {
    const fake = fakeRunner();
    const schedule = start(fake, { concurrency: 3, prepareAhead: 0 });
    await settle();
    expect([...fake.running].sort()).toEqual(['repro-before-1', 'repro-before-2', 'suite-before']);
    await fake.finish('suite-before', 'suite ok');
    // A patched run starts speculatively and even finishes before the gate is decided.
    expect(fake.running.has('repro-after-1')).toBe(true);
    await fake.finish('repro-after-1', 'fixed');
    await fake.finish('repro-before-1', 'reproduced');
    expect([...fake.running].sort()).toEqual(['repro-after-2', 'repro-before-2', 'suite-after']);
    // The second base reproduction passes: the bug is not established.
    await fake.finish('repro-before-2', 'passed at base');
    const scheduled = await schedule;
    expect(statuses(scheduled)).toEqual([
      'repro-before-1:reproduced',
      'repro-before-2:passed at base',
      'suite-before:suite ok',
      'repro-after-1:not_run',
      'repro-after-2:not_run',
      'suite-after:not_run',
      'hidden:not_run'
    ]);
    // The patched runs in flight were killed (and only those); the last one never started.
    expect(fake.aborted.sort()).toEqual(['repro-after-2', 'suite-after']);
    expect(fake.aborted.every((name) => JOBS.find((j) => j.name === name)?.tree === 'patched')).toBe(true);
    expect(fake.events).not.toContain('run hidden');
  });

  it('gives the same outcome in another finishing order', async () => {
    const fake = fakeRunner();
    const schedule = start(fake, { concurrency: 1, prepareAhead: 0 });
    await fake.finish('repro-before-1', 'reproduced');
    await fake.finish('repro-before-2', 'passed at base');
    await fake.finish('suite-before', 'suite ok');
    expect(statuses(await schedule)).toEqual([
      'repro-before-1:reproduced',
      'repro-before-2:passed at base',
      'suite-before:suite ok',
      'repro-after-1:not_run',
      'repro-after-2:not_run',
      'suite-after:not_run',
      'hidden:not_run'
    ]);
    expect(fake.events.filter((e) => e.startsWith('run '))).toEqual(['run repro-before-1', 'run repro-before-2', 'run suite-before']);
  });

  it('rejects when a job that counts fails, and never reports it done', async () => {
    const scheduled = scheduleRuns<Job, string, string>({
      jobs: JOBS.slice(0, 3),
      concurrency: 2,
      prepareAhead: 1,
      prepare: (job) => Promise.resolve(job.name),
      run: (job) => {
        if (job.name === 'suite-before') return Promise.reject(new Error('docker went away'));
        return Promise.resolve('reproduced');
      }
    });
    await expect(scheduled).rejects.toThrow('docker went away');
  });

  it('without a gate runs everything, even with a concurrency of one', async () => {
    const order: string[] = [];
    const scheduled = await scheduleRuns<Job, string, string>({
      jobs: JOBS,
      concurrency: 1,
      prepareAhead: 2,
      prepare: (job) => {
        order.push(`prepare ${job.name}`);
        return Promise.resolve(job.name);
      },
      run: (job) => {
        order.push(`run ${job.name}`);
        return Promise.resolve('ok');
      }
    });
    expect(scheduled.every((s) => s.status === 'done')).toBe(true);
    expect(order.filter((e) => e.startsWith('run ')).map((e) => e.slice(4))).toEqual(JOBS.map((j) => j.name));
  });
});

describe('the run scheduler: progress events', () => {
  /** Records each event as `start NAME` / `end NAME RESULT`; durations are not asserted (no timing). */
  const recorder = () => {
    const seen: string[] = [];
    const progress: RunProgress<Job, string> = {
      started: (job) => void seen.push(`start ${job.name}`),
      ended: (job, result, durationMs) => {
        expect(durationMs).toBeGreaterThanOrEqual(0);
        seen.push(`end ${job.name} ${result ?? 'cancelled'}`);
      }
    };
    return { seen, progress };
  };

  it('tells each run as it starts (when its container step begins) and as it ends, with its result', async () => {
    const fake = fakeRunner();
    const { seen, progress } = recorder();
    const schedule = start(fake, { concurrency: 1, progress });
    await settle();
    // Only the running job has started; the prepared one waiting for a slot has not.
    expect(seen).toEqual(['start repro-before-1']);
    await fake.finish('repro-before-1', 'reproduced');
    expect(seen).toEqual(['start repro-before-1', 'end repro-before-1 reproduced', 'start repro-before-2']);
    await fake.finish('repro-before-2', 'reproduced');
    for (const name of ['suite-before', 'repro-after-1', 'repro-after-2', 'suite-after', 'hidden']) await fake.finish(name, 'ok');
    await schedule;
    expect(seen.filter((e) => e.startsWith('start'))).toHaveLength(JOBS.length);
    expect(seen.filter((e) => e.startsWith('end'))).toHaveLength(JOBS.length);
    // Every start comes before its own end.
    for (const job of JOBS) expect(seen.indexOf(`start ${job.name}`)).toBeLessThan(seen.indexOf(`end ${job.name} ${job.gate === true ? 'reproduced' : 'ok'}`));
  });

  it('a run cancelled by the closed gate ends without a result, so a status line never waits for it', async () => {
    const fake = fakeRunner();
    const { seen, progress } = recorder();
    const schedule = start(fake, { concurrency: 7, prepareAhead: 0, progress });
    await settle();
    await fake.finish('repro-before-1', 'passed-already');
    await fake.finish('repro-before-2', 'passed-already');
    await fake.finish('suite-before', 'ok');
    await schedule;
    for (const name of ['repro-after-1', 'repro-after-2', 'suite-after', 'hidden']) expect(seen).toContain(`end ${name} cancelled`);
    expect(seen.filter((e) => e.startsWith('start')).length).toBe(seen.filter((e) => e.startsWith('end')).length);
  });
});

describe('the run scheduler: rank (longest expected first)', () => {
  /** The suites ranked above the rest, as validate.ts ranks them. */
  const suitesFirst = (job: Job): number => (job.name.startsWith('suite-') ? 1 : 0);

  function startRanked(fake: ReturnType<typeof fakeRunner>, options: { concurrency: number; prepareAhead: number; gateOpens?: (results: string[]) => boolean }) {
    return scheduleRuns<Job, string, string>({
      jobs: JOBS,
      concurrency: options.concurrency,
      prepareAhead: options.prepareAhead,
      prepare: (job) => fake.prepare(job),
      run: (job, prepared, signal) => fake.run(job, prepared, signal),
      rank: suitesFirst,
      gate: {
        member: (job) => job.gate === true,
        gated: (job) => job.tree === 'patched',
        open: options.gateOpens ?? ((results) => results.every((r) => r === 'reproduced'))
      }
    });
  }

  it('starts the highest-ranked runs first, the rest in job order, and still returns results in job order', async () => {
    const fake = fakeRunner();
    const schedule = startRanked(fake, { concurrency: 2, prepareAhead: 1 });
    await settle();
    // Both suites hold the two slots; the first reproduction is prepared ahead, waiting.
    expect([...fake.running].sort()).toEqual(['suite-after', 'suite-before']);
    expect(fake.events.filter((e) => e.startsWith('prepare '))).toEqual(['prepare suite-before', 'prepare suite-after', 'prepare repro-before-1']);
    await fake.finish('suite-after', 'suite-after ok');
    expect([...fake.running].sort()).toEqual(['repro-before-1', 'suite-before']);
    await fake.finish('repro-before-1', 'reproduced');
    expect([...fake.running].sort()).toEqual(['repro-before-2', 'suite-before']);
    await fake.finish('repro-before-2', 'reproduced');
    await fake.finish('suite-before', 'suite ok');
    for (const name of ['repro-after-1', 'repro-after-2', 'hidden']) {
      await settle();
      expect(fake.running.has(name)).toBe(true);
      await fake.finish(name, `${name} ok`);
    }
    expect(statuses(await schedule)).toEqual([
      'repro-before-1:reproduced',
      'repro-before-2:reproduced',
      'suite-before:suite ok',
      'repro-after-1:repro-after-1 ok',
      'repro-after-2:repro-after-2 ok',
      'suite-after:suite-after ok',
      'hidden:hidden ok'
    ]);
    expect(fake.events.filter((e) => e.startsWith('run ')).map((e) => e.slice(4))).toEqual([
      'suite-before',
      'suite-after',
      'repro-before-1',
      'repro-before-2',
      'repro-after-1',
      'repro-after-2',
      'hidden'
    ]);
    expect(fake.maxRunning).toBe(2);
    expect(fake.maxHeld).toBe(3);
  });

  it('with one slot runs in rank order, ties in job order', async () => {
    const order: string[] = [];
    const scheduled = await scheduleRuns<Job, string, string>({
      jobs: JOBS,
      concurrency: 1,
      prepareAhead: 0,
      rank: (job) => (job.name === 'hidden' ? 5 : suitesFirst(job)),
      prepare: (job) => Promise.resolve(job.name),
      run: (job) => {
        order.push(job.name);
        return Promise.resolve('ok');
      }
    });
    expect(order).toEqual(['hidden', 'suite-before', 'suite-after', 'repro-before-1', 'repro-before-2', 'repro-after-1', 'repro-after-2']);
    expect(scheduled.map((s) => s.job.name)).toEqual(JOBS.map((j) => j.name));
  });

  it('a free slot goes to the highest-ranked prepared run, even one whose preparation ended later', async () => {
    const jobs: Job[] = [
      { name: 'first', tree: 'base' },
      { name: 'low', tree: 'base' },
      { name: 'high', tree: 'base' }
    ];
    const slowPrepare = deferred<string>();
    const blocker = deferred<string>();
    const order: string[] = [];
    const schedule = scheduleRuns<Job, string, string>({
      jobs,
      concurrency: 1,
      prepareAhead: 2,
      rank: (job) => ({ first: 9, low: 0, high: 1 })[job.name as 'first' | 'low' | 'high'],
      prepare: async (job) => (job.name === 'high' ? slowPrepare.promise : job.name),
      run: async (job) => {
        order.push(job.name);
        return job.name === 'first' ? blocker.promise : 'ok';
      }
    });
    await settle();
    // `first` runs; `low` is prepared and waiting; `high` is still preparing.
    expect(order).toEqual(['first']);
    slowPrepare.resolve('high');
    await settle();
    blocker.resolve('ok');
    await schedule;
    expect(order).toEqual(['first', 'high', 'low']);
  });

  it('keeps the gate: a closed gate cancels the gated suite started first, and every patched run is not_run', async () => {
    const fake = fakeRunner();
    const schedule = startRanked(fake, { concurrency: 2, prepareAhead: 0 });
    await settle();
    expect([...fake.running].sort()).toEqual(['suite-after', 'suite-before']);
    await fake.finish('suite-before', 'suite ok');
    expect([...fake.running].sort()).toEqual(['repro-before-1', 'suite-after']);
    await fake.finish('repro-before-1', 'reproduced');
    await fake.finish('repro-before-2', 'passed at base');
    expect(statuses(await schedule)).toEqual([
      'repro-before-1:reproduced',
      'repro-before-2:passed at base',
      'suite-before:suite ok',
      'repro-after-1:not_run',
      'repro-after-2:not_run',
      'suite-after:not_run',
      'hidden:not_run'
    ]);
    expect(fake.aborted).toContain('suite-after');
    expect(fake.aborted.every((name) => JOBS.find((j) => j.name === name)?.tree === 'patched')).toBe(true);
  });

  it('refuses a rank that is not a finite number', async () => {
    const scheduled = scheduleRuns<Job, string, string>({
      jobs: JOBS.slice(0, 2),
      concurrency: 1,
      prepareAhead: 0,
      rank: (job) => (job.name === 'repro-before-2' ? Number.NaN : 0),
      prepare: (job) => Promise.resolve(job.name),
      run: () => Promise.resolve('ok')
    });
    await expect(scheduled).rejects.toThrow('a rank must be a finite number');
  });
});
