import { z } from 'zod';
import type { ReasonCode, Verdict } from './verdict.js';

/**
 * The formal gate's record in the receipt, and what it does to the verdict. Pure. The gate itself
 * (translation on the host, Z3 in a child) is src/formal/; docs/receipt.md documents the record.
 *
 * - a `counterexample` for any target fails the validation (`formal_counterexample`);
 * - `unknown` for a target the pack marks `required` keeps it from passing (`formal_unknown`);
 *   for other targets it is reported only;
 * - `checked` (no counterexample among the inputs whose loops end within the unrolling bound, but
 *   some inputs need more iterations: a bounded check, not a proof) never passes a `required`
 *   target either (`formal_bounded_only`): the inputs beyond the bound are where a loop's bugs hide;
 * - `not_applicable` (the pack declares no target) is the same for every candidate: no field at all.
 */

export const FORMAL_STATUSES = ['proved', 'checked', 'counterexample', 'unknown', 'not_applicable'] as const;
export type FormalStatus = (typeof FORMAL_STATUSES)[number];

const count = z.number().int().nonnegative();
/** A target's statuses (`checked` from v6). */
export const TARGET_STATUSES = ['proved', 'checked', 'counterexample', 'unknown'] as const;
/** What replaying a counterexample in the runner showed. */
export const REPLAY_OUTCOMES = ['failed', 'passed', 'no_result'] as const;
export type ReplayOutcome = (typeof REPLAY_OUTCOMES)[number];
const safeInt = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
/**
 * An integer outside ±(2^53−1), exactly (from v8, `python-int` targets only): its decimal digits as a
 * JSON string, `-` for negatives, no sign for positives, no leading zeros. JSON numbers that large
 * are not exact in every reader, so the one exact form is text; a safe integer is always a number.
 */
export const BIG_INTEGER_PATTERN = /^-?[1-9][0-9]*$/;
const bigInt = z
  .string()
  .refine((text) => BIG_INTEGER_PATTERN.test(text), 'an exact integer is its decimal digits: -?[1-9][0-9]*')
  .refine((text) => !BIG_INTEGER_PATTERN.test(text) || !Number.isSafeInteger(Number(text)), 'a safe integer is written as a JSON number');
/** A counterexample's integer: a JSON number inside the safe range, a decimal string outside it (python-int only). */
const modelInt = z.union([safeInt, bigInt]);

/**
 * What the binding check showed (issue 29): `bound`, the function the tests reach is the analysed
 * definition and the builtins it calls are the originals; `unbound`, it is not (the target is
 * `unknown`); `no_result`, the probe gave no usable facts (a fault, a timeout, a missing line: the
 * target is `unknown`).
 */
export const BINDING_OUTCOMES = ['bound', 'unbound', 'no_result'] as const;
export type BindingOutcome = (typeof BINDING_OUTCOMES)[number];

/** The integer models a proof is about: JS safe integers, or Python's unbounded `int` (from v8). */
export const INTEGER_MODELS = ['safe', 'python-int'] as const;
export type IntegerModel = (typeof INTEGER_MODELS)[number];

/**
 * How far a target's int[] inputs are covered (issue 29): `all_allowed`, `requires` bounds every
 * int[] length at or below `array_length`, so every input it allows is in the model; `up_to_bound`,
 * `requires` allows longer arrays, which the model does not hold (then the best status is `checked`).
 */
export const ARRAY_LENGTH_SCOPES = ['all_allowed', 'up_to_bound'] as const;
/**
 * How far a proved or checked target's loops are covered (issue 29): `none`, the function has no
 * loop; `all_within_unroll`, every loop ends within `unroll` iterations for every input `requires`
 * allows, so the unrolling covers every run; `up_to_unroll`, some input needs more (`checked`).
 */
export const LOOP_SCOPES = ['none', 'all_within_unroll', 'up_to_unroll'] as const;

