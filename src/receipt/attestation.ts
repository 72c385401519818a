import { createHash } from 'node:crypto';
import { bundleFromJSON, type Bundle } from '@sigstore/bundle';
import { ASN1Obj } from '@sigstore/core';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { Verifier, toSignedEntity, toTrustMaterial, type Signer } from '@sigstore/verify';
import { VerificationError } from '../errors.js';

/**
 * Verification of a signed receipt: the Sigstore bundle that `actions/attest` writes for
 * receipt.json (an in-toto statement in a DSSE envelope, signed with a short-lived Fulcio
 * certificate of the workflow's OIDC identity). Pure apart from crypto: the receipt bytes, the
 * bundle's JSON, the signer policy and the trust material come in; a verified signer comes out, or
 * a VerificationError says what did not hold.
 *
 * What a verified attestation proves: the workflow named by the policy (at the default branch or a
 * pinned commit), run for the policy's repository from its default branch by a trusted trigger,
 * signed exactly these bytes as a PatchProof receipt whose check run the action concluded as success
 * from a trusted workflow (the predicate, `gatePredicateError`). It says nothing about whether the receipt is
 * bound to a given head: reverify checks that separately.
 *
 * Libraries: @sigstore/verify, @sigstore/bundle and @sigstore/core are the Sigstore project's own
 * verifier (used by npm's provenance checks), so certificate chains, SCTs, transparency-log
 * inclusion and DSSE signatures are not reimplemented here.
 */

/** PatchProof's in-toto predicate type for a receipt attestation (a URI naming a schema, never fetched). */
export const RECEIPT_PREDICATE_TYPE = 'https://patchproof.dev/receipt/v1';

/** The in-toto statement type `actions/attest` writes. */
export const IN_TOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** File name of the bundle next to receipt.json in a receipt artifact. */
export const RECEIPT_BUNDLE_FILE = 'receipt.sigstore.json';

/** GitHub Actions' OIDC issuer, as Fulcio records it. */
export const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';

/** Fulcio's certificate extensions (https://github.com/sigstore/fulcio/blob/main/docs/oid-info.md), DER UTF8String values. */
export const FULCIO_OID = {
  issuer: '1.3.6.1.4.1.57264.1.8',
  buildSignerUri: '1.3.6.1.4.1.57264.1.9',
  buildSignerDigest: '1.3.6.1.4.1.57264.1.10',
  sourceRepositoryUri: '1.3.6.1.4.1.57264.1.12',
  sourceRepositoryDigest: '1.3.6.1.4.1.57264.1.13',
  sourceRepositoryRef: '1.3.6.1.4.1.57264.1.14',
  buildTrigger: '1.3.6.1.4.1.57264.1.20'
} as const;

/**
 * The predicate the gate signs with a receipt: the receipt's own facts, and what the action concluded
 * about the check run. validate mode writes it (receiptPredicate) only when it concluded `success` from
 * a trusted workflow with proof grade, and the gate attests only when it is written; a verifier refuses
 * an attestation whose predicate does not say so (gatePredicateError), so a receipt of an untrusted run
 * (a pull request into another branch, a pass posted as failure) is never evidence, whatever signed it.
 */
export interface ReceiptPredicate {
  receipt_digest: string;
  verdict: 'passed';
  proof_grade: true;
  diff_digest: string;
  witness_digest: string;
  /** The check run the action concluded: always success from a trusted workflow (else nothing is attested). */
  check: { conclusion: 'success'; trusted: true; name: string; head_sha: string; workflow_ref: string; event: string };
}

/** The predicate for a receipt whose check run the action concluded as trusted success. */
export function receiptPredicate(
  receipt: { receipt_digest: string; bindings: { diff_digest: string; witness_digest: string } },
  check: { name: string; headSha: string; workflowRef: string; event: string }
): ReceiptPredicate {
  return {
    receipt_digest: receipt.receipt_digest,
    verdict: 'passed',
    proof_grade: true,
    diff_digest: receipt.bindings.diff_digest,
    witness_digest: receipt.bindings.witness_digest,
    check: { conclusion: 'success', trusted: true, name: check.name, head_sha: check.headSha, workflow_ref: check.workflowRef, event: check.event }
  };
}

/**
 * Why a signed predicate does not vouch for a receipt, or undefined when it does: it must say the
 * action concluded the check as success from a trusted workflow, for a passed, proof-grade receipt.
 * Predicates signed before issue 27 (receipt facts only) do not say it and are refused.
 */
export function gatePredicateError(predicate: unknown): string | undefined {
  const record = predicate !== null && typeof predicate === 'object' && !Array.isArray(predicate) ? (predicate as Record<string, unknown>) : undefined;
  const check = record?.['check'];
  const checked = check !== null && typeof check === 'object' && !Array.isArray(check) ? (check as Record<string, unknown>) : undefined;
  if (checked?.['conclusion'] !== 'success' || checked['trusted'] !== true) {
    return "the signed predicate does not say the gate concluded this receipt's check run as success from a trusted workflow (check.conclusion success, check.trusted true); the gate attests only such receipts";
  }
  if (record?.['verdict'] !== 'passed' || record['proof_grade'] !== true) return 'the signed predicate does not say the receipt passed with proof grade';
  return undefined;
}

