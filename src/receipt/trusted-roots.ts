import { readFile } from 'node:fs/promises';
import { ConfigurationError, VerificationError } from '../errors.js';
import { verifyReceiptAttestation, type SignerPolicy, type VerifiedAttestation } from './attestation.js';

/**
 * Reading the Sigstore trusted roots an attestation is checked against, and the gate's signer
 * policy, shared by the action (reverify, promote) and the CLI (promote of an attested receipt).
 */

/** Events whose runs of the signer workflow are trusted: the pull request controls neither the file nor its inputs. */
export const TRUSTED_SIGNING_TRIGGERS = ['pull_request_target', 'push', 'workflow_dispatch'] as const;

/**
 * The gate's policy: `signerWorkflow` run at `defaultRef` (when it is this repository's) or a pinned
 * SHA, for `repository`, from its `defaultRef`, by a trusted trigger.
 */
export function gateSignerPolicy(signerWorkflow: string, repository: string, defaultRef: string): SignerPolicy {
  return {
    signerWorkflow,
    // The default branch is a ref of this repository: a signer in another repository counts only pinned by SHA.
    signerRefs: signerWorkflow.startsWith(`${repository}/`) ? [defaultRef] : [],
    repository,
    sourceRefs: [defaultRef],
    triggers: TRUSTED_SIGNING_TRIGGERS
  };
}

/** The trusted roots in `path`: one JSON document, or JSON lines (the form of `gh attestation trusted-root`). */
export async function readTrustedRoots(path: string, what = 'trusted-root'): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`${what} '${path}' cannot be read: ${(error as Error).message}`);
  }
  try {
    return [JSON.parse(text) as unknown];
  } catch {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    try {
      const roots = lines.map((line) => JSON.parse(line) as unknown);
      if (roots.length > 0) return roots;
    } catch {
      // Reported below.
    }
    throw new ConfigurationError(`${what} '${path}' is neither a JSON trusted root nor JSON lines of them`);
  }
}

const isMapping = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Verify under any one of `roots` (each a complete set of trust anchors: gh attestation trusted-root
 * writes Sigstore's public-good and GitHub's own). Throws the last VerificationError when none holds;
 * a malformed policy (`bad_input`) is a ConfigurationError.
 */
export function verifyUnderAnyRoot(receiptBytes: Uint8Array, bundle: unknown, policy: SignerPolicy, roots: readonly unknown[]): VerifiedAttestation {
  let refusal: VerificationError | undefined;
  for (const root of roots) {
    // A root without CT logs (a private Sigstore) cannot vouch for SCTs; one that lists them requires one.
    const ctlogs = isMapping(root) && Array.isArray(root['ctlogs']) ? root['ctlogs'].length : 0;
    try {
      return verifyReceiptAttestation(receiptBytes, bundle, policy, { trustedRoot: root, thresholds: { ctlog: ctlogs > 0 ? 1 : 0 } });
    } catch (error) {
      if (error instanceof VerificationError && error.code === 'bad_input') throw new ConfigurationError(error.message);
      if (!(error instanceof VerificationError)) throw error;
      refusal = error;
    }
  }
  throw refusal ?? new VerificationError('attestation_invalid', 'receipt attestation: no trusted root was given');
}
