import { join } from 'node:path';
import { createProposal, type Proposal } from '../core/proposal.js';
import { InfrastructureError } from '../errors.js';
import type { GitSource } from '../fetch/git.js';
import { takeSnapshot } from '../inventory/snapshot.js';
import type { Snapshot } from '../core/snapshot-record.js';

/**
 * A pull request's proposal computed from git objects alone: the base tree written from the object
 * store into `work/base` (nothing of the candidate is checked out), snapshotted, and the change as
 * `git diff base...head`. The action's validate mode and its validate-merge job both compute the
 * proposal this way, so the merge job's hash is the one the shard jobs validated, or it differs.
 */

export interface GitProposal {
  proposal: Proposal;
  /** The base tree, written from git's objects. */
  baseDir: string;
  snapshot: Snapshot;
}

/** Write `commit`'s tree into `dir` and snapshot it; refused when the snapshot does not count exactly the files written. */
export async function writeBaseTree(git: GitSource, commit: string, dir: string): Promise<Snapshot> {
  const written = await git.writeTree(commit, dir);
  const snapshot = await takeSnapshot(dir);
  if (snapshot.source !== 'walk' || snapshot.entries.length !== written.length) {
    throw new InfrastructureError(
      `the base tree written to ${dir} snapshots as ${snapshot.entries.length} files, not ${written.length}; RUNNER_TEMP must not be inside a git work tree`
    );
  }
  return snapshot;
}

/** The proposal of `diff` (already read and policy-checked by the caller) on `base`'s tree, written under `work`. */
export async function proposeOnBase(git: GitSource, base: string, diff: string, work: string, toolVersion: string): Promise<GitProposal> {
  const baseDir = join(work, 'base');
  const snapshot = await writeBaseTree(git, base, baseDir);
  return { proposal: createProposal(diff, snapshot.digest, toolVersion), baseDir, snapshot };
}
