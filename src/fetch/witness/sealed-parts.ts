import { ORACLE_ORIGINALS_DIR, ORACLE_SCHEMA, parseOracleFile, type OracleFile } from '../../core/oracle.js';
import { quoteForMessage } from '../../core/diff-policy.js';
import { ConfigurationError } from '../../errors.js';
import type { WitnessEntry } from './entries.js';
import { parseWitnessManifest, WITNESS_MANIFEST_FILE, type WitnessManifest } from './manifest.js';

/**
 * The grader data of a sealed pack that is as secret as the hidden tests themselves, and where it
 * lives. Pure: entries in, entries out.
 *
 * Besides the hidden tests, three things name or give away a hidden test:
 *   - the hidden half of the oracle file (`oracle.expected`): the hidden cases' ids (they name the
 *     hidden file and line) and their expected values, and the hidden assertions `witness seal`
 *     could not convert (their source text);
 *   - the author's unsealed originals of the hidden tests (`oracle/original/hidden/`, kept by
 *     `witness seal`): the hidden tests' whole source;
 *   - the pinned hidden ids (`hidden.ids` in witness.json): the hidden tests' names.
 *
 * In a sealed pack they live only inside hidden.age, under `sealed/` (see SEALED_PARTS), and are
 * restored in memory after decryption: the ids into the manifest, the oracle's hidden half into
 * `ResolvedWitness.hiddenOracle`. The originals are kept for the author and never restored. The
 * reproduction's expectations and originals stay plain: the reproduction is public.
 */

/** Where each secret part lives inside hidden.age. */
export const SEALED_PARTS = Object.freeze({
  /** An oracle document (patchproof.oracle/v1) with the hidden phase's cases and unsealed assertions. */
  oracle: 'sealed/oracle-hidden.json',
  /** The pinned hidden ids: a JSON list of strings, as `hidden.ids` would spell it. */
  ids: 'sealed/hidden-ids.json',
  /** The author's unsealed originals of the hidden tests, at the same relative paths. */
  originals: 'sealed/original/hidden'
});

/** Where `witness seal` keeps the hidden tests' originals in a plain pack. */
export const PLAIN_HIDDEN_ORIGINALS = `${ORACLE_ORIGINALS_DIR}/hidden`;

const encoder = new TextEncoder();
const json = (value: unknown): Uint8Array => encoder.encode(`${JSON.stringify(value, null, 2)}\n`);
const under = (path: string, folder: string): boolean => path.startsWith(`${folder}/`);

function decode(entry: WitnessEntry, what: string, form = 'JSON'): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(entry.data));
  } catch {
    throw new ConfigurationError(`the witness pack's ${what} is not UTF-8 JSON; expected ${form}`);
  }
}

/** The pack's witness.json: the raw JSON object and the parsed manifest. */
export function manifestEntryOf(entries: readonly WitnessEntry[]): { raw: Record<string, unknown>; manifest: WitnessManifest } {
  const file = entries.find((entry) => entry.path === WITNESS_MANIFEST_FILE);
  if (file === undefined) {
    throw new ConfigurationError(`the witness pack has no ${WITNESS_MANIFEST_FILE} at its root; add one (inside a git work tree only tracked files count: git add the pack)`);
  }
  const raw = decode(file, WITNESS_MANIFEST_FILE, 'a JSON object');
  const manifest = parseWitnessManifest(raw, `witness pack ${WITNESS_MANIFEST_FILE}`);
  return { raw: raw as Record<string, unknown>, manifest };
}

function oracleOf(entry: WitnessEntry, what: string): OracleFile {
  try {
    return parseOracleFile(decode(entry, what));
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError(`the witness pack's ${what} is not a ${ORACLE_SCHEMA} document: ${(error as Error).message}`);
  }
}

/**
 * Split a plain pack for `witness seal-hidden`: returns the public entries (witness.json without
 * `hidden.ids`, the oracle file with the reproduction's half only, everything else as it was) and
 * the secret ones to encrypt beside the hidden tests (SEALED_PARTS). A pack without an oracle or
 * pinned hidden ids comes back unchanged. Files already under `sealed/` are the caller's.
 */
