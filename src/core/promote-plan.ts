import { PromoteError } from '../errors.js';
import { diffDigest, type Proposal } from './proposal.js';
import type { Receipt } from './receipt-schema.js';
import type { EntryMode } from './snapshot-record.js';
import type { FileChange } from './diff-policy.js';
import { quoteForMessage } from './diff-policy.js';

/**
 * Promotion's pure rules: whether a receipt may be promoted at all, and which file writes bring its
 * exact diff into a working tree whose touched files are still as the receipt's base snapshot had
 * them. No file system here: `src/io/promote.ts` observes the tree and writes.
 */

/** What the base snapshot held at a path the diff touches (kept in the receipt store by `validate`). */
export type BaseEntry = { path: string; state: 'absent' } | { path: string; state: 'file'; sha256: string; mode: EntryMode };

/** What the working tree holds at a path right now, as `src/io/promote.ts` saw it without following links. */
export interface ObservedPath {
  path: string;
  /** `absent`: nothing there; `other`: a folder, device, FIFO or socket. */
  kind: 'absent' | 'file' | 'symlink' | 'other';
  /** For a regular file: its git-style mode, content hash and hard-link count. */
  mode?: EntryMode;
  sha256?: string;
  links?: number;
  /** The first parent folder that is not a plain folder, when there is one. */
  parent?: { path: string; kind: 'symlink' | 'not_a_folder' };
}

/** One write of a promotion, in diff order. */
export interface PromoteStep {
  path: string;
  op: FileChange['op'];
  /** What the file must still be right before the write (a race check). */
  expect: BaseEntry;
  /** The mode the written file gets (a modified file keeps its own; an added one is 100644). */
  mode: EntryMode;
}

/**
 * Refuse a receipt that does not allow promotion: it must have passed with proof grade in an isolated
 * runner, and the proposal must be exactly the one it binds (diff bytes, base snapshot, proposal hash).
 * Whether the receipt is intact, and who produced it, is checked before (verify + the receipt store).
 */
export function checkPromotable(receipt: Receipt, proposal: Proposal, options: { shareOfMerged?: boolean } = {}): void {
  if (receipt.shard !== undefined && options.shareOfMerged !== true) {
    // A shard judged only its share of the suite: its pass says nothing about the other files.
    throw new PromoteError(
      `the receipt is shard ${receipt.shard.index}/${receipt.shard.count} of the regression suite, and a share is never a pass on its own; merge every shard (patchproof merge) and promote merged.json`
    );
  }
  if (receipt.verdict !== 'passed') {
    throw new PromoteError(`the receipt's verdict is ${receipt.verdict}; only a passed validation can be promoted`);
  }
  if (!receipt.proof_grade || !receipt.runner.isolated) {
    throw new PromoteError('the receipt is not proof grade (it did not pass in the hardened runner); validate with --runner docker and a sealed pack first');
  }
  if (diffDigest(proposal.diff) !== receipt.bindings.diff_digest || proposal.diff_digest !== receipt.bindings.diff_digest) {
    throw new PromoteError('the stored diff is not the one the receipt binds (diff_digest differs); the receipt store entry is damaged: validate again');
  }
  if (proposal.base_snapshot !== receipt.bindings.base_snapshot || proposal.proposal_hash !== receipt.bindings.proposal_hash) {
    throw new PromoteError('the stored proposal is not the one the receipt binds (base snapshot or proposal hash differs); the receipt store entry is damaged: validate again');
  }
}

/** Keep only the changes `--path` names; a named path the diff does not touch is refused. */
export function selectChanges(changes: readonly FileChange[], paths: readonly string[]): FileChange[] {
  if (paths.length === 0) return [...changes];
  const touched = new Set(changes.map((change) => change.path));
  const unknown = paths.filter((path) => !touched.has(path));
  if (unknown.length > 0) {
    throw new PromoteError(
      `--path ${quoteForMessage(unknown[0] as string)} is not a file the receipt's diff changes; name files from the diff (${[...touched].slice(0, 5).join(', ')})`
    );
  }
  const wanted = new Set(paths);
  return changes.filter((change) => wanted.has(change.path));
}

