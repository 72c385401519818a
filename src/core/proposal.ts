import { z } from 'zod';
import { ConfigurationError, VerificationError } from '../errors.js';
import { DIGEST_PATTERN, HEX64_PATTERN, domainDigest, digestHex, digestJson, type Digest } from './hashing.js';

/**
 * Proposal and approval: the two documents that bind a run to one exact diff on one exact
 * repository state, approved by its full hash.
 */

export const PROPOSAL_SCHEMA = 'patchproof.proposal/v1';
export const APPROVAL_SCHEMA = 'patchproof.approval/v1';

const digestString = z.string().regex(DIGEST_PATTERN, 'expected sha256:<64 lowercase hex>');
const hexString = z.string().regex(HEX64_PATTERN, 'expected 64 lowercase hex characters');

export const proposalSchema = z.strictObject({
  schema: z.literal(PROPOSAL_SCHEMA),
  tool_version: z.string().min(1),
  /** Snapshot digest of the repository the diff applies to. */
  base_snapshot: digestString,
  /** Digest of the exact diff bytes (UTF-8). */
  diff_digest: digestString,
  /** The unified diff itself. */
  diff: z.string(),
  /** Hex hash over {schema, base_snapshot, diff_digest}: what an approver approves. */
  proposal_hash: hexString
});
export type Proposal = z.infer<typeof proposalSchema>;

export const approvalSchema = z.strictObject({
  schema: z.literal(APPROVAL_SCHEMA),
  tool_version: z.string().min(1),
  proposal_hash: hexString,
  run_id: z.string().min(1).max(200),
  /** Declared audit metadata: who says they approved. Not an authenticated identity. */
  approved_by: z.string().min(1).max(200),
  approval_digest: digestString
});
export type Approval = z.infer<typeof approvalSchema>;

/** Digest of a diff's exact bytes. */
export function diffDigest(diff: string): Digest {
  return domainDigest('patchproof/diff/v1', Buffer.from(diff, 'utf8'));
}

function proposalHash(baseSnapshot: string, diffDigestValue: string): string {
  return digestHex(digestJson('patchproof/proposal/v1', { schema: PROPOSAL_SCHEMA, base_snapshot: baseSnapshot, diff_digest: diffDigestValue }));
}

function approvalDigest(fields: Omit<Approval, 'approval_digest'>): Digest {
  return digestJson('patchproof/approval/v1', fields);
}

/** Bind a diff to the snapshot of the repository it is meant for. */
export function createProposal(diff: string, baseSnapshot: Digest, toolVersion: string): Proposal {
  const diff_digest = diffDigest(diff);
  return {
    schema: PROPOSAL_SCHEMA,
    tool_version: toolVersion,
    base_snapshot: baseSnapshot,
    diff_digest,
    diff,
    proposal_hash: proposalHash(baseSnapshot, diff_digest)
  };
}

/**
 * Approve a proposal by its exact full hash. Abbreviations, case changes and whitespace are refused:
 * the approver must have seen the whole hash.
 */
export function approveProposal(proposal: Proposal, suppliedHash: string, runId: string, approvedBy: string, toolVersion: string): Approval {
  if (!HEX64_PATTERN.test(suppliedHash)) {
    throw new ConfigurationError(`--proposal-hash '${suppliedHash}' is not a full hash; give all 64 lowercase hex characters of proposal_hash`);
  }
  if (suppliedHash !== proposal.proposal_hash) {
    throw new VerificationError('approval_mismatch', `--proposal-hash does not match the proposal (${proposal.proposal_hash}); approve the hash of the proposal you reviewed`);
  }
  if (runId.trim() === '' || approvedBy.trim() === '') {
    throw new ConfigurationError('--run-id and --approved-by must not be empty');
  }
  const fields = {
    schema: APPROVAL_SCHEMA,
    tool_version: toolVersion,
    proposal_hash: suppliedHash,
    run_id: runId,
    approved_by: approvedBy
  } as const;
  return { ...fields, approval_digest: approvalDigest(fields) };
}

function describeIssues(error: z.ZodError): string {
  const first = error.issues[0];
  if (first === undefined) return 'invalid';
  const where = first.path.length > 0 ? first.path.join('.') : '(top level)';
  return `${where}: ${first.message}`;
}

/** Parse untrusted proposal JSON and re-derive every digest in it. */
export function parseProposal(value: unknown, source: string): Proposal {
  const parsed = proposalSchema.safeParse(value);
  if (!parsed.success) {
    throw new ConfigurationError(`${source} is not a PatchProof proposal (${describeIssues(parsed.error)}); create one with 'patchproof propose'`);
  }
  const proposal = parsed.data;
  if (diffDigest(proposal.diff) !== proposal.diff_digest) {
    throw new VerificationError('approval_mismatch', `${source}: diff_digest does not match the diff it carries; the proposal was edited — propose again`);
  }
  if (proposalHash(proposal.base_snapshot, proposal.diff_digest) !== proposal.proposal_hash) {
    throw new VerificationError('approval_mismatch', `${source}: proposal_hash does not match its contents; the proposal was edited — propose again`);
  }
  return proposal;
}

/** Parse untrusted approval JSON, re-derive its digest and check it approves exactly this proposal. */
export function parseApproval(value: unknown, source: string, proposal: Proposal): Approval {
  const parsed = approvalSchema.safeParse(value);
  if (!parsed.success) {
    throw new ConfigurationError(`${source} is not a PatchProof approval (${describeIssues(parsed.error)}); create one with 'patchproof approve'`);
  }
  const approval = parsed.data;
  const { approval_digest, ...fields } = approval;
  if (approvalDigest(fields) !== approval_digest) {
    throw new VerificationError('approval_mismatch', `${source}: approval_digest does not match its contents; the approval was edited — approve again`);
  }
  if (approval.proposal_hash !== proposal.proposal_hash) {
    throw new VerificationError('approval_mismatch', `${source} approves proposal ${approval.proposal_hash}, not ${proposal.proposal_hash}; approve this proposal's hash`);
  }
  return approval;
}

/**
 * The approval a gate job makes for the pull request's proposal: run `RUN_ID-RUN_ATTEMPT`, approved by
 * `github-actions:ACTOR`. Every job of one run attempt makes the same one, so the validate shard
 * jobs' receipts bind one approval and the validate-merge job can compute it itself. approved_by is
 * declared metadata (who started the run), not an authenticated identity.
 */
export function gateApproval(proposal: Proposal, runId: string, runAttempt: string, actor: string, toolVersion: string): Approval {
  return approveProposal(proposal, proposal.proposal_hash, `${runId}-${runAttempt}`, `github-actions:${actor}`, toolVersion);
}
