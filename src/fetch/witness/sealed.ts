// age-encryption: the reference TypeScript implementation of the age format (age-encryption.org/v1)
// by the format's author; maintained, pure JS (noble ciphers/curves), runs on Node 20 and bundles with ncc.
import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption';
import { quoteForMessage } from '../../core/diff-policy.js';
import { ConfigurationError } from '../../errors.js';
import { packWitnessEntries, readWitnessArchive } from './archive.js';
import { packLimits, unsafe, type PackLimits, type WitnessEntry } from './entries.js';
import { splitSecretParts } from './sealed-parts.js';

/**
 * The encrypted part of a witness pack. A sealed pack keeps its public part in the clear
 * (witness.json, the reproduction tests, anything else) and holds its secret part as one file,
 * `hidden.age`: the age encryption of a reproducible `.tar.gz` (src/fetch/witness/archive.ts) of
 *
 *   - the hidden tests, at the manifest's `hidden.path`, and
 *   - `sealed/…`: the other secret grader data (the oracle's hidden half, the pinned hidden ids, the
 *     hidden originals: src/fetch/witness/sealed-parts.ts). It is never written to disk:
 *     `ResolvedWitness.sealed` holds it in memory, and its parts are restored from there.
 *
 * The pack digest covers `hidden.age` like any file, so it binds the ciphertext and, through it, the
 * plaintext (age is authenticated: a changed ciphertext does not decrypt). The witness key is an age
 * X25519 identity (`AGE-SECRET-KEY-1…`); the pack is sealed to its recipient (`age1…`).
 */

/** The encrypted part's file name, at the pack root. */
export const SEALED_HIDDEN_FILE = 'hidden.age';
/** The folder (in the plain pack, and inside the encrypted archive) for other secret grader data. */
export const SEALED_FOLDER = 'sealed';

const IDENTITY = /^AGE-SECRET-KEY-1[0-9A-Z]+$/;
const RECIPIENT = /^age1[0-9a-z]+$/;

/** A new witness key: the identity file's text (comment and key line) and its recipient. */
export async function generateWitnessKey(): Promise<{ fileText: string; recipient: string }> {
  const identity = await generateX25519Identity();
  const recipient = await identityToRecipient(identity);
  return { fileText: `# PatchProof witness key (age identity); public recipient: ${recipient}\n${identity}\n`, recipient };
}

/**
 * The one identity in a key file's text: lines starting with `#` and blank lines are ignored; exactly
 * one `AGE-SECRET-KEY-1…` line must remain. ConfigurationError names `what` (the flag or input).
 */
export function parseWitnessKey(text: string, what: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (lines.length !== 1 || !IDENTITY.test(lines[0] as string)) {
    throw new ConfigurationError(
      `${what} does not hold one age identity; expected a key file with a single AGE-SECRET-KEY-1… line (patchproof witness keygen --out FILE makes one)`
    );
  }
  return lines[0] as string;
}

/** The public recipient of a witness key. */
export async function witnessKeyRecipient(identity: string): Promise<string> {
  return identityToRecipient(identity);
}

/** Check recipients given on the command line. */
export function parseRecipients(values: readonly string[], what: string): string[] {
  if (values.length === 0) throw new ConfigurationError(`${what} is required: give one or more age recipients (age1…), comma-separated`);
  for (const value of values) {
    if (!RECIPIENT.test(value)) throw new ConfigurationError(`${what} ${quoteForMessage(value, 80)} is not an age X25519 recipient; expected age1… (witness keygen prints it)`);
  }
  return [...values];
}

/** Encrypt bytes to recipients (age, binary format). */
export async function encryptTo(recipients: readonly string[], data: Uint8Array): Promise<Uint8Array> {
  const encrypter = new Encrypter();
  for (const recipient of recipients) encrypter.addRecipient(recipient);
  return encrypter.encrypt(data);
}

/** Decrypt age bytes with a witness key; a wrong key or altered bytes is a one-line ConfigurationError. */
export async function decryptWith(identity: string, data: Uint8Array, what: string): Promise<Uint8Array> {
  const decrypter = new Decrypter();
  decrypter.addIdentity(identity);
  try {
    return await decrypter.decrypt(data);
  } catch (error) {
    const detail = (error as Error).message.split('\n')[0] ?? 'failed';
    throw new ConfigurationError(`${what} could not be decrypted with the witness key (${detail}); give the key it was sealed for`);
  }
}

