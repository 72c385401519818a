import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { checkDiff } from '../core/diff-policy.js';
import { tamperWithheldLine, tamperWithholds } from '../core/tamper.js';
import { gateApproval } from '../core/proposal.js';
import type { Receipt } from '../core/receipt-schema.js';
import { renderReport } from '../core/report.js';
import { escapeMarkdown } from '../core/markdown.js';
import { ConfigurationError, InfrastructureError, VerificationError, isRefusal } from '../errors.js';
import { writeBytesAtomic, writeFileAtomic } from '../io/files.js';
import { canonicalJson } from '../core/hashing.js';
import type { HiddenDetail } from '../core/hidden-ids.js';
import { encryptTo, witnessKeyRecipient } from '../fetch/witness/sealed.js';
import { takeSnapshot } from '../inventory/snapshot.js';
import { createDockerRunner } from '../runners/docker-runner.js';
import { createLocalRunner } from '../runners/local-runner.js';
import type { Runner } from '../runners/runner.js';
import type { WitnessInput } from '../phases/validate.js';
import { pipeline } from '../phases/pipeline.js';
import { proposeOnBase } from '../phases/git-proposal.js';
import { parseClaimBytes, readClaimFile, type ClaimInput } from '../io/claim-file.js';
import type { AdapterName } from '../adapters/registry.js';
import { compareCiClaim, renderCiClaim } from '../core/ci-claim.js';
import { createClaimArtifacts, type ClaimArtifacts, type ClaimArtifactsOptions } from '../publish/claim-artifact.js';
import { createHeadChecksReader, type HeadChecksReader } from './head-checks.js';
import { TOOL_VERSION } from '../version.js';
import { resolveWitness, type ResolvedWitness } from '../fetch/witness/fetch.js';
import { createReceiptArtifacts, HIDDEN_DETAIL_FILE, type ReceiptArtifactsOptions } from '../publish/artifacts.js';
import { createShardArtifacts, validateShardArtifactName, type ShardArtifacts } from '../publish/shard-artifacts.js';
import { checkConclusion, renderCheck, renderRefusal, withPreamble } from '../publish/check-report.js';
import { checksClientFor, createChecksClient, type ChecksClientSource } from '../publish/checks-client.js';
import { candidateFromEvent, type Candidate } from '../inputs/event.js';
import { createGitSource, type GitSource, type GitSourceOptions } from '../fetch/git.js';
import { inside, readEventPayload, runShardKey, writeSummary, type ModeResult } from './mode.js';
import { eventLine, runName, type ProgressSink, type RunEvent } from '../core/progress.js';
import { ChecksPermissionError, type ReceiptArtifacts, type RenderedCheck, type StepOutcome } from '../publish/ports.js';
import type { ActionSettings, WitnessPackInput } from '../inputs/action-settings.js';
import { readRunnerContext, type RunnerContextWith } from '../inputs/runner-context.js';
import { createAppInstallationToken } from './app-token.js';
import { decideTrust, downgradedCheck, gateDowngrade, trustLine, unprotectedPackRef, type TrustDecision } from './trust.js';
import { receiptPredicate } from '../receipt/attestation.js';
import { baselineKeyFields, baselineRequest, lookUpBaselineIn, settleBaselineIn, type BaselineCache, type BaselineLookup } from '../phases/baseline-cache.js';
import { actionBaselineStore, type BaselineStoreFactory } from './baseline-store.js';

/**
 * Validate mode: the pull request's change, validated like `patchproof validate` does it, then
 * published as a receipt artifact, a check run on the head commit and the job summary.
 *
 * The candidate's commits are only fetched: its diff is computed by git from the object store and
 * the base tree is written from git's objects into a folder under RUNNER_TEMP, so nothing of the
 * candidate is checked out or run outside the runner that validate() drives.
 */

