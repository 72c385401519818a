import { createHash } from 'node:crypto';
import { copyFile, lstat, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DefaultArtifactClient, type Artifact, type ArtifactClient, type FindOptions } from '@actions/artifact';
import { DIGEST_PATTERN } from '../core/hashing.js';
import type { Receipt } from '../core/receipt-schema.js';
import { ConfigurationError, InfrastructureError, VerificationError } from '../errors.js';
import { RECEIPT_BUNDLE_FILE } from '../receipt/attestation.js';
import { splitRepository } from '../inputs/event.js';
import type { ReceiptArtifacts } from './ports.js';

/**
 * The only file that touches workflow artifacts: the receipt and its report go up as one artifact
 * named after the receipt digest; a later run (reverify) lists that run's artifacts, downloads the receipt with the digest the service recorded,
 * and refuses it when the bytes differ.
 */

/**
 * The maintainers' hidden detail of a sealed pack's run (age-encrypted to the witness key), kept in
 * the receipt artifact beside receipt.json; the receipt binds its SHA-256 (hidden_detail_sha256).
 */
export const HIDDEN_DETAIL_FILE = 'hidden-detail.age';

/** The first line of every age file (binary format). */
const AGE_HEADER = 'age-encryption.org/v1\n';

/** Every receipt artifact's name starts with this. */
export const RECEIPT_ARTIFACT_PREFIX = 'patchproof-receipt-';

/**
 * The companion artifact of a receipt artifact that holds its Sigstore bundle (receipt.sigstore.json),
 * uploaded by the workflow after `actions/attest` ran, since the receipt artifact was already
 * uploaded (artifacts cannot be changed). Its name is this prefix and the receipt artifact's suffix.
 */
export const ATTESTATION_ARTIFACT_PREFIX = 'patchproof-attestation-';

/** The companion attestation artifact's name for a receipt artifact's name. */
export function attestationArtifactName(receiptArtifact: string): string {
  return `${ATTESTATION_ARTIFACT_PREFIX}${receiptArtifact.startsWith(RECEIPT_ARTIFACT_PREFIX) ? receiptArtifact.slice(RECEIPT_ARTIFACT_PREFIX.length) : receiptArtifact}`;
}

/**
 * Hex digits of the receipt digest in the artifact name. The name is a label, not a binding (the
 * receipt carries its full digest, which reverify checks): 16 hex digits (64 bits) tell receipts
 * apart within a run and in logs, and keep the name short enough to read in the run's artifact list.
 */
export const DIGEST_HEX_IN_NAME = 16;

/** Options of {@link createReceiptArtifacts}. */
export interface ReceiptArtifactsOptions {
  /** Token with `actions: read`, needed by download() to list and fetch a run's artifacts. */
  token?: string;
  /** Days the artifact is kept; unset keeps the repository's setting. */
  retentionDays?: number;
  /** `owner/name` whose runs download() reads (the mode passes GITHUB_REPOSITORY, read in src/inputs/runner-context.ts). */
  repository: string | undefined;
  /** Where fresh folders go (downloads, the upload's staging): the job's RUNNER_TEMP. */
  tempRoot: string;
}