/** Why one touched path cannot be written safely, or undefined when it still is as the base had it. */
export function pathProblem(base: BaseEntry, seen: ObservedPath): string | undefined {
  const name = quoteForMessage(seen.path);
  if (seen.parent !== undefined) {
    return seen.parent.kind === 'symlink'
      ? `${name} lies beneath the symbolic link ${quoteForMessage(seen.parent.path)}; promote refuses symlinked parents`
      : `${name} lies beneath ${quoteForMessage(seen.parent.path)}, which is not a folder`;
  }
  if (seen.kind === 'symlink') return `${name} is a symbolic link; promote writes regular files only`;
  if (seen.kind === 'other') return `${name} is not a regular file (a folder, device, FIFO or socket)`;
  if (base.state === 'absent') {
    return seen.kind === 'absent' ? undefined : `${name} did not exist in the receipt's base snapshot but exists now (created since); nothing is overwritten`;
  }
  if (seen.kind === 'absent') return `${name} was deleted since the receipt's base snapshot`;
  if ((seen.links ?? 1) > 1) return `${name} has ${seen.links ?? 0} hard links; writing it would change the other names too`;
  if (seen.sha256 !== base.sha256) return `${name} changed since the receipt's base snapshot (sha256 ${seen.sha256 ?? '?'} is not ${base.sha256}); newer work is never overwritten`;
  if (seen.mode !== base.mode) return `${name} changed mode since the receipt's base snapshot (${seen.mode ?? '?'} is not ${base.mode})`;
  return undefined;
}

/**
 * Plan the writes: every touched path must still be as the base snapshot had it (a file's hash and
 * mode, or absent for an added file), in a plain folder. Any problem refuses the whole promotion,
 * before anything is written, with every problem listed.
 */
export function planPromotion(changes: readonly FileChange[], base: ReadonlyMap<string, BaseEntry>, observed: ReadonlyMap<string, ObservedPath>): PromoteStep[] {
  const problems: string[] = [];
  const steps: PromoteStep[] = [];
  for (const change of changes) {
    const entry = base.get(change.path);
    const seen = observed.get(change.path);
    if (entry === undefined || seen === undefined) {
      problems.push(`${quoteForMessage(change.path)} has no base record in the receipt store; validate again`);
      continue;
    }
    if ((change.op === 'add') !== (entry.state === 'absent')) {
      problems.push(
        `${quoteForMessage(change.path)}: the diff ${change.op === 'add' ? 'adds' : 'changes'} it, but the base snapshot ${entry.state === 'absent' ? 'had no such file' : 'had it'}; the store entry is damaged: validate again`
      );
      continue;
    }
    const problem = pathProblem(entry, seen);
    if (problem !== undefined) {
      problems.push(problem);
      continue;
    }
    steps.push({ path: change.path, op: change.op, expect: entry, mode: entry.state === 'file' ? entry.mode : '100644' });
  }
  if (problems.length > 0) {
    throw new PromoteError(`nothing was written: ${problems.join('; ')}`);
  }
  return steps;
}

/** The action log of one promotion: what was applied, skipped (not selected) and in conflict. */
export interface PromoteLog {
  schema: 'patchproof.promote-log/v1';
  receipt_digest: string;
  repo: string;
  dry_run: boolean;
  /** `applied`: every selected file written; `planned`: a dry run; `partial_conflict`: a race was detected half-way. */
  outcome: 'applied' | 'planned' | 'partial_conflict';
  applied: { path: string; op: FileChange['op'] }[];
  planned: { path: string; op: FileChange['op'] }[];
  skipped: { path: string; why: string }[];
  conflict?: { path: string; why: string };
  /** Promoted from a screening receipt (its digest and the candidate taken) or a merged receipt of suite shards (its digest). */
  source?: { kind: 'screening'; digest: string; candidate: string } | { kind: 'merged'; digest: string };
}
