import { CLAIM_FINDINGS, type ClaimFinding, type ClaimFormat } from './claim-codes.js';
import type { PhaseRecord } from './receipt-schema.js';
import type { TestStatus } from './test-results.js';

/**
 * The agent's claim against the clean room (pure). The agent says what its own run, in its own
 * workspace, gave per test; the clean room is what the receipt's runs of the patched tree gave
 * (reproduction after, regression suite, hidden tests). Per claimed test: a pass there and a
 * failure here is `possible_hidden_state_dependency` (the agent's run leaned on state the diff does
 * not carry: a leftover file, a cache, an installed package); a claimed test the clean room never
 * ran is `claim_unknown_test`. A claim is evidence about the agent, never about the patch: it
 * changes neither the verdict, nor the reasons, nor proof grade, nor the exit code (the verdict is
 * decided from the phases alone, before and without the claim; verify-receipt re-decides it the
 * same way). How each adapter's claim ids map to its clean-room ids: docs/claim.md.
 */

export { CLAIM_FINDINGS, CLAIM_FORMATS, type ClaimFinding, type ClaimFormat } from './claim-codes.js';

/** What the clean room says of a claimed test: its status, absent, or not run (the early exit). */
export type CleanRoomOutcome = TestStatus | 'absent' | 'not_run';

/** The phases whose runs are of the patched tree: the clean-room counterpart of the agent's run. */
export const CLEAN_ROOM_PHASES = ['reproduction_after', 'regression', 'hidden'] as const;

/** At most this many rows are recorded (findings first); the rest are counted in `omitted`. */
export const CLAIM_ROW_LIMIT = 500;
/** A claimed label longer than this is cut (it is the agent's text, recorded for unknown tests only). */
export const CLAIM_LABEL_LIMIT = 300;

/**
 * How one claimed test may be found among the clean room's ids, tried in order (made per adapter
 * by src/adapters/claim-results.ts):
 * - `id`: exactly this clean-room id (hidden tests too, by their keyed id);
 * - `path`: `<suffix of path> > <rest…>` for every suffix of `path` at a `/`, longest first (a JS
 *   runner's absolute file path in the agent's workspace against the repository-relative one);
 * - `full`: the one non-hidden JS id `<file> > <a> > … > <title>` whose `a … title`, joined by single
 *   spaces, is `text` (jest's `fullName`, which jest-junit writes by default); several is no match.
 */
export type ClaimKey = { kind: 'id'; id: string } | { kind: 'path'; path: string; rest: readonly string[] } | { kind: 'full'; text: string };

/** One test of the claim, as parsed. */
export interface ClaimCase {
  /** The claim's own name for the test, recorded when the clean room has no such test. */
  label: string;
  status: TestStatus;
  keys: readonly ClaimKey[];
}

/** A parsed claim: its format and cases (src/adapters/claim-results.ts). */
export interface ParsedClaim {
  format: ClaimFormat;
  cases: ClaimCase[];
}

/** One compared test, as the receipt records it. */
export interface ClaimRow {
  /** The clean-room id it matched (a hidden test's keyed id), else the claim's own label. */
  id: string;
  claimed: TestStatus;
  clean_room: CleanRoomOutcome;
  finding?: ClaimFinding;
  /** True when the id is a hidden test's keyed id. */
  hidden?: true;
}

/** The receipt's `claim` record. */
export interface ClaimRecord {
  /** SHA-256 of the claim file's bytes. */
  digest: string;
  format: ClaimFormat;
  /** Tests in the claim. */
  tests: number;
  /** Claimed tests the clean room ran. */
  matched: number;
  findings: Record<ClaimFinding, number>;
  rows: ClaimRow[];
  /** Rows left out past CLAIM_ROW_LIMIT. */
  omitted: number;
}

const RANK: Record<TestStatus, number> = { passed: 0, skipped: 1, failed: 2, errored: 3 };

