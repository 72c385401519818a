// Jest's globalSetup (jest.config.js): with a Docker engine up and no test image given, build (or
// reuse) the local test image with scripts/build-test-image.sh before any test runs, and export its
// ID as PATCHPROOF_TEST_IMAGE, so a newcomer's `npm test` runs the Docker tests instead of skipping
// them. Jest workers start after this and inherit the variable. `.ci/run` builds the image itself
// and exports the variable, so nothing is built twice.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const BUILD_SCRIPT = join(HERE, 'build-test-image.sh');
const IMAGE_ID = /^sha256:[0-9a-f]{64}$/;

/**
 * Make sure a test image is there. Returns what was done:
 * `given` (PATCHPROOF_TEST_IMAGE was set), `skipped` (PATCHPROOF_NO_IMAGE_BUILD=1), `no-docker` (no
 * engine answers: Docker tests then skip, or fail under CI=true), `built` (the script printed an ID,
 * now in env.PATCHPROOF_TEST_IMAGE) or `failed` (the script failed; under CI=true this throws).
 */
export function ensureTestImage({ env = process.env, script = BUILD_SCRIPT, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (env.PATCHPROOF_TEST_IMAGE) return { action: 'given', imageId: env.PATCHPROOF_TEST_IMAGE };
  if (env.PATCHPROOF_NO_IMAGE_BUILD === '1') return { action: 'skipped' };
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { env, encoding: 'utf8', timeout: 20_000 });
  if (info.status !== 0 || info.stdout.trim() === '') {
    const why = info.error?.message ?? (info.stderr.trim().split('\n')[0] || `docker info exited ${info.status}`);
    log(`test image: no Docker engine answers (${why}); Docker tests will ${env.CI === 'true' ? 'fail (CI=true)' : 'skip'}. Start one with: sudo bash scripts/start-docker.sh`);
    return { action: 'no-docker', reason: why };
  }
  log(`test image: building or reusing it with ${script} (the first build takes a few minutes; PATCHPROOF_NO_IMAGE_BUILD=1 skips this)`);
  // stderr shows the build's progress; the last line of stdout is the image ID.
  const build = spawnSync('bash', [script], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 30 * 60_000 });
  const imageId = (build.stdout ?? '').trim().split('\n').pop() ?? '';
  if (build.status === 0 && IMAGE_ID.test(imageId)) {
    env.PATCHPROOF_TEST_IMAGE = imageId;
    log(`test image: ${imageId}`);
    return { action: 'built', imageId };
  }
  const reason = `bash ${script} ${build.error ? `failed to run: ${build.error.message}` : `exited ${build.status ?? build.signal} without printing an image ID`}`;
  if (env.CI === 'true') throw new Error(`test image: ${reason}; Docker tests cannot run under CI=true`);
  log(`test image: ${reason}; Docker tests will skip. It needs root (debootstrap): sudo bash scripts/build-test-image.sh, then npm test again`);
  return { action: 'failed', reason };
}

export default function globalSetup() {
  ensureTestImage();
  // The CLI's validate keeps every receipt in a local store for promote (src/receipt/store.ts):
  // the tests' validations keep theirs in one temporary store, never the user's own.
  if (!process.env.PATCHPROOF_RECEIPT_STORE) process.env.PATCHPROOF_RECEIPT_STORE = mkdtempSync(join(tmpdir(), 'pp-receipt-store-'));
}