/** The side effects of validate mode, so tests can hand in their own. */
export interface ValidateModeDeps extends ChecksClientSource {
  env: NodeJS.ProcessEnv;
  gitSource(repoDir: string, options: GitSourceOptions): GitSource;
  receiptArtifacts(options: ReceiptArtifactsOptions): ReceiptArtifacts;
  createRunner(settings: ActionSettings): Promise<Runner>;
  /** A fresh unpredictable nonce per run, for the canaries. */
  nonce: () => string;
  /** Claim artifacts of the pull request's CI run (input claimed-artifact); unset: the real client. */
  claimArtifacts?(options: ClaimArtifactsOptions): ClaimArtifacts;
  /** The head commit's other check runs and statuses (input head-checks); unset: the real client. */
  headChecks?(token: string, baseUrl: string): HeadChecksReader;
  /** The baseline store (input baseline-cache); unset: the GitHub Actions cache through @actions/cache. */
  baselineStore?: BaselineStoreFactory;
  /** This run's shard artifacts (input shard); unset: the real @actions/artifact client. */
  shardArtifacts?(tempRoot: string): ShardArtifacts;
}

/** The runner's variables validate mode cannot run without (src/inputs/runner-context.ts reads them). */
const NEEDS = ['eventName', 'eventPath', 'repository', 'workspace', 'runnerTemp', 'actor', 'runId'] as const;
type RunnerContext = RunnerContextWith<(typeof NEEDS)[number]>;

function defaultDeps(): ValidateModeDeps {
  return {
    env: process.env,
    gitSource: createGitSource,
    checksClient: (token, baseUrl) => createChecksClient(token, { baseUrl }),
    receiptArtifacts: createReceiptArtifacts,
    createRunner: async (settings) => (settings.runner === 'local' ? createLocalRunner() : createDockerRunner({ image: settings.image as string })),
    nonce: () => randomBytes(16).toString('hex'),
    appToken: createAppInstallationToken,
    claimArtifacts: createClaimArtifacts,
    headChecks: createHeadChecksReader
  };
}

/** The claim file: inside the workspace, or under RUNNER_TEMP where artifact downloads go. */
function claimPath(context: RunnerContext, path: string): string {
  const full = resolve(context.workspace, path);
  const underTemp = relative(context.runnerTemp, full);
  if (!underTemp.startsWith('..') && !isAbsolute(underTemp)) return full;
  return inside(context.workspace, path, 'claimed');
}

/**
 * The agent's claim: a file (input claimed), or a file inside an artifact of the pull request's CI
 * run (claimed-artifact), which the action downloads itself. Read before any run; a bad one is refused.
 */
async function readClaim(
  settings: ActionSettings,
  deps: ValidateModeDeps,
  context: RunnerContext,
  candidate: Candidate,
  adapter: AdapterName,
  outcome: StepOutcome
): Promise<ClaimInput | undefined> {
  const artifact = settings.claimedArtifact;
  if (artifact === undefined) return settings.claimed !== undefined ? readClaimFile(claimPath(context, settings.claimed), 'claimed', adapter) : undefined;
  const source = (deps.claimArtifacts ?? createClaimArtifacts)({
    token: settings.token,
    repository: `${candidate.owner}/${candidate.repo}`,
    apiUrl: context.apiUrl,
    ...(/^[1-9][0-9]*$/.test(context.runId) ? { ownRunId: Number(context.runId) } : {}),
    tempRoot: context.runnerTemp
  });
  const fetched = await source.fetch({
    name: artifact.name,
    headSha: candidate.head,
    ...(artifact.runId !== undefined ? { runId: artifact.runId } : {}),
    ...(settings.claimed !== undefined ? { path: settings.claimed } : {})
  });
  const claim = parseClaimBytes(fetched.bytes, fetched.label, adapter);
  outcome.info(`claim: ${fetched.label}, ${claim.parsed.cases.length} tests, ${claim.digest}`);
  return claim;
}

/**
 * The head commit's other check runs and statuses beside the clean room's verdict, as a Markdown
 * section, or undefined when head-checks is off. A read that fails is a warning and a line saying so:
 * the CI's claim is shown, never needed.
 */