/** The clean room's outcome per id (the worst where an id ran in more than one phase), hidden ids apart. */
export function cleanRoomOutcomes(phases: readonly PhaseRecord[]): { open: Map<string, TestStatus>; hidden: Map<string, TestStatus>; notRun: boolean } {
  const open = new Map<string, TestStatus>();
  const hidden = new Map<string, TestStatus>();
  let notRun = false;
  for (const phase of phases) {
    if (!(CLEAN_ROOM_PHASES as readonly string[]).includes(phase.name)) continue;
    if (phase.status === 'not_run') notRun = true;
    const into = phase.name === 'hidden' ? hidden : open;
    for (const result of phase.results) {
      const before = into.get(result.id);
      if (before === undefined || RANK[result.status] > RANK[before]) into.set(result.id, result.status);
    }
  }
  return { open, hidden, notRun };
}

/** The finding a claimed status and a clean-room outcome make, if any. */
export function findingOf(claimed: TestStatus, cleanRoom: CleanRoomOutcome): ClaimFinding | undefined {
  if (cleanRoom === 'absent') return 'claim_unknown_test';
  if (claimed === 'passed' && (cleanRoom === 'failed' || cleanRoom === 'errored')) return 'possible_hidden_state_dependency';
  return undefined;
}

function pathSuffixes(path: string): string[] {
  const parts = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  return parts.map((_, index) => parts.slice(index).join('/'));
}

/** The `a … title` rendering of a JS id `<file> > a > … > title`, for `full` keys. */
function fullNameIndex(open: ReadonlyMap<string, TestStatus>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const id of open.keys()) {
    const parts = id.split(' > ');
    if (parts.length < 2) continue;
    const text = parts.slice(1).join(' ');
    index.set(text, [...(index.get(text) ?? []), id]);
  }
  return index;
}

/**
 * Compare a claim with the clean room. `phases` are the receipt's (hidden ids already keyed);
 * `keyed` makes a hidden test's public id from its real id.
 */
export function compareClaim(claim: ParsedClaim, digest: string, phases: readonly PhaseRecord[], keyed: (id: string) => string): ClaimRecord {
  const { open, hidden, notRun } = cleanRoomOutcomes(phases);
  let full: Map<string, string[]> | undefined;
  const find = (key: ClaimKey): { id: string; status: TestStatus; hidden: boolean } | undefined => {
    const exact = (id: string): { id: string; status: TestStatus; hidden: boolean } | undefined => {
      const status = open.get(id);
      if (status !== undefined) return { id, status, hidden: false };
      const pub = keyed(id);
      const hiddenStatus = hidden.get(pub);
      return hiddenStatus === undefined ? undefined : { id: pub, status: hiddenStatus, hidden: true };
    };
    switch (key.kind) {
      case 'id':
        return exact(key.id);
      case 'path':
        for (const suffix of pathSuffixes(key.path)) {
          const found = exact([suffix, ...key.rest].join(' > '));
          if (found !== undefined) return found;
        }
        return undefined;
      case 'full': {
        full ??= fullNameIndex(open);
        const ids = full.get(key.text) ?? [];
        return ids.length === 1 ? { id: ids[0]!, status: open.get(ids[0]!)!, hidden: false } : undefined;
      }
    }
  };
  const rows: ClaimRow[] = claim.cases.map((test) => {
    const found = [{ kind: 'id', id: test.label } as const, ...test.keys].map(find).find((hit) => hit !== undefined);
    const cleanRoom: CleanRoomOutcome = found?.status ?? (notRun ? 'not_run' : 'absent');
    const finding = findingOf(test.status, cleanRoom);
    return {
      id: found?.id ?? test.label.slice(0, CLAIM_LABEL_LIMIT),
      claimed: test.status,
      clean_room: cleanRoom,
      ...(finding !== undefined ? { finding } : {}),
      ...(found?.hidden === true ? { hidden: true as const } : {})
    };
  });
  const findings: Record<ClaimFinding, number> = { possible_hidden_state_dependency: 0, claim_unknown_test: 0 };
  for (const row of rows) if (row.finding !== undefined) findings[row.finding] += 1;
  // Findings first (hidden-state dependencies before unknown tests), each group in claim order.
  const order = (row: ClaimRow): number => (row.finding === 'possible_hidden_state_dependency' ? 0 : row.finding === 'claim_unknown_test' ? 1 : 2);
  const sorted = rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => order(a.row) - order(b.row) || a.index - b.index)
    .map(({ row }) => row);
  const kept = sorted.slice(0, CLAIM_ROW_LIMIT);
  return {
    digest,
    format: claim.format,
    tests: rows.length,
    matched: rows.filter((row) => row.clean_room !== 'absent' && row.clean_room !== 'not_run').length,
    findings,
    rows: kept,
    omitted: rows.length - kept.length
  };
}