/** The artifact name for a receipt: the prefix and the first {@link DIGEST_HEX_IN_NAME} hex digits of its digest. */
export function receiptArtifactName(receiptDigest: string): string {
  if (!DIGEST_PATTERN.test(receiptDigest)) throw new VerificationError('bad_input', `receipt_digest '${receiptDigest}' is not sha256:<64 hex>`);
  return `${RECEIPT_ARTIFACT_PREFIX}${receiptDigest.slice('sha256:'.length, 'sha256:'.length + DIGEST_HEX_IN_NAME)}`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isOurs(error: unknown): boolean {
  return error instanceof ConfigurationError || error instanceof VerificationError || error instanceof InfrastructureError;
}

/** Of several artifacts with one name (re-run attempts), the newest. */
function newest(artifacts: Artifact[]): Artifact | undefined {
  const time = (a: Artifact): number => (a.createdAt === undefined ? 0 : new Date(a.createdAt).getTime());
  return [...artifacts].sort((a, b) => time(b) - time(a))[0];
}

function pick(artifacts: Artifact[], runId: number, name: string | undefined): Artifact {
  const names = artifacts.map((a) => a.name).sort();
  const found = names.length > 0 ? `it has: ${names.join(', ')}` : 'it has no artifacts';
  if (name !== undefined) {
    const match = newest(artifacts.filter((a) => a.name === name));
    if (match === undefined) throw new ConfigurationError(`workflow run ${runId} has no artifact named '${name}'; ${found}. Check run-id and artifact-name`);
    return match;
  }
  const receipts = artifacts.filter((a) => a.name.startsWith(RECEIPT_ARTIFACT_PREFIX));
  if (receipts.length === 1) return receipts[0] as Artifact;
  if (receipts.length === 0) {
    throw new ConfigurationError(`workflow run ${runId} has no ${RECEIPT_ARTIFACT_PREFIX}* artifact; ${found}. Check run-id, or give artifact-name`);
  }
  throw new ConfigurationError(
    `workflow run ${runId} has ${receipts.length} receipt artifacts (${receipts
      .map((a) => a.name)
      .sort()
      .join(', ')}); give artifact-name to say which one`
  );
}

class ToolkitReceiptArtifacts implements ReceiptArtifacts {
  constructor(
    private readonly client: ArtifactClient,
    private readonly options: ReceiptArtifactsOptions
  ) {}

  private tempRoot(): string {
    return this.options.tempRoot;
  }

  async upload(receipt: Receipt, files: { receipt: string; report: string; bundle?: string; hiddenDetail?: string }): Promise<{ id: number; name: string; digest?: string }> {
    const name = receiptArtifactName(receipt.receipt_digest);
    const onDisk = await this.digestInFile(files.receipt);
    if (onDisk !== receipt.receipt_digest) {
      throw new VerificationError(
        'bad_input',
        `${files.receipt} holds receipt ${onDisk ?? '(no receipt_digest)'}, not ${receipt.receipt_digest}; refusing to upload it under ${name}`
      );
    }
    // Staged under fixed names, so every receipt artifact has receipt.json and report.md at its root.
    const staging = await mkdtemp(join(this.tempRoot(), 'patchproof-upload-'));
    try {
      await copyFile(files.receipt, join(staging, 'receipt.json'));
      await copyFile(files.report, join(staging, 'report.md'));
      const staged = [join(staging, 'receipt.json'), join(staging, 'report.md')];
      if (files.bundle !== undefined) {
        await copyFile(files.bundle, join(staging, RECEIPT_BUNDLE_FILE));
        staged.push(join(staging, RECEIPT_BUNDLE_FILE));
      }
      if (files.hiddenDetail !== undefined) {
        // Only ciphertext goes up: refused unless it is an age file whose SHA-256 the receipt binds.
        const bytes = await readFile(files.hiddenDetail);
        const bound = (receipt as { hidden_detail_sha256?: string }).hidden_detail_sha256;
        if (
          bytes.subarray(0, AGE_HEADER.length).toString('latin1') !== AGE_HEADER ||
          bound === undefined ||
          createHash('sha256').update(bytes).digest('hex') !== bound.replace(/^sha256:/, '')
        ) {
          throw new VerificationError('bad_input', `${files.hiddenDetail} is not the age-encrypted hidden detail this receipt binds; refusing to upload it under ${name}`);
        }
        await copyFile(files.hiddenDetail, join(staging, HIDDEN_DETAIL_FILE));
        staged.push(join(staging, HIDDEN_DETAIL_FILE));
      }
      const result = await this.client.uploadArtifact(name, staged, staging, this.options.retentionDays !== undefined ? { retentionDays: this.options.retentionDays } : {});
      if (result.id === undefined) throw new InfrastructureError(`uploading artifact ${name} returned no artifact id`);
      // The upload reports bare hex; listings carry sha256:<hex>. Return the listing's form.
      const digest = result.digest === undefined ? undefined : result.digest.startsWith('sha256:') ? result.digest : `sha256:${result.digest}`;
      return { id: result.id, name, ...(digest !== undefined ? { digest } : {}) };
    } catch (error) {
      if (isOurs(error)) throw error;
      throw new InfrastructureError(`could not upload artifact ${name}: ${describe(error)}`, { cause: error });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  async download(runId: number, name?: string): Promise<{ receiptPath: string; artifactName: string; bundlePath?: string }> {
    const token = this.options.token;
    if (token === undefined || token === '') throw new ConfigurationError("github-token is empty; downloading a run's receipt artifact needs a token with actions: read");
    const { owner, repo } = splitRepository(this.options.repository);
    const findBy: NonNullable<FindOptions['findBy']> = { token, workflowRunId: runId, repositoryOwner: owner, repositoryName: repo };

    let listed: Artifact[];
    try {
      listed = (await this.client.listArtifacts({ findBy })).artifacts;
    } catch (error) {
      throw new InfrastructureError(`could not list the artifacts of workflow run ${runId} in ${owner}/${repo}: ${describe(error)}`, { cause: error });
    }
    const artifact = pick(listed, runId, name);
    // Fail closed: without the digest recorded at upload, the download cannot be checked.
    if (artifact.digest === undefined || !DIGEST_PATTERN.test(artifact.digest)) {
      throw new VerificationError('bad_input', `artifact ${artifact.name} of run ${runId} is listed without a sha256 digest, so its download cannot be verified`);
    }

    const folder = await mkdtemp(join(this.tempRoot(), 'patchproof-receipt-'));
    try {
      let mismatch: boolean | undefined;
      try {
        mismatch = (await this.client.downloadArtifact(artifact.id, { path: folder, findBy, expectedHash: artifact.digest })).digestMismatch;
      } catch (error) {
        throw new InfrastructureError(`could not download artifact ${artifact.name} (id ${artifact.id}) of run ${runId}: ${describe(error)}`, { cause: error });
      }
      // The toolkit reports a mismatch as a flag, after extracting: nothing it wrote may be used.
      if (mismatch !== false) {
        throw new VerificationError(
          'artifact_digest_mismatch',
          `artifact ${artifact.name} (id ${artifact.id}) of run ${runId} does not match the digest recorded at upload (${artifact.digest}): it changed after upload; refusing it`
        );
      }
      const receiptPath = join(folder, 'receipt.json');
      const info = await lstat(receiptPath).catch(() => undefined);
      if (info === undefined || !info.isFile()) {
        throw new ConfigurationError(`artifact ${artifact.name} of run ${runId} has no receipt.json at its root; is it a PatchProof receipt artifact?`);
      }
      const bundlePath = await this.bundleNextTo(folder, listed, artifact.name, runId, findBy);
      return { receiptPath, artifactName: artifact.name, ...(bundlePath !== undefined ? { bundlePath } : {}) };
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * The receipt's Sigstore bundle, placed next to receipt.json: from the receipt artifact itself,
   * else from its companion attestation artifact in the same run (checked against its recorded
   * digest like the receipt). Undefined when there is none: an unsigned receipt.
   */
  private async bundleNextTo(folder: string, listed: Artifact[], receiptArtifact: string, runId: number, findBy: NonNullable<FindOptions['findBy']>): Promise<string | undefined> {
    const target = join(folder, RECEIPT_BUNDLE_FILE);
    const isFile = async (path: string): Promise<boolean> => (await lstat(path).catch(() => undefined))?.isFile() === true;
    if (await isFile(target)) return target;
    const companion = newest(listed.filter((a) => a.name === attestationArtifactName(receiptArtifact)));
    if (companion === undefined) return undefined;
    if (companion.digest === undefined || !DIGEST_PATTERN.test(companion.digest)) {
      throw new VerificationError('bad_input', `artifact ${companion.name} of run ${runId} is listed without a sha256 digest, so its download cannot be verified`);
    }
    const extra = await mkdtemp(join(this.tempRoot(), 'patchproof-attestation-'));
    try {
      let mismatch: boolean | undefined;
      try {
        mismatch = (await this.client.downloadArtifact(companion.id, { path: extra, findBy, expectedHash: companion.digest })).digestMismatch;
      } catch (error) {
        throw new InfrastructureError(`could not download artifact ${companion.name} (id ${companion.id}) of run ${runId}: ${describe(error)}`, { cause: error });
      }
      if (mismatch !== false) {
        throw new VerificationError(
          'artifact_digest_mismatch',
          `artifact ${companion.name} (id ${companion.id}) of run ${runId} does not match the digest recorded at upload (${companion.digest}): it changed after upload; refusing it`
        );
      }
      if (!(await isFile(join(extra, RECEIPT_BUNDLE_FILE)))) {
        throw new ConfigurationError(`artifact ${companion.name} of run ${runId} has no ${RECEIPT_BUNDLE_FILE} at its root`);
      }
      await copyFile(join(extra, RECEIPT_BUNDLE_FILE), target);
      return target;
    } finally {
      await rm(extra, { recursive: true, force: true });
    }
  }

  /** The receipt_digest field of a receipt file, parsed as untrusted JSON. */
  private async digestInFile(path: string): Promise<string | undefined> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new ConfigurationError(`cannot read receipt ${path}: ${describe(error)}`);
    }
    const value = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)['receipt_digest'] : undefined;
    return typeof value === 'string' ? value : undefined;
  }
}

/**
 * Receipt artifacts through the real @actions/artifact client. Upload needs the step's runtime
 * environment (ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL); download lists and fetches through the
 * REST API with `token` (findBy), so it works for another run, and extracts under RUNNER_TEMP.
 */
export function createReceiptArtifacts(options: ReceiptArtifactsOptions): ReceiptArtifacts {
  return new ToolkitReceiptArtifacts(new DefaultArtifactClient(), options);
}
