import 'reflect-metadata';
import { createHash, generateKeyPairSync, KeyObject, sign, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { FULCIO_OID, GITHUB_ACTIONS_ISSUER, IN_TOTO_STATEMENT_TYPE, RECEIPT_PREDICATE_TYPE } from '../../src/receipt/attestation.js';

/**
 * A private Sigstore for tests: a test CA in place of Fulcio (its leaf certificates carry GitHub's
 * Fulcio extensions), and a test transparency-log key in place of Rekor, whose signed entry
 * timestamp (the Rekor v1 "inclusion promise", next to an inclusion proof in a one-leaf tree with a
 * signed checkpoint, which bundle v0.3 requires) gives @sigstore/verify the timestamp it needs to
 * check the certificate's validity. The bundle is built as actions/attest writes one: an in-toto
 * statement in a DSSE envelope, bundle media type v0.3. No SCTs are made (no test CT log), so tests
 * verify with ctlog threshold 0; everything else keeps sigstore-js's defaults.
 */

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** DER UTF8String, as Fulcio encodes its v2 extensions. */
function utf8String(text: string): Uint8Array {
  const bytes = Buffer.from(text, 'utf8');
  const length =
    bytes.length < 0x80 ? Buffer.from([bytes.length]) : bytes.length < 0x100 ? Buffer.from([0x81, bytes.length]) : Buffer.from([0x82, bytes.length >> 8, bytes.length & 0xff]);
  return Buffer.concat([Buffer.from([0x0c]), length, bytes]);
}

/** The GitHub identity a leaf certificate claims. */
export interface WorkflowIdentity {
  /** SAN and build signer URI: https://github.com/O/R/.github/workflows/x.yml@ref */
  signerUri: string;
  signerDigest: string;
  /** https://github.com/O/R */
  sourceRepository: string;
  sourceRef: string;
  sourceDigest: string;
  trigger: string;
  issuer?: string;
}

export function githubIdentity(overrides: Partial<WorkflowIdentity> = {}): WorkflowIdentity {
  return {
    signerUri: 'https://github.com/patchproof/patchproof/.github/workflows/patchproof.yml@refs/heads/main',
    signerDigest: 'a'.repeat(40),
    sourceRepository: 'https://github.com/octo/app',
    sourceRef: 'refs/heads/main',
    sourceDigest: 'b'.repeat(40),
    trigger: 'pull_request_target',
    ...overrides
  };
}

/** The predicate the gate signs since issue 27: the action concluded the check run as trusted success. */
export const GATE_SUCCESS_PREDICATE = {
  receipt_digest: `sha256:${'0'.repeat(64)}`,
  verdict: 'passed',
  proof_grade: true,
  diff_digest: `sha256:${'0'.repeat(64)}`,
  witness_digest: `sha256:${'0'.repeat(64)}`,
  check: {
    conclusion: 'success',
    trusted: true,
    name: 'PatchProof',
    head_sha: '0'.repeat(40),
    workflow_ref: 'o/r/.github/workflows/gate.yml@refs/heads/main',
    event: 'pull_request_target'
  }
};

/**
 * The predicate patchproof.yml signed before issue 27 (a step's `node -e` over receipt.json): the
 * receipt's facts only, whether or not the action posted the check as success from a trusted run.
 */
export const RECEIPT_FACTS_PREDICATE = {
  receipt_digest: `sha256:${'0'.repeat(64)}`,
  verdict: 'passed',
  proof_grade: true,
  diff_digest: `sha256:${'0'.repeat(64)}`,
  witness_digest: `sha256:${'0'.repeat(64)}`
};

export interface TestSigstore {
  trustedRoot: unknown;
  /** A Sigstore bundle (JSON) attesting `subject` with `predicateType`, signed by a leaf for `identity`. */
  attest(
    subject: Uint8Array,
    options?: { identity?: WorkflowIdentity; predicateType?: string; subjectName?: string; subjectDigest?: string; predicate?: unknown }
  ): Promise<Record<string, unknown>>;
}

interface Ca {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
}

async function makeCa(name: string): Promise<Ca> {
  const keys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name},O=PatchProof tests`,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 86_400_000 * 365),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 1, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey)
    ]
  });
  return { cert, keys };
}

/** A test Sigstore whose root trusts `ca` (a second, untrusted CA can sign too). */
export async function createTestSigstore(): Promise<TestSigstore & { untrusted: TestSigstore }> {
  const trusted = await makeCa('PatchProof test Fulcio');
  const untrustedCa = await makeCa('Somebody else');
  const log = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const logDer = log.publicKey.export({ type: 'spki', format: 'der' });
  const logId = createHash('sha256').update(logDer).digest();
  const start = new Date(Date.now() - 86_400_000 * 2).toISOString();
  const trustedRoot = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [
      {
        baseUrl: 'https://rekor.test.invalid',
        hashAlgorithm: 'SHA2_256',
        publicKey: { rawBytes: logDer.toString('base64'), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: { start } },
        logId: { keyId: logId.toString('base64') }
      }
    ],
    certificateAuthorities: [
      {
        subject: { organization: 'PatchProof tests', commonName: 'PatchProof test Fulcio' },
        uri: 'https://fulcio.test.invalid',
        certChain: { certificates: [{ rawBytes: Buffer.from(trusted.cert.rawData).toString('base64') }] },
        validFor: { start }
      }
    ],
    ctlogs: [],
    timestampAuthorities: []
  };

  const signer =
    (ca: Ca): TestSigstore['attest'] =>
    async (subject, options = {}) => {
      const identity = options.identity ?? githubIdentity();
      const leafKeys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
      const text = (oid: string, value: string): x509.Extension => new x509.Extension(oid, false, utf8String(value));
      const leaf = await x509.X509CertificateGenerator.create({
        serialNumber: createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 16),
        subject: '',
        issuer: ca.cert.subject,
        notBefore: new Date(Date.now() - 60_000),
        notAfter: new Date(Date.now() + 600_000),
        signingAlgorithm: ALG,
        publicKey: leafKeys.publicKey,
        signingKey: ca.keys.privateKey,
        extensions: [
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension(['1.3.6.1.5.5.7.3.3']),
          await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
          new x509.SubjectAlternativeNameExtension([{ type: 'url', value: identity.signerUri }], true),
          text(FULCIO_OID.issuer, identity.issuer ?? GITHUB_ACTIONS_ISSUER),
          text(FULCIO_OID.buildSignerUri, identity.signerUri),
          text(FULCIO_OID.buildSignerDigest, identity.signerDigest),
          text(FULCIO_OID.sourceRepositoryUri, identity.sourceRepository),
          text(FULCIO_OID.sourceRepositoryDigest, identity.sourceDigest),
          text(FULCIO_OID.sourceRepositoryRef, identity.sourceRef),
          text(FULCIO_OID.buildTrigger, identity.trigger)
        ]
      });
      const statement = {
        _type: IN_TOTO_STATEMENT_TYPE,
        subject: [{ name: options.subjectName ?? 'receipt.json', digest: { sha256: options.subjectDigest ?? createHash('sha256').update(subject).digest('hex') } }],
        predicateType: options.predicateType ?? RECEIPT_PREDICATE_TYPE,
        predicate: 'predicate' in options ? options.predicate : GATE_SUCCESS_PREDICATE
      };
      const payload = Buffer.from(JSON.stringify(statement));
      const payloadType = 'application/vnd.in-toto+json';
      const pae = Buffer.concat([Buffer.from(`DSSEv1 ${payloadType.length} ${payloadType} ${payload.length} `), payload]);
      const leafPrivate = KeyObject.from(leafKeys.privateKey);
      const sig = sign('sha256', pae, leafPrivate);
      const certDer = Buffer.from(leaf.rawData);
      // The Rekor v1 dsse entry, and its signed entry timestamp over {body, integratedTime, logIndex, logID}.
      const body = Buffer.from(
        JSON.stringify({
          apiVersion: '0.0.1',
          kind: 'dsse',
          spec: {
            envelopeHash: { algorithm: 'sha256', value: createHash('sha256').update(payload).digest('hex') },
            payloadHash: { algorithm: 'sha256', value: createHash('sha256').update(payload).digest('hex') },
            signatures: [{ signature: sig.toString('base64'), verifier: Buffer.from(leaf.toString('pem')).toString('base64') }]
          }
        })
      );
      const integratedTime = Math.floor(Date.now() / 1000);
      const logIndex = 4242;
      const set = { body: body.toString('base64'), integratedTime, logIndex, logID: logId.toString('hex') };
      const canonical = JSON.stringify(set, Object.keys(set).sort());
      const signedEntryTimestamp = sign('sha256', Buffer.from(canonical), log.privateKey);
      // A one-leaf Merkle tree (RFC 6962) and its checkpoint, a signed note naming the log.
      const rootHash = createHash('sha256')
        .update(Buffer.concat([Buffer.from([0]), body]))
        .digest();
      const note = `rekor.test.invalid - 1\n1\n${rootHash.toString('base64')}\n`;
      const noteSig = Buffer.concat([logId.subarray(0, 4), sign('sha256', Buffer.from(note), log.privateKey)]);
      const checkpoint = `${note}\n\u2014 rekor.test.invalid ${noteSig.toString('base64')}\n`;
      return {
        mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
        verificationMaterial: {
          certificate: { rawBytes: certDer.toString('base64') },
          tlogEntries: [
            {
              logIndex: String(logIndex),
              logId: { keyId: logId.toString('base64') },
              kindVersion: { kind: 'dsse', version: '0.0.1' },
              integratedTime: String(integratedTime),
              inclusionPromise: { signedEntryTimestamp: signedEntryTimestamp.toString('base64') },
              inclusionProof: { logIndex: '0', rootHash: rootHash.toString('base64'), treeSize: '1', hashes: [], checkpoint: { envelope: checkpoint } },
              canonicalizedBody: body.toString('base64')
            }
          ],
          timestampVerificationData: {}
        },
        dsseEnvelope: { payload: payload.toString('base64'), payloadType, signatures: [{ sig: sig.toString('base64'), keyid: '' }] }
      };
    };
  return { trustedRoot, attest: signer(trusted), untrusted: { trustedRoot, attest: signer(untrustedCa) } };
}
