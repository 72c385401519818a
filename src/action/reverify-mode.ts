import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { diffDigest } from '../core/proposal.js';
import type { Receipt } from '../core/receipt-schema.js';
import type { Snapshot } from '../core/snapshot-record.js';
import { codeSpan } from '../core/markdown.js';
import { ConfigurationError, InfrastructureError, PolicyError, VerificationError } from '../errors.js';
import { takeSnapshot } from '../io/snapshot.js';
import { RECEIPT_BUNDLE_FILE, verifyReceiptAttestation, type SignerPolicy, type VerifiedAttestation } from '../receipt/attestation.js';
import { CHECK_OUTPUT_LIMIT, fitMarkdown, renderCheck, withPreamble } from './check-report.js';
import { checksClientFor } from './checks-client.js';
import { candidateFromEvent, type Candidate } from './event.js';
import { createGitSource, type GitSource, type GitSourceOptions } from '../io/git.js';
import { inside, readEventPayload, requiredEnv, writeSummary, type ModeResult } from './mode.js';
import type { CheckRunTarget, RenderedCheck, StepOutcome } from './ports.js';
import { defaultReceiptModeDeps, postCheck, renderRejection, takeReceipt, type ReceiptModeDeps } from './receipt-intake.js';
import type { ActionSettings } from './settings.js';
import { decideTrust, trustLine, type TrustDecision } from './trust.js';

/**
 * Reverify mode: take the receipt artifact of an earlier run and decide whether it still speaks for
 * this head. It must be intact (verify-receipt), and bound: its diff digest equals the digest of the
 * diff base...head computed now, exactly as validate mode computes it, and its base snapshot equals
 * a fresh snapshot of the base tree, written from git's objects as validate mode writes it. With
 * replay, validate mode runs again and the verdicts must agree. The check run goes on the head.
 *
 * A receipt that verifies proves only that it is intact, never who made it: anyone can seal a
 * self-consistent receipt (the code is open). So success needs, besides a bound, passed, proof-grade
 * receipt, one piece of trusted evidence: a replay in this job that itself passed with proof grade,
 * or a Sigstore attestation of the receipt's exact bytes by the pinned signer workflow (the gate),
 * run for this repository from its default branch by a trusted event.
 */

/** Events whose runs of the signer workflow are trusted: the pull request controls neither the file nor its inputs. */
export const TRUSTED_SIGNING_TRIGGERS = ['pull_request_target', 'push', 'workflow_dispatch'] as const;

/** The side effects of reverify mode, so tests can hand in their own. */
export interface ReverifyModeDeps extends ReceiptModeDeps {
  gitSource(repoDir: string, options: GitSourceOptions): GitSource;
  snapshot(dir: string): Promise<Snapshot>;
  /** Validate the pull request again (validate mode). */
  replay(settings: ActionSettings, outcome: StepOutcome): Promise<ModeResult>;
}

/** Reverify mode's real side effects; `replay` is validate mode, handed in by main.ts (a mode never imports another). */
export function reverifyModeDeps(replay: ReverifyModeDeps['replay']): ReverifyModeDeps {
  return { ...defaultReceiptModeDeps(), gitSource: createGitSource, snapshot: (dir) => takeSnapshot(dir), replay };
}

/** One binding of the receipt, as recorded and as found now. */
export interface BindingCheck {
  name: 'diff_digest' | 'base_snapshot';
  recorded: string;
  current: string;
}

/**
 * The receipt's bindings against the pull request as it is now. The diff is read with the receipt's
 * own size limit: a diff over it, or not text, cannot be the one the receipt was made for.
 */
