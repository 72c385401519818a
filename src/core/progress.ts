/**
 * Progress on long work (`validate`, `screen`): one event when a container run starts and one when
 * it ends, with its phase, tree, attempt, duration and outcome. Pure: the event's shape and its
 * plain line. The events come from the run scheduler (src/phases/run-scheduler.ts `progress`); where they
 * go is the caller's (stderr in the CLI, log groups in the action), never stdout.
 */

export interface RunEvent {
  kind: 'start' | 'end';
  /** The run label (`reproduction_before`, `regression_after`, …) or `build`. */
  phase: string;
  tree: 'base' | 'patched';
  attempt: number;
  /** `end` only: wall-clock milliseconds of the run (its container's command). */
  durationMs?: number;
  /** `end` only: e.g. `2 passed, 1 failed (exit 1)`, `timed out`, `infrastructure error`, `cancelled`. */
  outcome?: string;
  /** A candidate's name, when several are screened. */
  candidate?: string;
}

/** Told every run event; must not throw. */
export interface ProgressSink {
  run(event: RunEvent): void;
}

/** `reproduction_before #1 (base)`, with the candidate in front when there is one. */
export function runName(event: Pick<RunEvent, 'phase' | 'tree' | 'attempt' | 'candidate'>): string {
  return `${event.candidate !== undefined ? `${event.candidate}: ` : ''}${event.phase} #${event.attempt} (${event.tree})`;
}

/** The plain line of an event, as a log without a terminal shows it. */
export function eventLine(event: RunEvent): string {
  if (event.kind === 'start') return `run started: ${runName(event)}`;
  const seconds = ((event.durationMs ?? 0) / 1000).toFixed(1);
  return `run ended: ${runName(event)} in ${seconds} s: ${event.outcome ?? 'done'}`;
}

/** A test run's outcome in a few words, from what its evidence holds. */
export function runOutcomeText(run: { exitCode: number | null; timedOut: boolean; outputTruncated: boolean; infraError?: string; statuses?: readonly string[] }): string {
  if (run.infraError !== undefined) return 'infrastructure error';
  if (run.timedOut) return 'timed out';
  if (run.outputTruncated) return 'output cut at the cap';
  const counts = new Map<string, number>();
  for (const status of run.statuses ?? []) counts.set(status, (counts.get(status) ?? 0) + 1);
  const tests = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
  return `${tests === '' ? 'no results' : tests} (exit ${String(run.exitCode)})`;
}
