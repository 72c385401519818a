import { join } from 'node:path';
import { patchproofLeftovers, proposeAndApprove } from '../helpers/cli.js';
import { JS, area, containersUnder, dockerGate, ensureCli, hostileDiff, processesUnder, startValidate, validateArgv, waitFor, type Area } from './hostile-support.js';

/**
 * SIGTERM and SIGINT reach a `validate --runner docker` CLI process while the never-ending
 * candidate runs in its containers: the CLI stops them, removes them and exits 143 / 130 within a
 * few seconds, leaving no container behind.
 */

const gate = await dockerGate('hostile signal tests');

const SIGNALS = [
  { signal: 'SIGTERM', code: 143 },
  { signal: 'SIGINT', code: 130 }
] as const;

gate.describeDocker('signals to a running Docker validation', () => {
  let where: Area;
  /** Scratch folders each signalled CLI left in its TMPDIR (see the known-bug test below). */
  const scratchLeft = new Map<string, string[]>();

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-signal');
  });

  afterEach(async () => {
    await where.dispose();
  });

  it.each(SIGNALS)(
    '$signal: exits $code within a few seconds and leaves no container',
    async ({ signal, code }) => {
      const approved = await proposeAndApprove(JS.repo, hostileDiff('busy-loop'), where.dir, where.tmp, `hostile-${signal}`);
      // --timeout 60: the candidate never ends, so only the signal can end this validation in time.
      const argv = validateArgv(approved, join(where.dir, 'out'), { runner: 'docker', imageId: gate.imageId, timeoutSeconds: 60 });
      const started = Date.now();
      const { child, exited } = startValidate(argv, where.tmp);
      try {
        // Signal once a container of this CLI is running and ~3 s have passed.
        const running = await waitFor(async () => (await containersUnder(where.tmp, 'running')).length > 0 && Date.now() - started >= 3_000, 20_000, 200);
        expect(running).toBe(true);
        expect(child.exitCode).toBeNull();
        // The check used below does see this CLI's container processes while they run.
        expect(processesUnder(where.tmp).length).toBeGreaterThan(0);

        const sentAt = Date.now();
        child.kill(signal);
        const exit = await Promise.race([exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000))]);
        expect(exit).not.toBeNull();
        expect(exit!.signal).toBeNull();
        expect(exit!.code).toBe(code);
        expect(exit!.at - sentAt).toBeLessThan(5_000);

        // Nothing left now, nor a moment later (a run queued behind the killed ones must not start).
        expect(await containersUnder(where.tmp)).toEqual([]);
        expect(processesUnder(where.tmp)).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        expect(await containersUnder(where.tmp)).toEqual([]);
        expect(processesUnder(where.tmp)).toEqual([]);
        scratchLeft.set(signal, patchproofLeftovers(where.tmp));
      } finally {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGKILL');
          await exited;
        }
      }
    },
    45_000
  );

  // The signal handler exits the process before validate()'s `finally` can run, so the CLI removes
  // the live scratch areas in the handler itself (removeLiveScratchSync).
  it('leaves no scratch copies in TMPDIR after a signal', () => {
    expect(scratchLeft.size).toBe(SIGNALS.length);
    for (const left of scratchLeft.values()) expect(left).toEqual([]);
  });
});