/**
 * What verify-receipt checks of a recorded claim: every row's clean-room outcome is what the
 * receipt's own patched-side results say of its id, its finding follows, hidden rows hold keyed
 * ids only, and the counts add up. `hiddenIdPattern` is the form of a keyed id.
 */
export function claimErrors(record: ClaimRecord, phases: readonly PhaseRecord[], hiddenIdPattern: RegExp): string[] {
  const errors: string[] = [];
  const { open, hidden, notRun } = cleanRoomOutcomes(phases);
  const counted: Record<ClaimFinding, number> = { possible_hidden_state_dependency: 0, claim_unknown_test: 0 };
  let matched = 0;
  record.rows.forEach((row, index) => {
    const where = `claim.rows[${index}]`;
    if (row.hidden === true && !hiddenIdPattern.test(row.id)) errors.push(`${where}: a hidden row must hold a keyed id`);
    const recorded = row.hidden === true ? hidden.get(row.id) : open.get(row.id);
    const expected: CleanRoomOutcome = recorded ?? (notRun ? 'not_run' : 'absent');
    if (row.clean_room !== expected) errors.push(`${where}: clean_room ${row.clean_room} but the receipt's results say ${expected}`);
    if (row.hidden !== true && hidden.has(row.id)) errors.push(`${where}: a hidden test's id in a row not marked hidden`);
    if (row.finding !== findingOf(row.claimed, row.clean_room))
      errors.push(`${where}: finding ${row.finding ?? 'none'} does not follow from claimed ${row.claimed} and clean_room ${row.clean_room}`);
    if (row.finding !== undefined) counted[row.finding] += 1;
    if (row.clean_room !== 'absent' && row.clean_room !== 'not_run') matched += 1;
  });
  if (record.rows.length + record.omitted !== record.tests) errors.push(`claim: ${record.rows.length} rows and ${record.omitted} omitted are not its ${record.tests} tests`);
  if (record.omitted > 0 && record.rows.length < CLAIM_ROW_LIMIT) errors.push(`claim: rows omitted below the limit of ${CLAIM_ROW_LIMIT}`);
  if (record.rows.length > CLAIM_ROW_LIMIT) errors.push(`claim: more than ${CLAIM_ROW_LIMIT} rows`);
  const exact = record.omitted === 0;
  for (const finding of CLAIM_FINDINGS) {
    if (exact ? record.findings[finding] !== counted[finding] : record.findings[finding] < counted[finding]) {
      errors.push(`claim: findings.${finding} is ${record.findings[finding]} but the rows hold ${counted[finding]}`);
    }
  }
  if (exact ? record.matched !== matched : record.matched < matched) errors.push(`claim: matched is ${record.matched} but the rows match ${matched}`);
  if (record.matched > record.tests) errors.push('claim: more tests matched than claimed');
  // Rows are kept findings first: an omitted finding while a row without one was kept is a lie by omission.
  const firstPlain = record.rows.findIndex((row) => row.finding === undefined);
  if (firstPlain !== -1 && record.rows.slice(firstPlain).some((row) => row.finding !== undefined)) errors.push('claim: rows are not in findings-first order');
  if (record.omitted > 0 && firstPlain !== -1 && CLAIM_FINDINGS.some((finding) => record.findings[finding] > counted[finding])) {
    errors.push('claim: a finding was omitted while a row without one was kept');
  }
  return errors;
}
