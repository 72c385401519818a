import { z } from 'zod';

/**
 * The witness pack's `formal` block: the targets of the formal (Z3) gate. Pure: a zod schema and
 * its types. Documented in docs/witness-pack.md ("The formal block").
 */

/** The parameter types of the subset: safe integers, booleans, and integer arrays of bounded length. */
export const FORMAL_PARAM_TYPES = ['int', 'bool', 'int[]'] as const;
export type FormalParamType = (typeof FORMAL_PARAM_TYPES)[number];

/** What a target function may return. */
export const FORMAL_RETURN_TYPES = ['int', 'bool'] as const;
export type FormalReturnType = (typeof FORMAL_RETURN_TYPES)[number];

/** The largest loop unrolling and array bound a pack may ask for (the formula grows with both). */
export const MAX_UNROLL = 64;
export const MAX_ARRAY_LENGTH = 16;

const identifier = z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/);

export const formalTargetSchema = z.strictObject({
  /** A name of this target in the receipt and the report. */
  name: identifier.optional(),
  /** Repository-relative JavaScript or TypeScript file that defines the function. */
  file: z.string().min(1),
  /** The function's name: a top-level function declaration or `const name = (…) => …`. */
  function: identifier,
  /**
   * The parameters, by position. `optional` (JS targets, `int` or `bool`): the argument may be left
   * out, so the function meets `undefined` there (issue 29).
   */
  params: z.array(z.strictObject({ name: identifier, type: z.enum(FORMAL_PARAM_TYPES), optional: z.boolean().optional() })).max(8),
  /** The result's type; absent: inferred from the base version's returns and the spec's use of `result`, when they leave one (src/formal/gate.ts). */
  returns: z.enum(FORMAL_RETURN_TYPES).optional(),
  /** JavaScript expressions over the parameters (all must hold); absent: every safe input. */
  requires: z.array(z.string().min(1)).default(() => []),
  /** JavaScript expressions over the parameters (their values on entry) and `result`: all must hold. */
  ensures: z.array(z.string().min(1)).min(1),
  bounds: z
    .strictObject({
      /** How many iterations of each loop are unrolled; a run needing more is `unknown`, never proved. */
      unroll: z.number().int().min(0).max(MAX_UNROLL).default(8),
      /** The largest length of every `int[]` parameter. */
      array_length: z.number().int().min(0).max(MAX_ARRAY_LENGTH).default(4)
    })
    .prefault({}),
  /** Wall-clock limit of one solver process, in seconds. */
  time_limit_seconds: z.number().int().min(1).max(600).default(30),
  /** An `unknown` for this target keeps the validation from passing (otherwise it is reported). */
  required: z.boolean().default(false),
  /** Whole function definitions (the target's name, same parameters) the spec must refute. */
  wrong_implementations: z.array(z.string().min(1)).default(() => [])
});

export const formalBlockSchema = z.strictObject({
  targets: z.array(formalTargetSchema).min(1).max(16),
  /** Z3's own memory bound, in megabytes (memory_max_size); the child's resident size is watched too. */
  memory_mb: z.number().int().min(64).max(8192).default(1024)
});

export type FormalTarget = z.output<typeof formalTargetSchema>;
export type FormalBlock = z.output<typeof formalBlockSchema>;

/** The name a target goes by in the receipt: its `name`, or file and function. */
export function targetName(target: FormalTarget): string {
  return target.name ?? `${target.file}#${target.function}`;
}
