import { ConfigurationError } from '../errors.js';
import type { MergeMethod } from '../action/pulls-client.js';

/**
 * The inputs only promote mode reads, validated here so settings.ts stays one call: which pull
 * request, which receipt, and how to merge. Every error names the input and the accepted form.
 */

/** What promote mode merges, and on which evidence. */
export interface PromoteInputs {
  /** `pull-number`: the pull request (workflow_dispatch); on pull_request_target the event's. */
  pullNumber?: number;
  /**
   * `receipt-path`: the receipt a validate step of this same job wrote (its `receipt-path` output).
   * Exclusive with `run-id`, which takes an attested receipt artifact of another run instead.
   */
  receiptPath?: string;
  /** `merge-method`: GitHub's merge_method, default `merge`. */
  mergeMethod: MergeMethod;
  /** `witness-digest`: the receipt must have been graded by this pack (required with `run-id`). */
  witnessDigest?: string;
}

export type InputReader = (name: string) => string;

const optional = (read: InputReader, name: string): string | undefined => {
  const value = read(name).trim();
  return value === '' ? undefined : value;
};

/** Read promote mode's own inputs; `hasRunId` says whether `run-id` was given. */
export function readPromoteInputs(read: InputReader, hasRunId: boolean): PromoteInputs {
  const number = optional(read, 'pull-number');
  if (number !== undefined && !/^[1-9][0-9]{0,9}$/.test(number)) throw new ConfigurationError(`pull-number '${number}' is not a pull request number`);
  const receiptPath = optional(read, 'receipt-path');
  if (receiptPath !== undefined && hasRunId) {
    throw new ConfigurationError('receipt-path and run-id are both set; give receipt-path (a validate step of this job) or run-id (an attested receipt artifact), not both');
  }
  if (receiptPath === undefined && !hasRunId) {
    throw new ConfigurationError(
      "mode promote needs the receipt: receipt-path: ${{ steps.<validate step>.outputs.receipt-path }} from this job, or run-id of the gate's run with trusted-root"
    );
  }
  const method = optional(read, 'merge-method') ?? 'merge';
  if (method !== 'merge' && method !== 'squash' && method !== 'rebase') throw new ConfigurationError(`merge-method '${method}' is unknown; use merge, squash or rebase`);
  // witness-digest's form is checked by readActionSettings.
  const witnessDigest = optional(read, 'witness-digest');
  // An attested receipt proves the gate workflow graded it, not with which pack: any caller of the
  // signer workflow on the default branch (another workflow file, an older pin, a trivial pack) makes
  // attested receipts too. The pack is what the pull request must have been graded by, so it is named.
  if (hasRunId && witnessDigest === undefined) {
    throw new ConfigurationError(
      "witness-digest is required with run-id: an attested receipt may have been graded by any pack the signer workflow was ever called with; give the gate's pack digest, sha256:<64 hex>"
    );
  }
  return {
    ...(number !== undefined ? { pullNumber: Number(number) } : {}),
    ...(receiptPath !== undefined ? { receiptPath } : {}),
    mergeMethod: method,
    ...(witnessDigest !== undefined ? { witnessDigest } : {})
  };
}
