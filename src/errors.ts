/**
 * Typed errors. Everything below `run()` throws one of these; only the entry point turns them into
 * an exit code or a step outcome.
 */

/** Reason codes for a refusal: nothing ran, no receipt was written. */
export type RefusalCode =
  | 'bad_input'
  | 'patch_invalid'
  | 'policy_violation'
  | 'approval_mismatch'
  | 'snapshot_mismatch'
  | 'witness_digest_mismatch'
  | 'witness_unsafe'
  | 'artifact_digest_mismatch'
  | 'attestation_invalid'
  | 'promote_refused';

/** The user gave something malformed or missing: a flag, a file, a path. */
export class ConfigurationError extends Error {
  readonly code: RefusalCode = 'bad_input';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/** A refusal before anything ran: the diff breaks policy, or does not apply. */
export class PolicyError extends Error {
  constructor(
    readonly code: 'patch_invalid' | 'policy_violation',
    message: string
  ) {
    super(message);
    this.name = 'PolicyError';
  }
}

/** A digest or binding did not match: the proposal, approval, snapshot or witness was not the one bound. */
export class VerificationError extends Error {
  constructor(
    readonly code: 'approval_mismatch' | 'snapshot_mismatch' | 'witness_digest_mismatch' | 'witness_unsafe' | 'artifact_digest_mismatch' | 'attestation_invalid' | 'bad_input',
    message: string
  ) {
    super(message);
    this.name = 'VerificationError';
  }
}

/**
 * `patchproof promote` will not write: the receipt is not one this installation produced, did not pass
 * with proof grade, or a file it touches is no longer as the receipt's base snapshot had it.
 */
export class PromoteError extends Error {
  readonly code = 'promote_refused' as const;
  constructor(message: string) {
    super(message);
    this.name = 'PromoteError';
  }
}

/** Docker, git, the file system or the network failed: never the candidate's fault, never a pass. */
export class InfrastructureError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InfrastructureError';
  }
}

/** Refusals (exit 2) are the errors a user can fix by changing the input. */
export function isRefusal(error: unknown): error is ConfigurationError | PolicyError | VerificationError | PromoteError {
  return error instanceof ConfigurationError || error instanceof PolicyError || error instanceof VerificationError || error instanceof PromoteError;
}
