import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { BIG_INTEGER_PATTERN, overallStatus, type FormalRecord, type FormalTargetRecord, type ReplayOutcome } from '../core/formal.js';
import type { FormalTarget } from './spec.js';
import { resultType } from './symbolic.js';

/**
 * Counterexamples replayed as tests (issue 15, "counterexamples become tests"). Pure: the text of a
 * generated node:test test, the reading of its verdict line, and what the replay does to the
 * record. The run itself is src/formal/replay-run.ts, in the runner the phases use.
 *
 * The translator might be wrong about the code (the model is stricter than JS, or something the
 * scans missed changes what runs): a counterexample stands only if the test, calling the
 * candidate's real function with the model's inputs, fails `ensures` (or the declared result type)
 * there too. Otherwise the target is `unknown`, never proved. The candidate's code runs in the
 * test's process, so it can forge the verdict line; that only moves a counterexample to unknown
 * (a required target still does not pass), or fails itself.
 */

/** Where the replay tests go in the run's copy (the reserved folder; never the candidate's files). */
export const REPLAY_DIR = '.patchproof/formal';

const LINE = '@@patchproof-replay';

/**
 * The model's inputs as JSON whose integers are all numbers: an exact big integer (the receipt's
 * decimal string, python-int targets only) is written as its bare digits, which Python's
 * `json.loads` reads back as the exact `int`.
 */