async function ciClaimSection(
  settings: ActionSettings,
  deps: ValidateModeDeps,
  context: RunnerContext,
  candidate: Candidate,
  receipt: Receipt,
  outcome: StepOutcome
): Promise<string | undefined> {
  if (settings.headChecks !== true) return undefined;
  try {
    const reader = (deps.headChecks ?? createHeadChecksReader)(settings.token, context.apiUrl);
    const checks = await reader.read(
      { owner: candidate.owner, repo: candidate.repo, sha: candidate.head },
      { name: settings.checkName, ...(settings.app !== undefined ? { appId: settings.app.appId } : {}) }
    );
    const comparison = compareCiClaim(checks, receipt.verdict);
    outcome.info(
      `the agent's CI on ${candidate.head}: ${comparison.said} (${checks.length} check runs and statuses)${comparison.finding !== undefined ? `; ${comparison.finding}` : ''}`
    );
    return renderCiClaim(comparison, receipt.verdict);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    outcome.warning(`head-checks: ${why}`);
    return `### 智能体 CI 的声明 / What the agent's CI said on this commit\n\n未能读取 / could not be read: ${escapeMarkdown(why, 500)}`;
  }
}

/**
 * The witness pack, digest-verified. A `ref:` pack is written from a trusted commit's tree: never
 * the pull request's head nor a commit holding it, and never a `refs/pull/` ref, which the
 * candidate's author controls.
 */
