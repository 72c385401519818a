import { countTests, type TestCaseResult, type TestCounts } from '../../core/test-results.js';
import type { TwinOutcome } from '../../core/twins.js';
import type { CommandRequest, TwinCanary } from '../adapter.js';
import { jsTwins } from './js-twins.js';
import { pythonTwins, type TwinBudget } from './python-twins.js';

/**
 * The budget of twin canaries for a run: a mutant of every staged reproduction/hidden test
 * (eligible ones), a sample of the repository's suite; and a few exact twins in either case.
 */
export function twinBudget(request: CommandRequest): TwinBudget {
  return request.suite ? { mutants: 4, twins: 2 } : { mutants: 'all', twins: 1 };
}

/**
 * Twin and mutant canaries for a Python run (unittest or pytest): the rewritten test files to
 * stage and the canaries' roles. Nothing when the adapter cannot read the copy's files.
 */
export function pythonTwinStage(style: 'unittest' | 'pytest', request: CommandRequest): { stage: Record<string, string>; twins: TwinCanary[] } {
  const sources = twinSources(request);
  if (Object.keys(sources).length === 0) return { stage: {}, twins: [] };
  return pythonTwins(style, sources, request.canary, twinBudget(request));
}

/** Twin and mutant canaries for a JS/TS run (node:test, jest, vitest), by @babel/parser. */
export function jsTwinStage(request: CommandRequest): { stage: Record<string, string>; twins: TwinCanary[] } {
  const sources = Object.fromEntries(Object.entries(twinSources(request)).filter(([file]) => JS_FILE.test(file)));
  if (Object.keys(sources).length === 0) return { stage: {}, twins: [] };
  return jsTwins(sources, request.canary, twinBudget(request));
}

/** The run's test files as the copy holds them (none when twins are off or unreadable). */
function twinSources(request: CommandRequest): Record<string, string> {
  const sources: Record<string, string> = {};
  if (request.readFile === undefined || request.twins === false) return sources;
  for (const file of request.files) {
    const text = request.readFile(file);
    if (text !== undefined) sources[file] = text;
  }
  return sources;
}

/** Files js-twins.ts parses (a generic junit pack's tests may be in any language). */
const JS_FILE = /\.[cm]?[jt]sx?$/;

const SEPARATOR = /(?:[.:/]| > )$/;

/**
 * Takes the twin canaries out of a run's tests (pure): each copy is found by its unique name at
 * the end of an id (`module.Class.name`, `file::Class::name`), its original by the same id with the
 * original's name. The copies' own tallies are taken out of the runner's claimed counts too, so the
 * reconciliation of counts still holds for an honest run.
 */
export function takeTwins(
  tests: readonly TestCaseResult[],
  claimed: TestCounts | undefined,
  twins: readonly TwinCanary[]
): { tests: TestCaseResult[]; claimed: TestCounts | undefined; outcomes: TwinOutcome[] } {
  const byId = new Map<string, TestCaseResult>();
  for (const test of tests) if (!byId.has(test.id)) byId.set(test.id, test);
  const copies = new Set<string>();
  const outcomes: TwinOutcome[] = [];
  for (const twin of twins) {
    const owner = twin.owner === null ? '' : twin.owner;
    const copy = tests.find((t) => {
      if (!t.id.endsWith(twin.name)) return false;
      const prefix = t.id.slice(0, t.id.length - twin.name.length);
      if (!SEPARATOR.test(prefix)) return false;
      return owner === '' || prefix.includes(owner);
    });
    if (copy === undefined) {
      outcomes.push({ kind: twin.kind, status: 'missing', original: 'missing' });
      continue;
    }
    copies.add(copy.id);
    const original = byId.get(copy.id.slice(0, copy.id.length - twin.name.length) + twin.of);
    outcomes.push({ kind: twin.kind, status: copy.status, original: original?.status ?? 'missing' });
  }
  const taken = tests.filter((t) => copies.has(t.id));
  let rest = claimed;
  if (claimed !== undefined) {
    const counts = countTests(taken);
    rest = {
      passed: claimed.passed - counts.passed,
      failed: claimed.failed - counts.failed,
      errored: claimed.errored - counts.errored,
      skipped: claimed.skipped - counts.skipped
    };
  }
  const real = tests.filter((t) => !copies.has(t.id)).map((t) => withOriginalLine(t, twins));
  return { tests: real, claimed: rest, outcomes };
}

/** A test's `file:line` location as in the file before the copies were inserted. */
function withOriginalLine(test: TestCaseResult, twins: readonly TwinCanary[]): TestCaseResult {
  const match = test.location === undefined ? null : /^(.*):(\d+)$/.exec(test.location);
  if (match === null) return test;
  const [, file, line] = match as unknown as [string, string, string];
  const blocks = twins.filter((t) => t.file === file).sort((a, b) => a.after - b.after);
  let reported = Number(line);
  let offset = 0;
  for (const block of blocks) {
    if (reported <= block.after + offset) break;
    offset += block.lines;
  }
  reported -= offset;
  return { ...test, location: `${file}:${reported}` };
}
