import { checkSpec, checkTarget, type SolverOptions, type TargetOutcome } from '../../src/formal/gate.js';
import { formalTargetSchema, type FormalTarget } from '../../src/formal/spec.js';
import { solveInProcess } from './z3-in-process.js';

/** Shared set-up of the formal gate's tests: a target from a short spec, checked with in-process Z3. */

export const IN_PROCESS: SolverOptions = { limits: () => ({ timeoutMs: 60_000, memoryMb: 1024 }), solve: solveInProcess };

export function target(spec: Partial<Record<keyof FormalTarget, unknown>> & { params: FormalTarget['params']; ensures: string[] }): FormalTarget {
  return formalTargetSchema.parse({ file: 'src/f.js', function: 'f', returns: 'int', ...spec });
}

export async function check(spec: FormalTarget, source: string, file = spec.file): Promise<TargetOutcome> {
  return checkTarget(spec, source, IN_PROCESS, file);
}

/** The spec checks' refusal message, or undefined when the spec is accepted. */
export async function specProblem(spec: FormalTarget, base: string): Promise<string | undefined> {
  try {
    await checkSpec(spec, base, IN_PROCESS);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export const ints = (...names: string[]): FormalTarget['params'] => names.map((name) => ({ name, type: 'int' as const }));
