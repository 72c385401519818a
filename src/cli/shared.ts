import { mkdir } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { canonicalJson } from '../core/hashing.js';
import type { HiddenDetail } from '../core/hidden-ids.js';
import { ConfigurationError } from '../errors.js';
import { baselineKeyFields, lookUpBaselineIn, openBaselineCache, settleBaselineIn, type BaselineLookup } from '../phases/baseline-cache.js';
import type { Digest } from '../core/hashing.js';
import type { ValidationResult } from '../phases/validate.js';
import { assertOutside, existingDir, readTextFile } from '../io/files.js';
import { createDockerRunner } from '../runners/docker-runner.js';
import { containerWorkdirFor, DEFAULT_CONTAINER_ENV } from '../runners/docker-args.js';
import { createLocalRunner } from '../runners/local-runner.js';
import type { Runner } from '../runners/runner.js';
import type { ValidationLimits, WitnessInput } from '../phases/validate.js';
import { resolveWitness } from '../fetch/witness/fetch.js';
import { encryptTo, parseWitnessKey, witnessKeyRecipient } from '../fetch/witness/sealed.js';
import { witnessFromFolders } from '../fetch/witness/shortcut.js';
import type { ValidateSettings } from '../inputs/cli-settings.js';

/**
 * What the commands that validate (validate, screen) share: the runner, the witness pack, the
 * limits, the exit codes. The command dispatcher (run.ts) imports this; nothing imports run.ts.
 */

/** The maintainers' encrypted hidden detail, written beside receipt.json when the pack was sealed. */
export const HIDDEN_DETAIL_FILE = 'hidden-detail.age';

/** Where the CLI writes. Tests hand in recording streams. */
export interface Console {
  out: (text: string) => void;
  err: (text: string) => void;
  /** stderr is a terminal (progress draws a live status line); absent: plain lines. */
  errTTY?: boolean;
  /** The terminal's width, when it is one. */
  errColumns?: number;
}

/** Documented exit codes. */
export const EXIT = { passed: 0, failed: 1, refused: 2, inconclusive: 3 } as const;

export async function createRunner(settings: Pick<ValidateSettings, 'runner' | 'image' | 'repo'> & { container?: ValidateSettings['container'] }): Promise<Runner> {
  if (settings.runner === 'local') return createLocalRunner();
  const { env, ...paths } = settings.container ?? { env: {} };
  // The default workdir names the repository like a CI job's checkout: /home/runner/work/<repo>/<repo>.
  const workdir = paths.workdir ?? containerWorkdirFor(basename(resolve(settings.repo)));
  return createDockerRunner({ image: settings.image as string, layout: { ...paths, workdir, env: { ...DEFAULT_CONTAINER_ENV, ...env } } });
}

/** A pack folder inside the repository under validation: protected by default (src/core/surface.ts). */
export function packInRepo(repo: string, settings: Pick<ValidateSettings, 'witness'>): { repoPath?: string } {
  if (settings.witness.kind === 'folders' || /^https?:\/\//.test(settings.witness.source)) return {};
  const rel = relative(resolve(repo), resolve(settings.witness.source));
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? {} : { repoPath: rel.split(sep).join('/') };
}

/** The run limits: the command line's overrides, else the pack's. */
export function validationLimits(
  settings: Pick<ValidateSettings, 'timeoutMs' | 'outputLimitBytes' | 'maxDiffBytes' | 'maxDiffFiles'>,
  manifest: WitnessInput['manifest']
): ValidationLimits {
  return {
    timeoutMs: settings.timeoutMs ?? manifest.limits.timeout_seconds * 1000,
    outputLimitBytes: settings.outputLimitBytes ?? manifest.limits.output_limit_bytes,
    diff: { maxBytes: settings.maxDiffBytes ?? manifest.limits.diff_max_bytes, maxFiles: settings.maxDiffFiles ?? manifest.limits.diff_max_files }
  };
}

/** A witness key file's one age identity (refused with the fix when it is not one). */
export async function readWitnessKey(path: string, flag: string): Promise<string> {
  return parseWitnessKey(await readTextFile(path, flag), `${flag} '${path}'`);
}

/** The grader: a digest-verified witness pack (a sealed one opened with its key), or a pack built from two folders. */
export async function openWitness(settings: Pick<ValidateSettings, 'witness'>, witnessKey: string | undefined): Promise<{ witness: WitnessInput; dispose: () => Promise<void> }> {
  const source = settings.witness;
  if (source.kind === 'folders') {
    const reproduction = await existingDir(source.reproduction, '--reproduction');
    const hidden = await existingDir(source.hidden, '--hidden');
    const pack = await witnessFromFolders(reproduction, hidden, source.adapter);
    return { witness: { ...pack, ...(witnessKey !== undefined ? { witnessKey } : {}) }, dispose: () => pack.dispose() };
  }
  const resolved = await resolveWitness(source.source, source.digest, witnessKey !== undefined ? { witnessKey } : {});
  if (source.adapter !== undefined && source.adapter !== resolved.manifest.adapter) {
    await resolved.dispose();
    throw new ConfigurationError(`--adapter ${source.adapter} does not match the witness pack's adapter ${resolved.manifest.adapter}; drop --adapter or use the pack's`);
  }
  return { witness: { ...resolved, ...(witnessKey !== undefined ? { witnessKey } : {}) }, dispose: () => resolved.dispose() };
}

/** The maintainers' hidden detail, encrypted to the witness key's recipient (canonical JSON inside). */
export function hiddenDetailSealer(witnessKey: string | undefined): ((detail: HiddenDetail) => Promise<Uint8Array>) | undefined {
  if (witnessKey === undefined) return undefined;
  return async (detail) => encryptTo([await witnessKeyRecipient(witnessKey)], new TextEncoder().encode(canonicalJson(detail)));
}

/** The dependency stage's cache folder: created when missing, and never inside the repository. */
export async function setupCacheDir(dir: string, repo: string): Promise<string> {
  await assertOutside(dir, repo, '--setup-cache');
  await mkdir(dir, { recursive: true });
  return resolve(dir);
}

/** `--baseline-cache`: the cache, this validation's key, and the entry found for it (if any). */
export type { BaselineLookup } from '../phases/baseline-cache.js';
export { baselineRequest } from '../phases/baseline-cache.js';

/**
 * Look the base side up in `--baseline-cache DIR` (outside the repository; only its owner may
 * write it). A miss says why on stderr and the base side runs as usual.
 */
export async function lookUpBaseline(
  dir: string,
  repo: string,
  key: { baseSnapshot: Digest; witnessDigest: Digest; adapter: string; runner: Runner; limits: ValidationLimits },
  io: Console
): Promise<BaselineLookup> {
  await assertOutside(dir, repo, '--baseline-cache');
  return lookUpBaselineIn(await openBaselineCache(dir), baselineKeyFields(key), (line) => io.err(`${line}\n`));
}

/**
 * After a validation with `--baseline-cache`: a reused entry must come to the baseline digest its
 * writer recorded (else refused, no receipt); a baseline made here is kept for the next validation.
 */
export async function settleBaseline(lookup: BaselineLookup | undefined, result: ValidationResult, io: Console): Promise<void> {
  await settleBaselineIn(lookup, result, (line) => io.err(`${line}\n`));
}
