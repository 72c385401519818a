import { ConfigurationError } from '../errors.js';

/**
 * The inputs only the setup check (`mode: doctor`) reads: which App the required check must come
 * from, which environment holds the App key, which workflow a ruleset may require, and a token that
 * may read the repository's settings. Every error names the input and the accepted form.
 */

/** What doctor mode checks against. */
export interface DoctorInputs {
  /**
   * `expected-app`: PatchProof's GitHub App, by id or by slug (resolved with `GET /apps/{slug}`).
   * Unset: `app-id` when given; with neither, doctor cannot tell a pinned source from another App.
   */
  expectedApp?: { id: number } | { slug: string };
  /** `app-environment`: the environment whose secrets hold the App key (e.g. `patchproof`). */
  appEnvironment?: string;
  /** `gate-workflow`: the gate's workflow file in this repository, for a ruleset's `workflows` rule. */
  gateWorkflow: string;
  /**
   * `settings-token`: a token that may read branch protection and the Actions settings
   * (Administration: read), from a secret; the settings are read with it, the check run is posted
   * with `github-token`. Unset: `github-token` reads them too (a workflow token cannot read all).
   */
  settingsToken?: string;
}

type InputReader = (name: string) => string;

const optional = (read: InputReader, name: string): string | undefined => {
  const value = read(name).trim();
  return value === '' ? undefined : value;
};

/** The inputs of this file: refused in any other mode. */
export const DOCTOR_INPUTS = ['expected-app', 'app-environment', 'gate-workflow', 'settings-token'] as const;

/** Where the gate's workflow lives when `gate-workflow` is unset: the file docs/action.md has users copy. */
export const DEFAULT_GATE_WORKFLOW = '.github/workflows/patchproof-gate.yml';

/** doctor's inputs (undefined in any other mode, where setting one is refused). */
export function readDoctorInputs(read: InputReader, mode: string): DoctorInputs | undefined {
  if (mode !== 'doctor') {
    const set = DOCTOR_INPUTS.find((name) => optional(read, name) !== undefined);
    if (set !== undefined) throw new ConfigurationError(`${set} is for mode doctor only; remove it from mode ${mode}`);
    return undefined;
  }
  const app = optional(read, 'expected-app');
  let expectedApp: DoctorInputs['expectedApp'];
  if (app !== undefined) {
    // GitHub App slugs are lowercase letters, digits and hyphens; ids are positive integers.
    if (/^[1-9][0-9]{0,15}$/.test(app)) expectedApp = { id: Number(app) };
    else if (/^(?=.*[a-z])[a-z0-9][a-z0-9-]{0,99}$/.test(app)) expectedApp = { slug: app };
    else throw new ConfigurationError(`expected-app '${app.slice(0, 100)}' is neither a GitHub App id nor an app slug; give the number or the slug from the app's page`);
  }
  const environment = optional(read, 'app-environment');
  // eslint-disable-next-line no-control-regex -- an environment name is one line of printable text
  if (environment !== undefined && (environment.length > 255 || /[\u0000-\u001f\u007f]/.test(environment))) {
    throw new ConfigurationError('app-environment is not an environment name; give the name of the environment whose secrets hold the App key, e.g. patchproof');
  }
  const gateWorkflow = optional(read, 'gate-workflow') ?? DEFAULT_GATE_WORKFLOW;
  if (!/^\.github\/workflows\/[A-Za-z0-9_.-]+\.ya?ml$/.test(gateWorkflow)) {
    throw new ConfigurationError(`gate-workflow '${gateWorkflow.slice(0, 200)}' is not a workflow file of this repository; give .github/workflows/FILE.yml`);
  }
  const settingsToken = optional(read, 'settings-token');
  return {
    ...(expectedApp !== undefined ? { expectedApp } : {}),
    ...(environment !== undefined ? { appEnvironment: environment } : {}),
    gateWorkflow,
    ...(settingsToken !== undefined ? { settingsToken } : {})
  };
}