async function openWitness(
  pack: WitnessPackInput,
  digest: string,
  git: GitSource,
  context: RunnerContext,
  candidate: Candidate,
  payload: unknown,
  repoDir: string,
  witnessKey: string | undefined
): Promise<WitnessInput & { dispose(): Promise<void> }> {
  const tempDir = context.runnerTemp;
  const keyed = witnessKey !== undefined ? { witnessKey } : {};
  const described = (resolved: ResolvedWitness, location: string, repoPath?: string): WitnessInput & { dispose(): Promise<void> } => ({
    dir: resolved.dir,
    digest: resolved.digest,
    manifest: resolved.manifest,
    ...(resolved.hiddenOracle !== undefined ? { hiddenOracle: resolved.hiddenOracle } : {}),
    source: { kind: resolved.source.kind, location },
    ...(repoPath !== undefined ? { repoPath } : {}),
    ...keyed,
    dispose: () => resolved.dispose()
  });
  switch (pack.kind) {
    case 'url':
      return described(await resolveWitness(pack.url, digest, { tempDir, ...keyed }), pack.url);
    case 'path': {
      const full = inside(context.workspace, pack.path, 'witness-pack');
      const inRepo = relative(repoDir, full);
      const repoPath = inRepo.startsWith('..') || isAbsolute(inRepo) ? undefined : inRepo.split(sep).join('/');
      return described(await resolveWitness(full, digest, { tempDir, ...keyed }), pack.path, repoPath);
    }
    case 'ref': {
      if (pack.ref.startsWith('refs/pull/')) {
        throw new ConfigurationError(`witness-pack ref '${pack.ref}' belongs to a pull request; read the pack from a trusted branch or tag, e.g. ref:refs/heads/main:${pack.path}`);
      }
      const unprotected = unprotectedPackRef(pack.ref, payload);
      if (unprotected !== undefined) throw new ConfigurationError(unprotected);
      const commit = await git.resolveCommit(pack.ref);
      if (commit === candidate.head || (await git.isAncestor(candidate.head, commit))) {
        throw new ConfigurationError(
          `witness-pack ref '${pack.ref}' is the pull request's head ${candidate.head} or contains it; the grader must not come from the candidate: use the base branch`
        );
      }
      const folder = await mkdtemp(join(tempDir, 'patchproof-ref-'));
      try {
        await git.writeTree(`${commit}:${pack.path}`, folder);
        return described(await resolveWitness(folder, digest, { tempDir, ...keyed }), `ref:${pack.ref}:${pack.path} (${commit})`, pack.path);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    }
  }
}

/** What validation produced: the sealed receipt and where it was written. */
interface Validated {
  receipt: Receipt;
  receiptPath: string;
  reportPath: string;
  /** The maintainers' hidden detail, encrypted to the witness key (a sealed pack's run only). */
  hiddenDetailPath?: string;
  /** The receipt failed its own verification: never trusted as a pass. */
  integrityErrors: string[];
}

async function validateCandidate(
  settings: ActionSettings,
  outcome: StepOutcome,
  deps: ValidateModeDeps,
  context: RunnerContext,
  candidate: Candidate,
  payload: unknown,
  store: BaselineCache | undefined
): Promise<Validated> {
  if (settings.witness === undefined) throw new ConfigurationError('witness-pack and witness-digest are required in validate mode');
  const shard = settings.validateShards?.shard;
  const repoDir = inside(context.workspace, settings.repositoryPath, 'repository-path');
  const git = deps.gitSource(repoDir, { token: settings.token, serverUrl: context.serverUrl });
  await git.fetchCommits(candidate.base, candidate.head, candidate.pullNumber);
  const witness = await openWitness(settings.witness.pack, settings.witness.digest, git, context, candidate, payload, repoDir, settings.witnessKey);
  let work: string | undefined;
  try {
    const manifest = witness.manifest;
    const limits = {
      timeoutMs: manifest.limits.timeout_seconds * 1000,
      outputLimitBytes: manifest.limits.output_limit_bytes,
      diff: { maxBytes: manifest.limits.diff_max_bytes, maxFiles: manifest.limits.diff_max_files }
    };
    // The agent's claim is read before any run; a malformed one is refused like any bad input.
    const claim = await readClaim(settings, deps, context, candidate, manifest.adapter, outcome);
    const diff = await git.diff(candidate.base, candidate.head, limits.diff.maxBytes);
    // Refused before anything is written: nobody should be asked to approve a diff that breaks policy.
    checkDiff(diff, limits.diff);
    work = await mkdtemp(join(context.runnerTemp, 'patchproof-base-'));
    const { proposal, baseDir, snapshot } = await proposeOnBase(git, candidate.base, diff, work, TOOL_VERSION);
    outcome.info(`proposal_hash: ${proposal.proposal_hash} (base ${candidate.base}, head ${candidate.head}, base snapshot ${snapshot.digest})`);
    if (settings.approvedProposalHash !== undefined && settings.approvedProposalHash !== proposal.proposal_hash) {
      throw new VerificationError(
        'approval_mismatch',
        `approved-proposal-hash ${settings.approvedProposalHash} is not this pull request's proposal hash ${proposal.proposal_hash}: the diff or its base changed since it was approved; approve the new hash`
      );
    }
    // approved_by is declared metadata (who started the run), not an authenticated identity.
    const approval = gateApproval(proposal, context.runId, context.runAttempt, context.actor, TOOL_VERSION);
    const witnessKey = settings.witnessKey;
    const encryptHiddenDetail =
      witnessKey !== undefined ? async (detail: HiddenDetail) => encryptTo([await witnessKeyRecipient(witnessKey)], new TextEncoder().encode(canonicalJson(detail))) : undefined;
    let cached: BaselineLookup | undefined;
    const { receipt, hiddenDetail, text, check } = await pipeline({
      witness,
      createRunner: () => deps.createRunner(settings),
      request: async ({ adapter, runner }) => {
        // Input baseline-cache, in a trusted writer's job only (actionBaselineStore); a miss runs the base side.
        cached =
          store !== undefined
            ? await lookUpBaselineIn(
                store,
                baselineKeyFields({ baseSnapshot: snapshot.digest, witnessDigest: witness.digest, adapter: adapter.name, runner, limits }),
                (line) => outcome.info(line),
                {
                  judgedOnly: true
                }
              )
            : undefined;
        return {
          repoDir: baseDir,
          proposal,
          approval,
          limits,
          concurrency: 2,
          // shard: K/N: this job's share of the regression suite (as `validate --shard K/N`).
          ...(shard !== undefined ? { shard } : {}),
          ...baselineRequest(cached),
          ...(claim !== undefined ? { claim } : {}),
          ...(encryptHiddenDetail !== undefined ? { encryptHiddenDetail } : {}),
          progress: actionProgress(outcome)
        };
      },
      deps: { snapshot: (dir) => takeSnapshot(dir), now: () => new Date(), log: (line) => outcome.info(line), nonce: deps.nonce },
      settle: (made) => settleBaselineIn(cached, made, (line) => outcome.info(line), 'baseline-cache')
    });
    const out = join(context.runnerTemp, `patchproof-${receipt.receipt_digest.replace(/^sha256:/, '')}`);
    const receiptPath = join(out, 'receipt.json');
    const reportPath = join(out, 'report.md');
    await writeFileAtomic(receiptPath, text);
    await writeFileAtomic(reportPath, renderReport(receipt));
    // The maintainers' hidden detail, encrypted to the witness key: uploaded beside the receipt.
    // Its plaintext is never written, logged or uploaded.
    const hiddenDetailPath = hiddenDetail !== undefined ? join(out, HIDDEN_DETAIL_FILE) : undefined;
    if (hiddenDetail !== undefined && hiddenDetailPath !== undefined) await writeBytesAtomic(hiddenDetailPath, hiddenDetail);
    return { receipt, receiptPath, reportPath, ...(hiddenDetailPath !== undefined ? { hiddenDetailPath } : {}), integrityErrors: check.integrity_valid ? [] : check.errors };
  } finally {
    await Promise.all([witness.dispose(), ...(work !== undefined ? [rm(work, { recursive: true, force: true, maxRetries: 3 })] : [])]);
  }
}

/**
 * Post the check run on the head commit. A read-only token (a fork) is a warning, not a fault;
 * any other failure means nobody sees the result, so it is returned as an error message.
 */
async function publishCheck(
  settings: ActionSettings,
  outcome: StepOutcome,
  deps: ValidateModeDeps,
  context: RunnerContext,
  candidate: Candidate,
  conclusion: 'success' | 'failure',
  check: RenderedCheck,
  artifactName?: string
): Promise<string | undefined> {
  try {
    const client = checksClientFor(settings, context.apiUrl, deps);
    const id = await client.publish({ owner: candidate.owner, repo: candidate.repo, headSha: candidate.head, name: settings.checkName }, conclusion, check);
    outcome.info(`check run ${id} (${conclusion}) posted on ${candidate.head}`);
    return undefined;
  } catch (error) {
    if (error instanceof ChecksPermissionError) {
      outcome.warning(`PatchProof could not post the check run: ${error.message}${artifactName !== undefined ? ` This run's receipt artifact is ${artifactName}.` : ''}`);
      return undefined;
    }
    return `the check run could not be posted: ${error instanceof Error ? error.message : String(error)}`;
  }
}

// gateDowngrade lives in trust.ts (validate-merge decides a merged pass the same way); kept importable from here.
export { gateDowngrade } from './trust.js';

async function publishReceipt(
  settings: ActionSettings,
  outcome: StepOutcome,
  deps: ValidateModeDeps,
  context: RunnerContext,
  candidate: Candidate,
  validated: Validated,
  trust: TrustDecision
): Promise<ModeResult> {
  const { receipt, receiptPath, reportPath, hiddenDetailPath } = validated;
  let artifactId: number | undefined;
  let artifactName: string | undefined;
  try {
    const uploaded = await deps
      .receiptArtifacts({ repository: context.repository, tempRoot: context.runnerTemp })
      .upload(receipt, { receipt: receiptPath, report: reportPath, ...(hiddenDetailPath !== undefined ? { hiddenDetail: hiddenDetailPath } : {}) });
    artifactId = uploaded.id;
    artifactName = uploaded.name;
    outcome.info(`receipt uploaded as artifact ${uploaded.name} (id ${uploaded.id})`);
  } catch (error) {
    outcome.warning(`the receipt artifact could not be uploaded (${error instanceof Error ? error.message : String(error)}); the receipt is at ${receiptPath}`);
  }
  const trusted = validated.integrityErrors.length === 0;
  const downgrade = trusted ? gateDowngrade(receipt, trust) : undefined;
  const rendered = renderCheck(receipt);
  const ciClaim = await ciClaimSection(settings, deps, context, candidate, receipt, outcome);
  const stated = withPreamble(ciClaim !== undefined ? withPreamble(rendered, ciClaim) : rendered, trustLine(trust, context.eventName));
  const check = downgrade !== undefined ? downgradedCheck(stated, downgrade) : stated;
  const conclusion = trusted && downgrade === undefined ? checkConclusion(receipt.verdict) : 'failure';
  const publishError = await publishCheck(settings, outcome, deps, context, candidate, conclusion, check, artifactName);
  await writeSummary(outcome, check);
  const result = { proofGrade: trusted && receipt.proof_grade, receiptDigest: receipt.receipt_digest, receiptPath, ...(artifactId !== undefined ? { artifactId } : {}) };
  if (!trusted) {
    return { ...result, verdict: 'inconclusive', message: `the receipt failed its own verification: ${validated.integrityErrors.join('; ')}` };
  }
  const reasons = receipt.reasons.length > 0 ? ` (${receipt.reasons.join(', ')})` : '';
  const withheld = receipt.tamper_screen !== undefined && tamperWithholds(receipt.tamper_screen) ? ` (${tamperWithheldLine(receipt.tamper_screen)})` : '';
  const line = `PatchProof ${receipt.verdict}${reasons}; proof grade: ${receipt.proof_grade ? 'yes' : `no${withheld}`}; receipt ${receipt.receipt_digest}`;
  if (publishError !== undefined) return { ...result, verdict: 'inconclusive', message: `${line}, but ${publishError}` };
  if (downgrade !== undefined) return { ...result, proofGrade: false, verdict: 'failed', message: `${line}; posted failure (${downgrade.code}): ${downgrade.why}` };
  if (conclusion === 'success' && trust.trusted) {
    // The one receipt a workflow may attest: its check concluded success from a trusted workflow.
    const predicate = receiptPredicate(receipt, { name: settings.checkName, headSha: candidate.head, workflowRef: trust.workflowRef, event: context.eventName });
    const attestationPredicatePath = join(context.runnerTemp, `patchproof-predicate-${receipt.receipt_digest.slice('sha256:'.length)}.json`);
    await writeFileAtomic(attestationPredicatePath, `${JSON.stringify(predicate)}\n`);
    return { ...result, verdict: receipt.verdict, attestationPredicatePath, message: line };
  }
  return { ...result, verdict: receipt.verdict, message: line };
}

/**
 * Run validate mode. Refusals (bad input, a diff that breaks policy, a digest that does not match)
 * are published as a failed check run and return `failed`; infrastructure faults return
 * `inconclusive`. Errors before the candidate is known (no event, no commits) are thrown.
 */
export async function validateMode(settings: ActionSettings, outcome: StepOutcome, deps: ValidateModeDeps = defaultDeps()): Promise<ModeResult> {
  const context = readRunnerContext(deps.env, NEEDS);
  const payload = await readEventPayload(context.eventPath);
  const candidate = candidateFromEvent(context.eventName, payload, context.repository, settings);
  // The one place the trust decision is made; a pass in an untrusted workflow is posted as failure.
  const trust = decideTrust({ eventName: context.eventName, workflowRef: context.workflowRef, repository: context.repository, payload });
  if (trust.trusted) outcome.info(`trusted workflow: ${trust.workflowRef}`);
  else {
    outcome.warning(`PatchProof will not post success from this run: ${trust.why}`);
    if (settings.app !== undefined) {
      outcome.warning(
        'app-private-key reached a workflow the pull request can change, so the pull request can read it: keep the app secrets in an environment limited to the default branch'
      );
    }
  }
  const store = actionBaselineStore(settings, { eventName: context.eventName, ref: context.ref, payload, trust, runnerTemp: context.runnerTemp }, outcome, deps.baselineStore);
  let validated: Validated;
  try {
    validated = await validateCandidate(settings, outcome, deps, context, candidate, payload, store);
  } catch (error) {
    if (isRefusal(error) && settings.validateShards?.shard !== undefined) {
      // A shard job posts no check run: the merge job finds this shard missing and says so.
      const message = `refused (${error.code}): ${error.message}`;
      await writeSummary(outcome, withPreamble(renderRefusal(error.code, error.message), trustLine(trust, context.eventName)));
      return { verdict: 'failed', proofGrade: false, message: `${message}; nothing was uploaded and no check run was posted` };
    }
    if (isRefusal(error)) {
      const message = `refused (${error.code}): ${error.message}`;
      const check = withPreamble(renderRefusal(error.code, error.message), trustLine(trust, context.eventName));
      const publishError = await publishCheck(settings, outcome, deps, context, candidate, 'failure', check);
      await writeSummary(outcome, check);
      return { verdict: 'failed', proofGrade: false, message: publishError === undefined ? message : `${message} (and ${publishError})` };
    }
    if (error instanceof InfrastructureError) {
      // No check run: a failure of the runner or the network says nothing about the candidate.
      const message = `infrastructure error, nothing was judged: ${error.message}`;
      const check = { title: 'PatchProof: INCONCLUSIVE — infrastructure error', summary: `${message}\n\nRe-run the job; the candidate was not judged.`, annotations: [] };
      await writeSummary(outcome, withPreamble(check, trustLine(trust, context.eventName)));
      return { verdict: 'inconclusive', proofGrade: false, message };
    }
    throw error;
  }
  const shard = settings.validateShards?.shard;
  if (shard !== undefined) return uploadShard(settings, shard, outcome, deps, context, validated);
  return publishReceipt(settings, outcome, deps, context, candidate, validated, trust);
}

/**
 * A shard job's end: its receipt (and report, and sealed hidden detail) uploaded as this run's
 * artifact patchproof-validate-shard-K-of-N, tagged with the run's shard key (derived from the app's
 * private key, runShardKey). No check run: a share of the
 * suite is never a pass on its own; the validate-merge job verifies every shard and posts the merged
 * verdict. A receipt that fails its own verification is not uploaded (the merge then finds the shard
 * missing: never a pass). The step's verdict is `uploaded`, never `passed`.
 */
async function uploadShard(
  settings: Pick<ActionSettings, 'app'>,
  shard: { index: number; count: number },
  outcome: StepOutcome,
  deps: ValidateModeDeps,
  context: RunnerContext,
  validated: Validated
): Promise<ModeResult> {
  const { receipt, receiptPath } = validated;
  const label = `shard ${shard.index}/${shard.count}`;
  const result = { proofGrade: false, receiptDigest: receipt.receipt_digest, receiptPath };
  if (validated.integrityErrors.length > 0) {
    const message = `${label}: the receipt failed its own verification (${validated.integrityErrors.join('; ')}); nothing was uploaded`;
    await outcome.summary(`## PatchProof: INCONCLUSIVE — ${label}\n\n${message}`).catch(() => undefined);
    return { ...result, verdict: 'inconclusive', message };
  }
  const name = validateShardArtifactName(shard.index, shard.count);
  const id = await (deps.shardArtifacts ?? createShardArtifacts)(context.runnerTemp).upload(name, dirname(receiptPath), runShardKey(settings, context));
  const line = `${label}: this share ${receipt.verdict}${receipt.reasons.length > 0 ? ` (${receipt.reasons.join(', ')})` : ''}; receipt ${receipt.receipt_digest} uploaded as ${name} (id ${id}); only the merge job judges the candidate`;
  try {
    await outcome.summary(
      `## PatchProof: ${label} uploaded\n\n${line}\n\nA share of the suite is never a pass on its own: the validate-merge job verifies every shard and posts the check run.`
    );
  } catch (error) {
    outcome.warning(`the job summary could not be written: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { ...result, artifactId: id, verdict: 'uploaded', message: line };
}

/**
 * Progress in the action's log: each run, once it ended, as a collapsible group titled by its phase,
 * tree, attempt, outcome and duration, holding its start and end lines. One group per run, not per
 * phase: two runs (of different phases) go at once, and the log's groups cannot interleave.
 */
export function actionProgress(outcome: Pick<StepOutcome, 'info' | 'group'>): ProgressSink {
  const started = new Map<string, RunEvent>();
  return {
    run: (event) => {
      const key = runName(event);
      if (event.kind === 'start') {
        started.set(key, event);
        return;
      }
      const begin = started.get(key);
      started.delete(key);
      const lines = [...(begin !== undefined ? [eventLine(begin)] : []), eventLine(event)];
      const title = `${key}: ${event.outcome ?? 'done'} in ${((event.durationMs ?? 0) / 1000).toFixed(1)} s`;
      if (outcome.group !== undefined) outcome.group(title, lines);
      else for (const line of lines) outcome.info(line);
    }
  };
}
