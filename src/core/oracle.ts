import { z } from 'zod';
import { canonicalJson } from './hashing.js';
import type { TestCaseResult } from './test-results.js';

/**
 * Sealed oracles: the pure half. A sealed test in the container only *observes* — it prints one
 * framed line per case, `PATCHPROOF-OBS/1 <nonce> {"case": id, "value": v}` — and the expected
 * values stay on the host, in the pack's oracle file (`oracle/expected.json`), which is never
 * staged into a copy. This module parses that file and the observation lines, and compares them
 * with a comparator from a fixed set. It never sees candidate code, only the text it printed.
 */

export const ORACLE_SCHEMA = 'patchproof.oracle/v1';
export const OBSERVATION_MARKER = 'PATCHPROOF-OBS/1';

/** The comparators a pack may declare, and nothing else. */
export const comparatorSchema = z.discriminatedUnion('kind', [
  /** Canonical JSON (RFC 8785) equality: the default. */
  z.strictObject({ kind: z.literal('exact') }),
  /** Numbers anywhere in the value within `abs` or `rel` of the expected one; everything else exact. */
  z.strictObject({ kind: z.literal('float'), abs: z.number().nonnegative().default(0), rel: z.number().nonnegative().default(0) }),
  /** Top-level lists equal as multisets (order ignored, counts kept); elements compared exactly. */
  z.strictObject({ kind: z.literal('unordered') }),
  /** The actual side raised: the exception's class name equals `type`, its message contains a match for `pattern`. */
  z.strictObject({ kind: z.literal('raises'), type: z.string().min(1), pattern: z.string().optional() })
]);
export type Comparator = z.infer<typeof comparatorSchema>;

const jsonValue: z.ZodType<unknown> = z.unknown();

export const oracleCaseSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_./:#@-]{1,200}$/),
  phase: z.enum(['reproduction', 'hidden']),
  /** The expected value (ignored by the `raises` comparator; use null there). */
  expected: jsonValue,
  comparator: comparatorSchema.default({ kind: 'exact' })
});
export type OracleCase = z.infer<typeof oracleCaseSchema>;

/** An assertion `witness seal` could not turn into an observation: it still grades in-process. */
export const unsealedSchema = z.strictObject({
  phase: z.enum(['reproduction', 'hidden']),
  file: z.string().min(1),
  line: z.number().int().min(1),
  text: z.string()
});

/**
 * An observation site whose expected values `witness seal` cannot know statically (its expected side
 * is not a literal, or it sits in a loop or helper so its number of observations is unknown). The
 * sealed test observes its actual side; `witness record --reference DIFF` runs it with the reference
 * fix and turns what it observed (`site`, `site#2`, … in order) into cases. Until then the phase is
 * not sealed, and validate refuses the pack (an observation with no expectation checks nothing).
 */
