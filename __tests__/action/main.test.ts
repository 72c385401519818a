import { run } from '../../src/action/main.js';
import type { Mode, ModeResult } from '../../src/action/mode.js';
import type { StepOutcome } from '../../src/publish/ports.js';
import { ConfigurationError, InfrastructureError, PolicyError, VerificationError } from '../../src/errors.js';
import { setEnv } from '../helpers/process-env.js';

/**
 * run(), the action's entry, with the real settings reader and modes handed in: it alone sets the
 * step's outputs, and only a refusal is `failed` when a mode throws; any other fault judged
 * nothing and is `inconclusive`, as the CLI's exit 3.
 */

interface Step {
  outputs: Record<string, string>;
  failed: string[];
}

async function runWith(mode: Mode): Promise<Step> {
  const step: Step = { outputs: {}, failed: [] };
  const outcome: StepOutcome = {
    setOutput: (name, value) => {
      step.outputs[name] = value;
    },
    summary: async () => {},
    setFailed: (message) => step.failed.push(message),
    info: () => {},
    warning: () => {}
  };
  // Reverify mode needs the fewest inputs; the mode itself is the one handed in.
  const restore = setEnv({ INPUT_MODE: 'reverify', 'INPUT_GITHUB-TOKEN': 'ghs_test', 'INPUT_RUN-ID': '42' });
  try {
    await run(outcome, { validate: mode, reverify: mode, promote: mode, screen: mode, 'screen-merge': mode, 'validate-merge': mode, doctor: mode });
  } finally {
    restore();
  }
  return step;
}

const throwing =
  (thrown: unknown): Mode =>
  () =>
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the cases reject with non-Error values on purpose
    Promise.reject(thrown);

describe('run (the action entry): outputs for what a mode throws', () => {
  it.each<[string, unknown, RegExp]>([
    ['an InfrastructureError', new InfrastructureError('docker engine not answering'), /docker engine not answering/],
    ['a TypeError (a fault of PatchProof itself)', new TypeError("Cannot read properties of undefined (reading 'x')"), /Cannot read properties/],
    ['a plain Error', new Error('socket hang up'), /socket hang up/],
    ['a thrown non-Error value', 'boom', /boom/]
  ])('%s: verdict inconclusive, proof-grade false, step failed', async (_name, thrown, message) => {
    const step = await runWith(throwing(thrown));
    expect(step.outputs).toEqual({ verdict: 'inconclusive', 'proof-grade': 'false' });
    expect(step.failed).toHaveLength(1);
    expect(step.failed[0]).toMatch(message);
  });

  it.each<[string, Error]>([
    ['a PolicyError', new PolicyError('policy_violation', 'the diff touches .github/')],
    ['a ConfigurationError', new ConfigurationError('run-id is required')],
    ['a VerificationError', new VerificationError('witness_digest_mismatch', 'the pack is not the pinned one')]
  ])('%s (a refusal): verdict failed, step failed', async (_name, thrown) => {
    const step = await runWith(throwing(thrown));
    expect(step.outputs).toEqual({ verdict: 'failed', 'proof-grade': 'false' });
    expect(step.failed).toEqual([`patchproof: ${thrown.message}`]);
  });

  it("a mode's result is the outputs; only passed leaves the step green", async () => {
    const result: ModeResult = { verdict: 'inconclusive', proofGrade: false, receiptDigest: `sha256:${'a'.repeat(64)}`, message: 'the receipt failed its own verification' };
    const step = await runWith(() => Promise.resolve(result));
    expect(step.outputs).toEqual({ verdict: 'inconclusive', 'proof-grade': 'false', 'receipt-digest': result.receiptDigest });
    expect(step.failed).toEqual(['the receipt failed its own verification']);
    const passed = await runWith(() => Promise.resolve({ verdict: 'passed', proofGrade: true, message: 'passed' }));
    expect(passed.outputs).toEqual({ verdict: 'passed', 'proof-grade': 'true' });
    expect(passed.failed).toEqual([]);
  });

  it("a validate shard job's `uploaded` leaves the step green, and is never reported as passed", async () => {
    const step = await runWith(() => Promise.resolve({ verdict: 'uploaded', proofGrade: false, artifactId: 7, message: 'shard 1/2 uploaded' }));
    expect(step.outputs).toEqual({ verdict: 'uploaded', 'proof-grade': 'false', 'artifact-id': '7' });
    expect(step.failed).toEqual([]);
  });

  it("doctor's `checked` leaves the step green with its answers as outputs; a failing answer fails the step; neither is passed", async () => {
    const checked = await runWith(() =>
      Promise.resolve({
        verdict: 'checked',
        proofGrade: false,
        doctor: { worst: 'unknown', findings: { 'required-check': 'ok', 'fork-workflows': 'unknown' } },
        message: 'setup read'
      })
    );
    expect(checked.outputs).toEqual({
      verdict: 'checked',
      'proof-grade': 'false',
      doctor: 'unknown',
      'doctor-findings': JSON.stringify({ 'required-check': 'ok', 'fork-workflows': 'unknown' })
    });
    expect(checked.failed).toEqual([]);
    const failed = await runWith(() =>
      Promise.resolve({ verdict: 'failed', proofGrade: false, doctor: { worst: 'fail', findings: { 'required-check': 'fail' } }, message: 'required-check: by name only' })
    );
    expect(failed.outputs).toMatchObject({ verdict: 'failed', doctor: 'fail' });
    expect(failed.failed).toEqual(['required-check: by name only']);
  });

  it('settings the reader refuses are failed, before any mode runs', async () => {
    const step: Step = { outputs: {}, failed: [] };
    let ran = false;
    const mode: Mode = () => {
      ran = true;
      return Promise.resolve({ verdict: 'passed', proofGrade: true, message: '' });
    };
    const restore = setEnv({ INPUT_MODE: 'publish' });
    try {
      await run(
        { setOutput: (name, value) => void (step.outputs[name] = value), summary: async () => {}, setFailed: (m) => step.failed.push(m), info: () => {}, warning: () => {} },
        { validate: mode, reverify: mode, promote: mode, screen: mode, 'screen-merge': mode, 'validate-merge': mode, doctor: mode }
      );
    } finally {
      restore();
    }
    expect(ran).toBe(false);
    expect(step.outputs).toEqual({ verdict: 'failed', 'proof-grade': 'false' });
    expect(step.failed[0]).toMatch(/mode 'publish' was removed/);
  });
});
