import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArtifactClient } from '@actions/artifact';
import type { ArtifactServer } from '../../support/artifact-server.js';
import { parseOutputFile, runAction, type ActionRun } from './validate-bundle.js';

/**
 * One job of a workflow run, as the runner starts the action's bundle: a fresh RUNNER_TEMP, the
 * event file, the output and summary files, the artifact service of the run `artifacts` stands for,
 * and the loopback REST API. The e2e files that run several jobs of one run (a matrix and its
 * merge) share this; each passes the event, the job's own runner variables and its inputs.
 */

export interface Job {
  run: ActionRun;
  outputs: Record<string, string>;
  summary: string;
}

export interface JobSetup {
  bundlePath: string;
  /** GITHUB_WORKSPACE, also the bundle's working folder. */
  workspace: string;
  /** The artifact service of this job's workflow run. */
  artifacts: ArtifactServer;
  /** The loopback REST API root (GITHUB_API_URL). */
  apiUrl: string;
  /** The event payload, written to GITHUB_EVENT_PATH. */
  event: object;
  /** Variables and inputs of this job, over the shared ones (GITHUB_EVENT_NAME, INPUT_MODE, ...). */
  env: Record<string, string>;
  /** Where the job's folder goes, so the caller removes it. */
  tmps: string[];
  prefix: string;
  timeoutMs: number;
}

/** Run one job; its outputs and summary as the runner would keep them. */
export async function runActionJob(setup: JobSetup): Promise<Job> {
  const tmp = mkdtempSync(join(tmpdir(), setup.prefix));
  setup.tmps.push(tmp);
  const runnerTemp = join(tmp, 'runner-temp');
  const scratch = join(tmp, 'scratch');
  mkdirSync(runnerTemp);
  mkdirSync(scratch);
  const eventPath = join(tmp, 'event.json');
  const outputPath = join(tmp, 'output.txt');
  const summaryPath = join(tmp, 'summary.md');
  writeFileSync(eventPath, JSON.stringify(setup.event));
  writeFileSync(outputPath, '');
  writeFileSync(summaryPath, '');
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? tmp,
    ...(process.env['DOCKER_HOST'] !== undefined ? { DOCKER_HOST: process.env['DOCKER_HOST'] } : {}),
    TMPDIR: scratch,
    ...setup.artifacts.env(),
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_API_URL: setup.apiUrl,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: setup.workspace,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    RUNNER_TEMP: runnerTemp,
    ...setup.env
  };
  const run = await runAction(setup.bundlePath, env, setup.workspace, setup.timeoutMs);
  return { run, outputs: parseOutputFile(readFileSync(outputPath, 'utf8')), summary: readFileSync(summaryPath, 'utf8') };
}

/** The inputs every e2e job of the docker runner gives: the pack, the image (when Docker runs), the token. */
export function dockerJobInputs(pack: { path: string; digest: string }, imageId: string | undefined, token: string): Record<string, string> {
  return {
    INPUT_RUNNER: 'docker',
    ...(imageId !== undefined ? { INPUT_IMAGE: imageId } : {}),
    'INPUT_WITNESS-PACK': pack.path,
    'INPUT_WITNESS-DIGEST': pack.digest,
    'INPUT_GITHUB-TOKEN': token,
    'INPUT_CHECK-NAME': 'PatchProof',
    'INPUT_REPOSITORY-PATH': '.',
    INPUT_REPLAY: 'false'
  };
}

/** Fail with the job's whole output unless it exited `status`. */
export function expectExit(job: Job, status: number): void {
  if (job.run.status !== status) throw new Error(`expected exit ${status}, got ${job.run.status}\n--- stdout ---\n${job.run.stdout}\n--- stderr ---\n${job.run.stderr}`);
}

/** Run `body` with the real artifact client pointed at `artifacts` (as a job of that run would be). */
export async function asJobOf<T>(artifacts: ArtifactServer, apiUrl: string, body: (client: ArtifactClient) => Promise<T>): Promise<T> {
  const previous = { ...process.env };
  Object.assign(process.env, artifacts.env(), { GITHUB_API_URL: apiUrl });
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = () => true;
  try {
    const { DefaultArtifactClient } = await import('@actions/artifact');
    return await body(new DefaultArtifactClient());
  } finally {
    process.stdout.write = write;
    for (const key of Object.keys(process.env)) if (!(key in previous)) Reflect.deleteProperty(process.env, key);
    Object.assign(process.env, previous);
  }
}

/** Every file below `dir` (paths). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}
