import { actionProgress } from '../../src/action/validate-mode.js';

/** The action's progress: each ended run as one collapsible log group, titled by phase, tree, attempt, outcome and duration. */
describe('actionProgress', () => {
  it('logs each run, once it ended, as a group holding its start and end lines', () => {
    const groups: [string, readonly string[]][] = [];
    const info: string[] = [];
    const progress = actionProgress({ info: (line) => void info.push(line), group: (title, lines) => void groups.push([title, lines]) });
    progress.run({ kind: 'start', phase: 'reproduction_before', tree: 'base', attempt: 2 });
    progress.run({ kind: 'start', phase: 'build', tree: 'patched', attempt: 1 });
    expect(groups).toEqual([]);
    progress.run({ kind: 'end', phase: 'build', tree: 'patched', attempt: 1, durationMs: 2500, outcome: 'built' });
    progress.run({ kind: 'end', phase: 'reproduction_before', tree: 'base', attempt: 2, durationMs: 900, outcome: '2 failed (exit 1)' });
    expect(groups).toEqual([
      ['build #1 (patched): built in 2.5 s', ['run started: build #1 (patched)', 'run ended: build #1 (patched) in 2.5 s: built']],
      [
        'reproduction_before #2 (base): 2 failed (exit 1) in 0.9 s',
        ['run started: reproduction_before #2 (base)', 'run ended: reproduction_before #2 (base) in 0.9 s: 2 failed (exit 1)']
      ]
    ]);
    expect(info).toEqual([]);
  });

  it('without groups (a fake outcome), the same lines are logged plainly', () => {
    const info: string[] = [];
    const progress = actionProgress({ info: (line) => void info.push(line) });
    progress.run({ kind: 'start', phase: 'hidden', tree: 'patched', attempt: 1 });
    progress.run({ kind: 'end', phase: 'hidden', tree: 'patched', attempt: 1, durationMs: 10, outcome: 'cancelled' });
    expect(info).toEqual(['run started: hidden #1 (patched)', 'run ended: hidden #1 (patched) in 0.0 s: cancelled']);
  });
});
