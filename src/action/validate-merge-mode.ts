import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkDiff } from '../core/diff-policy.js';
import type { ExpectedShardBindings } from '../core/merged.js';
import { gateApproval } from '../core/proposal.js';
import { tamperWithholds } from '../core/tamper.js';
import { ConfigurationError, InfrastructureError, VerificationError, isRefusal } from '../errors.js';
import { createGitSource, type GitSource, type GitSourceOptions } from '../fetch/git.js';
import type { ActionSettings } from '../inputs/action-settings.js';
import { candidateFromEvent, type Candidate } from '../inputs/event.js';
import type { ValidateShardInputs } from '../inputs/validate-shard-settings.js';
import { proposeOnBase } from '../phases/git-proposal.js';
import { readBound } from '../phases/screen-pipeline.js';
import { mergeShardReceipts, writeMergedFolder, type ShardReceiptText, type VerifiedShards } from '../phases/suite-shards.js';
import { renderMergedCheck, renderRefusal, withPreamble } from '../publish/check-report.js';
import { checksClientFor, createChecksClient, type ChecksClientSource } from '../publish/checks-client.js';
import { ChecksPermissionError, type RenderedCheck, type StepOutcome } from '../publish/ports.js';
import { createShardArtifacts, validateShardArtifactName, type ShardArtifacts } from '../publish/shard-artifacts.js';
import { TOOL_VERSION } from '../version.js';
import { createAppInstallationToken } from './app-token.js';
import { inside, readEventPayload, runShardKey, writeSummary, type ModeResult } from './mode.js';
import { readRunnerContext, type RunnerContextWith } from '../inputs/runner-context.js';
import { decideTrust, downgradedCheck, gateDowngrade, trustLine, type TrustDecision } from './trust.js';

/**
 * validate-merge: the last job of a gate that validated one pull request's regression suite in N
 * shard jobs (`mode: validate` with `shard: K/N`, .github/workflows/patchproof-validate-shards.yml).
 *
 * It trusts no shard for what the candidate is: it computes the pull request's proposal itself, from
 * the event and git objects, exactly as validate mode does (src/phases/git-proposal.ts), and the
 * approval every job of this run attempt makes. It then downloads this run's N shard artifacts,
 * refuses any whose tag (made with the run attempt's shard key, derived from the GitHub App's private
 * key: src/core/shard-tag.ts) does not verify, verifies
 * every shard receipt, requires each to bind exactly that proposal, approval, base and pack, and the
 * set to be one validation (src/core/merged.ts), seals the merged receipt, uploads it, and posts the
 * one check run on the head commit with the merged verdict: success only for a merged pass with
 * proof grade from a trusted workflow (trust.ts), as validate mode decides it.
 *
 * A missing shard is `inconclusive` with no check run (like validate mode's infrastructure errors: a
 * shard that did not finish judged nothing); a refused shard, a shard of another candidate or a set
 * that is not one validation is a refusal: `failed`, posted as a failing check run.
 */

/** The side effects of validate-merge, so tests can hand in their own. */
export interface ValidateMergeModeDeps extends ChecksClientSource {
  env: NodeJS.ProcessEnv;
  gitSource(repoDir: string, options: GitSourceOptions): GitSource;
  shardArtifacts(tempRoot: string): ShardArtifacts;
}

export function validateMergeModeDeps(): ValidateMergeModeDeps {
  return {
    env: process.env,
    gitSource: createGitSource,
    checksClient: (token, baseUrl) => createChecksClient(token, { baseUrl }),
    appToken: createAppInstallationToken,
    shardArtifacts: createShardArtifacts
  };
}

/** The artifact the merged receipt and its shard receipts are uploaded as. */
export const MERGED_ARTIFACT = 'patchproof-validate-merged';
/**
 * The merge job reads the diff only to hash it (the shard jobs read it under the pack's
 * diff_max_bytes and refused a larger one); this bounds what it reads.
 */
const MERGE_DIFF_MAX_BYTES = 64 * 1024 * 1024;

/** The runner's variables validate-merge cannot run without (src/inputs/runner-context.ts reads them). */
const NEEDS = ['eventName', 'eventPath', 'repository', 'workspace', 'runnerTemp', 'actor', 'runId'] as const;
type MergeContext = RunnerContextWith<(typeof NEEDS)[number]>;

