import { lstat, mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { digestHex, digestJson, DIGEST_PATTERN, sha256Hex, type Digest } from '../core/hashing.js';
import { runRecordSchema } from '../core/receipt-schema.js';
import { ConfigurationError, VerificationError } from '../errors.js';
import type { Runner, RunnerDescription } from '../runners/runner.js';
import type { RunOutput, SharedBaseline, ValidationLimits, ValidationRequest, ValidationResult } from './validate.js';
import { writeFileAtomic } from '../io/files.js';
import { TOOL_VERSION } from '../version.js';

/**
 * `--baseline-cache DIR`: the base-side runs (reproduction before, the base suite) of one
 * validation, kept for the next validation of another candidate on the same base.
 *
 * Content-addressed: `objects/<sha256>.json` holds an entry, `keys/<key hex>` names the object of
 * one key. An entry is re-hashed before reuse, and must name the key it was looked up by; anything
 * else (a missing, unreadable, re-written or misplaced entry) is a miss, and the base side is run
 * again. A miss, not a refusal: running the base side again is always sound, so a damaged cache
 * costs time and never a verdict.
 *
 * Re-hashing proves an entry intact, not honest: whoever can write DIR can write a consistent
 * entry that says anything (docs/security.md, "The baseline cache"). So the cache is trusted input
 * and only a trusted writer may write it. The CLI checks what it can of that on the user's machine:
 * DIR and everything it reads in it must be owned by the user running it and writable by nobody
 * else; otherwise the command is refused (a permission problem cannot be told from an attack).
 */

export const BASELINE_CACHE_SCHEMA = 'patchproof.baseline-cache/v1';

/** Everything the base-side runs depend on; its digest is the cache key. */
export interface BaselineKeyFields {
  tool_version: string;
  base_snapshot: Digest;
  witness_digest: Digest;
  adapter: string;
  runner: RunnerDescription;
  limits: { timeout_ms: number; output_limit_bytes: number };
}

/** One entry: the key it is for, the writer's receipt's baseline digest, and the base-side runs. */
interface BaselineEntry {
  schema: typeof BASELINE_CACHE_SCHEMA;
  key: Digest;
  key_fields: BaselineKeyFields;
  /** baselineDigest() of the receipt that made these runs: a reuse must come to the same. */
  baseline_digest: Digest;
  outputs: RunOutput[];
}

/** An entry's file as read back: JSON of any shape (null, a primitive, an object), so every field is unknown until checked. */
type StoredEntry = { [K in keyof BaselineEntry]?: unknown } | null;

function isDigest(value: unknown): value is Digest {
  return typeof value === 'string' && DIGEST_PATTERN.test(value);
}

/** A hit: the runs, the entry's content address, and the baseline digest its writer recorded. */
export interface BaselineHit {
  baseline: SharedBaseline;
  entry: Digest;
  baselineDigest: Digest;
}

export function baselineCacheKey(fields: BaselineKeyFields): Digest {
  return digestJson('patchproof/baseline-cache/v1', fields);
}

/** The narrow interface validate and screen use. */
export interface BaselineCache {
  /** The entry of this key when it is intact; undefined (with `why`) when it is a miss. */
  read(fields: BaselineKeyFields): Promise<{ hit?: BaselineHit; miss?: string }>;
  /** Keep a baseline; returns the entry's content address, or undefined when it is not worth keeping. */
  write(fields: BaselineKeyFields, baselineDigest: Digest, baseline: SharedBaseline): Promise<Digest | undefined>;
}

/** The trusted-writer check of one path: ours, and writable by nobody else; never a symlink. */
async function checkTrusted(path: string, flag: string): Promise<boolean> {
  let info;
  try {
    info = await lstat(path);
  } catch {
    return false;
  }
  if (info.isSymbolicLink()) throw new ConfigurationError(`${flag}: '${path}' is a symbolic link; the baseline cache must be a plain folder only you can write`);
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) {
    throw new ConfigurationError(`${flag}: '${path}' is owned by uid ${info.uid}, not by you (uid ${uid}); only a trusted writer may write the baseline cache`);
  }
  if ((info.mode & 0o022) !== 0) {
    throw new ConfigurationError(
      `${flag}: '${path}' is writable by group or others (mode ${(info.mode & 0o777).toString(8)}); chmod go-w it: only a trusted writer may write the baseline cache`
    );
  }
  return true;
}