const under = (path: string, folder: string): boolean => path.startsWith(`${folder}/`);

/**
 * Seal a plain pack: the files under `hiddenPath/` and `sealed/` go into `hidden.age`, encrypted to
 * `recipients`, together with everything else that would give a hidden test away (the oracle's
 * hidden half, the hidden originals, the pinned hidden ids: see src/fetch/witness/sealed-parts.ts), which
 * leaves the plain part. Every other file stays as it is. Refuses a pack that is already sealed or
 * has no hidden tests.
 */
export async function sealHiddenEntries(entries: readonly WitnessEntry[], hiddenPath: string, recipients: readonly string[]): Promise<WitnessEntry[]> {
  if (entries.some((entry) => entry.path === SEALED_HIDDEN_FILE)) {
    throw new ConfigurationError(`the pack already has ${SEALED_HIDDEN_FILE}; seal a plain pack (its hidden tests in ${hiddenPath}/)`);
  }
  const hidden = entries.filter((entry) => under(entry.path, hiddenPath) || under(entry.path, SEALED_FOLDER));
  if (!hidden.some((entry) => under(entry.path, hiddenPath))) {
    throw new ConfigurationError(`the pack has no files in ${quoteForMessage(hiddenPath)}; a sealed pack needs hidden tests to seal`);
  }
  const parts = splitSecretParts(entries.filter((entry) => !hidden.includes(entry)));
  const clash = parts.secret.find((part) => hidden.some((entry) => entry.path === part.path));
  if (clash !== undefined) throw new ConfigurationError(`the pack's own ${quoteForMessage(clash.path)} is where seal-hidden keeps a secret part; rename it`);
  const archive = await packWitnessEntries([...hidden, ...parts.secret]);
  const ciphertext = await encryptTo(recipients, archive);
  return [...parts.open, { path: SEALED_HIDDEN_FILE, mode: '100644', data: ciphertext }];
}

/** Is this a sealed pack? */
export function isSealed(entries: readonly WitnessEntry[]): boolean {
  return entries.some((entry) => entry.path === SEALED_HIDDEN_FILE);
}

/**
 * Open a sealed pack's entries (already digest-checked) in memory: the hidden tests join the public
 * entries; `sealed/…` is returned apart. Refuses, before anything is written: a missing key, a key
 * that does not open the file, a plain part that also holds hidden tests or `sealed/`, an archive
 * entry outside `hiddenPath/` and `sealed/` (witness_unsafe), and everything readWitnessArchive refuses.
 */
export async function openSealedEntries(
  entries: readonly WitnessEntry[],
  hiddenPath: string,
  identity: string | undefined,
  limits: Partial<PackLimits> = {}
): Promise<{ entries: WitnessEntry[]; sealed: WitnessEntry[] }> {
  const file = entries.find((entry) => entry.path === SEALED_HIDDEN_FILE);
  if (file === undefined) return { entries: [...entries], sealed: [] };
  if (identity === undefined) {
    throw new ConfigurationError(
      `the witness pack's hidden tests are encrypted (${SEALED_HIDDEN_FILE}); give the witness key: --witness-key-file FILE, or the action input witness-key from a secret`
    );
  }
  if (entries.some((entry) => under(entry.path, hiddenPath) || under(entry.path, SEALED_FOLDER))) {
    throw unsafe(`the pack has ${SEALED_HIDDEN_FILE} and also plain files in ${hiddenPath}/ or ${SEALED_FOLDER}/; a sealed pack keeps them only inside ${SEALED_HIDDEN_FILE}`);
  }
  const plaintext = await decryptWith(identity, file.data, `the witness pack's ${SEALED_HIDDEN_FILE}`);
  const bounds = packLimits(limits);
  const inner = await readWitnessArchive(plaintext, bounds);
  const stray = inner.find((entry) => !under(entry.path, hiddenPath) && !under(entry.path, SEALED_FOLDER));
  if (stray !== undefined) throw unsafe(`${SEALED_HIDDEN_FILE} holds ${quoteForMessage(stray.path)}, outside ${hiddenPath}/ and ${SEALED_FOLDER}/`);
  const all = [...entries.filter((entry) => entry !== file), ...inner.filter((entry) => under(entry.path, hiddenPath))];
  if (all.length > bounds.maxFiles) throw unsafe(`the opened pack holds ${all.length} files, more than the limit of ${bounds.maxFiles}`);
  return { entries: all, sealed: inner.filter((entry) => under(entry.path, SEALED_FOLDER)) };
}
