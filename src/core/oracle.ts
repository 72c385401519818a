import { z } from 'zod';
import { canonicalJson } from './hashing.js';
import { applyPredicate, decidePredicate, PREDICATE_OPTIONS, PREDICATE_SIDES, PREDICATES, untag } from './predicates.js';
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
/** Where `witness seal` keeps the author's unsealed originals, one folder per phase (never staged). */
export const ORACLE_ORIGINALS_DIR = 'oracle/original';

/** The comparators a pack may declare, and nothing else. */
export const comparatorSchema = z.discriminatedUnion('kind', [
  /** Canonical JSON (RFC 8785) equality: the default. */
  z.strictObject({ kind: z.literal('exact') }),
  /** Numbers anywhere in the value within `abs` or `rel` of the expected one; everything else exact. */
  z.strictObject({ kind: z.literal('float'), abs: z.number().nonnegative().default(0), rel: z.number().nonnegative().default(0) }),
  /** Top-level lists equal as multisets (order ignored, counts kept); elements compared exactly. */
  z.strictObject({ kind: z.literal('unordered') }),
  /**
   * The actual side raised: the exception's class name equals `type`, its message contains a match for
   * `pattern`. When the case's expected value is `{"type": "module.Qualname"}` (recorded from the
   * reference fix), the exact qualified type must match too.
   */
  z.strictObject({ kind: z.literal('raises'), type: z.string().min(1), pattern: z.string().optional() }),
  /**
   * An assertion's own predicate, applied on the host to safely observed operands
   * (src/core/predicates.ts, one module for both sealers). The predicate's name says whose semantics
   * and observer forms apply (JS: `same` … `throws`; Python: `eq` … `almost`); `negate` is the
   * assertion's negation (`!=` is `eq` negated), and flips only a decided answer. `observed`:
   * `actual` — the observation is one side, the case's `expected` (a literal) the other; `right` —
   * the observation is the right operand and the literal the left; `both` — the observer's pair.
   * Options belong to their predicate (`digits`: close; `type`, `includes`, `subject`, `props`:
   * throws; `pattern`, `flags`: throws and match; `places`, `delta`: almost).
   */
  z
    .strictObject({
      kind: z.literal('predicate'),
      predicate: z.enum(PREDICATES),
      negate: z.boolean().optional(),
      observed: z.enum(PREDICATE_SIDES).default('actual'),
      digits: z.number().int().min(-20).max(20).optional(),
      type: z.string().min(1).optional(),
      pattern: z.string().optional(),
      flags: z
        .string()
        .regex(/^[dgimsuvy]*$/)
        .optional(),
      includes: z.string().optional(),
      subject: z.enum(['message', 'string']).optional(),
      props: z.record(z.string(), z.unknown()).optional(),
      places: z.number().int().min(-100).max(100).optional(),
      delta: z.number().nonnegative().optional()
    })
    .superRefine((c, ctx) => {
      for (const [option, owners] of Object.entries(PREDICATE_OPTIONS)) {
        if ((c as Record<string, unknown>)[option] !== undefined && !owners.includes(c.predicate))
          ctx.addIssue({ code: 'custom', path: [option], message: `${option} is not an option of the ${c.predicate} predicate` });
      }
    })
]);
export type Comparator = z.infer<typeof comparatorSchema>;

const jsonValue: z.ZodType = z.unknown();

export const oracleCaseSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_./:#@-]{1,200}$/),
  phase: z.enum(['reproduction', 'hidden']),
  /** The expected value (ignored by the `raises` comparator; use null there). */
  expected: jsonValue,
  comparator: comparatorSchema.default({ kind: 'exact' }),
  /**
   * The test this site belongs to, as its framework's result id names it (`witness seal` writes it
   * when it knows). Sites of one test are judged together on the base (src/core/sealed-tests.ts).
   */
  test: z.string().min(1).max(2000).optional()
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
  expected: jsonValue.optional(),
  /**
   * The site may run fewer times than its test (under an `if`, in one parameter set only): the
   * reference's observations of it, however many (zero included), become its cases.
   */
  conditional: z.boolean().optional(),
  /** The test the site belongs to (as on a case); `witness record` keeps it on the cases it records. */
  test: z.string().min(1).max(2000).optional()
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

