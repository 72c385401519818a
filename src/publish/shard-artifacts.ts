import { createHash } from 'node:crypto';
import { lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { DefaultArtifactClient, type ArtifactClient } from '@actions/artifact';
import { SHARD_TAG_FILE, shardTagError, tagShard, type TaggedFile } from '../core/shard-tag.js';
import { InfrastructureError, VerificationError } from '../errors.js';
import { writeFileAtomic } from '../io/files.js';

/**
 * The screen mode's artifacts of this workflow run: a shard folder goes up tagged with the run key
 * (src/core/shard-tag.ts); the merge job lists this run's shard artifacts (never another run's:
 * the runtime token's own run, no `findBy`), downloads each with the digest the service recorded,
 * and refuses one whose download or tag does not verify.
 */

/** Every shard artifact's name: `patchproof-screen-shard-K-of-N`. */
export function shardArtifactName(index: number, count: number): string {
  return `patchproof-screen-shard-${index}-of-${count}`;
}

/** A validate shard job's artifact (one candidate's share of the suite): `patchproof-validate-shard-K-of-N`. */
export function validateShardArtifactName(index: number, count: number): string {
  return `patchproof-validate-shard-${index}-of-${count}`;
}

export interface ShardArtifacts {
  /** Tag `dir` with `key` and upload it under `name`. Returns the artifact id. */
  upload(name: string, dir: string, key: string): Promise<number>;
  /**
   * Download the artifact `name` of this run into a fresh folder and check its tag; undefined when
   * the run has no such artifact. Throws VerificationError for a digest mismatch or a bad tag.
   */
  download(name: string, key: string): Promise<string | undefined>;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) out.push(full);
      else throw new VerificationError('bad_input', `${full} is neither a file nor a folder; a shard folder holds files only`);
    }
  };
  await walk(dir);
  return out.sort();
}

async function digests(dir: string, files: readonly string[]): Promise<TaggedFile[]> {
  return Promise.all(
    files.map(async (file) => ({
      path: relative(dir, file).split(sep).join('/'),
      sha256: createHash('sha256')
        .update(await readFile(file))
        .digest('hex')
    }))
  );
}

class ToolkitShardArtifacts implements ShardArtifacts {
  constructor(
    private readonly client: ArtifactClient,
    private readonly tempRoot: string
  ) {}

  async upload(name: string, dir: string, key: string): Promise<number> {
    const files = (await filesUnder(dir)).filter((f) => relative(dir, f) !== SHARD_TAG_FILE);
    const tag = tagShard(key, name, await digests(dir, files));
    await writeFileAtomic(join(dir, SHARD_TAG_FILE), `${JSON.stringify(tag, null, 2)}\n`);
    try {
      const result = await this.client.uploadArtifact(name, [...files, join(dir, SHARD_TAG_FILE)], dir);
      if (result.id === undefined) throw new InfrastructureError(`uploading artifact ${name} returned no artifact id`);
      return result.id;
    } catch (error) {
      if (error instanceof InfrastructureError) throw error;
      throw new InfrastructureError(`could not upload the shard artifact ${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  async download(name: string, key: string): Promise<string | undefined> {
    let listed;
    try {
      listed = (await this.client.listArtifacts()).artifacts.filter((a) => a.name === name);
    } catch (error) {
      throw new InfrastructureError(`could not list this run's artifacts: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (listed.length === 0) return undefined;
    if (listed.length > 1) throw new VerificationError('bad_input', `this run has ${listed.length} artifacts named ${name}; a shard is uploaded once`);
    const artifact = listed[0]!;
    if (artifact.digest === undefined) throw new VerificationError('bad_input', `artifact ${name} is listed without a digest, so its download cannot be verified`);
    const folder = await mkdtemp(join(this.tempRoot, 'patchproof-shard-'));
    try {
      let mismatch: boolean | undefined;
      try {
        mismatch = (await this.client.downloadArtifact(artifact.id, { path: folder, expectedHash: artifact.digest })).digestMismatch;
      } catch (error) {
        throw new InfrastructureError(`could not download artifact ${name} (id ${artifact.id}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      if (mismatch !== false)
        throw new VerificationError('artifact_digest_mismatch', `artifact ${name} does not match the digest recorded at upload: it changed after upload; refusing it`);
      const tagPath = join(folder, SHARD_TAG_FILE);
      const info = await lstat(tagPath).catch(() => undefined);
      let record: unknown;
      if (info?.isFile() === true) {
        try {
          record = JSON.parse(await readFile(tagPath, 'utf8'));
        } catch {
          record = undefined;
        }
      }
      const files = (await filesUnder(folder)).filter((f) => relative(folder, f) !== SHARD_TAG_FILE);
      const why = shardTagError(key, name, record, await digests(folder, files));
      if (why !== undefined) throw new VerificationError('bad_input', `shard artifact ${name} is refused: ${why}`);
      return folder;
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  }
}

/** Shard artifacts through the real @actions/artifact client (ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL); downloads go under RUNNER_TEMP. */
export function createShardArtifacts(tempRoot: string): ShardArtifacts {
  return new ToolkitShardArtifacts(new DefaultArtifactClient(), tempRoot);
}