function isBaseOutput(value: unknown): value is RunOutput {
  if (typeof value !== 'object' || value === null) return false;
  const { evidence, record, excerpt } = value as Record<string, unknown>;
  if (typeof evidence !== 'object' || evidence === null) return false;
  const label = (evidence as Record<string, unknown>)['label'];
  if (label !== 'reproduction_before' && label !== 'regression_before') return false;
  if (excerpt !== undefined && typeof excerpt !== 'string') return false;
  const parsed = runRecordSchema.safeParse(record);
  return parsed.success && parsed.data.label === label;
}

/** The cache in DIR (created when missing, mode 0700). */
export async function openBaselineCache(dir: string, flag = '--baseline-cache'): Promise<BaselineCache> {
  const root = resolve(dir);
  await mkdir(join(root, 'objects'), { recursive: true, mode: 0o700 });
  await mkdir(join(root, 'keys'), { recursive: true, mode: 0o700 });
  for (const path of [root, join(root, 'objects'), join(root, 'keys')]) await checkTrusted(path, flag);
  return {
    async read(fields) {
      const key = baselineCacheKey(fields);
      const keyFile = join(root, 'keys', digestHex(key));
      if (!(await checkTrusted(keyFile, flag))) return { miss: 'no entry' };
      const named = (await readFile(keyFile, 'utf8')).trim();
      if (!DIGEST_PATTERN.test(named)) return { miss: `keys/${digestHex(key)} does not name an object` };
      const object = join(root, 'objects', `${digestHex(named as Digest)}.json`);
      if (!(await checkTrusted(object, flag))) return { miss: `object ${named} is missing` };
      const bytes = await readFile(object);
      const actual: Digest = `sha256:${sha256Hex(bytes)}`;
      if (actual !== named) return { miss: `object ${named} re-hashes to ${actual}: damaged or re-written, not used` };
      let entry: StoredEntry;
      try {
        entry = JSON.parse(bytes.toString('utf8')) as StoredEntry;
      } catch {
        return { miss: `object ${named} is not JSON` };
      }
      // key_fields is digested as it is: any other shape than the one looked up gives another key.
      if (entry?.schema !== BASELINE_CACHE_SCHEMA || entry.key !== key || baselineCacheKey(entry.key_fields as BaselineKeyFields) !== key) {
        return { miss: `object ${named} is for another key` };
      }
      if (!isDigest(entry.baseline_digest)) return { miss: `object ${named} has no baseline digest` };
      if (!Array.isArray(entry.outputs) || !entry.outputs.every(isBaseOutput) || !entry.outputs.some((o) => o.evidence.label === 'reproduction_before')) {
        return { miss: `object ${named} holds no base-side runs` };
      }
      return {
        hit: {
          baseline: { baseSnapshot: fields.base_snapshot, witnessDigest: fields.witness_digest, outputs: entry.outputs },
          entry: named,
          baselineDigest: entry.baseline_digest
        }
      };
    },
    async write(fields, baselineDigest, baseline) {
      // A run the infrastructure spoiled (Docker down, a timeout, a cut output) is never kept: it would make the fault sticky.
      if (baseline.outputs.length === 0 || baseline.outputs.some((o) => o.evidence.infraError !== undefined || o.evidence.timedOut || o.evidence.outputTruncated)) return undefined;
      const key = baselineCacheKey(fields);
      const entry: BaselineEntry = { schema: BASELINE_CACHE_SCHEMA, key, key_fields: fields, baseline_digest: baselineDigest, outputs: [...baseline.outputs] };
      const text = `${JSON.stringify(entry)}\n`;
      const address: Digest = `sha256:${sha256Hex(text)}`;
      await writeFileAtomic(join(root, 'objects', `${digestHex(address)}.json`), text);
      await writeFileAtomic(join(root, 'keys', digestHex(key)), `${address}\n`);
      return address;
    }
  };
}

