import { ConfigurationError } from '../errors.js';

/**
 * The inputs of one candidate's suite run in shards by the action: `mode: validate` with `shard: K/N`
 * (this job validates the pull request with the K-th of N shares of the regression suite and uploads
 * its shard receipt, tagged with the run's shard key, which the job derives from the GitHub App's
 * private key: src/core/shard-tag.ts) and `mode: validate-merge` with `shards: N` (the gate's last job
 * verifies and merges them). Every error names the input and the accepted form.
 */

/** The shard this validate job runs, or the shards a validate-merge job merges. */
export interface ValidateShardInputs {
  /** mode validate: `shard: K/N`, 1 <= K <= N, 2 <= N <= 256 (the merged receipt's bound). */
  shard?: { index: number; count: number };
  /** mode validate-merge: `shards: N`, 2 <= N <= 256. */
  shards?: number;
  /** validate-merge: `witness-digest`, the pack every shard must have been graded by. */
  witnessDigest?: string;
}

type InputReader = (name: string) => string;

const optional = (read: InputReader, name: string): string | undefined => {
  const value = read(name).trim();
  return value === '' ? undefined : value;
};

/** Inputs a shard cannot take: each judges or reuses the whole suite, or posts the check. */
const NOT_WITH_SHARD = ['claimed', 'claimed-artifact', 'claimed-run-id', 'baseline-cache', 'head-checks'] as const;
/** Inputs validate-merge does not take: it runs nothing; it verifies and merges the shards. */
const NOT_IN_MERGE = ['shard', 'claimed', 'claimed-artifact', 'claimed-run-id', 'head-checks', 'screen-label', 'screen-refs', 'screen-comment-issue'] as const;

const isTrue = (read: InputReader, name: string): boolean => (optional(read, name) ?? 'false').toLowerCase() === 'true';

/**
 * The shard inputs of mode validate (undefined without `shard`) and validate-merge. Other modes do
 * not come here (screen-settings.ts refuses these inputs there).
 */
export function readValidateShardInputs(read: InputReader, mode: string): ValidateShardInputs | undefined {
  if (mode !== 'validate' && mode !== 'validate-merge') return undefined;
  if (mode === 'validate') {
    if (optional(read, 'shards') !== undefined) throw new ConfigurationError('shards is for mode validate-merge (or screen-merge); a validate shard job takes shard: K/N');
    const shardText = optional(read, 'shard');
    if (shardText === undefined) return undefined;
    const match = /^([1-9][0-9]{0,2})\/([1-9][0-9]{0,2})$/.exec(shardText);
    if (match === null || Number(match[1]) > Number(match[2]) || Number(match[2]) > 256) {
      throw new ConfigurationError(`shard '${shardText}' is not K/N with 1 <= K <= N <= 256; e.g. 1/2`);
    }
    if (Number(match[2]) === 1) throw new ConfigurationError('shard 1/1 is the whole suite: remove shard to validate in one job');
    const clash = NOT_WITH_SHARD.filter((name) => (name === 'baseline-cache' || name === 'head-checks' ? isTrue(read, name) : optional(read, name) !== undefined));
    if (clash.length > 0) {
      throw new ConfigurationError(
        `shard cannot go with ${clash.join(' or ')}: a shard runs a share of the suite, while those judge or reuse the whole of it; remove them from the shard jobs`
      );
    }
    return { shard: { index: Number(match[1]), count: Number(match[2]) } };
  }
  const set = NOT_IN_MERGE.find((name) => optional(read, name) !== undefined);
  if (set !== undefined) throw new ConfigurationError(`${set} is not an input of mode validate-merge; it verifies and merges the shard jobs' receipts: remove it`);
  if (isTrue(read, 'baseline-cache')) throw new ConfigurationError('baseline-cache is not an input of mode validate-merge; remove it');
  const shardsText = optional(read, 'shards');
  if (shardsText === undefined) throw new ConfigurationError('shards is required with mode validate-merge: give N, the number of validate shard jobs');
  if (!/^[1-9][0-9]{0,2}$/.test(shardsText) || Number(shardsText) < 2 || Number(shardsText) > 256) {
    throw new ConfigurationError(`shards '${shardsText}' is not a number of shards from 2 to 256`);
  }
  const witnessDigest = optional(read, 'witness-digest');
  if (witnessDigest === undefined) throw new ConfigurationError('witness-digest is required with mode validate-merge: every shard must have been graded by that pack');
  return { shards: Number(shardsText), witnessDigest };
}