export const pendingSchema = z.strictObject({
  phase: z.enum(['reproduction', 'hidden']),
  site: z.string().regex(/^[A-Za-z0-9_./:#@-]{1,200}$/),
  file: z.string().min(1),
  line: z.number().int().min(1),
  text: z.string(),
  comparator: comparatorSchema.default({ kind: 'exact' }),
  /** A literal expected value every observation of the site must equal (a literal in a loop). */
  expected: jsonValue.optional()
});
export type PendingSite = z.infer<typeof pendingSchema>;

export const oracleFileSchema = z.strictObject({
  schema: z.literal(ORACLE_SCHEMA),
  cases: z.array(oracleCaseSchema),
  unsealed: z.array(unsealedSchema).default(() => []),
  pending: z.array(pendingSchema).optional()
});
export type OracleFile = z.infer<typeof oracleFileSchema>;
export type OraclePhase = OracleCase['phase'];

/** Parse an oracle file (already JSON.parse'd); throws with one line on the first problem. */
export function parseOracleFile(value: unknown): OracleFile {
  const parsed = oracleFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const seen = new Set<string>();
  for (const c of parsed.data.cases) {
    if (seen.has(c.id)) throw new Error(`case id ${JSON.stringify(c.id)} appears twice`);
    seen.add(c.id);
    try {
      canonicalJson(c.expected);
    } catch {
      throw new Error(`case ${c.id}: the expected value has no canonical JSON form`);
    }
  }
  return parsed.data;
}

/** A phase is graded `sealed` only when it has cases and no assertion in it stayed unsealed. */
export function phaseIsSealed(oracle: OracleFile | undefined, phase: OraclePhase): boolean {
  if (oracle === undefined) return false;
  return oracle.cases.some((c) => c.phase === phase) && !oracle.unsealed.some((u) => u.phase === phase) && !(oracle.pending ?? []).some((p) => p.phase === phase);
}

/** The case id of a site's n-th observation (1-based), as the observers number them. */
export function occurrenceId(site: string, n: number): string {
  return n === 1 ? site : `${site}#${n}`;
}

export interface Observation {
  case: string;
  value: unknown;
}

export interface ParsedObservations {
  observations: Observation[];
  /** Marker lines that were not well-formed observations for this run (wrong nonce, bad JSON, bad shape). */
  malformed: string[];
}

/**
 * The observation lines of one run's output. A line counts when the marker appears in it; what
 * precedes the marker on the line is ignored (a runner's prefix). Anything after the marker that is
 * not `<this run's nonce> <one JSON object {case, value}>` is malformed, and malformed fails.
 */
export function parseObservations(output: string, nonce: string): ParsedObservations {
  const observations: Observation[] = [];
  const malformed: string[] = [];
  for (const raw of output.split(/\r?\n/)) {
    const at = raw.indexOf(OBSERVATION_MARKER);
    if (at < 0) continue;
    const rest = raw.slice(at + OBSERVATION_MARKER.length);
    const shown = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
    const match = /^ ([0-9a-f]{32,}) (\{.*\})\s*$/.exec(rest);
    if (match === null || match[1] !== nonce) {
      malformed.push(shown);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(match[2] as string);
    } catch {
      malformed.push(shown);
      continue;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      malformed.push(shown);
      continue;
    }
    const keys = Object.keys(parsed).sort();
    const record = parsed as Record<string, unknown>;
    if (keys.join(',') !== 'case,value' || typeof record.case !== 'string') {
      malformed.push(shown);
      continue;
    }
    observations.push({ case: record.case, value: record.value });
  }
  return { observations, malformed };
}

/** What a raised exception looks like as an observation: `{"$raised": ClassName, "message": text}`. */
function raisedOf(value: unknown): { type: string; message: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.$raised !== 'string') return undefined;
  return { type: record.$raised, message: typeof record.message === 'string' ? record.message : '' };
}

function canonicalOrUndefined(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}

function floatEqual(actual: unknown, expected: unknown, abs: number, rel: number): boolean {
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (!Number.isFinite(actual)) return false;
    return Math.abs(actual - expected) <= Math.max(abs, rel * Math.abs(expected));
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => floatEqual(actual[i], e, abs, rel));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    const ek = Object.keys(expected).sort();
    const ak = Object.keys(actual).sort();
    return ek.join('\0') === ak.join('\0') && ek.every((k) => floatEqual((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], abs, rel));
  }
  return canonicalOrUndefined(actual) !== undefined && canonicalOrUndefined(actual) === canonicalOrUndefined(expected);
}

