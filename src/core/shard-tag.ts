import { createHmac, createPrivateKey, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ConfigurationError } from '../errors.js';

/**
 * The tag that authenticates one shard folder between the jobs of one workflow run attempt. A shard
 * receipt is sealed, but anyone can seal a self-consistent receipt (the code is open), so a sealed
 * receipt says nothing about who made it; and any job of the run can upload an artifact to it. Each
 * shard job tags its folder (HMAC-SHA256 over the artifact name and every file's path and SHA-256)
 * with the run's shard key, and the merge job refuses a folder whose tag, or whose file list, does
 * not match. Pure: the key, the name and the file digests in, the tag out.
 *
 * The key is derived, inside each job, from the GitHub App's private key and the run's identity
 * (`deriveShardKey`): it is never a `with:` input or a job output, which the runner prints or stores
 * with the run. (It used to be a random key drawn by a plan job and passed as `screen-run-key`: every
 * `with:` input is printed in the step's log, so the key was public.) Whoever can compute it holds the
 * app's private key, and could post the app's check run directly: the tag adds no new trust anchor.
 */

/** Label of the key derivation: a version bump makes every older tag refuse. */
const SHARD_KEY_LABEL = 'patchproof.shard-key/v1';

/** The run attempt a shard key is for: a tag of another run or attempt does not verify. */
export interface ShardRun {
  /** `owner/repo`, compared case-insensitively as GitHub does. */
  repository: string;
  runId: string;
  runAttempt: string;
}

/**
 * The shard key of one run attempt: HMAC-SHA256, keyed with the app's private key (its PKCS#8 DER,
 * so PEM line breaks and headers do not matter), over a fixed label and the run's identity. 64 hex.
 * HMAC is a PRF: the key, even if it leaked, tells nothing about the private key. Throws
 * ConfigurationError when the PEM is not a private key.
 */
export function deriveShardKey(privateKeyPem: string, run: ShardRun): string {
  let der: Buffer;
  try {
    der = createPrivateKey(privateKeyPem).export({ type: 'pkcs8', format: 'der' });
  } catch (error) {
    throw new ConfigurationError(`app-private-key cannot be read as a private key (${(error as Error).message}); pass the GitHub App's PEM key from its secret`);
  }
  return createHmac('sha256', der).update(`${SHARD_KEY_LABEL}\0${run.repository.toLowerCase()}\0${run.runId}\0${run.runAttempt}`).digest('hex');
}

export const SHARD_TAG_SCHEMA = 'patchproof.screen-shard-tag/v1';
/** The tag file at the root of a shard folder (not itself covered). */
export const SHARD_TAG_FILE = 'shard-tag.json';

export interface TaggedFile {
  /** `/`-separated, relative to the shard folder. */
  path: string;
  /** 64 lowercase hex. */
  sha256: string;
}

export const shardTagSchema = z.strictObject({
  schema: z.literal(SHARD_TAG_SCHEMA),
  artifact: z.string().min(1).max(200),
  files: z.array(z.strictObject({ path: z.string().min(1).max(500), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  tag: z.string().regex(/^[0-9a-f]{64}$/)
});
export type ShardTag = z.infer<typeof shardTagSchema>;

function mac(key: string, artifact: string, files: readonly TaggedFile[]): string {
  const hmac = createHmac('sha256', Buffer.from(key, 'hex'));
  hmac.update(`${SHARD_TAG_SCHEMA}\n${artifact}\n`);
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) hmac.update(`${f.path}\0${f.sha256}\n`);
  return hmac.digest('hex');
}

/** The tag record of a shard folder's files, under the name of the artifact it is uploaded as. */
export function tagShard(key: string, artifact: string, files: readonly TaggedFile[]): ShardTag {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { schema: SHARD_TAG_SCHEMA, artifact, files: sorted, tag: mac(key, artifact, sorted) };
}

/**
 * Why a downloaded shard folder is not what a screen job of this run tagged, or undefined when it
 * is: the tag record must parse, name this artifact, list exactly the files found, and its tag must
 * be this run key's.
 */
export function shardTagError(key: string, artifact: string, record: unknown, found: readonly TaggedFile[]): string | undefined {
  const parsed = shardTagSchema.safeParse(record);
  if (!parsed.success) return `${SHARD_TAG_FILE} is missing or malformed`;
  const tag = parsed.data;
  if (tag.artifact !== artifact) return `${SHARD_TAG_FILE} was made for artifact ${tag.artifact}, not ${artifact}`;
  const listed = new Map(tag.files.map((f) => [f.path, f.sha256]));
  const extra = found.find((f) => listed.get(f.path) !== f.sha256);
  if (extra !== undefined) return `${extra.path} is not the file the shard job tagged`;
  if (found.length !== tag.files.length) return `${tag.files.length - found.length} tagged file(s) are missing`;
  const want = Buffer.from(mac(key, artifact, tag.files), 'hex');
  if (!timingSafeEqual(want, Buffer.from(tag.tag, 'hex'))) return "its tag was not made with this run's key: it was not written by a shard job of this run";
  return undefined;
}
