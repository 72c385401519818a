import type { Receipt } from '../core/receipt-schema.js';

/**
 * The action's side effects, each behind one narrow interface with a factory, so `run()` is tested
 * against loopback servers and its logic against recording fakes.
 */

/** A check run as PatchProof renders it (see check-report.ts). */
export interface RenderedCheck {
  title: string;
  summary: string;
  text?: string;
  annotations: CheckAnnotation[];
}

/** One annotation, in the Checks API's shape. */
export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  title?: string;
  message: string;
}

export interface CheckRunTarget {
  owner: string;
  repo: string;
  /** The PR's head commit (pull_request.head.sha), never the merge commit. */
  headSha: string;
  name: string;
}

/** The Checks API, as far as PatchProof uses it. */
export interface ChecksClient {
  /**
   * Create a completed check run and append annotations in batches of at most 50. Returns the check
   * run id. Throws ChecksPermissionError on 403. A verdict is `success` or `failure` only (a required
   * check takes `neutral` as passing); `neutral` is for the doctor's own check, which is named apart
   * from the gate's and judges no candidate.
   */
  publish(target: CheckRunTarget, conclusion: 'success' | 'failure' | 'neutral', check: RenderedCheck): Promise<number>;
}

/** A 403 from the Checks API: a fork's read-only token. Not an infrastructure fault of the run. */
export class ChecksPermissionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChecksPermissionError';
  }
}

/** Receipt artifacts. */
export interface ReceiptArtifacts {
  /**
   * Upload receipt.json and report.md (and the receipt's Sigstore bundle, and the encrypted
   * hidden-detail.age of a sealed pack's run, when given) under a name carrying the receipt digest.
   */
  upload(receipt: Receipt, files: { receipt: string; report: string; bundle?: string; hiddenDetail?: string }): Promise<{ id: number; name: string; digest?: string }>;
  /**
   * Download a run's receipt artifact into a fresh folder under RUNNER_TEMP and return the path of
   * its receipt.json, and of its Sigstore bundle (receipt.sigstore.json next to it) when the
   * artifact or its companion attestation artifact carries one. Throws VerificationError when the
   * service reports a digest mismatch.
   */
  download(runId: number, name?: string): Promise<{ receiptPath: string; artifactName: string; bundlePath?: string }>;
}

/** The step's outputs and summary: only run() touches these. */
export interface StepOutcome {
  setOutput(
    name: 'verdict' | 'proof-grade' | 'receipt-digest' | 'receipt-path' | 'artifact-id' | 'merge-sha' | 'attestation-predicate' | 'doctor' | 'doctor-findings',
    value: string
  ): void;
  summary(markdown: string): Promise<void>;
  setFailed(message: string): void;
  info(message: string): void;
  warning(message: string): void;
  /** A collapsible log group (core.startGroup/endGroup) holding `lines`; absent: the lines are logged plainly. */
  group?(title: string, lines: readonly string[]): void;
}