const WORKFLOW_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]*\/(?!\.\.?\/)[A-Za-z0-9_.-]+\/\.github\/workflows\/[A-Za-z0-9_.-]+\.ya?ml$/;
const REPOSITORY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]*\/(?!\.\.?$)[A-Za-z0-9_.-]+$/;
const SHA_PATTERN = /^[0-9a-f]{40}$/;

/** Whose signature counts. */
export interface SignerPolicy {
  /** The signing workflow, `OWNER/REPO/.github/workflows/FILE.yml` (for a reusable workflow: the called file). */
  signerWorkflow: string;
  /**
   * Refs the signer workflow may have run at besides a full commit SHA, e.g. `refs/heads/main`.
   * A workflow_dispatch runs the file of whatever ref it was dispatched on: other refs do not count.
   */
  signerRefs: readonly string[];
  /** The repository whose run produced the receipt, `OWNER/REPO` (Fulcio's source repository). */
  repository: string;
  /** The refs that run must have been on (the default branch): on pull_request it is refs/pull/N/merge, PR-controlled. */
  sourceRefs: readonly string[];
  /** Events whose runs are trusted, e.g. pull_request_target. A `pull_request` run's inputs are the PR's. */
  triggers: readonly string[];
}

/** What the verifier trusts. */
export interface AttestationTrust {
  /**
   * A Sigstore trusted root (JSON, `application/vnd.dev.sigstore.trustedroot+json`). Production:
   * Sigstore's public-good root (or GitHub's, for private repositories), obtained through TUF.
   */
  trustedRoot: unknown;
  /** How many SCTs, transparency-log entries and timestamps are required. Default 1 each, as sigstore-js does. */
  thresholds?: { ctlog?: number; tlog?: number; timestamp?: number };
}

/** The signer of a verified receipt attestation. */
export interface VerifiedAttestation {
  subjectDigest: string;
  signerUri: string;
  signerDigest: string;
  sourceRepository: string;
  sourceRef: string;
  sourceDigest: string;
  trigger: string;
}

