import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * The tag that authenticates one screen shard folder between the jobs of one workflow run. A shard
 * receipt is sealed, but anyone can seal a self-consistent receipt (the code is open), so a sealed
 * receipt says nothing about who made it. The reusable workflow's first job draws a random key for
 * the run and hands it to its own screen and merge jobs through job outputs (which no other job of
 * the caller's workflow can read); each screen job tags its folder with it (HMAC-SHA256 over the
 * artifact name and every file's path and SHA-256), and the merge job refuses a folder whose tag,
 * or whose file list, does not match. Pure: the key, the name and the file digests in, the tag out.
 */

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