/** A plain oracle file and a sealed pack's hidden half (from hidden.age) as one oracle; a case id twice is refused. */
export function mergeOracles(plain: OracleFile, hiddenHalf: OracleFile | undefined): OracleFile {
  if (hiddenHalf === undefined) return plain;
  const pending = [...(plain.pending ?? []), ...(hiddenHalf.pending ?? [])];
  return parseOracleFile({
    schema: ORACLE_SCHEMA,
    cases: [...plain.cases, ...hiddenHalf.cases],
    unsealed: [...plain.unsealed, ...hiddenHalf.unsealed],
    ...(plain.pending === undefined && hiddenHalf.pending === undefined ? {} : { pending })
  });
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
function raisedOf(value: unknown): { type: string; qualified?: string; message?: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.$raised !== 'string') return undefined;
  return {
    type: record.$raised,
    ...(typeof record.type === 'string' ? { qualified: record.type } : {}),
    // A message the observer could not read safely (a `__str__` the candidate defined) is absent.
    ...(typeof record.message === 'string' ? { message: record.message } : {})
  };
}

/** The qualified type a recorded `raises` case requires, from `{"type": "module.Qualname"}`. */
function expectedRaisedType(expected: unknown): string | undefined {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) return undefined;
  const type = (expected as Record<string, unknown>).type;
  return typeof type === 'string' ? type : undefined;
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
        return texts.every((t) => t !== undefined) ? texts.sort() : undefined;
      };
      const a = sorted(actual);
      const e = sorted(expected);
      return a !== undefined && e !== undefined && a.join('\0') === e.join('\0');
    }
    case 'predicate':
      return applyPredicate(comparator, actual, expected);
    case 'raises': {
      const raised = raisedOf(actual);
      if (raised === undefined || raised.type !== comparator.type) return false;
      const qualified = expectedRaisedType(expected);
      if (qualified !== undefined && raised.qualified !== qualified) return false;
      if (comparator.pattern === undefined) return true;
      if (raised.message === undefined) return false;
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
  /**
   * Predicate cases that matched only by the observer's in-process answer (objects whose classes
   * define `__eq__`): graded, but not sealed — the candidate's code decided them.
   */
  inProcess?: string[];
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
  const inProcess: string[] = [];
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
    if (compareValue(value, c.expected, c.comparator)) {
      if (c.comparator.kind === 'predicate' && decidePredicate(c.comparator, value, c.expected) === 'in-process') inProcess.push(c.id);
      return { id: c.id, outcome: 'matched' };
    }
    return { id: c.id, outcome: raisedOf(value) !== undefined ? 'raised' : 'mismatched' };
  });
  return { cases: results, problems, ...(inProcess.length > 0 ? { inProcess } : {}) };
}

/**
 * The sealed cases as test results, for the judge. A mismatch is an assertion failure, an exception
 * an exception in the code, a missing case a failure of unknown kind — except on the base, where a
 * case left unobserved because its test stopped at an earlier wrong value counts with that failure
 * (with `testOfCase`, the case id → test map of the oracle's `test` fields: a failure of its own test).
 */
export function sealedTestResults(result: SealedRunResult, base: boolean, testOfCase?: ReadonlyMap<string, string>): TestCaseResult[] {
  const failing = (c: SealedRunResult['cases'][number]): boolean => c.outcome === 'mismatched' || c.outcome === 'raised';
  const anyFailing = result.cases.some(failing);
  // A case whose test is known counts with an earlier failure of its own test only.
  const failingTests = new Set(result.cases.filter(failing).map((c) => testOfCase?.get(c.id)));
  const anyRightReasonFor = (id: string): boolean => (testOfCase?.has(id) === true ? failingTests.has(testOfCase.get(id)) : anyFailing);
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
        return base && anyRightReasonFor(c.id)
          ? { id, status: 'failed', failure_kind: 'assertion', message: 'not observed: its test stopped at an earlier failing case' }
          : { id, status: 'failed', failure_kind: 'unknown', message: 'not observed' };
    }
  });
}