export function splitSecretParts(entries: readonly WitnessEntry[]): { open: WitnessEntry[]; secret: WitnessEntry[] } {
  const { raw, manifest } = manifestEntryOf(entries);
  const secret: WitnessEntry[] = [];
  let open = entries.filter((entry) => !under(entry.path, PLAIN_HIDDEN_ORIGINALS));
  for (const entry of entries) {
    if (under(entry.path, PLAIN_HIDDEN_ORIGINALS)) secret.push({ ...entry, path: `${SEALED_PARTS.originals}/${entry.path.slice(PLAIN_HIDDEN_ORIGINALS.length + 1)}` });
  }
  const ids = manifest.hidden.ids;
  if (ids !== undefined) {
    const hidden = { ...(raw['hidden'] as Record<string, unknown>) };
    delete hidden['ids'];
    open = open.map((entry) => (entry.path === WITNESS_MANIFEST_FILE ? { ...entry, data: json({ ...raw, hidden }) } : entry));
    secret.push({ path: SEALED_PARTS.ids, mode: '100644', data: json(ids) });
  }
  const oraclePath = manifest.oracle?.expected;
  const oracleEntry = oraclePath === undefined ? undefined : entries.find((entry) => entry.path === oraclePath);
  if (oraclePath !== undefined && oracleEntry !== undefined) {
    const oracle = oracleOf(oracleEntry, `oracle file ${oraclePath}`);
    const half = (phase: 'reproduction' | 'hidden'): OracleFile => ({
      schema: ORACLE_SCHEMA,
      cases: oracle.cases.filter((c) => c.phase === phase),
      unsealed: oracle.unsealed.filter((u) => u.phase === phase),
      ...(oracle.pending === undefined ? {} : { pending: oracle.pending.filter((p) => p.phase === phase) })
    });
    open = open.map((entry) => (entry.path === oraclePath ? { ...entry, data: json(half('reproduction')) } : entry));
    secret.push({ path: SEALED_PARTS.oracle, mode: '100644', data: json(half('hidden')) });
  }
  return { open, secret };
}

/**
 * Why the plain part of a sealed pack gives a hidden test away, or undefined: it still lists
 * `hidden.ids`, holds the hidden originals, or has hidden cases or assertions in its oracle file.
 * Checked with or without the key, before anything is decrypted or written.
 */
export function plainSecretProblem(entries: readonly WitnessEntry[]): string | undefined {
  const { raw, manifest } = manifestEntryOf(entries);
  const fix = 'seal the plain pack again with patchproof witness seal-hidden, which moves it into hidden.age';
  const hidden = raw['hidden'];
  if (hidden !== null && typeof hidden === 'object' && 'ids' in hidden) return `its ${WITNESS_MANIFEST_FILE} lists hidden.ids in plain text; ${fix}`;
  const original = entries.find((entry) => under(entry.path, PLAIN_HIDDEN_ORIGINALS));
  if (original !== undefined) return `it holds the hidden tests' originals in plain text (${quoteForMessage(original.path)}); ${fix}`;
  const oraclePath = manifest.oracle?.expected;
  const oracleEntry = oraclePath === undefined ? undefined : entries.find((entry) => entry.path === oraclePath);
  if (oraclePath !== undefined && oracleEntry !== undefined) {
    const oracle = oracleOf(oracleEntry, `oracle file ${oraclePath}`);
    if (oracle.cases.some((c) => c.phase === 'hidden') || oracle.unsealed.some((u) => u.phase === 'hidden') || (oracle.pending ?? []).some((p) => p.phase === 'hidden')) {
      return `its oracle file ${quoteForMessage(oraclePath)} holds hidden expectations in plain text; ${fix}`;
    }
  }
  return undefined;
}

/** A sealed pack's secret parts, restored in memory after decryption. */
export interface RestoredParts {
  /** The manifest with `hidden.ids` put back, checked as witness.json would be. */
  manifest: WitnessManifest;
  /** The oracle's hidden half, when the pack has sealed oracles. */
  hiddenOracle?: OracleFile;
}

/**
 * Put a sealed pack's secret parts back (in memory only): the pinned hidden ids into the manifest,
 * checked with every rule of witness.json; the oracle's hidden half, which must hold hidden cases
 * only and needs `oracle.expected` in the manifest. ConfigurationError on any mismatch.
 */
export function restoreSecretParts(entries: readonly WitnessEntry[], sealed: readonly WitnessEntry[]): RestoredParts {
  const { raw, manifest } = manifestEntryOf(entries);
  let restored = manifest;
  const idsEntry = sealed.find((entry) => entry.path === SEALED_PARTS.ids);
  if (idsEntry !== undefined) {
    const ids = decode(idsEntry, `hidden.age ${SEALED_PARTS.ids}`);
    const hidden = { ...(raw['hidden'] as Record<string, unknown> | undefined), ids };
    restored = parseWitnessManifest({ ...raw, hidden }, `witness pack ${WITNESS_MANIFEST_FILE} with hidden.age's ${SEALED_PARTS.ids}`);
  }
  const oracleEntry = sealed.find((entry) => entry.path === SEALED_PARTS.oracle);
  if (oracleEntry === undefined) return { manifest: restored };
  if (manifest.oracle === undefined) {
    throw new ConfigurationError(
      `hidden.age holds ${SEALED_PARTS.oracle} but ${WITNESS_MANIFEST_FILE} names no oracle.expected; seal the plain pack again with patchproof witness seal-hidden`
    );
  }
  const hiddenOracle = oracleOf(oracleEntry, `hidden.age ${SEALED_PARTS.oracle}`);
  if (hiddenOracle.cases.some((c) => c.phase !== 'hidden') || hiddenOracle.unsealed.some((u) => u.phase !== 'hidden')) {
    throw new ConfigurationError(`hidden.age's ${SEALED_PARTS.oracle} holds reproduction cases; it holds the hidden phase's only`);
  }
  return { manifest: restored, hiddenOracle };
}
