import * as core from '@actions/core';
import { InfrastructureError } from '../errors.js';
import { readActionSettings, type ActionSettings } from './settings.js';
import type { StepOutcome } from './ports.js';
import { validateMode } from './validate-mode.js';
import { reverifyMode } from './reverify-mode.js';
import { promoteMode } from './promote-mode.js';

/**
 * The action's entry: reads the settings once, runs one mode, and is the only place that sets the
 * step's outcome. Every mode returns; nothing below run() calls setFailed.
 */

/** What a mode produced, for the step's outputs. */
export interface ModeResult {
  verdict: 'passed' | 'failed' | 'inconclusive';
  proofGrade: boolean;
  receiptDigest?: string;
  receiptPath?: string;
  artifactId?: number;
  /** promote: the merge commit GitHub made. */
  mergeSha?: string;
  /** The step fails unless the verdict is passed; this says why, in one line. */
  message: string;
}

function stepOutcome(): StepOutcome {
  return {
    setOutput: (name, value) => core.setOutput(name, value),
    summary: async (markdown) => {
      await core.summary.addRaw(markdown, true).write();
    },
    setFailed: (message) => core.setFailed(message),
    info: (message) => core.info(message),
    warning: (message) => core.warning(message)
  };
}

async function runMode(settings: ActionSettings, outcome: StepOutcome): Promise<ModeResult> {
  switch (settings.mode) {
    case 'validate':
      return validateMode(settings, outcome);
    case 'reverify':
      return reverifyMode(settings, outcome);
    case 'promote':
      return promoteMode(settings, outcome);
  }
}

/** Run the action. Anything thrown, of any type, fails the step: nothing ends green by accident. */
export async function run(outcome: StepOutcome = stepOutcome()): Promise<void> {
  try {
    // The witness key is masked in every log line before anything else can print it.
    const key = core.getInput('witness-key');
    if (key !== '') core.setSecret(key);
    const settings = readActionSettings((name) => core.getInput(name));
    const result = await runMode(settings, outcome);
    outcome.setOutput('verdict', result.verdict);
    outcome.setOutput('proof-grade', String(result.proofGrade));
    if (result.receiptDigest !== undefined) outcome.setOutput('receipt-digest', result.receiptDigest);
    if (result.receiptPath !== undefined) outcome.setOutput('receipt-path', result.receiptPath);
    if (result.artifactId !== undefined) outcome.setOutput('artifact-id', String(result.artifactId));
    if (result.mergeSha !== undefined) outcome.setOutput('merge-sha', result.mergeSha);
    if (result.verdict !== 'passed') outcome.setFailed(result.message);
    else outcome.info(result.message);
  } catch (error) {
    // An infrastructure fault judged nothing: the candidate neither passed nor failed.
    outcome.setOutput('verdict', error instanceof InfrastructureError ? 'inconclusive' : 'failed');
    outcome.setOutput('proof-grade', 'false');
    outcome.setFailed(`patchproof: ${error instanceof Error ? error.message : String(error)}`);
  }
}