function fail(message: string): never {
  throw new VerificationError('attestation_invalid', `receipt attestation: ${message}`);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const fields = (error as { fields?: unknown }).fields;
    if (Array.isArray(fields) && fields.length > 0) return `${error.message}: ${fields.join(', ')}`;
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

/** Validate a policy's shape; a malformed pin must never match by accident. */
export function checkSignerPolicy(policy: SignerPolicy): void {
  if (!WORKFLOW_PATTERN.test(policy.signerWorkflow)) {
    throw new VerificationError('bad_input', `signer workflow '${policy.signerWorkflow}' is not OWNER/REPO/.github/workflows/FILE.yml`);
  }
  if (!REPOSITORY_PATTERN.test(policy.repository)) throw new VerificationError('bad_input', `repository '${policy.repository}' is not OWNER/REPO`);
  if (policy.triggers.length === 0 || policy.sourceRefs.length === 0) throw new VerificationError('bad_input', 'a signer policy needs at least one trigger and one source ref');
}

/** A Fulcio v2 extension's value: the extension's OCTET STRING holds a DER UTF8String. */
function extensionText(signer: Signer, oid: string): string | undefined {
  const found = signer.identity?.oids?.find((pair) => pair.oid?.id.join('.') === oid);
  if (found === undefined) return undefined;
  try {
    const inner = ASN1Obj.parseBuffer(Buffer.from(found.value));
    // 0x0c: UTF8String. Anything else is not what Fulcio writes.
    return inner.tag.number === 0x0c ? inner.value.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}

function required(signer: Signer, name: keyof typeof FULCIO_OID): string {
  const value = extensionText(signer, FULCIO_OID[name]);
  if (value === undefined || value === '') fail(`the signing certificate has no ${name} extension (${FULCIO_OID[name]})`);
  return value;
}

/** The in-toto statement in the envelope, parsed as untrusted JSON. */
function statementOf(bundle: Bundle): { subject: { name?: unknown; digest?: Record<string, unknown> }[]; predicateType: unknown; predicate: unknown } {
  if (bundle.content.$case !== 'dsseEnvelope') fail('the bundle holds a message signature, not a DSSE envelope with an in-toto statement');
  const envelope = bundle.content.dsseEnvelope;
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) fail(`the envelope's payload type is '${envelope.payloadType}', not ${IN_TOTO_PAYLOAD_TYPE}`);
  if (envelope.signatures.length !== 1) fail(`the envelope has ${envelope.signatures.length} signatures, not exactly one`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(envelope.payload).toString('utf8'));
  } catch (error) {
    fail(`the envelope's payload is not JSON: ${describe(error)}`);
  }
  const statement = parsed as Record<string, unknown> | null;
  if (statement === null || typeof statement !== 'object' || statement['_type'] !== IN_TOTO_STATEMENT_TYPE || !Array.isArray(statement['subject'])) {
    fail(`the payload is not an in-toto statement (${IN_TOTO_STATEMENT_TYPE})`);
  }
  return { subject: statement['subject'] as { name?: unknown; digest?: Record<string, unknown> }[], predicateType: statement['predicateType'], predicate: statement['predicate'] };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Verify `bundleJson` as an attestation of exactly `receiptBytes` by the policy's signer. Throws
 * VerificationError (code `attestation_invalid`, message starting "receipt attestation:")
 * naming the first thing that did not hold; `bad_input` for a malformed policy or trust root.
 */
export function verifyReceiptAttestation(receiptBytes: Uint8Array, bundleJson: unknown, policy: SignerPolicy, trust: AttestationTrust): VerifiedAttestation {
  checkSignerPolicy(policy);
  let bundle: Bundle;
  try {
    bundle = bundleFromJSON(bundleJson);
  } catch (error) {
    fail(`not a Sigstore bundle: ${describe(error)}`);
  }

  // The statement first: a bundle over other bytes is refused before any cryptography.
  const digest = createHash('sha256').update(receiptBytes).digest('hex');
  const statement = statementOf(bundle);
  if (statement.predicateType !== RECEIPT_PREDICATE_TYPE) fail(`predicate type '${String(statement.predicateType)}' is not ${RECEIPT_PREDICATE_TYPE}`);
  if (statement.subject.length !== 1) fail(`the statement has ${statement.subject.length} subjects, not exactly one (receipt.json)`);
  const subjectDigest = statement.subject[0]?.digest?.['sha256'];
  if (subjectDigest !== digest) fail(`the statement's subject is sha256:${String(subjectDigest)}, but receipt.json is sha256:${digest}`);

  let material;
  try {
    material = toTrustMaterial(TrustedRoot.fromJSON(trust.trustedRoot));
  } catch (error) {
    throw new VerificationError('bad_input', `receipt attestation: the trusted root cannot be read: ${describe(error)}`);
  }
  const verifier = new Verifier(material, {
    ctlogThreshold: trust.thresholds?.ctlog ?? 1,
    tlogThreshold: trust.thresholds?.tlog ?? 1,
    timestampThreshold: trust.thresholds?.timestamp ?? 1
  });
  let signer: Signer;
  try {
    // The signer workflow's SAN, anchored: GitHub writes https://github.com/<workflow path>@<ref>.
    const san = `^${escapeRegExp(`https://github.com/${policy.signerWorkflow}@`)}(${[...policy.signerRefs.map(escapeRegExp), '[0-9a-f]{40}'].join('|')})$`;
    signer = verifier.verify(toSignedEntity(bundle), { subjectAlternativeName: san, extensions: { issuer: GITHUB_ACTIONS_ISSUER } });
  } catch (error) {
    fail(`the signature does not verify under the trusted root and signer policy: ${describe(error)}`);
  }
  if (bundle.verificationMaterial.content.$case === 'publicKey') fail('the bundle is signed by a bare public key, not a workflow certificate');

  const signerUri = signer.identity?.subjectAlternativeName ?? '';
  const buildSigner = required(signer, 'buildSignerUri');
  if (buildSigner !== signerUri) fail(`the certificate's build signer '${buildSigner}' is not its SAN '${signerUri}'`);
  const signerDigest = required(signer, 'buildSignerDigest');
  const signerRef = signerUri.slice(signerUri.lastIndexOf('@') + 1);
  // A workflow pinned by SHA must have run at exactly that commit.
  if (SHA_PATTERN.test(signerRef) && signerRef !== signerDigest) fail(`the signer workflow is pinned at ${signerRef} but ran at ${signerDigest}`);
  const sourceRepository = required(signer, 'sourceRepositoryUri');
  if (sourceRepository !== `https://github.com/${policy.repository}`) fail(`the receipt was signed for ${sourceRepository}, not https://github.com/${policy.repository}`);
  const sourceRef = required(signer, 'sourceRepositoryRef');
  if (!policy.sourceRefs.includes(sourceRef)) fail(`the signing run was on ${sourceRef}, not ${policy.sourceRefs.join(' or ')}`);
  const trigger = required(signer, 'buildTrigger');
  if (!policy.triggers.includes(trigger)) fail(`the signing run was triggered by ${trigger}, not ${policy.triggers.join(' or ')}`);
  const sourceDigest = required(signer, 'sourceRepositoryDigest');
  // Who signed is settled; what they signed must say the check was a trusted success.
  const unvouched = gatePredicateError(statement.predicate);
  if (unvouched !== undefined) fail(unvouched);
  return { subjectDigest: `sha256:${digest}`, signerUri, signerDigest, sourceRepository, sourceRef, sourceDigest, trigger };
}