async function currentBindings(receipt: Receipt, candidate: Candidate, git: GitSource, deps: ReverifyModeDeps, runnerTemp: string): Promise<BindingCheck[]> {
  await git.fetchCommits(candidate.base, candidate.head, candidate.pullNumber);
  let currentDiff: string;
  try {
    currentDiff = diffDigest(await git.diff(candidate.base, candidate.head, receipt.limits.diff_max_bytes));
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    currentDiff = `(no digest: ${error.message})`;
  }
  const work = await mkdtemp(join(runnerTemp, 'patchproof-reverify-'));
  try {
    const baseDir = join(work, 'base');
    const written = await git.writeTree(candidate.base, baseDir);
    const snapshot = await deps.snapshot(baseDir);
    if (snapshot.entries.length !== written.length) {
      throw new InfrastructureError(`the base tree written to ${baseDir} snapshots as ${snapshot.entries.length} files, not ${written.length}; RUNNER_TEMP must not be inside a git work tree`);
    }
    return [
      { name: 'diff_digest', recorded: receipt.bindings.diff_digest, current: currentDiff },
      { name: 'base_snapshot', recorded: receipt.bindings.base_snapshot, current: snapshot.digest }
    ];
  } finally {
    await rm(work, { recursive: true, force: true, maxRetries: 3 });
  }
}

const isMapping = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The receipt's attestation (receipt.sigstore.json next to receipt.json), checked against the
 * pinned signer workflow and the trusted root. Never throws for a bad bundle: a refused or missing
 * attestation is a finding, and the receipt then needs a proof-grade replay.
 */
async function checkAttestation(receiptPath: string | undefined, settings: ActionSettings, candidate: Candidate, payload: unknown): Promise<AttestationFinding> {
  if (receiptPath === undefined) return { status: 'absent', message: 'no receipt file' };
  const bundleText = await readFile(join(dirname(receiptPath), RECEIPT_BUNDLE_FILE), 'utf8').catch(() => undefined);
  if (bundleText === undefined) return { status: 'absent', message: `the artifact carries no ${RECEIPT_BUNDLE_FILE}` };
  if (settings.trustedRoot === undefined) return { status: 'unchecked', message: 'no trusted-root input: attestations cannot be checked' };
  const repository = isMapping(payload) && isMapping(payload['repository']) ? payload['repository'] : {};
  const defaultBranch = repository['default_branch'];
  if (typeof defaultBranch !== 'string' || defaultBranch === '') return { status: 'unchecked', message: 'the event payload names no repository.default_branch' };
  const defaultRef = `refs/heads/${defaultBranch}`;
  const signerWorkflow = settings.signerWorkflow ?? `${candidate.owner}/${candidate.repo}/.github/workflows/patchproof.yml`;
  const policy: SignerPolicy = {
    signerWorkflow,
    // The default branch is a ref of this repository: a signer in another repository counts only pinned by SHA.
    signerRefs: signerWorkflow.startsWith(`${candidate.owner}/${candidate.repo}/`) ? [defaultRef] : [],
    repository: `${candidate.owner}/${candidate.repo}`,
    sourceRefs: [defaultRef],
    triggers: TRUSTED_SIGNING_TRIGGERS
  };
  const roots = await readTrustedRoots(settings.trustedRoot);
  let bundle: unknown;
  try {
    bundle = JSON.parse(bundleText);
  } catch {
    return { status: 'refused', message: `${RECEIPT_BUNDLE_FILE} is not JSON` };
  }
  const bytes = await readFile(receiptPath);
  let refusal = '';
  // Each root is a complete set of trust anchors (gh attestation trusted-root writes one per line:
  // Sigstore's public-good and GitHub's own); the attestation must verify under one of them.
  for (const root of roots) {
    // A root without CT logs (a private Sigstore) cannot vouch for SCTs; one that lists them requires one.
    const ctlogs = isMapping(root) && Array.isArray(root['ctlogs']) ? root['ctlogs'].length : 0;
    try {
      const signer = verifyReceiptAttestation(bytes, bundle, policy, { trustedRoot: root, thresholds: { ctlog: ctlogs > 0 ? 1 : 0 } });
      return { status: 'verified', signer };
    } catch (error) {
      if (error instanceof VerificationError && error.code === 'bad_input') throw new ConfigurationError(error.message);
      if (!(error instanceof VerificationError)) throw error;
      refusal = error.message;
    }
  }
  return { status: 'refused', message: refusal };
}

/** The trusted roots in `path`: one JSON document, or JSON lines (the form of `gh attestation trusted-root`). */
async function readTrustedRoots(path: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`trusted-root '${path}' cannot be read: ${(error as Error).message}`);
  }
  try {
    return [JSON.parse(text) as unknown];
  } catch {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    try {
      const roots = lines.map((line) => JSON.parse(line) as unknown);
      if (roots.length > 0) return roots;
    } catch {
      // Reported below.
    }
    throw new ConfigurationError(`trusted-root '${path}' is neither a JSON trusted root nor JSON lines of them`);
  }
}

