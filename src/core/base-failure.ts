import { createHash } from 'node:crypto';
import type { ParsedResults } from './test-results.js';

/**
 * When the grader cannot run on the base tree at all, no phase can be judged and the candidate is
 * not to blame: the validation is inconclusive (`base_unrunnable`). Pure.
 */

const LOAD_FAILURES = new Set(['collection_error', 'import_error']);

/** What this module reads of a run (verdict.ts's RunEvidence), named here so verdict.ts and this module form no cycle. */
export interface StartedRun {
  infraError?: string | undefined;
  parsed?: ParsedResults | undefined;
}

/** A base run that ran nothing: an infrastructure error, no results, or only load failures. */
export function runCannotStart(run: StartedRun): boolean {
  if (run.infraError !== undefined || run.parsed === undefined) return true;
  const tests = run.parsed.tests;
  return tests.length === 0 || tests.every((t) => t.status === 'errored' && LOAD_FAILURES.has(t.failure_kind ?? 'unknown'));
}

/** True when every base run (the reproduction before the patch, and the base suite) ran nothing. */
export function baseUnrunnable(runs: { reproduction_before: readonly StartedRun[]; regression_before: readonly StartedRun[] }): boolean {
  const base = [...runs.reproduction_before, ...runs.regression_before];
  return base.length > 0 && base.every(runCannotStart);
}

/** At most this many lines (one of them `…`), each at most LINE_LIMIT characters, go into an excerpt. */
export const EXCERPT_LINES = 8;
const LINE_LIMIT = 200;

const ERROR_LINE = /error|failed|fail\b|cannot|could not|not found|no such|traceback|exception|panic|refused|denied/i;
// A line that opens a runner's error report (unittest/pytest `ERROR:`, a traceback, `Error: …`,
// `error[E…]`, `panic:`, `FAIL`), preferred to a progress line that merely mentions an error.
const ERROR_START = /^\s*(ERROR\b|FAIL(ED)?\b|E\s|Traceback \(most recent call last\)|[A-Za-z_][\w.]*(Error|Exception)\b|error(\[|:| )|panic:|fatal)/;

// Secrets and unguessable values (canary nonces, tokens) never leave in an excerpt.
const REDACTIONS: readonly [RegExp, string][] = [
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]'],
  [/\b((?:[A-Za-z0-9_]*(?:token|secret|password|passwd|api[_-]?key|auth)[A-Za-z0-9_]*)\s*[=:]\s*)\S+/gi, '$1[redacted]'],
  [/\b(gh[pousr]_|github_pat_)[A-Za-z0-9_]{10,}/g, '[redacted token]'],
  [/(?<![0-9a-f])[0-9a-f]{16,}(?![0-9a-f])/gi, '[redacted hex]'],
  [/[A-Za-z0-9+/]{40,}={0,2}/g, '[redacted]']
];

/** One line made safe to show: control characters and ANSI colours removed, secrets redacted, cut. */
export function redactLine(line: string): string {
  // eslint-disable-next-line no-control-regex
  let out = line.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
  for (const [pattern, replacement] of REDACTIONS) out = out.replace(pattern, replacement);
  return out.length <= LINE_LIMIT ? out : `${out.slice(0, LINE_LIMIT - 1)}…`;
}

/**
 * A bounded, redacted excerpt of a run's output: the block (up to the next blank line, at most 60
 * lines) that starts at its first line opening an error report (else the first that mentions one), or the output's first block when
 * none does. A block longer than EXCERPT_LINES keeps its first 3 lines, `…`, and its last lines,
 * where a traceback ends with the exception that stopped the run.
 */
export function errorExcerpt(output: string): string {
  const lines = output.split(/\r?\n/).map(redactLine);
  const opening = lines.findIndex((line) => ERROR_START.test(line));
  const firstError = opening >= 0 ? opening : lines.findIndex((line) => line.trim() !== '' && ERROR_LINE.test(line));
  const start = firstError >= 0 ? firstError : lines.findIndex((line) => line.trim() !== '');
  if (start < 0) return '';
  const blank = lines.findIndex((line, index) => index > start && line.trim() === '');
  const block = lines.slice(start, Math.min(blank < 0 ? lines.length : blank, start + 60));
  if (block.length <= EXCERPT_LINES) return block.join('\n');
  return [...block.slice(0, 3), '…', ...block.slice(block.length - (EXCERPT_LINES - 4))].join('\n');
}

/** SHA-256 hex of an excerpt's UTF-8 bytes, as the run record keeps it. */
export function excerptSha256(excerpt: string): string {
  return createHash('sha256').update(excerpt, 'utf8').digest('hex');
}
