import { z } from 'zod';
import { BUILD_TOOLS, type BuildDiagnostic } from './build-diagnostics.js';
import type { ReasonCode, Verdict } from './verdict.js';

/**
 * The L1 build/static gate (the pack's optional `build.argv`, e.g. `tsc --noEmit`): run in the
 * hardened container on the base tree and on the candidate's graded tree, after L0 and before the
 * reproduction. Pure: the record's shape, its status from its runs, and what it does to the verdict.
 *
 * - passed: the build exits 0 on both trees.
 * - failed: it exits 0 on the base and non-zero on the candidate's tree: the candidate broke it.
 * - inconclusive: it does not exit 0 on the base (a build broken before the candidate is never
 *   blamed on it), or a run timed out, was cut at the output cap or hit an infrastructure fault.
 * - not_run: the candidate's build was not needed (the L0 gate failed, or the base reproduction
 *   did not establish the bug).
 */

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const count = z.number().int().min(0);

export const buildDiagnosticSchema = z.strictObject({
  tool: z.enum(BUILD_TOOLS),
  file: z.string().min(1).optional(),
  line: z.number().int().min(1).optional(),
  column: z.number().int().min(1).optional(),
  message: z.string()
});

export const buildRunSchema = z.strictObject({
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  output_truncated: z.boolean(),
  output_bytes: count,
  output_sha256: hex64,
  duration_ms: count,
  infra_error: z.string().optional(),
  /** The first root cause of a failed build, with file:line (src/core/build-diagnostics.ts). */
  diagnostic: buildDiagnosticSchema.optional()
});

export const BUILD_STATUSES = ['passed', 'failed', 'inconclusive', 'not_run'] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];

export const buildRecordSchema = z.strictObject({
  argv: z.array(z.string().min(1)).min(1),
  status: z.enum(BUILD_STATUSES),
  base: buildRunSchema,
  /** Absent when the candidate's build was not run. */
  candidate: buildRunSchema.optional()
});

export type BuildRunRecord = z.infer<typeof buildRunSchema>;
export type BuildRecord = z.infer<typeof buildRecordSchema>;
export type { BuildDiagnostic };

/** The run exited 0, whole and in time. */
function clean(run: BuildRunRecord): boolean {
  return run.exit_code === 0 && !run.timed_out && !run.output_truncated && run.infra_error === undefined;
}

/** The run ended by itself with a non-zero exit, whole and in time: a real build failure. */
function broken(run: BuildRunRecord): boolean {
  return run.exit_code !== null && run.exit_code !== 0 && !run.timed_out && !run.output_truncated && run.infra_error === undefined;
}

/** The gate's status from its runs (re-derived by verify-receipt). */
export function buildStatus(base: BuildRunRecord, candidate: BuildRunRecord | undefined): BuildStatus {
  if (!clean(base)) return 'inconclusive';
  if (candidate === undefined) return 'not_run';
  if (clean(candidate)) return 'passed';
  return broken(candidate) ? 'failed' : 'inconclusive';
}

/** The reasons the gate gives: `build_failed`, `build_base_failed` or `build_inconclusive`. */
export function buildReasons(build: Pick<BuildRecord, 'status' | 'base'> | undefined): ReasonCode[] {
  if (build === undefined) return [];
  if (build.status === 'failed') return ['build_failed'];
  if (build.status === 'inconclusive') return [clean(build.base) ? 'build_inconclusive' : 'build_base_failed'];
  return [];
}

/** The verdict once the build gate is heard: the candidate's broken build fails it; an inconclusive build never passes. */
export function withBuild(
  decision: { verdict: Verdict; reasons: ReasonCode[] },
  build: Pick<BuildRecord, 'status' | 'base'> | undefined
): { verdict: Verdict; reasons: ReasonCode[] } {
  const added = buildReasons(build);
  if (build === undefined || (added.length === 0 && build.status !== 'not_run')) return decision;
  const reasons = [...new Set([...decision.reasons, ...added])].sort();
  if (build.status === 'failed') return { verdict: 'failed', reasons };
  // A candidate whose build did not run never passes (its other phases are not run either).
  return { verdict: decision.verdict === 'passed' ? 'inconclusive' : decision.verdict, reasons };
}

/** What a receipt's build record must satisfy on its own (verify-receipt). */
export function buildRecordErrors(build: BuildRecord): string[] {
  const errors: string[] = [];
  const derived = buildStatus(build.base, build.candidate);
  if (derived !== build.status) errors.push(`build.status is ${build.status} but its runs give ${derived}`);
  return errors;
}

/** A failed build stops the candidate (early exit): its later phases are `not_run`. */
export function buildStops(build: Pick<BuildRecord, 'status'> | undefined): boolean {
  return build?.status === 'failed';
}
