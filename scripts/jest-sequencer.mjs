import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import TestSequencer from '@jest/test-sequencer';

/**
 * Jest's order, with a better guess for files it has no timing for (a fresh clone in CI has none).
 * Jest then runs the largest files first; here the Docker test files (those that gate on the engine,
 * `dockerGate(` or `dockerTestGate(`, the rule of __tests__/readme-docker-tests.test.ts) come before
 * every other untimed file, and a file's size counts the test modules it imports from its own folder
 * (`./x.js`: the hostile matrices' files are short and their cells live in a *-support.ts), so the
 * longest files start first and the two workers stay busy to the end. Failed and timed files keep
 * Jest's own order (failed first, then the untimed, then the timed, longest first).
 */
const DOCKER = /\b(dockerGate|dockerTestGate)\(/;
const SIBLING = /from '\.\/([\w.-]+)\.js'/g;

function size(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Whether the file is a Docker test file, and its size with its sibling imports. */
function estimate(path) {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { docker: false, bytes: 0 };
  }
  let bytes = text.length;
  for (const [, name] of text.matchAll(SIBLING)) bytes += size(join(dirname(path), `${name}.ts`));
  return { docker: DOCKER.test(text), bytes };
}

export default class CostSequencer extends TestSequencer {
  sort(tests) {
    const guesses = new Map();
    const guess = (test) => guesses.get(test.path) ?? guesses.set(test.path, estimate(test.path)).get(test.path);
    const ordered = super.sort(tests);
    const failed = ordered.filter((test) => this.hasFailed(test));
    const untimed = ordered.filter((test) => !this.hasFailed(test) && this.time(test) == null);
    const timed = ordered.filter((test) => !this.hasFailed(test) && this.time(test) != null);
    untimed.sort((a, b) => Number(guess(b).docker) - Number(guess(a).docker) || guess(b).bytes - guess(a).bytes);
    // Jest's own order between the groups: failed, then untimed, then timed (longest first).
    return [...failed, ...untimed, ...timed];
  }
}
