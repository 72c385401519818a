import type { Receipt } from '../core/receipt-schema.js';
import type { Snapshot } from '../core/snapshot-record.js';
import { codeSpan } from '../core/markdown.js';
import { ConfigurationError, InfrastructureError } from '../errors.js';
import { takeSnapshot } from '../inventory/snapshot.js';
import { CHECK_OUTPUT_LIMIT, fitMarkdown, renderCheck, withPreamble } from '../publish/check-report.js';
import { checksClientFor } from '../publish/checks-client.js';
import { candidateFromEvent, type Candidate } from '../inputs/event.js';
import { createGitSource, type GitSource, type GitSourceOptions } from '../fetch/git.js';
import { inside, readEventPayload, writeSummary, type ModeResult } from './mode.js';
import { readRunnerContext } from '../inputs/runner-context.js';
import type { CheckRunTarget, RenderedCheck, StepOutcome } from '../publish/ports.js';
import { defaultReceiptModeDeps, postCheck, renderRejection, takeReceipt, type ReceiptModeDeps } from '../receipt/intake.js';
import type { ActionSettings } from '../inputs/action-settings.js';
import { decideTrust, defaultBranchRef, trustLine, type TrustDecision } from './trust.js';
import { checkAttestation, currentBindings, type AttestationFinding, type BindingCheck } from '../receipt/evidence.js';

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

export { TRUSTED_SIGNING_TRIGGERS } from '../receipt/trusted-roots.js';

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
    ? `the receipt of run ${findings.runId} is bound, intact and vouched for (${evidence.why}), but this run cannot post success: ${trust.why}`
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
 * The base a receipt is re-verified against is the trusted tree: its snapshot is compared with the
 * receipt's, and a replay grades with the pack in it. A dispatch names any SHA (a fork's head too,
 * through refs/pull/N/head), so it must be the default branch's tip or one of its ancestors, as on
 * origin now. Refused (ConfigurationError) otherwise, before any receipt is read.
 */
async function baseOnDefaultBranch(git: GitSource, candidate: Candidate, payload: unknown): Promise<void> {
  const defaultRef = defaultBranchRef(payload);
  if (defaultRef === undefined) {
    throw new ConfigurationError('the event payload names no repository.default_branch, so the base cannot be checked against the default branch; refusing to re-verify');
  }
  await git.fetchCommits(candidate.base, candidate.head, candidate.pullNumber);
  const tip = await git.fetchBranchTip(defaultRef.slice('refs/heads/'.length));
  if (!(await git.isAncestor(candidate.base, tip))) {
    throw new ConfigurationError(
      `base ${candidate.base} is not on the history of the default branch ${defaultRef} (now ${tip}): the base is the trusted tree a receipt is checked against, so only a commit of the default branch can be one; give the pull request's base commit`
    );
  }
}

/**
 * Run reverify mode. A base off the default branch's history is refused first (thrown). A receipt
 * that is not accepted (digest mismatch, invalid, another witness pack) or not bound is published as
 * a failed check run and returns `failed`; infrastructure faults return `inconclusive`. Errors before
 * the head is known (no event, no commits) are thrown.
 */
export async function reverifyMode(settings: ActionSettings, outcome: StepOutcome, deps: ReverifyModeDeps): Promise<ModeResult> {
  const env = deps.env;
  const context = readRunnerContext(env, ['eventName', 'eventPath']);
  const payload = await readEventPayload(context.eventPath);
  const candidate = candidateFromEvent(context.eventName, payload, context.repository, settings);
  const runId = settings.runId;
  if (runId === undefined) throw new ConfigurationError('run-id is required with mode reverify: give the workflow run whose receipt to check');
  const { workspace, runnerTemp } = readRunnerContext(env, ['workspace', 'runnerTemp']);
  const repoDir = inside(workspace, settings.repositoryPath, 'repository-path');
  // The one place that picks the check run's credentials: the GitHub App when configured, as in validate mode.
  const client = checksClientFor(settings, context.apiUrl, deps);
  const target: CheckRunTarget = { owner: candidate.owner, repo: candidate.repo, headSha: candidate.head, name: settings.checkName };
  // The one trust decision of this run, as in validate mode; stated in every check run and summary.
  const eventName = context.eventName;
  const trust = decideTrust({
    eventName,
    workflowRef: context.workflowRef,
    repository: `${candidate.owner}/${candidate.repo}`,
    payload
  });
  const stated = (check: RenderedCheck): RenderedCheck => withPreamble(check, trustLine(trust, eventName));
  if (!trust.trusted) outcome.warning(`PatchProof will not post success from this run: ${trust.why}`);

  let findings: Findings;
  try {
    const git = deps.gitSource(repoDir, { token: settings.token, serverUrl: context.serverUrl });
    await baseOnDefaultBranch(git, candidate, payload);
    const artifacts = deps.receiptArtifacts({ token: settings.token, repository: `${candidate.owner}/${candidate.repo}`, tempRoot: runnerTemp });
    const intake = await takeReceipt(artifacts, runId, settings.artifactName, settings.witness?.digest);
    if (intake.status === 'rejected') {
      const check = stated(
        renderRejection(intake.reason, intake.message, intake.details, [
          ['workflow run / 工作流运行', String(runId)],
          ['head', codeSpan(candidate.head, { max: 1000 })]
        ])
      );
      await postCheck(client, target, 'failure', check, outcome);
      await writeSummary(outcome, check);
      return { verdict: 'failed', proofGrade: false, ...(intake.receiptPath !== undefined ? { receiptPath: intake.receiptPath } : {}), message: intake.message };
    }
    const bindings = await currentBindings(intake.receipt, candidate, git, deps, runnerTemp);
    const attestation = await checkAttestation(intake.receiptPath, settings, candidate, payload);
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