/** What this job computed itself: the proposal and approval the shards must bind. */
async function expectedBindings(
  settings: ActionSettings,
  inputs: ValidateShardInputs,
  outcome: StepOutcome,
  git: GitSource,
  candidate: Candidate,
  context: MergeContext,
  work: string
): Promise<ExpectedShardBindings> {
  await git.fetchCommits(candidate.base, candidate.head, candidate.pullNumber);
  const diff = await git.diff(candidate.base, candidate.head, MERGE_DIFF_MAX_BYTES);
  // The same policy refusal a shard job would have made, so a refused change is said as such.
  checkDiff(diff, { maxBytes: MERGE_DIFF_MAX_BYTES, maxFiles: Number.MAX_SAFE_INTEGER });
  const { proposal, snapshot } = await proposeOnBase(git, candidate.base, diff, work, TOOL_VERSION);
  outcome.info(`proposal_hash: ${proposal.proposal_hash} (base ${candidate.base}, head ${candidate.head}, base snapshot ${snapshot.digest})`);
  if (settings.approvedProposalHash !== undefined && settings.approvedProposalHash !== proposal.proposal_hash) {
    throw new VerificationError(
      'approval_mismatch',
      `approved-proposal-hash ${settings.approvedProposalHash} is not this pull request's proposal hash ${proposal.proposal_hash}: the diff or its base changed since it was approved; approve the new hash`
    );
  }
  const approval = gateApproval(proposal, context.runId, context.runAttempt, context.actor, TOOL_VERSION);
  return {
    proposal_hash: proposal.proposal_hash,
    diff_digest: proposal.diff_digest,
    base_snapshot: snapshot.digest,
    witness_digest: inputs.witnessDigest as string,
    approval_digest: approval.approval_digest
  };
}

/** This run's N shard artifacts, tag-verified with `key`; the receipts they hold, and the names of those missing. Refusals are thrown. */
async function downloadShards(inputs: ValidateShardInputs, key: string, artifacts: ShardArtifacts, folders: string[]): Promise<{ shards: ShardReceiptText[]; missing: string[] }> {
  const count = inputs.shards as number;
  const shards: ShardReceiptText[] = [];
  const missing: string[] = [];
  for (let index = 1; index <= count; index++) {
    const name = validateShardArtifactName(index, count);
    const folder = await artifacts.download(name, key);
    if (folder === undefined) {
      missing.push(name);
      continue;
    }
    folders.push(folder);
    const text = readBound(folder, 'receipt.json');
    if (text === undefined) throw new VerificationError('bad_input', `shard artifact ${name} holds no receipt.json`);
    shards.push({ label: name, text });
  }
  return { shards, missing };
}

/** The artifact name each receipt came under must be its own shard (K of N). */
function namedRightly(merged: VerifiedShards, shards: readonly ShardReceiptText[]): void {
  for (const [i, { receipt }] of merged.receipts.entries()) {
    const name = shards[i]?.label;
    const own = receipt.shard !== undefined ? validateShardArtifactName(receipt.shard.index, receipt.shard.count) : '(no shard record)';
    if (name !== own) throw new VerificationError('bad_input', `artifact ${name ?? '?'} holds the receipt of ${own}`);
  }
}

