import { DIGEST_PATTERN, HEX64_PATTERN } from '../core/hashing.js';
import { ConfigurationError } from '../errors.js';
import { parseWitnessKey } from '../fetch/witness/sealed.js';
import { readPromoteInputs, type PromoteInputs } from './promote-settings.js';
import { COMMIT_SHA_PATTERN } from '../core/hashing.js';
import { readScreenInputs, type ScreenInputs } from './screen-settings.js';
import { readValidateShardInputs, type ValidateShardInputs } from './validate-shard-settings.js';
import { readDoctorInputs, type DoctorInputs } from './doctor-settings.js';

/**
 * The one place that reads the action's inputs. `readActionSettings` takes an input reader (in
 * production `core.getInput`) so it is tested with plain objects; every error names the input and
 * the accepted form.
 */

export type ActionMode = 'validate' | 'reverify' | 'promote' | 'screen' | 'screen-merge' | 'validate-merge' | 'doctor';

/** Where the witness pack comes from. `ref` packs are read with `git archive` from a trusted ref. */
export type WitnessPackInput = { kind: 'path'; path: string } | { kind: 'url'; url: string } | { kind: 'ref'; ref: string; path: string };

export interface ActionSettings {
  mode: ActionMode;
  /** validate/reverify with replay: the grader and its pinned digest. */
  witness?: { pack: WitnessPackInput; digest: string };
  /**
   * The witness key (an age identity) that opens a sealed pack's hidden.age: a secret only the
   * trusted job holds (input `witness-key`, from a repository secret). Never passed to the candidate.
   */
  witnessKey?: string;
  runner: 'docker' | 'local';
  /** Docker runner: `name@sha256:<digest>` or `sha256:<64 hex>`. */
  image?: string;
  /** Token for the Checks API and artifact downloads; never passed to the candidate. */
  token: string;
  /**
   * A dedicated GitHub App that posts the check run instead of `token`, so branch protection can
   * require the check from that app (every workflow's GITHUB_TOKEN posts as the same app).
   */
  app?: GitHubAppSettings;
  checkName: string;
  /** Explicit commits for push and workflow_dispatch events. */
  base?: string;
  head?: string;
  /** The trusted checkout of the base. */
  repositoryPath: string;
  /** When set, the computed proposal hash must equal it exactly. */
  approvedProposalHash?: string;
  /** reverify/publish: the run whose receipt artifact to use, and optionally its name. */
  runId?: number;
  artifactName?: string;
  replay: boolean;
  /**
   * reverify: the workflow whose attestation of a receipt counts, `OWNER/REPO/.github/workflows/FILE.yml`.
   * Unset: this repository's `.github/workflows/patchproof.yml` (the gate).
   */
  signerWorkflow?: string;
  /**
   * reverify: path of the Sigstore trusted root (JSON) attestations are checked against. Unset: no
   * attestation is accepted (reverify then needs a proof-grade replay).
   */
  trustedRoot?: string;
  /** promote: which pull request, which receipt, how to merge (promote-settings.ts). */
  promote?: PromoteInputs;
  /**
   * validate: the agent's own results (input `claimed`), a file already in the workspace or under
   * RUNNER_TEMP (e.g. a JUnit artifact the pull request's CI uploaded, downloaded by an earlier step).
   * Compared with the clean room in the receipt and the check run; never part of the verdict.
   */
  claimed?: string;
  /**
   * validate: the claim is an artifact of the pull request's own CI run (input `claimed-artifact`),
   * downloaded by the action itself; `claimed` then names the file inside it. `runId` (input
   * `claimed-run-id`) names the run; unset, it is the one run of the head commit that has the artifact.
   */
  claimedArtifact?: { name: string; runId?: number };
  /**
   * validate: read the head commit's other check runs and commit statuses (input `head-checks`) and
   * show them beside the clean room as the agent's CI's claim; never part of the verdict.
   */
  headChecks?: boolean;
  /**
   * validate: keep the base-side runs in the GitHub Actions cache for the next candidate on the same
   * base (input `baseline-cache`). Read and written only by a job whose cache scope is the default
   * branch (src/action/baseline-scope.ts); never on pull_request.
   */
  baselineCache?: boolean;
  /** screen and screen-merge: which candidates, the shard of this job, where the table goes (screen-settings.ts). */
  screen?: ScreenInputs;
  /**
   * validate with `shard: K/N` (this job's share of the suite, uploaded as a tagged shard receipt)
   * and validate-merge (`shards: N`: the gate's last job verifies and merges them): validate-shard-settings.ts.
   */
  validateShards?: ValidateShardInputs;
  /** doctor: the setup check's own inputs (doctor-settings.ts). */
  doctor?: DoctorInputs;
}

