import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { mergeRefusals, type CurrentBinding } from '../core/merge-gate.js';
import { verifyReceiptText } from '../core/receipt.js';
import { receiptSchema, type Receipt } from '../core/receipt-schema.js';
import type { Snapshot } from '../core/snapshot-record.js';
import { ConfigurationError, InfrastructureError } from '../errors.js';
import { takeSnapshot } from '../inventory/snapshot.js';
import { splitRepository, type Candidate } from '../inputs/event.js';
import { createGitSource, type GitSource, type GitSourceOptions } from '../fetch/git.js';
import { readEventPayload, type ModeResult } from './mode.js';
import { readRunnerContext } from '../inputs/runner-context.js';
import type { StepOutcome } from '../publish/ports.js';
import type { PromoteInputs } from '../inputs/promote-settings.js';
import { createPullsClient, type PullRequestState, type PullsClient } from './pulls-client.js';
import { codeSpan } from '../core/markdown.js';
import { defaultReceiptModeDeps, takeReceipt, type ReceiptModeDeps } from '../receipt/intake.js';
import { checkAttestation, currentBindings } from '../receipt/evidence.js';
import type { ActionSettings } from '../inputs/action-settings.js';
import { decideTrust, trustLine, type TrustDecision } from './trust.js';

/**
 * Promote mode: merge a pull request through GitHub's REST API, and only when
 *  - this job runs a workflow the pull request cannot have changed (trust.ts), else it refuses at once;
 *  - its receipt was produced by a validate step of this same job (`receipt-path`), or is a receipt
 *    artifact of another run attested by the gate workflow (`run-id`, a Sigstore bundle, the reverify
 *    rules); a receipt that merely verifies is not enough, anyone can seal a self-consistent one;
 *  - the receipt passed with proof grade, and is bound to the pull request as GitHub reports it now:
 *    its diff digest is that of base...head of the current head, its base snapshot that of the base;
 *  - and then it sends one `PUT .../pulls/{n}/merge` with `sha` set to that head, so GitHub refuses
 *    (409) if anything newer was pushed in between.
 * It does nothing else: no push, no branch write, no check run, no comment. Every refusal is one line,
 * and a refusal by GitHub (405, 409, ...) is reported as such, never as success.
 */

/** The side effects of promote mode, so tests can hand in their own. */
export interface PromoteModeDeps extends ReceiptModeDeps {
  gitSource(repoDir: string, options: GitSourceOptions): GitSource;
  snapshot(dir: string): Promise<Snapshot>;
  pullsClient(token: string, baseUrl: string): PullsClient;
}

/** The production side effects (tests replace single ones). */
export function defaultPromoteModeDeps(): PromoteModeDeps {
  return {
    ...defaultReceiptModeDeps(),
    gitSource: createGitSource,
    snapshot: (dir) => takeSnapshot(dir),
    pullsClient: (token, baseUrl) => createPullsClient(token, { baseUrl })
  };
}

/** receipt.json larger than this is not read: a real one is a few hundred kilobytes. */
const MAX_RECEIPT_BYTES = 64 * 1024 * 1024;

/** Where the receipt came from, and why it counts as this installation's. */
type Provenance = { kind: 'same_job'; path: string } | { kind: 'attested'; runId: number; artifactName: string; signer: string };

type Intake = { ok: true; receipt: Receipt; provenance: Provenance } | { ok: false; why: string };

const isMapping = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The pull request's number: the event's on pull_request_target, else the `pull-number` input. */
export function pullNumberOf(payload: unknown, inputs: Pick<PromoteInputs, 'pullNumber'>): number {
  const pull = isMapping(payload) && isMapping(payload['pull_request']) ? payload['pull_request']['number'] : undefined;
  const fromEvent = typeof pull === 'number' && Number.isSafeInteger(pull) && pull > 0 ? pull : undefined;
  if (fromEvent !== undefined && inputs.pullNumber !== undefined && fromEvent !== inputs.pullNumber) {
    throw new ConfigurationError(`pull-number ${inputs.pullNumber} is not the event's pull request #${fromEvent}; remove pull-number on pull request events`);
  }
  const number = fromEvent ?? inputs.pullNumber;
  if (number === undefined) throw new ConfigurationError('pull-number is required: the event names no pull request; give the number of the pull request to merge');
  return number;
}

/**
 * A receipt a validate step of this job wrote: validate mode writes it to
 * `$RUNNER_TEMP/patchproof-<digest hex>/receipt.json`, and the receipt's run_id is this run's
 * `GITHUB_RUN_ID-GITHUB_RUN_ATTEMPT`. RUNNER_TEMP is emptied at the start of every job and written
 * only by this job's steps; a receipt anywhere else, of another digest or of another run, is refused.
 */
