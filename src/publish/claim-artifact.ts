import { lstat, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DefaultArtifactClient, type Artifact, type ArtifactClient, type FindOptions } from '@actions/artifact';
import { getOctokit } from '@actions/github';
import { CLAIM_MAX_BYTES } from '../adapters/claim-results.js';
import { DIGEST_PATTERN } from '../core/hashing.js';
import { ConfigurationError, InfrastructureError, VerificationError } from '../errors.js';
import { isZip, readZipEntry } from '../io/zip-entry.js';

/**
 * The agent's claim as an artifact of the pull request's own CI run (inputs `claimed-artifact`,
 * `claimed-run-id`, `claimed`). The artifact is untrusted input: whoever controls the pull request's
 * workflow chooses its bytes. So it is taken only from a run of this repository whose head commit is
 * the pull request's head, downloaded without extraction (the toolkit's unzip has no size bound and
 * writes whatever names the zip holds), checked against the digest the service recorded, and one
 * file is read out of it in memory, bounded (src/io/zip-entry.ts). Nothing of it ever changes the
 * verdict: it becomes the claim, which is compared with the clean room after the verdict is decided.
 */

/** The artifact's bytes as stored (the zip) may be at most this large. */
export const CLAIM_ARTIFACT_MAX_BYTES = CLAIM_MAX_BYTES;
/** At most this many entries in the artifact's zip. */
export const CLAIM_ARTIFACT_MAX_ENTRIES = 1_000;
/** At most this many workflow runs of the head commit are looked at. */
export const CLAIM_RUNS_MAX = 100;

/** What to fetch. */
export interface ClaimArtifactRequest {
  /** The artifact's name (input `claimed-artifact`). */
  name: string;
  /** The pull request's head commit: the run must be of it. */
  headSha: string;
  /** The run (input `claimed-run-id`); unset: the one run of `headSha` that has the artifact. */
  runId?: number;
  /** The file inside the artifact (input `claimed`); unset: the artifact must hold one file. */
  path?: string;
}

/** The claim's bytes and where they came from (for the log). */
export interface FetchedClaim {
  bytes: Buffer;
  /** e.g. `claimed-artifact 'agent-results' (junit.xml) of run 4242`. */
  label: string;
  runId: number;
  artifactId: number;
}

/** Claim artifacts, behind one interface so validate mode's tests hand in their own. */
export interface ClaimArtifacts {
  fetch(request: ClaimArtifactRequest): Promise<FetchedClaim>;
}

/** Options of {@link createClaimArtifacts}. */
export interface ClaimArtifactsOptions {
  /** Token with `actions: read`. */
  token: string;
  /** `owner/name`: the only repository runs and artifacts are taken from. */
  repository: string;
  /** REST API root (GITHUB_API_URL). */
  apiUrl: string;
  /** This job's own run (GITHUB_RUN_ID): never the claim's run. */
  ownRunId?: number;
  /** Where the download folder goes (RUNNER_TEMP). */
  tempRoot: string;
}

type Octokit = ReturnType<typeof getOctokit>;

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300);
}

function isOurs(error: unknown): boolean {
  return error instanceof ConfigurationError || error instanceof VerificationError || error instanceof InfrastructureError;
}

/** The parts of a workflow run that decide whether its artifact may be the claim (untrusted JSON). */
function runFacts(data: unknown): { id: number; headSha: string; repository: string } {
  const record = (data ?? {}) as Record<string, unknown>;
  const repository = (record['repository'] ?? {}) as Record<string, unknown>;
  // Strings only: any other value (an array whose text would equal the expected name) matches nothing.
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return { id: Number(record['id']), headSha: text(record['head_sha']), repository: text(repository['full_name']) };
}

class ToolkitClaimArtifacts implements ClaimArtifacts {
  private readonly owner: string;
  private readonly repo: string;

