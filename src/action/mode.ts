import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { deriveShardKey } from '../core/shard-tag.js';
import { ConfigurationError, InfrastructureError } from '../errors.js';
import type { RenderedCheck, StepOutcome } from '../publish/ports.js';
import type { ActionSettings } from '../inputs/action-settings.js';
import type { FindingId, Severity } from '../core/setup-doctor.js';

/**
 * What every mode shares: its result type and the few step helpers each needs. Modes import this
 * module and never each other (dependency-cruiser's `no-sibling-mode` rule, .dependency-cruiser.cjs);
 * main.ts wires them together.
 */

/** What a mode produced, for the step's outputs. */
export interface ModeResult {
  /**
   * `uploaded`: a shard job's share (of one suite, or of the screened candidates) was validated and uploaded for the merge
   * job; the step succeeds, but it is no verdict on the candidate (never `passed`).
   * `checked`: doctor read the setup and found no failing answer; it judges no candidate (never `passed`).
   */
  verdict: 'passed' | 'failed' | 'inconclusive' | 'uploaded' | 'checked';
  proofGrade: boolean;
  receiptDigest?: string;
  receiptPath?: string;
  artifactId?: number;
  /**
   * validate: the attestation predicate (src/receipt/attestation.ts), written only when the check run
   * was concluded success from a trusted workflow with proof grade; the gate attests the receipt only then.
   */
  attestationPredicatePath?: string;
  /** promote: the merge commit GitHub made. */
  mergeSha?: string;
  /** doctor: the worst answer, and each question's. */
  doctor?: { worst: Severity; findings: Partial<Record<FindingId, Severity>> };
  /** The step fails unless the verdict is passed; this says why, in one line. */
  message: string;
}

/** One mode of the action: run it with the settings read once, report through `outcome`. */
export type Mode = (settings: ActionSettings, outcome: StepOutcome) => Promise<ModeResult>;

/** The event payload, parsed to `unknown`: callers validate the fields they use. */
export async function readEventPayload(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    throw new InfrastructureError(`could not read the event payload GITHUB_EVENT_PATH '${path}': ${(error as Error).message}`, { cause: error });
  }
}

/** `path` resolved against `root`; refused when it leaves `root`. */
export function inside(root: string, path: string, what: string): string {
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new ConfigurationError(`${what} '${path}' leaves the workspace; give a path inside GITHUB_WORKSPACE`);
  return full;
}

/** The job summary: the check run's rendering. A failure to write it is only a warning. */
export async function writeSummary(outcome: StepOutcome, check: RenderedCheck): Promise<void> {
  try {
    await outcome.summary([`## ${check.title}`, check.summary, check.text].filter((part) => part !== undefined && part !== '').join('\n\n'));
  } catch (error) {
    outcome.warning(`the job summary could not be written: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * This run attempt's shard key (src/core/shard-tag.ts): derived here, in each shard and merge job,
 * from the GitHub App's private key (a registered secret the runner masks) and the run's identity.
 * Never an input, an output or a log line.
 */
export function runShardKey(settings: Pick<ActionSettings, 'app'>, run: { repository: string; runId: string; runAttempt: string }): string {
  if (settings.app === undefined) {
    throw new ConfigurationError("shard artifacts need app-id and app-private-key: the run's shard key is derived from the GitHub App's private key");
  }
  return deriveShardKey(settings.app.privateKey, run);
}