/** The GitHub App whose installation token posts the check run. */
export interface GitHubAppSettings {
  /** The app's id (a number, as GitHub shows it on the app's page). */
  appId: number;
  /** The app's private key, PEM (from a secret of the trusted job only). */
  privateKey: string;
  /** The installation on this repository; looked up with the app's JWT when absent. */
  installationId?: number;
}

export type InputReader = (name: string) => string;

const SIGNER_WORKFLOW_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]*\/(?!\.\.?\/)[A-Za-z0-9_.-]+\/\.github\/workflows\/[A-Za-z0-9_.-]+\.ya?ml$/;
/** A git ref name as `git check-ref-format` allows it, conservatively (no `..`, no leading `-`). */
const REF_PATTERN = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]+$/;

function optional(read: InputReader, name: string): string | undefined {
  const value = read(name).trim();
  return value === '' ? undefined : value;
}

export function parseWitnessPack(value: string): WitnessPackInput {
  if (value.startsWith('ref:')) {
    const rest = value.slice('ref:'.length);
    const colon = rest.indexOf(':');
    const ref = colon < 0 ? '' : rest.slice(0, colon);
    const path = colon < 0 ? '' : rest.slice(colon + 1);
    if (!REF_PATTERN.test(ref) || path === '' || path.startsWith('/') || path.split('/').includes('..')) {
      throw new ConfigurationError(`witness-pack '${value}' is not valid; use ref:REF:PATH, e.g. ref:refs/heads/main:witness-packs/mine`);
    }
    return { kind: 'ref', ref, path };
  }
  if (/^https?:\/\//.test(value)) return { kind: 'url', url: value };
  return { kind: 'path', path: value };
}

function commit(read: InputReader, name: string): string | undefined {
  const value = optional(read, name);
  if (value !== undefined && !COMMIT_SHA_PATTERN.test(value)) {
    throw new ConfigurationError(`${name} '${value}' is not a full commit SHA; give the 40-hex commit id`);
  }
  return value;
}

const PEM_KEY = /^-----BEGIN (RSA )?PRIVATE KEY-----\r?\n[\s\S]+\r?\n-----END (RSA )?PRIVATE KEY-----\s*$/;

/** app-id, app-private-key and app-installation-id: all of the first two, or none. */
function readApp(read: InputReader): GitHubAppSettings | undefined {
  const appId = optional(read, 'app-id');
  // Secrets pasted into a repository secret sometimes carry literal \n for newlines.
  const privateKey = optional(read, 'app-private-key')?.replace(/\\n/g, '\n');
  const installation = optional(read, 'app-installation-id');
  if (appId === undefined && privateKey === undefined) {
    if (installation !== undefined) throw new ConfigurationError('app-installation-id is set without app-id and app-private-key; give all of them or none');
    return undefined;
  }
  if (appId === undefined || !/^[1-9][0-9]{0,15}$/.test(appId))
    throw new ConfigurationError(`app-id '${appId ?? ''}' is not a GitHub App id; give the number from the app's settings page`);
  if (privateKey === undefined || !PEM_KEY.test(privateKey)) {
    throw new ConfigurationError("app-private-key is not a PEM private key; pass the app's key from its environment secret: ${{ secrets.PATCHPROOF_APP_PRIVATE_KEY }}");
  }
  if (installation !== undefined && !/^[1-9][0-9]{0,15}$/.test(installation)) throw new ConfigurationError(`app-installation-id '${installation}' is not an installation id`);
  return { appId: Number(appId), privateKey, ...(installation !== undefined ? { installationId: Number(installation) } : {}) };
}

/** Read and validate every input. Throws ConfigurationError naming the input. */
export function readActionSettings(read: InputReader): ActionSettings {
  const mode = optional(read, 'mode') ?? 'validate';
  if (mode === 'publish') {
    // A receipt the pull request's run uploaded is not evidence: anyone can seal a self-consistent one.
    throw new ConfigurationError(
      "mode 'publish' was removed: a receipt from the pull request's run is not evidence; validate in a pull_request_target gate instead (docs/action.md, \"The gate\")"
    );
  }
  if (mode !== 'validate' && mode !== 'reverify' && mode !== 'promote' && mode !== 'screen' && mode !== 'screen-merge' && mode !== 'validate-merge' && mode !== 'doctor') {
    throw new ConfigurationError(`mode '${mode}' is unknown; use validate, validate-merge, reverify, promote, screen, screen-merge or doctor`);
  }
  const runner = optional(read, 'runner') ?? 'docker';
  if (runner !== 'docker' && runner !== 'local') throw new ConfigurationError(`runner '${runner}' is unknown; use docker or local`);
  const token = optional(read, 'github-token');
  if (token === undefined) throw new ConfigurationError('github-token is empty; pass ${{ github.token }} (checks: write)');
  const packValue = optional(read, 'witness-pack');
  const digest = optional(read, 'witness-digest');
  const replay = (optional(read, 'replay') ?? 'false').toLowerCase();
  if (replay !== 'true' && replay !== 'false') throw new ConfigurationError(`replay '${replay}' is not valid; use true or false`);
  const needsWitness = mode === 'validate' || mode === 'screen' || replay === 'true';
  if (needsWitness && (packValue === undefined || digest === undefined)) {
    throw new ConfigurationError('witness-pack and witness-digest are required: give the pack and its sha256:<64 hex> digest');
  }
  if (digest !== undefined && !DIGEST_PATTERN.test(digest)) {
    throw new ConfigurationError(`witness-digest '${digest}' is not valid; give sha256: and 64 lowercase hex digits`);
  }
  const keyText = optional(read, 'witness-key');
  const witnessKey = keyText !== undefined ? parseWitnessKey(keyText, 'witness-key') : undefined;
  const image = optional(read, 'image');
  if (needsWitness && runner === 'docker' && image === undefined) {
    throw new ConfigurationError('image is required with runner docker: give name@sha256:<digest> or a local image ID sha256:<64 hex>');
  }
  const approved = optional(read, 'approved-proposal-hash');
  if (approved !== undefined && !HEX64_PATTERN.test(approved)) {
    throw new ConfigurationError('approved-proposal-hash is not a full hash; give all 64 lowercase hex characters');
  }
  const runIdText = optional(read, 'run-id');
  if (runIdText !== undefined && !/^[1-9][0-9]{0,19}$/.test(runIdText)) throw new ConfigurationError(`run-id '${runIdText}' is not a workflow run id`);
  if (mode === 'reverify' && runIdText === undefined) throw new ConfigurationError('run-id is required with mode reverify: give the workflow run whose receipt to check');
  const base = commit(read, 'base');
  const head = commit(read, 'head');
  const artifactName = optional(read, 'artifact-name');
  const signerWorkflow = optional(read, 'signer-workflow');
  if (signerWorkflow !== undefined && !SIGNER_WORKFLOW_PATTERN.test(signerWorkflow)) {
    throw new ConfigurationError(`signer-workflow '${signerWorkflow}' is not valid; give OWNER/REPO/.github/workflows/FILE.yml`);
  }
  const trustedRoot = optional(read, 'trusted-root');
  // Before the claim and cache checks below: a shard job names every input it cannot take.
  const validateShards = readValidateShardInputs(read, mode);
  const claimed = optional(read, 'claimed');
  if (claimed !== undefined && mode !== 'validate') throw new ConfigurationError(`claimed is for mode validate only; remove it from mode ${mode}`);
  const claimedArtifactName = optional(read, 'claimed-artifact');
  const claimedRunId = optional(read, 'claimed-run-id');
  if ((claimedArtifactName !== undefined || claimedRunId !== undefined) && mode !== 'validate') {
    throw new ConfigurationError(`claimed-artifact and claimed-run-id are for mode validate only; remove them from mode ${mode}`);
  }
  // The characters upload-artifact refuses in a name, and a bound on its length.
  if (claimedArtifactName !== undefined && (claimedArtifactName.length > 256 || /[":<>|*?\r\n\\/\0]/.test(claimedArtifactName))) {
    throw new ConfigurationError(`claimed-artifact '${claimedArtifactName.slice(0, 100)}' is not an artifact name; give the name the pull request's CI uploaded its results under`);
  }
  if (claimedRunId !== undefined && !/^[1-9][0-9]{0,19}$/.test(claimedRunId)) throw new ConfigurationError(`claimed-run-id '${claimedRunId}' is not a workflow run id`);
  if (claimedRunId !== undefined && claimedArtifactName === undefined) throw new ConfigurationError("claimed-run-id is set without claimed-artifact; give the artifact's name too");
  if (claimedArtifactName !== undefined && claimed !== undefined && (claimed.startsWith('/') || claimed.split('/').includes('..') || claimed.includes('\\'))) {
    throw new ConfigurationError(`claimed '${claimed}' is not a path inside the artifact; give it relative, with / (e.g. reports/junit.xml)`);
  }
  const headChecks = (optional(read, 'head-checks') ?? 'false').toLowerCase();
  if (headChecks !== 'true' && headChecks !== 'false') throw new ConfigurationError(`head-checks '${headChecks}' is not valid; use true or false`);
  if (headChecks === 'true' && mode !== 'validate') throw new ConfigurationError(`head-checks is for mode validate only; remove it from mode ${mode}`);
  const baselineCache = (optional(read, 'baseline-cache') ?? 'false').toLowerCase();
  if (baselineCache !== 'true' && baselineCache !== 'false') throw new ConfigurationError(`baseline-cache '${baselineCache}' is not valid; use true or false`);
  if (baselineCache === 'true' && mode !== 'validate') throw new ConfigurationError(`baseline-cache is for mode validate only; remove it from mode ${mode}`);
  const app = readApp(read);
  const promote = mode === 'promote' ? readPromoteInputs(read, runIdText !== undefined) : undefined;
  const screen = readScreenInputs(read, mode);
  const doctor = readDoctorInputs(read, mode);
  if (optional(read, 'screen-run-key') !== undefined) {
    // A with: input is printed in the step's log, so a key passed that way authenticated nothing.
    throw new ConfigurationError(
      'screen-run-key was removed: every with: input is printed in the step log, so the key was public. Shard artifacts are now tagged with a key each job derives from the GitHub App private key (app-id, app-private-key); remove screen-run-key'
    );
  }
  const sharded = validateShards?.shard !== undefined || mode === 'validate-merge' || screen?.shard !== undefined || mode === 'screen-merge';
  if (sharded && app === undefined) {
    throw new ConfigurationError(
      `mode ${mode}${mode === 'validate' || mode === 'screen' ? ' with shard' : ''} needs app-id and app-private-key: the shard artifacts of this run are tagged with a key derived from the GitHub App's private key, which no job without the app's environment holds (.github/workflows/patchproof-${mode.startsWith('screen') ? 'screen' : 'validate-shards'}.yml)`
    );
  }
  return {
    mode,
    ...(packValue !== undefined && digest !== undefined ? { witness: { pack: parseWitnessPack(packValue), digest } } : {}),
    ...(witnessKey !== undefined ? { witnessKey } : {}),
    runner,
    ...(image !== undefined ? { image } : {}),
    token,
    ...(app !== undefined ? { app } : {}),
    checkName: optional(read, 'check-name') ?? 'PatchProof',
    ...(base !== undefined ? { base } : {}),
    ...(head !== undefined ? { head } : {}),
    repositoryPath: optional(read, 'repository-path') ?? '.',
    ...(approved !== undefined ? { approvedProposalHash: approved } : {}),
    ...(runIdText !== undefined ? { runId: Number(runIdText) } : {}),
    ...(artifactName !== undefined ? { artifactName } : {}),
    replay: replay === 'true',
    ...(signerWorkflow !== undefined ? { signerWorkflow } : {}),
    ...(trustedRoot !== undefined ? { trustedRoot } : {}),
    ...(promote !== undefined ? { promote } : {}),
    ...(claimed !== undefined ? { claimed } : {}),
    ...(claimedArtifactName !== undefined ? { claimedArtifact: { name: claimedArtifactName, ...(claimedRunId !== undefined ? { runId: Number(claimedRunId) } : {}) } } : {}),
    ...(headChecks === 'true' ? { headChecks: true } : {}),
    ...(baselineCache === 'true' ? { baselineCache: true } : {}),
    ...(screen !== undefined ? { screen } : {}),
    ...(validateShards !== undefined ? { validateShards } : {}),
    ...(doctor !== undefined ? { doctor } : {})
  };
}