export const formalTargetRecordSchema = z.strictObject({
  name: z.string().min(1),
  file: z.string().min(1),
  function: z.string().min(1),
  required: z.boolean(),
  status: z.enum(TARGET_STATUSES),
  /** Why the status is unknown (outside the subset, a timeout, the scope left) or only checked (the bound not guaranteed). */
  reason: z.string().min(1).optional(),
  /** The model: the inputs, the function's result as the formula computes it, and what failed. */
  counterexample: z
    .strictObject({
      inputs: z.record(z.string(), z.union([modelInt, z.boolean(), z.array(modelInt)])),
      result: z.union([modelInt, z.boolean()]).optional(),
      violated: z.array(z.string().min(1)).min(1)
    })
    .optional(),
  /**
   * The counterexample replayed in the runner (from v6): a generated node:test test calls the
   * candidate's function with the model's inputs and checks `ensures`. `failed`: it fails there
   * too, the counterexample stands; `passed` or `no_result` (no verdict line, a timeout, an
   * infrastructure fault): it does not replay, so the status is `unknown`.
   */
  replay: z
    .strictObject({
      outcome: z.enum(REPLAY_OUTCOMES),
      /** SHA-256 of the generated test's text and of the run's whole output. */
      test_sha256: z.string().regex(/^[0-9a-f]{64}$/),
      output_sha256: z.string().regex(/^[0-9a-f]{64}$/),
      exit_code: z.number().int().nullable(),
      duration_ms: count
    })
    .optional(),
  /**
   * The binding check of a proved or checked target (issue 29): a probe imported the target's module
   * in the runner and printed facts about the function it reached; the host compared them with the
   * analysed text. Only `bound` keeps the status; otherwise the target is `unknown`.
   */
  binding: z
    .strictObject({
      outcome: z.enum(BINDING_OUTCOMES),
      /** SHA-256 of the generated probe's text and of the run's whole output. */
      probe_sha256: z.string().regex(/^[0-9a-f]{64}$/),
      output_sha256: z.string().regex(/^[0-9a-f]{64}$/),
      exit_code: z.number().int().nullable(),
      duration_ms: count
    })
    .optional(),
  /**
   * What a proof covers: the integer model (`safe`: JS safe integers, every value in ±(2^53−1);
   * `python-int`, from v8: Python's unbounded integers), the bounds, the solver; and (issue 29)
   * whether the bounds limit it: `lengths` (targets with int[] parameters) and `loops` (set when
   * the solver proved or checked the target).
   */
  scope: z.strictObject({
    unroll: count,
    array_length: count,
    integers: z.enum(INTEGER_MODELS),
    solver: z.string().min(1),
    lengths: z.enum(ARRAY_LENGTH_SCOPES).optional(),
    loops: z.enum(LOOP_SCOPES).optional()
  }),
  duration_ms: count
});

export const formalRecordSchema = z.strictObject({
  status: z.enum(TARGET_STATUSES),
  targets: z.array(formalTargetRecordSchema).min(1)
});

export type FormalTargetRecord = z.infer<typeof formalTargetRecordSchema>;
export type FormalRecord = z.infer<typeof formalRecordSchema>;

/** Roll the targets up: any counterexample; else any unknown; else any checked; else proved; none: not_applicable. */
export function overallStatus(targets: readonly Pick<FormalTargetRecord, 'status'>[]): FormalStatus {
  if (targets.length === 0) return 'not_applicable';
  if (targets.some((t) => t.status === 'counterexample')) return 'counterexample';
  if (targets.some((t) => t.status === 'unknown')) return 'unknown';
  if (targets.some((t) => t.status === 'checked')) return 'checked';
  return 'proved';
}

/**
 * The screening rank's formal slot, lowest first: proved 0, checked 1, unknown 2, counterexample 3.
 * No record (the pack declares no target) is 0: it is the same for every candidate of a screen, so it
 * never favours one, and a business patch without a spec is not penalised (seed 002).
 */
export const FORMAL_PRIORITY: Record<FormalStatus, number> = { proved: 0, not_applicable: 0, checked: 1, unknown: 2, counterexample: 3 };

export function formalPriority(formal: Pick<FormalRecord, 'status'> | undefined): number {
  return formal === undefined ? 0 : FORMAL_PRIORITY[formal.status];
}

/** The reasons the formal record gives. */
export function formalReasons(formal: Pick<FormalRecord, 'targets'> | undefined): ReasonCode[] {
  if (formal === undefined) return [];
  const reasons: ReasonCode[] = [];
  if (formal.targets.some((t) => t.status === 'counterexample')) reasons.push('formal_counterexample');
  if (formal.targets.some((t) => t.status === 'unknown' && t.required)) reasons.push('formal_unknown');
  if (formal.targets.some((t) => t.status === 'checked' && t.required)) reasons.push('formal_bounded_only');
  return reasons;
}

