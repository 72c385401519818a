import { open } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { ParsedClaim } from '../core/claim.js';
import type { AdapterName } from '../adapters/registry.js';
import { CLAIM_MAX_BYTES, ClaimFormatError, parseClaim } from '../adapters/claim-results.js';
import { ConfigurationError } from '../errors.js';

/** The agent's claim as validate takes it: parsed, with the SHA-256 digest of its bytes. */
export interface ClaimInput {
  parsed: ParsedClaim;
  digest: string;
}

/**
 * Read and parse the claim file `path` (named `flag` in errors) for `adapter`'s ids. It is read with
 * a bound (never more than CLAIM_MAX_BYTES + 1 bytes), before any validation work: a claim that cannot
 * be read or parsed is a ConfigurationError of one line (exit 2), never a silent "no claim".
 */
export async function readClaimFile(path: string, flag: string, adapter: AdapterName): Promise<ClaimInput> {
  let bytes: Buffer;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(CLAIM_MAX_BYTES + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length === buffer.length) break;
      }
      bytes = buffer.subarray(0, length);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new ConfigurationError(`${flag} '${path}' cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); give the agent's results file`);
  }
  return parseClaimBytes(bytes, `${flag} '${path}'`, adapter);
}

/**
 * Parse a claim's bytes (`label` names it in errors, e.g. `claimed-artifact 'results' (junit.xml)`),
 * for `adapter`'s ids: the bytes of an artifact entry, already bounded by the reader. One-line
 * ConfigurationError when they are not a claim.
 */
export function parseClaimBytes(bytes: Uint8Array, label: string, adapter: AdapterName): ClaimInput {
  const refuse = (why: string): never => {
    throw new ConfigurationError(`${label} is not a claim PatchProof reads: ${why}; give JUnit XML, a jest/vitest --json report or a go test -json stream (docs/claim.md)`);
  };
  if (bytes.length > CLAIM_MAX_BYTES) refuse(`larger than ${CLAIM_MAX_BYTES} bytes`);
  let text = '';
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    refuse('not UTF-8 text');
  }
  try {
    return { parsed: parseClaim(text, adapter), digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}` };
  } catch (error) {
    if (error instanceof ClaimFormatError) return refuse(error.message.replace(/\s+/g, ' '));
    throw error;
  }
}
