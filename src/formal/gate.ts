import { overallStatus, type FormalStatus, type FormalTargetRecord, type IntegerModel } from '../core/formal.js';
import { and, not, parseValues, type SmtValue } from './smt.js';
import { solve, solveBatch, type BatchResult, type SolverJob, type SolverLimits, type SolverResult } from './solver.js';
import { FORMAL_RETURN_TYPES, targetName, type FormalBlock, type FormalReturnType, type FormalTarget } from './spec.js';
import { integerModel, isPythonFile, prepareFrontEnd, translateTarget, unboundedArrays } from './front-end.js';
import { SpecError, Unsupported, type Formula, type ParamSymbol } from './translate.js';
import { ReturnTypeMismatch } from './symbolic.js';

/**
 * The formal gate: for each target of the pack's `formal` block, the candidate's function is
 * translated (src/formal/translate.ts) and Z3 is asked for an input that satisfies `requires` and
 * breaks `ensures` or an obligation. Statuses:
 * - `proved`: no such input within the recorded scope (the integer model inside the safe-integer
 *   range, the loop and array bounds, the solver's version);
 * - `counterexample`: one, with the model (parameters and the result);
 * - `checked`: no counterexample among the inputs whose loops end within the unrolling bound, but
 *   some inputs need more iterations (a bounded check, not a proof);
 * - `unknown`: outside the subset, a timeout, a path that leaves the integer model, a counterexample
 *   that does not replay in the runner (src/formal/replay.ts);
 * - `not_applicable`: the pack declares no target (the same for every candidate).
 */

export { overallStatus, type FormalStatus };

/**
 * An integer of a model: a JS number inside ±(2^53−1); outside it (Python targets only: their
 * integers are unbounded) its exact decimal digits as a string, the receipt's form (docs/receipt.md).
 */
export type ModelInt = number | string;
/** A parameter value in a counterexample: an integer, a boolean or an integer array. */
export type ModelValue = ModelInt | boolean | ModelInt[];

export interface Counterexample {
  inputs: Record<string, ModelValue>;
  /** The function's result on these inputs, as the formula computes it (absent if it did not return). */
  result?: ModelInt | boolean;
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
  scope: FormalTargetRecord['scope'];
  duration_ms: number;
}

export interface SolverOptions {
  limits(target: FormalTarget): SolverLimits;
  /** Replaces the child process (tests of the pure logic only). */
  solve?: (job: SolverJob, limits: SolverLimits) => Promise<SolverResult>;
  /** Replaces the batched child; absent with `solve` given: `solve` one job at a time. */
  solveBatch?: (jobs: readonly SolverJob[], limits: SolverLimits) => Promise<BatchResult>;
}

/** The batched solver of these options. */
function batchSolver(options: SolverOptions): (jobs: readonly SolverJob[], limits: SolverLimits) => Promise<BatchResult> {
  if (options.solveBatch !== undefined) return options.solveBatch;
  const one = options.solve;
  if (one === undefined) return (jobs, limits) => solveBatch(jobs, limits);
  return async (jobs, limits) => {
    const started = Date.now();
    const batches: BatchResult['batches'] = [];
    let version = 'unknown';
    for (const job of jobs) {
      const result = await one(job, limits);
      if (result.stopped !== undefined) return { version: 'unknown', batches: [], stopped: result.stopped, duration_ms: Date.now() - started };
      version = result.version;
      batches.push(result.answers);
    }
    return { version, batches, duration_ms: Date.now() - started };
  };
}

/** Limits of a block's targets: the target's time limit, the block's memory bound. */
export function blockLimits(block: FormalBlock): (target: FormalTarget) => SolverLimits {
  return (target) => ({ timeoutMs: target.time_limit_seconds * 1000, memoryMb: block.memory_mb });
}

function valuesOf(formula: Formula): string[] {
  return [...formula.params.flatMap((p) => p.symbols), formula.result];
}

/**
 * A model's integer in the receipt's form: a number when safe, else (python-int only) its exact
 * decimal digits; undefined for a JS value outside the safe range (the JS model never has one).
 */
export function modelInt(value: bigint, integers: IntegerModel): ModelInt | undefined {
  const n = Number(value);
  if (Number.isSafeInteger(n)) return n;
  return integers === 'python-int' ? value.toString() : undefined;
}

