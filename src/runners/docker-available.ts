import { execFile } from 'node:child_process';
import { InfrastructureError } from '../errors.js';

/**
 * Short administrative calls to the Docker client (info, image inspect, kill, rm, ps) and the
 * checks that tell whether Docker and the local test image are there. The test command itself
 * never goes through here: it runs through `runCappedProcess`.
 */

/** The tag `scripts/build-test-image.sh` gives the test image: for lookup only, runs use the ID. */
export const TEST_IMAGE_TAG = 'patchproof-test:local';

/** Result of a short Docker client call. */
export interface DockerCliResult {
  /** Exit code, or null when the client was killed (timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The Docker client's environment: only what it needs to find and talk to the daemon. Keeping the
 * rest out means nothing of the host environment can reach a container, even by a `-e NAME` slip.
 */
export function dockerClientEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'DOCKER_HOST', 'DOCKER_CONFIG', 'DOCKER_CONTEXT', 'DOCKER_CERT_PATH', 'DOCKER_TLS_VERIFY']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/**
 * Run `docker ARGS` and return its exit code and output; never throws for a non-zero exit.
 * Throws InfrastructureError when the client cannot be started (not installed).
 */
export function dockerCli(args: readonly string[], timeoutMs = 30_000): Promise<DockerCliResult> {
  return new Promise((resolve, reject) => {
    execFile('docker', [...args], { env: dockerClientEnv(), timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) {
        resolve({ code: 0, stdout, stderr });
        return;
      }
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'number') {
        resolve({ code, stdout, stderr });
      } else if (code === 'ENOENT') {
        reject(new InfrastructureError('the docker client is not installed (not found on PATH)', { cause: error }));
      } else if (error.killed) {
        resolve({ code: null, stdout, stderr: `${stderr}\ndocker ${args[0] ?? ''} timed out after ${timeoutMs} ms` });
      } else {
        reject(new InfrastructureError(`docker ${args[0] ?? ''} failed: ${error.message}`, { cause: error }));
      }
    });
  });
}

/** Whether a Docker engine answers, and if not, why. */
export type DockerStatus = { available: true } | { available: false; reason: string };

/** Ask the engine for `docker info`; never throws. */
export async function dockerStatus(): Promise<DockerStatus> {
  try {
    const result = await dockerCli(['info', '--format', '{{.ServerVersion}}'], 20_000);
    if (result.code === 0 && result.stdout.trim() !== '') return { available: true };
    return { available: false, reason: `docker info failed: ${firstLine(result.stderr) || `exit ${String(result.code)}`}` };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Whether the local test image exists, and its ID. */
export type TestImageStatus = { available: true; imageId: string } | { available: false; reason: string };

/**
 * Look up the test image: `PATCHPROOF_TEST_IMAGE` when set (the ID .ci/run and Jest's globalSetup
 * export), else the image `scripts/build-test-image.sh` tagged `patchproof-test:local`; never throws.
 */
export async function findTestImage(env: NodeJS.ProcessEnv = process.env): Promise<TestImageStatus> {
  const ref = env.PATCHPROOF_TEST_IMAGE !== undefined && env.PATCHPROOF_TEST_IMAGE !== '' ? env.PATCHPROOF_TEST_IMAGE : TEST_IMAGE_TAG;
  try {
    const result = await dockerCli(['image', 'inspect', '--format', '{{.Id}}', ref]);
    const id = result.stdout.trim();
    if (result.code === 0 && /^sha256:[0-9a-f]{64}$/.test(id)) return { available: true, imageId: id };
    return {
      available: false,
      reason: `test image ${ref} not found (${firstLine(result.stderr)}); build it with: bash scripts/build-test-image.sh`
    };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * What a test suite that needs Docker and the test image should do: run, fail (under CI, where a
 * missing engine is a broken pipeline, never a pass), or skip with the reason shown.
 */
export type DockerTestGate = { mode: 'run'; imageId: string } | { mode: 'fail'; reason: string } | { mode: 'skip'; reason: string };

/** Decide how Docker-backed tests proceed; `env` is where CI=true is read. */
export async function dockerTestGate(env: NodeJS.ProcessEnv = process.env): Promise<DockerTestGate> {
  const status = await dockerStatus();
  let problem: string;
  if (status.available) {
    const image = await findTestImage(env);
    if (image.available) return { mode: 'run', imageId: image.imageId };
    problem = image.reason;
  } else {
    problem = status.reason;
  }
  const reason = `Docker tests cannot run: ${problem.replace(/[.?]$/, '')}. Start the engine with scripts/start-docker.sh and build the image with scripts/build-test-image.sh.`;
  return env.CI === 'true' ? { mode: 'fail', reason } : { mode: 'skip', reason };
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
