import { beforeAll, describe, expect, it } from '@jest/globals';
import { verifyReceiptAttestation, RECEIPT_PREDICATE_TYPE, type AttestationTrust, type SignerPolicy } from '../../src/receipt/attestation.js';
import { VerificationError } from '../../src/errors.js';
import { createTestSigstore, GATE_SUCCESS_PREDICATE, githubIdentity, RECEIPT_FACTS_PREDICATE, type TestSigstore } from '../helpers/sigstore-fixture.js';

/**
 * verifyReceiptAttestation with the real @sigstore/verify on bundles signed in the test: a test CA
 * (in place of Fulcio) issues leaf certificates with GitHub's Fulcio extensions, a test log key (in
 * place of Rekor) signs the entry timestamp. Only the SCT requirement is lowered (no test CT log).
 */

const RECEIPT = Buffer.from('{"schema":"patchproof.receipt/v1","verdict":"passed"}\n');
const POLICY: SignerPolicy = {
  signerWorkflow: 'patchproof/patchproof/.github/workflows/patchproof.yml',
  signerRefs: ['refs/heads/main'],
  repository: 'octo/app',
  sourceRefs: ['refs/heads/main'],
  triggers: ['pull_request_target']
};

let sigstore: TestSigstore & { untrusted: TestSigstore };
let trust: AttestationTrust;

beforeAll(async () => {
  sigstore = await createTestSigstore();
  trust = { trustedRoot: sigstore.trustedRoot, thresholds: { ctlog: 0 } };
});

function refused(bundle: unknown, bytes: Uint8Array = RECEIPT, policy: SignerPolicy = POLICY, withTrust: AttestationTrust = trust): string {
  try {
    verifyReceiptAttestation(bytes, bundle, policy, withTrust);
  } catch (error) {
    expect(error).toBeInstanceOf(VerificationError);
    return (error as Error).message;
  }
  throw new Error('the attestation verified');
}