/** What re-verification found about a receipt that passed verification. */
interface Findings {
  receipt: Receipt;
  runId: number;
  artifactName: string;
  candidate: Candidate;
  bindings: BindingCheck[];
  /** Absent when replay was not asked for, or was skipped because the receipt is not bound. */
  replay?: { verdict: ModeResult['verdict']; proofGrade: boolean; message: string };
  attestation: AttestationFinding;
}

/** What was found about the receipt's signature. */
export type AttestationFinding =
  | { status: 'verified'; signer: VerifiedAttestation }
  | { status: 'absent' | 'unchecked' | 'refused'; message: string };

/** The trust decision: bound, passed, proof grade, and a proof-grade replay or a trusted signature. */
function evidenceOf(findings: Findings): { accepted: boolean; why: string } {
  const { receipt } = findings;
  if (!isBound(findings)) return { accepted: false, why: 'not bound' };
  if (!replayAgrees(findings)) return { accepted: false, why: 'replay disagrees' };
  if (receipt.verdict !== 'passed') return { accepted: false, why: `receipt ${receipt.verdict}` };
  if (!receipt.proof_grade) return { accepted: false, why: 'receipt not proof grade' };
  const replayProves = findings.replay !== undefined && findings.replay.verdict === 'passed' && findings.replay.proofGrade;
  if (replayProves) return { accepted: true, why: 'proof-grade replay' };
  if (findings.attestation.status === 'verified') return { accepted: true, why: 'trusted attestation' };
  return { accepted: false, why: 'no trusted evidence' };
}

const isBound = (findings: Findings): boolean => findings.bindings.every((b) => b.recorded === b.current);
const replayAgrees = (findings: Findings): boolean => findings.replay === undefined || findings.replay.verdict === findings.receipt.verdict;

