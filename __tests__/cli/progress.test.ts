import { eventLine, runOutcomeText, type RunEvent } from '../../src/core/progress.js';
import { stderrProgress } from '../../src/cli/progress.js';

/** Progress lines: the plain lines without a terminal, the live status line on one. */

const start: RunEvent = { kind: 'start', phase: 'reproduction_before', tree: 'base', attempt: 1 };
const end: RunEvent = { ...start, kind: 'end', durationMs: 1234, outcome: '2 failed (exit 1)' };

describe('run events', () => {
  it('plain lines name phase, tree, attempt, duration and outcome (and the candidate in a screening)', () => {
    expect(eventLine(start)).toBe('run started: reproduction_before #1 (base)');
    expect(eventLine(end)).toBe('run ended: reproduction_before #1 (base) in 1.2 s: 2 failed (exit 1)');
    expect(eventLine({ ...end, candidate: 'fix', phase: 'build', tree: 'patched', outcome: 'built' })).toBe('run ended: fix: build #1 (patched) in 1.2 s: built');
  });

  it('outcomes: counts by status with the exit code; a timeout, a cut output or an infrastructure error first', () => {
    expect(runOutcomeText({ exitCode: 1, timedOut: false, outputTruncated: false, statuses: ['passed', 'failed', 'passed'] })).toBe('2 passed, 1 failed (exit 1)');
    expect(runOutcomeText({ exitCode: 0, timedOut: false, outputTruncated: false, statuses: [] })).toBe('no results (exit 0)');
    expect(runOutcomeText({ exitCode: null, timedOut: true, outputTruncated: false })).toBe('timed out');
    expect(runOutcomeText({ exitCode: null, timedOut: false, outputTruncated: true })).toBe('output cut at the cap');
    expect(runOutcomeText({ exitCode: null, timedOut: false, outputTruncated: false, infraError: 'docker down' })).toBe('infrastructure error');
  });
});

describe('stderrProgress', () => {
  const recording = (isTTY: boolean) => {
    let text = '';
    return { stream: { write: (t: string) => void (text += t), isTTY, columns: 60 }, text: () => text };
  };

  it('without a terminal: one plain line per start, end and log line, no control characters', () => {
    const { stream, text } = recording(false);
    const progress = stderrProgress(stream);
    progress.run(start);
    progress.log('base sha256:…');
    progress.run(end);
    progress.done();
    expect(text()).toBe('run started: reproduction_before #1 (base)\nbase sha256:…\nrun ended: reproduction_before #1 (base) in 1.2 s: 2 failed (exit 1)\n');
  });

  it('on a terminal: a status line of the runs going, redrawn in place, ended runs and logs printed above it, cleared at the end', () => {
    const { stream, text } = recording(true);
    const progress = stderrProgress(stream);
    progress.run(start);
    progress.run({ ...start, phase: 'regression_before' });
    expect(text()).toBe(
      'running 1: reproduction_before #1 (base) · 0 ended\r\u001b[Krunning 2: reproduction_before #1 (base), regression_before #1 (base) · 0 ended'
        .slice(0, 200)
        .replace(/running 2: .*/, (line) => (line.length > 59 ? `${line.slice(0, 58)}…` : line))
    );
    progress.log('a log line');
    progress.run(end);
    progress.done();
    const after = text();
    expect(after).toContain('\r\u001b[Ka log line\n');
    expect(after).toContain('\r\u001b[Krun ended: reproduction_before #1 (base) in 1.2 s: 2 failed (exit 1)\nrunning 1: regression_before #1 (base) · 1 ended');
    // done() clears the status line: the text ends with the erase sequence.
    expect(after.endsWith('\r\u001b[K')).toBe(true);
    // Every drawn status line fits the terminal's width (the plain lines above it are not cut).
    const status = after
      .split('\n')
      .flatMap((line) => line.split('\r\u001b[K'))
      .filter((line) => line.startsWith('running '));
    expect(status.length).toBeGreaterThan(2);
    for (const line of status) expect(line.length).toBeLessThanOrEqual(59);
  });
});