  constructor(
    private readonly client: ArtifactClient,
    private readonly octokit: Octokit,
    private readonly options: ClaimArtifactsOptions
  ) {
    const [owner = '', repo = ''] = options.repository.split('/');
    this.owner = owner;
    this.repo = repo;
  }

  private findBy(runId: number): NonNullable<FindOptions['findBy']> {
    return { token: this.options.token, workflowRunId: runId, repositoryOwner: this.owner, repositoryName: this.repo };
  }

  private async artifactsOf(runId: number, name: string): Promise<Artifact[]> {
    try {
      return (await this.client.listArtifacts({ findBy: this.findBy(runId) })).artifacts.filter((artifact) => artifact.name === name);
    } catch (error) {
      throw new InfrastructureError(`could not list the artifacts of workflow run ${runId} in ${this.options.repository}: ${describe(error)}`, { cause: error });
    }
  }

  /** The named run, refused unless it is of this repository and of the head commit. */
  private async namedRun(runId: number, headSha: string): Promise<number> {
    let facts: ReturnType<typeof runFacts>;
    try {
      facts = runFacts((await this.octokit.rest.actions.getWorkflowRun({ owner: this.owner, repo: this.repo, run_id: runId })).data);
    } catch (error) {
      if ((error as { status?: number }).status === 404) throw new ConfigurationError(`claimed-run-id ${runId} is not a workflow run of ${this.options.repository}`);
      throw new InfrastructureError(`could not read workflow run ${runId} of ${this.options.repository}: ${describe(error)}`, { cause: error });
    }
    if (facts.id !== runId || facts.repository.toLowerCase() !== this.options.repository.toLowerCase()) {
      throw new ConfigurationError(`claimed-run-id ${runId} is a run of ${facts.repository || 'another repository'}, not of ${this.options.repository}; refusing its artifacts`);
    }
    if (facts.headSha !== headSha) {
      throw new ConfigurationError(
        `claimed-run-id ${runId} ran on commit ${facts.headSha || '(none)'}, not on the pull request's head ${headSha}: its results are not a claim about this patch`
      );
    }
    if (runId === this.options.ownRunId) throw new ConfigurationError(`claimed-run-id ${runId} is this run; name the pull request's CI run`);
    return runId;
  }

  /** The runs of the head commit in this repository (this run left out), newest first, bounded. */
  private async runsOf(headSha: string): Promise<number[]> {
    const ids: number[] = [];
    try {
      for (let page = 1; ids.length < CLAIM_RUNS_MAX; page += 1) {
        const { data } = await this.octokit.rest.actions.listWorkflowRunsForRepo({ owner: this.owner, repo: this.repo, head_sha: headSha, per_page: 100, page });
        for (const run of data.workflow_runs) {
          const facts = runFacts(run);
          // The filter is the service's; each run is checked again all the same.
          if (facts.headSha === headSha && facts.repository.toLowerCase() === this.options.repository.toLowerCase() && facts.id !== this.options.ownRunId) ids.push(facts.id);
        }
        if (data.workflow_runs.length < 100) break;
      }
    } catch (error) {
      throw new InfrastructureError(`could not list the workflow runs of ${headSha} in ${this.options.repository}: ${describe(error)}`, { cause: error });
    }
    return ids.slice(0, CLAIM_RUNS_MAX);
  }

