import { witnessAdapter } from '../adapters/registry.js';
import type { TestAdapter } from '../adapters/adapter.js';
import { serializeReceipt, verifyReceiptText, type ReceiptCheck } from '../core/receipt.js';
import { installSignalCleanup } from '../runners/docker-runner.js';
import type { Runner } from '../runners/runner.js';
import { validateWithDetail } from './orchestrator.js';
import type { ValidationDeps, ValidationRequest, ValidationResult, WitnessInput } from './types.js';

/** A sealed validation: the result, the receipt's exact bytes, and the receipt's own verification of them. */
export interface Sealed extends ValidationResult {
  text: string;
  check: ReceiptCheck;
}

export interface PipelineOptions<T> {
  /** The verified witness pack (the caller fetched and opened it; it disposes of it). */
  witness: WitnessInput;
  /** After the adapter, before any runner: what must be refused before anything starts (the claim). */
  intake?(adapter: TestAdapter): Promise<T>;
  createRunner(): Promise<Runner>;
  /** On SIGINT/SIGTERM, after the runner's containers are removed; absent: the process exits. */
  onSignal?: (code: number) => void;
  /** The rest of the request, once adapter and runner exist. */
  request(context: { adapter: TestAdapter; runner: Runner; intake: T | undefined }): Promise<Omit<ValidationRequest, 'witness' | 'adapter' | 'runner'>>;
  deps: ValidationDeps;
  /** After the validation, before the runner is disposed of (the baseline cache is settled here). */
  settle?(result: ValidationResult): Promise<void>;
}

/**
 * The one chain both the CLI (`validate`) and the action (validate mode) run: witness → adapter →
 * runner → validate → seal. The runner is disposed of, and the signal handlers removed, whatever happens.
 */
export async function pipeline<T = undefined>(options: PipelineOptions<T>): Promise<Sealed> {
  const { witness } = options;
  const adapter = await witnessAdapter(witness.manifest, witness.dir);
  const intake = options.intake !== undefined ? await options.intake(adapter) : undefined;
  const runner = await options.createRunner();
  const removeHandlers = options.onSignal !== undefined ? installSignalCleanup(runner, options.onSignal) : installSignalCleanup(runner);
  try {
    const rest = await options.request({ adapter, runner, intake });
    const result = await validateWithDetail({ ...rest, witness, adapter, runner }, options.deps);
    await options.settle?.(result);
    const text = serializeReceipt(result.receipt);
    return { ...result, text, check: verifyReceiptText(text) };
  } finally {
    await runner.dispose();
    removeHandlers();
  }
}