async function sameJobReceipt(path: string, env: NodeJS.ProcessEnv): Promise<Intake> {
  // The run attempt as the runner set it, never defaulted: it names this run's receipts.
  const context = readRunnerContext(env, ['runnerTemp', 'runId', 'runAttempt', 'workspace']);
  const runnerTemp = await realpath(context.runnerTemp);
  const thisRun = `${context.runId}-${context.runAttempt}`;
  let real: string;
  try {
    real = await realpath(resolve(context.workspace, path));
  } catch (error) {
    return { ok: false, why: `receipt-path '${path}' cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); pass the validate step's receipt-path output` };
  }
  const rel = relative(runnerTemp, real);
  const parts = rel.split(sep);
  if (rel.startsWith('..') || isAbsolute(rel) || parts.length !== 2 || !/^patchproof-[0-9a-f]{64}$/.test(parts[0] ?? '') || parts[1] !== 'receipt.json') {
    return {
      ok: false,
      why: `receipt-path '${path}' is not where a validate step of this job writes its receipt ($RUNNER_TEMP/patchproof-<digest>/receipt.json); a receipt from anywhere else needs an attestation (run-id)`
    };
  }
  const info = await stat(real);
  if (!info.isFile()) return { ok: false, why: `receipt-path '${path}' is not a file` };
  const size = info.size;
  if (size > MAX_RECEIPT_BYTES) return { ok: false, why: `receipt-path '${path}' is ${size} bytes, more than any receipt PatchProof writes` };
  const text = await readFile(real, 'utf8');
  const check = verifyReceiptText(text);
  if (!check.integrity_valid) return { ok: false, why: `the receipt at '${path}' does not verify: ${check.errors[0] ?? 'invalid'}` };
  const parsed = receiptSchema.safeParse(JSON.parse(text));
  if (!parsed.success) return { ok: false, why: `the receipt at '${path}' is of an older schema; validate again in this job` };
  const receipt = parsed.data;
  if (parts[0] !== `patchproof-${receipt.receipt_digest.slice('sha256:'.length)}`) {
    return { ok: false, why: `the receipt at '${path}' is ${receipt.receipt_digest}, not the digest its folder names; validate wrote another receipt there` };
  }
  if (receipt.run_id !== thisRun) {
    return {
      ok: false,
      why: `the receipt at '${path}' was made by run ${receipt.run_id}, not by this job's run ${thisRun}; a receipt of another run needs an attestation (run-id)`
    };
  }
  return { ok: true, receipt, provenance: { kind: 'same_job', path: real } };
}

/** A receipt artifact of another run, accepted only with a verified attestation by the gate (reverify's rules). */
async function attestedReceipt(settings: ActionSettings, inputs: PromoteInputs, owner: string, repo: string, payload: unknown, deps: PromoteModeDeps): Promise<Intake> {
  const runId = settings.runId as number;
  const { runnerTemp } = readRunnerContext(deps.env, ['runnerTemp']);
  const artifacts = deps.receiptArtifacts({ token: settings.token, repository: `${owner}/${repo}`, tempRoot: runnerTemp });
  const intake = await takeReceipt(artifacts, runId, settings.artifactName, inputs.witnessDigest);
  if (intake.status === 'rejected') return { ok: false, why: intake.message };
  const attestation = await checkAttestation(intake.receiptPath, settings, { owner, repo }, payload);
  if (attestation.status !== 'verified') {
    return {
      ok: false,
      why: `the receipt of run ${runId} (${intake.artifactName}) is not attested by the gate, and a receipt that verifies is not evidence by itself: ${attestation.message}`
    };
  }
  return { ok: true, receipt: intake.receipt, provenance: { kind: 'attested', runId, artifactName: intake.artifactName, signer: attestation.signer.signerUri } };
}

/** What a promotion found, for the job summary. */
interface Report {
  trust: TrustDecision;
  eventName: string;
  number?: number;
  pull?: PullRequestState;
  receipt?: Receipt;
  provenance?: Provenance;
  bindings?: CurrentBinding[];
  outcome: string;
}

function renderSummary(report: Report): string {
  const rows: [string, string][] = [];
  if (report.number !== undefined) rows.push(['pull request / 拉取请求', `#${report.number}`]);
  if (report.pull !== undefined) rows.push(['base / head (now / 当前)', `${codeSpan(report.pull.baseSha)} / ${codeSpan(report.pull.headSha)}`]);
  if (report.receipt !== undefined) {
    rows.push(['receipt / 回执', `${codeSpan(report.receipt.receipt_digest)}: ${codeSpan(report.receipt.verdict)}, proof grade ${report.receipt.proof_grade ? '✅' : '❌'}`]);
  }
  const source = report.provenance;
  if (source !== undefined) {
    rows.push([
      'evidence / 证据',
      source.kind === 'same_job'
        ? `validated in this job / 本作业验证 (${codeSpan(source.path)})`
        : `run ${source.runId} (${codeSpan(source.artifactName)}), attested by ${codeSpan(source.signer)}`
    ]);
  }
  for (const b of report.bindings ?? []) {
    rows.push([
      b.name === 'diff_digest' ? 'diff base...head / 差异' : 'base snapshot / 基线快照',
      b.recorded === b.current ? `✅ ${codeSpan(b.current)}` : `❌ receipt ${codeSpan(b.recorded)}, now ${codeSpan(b.current)}`
    ]);
  }
  return [
    '# PatchProof 合并 / Promote',
    '',
    trustLine(report.trust, report.eventName),
    '',
    `**${codeSpan(report.outcome)}**`,
    '',
    ...(rows.length > 0 ? ['| | |', '| --- | --- |', ...rows.map(([name, value]) => `| ${name} | ${value} |`), ''] : [])
  ].join('\n');
}