export function exactJson(value: unknown): string {
  if (typeof value === 'string') {
    if (!BIG_INTEGER_PATTERN.test(value)) throw new Error(`${JSON.stringify(value)} is not an exact integer`);
    return value;
  }
  if (Array.isArray(value)) return `[${value.map((v) => exactJson(v)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${exactJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The model's inputs as a call, e.g. pageCount(0, 2) or next_id(9223372036854775807). */
export function callOf(fn: string, inputs: Record<string, unknown>): string {
  return `${fn}(${Object.values(inputs)
    .map((v) => exactJson(v))
    .join(', ')})`;
}

/** Whether the inputs hold an exact big integer (a JS replay cannot: its numbers are doubles). */
function hasBigInput(inputs: Record<string, unknown>): boolean {
  return Object.values(inputs).some((v) => typeof v === 'string' || (Array.isArray(v) && v.some((e) => typeof e === 'string')));
}

/**
 * Where a TypeScript target's stripped copy goes in the replay's copy: beside the target (so its
 * package imports resolve the same), under a name with the nonce that no candidate file has.
 */
export function strippedPath(file: string, nonce: string, extension: '.mjs' | '.cjs'): string {
  const dir = posix.dirname(file);
  const base = posix.basename(file).replace(/\.(c|m)?ts$/, '');
  return posix.join(dir, `${base}.patchproof-replay-${nonce.replace(/[^A-Za-z0-9_-]/g, '_')}${extension}`);
}

/**
 * The replay test's path in the copy, and its import (relative, posix) of the module it loads: the
 * target's file, or for a TypeScript target its stripped copy (`loads`).
 */
export function replayPaths(target: Pick<FormalTarget, 'file'>, nonce: string, loads: string = target.file): { test: string; specifier: string } {
  const test = /\.py$/.test(target.file) ? `${REPLAY_DIR}/test_replay_${nonce.replace(/[^A-Za-z0-9_]/g, '_')}.py` : `${REPLAY_DIR}/replay-${nonce}.test.mjs`;
  let specifier = posix.relative(REPLAY_DIR, loads);
  if (!specifier.startsWith('.')) specifier = `./${specifier}`;
  return { test, specifier };
}

/**
 * A node:test test (ESM) that imports the candidate's file, calls the target with the model's
 * inputs (copies: `ensures` reads the entry values), checks the result's type and every `ensures`,
 * prints one verdict line tagged with the nonce, and fails as a test when the spec is broken.
 * The spec's expressions are the pack's (parsed by Babel when the pack loaded): each sits on its
 * own line in parentheses.
 */
export function replayTestSource(target: FormalTarget, inputs: Record<string, unknown>, nonce: string, loads: string = target.file): string {
  if (/\.py$/.test(target.file)) return pythonReplaySource(target, inputs, nonce);
  // Fail closed: a JS double cannot hold the exact value, so such a counterexample never replays.
  if (hasBigInput(inputs)) throw new Error('a counterexample with an integer outside the safe range cannot replay in JavaScript');
  const { specifier } = replayPaths(target, nonce, loads);
  const typed = resultType(target) === 'int' ? 'Number.isSafeInteger(result)' : "typeof result === 'boolean'";
  const params = target.params.map((p) => `  const ${p.name} = entry[${JSON.stringify(p.name)}];`).join('\n');
  const ensures = target.ensures.map((e) => `        (\n${e}\n        )`).join(' &&\n');
  const args = target.params.map((p) => `structuredClone(entry[${JSON.stringify(p.name)}])`).join(', ');
  return `// Generated by PatchProof: the formal gate's counterexample for ${target.function}, replayed.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const NONCE = ${JSON.stringify(nonce)};
const entry = JSON.parse(${JSON.stringify(JSON.stringify(inputs))});
const say = (verdict) => process.stdout.write('\\n${LINE} ' + NONCE + ' ' + JSON.stringify(verdict) + '\\n');

test(${JSON.stringify(`formal counterexample: ${callOf(target.function, inputs)} meets ensures`)}, async () => {
  let mod;
  try {
    mod = await import(${JSON.stringify(specifier)});
  } catch (error) {
    say({ missing: 'the file does not load: ' + String(error && error.message).slice(0, 200) });
    throw error;
  }
  const fn = mod[${JSON.stringify(target.function)}];
  if (typeof fn !== 'function') {
    say({ missing: ${JSON.stringify(`${target.function} is not exported by ${target.file}`)} });
    assert.fail('not exported');
  }
${params}
  let result;
  let holds;
  let threw;
  try {
    result = fn(${args});
    holds = Boolean(
      ${typed} &&
${ensures}
    );
  } catch (error) {
    threw = String(error && error.message).slice(0, 200);
    holds = false;
  }
  say({ holds, result: threw === undefined ? String(result) : undefined, threw });
  assert.ok(holds, ${JSON.stringify(`${callOf(target.function, inputs)} breaks ensures`)});
});
`;
}

/** The argv of a replay test in the runner: `node TEST`, or `python3 -I -B TEST` (isolated: no PYTHONPATH, no user site, no script folder on sys.path). */
export function replayArgv(target: Pick<FormalTarget, 'file'>, testPath: string): string[] {
  return /\.py$/.test(target.file) ? ['python3', '-I', '-B', testPath] : ['node', testPath];
}

/**
 * The Python form: a pytest-style test (`test_formal_counterexample`, collected by pytest too) that
 * the replay runs as a script. It imports the candidate's module by its path from the repository
 * root (or `src/`), checks that the module loaded is the target's file, calls the target with deep
 * copies of the model's inputs, and evaluates the result's type (`type(result) is int`/`bool`) and
 * every `ensures` in a function whose parameters are the spec's names (so they see the entry values
 * and `result`, never the test's own names).
 */
function pythonReplaySource(target: FormalTarget, inputs: Record<string, unknown>, nonce: string): string {
  // A JSON string is a Python string literal too (for these texts: names, paths, the nonce).
  const py = (v: string): string => JSON.stringify(v);
  const names = [...target.params.map((p) => p.name), 'result'];
  const ensures = target.ensures.map((e) => `        (\n${e}\n        )`).join(' and\n');
  const args = target.params.map((p) => `copy.deepcopy(ENTRY[${JSON.stringify(p.name)}])`).join(', ');
  const typed = resultType(target) === 'int' ? 'type(result) is int' : 'type(result) is bool';
  return `# Generated by PatchProof: the formal gate's counterexample for ${target.function}, replayed.
import copy
import importlib
import json
import os
import sys

NONCE = ${py(nonce)}
ENTRY = json.loads(${py(exactJson(inputs))})
FILE = ${py(target.file)}
NAME = ${py(target.function)}
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _say(verdict):
    sys.stdout.write("\\n${LINE} " + NONCE + " " + json.dumps(verdict) + "\\n")
    sys.stdout.flush()


def _load():
    wanted = os.path.realpath(os.path.join(ROOT, FILE))
    for prefix in ("", "src/"):
        if not FILE.startswith(prefix):
            continue
        module = FILE[len(prefix):-3].replace("/", ".")
        if module.endswith(".__init__"):
            module = module[: -len(".__init__")]
        sys.path.insert(0, os.path.join(ROOT, prefix))
        try:
            mod = importlib.import_module(module)
        except ImportError:
            sys.path.pop(0)
            continue
        if os.path.realpath(getattr(mod, "__file__", "") or "") == wanted:
            return mod
        sys.path.pop(0)
    raise ImportError("no importable module is " + FILE)


def _ensures(${names.join(', ')}):
    return bool(
        ${typed} and
${ensures}
    )


def test_formal_counterexample():
    try:
        mod = _load()
    except BaseException as error:
        _say({"missing": ("the file does not load: " + str(error))[:200]})
        raise
    fn = getattr(mod, NAME, None)
    if not callable(fn):
        _say({"missing": ${py(`${target.function} is not defined by ${target.file}`)}})
        raise AssertionError("not defined")
    result = None
    threw = None
    try:
        result = fn(${args})
        holds = _ensures(${target.params
          .map((p) => `ENTRY[${JSON.stringify(p.name)}]`)
          .concat('result')
          .join(', ')})
    except Exception as error:
        threw = (type(error).__name__ + ": " + str(error))[:200]
        holds = False
    _say({"holds": holds, "threw": threw} if threw is not None else {"holds": holds, "result": repr(result)})
    assert holds, ${py(`${callOf(target.function, inputs)} breaks ensures`)}


if __name__ == "__main__":
    test_formal_counterexample()
`;
}

export interface ReplayVerdict {
  outcome: ReplayOutcome;
  /** What the function returned in the runner, as text (passed/failed), or why there is no result. */
  detail: string;
}

/** The run's verdict: exactly one line with the nonce, else no result (fail closed: never "failed"). */
export function readReplay(stdout: string, nonce: string, run: { timedOut: boolean; outputTruncated: boolean; infraError?: string }): ReplayVerdict {
  if (run.infraError !== undefined) return { outcome: 'no_result', detail: `the run failed: ${run.infraError}` };
  if (run.timedOut) return { outcome: 'no_result', detail: 'the run timed out' };
  if (run.outputTruncated) return { outcome: 'no_result', detail: 'its output was truncated' };
  const prefix = `${LINE} ${nonce} `;
  const lines = stdout.split('\n').filter((l) => l.startsWith(prefix));
  if (lines.length !== 1) return { outcome: 'no_result', detail: lines.length === 0 ? 'no verdict line' : `${lines.length} verdict lines` };
  let verdict: { holds?: unknown; result?: unknown; threw?: unknown; missing?: unknown };
  try {
    verdict = JSON.parse(lines[0]!.slice(prefix.length)) as typeof verdict;
  } catch {
    return { outcome: 'no_result', detail: 'a malformed verdict line' };
  }
  if (typeof verdict.missing === 'string') return { outcome: 'no_result', detail: verdict.missing };
  if (verdict.holds === false) return { outcome: 'failed', detail: typeof verdict.threw === 'string' ? `it threw ${verdict.threw}` : `it returned ${String(verdict.result)}` };
  if (verdict.holds === true) return { outcome: 'passed', detail: `it returned ${String(verdict.result)}` };
  return { outcome: 'no_result', detail: 'a verdict line without a verdict' };
}

export interface ReplayRun {
  verdict: ReplayVerdict;
  testText: string;
  outputSha256: string;
  exitCode: number | null;
  durationMs: number;
}

/** One target's record once its counterexample was replayed: kept when the replay failed, else unknown. */
export function applyReplay(target: FormalTargetRecord, run: ReplayRun): FormalTargetRecord {
  if (target.status !== 'counterexample' || target.counterexample === undefined) return target;
  const replay = {
    outcome: run.verdict.outcome,
    test_sha256: createHash('sha256').update(run.testText).digest('hex'),
    output_sha256: run.outputSha256,
    exit_code: run.exitCode,
    duration_ms: Math.round(run.durationMs)
  };
  if (run.verdict.outcome === 'failed') return { ...target, replay };
  const call = callOf(target.function, target.counterexample.inputs);
  const { counterexample: _dropped, ...rest } = target;
  const reason =
    run.verdict.outcome === 'passed'
      ? `the solver's counterexample ${call} does not replay: in the runner ${run.verdict.detail} and ensures held (the code that runs is not what the translator read)`
      : `the solver's counterexample ${call} could not be replayed in the runner: ${run.verdict.detail}`;
  return { ...rest, status: 'unknown', reason, replay };
}

/** The record with every replayed target applied, and its status rolled up again. */
export function withReplays(record: FormalRecord, runs: ReadonlyMap<string, ReplayRun>): FormalRecord {
  const targets = record.targets.map((t) => {
    const run = runs.get(t.name);
    return run === undefined ? t : applyReplay(t, run);
  });
  const status = overallStatus(targets);
  if (status === 'not_applicable') throw new Error('a formal record without targets');
  return { status, targets };
}