describe('verifyReceiptAttestation', () => {
  it("a bundle of the trusted workflow over the receipt's exact bytes verifies, and names its signer", async () => {
    const bundle = await sigstore.attest(RECEIPT);
    const verified = verifyReceiptAttestation(RECEIPT, bundle, POLICY, trust);
    expect(verified).toEqual({
      subjectDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      signerUri: 'https://github.com/patchproof/patchproof/.github/workflows/patchproof.yml@refs/heads/main',
      signerDigest: 'a'.repeat(40),
      sourceRepository: 'https://github.com/octo/app',
      sourceRef: 'refs/heads/main',
      sourceDigest: 'b'.repeat(40),
      trigger: 'pull_request_target'
    });
  });

  it('the signer workflow pinned by a SHA verifies when it ran at that SHA, and not otherwise', async () => {
    const sha = 'c'.repeat(40);
    const pinned = githubIdentity({ signerUri: `https://github.com/patchproof/patchproof/.github/workflows/patchproof.yml@${sha}`, signerDigest: sha });
    expect(verifyReceiptAttestation(RECEIPT, await sigstore.attest(RECEIPT, { identity: pinned }), POLICY, trust).signerDigest).toBe(sha);
    const lying = { ...pinned, signerDigest: 'd'.repeat(40) };
    expect(refused(await sigstore.attest(RECEIPT, { identity: lying }))).toMatch(/pinned at c+ but ran at d+/);
  });

  it('a bundle over other bytes fails (one byte changed)', async () => {
    const bundle = await sigstore.attest(RECEIPT);
    const other = Buffer.from(RECEIPT);
    other[other.length - 3] = 'X'.charCodeAt(0);
    expect(refused(bundle, other)).toMatch(/subject is sha256:[0-9a-f]{64}, but receipt.json is sha256:/);
  });

  it('a predicate that does not say the gate concluded the check as trusted success fails (the form signed before issue 27 included)', async () => {
    // Signed by the right workflow, from the right trigger and ref, over these bytes: only what it says differs.
    expect(refused(await sigstore.attest(RECEIPT, { predicate: RECEIPT_FACTS_PREDICATE }))).toMatch(/does not say the gate concluded this receipt's check run as success/);
    for (const check of [
      { ...GATE_SUCCESS_PREDICATE.check, conclusion: 'failure' },
      { ...GATE_SUCCESS_PREDICATE.check, trusted: false },
      { ...GATE_SUCCESS_PREDICATE.check, trusted: 'true' }
    ]) {
      expect(refused(await sigstore.attest(RECEIPT, { predicate: { ...GATE_SUCCESS_PREDICATE, check } }))).toMatch(/does not say the gate concluded/);
    }
    expect(refused(await sigstore.attest(RECEIPT, { predicate: { ...GATE_SUCCESS_PREDICATE, proof_grade: false } }))).toMatch(/passed with proof grade/);
    expect(refused(await sigstore.attest(RECEIPT, { predicate: null }))).toMatch(/does not say the gate concluded/);
    expect(verifyReceiptAttestation(RECEIPT, await sigstore.attest(RECEIPT, { predicate: GATE_SUCCESS_PREDICATE }), POLICY, trust).trigger).toBe('pull_request_target');
  });

  it('another predicate type fails', async () => {
    const bundle = await sigstore.attest(RECEIPT, { predicateType: 'https://slsa.dev/provenance/v1' });
    expect(refused(bundle)).toContain(`predicate type 'https://slsa.dev/provenance/v1' is not ${RECEIPT_PREDICATE_TYPE}`);
  });

  it('another signer workflow, or the right one at a branch ref, fails', async () => {
    const other = githubIdentity({ signerUri: 'https://github.com/octo/app/.github/workflows/evil.yml@refs/heads/main' });
    expect(refused(await sigstore.attest(RECEIPT, { identity: other }))).toMatch(/certificate identity error/);
    // A workflow_dispatch on a pushed branch runs that branch's copy of the file.
    const branch = githubIdentity({ signerUri: 'https://github.com/patchproof/patchproof/.github/workflows/patchproof.yml@refs/heads/agent-branch' });
    expect(refused(await sigstore.attest(RECEIPT, { identity: branch }))).toMatch(/certificate identity error/);
    // A prefix of the pinned path is not the pinned path.
    const longer = githubIdentity({ signerUri: 'https://github.com/patchproof/patchproof/.github/workflows/patchproof.yml.evil.yml@refs/heads/main' });
    expect(refused(await sigstore.attest(RECEIPT, { identity: longer }))).toMatch(/certificate identity error/);
  });

  it('another repository, a pull_request trigger, or a run off the default branch fails', async () => {
    expect(refused(await sigstore.attest(RECEIPT, { identity: githubIdentity({ sourceRepository: 'https://github.com/octo/fork' }) }))).toMatch(
      /signed for https:\/\/github.com\/octo\/fork, not https:\/\/github.com\/octo\/app/
    );
    expect(refused(await sigstore.attest(RECEIPT, { identity: githubIdentity({ trigger: 'pull_request', sourceRef: 'refs/heads/main' }) }))).toMatch(
      /triggered by pull_request, not pull_request_target/
    );
    expect(refused(await sigstore.attest(RECEIPT, { identity: githubIdentity({ sourceRef: 'refs/pull/7/merge' }) }))).toMatch(/was on refs\/pull\/7\/merge, not refs\/heads\/main/);
  });

  it('another OIDC issuer fails', async () => {
    const bundle = await sigstore.attest(RECEIPT, { identity: githubIdentity({ issuer: 'https://issuer.test.invalid' }) });
    expect(refused(bundle)).toMatch(/invalid certificate extension - expected issuer=/);
  });

  it('a tampered signature fails', async () => {
    const bundle = await sigstore.attest(RECEIPT);
    const envelope = bundle['dsseEnvelope'] as { signatures: { sig: string }[] };
    const sig = Buffer.from(envelope.signatures[0]!.sig, 'base64');
    sig.writeUInt8(sig.readUInt8(sig.length - 1) ^ 0x01, sig.length - 1);
    envelope.signatures[0]!.sig = sig.toString('base64');
    expect(refused(bundle)).toMatch(/does not verify.*(signature|tlog)/);
  });

  it('a tampered payload (subject rewritten to other bytes, signature kept) fails', async () => {
    const bundle = await sigstore.attest(RECEIPT);
    const other = Buffer.from('{"verdict":"failed"}');
    const envelope = bundle['dsseEnvelope'] as { payload: string };
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as { subject: { digest: { sha256: string } }[] };
    const { createHash } = await import('node:crypto');
    statement.subject[0]!.digest.sha256 = createHash('sha256').update(other).digest('hex');
    envelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    expect(refused(bundle, other)).toMatch(/does not verify/);
  });

  it('a certificate from an untrusted CA fails', async () => {
    const bundle = await sigstore.untrusted.attest(RECEIPT);
    expect(refused(bundle)).toMatch(/does not verify.*(certificate|CERTIFICATE)/i);
  });

  it("without the log's timestamp, or with the production SCT threshold, it fails closed", async () => {
    const bundle = await sigstore.attest(RECEIPT);
    const material = bundle['verificationMaterial'] as { tlogEntries: unknown[] };
    material.tlogEntries = [];
    expect(refused(bundle)).toMatch(/does not verify.*timestamps/);
    // Defaults: an SCT is required, and the test CA has none.
    expect(refused(await sigstore.attest(RECEIPT), RECEIPT, POLICY, { trustedRoot: sigstore.trustedRoot })).toMatch(/expected 1 SCTs, got 0/);
  });

  it('not a bundle, or a malformed policy, is refused', async () => {
    expect(refused({ hello: 'world' })).toMatch(/not a Sigstore bundle/);
    const bundle = await sigstore.attest(RECEIPT);
    expect(refused(bundle, RECEIPT, { ...POLICY, signerWorkflow: 'patchproof/patchproof' })).toMatch(/is not OWNER\/REPO\/.github\/workflows\/FILE.yml/);
  });
});
