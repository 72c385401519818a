import { eventLine, runName, type ProgressSink, type RunEvent } from '../core/progress.js';

/**
 * Progress lines on stderr (never stdout, which tests and scripts parse). On a terminal: a live
 * status line (the runs going now, and how many ended) redrawn in place, with each ended run and
 * every log line printed above it. Otherwise: one plain line per run start and end.
 */
export interface StderrProgress extends ProgressSink {
  /** A log line: printed above the status line on a terminal. */
  log(line: string): void;
  /** Clear the status line (at the end of the work). */
  done(): void;
}

export interface ProgressStream {
  write(text: string): void;
  /** A terminal: the status line is drawn live. */
  isTTY?: boolean;
  /** The terminal's width, to keep the status line on one row. */
  columns?: number;
}

export function stderrProgress(stream: ProgressStream): StderrProgress {
  if (stream.isTTY !== true) {
    return {
      run: (event) => stream.write(`${eventLine(event)}\n`),
      log: (line) => stream.write(`${line}\n`),
      done: () => undefined
    };
  }
  const running = new Map<string, RunEvent>();
  let ended = 0;
  let drawn = false;
  const clear = (): void => {
    if (drawn) stream.write('\r\u001b[K');
    drawn = false;
  };
  const draw = (): void => {
    if (running.size === 0) return;
    const width = Math.max(20, (stream.columns ?? 100) - 1);
    const text = `running ${running.size}: ${[...running.values()].map(runName).join(', ')} · ${ended} ended`;
    stream.write(text.length > width ? `${text.slice(0, width - 1)}…` : text);
    drawn = true;
  };
  return {
    run: (event) => {
      const key = runName(event);
      clear();
      if (event.kind === 'start') {
        running.set(key, event);
      } else {
        running.delete(key);
        ended += 1;
        stream.write(`${eventLine(event)}\n`);
      }
      draw();
    },
    log: (line) => {
      clear();
      stream.write(`${line}\n`);
      draw();
    },
    done: () => clear()
  };
}