/** The values of a model's parameters, exact (see modelInt). */
export function readInputs(params: readonly ParamSymbol[], values: Map<string, SmtValue>, integers: IntegerModel = 'safe'): Record<string, ModelValue> {
  const integer = (symbol: string): ModelInt => {
    const raw = values.get(symbol) ?? 0n;
    const exact = modelInt(typeof raw === 'bigint' ? raw : 0n, integers);
    // The safe model bounds every parameter as a precondition: a value outside it is a solver fault.
    if (exact === undefined) throw new Error(`the model's ${symbol} lies outside the safe-integer range its domain asserts`);
    return exact;
  };
  const inputs: Record<string, ModelValue> = {};
  for (const param of params) {
    if (param.type === 'int[]') {
      const [len, ...elems] = param.symbols;
      const n = Number(values.get(len!) ?? 0n);
      inputs[param.name] = elems.slice(0, n).map((e) => integer(e));
    } else {
      // An optional argument left out (undefined) has no value: it is absent from the inputs, and the replay passes undefined.
      if (param.optional === true && values.get(param.symbols[1]!) !== true) continue;
      inputs[param.name] = param.type === 'bool' ? values.get(param.symbols[0]!) === true : integer(param.symbols[0]!);
    }
  }
  return inputs;
}

/** The queries that decide a candidate: a counterexample inside the model, then whether the model holds. */
export function candidateJob(formula: Formula): SolverJob {
  const of = (kind: string): string[] => formula.obligations.filter((o) => o.kind === kind).map((o) => o.name);
  const bounds = of('bounds');
  const model = of('model');
  const unroll = of('unroll');
  return {
    prelude: formula.prelude,
    queries: [
      {
        id: 'counterexample',
        asserts: [formula.domain, formula.pre, and(...model, ...unroll), not(and(formula.post, ...bounds))],
        values: [...valuesOf(formula), formula.post, ...bounds]
      },
      { id: 'model', asserts: [formula.domain, formula.pre, not(and(...model))], values: model },
      { id: 'unroll', asserts: [formula.domain, formula.pre, not(and(...unroll))], values: unroll }
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
    // A path that raises (ReferenceError, IndexError, ZeroDivisionError, …) returns nothing.
    const raised = formula.obligations.some((o) => o.kind === 'bounds' && o.what.includes('(else ') && values.get(o.name) === false);
    const didReturn = (returned === undefined || values.get(returned.name) !== false) && !raised;
    const raw = values.get(formula.result);
    // A JS result read from an unconstrained value (past an array's end) may lie outside the safe range: left out.
    const result = raw === undefined || !didReturn ? undefined : typeof raw === 'boolean' ? raw : modelInt(raw, formula.integers);
    const counterexample: Counterexample = {
      inputs: readInputs(formula.params, values, formula.integers),
      ...(result !== undefined ? { result } : {}),
      violated: violated.length > 0 ? violated : ['ensures']
    };
    return { status: 'counterexample', counterexample };
  }
  if (cex.status === 'unknown') return { status: 'unknown', reason: `the solver could not decide (${cex.reason ?? 'unknown'})` };
  const model = answer('model');
  if (model === undefined || model.status === 'unknown')
    return { status: 'unknown', reason: `the solver could not decide whether the integer model holds (${model?.reason ?? 'no answer'})` };
  if (model.status === 'sat') {
    const values = parseValues(model.values ?? '');
    const broken = formula.obligations.filter((o) => o.kind === 'model' && values.get(o.name) === false);
    return { status: 'unknown', reason: `an input leaves the proof's scope: ${broken.map((o) => `${o.what} is not guaranteed`).join('; ') || 'an obligation'}` };
  }
  const unroll = answer('unroll');
  if (unroll === undefined || unroll.status === 'unknown')
    return { status: 'unknown', reason: `the solver could not decide whether every loop ends within the bound (${unroll?.reason ?? 'no answer'})` };
  if (unroll.status === 'sat') {
    // No counterexample among the inputs whose loops end within the bound; others need more
    // iterations: a bounded check, never a proof.
    const values = parseValues(unroll.values ?? '');
    const broken = formula.obligations.filter((o) => o.kind === 'unroll' && values.get(o.name) === false);
    return { status: 'checked', reason: `some inputs need more iterations: ${broken.map((o) => `${o.what} is not guaranteed`).join('; ') || 'a loop bound'}` };
  }
  return { status: 'proved' };
}

/**
 * A decision in the scope of the array bound: the formula models every int[] parameter up to
 * `bounds.array_length` elements, so when `requires` allows longer ones a proof is about part of
 * the inputs only: `checked` (a bounded check, never proved), with the reason and the fix.
 */
export function withArrayScope(
  target: FormalTarget,
  outcome: Pick<TargetOutcome, 'status' | 'reason' | 'counterexample'>
): Pick<TargetOutcome, 'status' | 'reason' | 'counterexample'> {
  if (outcome.status !== 'proved' && outcome.status !== 'checked') return outcome;
  const longer = unboundedArrays(target);
  if (longer.length === 0) return outcome;
  const n = target.bounds.array_length;
  const python = isPythonFile(target.file);
  const hint = longer.map((name) => (python ? `len(${name}) <= ${n}` : `${name}.length <= ${n}`)).join(' and ');
  const note = `no counterexample among ${python ? 'lists' : 'arrays'} of length ≤ ${n}, but requires allows a longer ${longer.join(', ')}: those inputs are outside the model (add ${hint} to requires to prove it for every input)`;
  return { status: 'checked', reason: outcome.status === 'checked' && outcome.reason !== undefined ? `${outcome.reason}; ${note}` : note };
}

/** A candidate's text translated, or why it cannot be (the status is then unknown without a solver). */
type Prepared = { formula: Formula } | { reason: string };

function prepare(target: FormalTarget, text: string | undefined, file: string): Prepared {
  if (text === undefined) return { reason: `${target.file} is not in the tree (renamed or deleted?)` };
  try {
    return { formula: translateTarget(target, { text, file }) };
  } catch (error) {
    if (error instanceof Unsupported || error instanceof SpecError) return { reason: `outside the subset: ${error.message}` };
    throw error;
  }
}

/** Check one target against a candidate's file text (undefined: the file is not in the tree). */
export async function checkTarget(target: FormalTarget, text: string | undefined, options: SolverOptions, file = target.file): Promise<TargetOutcome> {
  const started = Date.now();
  const arrays = target.params.some((p) => p.type === 'int[]');
  const base = {
    name: targetName(target),
    file: target.file,
    function: target.function,
    required: target.required,
    scope: {
      unroll: target.bounds.unroll,
      array_length: target.bounds.array_length,
      integers: integerModel(target),
      solver: 'unknown',
      ...(arrays ? { lengths: unboundedArrays(target).length === 0 ? ('all_allowed' as const) : ('up_to_bound' as const) } : {})
    }
  };
  await prepareFrontEnd(target);
  const prepared = prepare(target, text, file);
  if ('reason' in prepared) return { ...base, status: 'unknown', reason: prepared.reason, duration_ms: Date.now() - started };
  const limits = options.limits(target);
  const result = await (options.solve ?? solve)(candidateJob(prepared.formula), limits);
  const decided = decide(prepared.formula, result);
  // Decided before the array scope: a proof that only the array bound makes `checked` still ran every loop to its end.
  const loops = prepared.formula.loops === 0 ? 'none' : decided.status === 'proved' ? 'all_within_unroll' : decided.status === 'checked' ? 'up_to_unroll' : undefined;
  return {
    ...base,
    ...withArrayScope(target, decided),
    scope: { ...base.scope, solver: result.version, ...(loops !== undefined && (decided.status === 'proved' || decided.status === 'checked') ? { loops } : {}) },
    duration_ms: Date.now() - started
  };
}

/**
 * A target whose pack leaves `returns` out, with it inferred (issue 29): the types the base
 * version's returns allow (a return of the other type is a mismatch; code the subset does not
 * reach tells nothing) and the spec's use of `result` allows (`result * n` is an int,
 * `result === (a && b)` a bool). Exactly one must remain; otherwise the pack is refused with why.
 */
export async function resolveReturns(target: FormalTarget, baseText: string | undefined): Promise<FormalTarget> {
  if (target.returns !== undefined) return target;
  await prepareFrontEnd(target);
  const name = targetName(target);
  const fits = (returns: FormalReturnType, source: { text: string; file: string } | undefined, mismatchOnly: boolean): boolean => {
    try {
      translateTarget({ ...target, returns }, source);
      return true;
    } catch (error) {
      if (error instanceof ReturnTypeMismatch) return false;
      if (error instanceof Unsupported || error instanceof SpecError) return mismatchOnly;
      throw error;
    }
  };
  const byCode = FORMAL_RETURN_TYPES.filter((r) => baseText === undefined || fits(r, { text: baseText, file: target.file }, true));
  const bySpec = FORMAL_RETURN_TYPES.filter((r) => fits(r, undefined, false));
  const both = byCode.filter((r) => bySpec.includes(r));
  if (both.length === 1) return { ...target, returns: both[0]! };
  if (both.length === 0) {
    throw new SpecRefusal(
      `formal target ${name}: returns cannot be inferred: the base version returns ${byCode.join(' or ') || 'neither an int nor a bool'}, the spec reads result as ${bySpec.join(' or ') || 'neither'}`
    );
  }
  throw new SpecRefusal(`formal target ${name}: returns cannot be inferred (the base version's returns and the spec's use of result fit an int and a bool alike): say "returns"`);
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
  await prepareFrontEnd(target);
  try {
    formula = translateTarget(target, undefined);
  } catch (error) {
    if (error instanceof SpecError || error instanceof Unsupported) throw new SpecRefusal(`formal target ${name}: ${error.message}`);
    throw error;
  }
  const spec = formula.obligations.filter((o) => o.kind === 'spec').map((o) => o.name);
  // Every translation first; then one child answers the spec's, the wrong ones' and the base's
  // queries. The spec's own defects (a vacuous requires, a tautology) are reported before a wrong
  // implementation or a base outside the subset (issue 29): they are what the author must fix first.
  const wrongFile = `wrong${/\.[A-Za-z]+$/.exec(target.file)?.[0] ?? '.js'}`;
  const wrongs = target.wrong_implementations.map((wrong) => prepare(target, wrong, wrongFile));
  const base = prepare(target, baseText, target.file);
  const translated = [...wrongs, base].filter((p): p is { formula: Formula } => 'formula' in p);
  const translationProblem = (): string | undefined => {
    for (const [index, wrong] of wrongs.entries()) {
      if ('reason' in wrong) return `formal target ${name}: wrong_implementations[${index}] is not refuted (${wrong.reason})`;
    }
    return 'reason' in base ? `formal target ${name}: the base version cannot calibrate the spec: ${base.reason}` : undefined;
  };
  const formulas = translationProblem() === undefined ? translated.map((p) => p.formula) : [];
  const specJob: SolverJob = {
    prelude: formula.prelude,
    queries: [
      { id: 'requires', asserts: [formula.domain, formula.pre], values: [] },
      { id: 'ensures', asserts: [formula.domain, formula.pre, not(formula.post)], values: [] },
      { id: 'defined', asserts: [formula.domain, formula.pre, not(and(...spec))], values: [] }
    ]
  };
  const result = await batchSolver(options)([specJob, ...formulas.map(candidateJob)], options.limits(target));
  if (result.stopped !== undefined) throw new SpecRefusal(`formal target ${name}: the spec could not be checked: ${result.stopped}`);
  const [specAnswers, ...candidateAnswers] = result.batches;
  const status = (id: string) => specAnswers?.find((a) => a.id === id)?.status ?? 'unknown';
  if (status('requires') !== 'sat')
    throw new SpecRefusal(
      `formal target ${name}: requires is ${status('requires') === 'unsat' ? 'unsatisfiable (vacuous: every implementation would be proved)' : 'undecided by the solver'}`
    );
  if (status('ensures') !== 'sat')
    throw new SpecRefusal(
      `formal target ${name}: ensures ${status('ensures') === 'unsat' ? 'holds for any result (a tautology: it checks nothing)' : 'could not be shown to fail for a free result'}`
    );
  if (status('defined') !== 'unsat') throw new SpecRefusal(`formal target ${name}: the spec reads outside an array for some input (make it total, e.g. guard the index)`);
  const untranslated = translationProblem();
  if (untranslated !== undefined) throw new SpecRefusal(untranslated);
  const decided = formulas.map((f, i) => decide(f, { version: result.version, answers: candidateAnswers[i] ?? [], duration_ms: result.duration_ms }));
  for (const [index, outcome] of decided.slice(0, wrongs.length).entries()) {
    if (outcome.status !== 'counterexample') {
      throw new SpecRefusal(
        `formal target ${name}: wrong_implementations[${index}] is ${outcome.status === 'proved' ? 'proved correct: the spec does not refute it' : `not refuted (${outcome.reason ?? outcome.status})`}`
      );
    }
  }
  const baseOutcome = withArrayScope(target, decided[wrongs.length]!);
  if (baseOutcome.status === 'proved') throw new SpecRefusal(`formal target ${name}: the base version is proved correct, so the spec does not capture the bug`);
  if (baseOutcome.status === 'checked')
    throw new SpecRefusal(
      `formal target ${name}: the base version has no counterexample within the bounds (${baseOutcome.reason ?? 'checked'}), so the spec cannot be calibrated; raise bounds.unroll or bounds.array_length`
    );
  if (baseOutcome.status === 'unknown') throw new SpecRefusal(`formal target ${name}: the base version cannot calibrate the spec: ${baseOutcome.reason ?? 'unknown'}`);
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