/** The check run for a receipt that passed verification: the re-verification table, then the receipt's own rendering. */
function renderFindings(findings: Findings, replayAsked: boolean, trust: TrustDecision): { conclusion: 'success' | 'failure'; check: RenderedCheck; message: string } {
  const { receipt, candidate } = findings;
  const bound = isBound(findings);
  const agrees = replayAgrees(findings);
  const evidence = evidenceOf(findings);
  // Accepted evidence is posted as success only by a workflow the pull request cannot have changed.
  const untrustedRun = evidence.accepted && !trust.trusted;
  const success = evidence.accepted && trust.trusted;
  const differing = findings.bindings.filter((b) => b.recorded !== b.current).map((b) => b.name);
  const unproven = bound && agrees && receipt.verdict === 'passed' && !success;
  const title = untrustedRun
    ? 'PatchProof: FAILED — untrusted_workflow: this run cannot vouch for the receipt'
    : !bound
    ? `PatchProof: receipt not bound to this head — ${differing.join(', ')} differs`
    : !agrees
      ? `PatchProof: replay disagrees — receipt ${receipt.verdict}, replay ${findings.replay?.verdict ?? ''}`
      : unproven && !receipt.proof_grade
        ? 'PatchProof: receipt not proof grade — a pass without the isolated runner is never success'
        : unproven
          ? 'PatchProof: receipt not proven — no trusted attestation and no proof-grade replay'
          : `PatchProof re-verified: ${receipt.verdict.toUpperCase()} — receipt intact and bound to this head${success ? ` (${evidence.why})` : ''}`;
  const mark = (ok: boolean): string => (ok ? '✅' : '❌');
  const replayRow = !replayAsked
    ? 'not asked / 未要求'
    : findings.replay === undefined
      ? 'skipped: not bound / 未绑定，已跳过'
      : `${mark(agrees)} replay ${codeSpan(findings.replay.verdict, { max: 1000 })}${findings.replay.proofGrade ? ' (proof grade)' : ' (not proof grade)'}, receipt ${codeSpan(receipt.verdict, { max: 1000 })}`;
  const att = findings.attestation;
  const attestationRow =
    att.status === 'verified'
      ? `✅ ${codeSpan(att.signer.signerUri, { max: 1000 })} (${codeSpan(att.signer.trigger, { max: 1000 })} on ${codeSpan(att.signer.sourceRef, { max: 1000 })})`
      : att.status === 'absent'
        ? `none / 无: ${codeSpan(att.message, { max: 1000 })}`
        : `❌ ${codeSpan(att.message, { max: 1000 })}`;
  const rows: [string, string][] = [
    ['workflow run / 工作流运行', `${findings.runId} (${codeSpan(findings.artifactName, { max: 1000 })})`],
    ['base / head', `${codeSpan(candidate.base, { max: 1000 })} / ${codeSpan(candidate.head, { max: 1000 })}`],
    ['integrity / 完整性', `✅ verify-receipt, ${codeSpan(receipt.receipt_digest, { max: 1000 })}`],
    ...findings.bindings.map((b): [string, string] => [
      b.name === 'diff_digest' ? 'diff base...head / 差异' : 'base snapshot / 基线快照',
      b.recorded === b.current ? `✅ ${codeSpan(b.current, { max: 1000 })}` : `❌ receipt ${codeSpan(b.recorded, { max: 1000 })}, now ${codeSpan(b.current, { max: 1000 })}`
    ]),
    ['witness pack / 见证包', codeSpan(receipt.bindings.witness_digest, { max: 1000 })],
    ['proof grade / 证明级', receipt.proof_grade ? '✅' : '❌'],
    ['replay / 重放', replayRow],
    ['attestation / 签名证明', attestationRow]
  ];
  const base = renderCheck(receipt);
  const header = [
    '# PatchProof 回执复核 / Receipt re-verification',
    '',
    `**${success ? '通过 / PASSED' : '失败 / FAILED'}** — ${title}`,
    '',
    '| | |',
    '| --- | --- |',
    ...rows.map(([name, value]) => `| ${name} | ${value} |`),
    '',
    '---',
    ''
  ].join('\n');
  const check: RenderedCheck = {
    title,
    summary: fitMarkdown(`${header}\n${base.summary}`, CHECK_OUTPUT_LIMIT),
    ...(base.text !== undefined ? { text: base.text } : {}),
    // The receipt's findings point into its own diff: shown on this head only when it is that diff.
    annotations: bound ? base.annotations : []
  };
  const reasons = receipt.reasons.length > 0 ? ` (${receipt.reasons.join(', ')})` : '';
  const message = untrustedRun
    ? `the receipt of run ${findings.runId} is bound, intact and vouched for (${evidence.why}), but this run cannot post success: ${trust.trusted ? '' : trust.why}`
    : !bound
    ? `the receipt of run ${findings.runId} is not bound to this head: ${differing.join(', ')} differs`
    : !agrees
      ? `replay gave ${findings.replay?.verdict ?? ''} but the receipt says ${receipt.verdict}: ${findings.replay?.message ?? ''}`
      : unproven && !receipt.proof_grade
        ? `the receipt of run ${findings.runId} is not proof grade: a pass without the isolated runner is never success`
        : unproven
          ? `the receipt of run ${findings.runId} is bound and intact, but nothing trusted vouches for it: no valid attestation by the signer workflow (${att.status === 'verified' ? '' : att.message}) and no proof-grade replay; a receipt that verifies proves only that it is intact`
          : `receipt of run ${findings.runId} re-verified on ${candidate.head}: PatchProof ${receipt.verdict}${reasons}, receipt ${receipt.receipt_digest}`;
  return { conclusion: success ? 'success' : 'failure', check, message };
}

/**
 * Run reverify mode. A receipt that is not accepted (digest mismatch, invalid, another witness pack)
 * or not bound is published as a failed check run and returns `failed`; infrastructure faults return
 * `inconclusive`. Errors before the head is known (no event, no commits) are thrown.
 */