/** Does an observed value satisfy a case? Pure and total: anything unexpected is `false`. */
export function compareValue(actual: unknown, expected: unknown, comparator: Comparator): boolean {
  switch (comparator.kind) {
    case 'exact': {
      const a = canonicalOrUndefined(actual);
      return a !== undefined && a === canonicalOrUndefined(expected);
    }
    case 'float':
      return floatEqual(actual, expected, comparator.abs, comparator.rel);
    case 'unordered': {
      if (!Array.isArray(actual) || !Array.isArray(expected) || actual.length !== expected.length) return false;
      const sorted = (list: unknown[]): string[] | undefined => {
        const texts = list.map(canonicalOrUndefined);
        return texts.every((t) => t !== undefined) ? (texts as string[]).sort() : undefined;
      };
      const a = sorted(actual);
      const e = sorted(expected);
      return a !== undefined && e !== undefined && a.join('\0') === e.join('\0');
    }
    case 'raises': {
      const raised = raisedOf(actual);
      if (raised === undefined || raised.type !== comparator.type) return false;
      if (comparator.pattern === undefined) return true;
      try {
        return new RegExp(comparator.pattern, 'u').test(raised.message);
      } catch {
        return false;
      }
    }
  }
}

export type CaseOutcome = 'matched' | 'mismatched' | 'raised' | 'missing' | 'duplicated';

export interface SealedRunResult {
  /** One result per case of the phase, in the oracle's order. */
  cases: { id: string; outcome: CaseOutcome }[];
  /** Problems that fail the run: extra, duplicated or malformed observations. */
  problems: string[];
}

/**
 * Compare one run's observations with the phase's sealed cases. Every case must be observed exactly
 * once; an observation of a case the phase does not have, a second observation of a case and a
 * malformed line are problems (the run fails, whatever the values).
 */
export function judgeObservations(cases: readonly OracleCase[], parsed: ParsedObservations): SealedRunResult {
  const byCase = new Map<string, unknown[]>();
  for (const o of parsed.observations) byCase.set(o.case, [...(byCase.get(o.case) ?? []), o.value]);
  const known = new Set(cases.map((c) => c.id));
  const problems: string[] = [];
  const extra = [...byCase.keys()].filter((id) => !known.has(id)).sort();
  if (extra.length > 0) problems.push(`observations of cases the pack does not have: ${extra.slice(0, 10).join(', ')}${extra.length > 10 ? ', …' : ''}`);
  if (parsed.malformed.length > 0) problems.push(`${parsed.malformed.length} malformed observation line(s), first: ${parsed.malformed[0]}`);
  const results = cases.map((c): { id: string; outcome: CaseOutcome } => {
    const values = byCase.get(c.id) ?? [];
    if (values.length === 0) return { id: c.id, outcome: 'missing' };
    if (values.length > 1) {
      problems.push(`case ${c.id} observed ${values.length} times`);
      return { id: c.id, outcome: 'duplicated' };
    }
    const value = values[0];
    if (compareValue(value, c.expected, c.comparator)) return { id: c.id, outcome: 'matched' };
    return { id: c.id, outcome: raisedOf(value) !== undefined ? 'raised' : 'mismatched' };
  });
  return { cases: results, problems };
}

/**
 * The sealed cases as test results, for the judge. A mismatch is an assertion failure, an exception
 * an exception in the code, a missing case a failure of unknown kind — except on the base, where a
 * case left unobserved because its test stopped at an earlier wrong value counts with that failure.
 */
export function sealedTestResults(result: SealedRunResult, base: boolean): TestCaseResult[] {
  const anyRightReason = result.cases.some((c) => c.outcome === 'mismatched' || c.outcome === 'raised');
  return result.cases.map((c): TestCaseResult => {
    const id = `oracle > ${c.id}`;
    switch (c.outcome) {
      case 'matched':
        return { id, status: 'passed' };
      case 'mismatched':
        return { id, status: 'failed', failure_kind: 'assertion', message: 'the observed value differs from the sealed expectation' };
      case 'raised':
        return { id, status: 'failed', failure_kind: 'exception_in_code', message: 'the observed call raised' };
      case 'duplicated':
        return { id, status: 'failed', failure_kind: 'unknown', message: 'observed more than once' };
      case 'missing':
        return base && anyRightReason
          ? { id, status: 'failed', failure_kind: 'assertion', message: 'not observed: its test stopped at an earlier failing case' }
          : { id, status: 'failed', failure_kind: 'unknown', message: 'not observed' };
    }
  });
}
