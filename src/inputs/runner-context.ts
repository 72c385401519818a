import { ConfigurationError } from '../errors.js';

/**
 * The one reader of the runner's own variables (`GITHUB_*`, `RUNNER_*`) for the action's modes; the
 * step's inputs are read in action-settings.ts. Each mode names the variables it cannot run without,
 * and gets them typed as set; every other field is `undefined` when unset or empty, except the three
 * with documented defaults (the run attempt, the REST and web roots).
 */

/** Each field and the variable it comes from. */
const VARIABLES = {
  eventName: 'GITHUB_EVENT_NAME',
  eventPath: 'GITHUB_EVENT_PATH',
  ref: 'GITHUB_REF',
  sha: 'GITHUB_SHA',
  repository: 'GITHUB_REPOSITORY',
  workspace: 'GITHUB_WORKSPACE',
  runnerTemp: 'RUNNER_TEMP',
  actor: 'GITHUB_ACTOR',
  runId: 'GITHUB_RUN_ID',
  runAttempt: 'GITHUB_RUN_ATTEMPT',
  /** Which workflow file, at which ref, this job runs from (the trust decision reads it). */
  workflowRef: 'GITHUB_WORKFLOW_REF'
} as const;

/** A field a mode may require. */
export type RunnerField = keyof typeof VARIABLES;

/** The runner's variables; a field is undefined when its variable is unset or empty. */
export type RunnerContext = { [F in Exclude<RunnerField, 'runAttempt'>]: string | undefined } & {
  /** GITHUB_RUN_ATTEMPT, '1' when unset (unless required). */
  runAttempt: string;
  /** GITHUB_API_URL, https://api.github.com when unset. */
  apiUrl: string;
  /** GITHUB_SERVER_URL, https://github.com when unset. */
  serverUrl: string;
};

/** The context with the `required` fields typed as set. */
export type RunnerContextWith<F extends RunnerField> = RunnerContext & { [K in F]: string };

function missing(field: RunnerField): ConfigurationError {
  return new ConfigurationError(`${VARIABLES[field]} is not set; run PatchProof as a step of a GitHub Actions job`);
}

/**
 * Read the runner's variables from `env`. A `required` field that is unset or empty is a
 * ConfigurationError naming the variable, checked in the order given, before anything is read.
 */
export function readRunnerContext<F extends RunnerField>(env: NodeJS.ProcessEnv, required: readonly F[]): RunnerContextWith<F> {
  for (const field of required) {
    const value = env[VARIABLES[field]];
    if (value === undefined || value === '') throw missing(field);
  }
  const read = (field: RunnerField): string | undefined => {
    const value = env[VARIABLES[field]];
    return value === undefined || value === '' ? undefined : value;
  };
  const context: RunnerContext = {
    eventName: read('eventName'),
    eventPath: read('eventPath'),
    ref: read('ref'),
    sha: read('sha'),
    repository: read('repository'),
    workspace: read('workspace'),
    runnerTemp: read('runnerTemp'),
    actor: read('actor'),
    runId: read('runId'),
    runAttempt: read('runAttempt') ?? '1',
    workflowRef: read('workflowRef'),
    apiUrl: env['GITHUB_API_URL'] || 'https://api.github.com',
    serverUrl: env['GITHUB_SERVER_URL'] || 'https://github.com'
  };
  // Every required field was checked above to be a non-empty string.
  return context as RunnerContextWith<F>;
}
