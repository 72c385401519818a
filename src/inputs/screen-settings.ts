import { HEX64_PATTERN } from '../core/hashing.js';
import { ConfigurationError } from '../errors.js';

/**
 * The inputs only the screen modes read (`mode: screen` and `mode: screen-merge`), validated here so
 * action-settings.ts stays one call. Every error names the input and the accepted form.
 */

/** Which candidates a screening takes, which share this job validates, and where its table goes. */
export interface ScreenInputs {
  /** `screen-label`: the open pull requests carrying this label (base: the default branch). */
  label?: string;
  /** `screen-refs`: branches, tags or commit SHAs, one per line or comma-separated. Exclusive with label. */
  refs?: string[];
  /** `approved-proposal-hashes`: when given, a candidate whose proposal hash is not listed is refused. */
  approvedHashes?: string[];
  /** `shard: K/N`: this job validates its stable share and uploads its shard folder (mode screen only). */
  shard?: { index: number; count: number };
  /** `shards: N`: how many shard artifacts screen-merge expects (mode screen-merge only). */
  shards?: number;
  /** `screen-comment-issue`: the issue or pull request whose one marked comment holds the table. */
  commentIssue?: number;
  /** screen-merge: `witness-digest`, the pack every shard must have been graded by. */
  witnessDigest?: string;
}

export type InputReader = (name: string) => string;

const optional = (read: InputReader, name: string): string | undefined => {
  const value = read(name).trim();
  return value === '' ? undefined : value;
};

/** A list input: one per line or comma-separated, blanks dropped. */
function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return items.length > 0 ? items : undefined;
}

const SCREEN_ONLY = ['screen-label', 'screen-refs', 'approved-proposal-hashes', 'shard', 'shards', 'screen-comment-issue'] as const;
/** A git ref name or commit SHA as `git check-ref-format` allows it, conservatively. */
const REF = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]{1,200}$/;
/** A label as GitHub allows it (at most 50 characters), without control characters. */
// eslint-disable-next-line no-control-regex -- deliberate: a label may hold no C0 control character or DEL
const LABEL = /^[^\u0000-\u001f\u007f,]{1,50}$/;

/** The screen inputs of `mode`; undefined for the other modes, which must not set any of them. */
export function readScreenInputs(read: InputReader, mode: string): ScreenInputs | undefined {
  if (mode !== 'screen' && mode !== 'screen-merge') {
    // validate takes shard, validate-merge shards (validate-shard-settings.ts).
    const theirs: readonly string[] = mode === 'validate' || mode === 'validate-merge' ? ['shard', 'shards'] : [];
    const set = SCREEN_ONLY.filter((name) => !theirs.includes(name)).find((name) => optional(read, name) !== undefined);
    if (set !== undefined) throw new ConfigurationError(`${set} is for mode screen or screen-merge only; remove it from mode ${mode}`);
    return undefined;
  }
  const label = optional(read, 'screen-label');
  const refs = list(optional(read, 'screen-refs'));
  if (mode === 'screen-merge' && (label !== undefined || refs !== undefined)) {
    throw new ConfigurationError('screen-label and screen-refs are for mode screen; screen-merge takes its candidates from the authenticated shard folders');
  }
  if (mode === 'screen' && (label === undefined) === (refs === undefined)) {
    throw new ConfigurationError('give exactly one of screen-label (the open pull requests carrying it) and screen-refs (branches or commit SHAs, one per line)');
  }
  if (label !== undefined && !LABEL.test(label)) throw new ConfigurationError(`screen-label '${label.slice(0, 60)}' is not a GitHub label name (1 to 50 characters, no comma)`);
  const badRef = refs?.find((r) => !REF.test(r) || r.startsWith('refs/pull/'));
  if (badRef !== undefined) {
    throw new ConfigurationError(
      `screen-refs entry '${badRef.slice(0, 100)}' is not a branch, tag or commit SHA; give e.g. refs/heads/agent-1 or a 40-hex commit (not refs/pull/: use screen-label)`
    );
  }
  const approvedHashes = list(optional(read, 'approved-proposal-hashes'));
  const badHash = approvedHashes?.find((h) => !HEX64_PATTERN.test(h));
  if (badHash !== undefined) throw new ConfigurationError(`approved-proposal-hashes entry '${badHash.slice(0, 80)}' is not a proposal hash; give 64 lowercase hex characters each`);
  const shardText = optional(read, 'shard');
  let shard: ScreenInputs['shard'];
  if (shardText !== undefined) {
    const match = /^([1-9][0-9]{0,2})\/([1-9][0-9]{0,2})$/.exec(shardText);
    if (match === null || Number(match[1]) > Number(match[2])) throw new ConfigurationError(`shard '${shardText}' is not K/N with 1 <= K <= N <= 999; e.g. 1/2`);
    if (mode !== 'screen') throw new ConfigurationError('shard is for mode screen only; screen-merge takes shards: N');
    shard = { index: Number(match[1]), count: Number(match[2]) };
  }
  const shardsText = optional(read, 'shards');
  if (shardsText !== undefined && !/^[1-9][0-9]{0,2}$/.test(shardsText)) throw new ConfigurationError(`shards '${shardsText}' is not a number of shards from 1 to 999`);
  if (mode === 'screen-merge' && shardsText === undefined) throw new ConfigurationError('shards is required with mode screen-merge: give N, the number of screen jobs');
  if (mode === 'screen' && shardsText !== undefined) throw new ConfigurationError('shards is for mode screen-merge only; a screen job takes shard: K/N');
  const issueText = optional(read, 'screen-comment-issue');
  if (issueText !== undefined && !/^[1-9][0-9]{0,9}$/.test(issueText)) throw new ConfigurationError(`screen-comment-issue '${issueText}' is not an issue or pull request number`);
  if (issueText !== undefined && shard !== undefined)
    throw new ConfigurationError('screen-comment-issue is for the job that merges (screen-merge, or screen without shard); remove it from the shard jobs');
  if (mode === 'screen-merge' && optional(read, 'witness-digest') === undefined) {
    throw new ConfigurationError('witness-digest is required with mode screen-merge: every shard must have been graded by that pack');
  }
  return {
    ...(label !== undefined ? { label } : {}),
    ...(refs !== undefined ? { refs } : {}),
    ...(approvedHashes !== undefined ? { approvedHashes } : {}),
    ...(shard !== undefined ? { shard } : {}),
    ...(shardsText !== undefined ? { shards: Number(shardsText) } : {}),
    ...(issueText !== undefined ? { commentIssue: Number(issueText) } : {}),
    ...(mode === 'screen-merge' ? { witnessDigest: optional(read, 'witness-digest') as string } : {})
  };
}