async function publishCheck(
  settings: ActionSettings,
  outcome: StepOutcome,
  deps: ValidateMergeModeDeps,
  context: MergeContext,
  candidate: Candidate,
  conclusion: 'success' | 'failure',
  check: RenderedCheck
): Promise<string | undefined> {
  try {
    const id = await checksClientFor(settings, context.apiUrl, deps).publish(
      { owner: candidate.owner, repo: candidate.repo, headSha: candidate.head, name: settings.checkName },
      conclusion,
      check
    );
    outcome.info(`check run ${id} (${conclusion}) posted on ${candidate.head}`);
    return undefined;
  } catch (error) {
    if (error instanceof ChecksPermissionError) {
      outcome.warning(`PatchProof could not post the check run: ${error.message}`);
      return undefined;
    }
    return `the check run could not be posted: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Run validate-merge. Errors before the candidate is known (no event, no commits) are thrown. */
export async function validateMergeMode(settings: ActionSettings, outcome: StepOutcome, deps: ValidateMergeModeDeps = validateMergeModeDeps()): Promise<ModeResult> {
  const inputs = settings.validateShards;
  if (inputs?.shards === undefined) throw new ConfigurationError('shards is required with mode validate-merge: give N, the number of validate shard jobs');
  const context = readRunnerContext(deps.env, NEEDS);
  const payload = await readEventPayload(context.eventPath);
  const candidate = candidateFromEvent(context.eventName, payload, context.repository, settings);
  const trust: TrustDecision = decideTrust({ eventName: context.eventName, workflowRef: context.workflowRef, repository: context.repository, payload });
  if (trust.trusted) outcome.info(`trusted workflow: ${trust.workflowRef}`);
  else outcome.warning(`PatchProof will not post success from this run: ${trust.why}`);
  const repoDir = inside(context.workspace, settings.repositoryPath, 'repository-path');
  const git = deps.gitSource(repoDir, { token: settings.token, serverUrl: context.serverUrl });
  const work = await mkdtemp(join(context.runnerTemp, 'patchproof-merge-'));
  const folders: string[] = [];
  const stated = (check: RenderedCheck): RenderedCheck => withPreamble(check, trustLine(trust, context.eventName));
  try {
    let merged: VerifiedShards;
    try {
      const expected = await expectedBindings(settings, inputs, outcome, git, candidate, context, work);
      const { shards, missing } = await downloadShards(inputs, runShardKey(settings, context), deps.shardArtifacts(context.runnerTemp), folders);
      if (missing.length > 0) {
        const message = `the shard artifact(s) ${missing.join(', ')} of this run are missing: their shares of the suite were not judged, so the candidate was not; see those shard jobs, then re-run the workflow`;
        await writeSummary(outcome, stated({ title: 'PatchProof: INCONCLUSIVE — shard missing', summary: `${message}\n\nNo check run was posted.`, annotations: [] }));
        return { verdict: 'inconclusive', proofGrade: false, message: `validate-merge: ${message}; no check run was posted` };
      }
      merged = mergeShardReceipts(shards, TOOL_VERSION, expected);
      namedRightly(merged, shards);
    } catch (error) {
      if (isRefusal(error)) {
        const message = `refused (${error.code}): ${error.message}`;
        const check = stated(renderRefusal(error.code, error.message));
        const publishError = await publishCheck(settings, outcome, deps, context, candidate, 'failure', check);
        await writeSummary(outcome, check);
        return { verdict: 'failed', proofGrade: false, message: `validate-merge ${message}${publishError !== undefined ? ` (and ${publishError})` : ''}` };
      }
      if (error instanceof InfrastructureError) {
        const message = `infrastructure error, nothing was judged: ${error.message}`;
        await writeSummary(
          outcome,
          stated({ title: 'PatchProof: INCONCLUSIVE — infrastructure error', summary: `${message}\n\nRe-run the workflow; the candidate was not judged.`, annotations: [] })
        );
        return { verdict: 'inconclusive', proofGrade: false, message };
      }
      throw error;
    }
    return await publishMerged(settings, outcome, deps, context, candidate, trust, merged, stated);
  } finally {
    await Promise.all([work, ...folders].map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })));
  }
}

async function publishMerged(
  settings: ActionSettings,
  outcome: StepOutcome,
  deps: ValidateMergeModeDeps,
  context: MergeContext,
  candidate: Candidate,
  trust: TrustDecision,
  merged: VerifiedShards,
  stated: (check: RenderedCheck) => RenderedCheck
): Promise<ModeResult> {
  // Kept after the step (receipt-path): merged.json and shards/<K>/receipt.json, under RUNNER_TEMP.
  const out = await mkdtemp(join(context.runnerTemp, 'patchproof-merged-'));
  const check = await writeMergedFolder(out, merged);
  const receiptPath = join(out, 'merged.json');
  const digest = check.merged_digest ?? undefined;
  if (!check.integrity_valid) {
    const message = `the merged receipt failed its own verification: ${check.errors.join('; ')}`;
    await writeSummary(outcome, stated({ title: 'PatchProof: INCONCLUSIVE — merged receipt broken', summary: message, annotations: [] }));
    return { verdict: 'inconclusive', proofGrade: false, receiptPath, ...(digest !== undefined ? { receiptDigest: digest } : {}), message };
  }
  const body = merged.body;
  let artifactId: number | undefined;
  try {
    artifactId = await deps.shardArtifacts(context.runnerTemp).upload(MERGED_ARTIFACT, out, runShardKey(settings, context));
    outcome.info(`merged receipt uploaded as artifact ${MERGED_ARTIFACT} (id ${artifactId})`);
  } catch (error) {
    outcome.warning(`the merged receipt artifact could not be uploaded (${error instanceof Error ? error.message : String(error)}); it is at ${receiptPath}`);
  }
  // Every shard screened the same diff: a shard's screen that withholds proof grade says why the merged pass lacks it.
  const tamperScreen = merged.receipts.map(({ receipt }) => receipt.tamper_screen).find((screen) => screen !== undefined && tamperWithholds(screen));
  const downgrade = gateDowngrade({ ...body, ...(tamperScreen !== undefined ? { tamper_screen: tamperScreen } : {}) }, trust);
  const rendered = stated(
    renderMergedCheck(
      { ...body, merged_digest: check.merged_digest as string },
      merged.receipts.map(({ receipt }) => ({ index: receipt.shard!.index, receipt }))
    )
  );
  const shown = downgrade !== undefined ? downgradedCheck(rendered, downgrade) : rendered;
  const conclusion = body.verdict === 'passed' && downgrade === undefined ? 'success' : 'failure';
  const publishError = await publishCheck(settings, outcome, deps, context, candidate, conclusion, shown);
  await writeSummary(outcome, shown);
  const result = { proofGrade: body.proof_grade, receiptDigest: check.merged_digest as string, receiptPath, ...(artifactId !== undefined ? { artifactId } : {}) };
  const reasons = body.reasons.length > 0 ? ` (${body.reasons.join(', ')})` : '';
  const line = `PatchProof ${body.verdict}${reasons} over ${body.count} shards; proof grade: ${body.proof_grade ? 'yes' : 'no'}; merged receipt ${check.merged_digest as string}`;
  if (publishError !== undefined) return { ...result, verdict: 'inconclusive', message: `${line}, but ${publishError}` };
  if (downgrade !== undefined) return { ...result, proofGrade: false, verdict: 'failed', message: `${line}; posted failure (${downgrade.code}): ${downgrade.why}` };
  return { ...result, verdict: body.verdict, message: line };
}