/** The key fields of one validation: this harness, the base, the pack, the adapter, the runner, the limits. */
export function baselineKeyFields(key: { baseSnapshot: Digest; witnessDigest: Digest; adapter: string; runner: Runner; limits: ValidationLimits }): BaselineKeyFields {
  return {
    tool_version: TOOL_VERSION,
    base_snapshot: key.baseSnapshot,
    witness_digest: key.witnessDigest,
    adapter: key.adapter,
    runner: { ...key.runner.description, settings: [...key.runner.description.settings] },
    limits: { timeout_ms: key.limits.timeoutMs, output_limit_bytes: key.limits.outputLimitBytes }
  };
}

/** A baseline cache, this validation's key, and the entry found for it (if any). */
export interface BaselineLookup {
  cache: BaselineCache;
  fields: BaselineKeyFields;
  hit?: BaselineHit;
  /**
   * Keep a baseline made here only when the validation was not inconclusive (the action's store:
   * a base side the grader could not judge is not worth sharing with other jobs).
   */
  judgedOnly?: boolean;
}

/** Look this validation's key up in `cache`; says on `log` whether the entry is reused or why it is a miss. */
export async function lookUpBaselineIn(
  cache: BaselineCache,
  fields: BaselineKeyFields,
  log: (line: string) => void,
  options: { judgedOnly?: boolean } = {}
): Promise<BaselineLookup> {
  const { hit, miss } = await cache.read(fields);
  log(hit !== undefined ? `baseline cache: reusing entry ${hit.entry} (baseline ${hit.baselineDigest})` : `baseline cache: miss (${miss ?? 'no entry'}); the base side runs`);
  return { cache, fields, ...(hit !== undefined ? { hit } : {}), ...(options.judgedOnly === true ? { judgedOnly: true } : {}) };
}

/** The request fields of a lookup: the cached runs as the shared baseline, and the entry to record. */
export function baselineRequest(lookup: BaselineLookup | undefined): Pick<ValidationRequest, 'baseline' | 'baselineCache'> {
  if (lookup === undefined) return {};
  return lookup.hit !== undefined ? { baseline: lookup.hit.baseline, baselineCache: { entry: lookup.hit.entry } } : { baselineCache: {} };
}

/**
 * After a validation with a baseline cache: a reused entry must come to the baseline digest its
 * writer recorded (else its runs were changed after they were recorded: refused, no receipt); a
 * baseline made here (never one reused) is kept for the next validation.
 */
export async function settleBaselineIn(lookup: BaselineLookup | undefined, result: ValidationResult, log: (line: string) => void, flag = '--baseline-cache'): Promise<void> {
  if (lookup === undefined) return;
  const digest = result.receipt.baseline?.digest;
  if (lookup.hit !== undefined) {
    if (digest !== lookup.hit.baselineDigest) {
      throw new VerificationError(
        'bad_input',
        `${flag} entry ${lookup.hit.entry} records baseline ${lookup.hit.baselineDigest}, but its runs judge to ${digest ?? 'none'}: the entry was changed after it was written; remove it`
      );
    }
    return;
  }
  if (digest === undefined || result.baseline === undefined) return;
  if (lookup.judgedOnly === true && result.receipt.verdict === 'inconclusive') {
    log('baseline cache: not kept (the validation was inconclusive)');
    return;
  }
  const entry = await lookup.cache.write(lookup.fields, digest as Digest, result.baseline);
  log(entry !== undefined ? `baseline cache: kept entry ${entry}` : 'baseline cache: not kept (a base run was spoiled by the infrastructure, or the store did not take it)');
}
