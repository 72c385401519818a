import { overallStatus, type FormalStatus } from '../core/formal.js';
import { and, not, parseValues, type SmtValue } from './smt.js';
import { solve, type SolverJob, type SolverLimits, type SolverResult } from './solver.js';
import { targetName, type FormalBlock, type FormalTarget } from './spec.js';
import { SpecError, translate, Unsupported, type Formula, type ParamSymbol } from './translate.js';

/**
 * The formal gate: for each target of the pack's `formal` block, the candidate's function is
 * translated (src/formal/translate.ts) and Z3 is asked for an input that satisfies `requires` and
 * breaks `ensures` or an obligation. Statuses:
 * - `proved`: no such input within the recorded scope (the integer model inside the safe-integer
 *   range, the loop and array bounds, the solver's version);
 * - `counterexample`: one, with the model (parameters and the result);
 * - `unknown`: outside the subset, a timeout, a path that leaves the integer model or the loop bound;
 * - `not_applicable`: the pack declares no target (the same for every candidate).
 */

export { overallStatus, type FormalStatus };

/** A parameter value in a counterexample: a JS integer, boolean or integer array. */
export type ModelValue = number | boolean | number[];

export interface Counterexample {
  inputs: Record<string, ModelValue>;
  /** The function's result on these inputs, as the formula computes it (absent if it did not return). */
  result?: number | boolean;
  /** What failed: "ensures", or an obligation such as "the read a[…] is inside the array (line 4)". */
  violated: string[];
}

export interface TargetOutcome {
  name: string;
  file: string;
  function: string;
  required: boolean;
  status: Exclude<FormalStatus, 'not_applicable'>;
  /** Why the status is unknown. */
  reason?: string;
  counterexample?: Counterexample;
  scope: { unroll: number; array_length: number; integers: 'safe'; solver: string };
  duration_ms: number;
}

export interface SolverOptions {
  limits(target: FormalTarget): SolverLimits;
  /** Replaces the child process (tests of the pure logic only). */
  solve?: (job: SolverJob, limits: SolverLimits) => Promise<SolverResult>;
}

/** Limits of a block's targets: the target's time limit, the block's memory bound. */
export function blockLimits(block: FormalBlock): (target: FormalTarget) => SolverLimits {
  return (target) => ({ timeoutMs: target.time_limit_seconds * 1000, memoryMb: block.memory_mb });
}

function valuesOf(formula: Formula): string[] {
  return [...formula.params.flatMap((p) => p.symbols), formula.result];
}

/** The JS values of a model's parameters. */
export function readInputs(params: readonly ParamSymbol[], values: Map<string, SmtValue>): Record<string, ModelValue> {
  const inputs: Record<string, ModelValue> = {};
  for (const param of params) {
    if (param.type === 'int[]') {
      const [len, ...elems] = param.symbols;
      const n = Number(values.get(len!) ?? 0n);
      inputs[param.name] = elems.slice(0, n).map((e) => Number(values.get(e) ?? 0n));
    } else {
      const v = values.get(param.symbols[0]!);
      inputs[param.name] = param.type === 'bool' ? v === true : Number(v ?? 0n);
    }
  }
  return inputs;
}

/** The queries that decide a candidate: a counterexample inside the model, then whether the model holds. */
export function candidateJob(formula: Formula): SolverJob {
  const of = (kind: string): string[] => formula.obligations.filter((o) => o.kind === kind).map((o) => o.name);
  const bounds = of('bounds');
  const model = [...of('model'), ...of('unroll')];
  return {
    prelude: formula.prelude,
    queries: [
      { id: 'counterexample', asserts: [formula.domain, formula.pre, and(...model), not(and(formula.post, ...bounds))], values: [...valuesOf(formula), formula.post, ...bounds] },
      { id: 'model', asserts: [formula.domain, formula.pre, not(and(...model))], values: model }
    ]
  };
}

/** Decide one target's status from the candidate job's answers. */
export function decide(formula: Formula, result: SolverResult): Pick<TargetOutcome, 'status' | 'reason' | 'counterexample'> {
  if (result.stopped !== undefined) return { status: 'unknown', reason: result.stopped };
  const answer = (id: string) => result.answers.find((a) => a.id === id);
  const cex = answer('counterexample');
  if (cex === undefined) return { status: 'unknown', reason: 'the solver gave no answer' };
  if (cex.status === 'sat') {
    const values = parseValues(cex.values ?? '');
    const violated = [
      ...(values.get(formula.post) === false ? ['ensures'] : []),
      ...formula.obligations.filter((o) => o.kind === 'bounds' && values.get(o.name) === false).map((o) => o.what)
    ];
    const returned = formula.obligations.find((o) => o.kind === 'bounds' && o.what.includes('returns on every path'));
    const didReturn = returned === undefined || values.get(returned.name) !== false;
    const raw = values.get(formula.result);
    const counterexample: Counterexample = {
      inputs: readInputs(formula.params, values),
      // A result read from an unconstrained value (past an array's end) may lie outside the safe range: left out.
      ...(didReturn && raw !== undefined && (typeof raw === 'boolean' || Number.isSafeInteger(Number(raw))) ? { result: typeof raw === 'boolean' ? raw : Number(raw) } : {}),
      violated: violated.length > 0 ? violated : ['ensures']
    };
    return { status: 'counterexample', counterexample };
  }
  if (cex.status === 'unknown') return { status: 'unknown', reason: `the solver could not decide (${cex.reason ?? 'unknown'})` };
  const model = answer('model');
  if (model === undefined || model.status === 'unknown') return { status: 'unknown', reason: `the solver could not decide whether the integer model holds (${model?.reason ?? 'no answer'})` };
  if (model.status === 'sat') {
    const values = parseValues(model.values ?? '');
    const broken = formula.obligations.filter((o) => (o.kind === 'model' || o.kind === 'unroll') && values.get(o.name) === false);
    return { status: 'unknown', reason: `an input leaves the proof's scope: ${broken.map((o) => (o.kind === 'unroll' ? `${o.what} is not guaranteed` : `${o.what} is not guaranteed`)).join('; ') || 'an obligation'}` };
  }
  return { status: 'proved' };
}

