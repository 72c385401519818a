import * as core from '@actions/core';
import { isRefusal } from '../errors.js';
import { readActionSettings, type ActionSettings } from '../inputs/action-settings.js';
import type { StepOutcome } from '../publish/ports.js';
import type { Mode } from './mode.js';
import { validateMode } from './validate-mode.js';
import { reverifyMode, reverifyModeDeps } from './reverify-mode.js';
import { promoteMode } from './promote-mode.js';
import { screenMode } from './screen-mode.js';
import { validateMergeMode } from './validate-merge-mode.js';
import { doctorMode } from './doctor-mode.js';

/**
 * The action's entry: reads the settings once, runs one mode, and is the only place that sets the
 * step's outcome. Every mode returns; nothing below run() calls setFailed. The modes never import
 * each other: what one needs of another (reverify's replay is validate mode) is wired here.
 */

/** The modes, by the `mode` input. */
export const MODES: Readonly<Record<ActionSettings['mode'], Mode>> = {
  validate: (settings, outcome) => validateMode(settings, outcome),
  reverify: (settings, outcome) =>
    reverifyMode(
      settings,
      outcome,
      reverifyModeDeps((replaySettings, replayOutcome) => validateMode(replaySettings, replayOutcome))
    ),
  promote: (settings, outcome) => promoteMode(settings, outcome),
  screen: (settings, outcome) => screenMode(settings, outcome),
  'screen-merge': (settings, outcome) => screenMode(settings, outcome),
  'validate-merge': (settings, outcome) => validateMergeMode(settings, outcome),
  doctor: (settings, outcome) => doctorMode(settings, outcome)
};

function stepOutcome(): StepOutcome {
  return {
    setOutput: (name, value) => core.setOutput(name, value),
    summary: async (markdown) => {
      await core.summary.addRaw(markdown, true).write();
    },
    setFailed: (message) => core.setFailed(message),
    info: (message) => core.info(message),
    warning: (message) => core.warning(message),
    group: (title, lines) => {
      core.startGroup(title);
      for (const line of lines) core.info(line);
      core.endGroup();
    }
  };
}

/**
 * Run the action. Anything thrown, of any type, fails the step: nothing ends green by accident. A
 * refusal (the input or the candidate's change is at fault) is `failed`; anything else thrown (an
 * InfrastructureError, or any other fault of PatchProof's or the runner's) judged nothing and is
 * `inconclusive`, as the CLI's exit 3.
 */
export async function run(outcome: StepOutcome = stepOutcome(), modes: Readonly<Record<ActionSettings['mode'], Mode>> = MODES): Promise<void> {
  try {
    // The witness key is masked in every log line before anything else can print it.
    const key = core.getInput('witness-key');
    if (key !== '') core.setSecret(key);
    const settingsToken = core.getInput('settings-token');
    if (settingsToken !== '') core.setSecret(settingsToken);
    const settings = readActionSettings((name) => core.getInput(name));
    const result = await modes[settings.mode](settings, outcome);
    outcome.setOutput('verdict', result.verdict);
    outcome.setOutput('proof-grade', String(result.proofGrade));
    if (result.receiptDigest !== undefined) outcome.setOutput('receipt-digest', result.receiptDigest);
    if (result.receiptPath !== undefined) outcome.setOutput('receipt-path', result.receiptPath);
    if (result.artifactId !== undefined) outcome.setOutput('artifact-id', String(result.artifactId));
    if (result.mergeSha !== undefined) outcome.setOutput('merge-sha', result.mergeSha);
    if (result.doctor !== undefined) {
      outcome.setOutput('doctor', result.doctor.worst);
      outcome.setOutput('doctor-findings', JSON.stringify(result.doctor.findings));
    }
    if (result.attestationPredicatePath !== undefined) outcome.setOutput('attestation-predicate', result.attestationPredicatePath);
    // `uploaded` (a shard job's share, handed to the merge job) and `checked` (doctor found no failing
    // answer) are steps that did their part, never a pass.
    if (result.verdict !== 'passed' && result.verdict !== 'uploaded' && result.verdict !== 'checked') outcome.setFailed(result.message);
    else outcome.info(result.message);
  } catch (error) {
    // Only a refusal speaks about the input; any other fault judged nothing: the candidate neither passed nor failed.
    outcome.setOutput('verdict', isRefusal(error) ? 'failed' : 'inconclusive');
    outcome.setOutput('proof-grade', 'false');
    outcome.setFailed(`patchproof: ${error instanceof Error ? error.message : String(error)}`);
  }
}