/** What one observing run of `witness record` saw, as the host read it from the run's output. */
export interface RecordInput {
  phase: OraclePhase;
  attempt: number;
  observations: Observation[];
  malformed: string[];
  problem?: string;
}

export type RecordOutcome = { ok: true; oracle: OracleFile; recorded: number; checked: number } | { ok: false; problems: string[] };

/** A value that must not become an expectation: a raise, a promise, an unencodable or address-bearing value. */
function unrecordable(value: unknown): string | undefined {
  const text = canonicalOrUndefined(value);
  if (text === undefined) return 'has no canonical JSON form';
  if (raisedOf(value) !== undefined) return `raised ${raisedOf(value)!.type}`;
  if (/"\$(promise|unencodable|unobservable|cycle)"/.test(text))
    return 'is a promise, or cannot be encoded or observed safely (an object whose state the observer cannot read without running its code)';
  if (/ at 0x[0-9a-f]+/.test(text)) return 'shows a memory address (not deterministic)';
  return undefined;
}

/** An observation of a builtin subclass (`{"$type", "value"}`, at any depth) whose base content is exactly the literal. */
function subclassOfLiteral(value: unknown, literal: unknown): boolean {
  const text = canonicalOrUndefined(value);
  if (text === undefined || !text.includes('"$type"') || /"\$(unobservable|cycle|raised)"/.test(text)) return false;
  const base = canonicalOrUndefined(untag(value));
  return base !== undefined && base === canonicalOrUndefined(literal);
}

/** An observation holding an object observed field by field, with nothing unobservable in it. */
function objectForm(value: unknown): boolean {
  const text = canonicalOrUndefined(value);
  return text !== undefined && text.includes('"fields"') && unrecordable(value) === undefined;
}

const testOf = (site: PendingSite): { test?: string } => (site.test === undefined ? {} : { test: site.test });

/**
 * `witness record --reference`: turn the observations of the reference fix's runs into expected
 * values. Refuses (returns the problems) unless every phase that observes ran at least twice with no
 * problem, every run observed the same cases with the same values, every sealed case is satisfied,
 * every pending site was observed (`site`, `site#2`, … without gaps), and nothing else was observed.
 * Pure: the runs are made elsewhere.
 */