/** Check one target against a candidate's file text (undefined: the file is not in the tree). */
export async function checkTarget(target: FormalTarget, text: string | undefined, options: SolverOptions, file = target.file): Promise<TargetOutcome> {
  const started = Date.now();
  const base = {
    name: targetName(target),
    file: target.file,
    function: target.function,
    required: target.required,
    scope: { unroll: target.bounds.unroll, array_length: target.bounds.array_length, integers: 'safe' as const, solver: 'unknown' }
  };
  if (text === undefined) return { ...base, status: 'unknown', reason: `${target.file} is not in the tree (renamed or deleted?)`, duration_ms: 0 };
  let formula: Formula;
  try {
    formula = translate(target, { text, file });
  } catch (error) {
    if (error instanceof Unsupported || error instanceof SpecError) return { ...base, status: 'unknown', reason: `outside the subset: ${error.message}`, duration_ms: Date.now() - started };
    throw error;
  }
  const limits = options.limits(target);
  const result = await (options.solve ?? solve)(candidateJob(formula), limits);
  return { ...base, ...decide(formula, result), scope: { ...base.scope, solver: result.version }, duration_ms: Date.now() - started };
}

/** Why a pack's spec cannot calibrate: the pack is refused with this one line. */
export class SpecRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecRefusal';
  }
}

/**
 * The spec checks, when the pack is loaded against a base tree: `requires` is satisfiable, `ensures`
 * fails for a free result (not a tautology), the spec's own reads stay defined, every wrong
 * implementation gets a counterexample, and the base version gets one too (like reproduction
 * calibration). A base outside the subset cannot calibrate the spec: refused as well.
 */
export async function checkSpec(target: FormalTarget, baseText: string | undefined, options: SolverOptions): Promise<void> {
  const name = targetName(target);
  let formula: Formula;
  try {
    formula = translate(target, undefined);
  } catch (error) {
    if (error instanceof SpecError || error instanceof Unsupported) throw new SpecRefusal(`formal target ${name}: ${error.message}`);
    throw error;
  }
  const spec = formula.obligations.filter((o) => o.kind === 'spec').map((o) => o.name);
  const limits = options.limits(target);
  const result = await (options.solve ?? solve)(
    {
      prelude: formula.prelude,
      queries: [
        { id: 'requires', asserts: [formula.domain, formula.pre], values: [] },
        { id: 'ensures', asserts: [formula.domain, formula.pre, not(formula.post)], values: [] },
        { id: 'defined', asserts: [formula.domain, formula.pre, not(and(...spec))], values: [] }
      ]
    },
    limits
  );
  if (result.stopped !== undefined) throw new SpecRefusal(`formal target ${name}: the spec could not be checked: ${result.stopped}`);
  const status = (id: string) => result.answers.find((a) => a.id === id)?.status ?? 'unknown';
  if (status('requires') !== 'sat') throw new SpecRefusal(`formal target ${name}: requires is ${status('requires') === 'unsat' ? 'unsatisfiable (vacuous: every implementation would be proved)' : 'undecided by the solver'}`);
  if (status('ensures') !== 'sat') throw new SpecRefusal(`formal target ${name}: ensures ${status('ensures') === 'unsat' ? 'holds for any result (a tautology: it checks nothing)' : 'could not be shown to fail for a free result'}`);
  if (status('defined') !== 'unsat') throw new SpecRefusal(`formal target ${name}: the spec reads outside an array for some input (make it total, e.g. guard the index)`);
  for (const [index, wrong] of target.wrong_implementations.entries()) {
    const outcome = await checkTarget(target, wrong, options, `wrong${/\.[A-Za-z]+$/.exec(target.file)?.[0] ?? '.js'}`);
    if (outcome.status !== 'counterexample') {
      throw new SpecRefusal(`formal target ${name}: wrong_implementations[${index}] is ${outcome.status === 'proved' ? 'proved correct: the spec does not refute it' : `not refuted (${outcome.reason ?? outcome.status})`}`);
    }
  }
  const base = await checkTarget(target, baseText, options);
  if (base.status === 'proved') throw new SpecRefusal(`formal target ${name}: the base version is proved correct, so the spec does not capture the bug`);
  if (base.status === 'unknown') throw new SpecRefusal(`formal target ${name}: the base version cannot calibrate the spec: ${base.reason ?? 'unknown'}`);
}

/** The gate's outcome for a candidate: every target's, or not_applicable when the pack has none. */
export interface FormalOutcome {
  status: FormalStatus;
  targets: TargetOutcome[];
}

export async function runFormalGate(block: FormalBlock | undefined, readCandidate: (file: string) => string | undefined, options: SolverOptions): Promise<FormalOutcome> {
  if (block === undefined) return { status: 'not_applicable', targets: [] };
  const targets: TargetOutcome[] = [];
  for (const target of block.targets) targets.push(await checkTarget(target, readCandidate(target.file), options));
  return { status: overallStatus(targets), targets };
}