async function summarize(outcome: StepOutcome, report: Report): Promise<void> {
  try {
    await outcome.summary(renderSummary(report));
  } catch (error) {
    outcome.warning(`the job summary could not be written: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** One line: the refusal's reasons never carry a newline into the step's error. */
const oneLine = (text: string): string => text.replace(/[\r\n\u2028\u2029]+/g, ' ');

/** Run promote mode. Refusals return `failed` with one line; infrastructure faults `inconclusive`; a merge `passed`. */
export async function promoteMode(settings: ActionSettings, outcome: StepOutcome, deps: PromoteModeDeps = defaultPromoteModeDeps()): Promise<ModeResult> {
  const env = deps.env;
  const inputs = settings.promote;
  if (inputs === undefined) throw new ConfigurationError('promote mode was started without its inputs');
  const context = readRunnerContext(env, ['eventName', 'eventPath']);
  const eventName = context.eventName;
  const payload = await readEventPayload(context.eventPath);
  const { owner, repo } = splitRepository(context.repository);
  const trust = decideTrust({ eventName, workflowRef: context.workflowRef, repository: `${owner}/${repo}`, payload });
  const report: Report = { trust, eventName, outcome: '' };
  const refuse = async (why: string, receipt?: Receipt): Promise<ModeResult> => {
    const message = oneLine(`promote refused, nothing was merged: ${why}`);
    report.outcome = message;
    await summarize(outcome, report);
    return { verdict: 'failed', proofGrade: false, ...(receipt !== undefined ? { receiptDigest: receipt.receipt_digest } : {}), message };
  };
  // Before any request: an untrusted job must not even read the receipt as if it could act on it.
  if (!trust.trusted) return refuse(`untrusted_workflow: ${trust.why}`);
  const number = pullNumberOf(payload, inputs);
  report.number = number;
  try {
    const intake = inputs.receiptPath !== undefined ? await sameJobReceipt(inputs.receiptPath, env) : await attestedReceipt(settings, inputs, owner, repo, payload, deps);
    if (!intake.ok) return await refuse(intake.why);
    const { receipt } = intake;
    report.receipt = receipt;
    report.provenance = intake.provenance;
    const pulls = deps.pullsClient(settings.token, context.apiUrl);
    const pull = await pulls.get(owner, repo, number);
    report.pull = pull;
    if (pull.merged) return await refuse(`pull request #${number} is already merged`, receipt);
    if (pull.state !== 'open') return await refuse(`pull request #${number} is closed`, receipt);
    if (pull.draft) return await refuse(`pull request #${number} is a draft`, receipt);
    // The current head as GitHub reports it now, not the event's: a push since the event moved it.
    const candidate: Candidate = {
      owner,
      repo,
      base: pull.baseSha,
      head: pull.headSha,
      fork: pull.headRepository !== undefined && pull.headRepository.toLowerCase() !== `${owner}/${repo}`.toLowerCase(),
      pullNumber: number
    };
    const { workspace, runnerTemp, serverUrl } = readRunnerContext(env, ['workspace', 'runnerTemp']);
    const repoDir = resolve(workspace, settings.repositoryPath);
    const git = deps.gitSource(repoDir, { token: settings.token, serverUrl });
    const bindings = await currentBindings(receipt, candidate, git, deps, runnerTemp);
    report.bindings = bindings;
    const problems = mergeRefusals(receipt, { bindings, ...(inputs.witnessDigest !== undefined ? { witnessDigest: inputs.witnessDigest } : {}) });
    if (problems.length > 0) return await refuse(problems.join('; '), receipt);
    const answer = await pulls.merge(owner, repo, number, pull.headSha, inputs.mergeMethod);
    if (!answer.merged) {
      const why =
        answer.status === 409
          ? 'the head moved after it was checked'
          : answer.status === 405
            ? 'GitHub cannot merge it (conflicts, branch protection or required checks)'
            : answer.status === 403
              ? 'the token may not merge (give the job permissions: contents: write)'
              : 'GitHub refused the request';
      return await refuse(`GitHub answered ${answer.status} to the merge of #${number} at ${pull.headSha}: ${why}: ${answer.message}`, receipt);
    }
    const message = oneLine(
      `PatchProof promoted pull request #${number}: merged head ${pull.headSha} (${inputs.mergeMethod}) as ${answer.sha} on the evidence of receipt ${receipt.receipt_digest}`
    );
    report.outcome = message;
    await summarize(outcome, report);
    return { verdict: 'passed', proofGrade: true, receiptDigest: receipt.receipt_digest, mergeSha: answer.sha, message };
  } catch (error) {
    if (error instanceof InfrastructureError) {
      const message = oneLine(`infrastructure error during promote: ${error.message}`);
      report.outcome = message;
      await summarize(outcome, report);
      return { verdict: 'inconclusive', proofGrade: false, message };
    }
    throw error;
  }
}
