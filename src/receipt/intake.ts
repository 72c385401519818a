import { readFile, stat } from 'node:fs/promises';
import { codeSpan } from '../core/markdown.js';
import { verifyReceiptText, type ReceiptCheck } from '../core/receipt.js';
import { receiptSchema, type Receipt } from '../core/receipt-schema.js';
import { ConfigurationError, VerificationError, isRefusal } from '../errors.js';
import { createReceiptArtifacts, type ReceiptArtifactsOptions } from '../publish/artifacts.js';
import { ANNOTATION_TITLE_LIMIT, CHECK_OUTPUT_LIMIT, clipToBytes, fitMarkdown } from '../publish/check-report.js';
import { createAppInstallationToken } from '../action/app-token.js';
import { createChecksClient, type ChecksClientSource } from '../publish/checks-client.js';
import { ChecksPermissionError, type CheckRunTarget, type ChecksClient, type ReceiptArtifacts, type RenderedCheck, type StepOutcome } from '../publish/ports.js';

/**
 * The receipt intake of reverify mode: download a run's receipt artifact, read it, verify it.
 *
 * The artifact is untrusted data from a run the pull request's author could influence: it is only
 * read and verified, never executed. A receipt that verifies proves only that it is intact, never
 * who produced it. (This file held publish mode, which posted a fork's receipt as the check run;
 * it was removed because a PR-side receipt is not evidence: see docs/security.md.)
 */

/** The side effects of the receipt intake, so tests can hand in their own. */
export interface ReceiptModeDeps extends ChecksClientSource {
  env: NodeJS.ProcessEnv;
  /** Receipt artifacts, downloading with `token` (actions: read) from any run of `repository`, into folders under `tempRoot`. */
  receiptArtifacts(options: ReceiptArtifactsOptions): ReceiptArtifacts;
}

export function defaultReceiptModeDeps(): ReceiptModeDeps {
  return {
    env: process.env,
    checksClient: (token, baseUrl) => createChecksClient(token, { baseUrl }),
    appToken: createAppInstallationToken,
    receiptArtifacts: createReceiptArtifacts
  };
}

/** receipt.json larger than this is not read: a real one is a few hundred kilobytes. */
const MAX_RECEIPT_BYTES = 64 * 1024 * 1024;

/** A downloaded receipt, verified; or why it was not accepted. */
export type ReceiptIntake =
  | { status: 'valid'; receipt: Receipt; check: ReceiptCheck; receiptPath: string; artifactName: string }
  | { status: 'rejected'; reason: RejectionReason; message: string; details: string[]; receiptPath?: string; artifactName?: string; receipt?: Receipt };

/** Why a receipt was not accepted. */
export type RejectionReason = 'no_receipt' | 'artifact_digest_mismatch' | 'receipt_invalid' | 'witness_mismatch' | 'not_bound' | 'replay_disagrees';

/**
 * Download a run's receipt artifact and verify it. Refusals of the download (a digest mismatch, no
 * such artifact) come back as `rejected`; infrastructure faults are thrown. With `witnessDigest`,
 * a receipt graded by any other pack is rejected.
 */
export async function takeReceipt(artifacts: ReceiptArtifacts, runId: number, artifactName: string | undefined, witnessDigest?: string): Promise<ReceiptIntake> {
  let downloaded: { receiptPath: string; artifactName: string };
  try {
    downloaded = await artifacts.download(runId, artifactName);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const reason = error instanceof VerificationError ? 'artifact_digest_mismatch' : 'no_receipt';
    return { status: 'rejected', reason, message: `the receipt artifact of run ${runId} was not accepted: ${error.message}`, details: [] };
  }
  const where = { receiptPath: downloaded.receiptPath, artifactName: downloaded.artifactName };
  const size = (await stat(downloaded.receiptPath)).size;
  if (size > MAX_RECEIPT_BYTES) {
    return {
      status: 'rejected',
      reason: 'receipt_invalid',
      message: `receipt.json of ${downloaded.artifactName} is ${size} bytes, more than any receipt PatchProof writes`,
      details: [],
      ...where
    };
  }
  const text = await readFile(downloaded.receiptPath, 'utf8');
  const check = verifyReceiptText(text);
  if (!check.integrity_valid) {
    return {
      status: 'rejected',
      reason: 'receipt_invalid',
      message: `the receipt in ${downloaded.artifactName} failed verification: ${check.errors[0] ?? 'invalid'}`,
      details: check.errors,
      ...where
    };
  }
  // Valid means the schema accepted it; parse again for the typed value.
  const receipt = receiptSchema.parse(JSON.parse(text));
  if (witnessDigest !== undefined && receipt.bindings.witness_digest !== witnessDigest) {
    return {
      status: 'rejected',
      reason: 'witness_mismatch',
      message: `the receipt was graded by witness pack ${receipt.bindings.witness_digest}, not the pinned ${witnessDigest}`,
      details: [],
      receipt,
      ...where
    };
  }
  return { status: 'valid', receipt, check, ...where };
}

const REJECTION_TEXT: Record<RejectionReason, { en: string; zh: string }> = {
  no_receipt: { en: 'no receipt artifact could be found', zh: '未找到回执工件' },
  artifact_digest_mismatch: { en: 'the artifact does not match its recorded digest', zh: '工件与其记录的摘要不符' },
  receipt_invalid: { en: 'the receipt failed offline verification', zh: '回执未通过离线核验' },
  witness_mismatch: { en: 'the receipt was graded by another witness pack', zh: '回执由其他见证包评判' },
  not_bound: { en: 'the receipt is not bound to this head', zh: '回执未绑定到此提交' },
  replay_disagrees: { en: 'replaying the validation gave another verdict', zh: '重放验证得出不同结论' }
};

/** A check run for a receipt that was not accepted: always published with conclusion `failure`. */
export function renderRejection(reason: RejectionReason, message: string, details: readonly string[], facts: readonly [string, string][] = []): RenderedCheck {
  const text = REJECTION_TEXT[reason];
  const summary = [
    '# PatchProof 回执核验 / Receipt verification',
    '',
    `**结论 / Verdict: 拒绝 / REJECTED** · ${text.zh} / ${text.en} (${codeSpan(reason, { max: 1000 })})`,
    '',
    `> ${codeSpan(message, { max: 1000 })}`,
    '',
    ...(facts.length > 0 ? ['| | |', '| --- | --- |', ...facts.map(([name, value]) => `| ${name} | ${value} |`), ''] : []),
    ...(details.length > 0 ? ['问题 / Problems:', '', ...details.map((line) => `- ${codeSpan(line, { max: 1000 })}`), ''] : [])
  ].join('\n');
  return {
    title: clipToBytes(`PatchProof: REJECTED — ${text.en}`, ANNOTATION_TITLE_LIMIT),
    summary: fitMarkdown(summary, CHECK_OUTPUT_LIMIT),
    annotations: []
  };
}

/** Post a check run; a read-only token is a configuration mistake here, said with the fix. */
export async function postCheck(client: ChecksClient, target: CheckRunTarget, conclusion: 'success' | 'failure', check: RenderedCheck, outcome: StepOutcome): Promise<number> {
  try {
    const id = await client.publish(target, conclusion, check);
    outcome.info(`check run ${id} '${target.name}' (${conclusion}) posted on ${target.headSha}`);
    return id;
  } catch (error) {
    if (error instanceof ChecksPermissionError) {
      throw new ConfigurationError(`the token cannot create check runs (${error.message}); give the job 'permissions: checks: write'`);
    }
    throw error;
  }
}