export function recordExpectations(oracle: OracleFile, runs: readonly RecordInput[]): RecordOutcome {
  const problems: string[] = [];
  const pending = oracle.pending ?? [];
  const recordedCases: OracleCase[] = [];
  const retyped = new Map<string, unknown>();
  let checked = 0;
  for (const phase of ['reproduction', 'hidden'] as const) {
    const cases = oracle.cases.filter((c) => c.phase === phase);
    const sites = pending.filter((p) => p.phase === phase);
    if (cases.length === 0 && sites.length === 0) continue;
    const phaseRuns = runs.filter((r) => r.phase === phase);
    if (phaseRuns.length < 2) {
      problems.push(`${phase}: ${phaseRuns.length} run(s); recording needs two, to check the values are deterministic`);
      continue;
    }
    const maps: Map<string, string>[] = [];
    const values = new Map<string, unknown>();
    for (const run of phaseRuns) {
      if (run.problem !== undefined) problems.push(`${phase} run ${run.attempt}: ${run.problem}`);
      if (run.malformed.length > 0) problems.push(`${phase} run ${run.attempt}: ${run.malformed.length} malformed observation line(s), first: ${run.malformed[0]}`);
      const map = new Map<string, string>();
      for (const o of run.observations) {
        if (map.has(o.case)) problems.push(`${phase} run ${run.attempt}: case ${o.case} observed twice`);
        map.set(o.case, canonicalOrUndefined(o.value) ?? '(no canonical form)');
        if (!values.has(o.case)) values.set(o.case, o.value);
      }
      maps.push(map);
    }
    const [first, ...others] = maps as [Map<string, string>, ...Map<string, string>[]];
    for (const other of others) {
      const ids = new Set([...first.keys(), ...other.keys()]);
      const differing = [...ids].filter((id) => first.get(id) !== other.get(id)).sort();
      if (differing.length > 0) problems.push(`${phase}: the runs disagree (not deterministic) on ${differing.slice(0, 5).join(', ')}${differing.length > 5 ? ', …' : ''}`);
    }
    const claimed = new Set<string>();
    for (const c of cases) {
      claimed.add(c.id);
      const value = values.get(c.id);
      if (!first.has(c.id)) problems.push(`${phase}: sealed case ${c.id} was not observed with the reference fix`);
      else if (compareValue(value, c.expected, c.comparator)) checked += 1;
      else {
        // The reference fix observes an instance of a builtin type's subclass whose base value is
        // the literal: that exact type becomes the expectation (a builtin subclass equals its base
        // value only where the reference produced the same subclass).
        // Likewise an object (observed field by field) that the reference's own test found equal to
        // the literal through its class's __eq__: its structural form becomes the expectation.
        const typed = c.comparator.kind === 'exact' && (subclassOfLiteral(value, c.expected) || objectForm(value));
        if (typed) {
          retyped.set(c.id, value);
          checked += 1;
        } else problems.push(`${phase}: the reference fix does not satisfy sealed case ${c.id}`);
      }
    }
    for (const site of sites) {
      let n = 1;
      while (first.has(occurrenceId(site.site, n))) n += 1;
      const count = n - 1;
      if (count === 0 && site.conditional !== true) {
        problems.push(`${phase}: ${site.file}:${site.line} was never observed with the reference fix (${site.text})`);
        continue;
      }
      for (let i = 1; i <= count; i++) {
        const id = occurrenceId(site.site, i);
        claimed.add(id);
        const value = values.get(id);
        if (site.comparator.kind === 'raises') {
          if (!compareValue(value, site.expected ?? null, site.comparator)) {
            problems.push(`${phase}: observation ${id} (${site.file}:${site.line}) does not satisfy its own assertion with the reference fix`);
            continue;
          }
          // The exact exception type the reference raised (module.qualname) is required from now on.
          const qualified = raisedOf(value)?.qualified;
          recordedCases.push({ id, phase, expected: qualified === undefined ? (site.expected ?? null) : { type: qualified }, comparator: site.comparator, ...testOf(site) });
          continue;
        }
        if (site.comparator.kind === 'predicate' || site.expected !== undefined) {
          if (!compareValue(value, site.expected ?? null, site.comparator)) {
            problems.push(`${phase}: observation ${id} (${site.file}:${site.line}) does not satisfy its own assertion with the reference fix`);
            continue;
          }
          recordedCases.push({ id, phase, expected: site.expected ?? null, comparator: site.comparator, ...testOf(site) });
          continue;
        }
        // A conditional site (under a try that handles it) may raise with the reference: that exact
        // exception (type, qualified type, message) is its expectation.
        const why = site.conditional === true && raisedOf(value) !== undefined && canonicalOrUndefined(value) !== undefined ? undefined : unrecordable(value);
        if (why !== undefined) {
          problems.push(`${phase}: observation ${id} (${site.file}:${site.line}) ${why}`);
          continue;
        }
        recordedCases.push({ id, phase, expected: value, comparator: site.comparator, ...testOf(site) });
      }
    }
    const extra = [...first.keys()].filter((id) => !claimed.has(id)).sort();
    if (extra.length > 0) problems.push(`${phase}: observations of cases the pack does not have: ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ', …' : ''}`);
  }
  if (problems.length > 0) return { ok: false, problems };
  const { pending: _recorded, ...rest } = oracle;
  const kept = oracle.cases.map((c) => (retyped.has(c.id) ? { ...c, expected: retyped.get(c.id) } : c));
  const next = parseOracleFile({ ...rest, cases: [...kept, ...recordedCases] });
  return { ok: true, oracle: next, recorded: recordedCases.length, checked };
}