export async function reverifyMode(settings: ActionSettings, outcome: StepOutcome, deps: ReverifyModeDeps): Promise<ModeResult> {
  const env = deps.env;
  const candidate = candidateFromEvent(requiredEnv(env, 'GITHUB_EVENT_NAME'), await readEventPayload(requiredEnv(env, 'GITHUB_EVENT_PATH')), env['GITHUB_REPOSITORY'], settings);
  const runId = settings.runId;
  if (runId === undefined) throw new ConfigurationError('run-id is required with mode reverify: give the workflow run whose receipt to check');
  const repoDir = inside(requiredEnv(env, 'GITHUB_WORKSPACE'), settings.repositoryPath, 'repository-path');
  const runnerTemp = requiredEnv(env, 'RUNNER_TEMP');
  // The one place that picks the check run's credentials: the GitHub App when configured, as in validate mode.
  const client = checksClientFor(settings, env['GITHUB_API_URL'] || 'https://api.github.com', deps);
  const target: CheckRunTarget = { owner: candidate.owner, repo: candidate.repo, headSha: candidate.head, name: settings.checkName };
  // The one trust decision of this run, as in validate mode; stated in every check run and summary.
  const eventName = requiredEnv(env, 'GITHUB_EVENT_NAME');
  const trust = decideTrust({ eventName, workflowRef: env['GITHUB_WORKFLOW_REF'], repository: `${candidate.owner}/${candidate.repo}`, payload: await readEventPayload(requiredEnv(env, 'GITHUB_EVENT_PATH')) });
  const stated = (check: RenderedCheck): RenderedCheck => withPreamble(check, trustLine(trust, eventName));
  if (!trust.trusted) outcome.warning(`PatchProof will not post success from this run: ${trust.why}`);

  let findings: Findings;
  try {
    const intake = await takeReceipt(deps.receiptArtifacts(settings.token), runId, settings.artifactName, settings.witness?.digest);
    if (intake.status === 'rejected') {
      const check = stated(renderRejection(intake.reason, intake.message, intake.details, [['workflow run / 工作流运行', String(runId)], ['head', codeSpan(candidate.head, { max: 1000 })]]));
      await postCheck(client, target, 'failure', check, outcome);
      await writeSummary(outcome, check);
      return { verdict: 'failed', proofGrade: false, ...(intake.receiptPath !== undefined ? { receiptPath: intake.receiptPath } : {}), message: intake.message };
    }
    const git = deps.gitSource(repoDir, { token: settings.token, serverUrl: env['GITHUB_SERVER_URL'] || 'https://github.com' });
    const bindings = await currentBindings(intake.receipt, candidate, git, deps, runnerTemp);
    const attestation = await checkAttestation(intake.receiptPath, settings, candidate, await readEventPayload(requiredEnv(env, 'GITHUB_EVENT_PATH')));
    findings = { receipt: intake.receipt, runId, artifactName: intake.artifactName, candidate, bindings, attestation };
    if (settings.replay && isBound(findings)) {
      // Validate mode posts its own check run under another name; this one compares the verdicts.
      const replayed = await deps.replay({ ...settings, mode: 'validate', checkName: `${settings.checkName} (replay)` }, outcome);
      findings.replay = { verdict: replayed.verdict, proofGrade: replayed.proofGrade, message: replayed.message };
    }
    if (settings.replay && !isBound(findings)) outcome.warning('replay skipped: the receipt is not bound to this head, so there is nothing to compare');
    const receiptPath = intake.receiptPath;
    const rendered = renderFindings(findings, settings.replay, trust);
    const check = stated(rendered.check);
    await postCheck(client, target, rendered.conclusion, check, outcome);
    await writeSummary(outcome, check);
    const receipt = findings.receipt;
    const accepted = rendered.conclusion === 'success';
    // Only an accepted receipt passes; a bound receipt that agrees keeps a failed or inconclusive verdict.
    const verdict = accepted ? 'passed' : isBound(findings) && replayAgrees(findings) && receipt.verdict !== 'passed' ? receipt.verdict : 'failed';
    return { verdict, proofGrade: accepted && receipt.proof_grade, receiptDigest: receipt.receipt_digest, receiptPath, message: rendered.message };
  } catch (error) {
    if (error instanceof InfrastructureError) {
      return { verdict: 'inconclusive', proofGrade: false, message: `infrastructure error, nothing was re-verified: ${error.message}` };
    }
    throw error;
  }
}
