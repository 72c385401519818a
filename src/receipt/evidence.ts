import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { diffDigest } from '../core/proposal.js';
import type { Receipt } from '../core/receipt-schema.js';
import type { Snapshot } from '../core/snapshot-record.js';
import { InfrastructureError, PolicyError, VerificationError } from '../errors.js';
import type { GitSource } from '../fetch/git.js';
import { RECEIPT_BUNDLE_FILE, type SignerPolicy, type VerifiedAttestation } from './attestation.js';
import { gateSignerPolicy, readTrustedRoots, verifyUnderAnyRoot } from './trusted-roots.js';
import type { Candidate } from '../inputs/event.js';
import type { ActionSettings } from '../inputs/action-settings.js';

/**
 * The evidence a receipt needs beyond verifying: its bindings to the pull request as it is now, and
 * its attestation by the trusted workflow. Shared by reverify and promote (modes never import each
 * other).
 */

/** One binding of the receipt, as recorded and as found now. */
export interface BindingCheck {
  name: 'diff_digest' | 'base_snapshot';
  recorded: string;
  current: string;
}

/**
 * The receipt's bindings against the pull request as it is now. The diff is read with the receipt's
 * own size limit: a diff over it, or not text, cannot be the one the receipt was made for.
 */
export async function currentBindings(
  receipt: Receipt,
  candidate: Candidate,
  git: GitSource,
  deps: { snapshot(dir: string): Promise<Snapshot> },
  runnerTemp: string
): Promise<BindingCheck[]> {
  await git.fetchCommits(candidate.base, candidate.head, candidate.pullNumber);
  let currentDiff: string;
  try {
    currentDiff = diffDigest(await git.diff(candidate.base, candidate.head, receipt.limits.diff_max_bytes));
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    currentDiff = `(no digest: ${error.message})`;
  }
  const work = await mkdtemp(join(runnerTemp, 'patchproof-reverify-'));
  try {
    const baseDir = join(work, 'base');
    const written = await git.writeTree(candidate.base, baseDir);
    const snapshot = await deps.snapshot(baseDir);
    if (snapshot.entries.length !== written.length) {
      throw new InfrastructureError(
        `the base tree written to ${baseDir} snapshots as ${snapshot.entries.length} files, not ${written.length}; RUNNER_TEMP must not be inside a git work tree`
      );
    }
    return [
      { name: 'diff_digest', recorded: receipt.bindings.diff_digest, current: currentDiff },
      { name: 'base_snapshot', recorded: receipt.bindings.base_snapshot, current: snapshot.digest }
    ];
  } finally {
    await rm(work, { recursive: true, force: true, maxRetries: 3 });
  }
}

const isMapping = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The receipt's attestation (receipt.sigstore.json next to receipt.json), checked against the
 * pinned signer workflow and the trusted root. Never throws for a bad bundle: a refused or missing
 * attestation is a finding, and the receipt then needs a proof-grade replay.
 */
export async function checkAttestation(
  receiptPath: string | undefined,
  settings: Pick<ActionSettings, 'trustedRoot' | 'signerWorkflow'>,
  candidate: Pick<Candidate, 'owner' | 'repo'>,
  payload: unknown
): Promise<AttestationFinding> {
  if (receiptPath === undefined) return { status: 'absent', message: 'no receipt file' };
  const bundleText = await readFile(join(dirname(receiptPath), RECEIPT_BUNDLE_FILE), 'utf8').catch(() => undefined);
  if (bundleText === undefined) return { status: 'absent', message: `the artifact carries no ${RECEIPT_BUNDLE_FILE}` };
  if (settings.trustedRoot === undefined) return { status: 'unchecked', message: 'no trusted-root input: attestations cannot be checked' };
  const repository = isMapping(payload) && isMapping(payload['repository']) ? payload['repository'] : {};
  const defaultBranch = repository['default_branch'];
  if (typeof defaultBranch !== 'string' || defaultBranch === '') return { status: 'unchecked', message: 'the event payload names no repository.default_branch' };
  const defaultRef = `refs/heads/${defaultBranch}`;
  const signerWorkflow = settings.signerWorkflow ?? `${candidate.owner}/${candidate.repo}/.github/workflows/patchproof.yml`;
  const policy: SignerPolicy = gateSignerPolicy(signerWorkflow, `${candidate.owner}/${candidate.repo}`, defaultRef);
  const roots = await readTrustedRoots(settings.trustedRoot);
  let bundle: unknown;
  try {
    bundle = JSON.parse(bundleText);
  } catch {
    return { status: 'refused', message: `${RECEIPT_BUNDLE_FILE} is not JSON` };
  }
  const bytes = await readFile(receiptPath);
  try {
    return { status: 'verified', signer: verifyUnderAnyRoot(bytes, bundle, policy, roots) };
  } catch (error) {
    if (!(error instanceof VerificationError)) throw error;
    return { status: 'refused', message: error.message };
  }
}

/** What was found about the receipt's signature. */
export type AttestationFinding = { status: 'verified'; signer: VerifiedAttestation } | { status: 'absent' | 'unchecked' | 'refused'; message: string };
