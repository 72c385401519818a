/**
 * libtest's JSON lines (`-Z unstable-options --format json`), as one test binary writes them: the
 * inventory of `--list` and the events of a run. Pure, and strict about what libtest itself
 * writes; the stream is the binary's stdout, which the code under test can write to directly
 * (`io::stdout()` is not captured), so:
 *
 * - a line that does not start with `{` is the code's own output and is skipped;
 * - a line that starts with `{` must be a JSON object of a known kind, else it is a problem;
 * - every fact must be said once: a test listed, started or finished twice, a second summary, an
 *   outcome for a test the inventory lacks, a listed test without an outcome, or a summary whose
 *   counts differ from the outcomes is a problem. A forged event therefore never goes unnoticed.
 */

/** Where a listed test is defined (libtest's `source_path` and `start_line`). */
export interface ListedTest {
  path?: string;
  line?: number;
  ignored: boolean;
}

/** The inventory of one test binary. */
export interface LibtestList {
  tests: Map<string, ListedTest>;
  problems: string[];
}

/** A test's outcome event. */
export interface LibtestOutcome {
  event: 'ok' | 'failed' | 'ignored';
  /** The captured output (failed tests). */
  stdout?: string;
  /** libtest's note: the ignore reason, or why a `#[should_panic]` test failed. */
  message?: string;
}

/** libtest's summary of a run. */
export interface LibtestSummary {
  passed: number;
  failed: number;
  ignored: number;
}

/** The events of one run of a test binary. */
export interface LibtestRun {
  /** Outcomes by test name, in the order they came. */
  outcomes: Map<string, LibtestOutcome>;
  summary?: LibtestSummary;
  problems: string[];
}

type JsonObject = Record<string, unknown>;

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined);

/** The JSON objects of a stream, with its problems; lines that are not objects are skipped. */
function objects(text: string, label: string, problems: string[]): JsonObject[] {
  const out: JsonObject[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line.startsWith('{')) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`${label}: line ${index + 1} is not valid JSON`);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(`${label}: line ${index + 1} is not a JSON object`);
      return;
    }
    out.push(value as JsonObject);
  });
  return out;
}

/** Reads the output of `--list --format json`. */
export function readLibtestList(text: string, label: string): LibtestList {
  const problems: string[] = [];
  const tests = new Map<string, ListedTest>();
  let completed: number | undefined;
  let completions = 0;
  let starts = 0;
  for (const event of objects(text, `${label} --list`, problems)) {
    if (event.type === 'suite' && event.event === 'discovery') {
      starts += 1;
    } else if (event.type === 'test' && event.event === 'discovered' && typeof event.name === 'string') {
      if (tests.has(event.name)) problems.push(`${label}: test '${event.name}' is listed twice`);
      const line = count(event.start_line);
      tests.set(event.name, {
        ...(typeof event.source_path === 'string' ? { path: event.source_path } : {}),
        ...(line === undefined ? {} : { line }),
        ignored: event.ignore === true
      });
    } else if (event.type === 'suite' && event.event === 'completed') {
      completions += 1;
      completed = count(event.tests);
    } else {
      problems.push(`${label}: unexpected --list event ${JSON.stringify(event).slice(0, 200)}`);
    }
  }
  if (starts !== 1 || completions !== 1) problems.push(`${label}: the test list is incomplete or repeated`);
  else if (completed !== tests.size) problems.push(`${label}: the test list counts ${completed ?? '?'} tests but lists ${tests.size}`);
  return { tests, problems };
}

/** Reads the events of a run, checked against the binary's inventory. */
export function readLibtestRun(text: string, label: string, listed: ReadonlyMap<string, ListedTest>): LibtestRun {
  const problems: string[] = [];
  const outcomes = new Map<string, LibtestOutcome>();
  const started = new Set<string>();
  let summary: LibtestSummary | undefined;
  let suiteStarts = 0;
  let summaries = 0;
  for (const event of objects(text, label, problems)) {
    const name = typeof event.name === 'string' ? event.name : undefined;
    const kind = event.event === 'ok' || event.event === 'failed' || event.event === 'ignored' ? event.event : undefined;
    if (event.type === 'suite' && event.event === 'started') {
      suiteStarts += 1;
      if (count(event.test_count) !== listed.size) problems.push(`${label}: the run announces ${String(event.test_count)} tests, the list has ${listed.size}`);
    } else if (event.type === 'suite' && (event.event === 'ok' || event.event === 'failed')) {
      summaries += 1;
      const passed = count(event.passed);
      const failed = count(event.failed);
      const ignored = count(event.ignored);
      if (passed === undefined || failed === undefined || ignored === undefined || count(event.filtered_out) !== 0 || count(event.measured) !== 0) {
        problems.push(`${label}: malformed summary`);
      } else {
        summary = { passed, failed, ignored };
        if ((event.event === 'failed') !== failed > 0) problems.push(`${label}: the summary says ${event.event} with ${failed} failed`);
      }
    } else if (event.type === 'test' && name !== undefined && event.event === 'started') {
      if (started.has(name)) problems.push(`${label}: test '${name}' started twice`);
      started.add(name);
    } else if (event.type === 'test' && name !== undefined && event.event === 'timeout') {
      // libtest's warning that a test runs for over 60 s; its outcome still follows.
    } else if (event.type === 'test' && name !== undefined && kind !== undefined) {
      const earlier = outcomes.get(name);
      if (earlier !== undefined) problems.push(`${label}: test '${name}' has more than one outcome`);
      if (!listed.has(name)) problems.push(`${label}: test '${name}' has an outcome but is not in the list`);
      // Of two outcomes, the one that is not a pass stands: a forged `ok` never makes a pass.
      if (earlier !== undefined && earlier.event !== 'ok') continue;
      outcomes.set(name, {
        event: kind,
        ...(typeof event.stdout === 'string' ? { stdout: event.stdout } : {}),
        ...(typeof event.message === 'string' ? { message: event.message } : {})
      });
    } else {
      problems.push(`${label}: unexpected event ${JSON.stringify(event).slice(0, 200)}`);
    }
  }
  if (suiteStarts !== 1) problems.push(`${label}: the run started ${suiteStarts} times`);
  if (summaries !== 1) problems.push(`${label}: the run has ${summaries} summaries (it did not finish, or one was forged)`);
  for (const name of listed.keys()) {
    if (!outcomes.has(name)) problems.push(`${label}: test '${name}' has no outcome`);
    if (!started.has(name)) problems.push(`${label}: test '${name}' never started`);
  }
  for (const name of started) {
    if (!listed.has(name)) problems.push(`${label}: test '${name}' started but is not in the list`);
  }
  if (summary !== undefined) {
    const tally = { passed: 0, failed: 0, ignored: 0 };
    for (const outcome of outcomes.values()) {
      tally[outcome.event === 'ok' ? 'passed' : outcome.event] += 1;
    }
    if (tally.passed !== summary.passed || tally.failed !== summary.failed || tally.ignored !== summary.ignored) {
      problems.push(
        `${label}: the summary (${summary.passed} passed, ${summary.failed} failed, ${summary.ignored} ignored) differs from the outcomes (${tally.passed}, ${tally.failed}, ${tally.ignored})`
      );
    }
  }
  return { outcomes, ...(summary === undefined ? {} : { summary }), problems };
}
