import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * Hashing primitives shared by every digest PatchProof records.
 *
 * Canonical JSON comes from `canonicalize`, the reference implementation of RFC 8785 (JCS) by one
 * of the RFC's authors: maintained, dependency-free, and byte-exact with other JCS implementations,
 * so a receipt can be re-verified from any language.
 */

/** Hash domains: one per kind of object, so a digest of one kind can never stand for another. */
export type HashDomain =
  | 'patchproof/snapshot/v1'
  | 'patchproof/file/v1'
  | 'patchproof/diff/v1'
  | 'patchproof/proposal/v1'
  | 'patchproof/approval/v1'
  | 'patchproof/receipt/v1'
  | 'patchproof/receipt/v2'
  | 'patchproof/receipt/v3'
  | 'patchproof/receipt/v4'
  | 'patchproof/receipt/v5'
  | 'patchproof/receipt/v6'
  | 'patchproof/receipt/v7'
  | 'patchproof/receipt/v8'
  | 'patchproof/receipt/v9'
  | 'patchproof/receipt/v10'
  | 'patchproof/merged/v1'
  | 'patchproof/tests/v1'
  | 'patchproof/witness/v1'
  | 'patchproof/setup-cache/v1'
  | 'patchproof/baseline/v1'
  | 'patchproof/baseline-cache/v1'
  | 'patchproof/normalised/v1'
  | 'patchproof/exact/v1'
  | 'patchproof/screening/v1';

/** `sha256:<64 hex>`: the one textual form of every digest in proposals and receipts. */
export type Digest = `sha256:${string}`;

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
export const HEX64_PATTERN = /^[0-9a-f]{64}$/;
/** A full git commit id: 40 hex digits (SHA-1) or 64 (SHA-256 repositories). */
export const COMMIT_SHA_PATTERN = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** Plain SHA-256 of bytes, as lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 over `domain NUL payload`: the same payload under two domains never collides. */
export function domainDigest(domain: HashDomain, payload: string | Uint8Array): Digest {
  const hash = createHash('sha256');
  hash.update(domain, 'utf8');
  hash.update(Buffer.from([0]));
  hash.update(payload);
  return `sha256:${hash.digest('hex')}`;
}

/** RFC 8785 canonical JSON text. Throws on values JSON cannot represent (undefined, NaN, cycles). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) {
    throw new TypeError('value has no canonical JSON form');
  }
  return text;
}

/** Digest of a JSON value's canonical form under a domain. */
export function digestJson(domain: HashDomain, value: unknown): Digest {
  return domainDigest(domain, canonicalJson(value));
}

/** The bare hex of a digest (`sha256:abc…` → `abc…`). */
export function digestHex(digest: Digest): string {
  return digest.slice('sha256:'.length);
}
