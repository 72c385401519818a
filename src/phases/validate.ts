/**
 * The validation, as the callers have always imported it. It lives in src/phases/ now: the
 * orchestrator (orchestrator.ts) runs the registered phases (registry.ts), and pipeline.ts is the
 * one witness → adapter → runner → validate → seal chain the CLI and the action call.
 */
export { recordRuns, validate, validateWithDetail } from './orchestrator.js';
export {
  DEFAULT_PREPARE_AHEAD,
  type BaseFailure,
  type RecordedRun,
  type RunOutput,
  type SharedBaseline,
  type SharedRuns,
  type ValidationDeps,
  type ValidationLimits,
  type ValidationRequest,
  type ValidationResult,
  type WitnessInput
} from './types.js';