  async fetch(request: ClaimArtifactRequest): Promise<FetchedClaim> {
    const { name, headSha } = request;
    let runId: number;
    let found: Artifact[];
    if (request.runId !== undefined) {
      runId = await this.namedRun(request.runId, headSha);
      found = await this.artifactsOf(runId, name);
      if (found.length === 0)
        throw new ConfigurationError(`workflow run ${runId} has no artifact named '${name}'; check claimed-artifact (and that the run has finished uploading it)`);
    } else {
      const holders: { runId: number; artifacts: Artifact[] }[] = [];
      for (const id of await this.runsOf(headSha)) {
        const artifacts = await this.artifactsOf(id, name);
        if (artifacts.length > 0) holders.push({ runId: id, artifacts });
      }
      if (holders.length === 0) {
        throw new ConfigurationError(
          `no workflow run of the head ${headSha} in ${this.options.repository} has an artifact named '${name}'; check claimed-artifact, or run PatchProof after the pull request's CI finished (on: workflow_run)`
        );
      }
      if (holders.length > 1) {
        throw new ConfigurationError(
          `runs ${holders.map((h) => h.runId).join(', ')} of the head ${headSha} each have an artifact named '${name}'; give claimed-run-id to say which`
        );
      }
      ({ runId, artifacts: found } = holders[0] as { runId: number; artifacts: Artifact[] });
    }
    // Re-run attempts upload under one name: the newest counts.
    const artifact = [...found].sort((a, b) => b.id - a.id)[0] as Artifact;
    const label = `claimed-artifact '${name}' (id ${artifact.id}) of run ${runId}`;
    if (artifact.digest === undefined || !DIGEST_PATTERN.test(artifact.digest)) {
      throw new VerificationError('bad_input', `${label} is listed without a sha256 digest, so its download cannot be verified`);
    }
    if (!(artifact.size <= CLAIM_ARTIFACT_MAX_BYTES)) throw new ConfigurationError(`${label} is ${artifact.size} bytes, more than ${CLAIM_ARTIFACT_MAX_BYTES}; refusing it`);
    const stored = await this.download(artifact, runId, label);
    if (!isZip(stored)) {
      // An artifact uploaded unarchived (upload-artifact's archive: false) is the file itself.
      return { bytes: stored, label, runId, artifactId: artifact.id };
    }
    const entry = await readZipEntry(stored, {
      ...(request.path !== undefined ? { path: request.path } : {}),
      maxEntries: CLAIM_ARTIFACT_MAX_ENTRIES,
      maxBytes: CLAIM_MAX_BYTES,
      label
    });
    return { bytes: entry.bytes, label: `${label}, ${JSON.stringify(entry.name)}`, runId, artifactId: artifact.id };
  }

  /** The artifact's stored bytes, never extracted, checked against the recorded digest. */
  private async download(artifact: Artifact, runId: number, label: string): Promise<Buffer> {
    const folder = await mkdtemp(join(this.options.tempRoot, 'patchproof-claim-'));
    try {
      let mismatch: boolean | undefined;
      try {
        mismatch = (await this.client.downloadArtifact(artifact.id, { path: folder, findBy: this.findBy(runId), expectedHash: artifact.digest, skipDecompress: true }))
          .digestMismatch;
      } catch (error) {
        throw new InfrastructureError(`could not download ${label}: ${describe(error)}`, { cause: error });
      }
      if (mismatch !== false) throw new VerificationError('artifact_digest_mismatch', `${label} does not match the digest recorded at upload (${artifact.digest}); refusing it`);
      const names = await readdir(folder);
      const only = names.length === 1 ? join(folder, names[0] as string) : undefined;
      const info = only !== undefined ? await lstat(only) : undefined;
      if (only === undefined || info === undefined || !info.isFile()) throw new InfrastructureError(`downloading ${label} left ${names.length} entries, not one file`);
      if (info.size > CLAIM_ARTIFACT_MAX_BYTES) throw new ConfigurationError(`${label} is ${info.size} bytes, more than ${CLAIM_ARTIFACT_MAX_BYTES}; refusing it`);
      const handle = await open(only, 'r');
      try {
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (isOurs(error)) throw error;
      throw new InfrastructureError(`could not read ${label}: ${describe(error)}`, { cause: error });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }
}

/** Claim artifacts through the real @actions/artifact client (findBy, REST) and @actions/github's octokit. */
export function createClaimArtifacts(options: ClaimArtifactsOptions): ClaimArtifacts {
  return new ToolkitClaimArtifacts(new DefaultArtifactClient(), getOctokit(options.token, { baseUrl: options.apiUrl }), options);
}
