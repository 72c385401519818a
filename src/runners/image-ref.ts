import { ConfigurationError, InfrastructureError } from '../errors.js';
import { dockerCli } from './docker-available.js';

/**
 * The `--image` input. Only pinned forms are accepted: a tag can be moved to other content
 * between the baseline and the patched run, or between a run and its re-check.
 */

/** A parsed `--image` value. */
export type ParsedImageRef = { kind: 'digest'; name: string; digest: string } | { kind: 'id'; id: string };

/** A resolved image: the reference as given and the local image ID every run uses. */
export interface ResolvedImage {
  ref: string;
  imageId: string;
}

const ACCEPTED_FORMS =
  "Expected name@sha256:<64 hex> or a local image ID sha256:<64 hex> (scripts/build-test-image.sh prints one; or `docker image inspect --format '{{.Id}}' IMAGE`).";

const DIGEST = /^sha256:[0-9a-f]{64}$/;
// Docker reference grammar, simplified: lowercase path components, optional registry host[:port].
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const HOST = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?';
const NAME = new RegExp(`^(?:${HOST}/)?${COMPONENT}(?:/${COMPONENT})*$`);

/** Parse `--image` without touching Docker. Throws ConfigurationError for any other form. */
export function parseImageRef(input: string): ParsedImageRef {
  if (DIGEST.test(input)) return { kind: 'id', id: input };
  const at = input.lastIndexOf('@');
  if (at > 0) {
    const name = input.slice(0, at);
    const digest = input.slice(at + 1);
    if (NAME.test(name) && DIGEST.test(digest)) return { kind: 'digest', name, digest };
  }
  throw new ConfigurationError(`Invalid --image '${input}'. ${ACCEPTED_FORMS}`);
}

/**
 * Resolve `--image` to a local image ID. A digest reference must be one of the local image's
 * RepoDigests; nothing is ever pulled. Throws ConfigurationError for a malformed or missing
 * image, InfrastructureError when Docker cannot be asked.
 */
export async function resolveImage(input: string): Promise<ResolvedImage> {
  const parsed = parseImageRef(input);
  const result = await dockerCli(['image', 'inspect', '--format', '{{json .}}', input]);
  if (result.code !== 0) {
    if (/no such image/i.test(result.stderr)) {
      throw new ConfigurationError(
        `Image '${input}' is not present locally and PatchProof never pulls. Build the test image with scripts/build-test-image.sh (it prints the ID), or pull/load the image yourself, then pass its ID or name@sha256 digest.`
      );
    }
    throw new InfrastructureError(`docker image inspect failed: ${result.stderr.trim() || `exit ${String(result.code)}`}`);
  }
  const info = parseInspect(result.stdout);
  if (parsed.kind === 'id') {
    if (info.id !== parsed.id) {
      throw new ConfigurationError(`Image '${input}' resolved to a different image ID (${info.id}). ${ACCEPTED_FORMS}`);
    }
  } else {
    const wanted = normalizeName(parsed.name) + '@' + parsed.digest;
    const matches = info.repoDigests.some((entry) => {
      const at = entry.lastIndexOf('@');
      return at > 0 && normalizeName(entry.slice(0, at)) + entry.slice(at) === wanted;
    });
    // Docker can match a digest on the content alone; the name must be part of the pin too.
    if (!matches) {
      throw new ConfigurationError(
        `Image '${input}' is present locally but its RepoDigests (${info.repoDigests.join(', ') || 'none'}) do not contain that name and digest. ${ACCEPTED_FORMS}`
      );
    }
  }
  return { ref: input, imageId: info.id };
}

function parseInspect(stdout: string): { id: string; repoDigests: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (error) {
    throw new InfrastructureError('docker image inspect returned text that is not JSON', { cause: error });
  }
  if (typeof value !== 'object' || value === null) throw new InfrastructureError('docker image inspect returned no object');
  const record = value as Record<string, unknown>;
  const id = record.Id;
  const digests = record.RepoDigests;
  if (typeof id !== 'string' || !DIGEST.test(id)) throw new InfrastructureError(`docker image inspect returned an unexpected Id: ${String(id)}`);
  const repoDigests = Array.isArray(digests) ? digests.filter((entry): entry is string => typeof entry === 'string') : [];
  return { id, repoDigests };
}

/** `python`, `library/python` and `docker.io/library/python` name the same repository. */
function normalizeName(name: string): string {
  let result = name.replace(/^(?:docker\.io|index\.docker\.io)\//, '');
  if (!result.includes('/')) result = `library/${result}`;
  return result;
}