/** The verdict once the formal gate is heard: a counterexample fails, a required unknown never passes. */
export function withFormal(decision: { verdict: Verdict; reasons: ReasonCode[] }, formal: Pick<FormalRecord, 'targets'> | undefined): { verdict: Verdict; reasons: ReasonCode[] } {
  const added = formalReasons(formal);
  if (added.length === 0) return decision;
  const reasons = [...new Set([...decision.reasons, ...added])].sort();
  if (added.includes('formal_counterexample')) return { verdict: 'failed', reasons };
  return { verdict: decision.verdict === 'passed' ? 'inconclusive' : decision.verdict, reasons };
}

/** Whether a counterexample holds an integer outside the safe range (a decimal string). */
export function hasBigInteger(cex: NonNullable<FormalTargetRecord['counterexample']>): boolean {
  const values = [...Object.values(cex.inputs).flatMap((v) => (Array.isArray(v) ? v : [v])), ...(cex.result === undefined ? [] : [cex.result])];
  return values.some((v) => typeof v === 'string');
}

/** What a receipt's formal record must satisfy on its own (verify-receipt). */
export function formalRecordErrors(formal: FormalRecord): string[] {
  const errors: string[] = [];
  const rolled = overallStatus(formal.targets);
  if (rolled !== formal.status) errors.push(`formal.status is ${formal.status} but its targets roll up to ${rolled}`);
  const names = formal.targets.map((t) => t.name);
  if (new Set(names).size !== names.length) errors.push('formal.targets: two targets share a name');
  for (const t of formal.targets) {
    const where = `formal target ${t.name}`;
    if ((t.status === 'counterexample') !== (t.counterexample !== undefined)) errors.push(`${where}: a counterexample goes with status counterexample and only with it`);
    if (t.replay !== undefined) {
      // Only a replay that fails keeps a counterexample; one that does not makes the target unknown.
      if (t.status === 'counterexample' && t.replay.outcome !== 'failed')
        errors.push(`${where}: a counterexample whose replay ${t.replay.outcome === 'passed' ? 'passed' : 'gave no result'} is unknown, not a counterexample`);
      if (t.status === 'unknown' && t.replay.outcome === 'failed') errors.push(`${where}: a counterexample whose replay failed is a counterexample, not unknown`);
      if (t.status === 'proved' || t.status === 'checked') errors.push(`${where}: a replay goes with a counterexample found by the solver, not with status ${t.status}`);
    }
    if ((t.status === 'unknown' || t.status === 'checked') !== (t.reason !== undefined)) errors.push(`${where}: a reason goes with status unknown or checked and only with them`);
    if (t.binding !== undefined) {
      // Only a bound target keeps its proof; a binding is checked for proofs, never with a replay.
      if ((t.status === 'proved' || t.status === 'checked') && t.binding.outcome !== 'bound')
        errors.push(`${where}: a ${t.status} target whose binding check is ${t.binding.outcome} is unknown`);
      if (t.status === 'unknown' && t.binding.outcome === 'bound') errors.push(`${where}: a target whose binding check is bound keeps the solver's status, not unknown`);
      if (t.status === 'counterexample' || t.replay !== undefined)
        errors.push(`${where}: a binding check goes with a proved or checked target, not with a counterexample or its replay`);
    }
    if (t.scope.integers === 'safe' && t.counterexample !== undefined && hasBigInteger(t.counterexample)) {
      errors.push(`${where}: an integer outside the safe range in a counterexample over safe integers (only python-int targets have them)`);
    }
    if (t.scope.integers === 'python-int' && !/\.py$/.test(t.file)) errors.push(`${where}: the python-int integer model goes with a Python target (.py) only`);
    // A proof covers every input requires allows: never only the arrays or the runs up to a bound.
    if (t.status === 'proved' && (t.scope.lengths === 'up_to_bound' || t.scope.loops === 'up_to_unroll')) {
      errors.push(`${where}: a proof whose scope stops at a bound (${t.scope.lengths === 'up_to_bound' ? 'array lengths' : 'loop iterations'}) is checked, not proved`);
    }
  }
  return errors;
}
