import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dockerStatus, findTestImage, TEST_IMAGE_TAG } from '../../src/runners/docker-available.js';
import { BUILD_SCRIPT, ensureTestImage } from '../../scripts/test-image-setup.mjs';

/**
 * Jest's globalSetup builds or reuses the test image so `npm test` runs the Docker tests on a
 * machine with an engine up (issue 12, item 4). The build itself is scripts/build-test-image.sh; a
 * first build (debootstrap) takes minutes, so the "image missing" path is shown here by the script
 * reusing the image it finds (same recipe) and by a script that fails.
 */

const DEAD = 'unix:///nonexistent/patchproof-test-docker.sock';

describe('the test image setup (jest globalSetup)', () => {
  let tmp: string;
  let failing: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pp-image-setup-'));
    failing = join(tmp, 'fail.sh');
    await writeFile(failing, '#!/usr/bin/env bash\necho "build-test-image: error: debootstrap needs root" >&2\nexit 1\n');
    await chmod(failing, 0o755);
  });
  afterAll(async () => rm(tmp, { recursive: true, force: true }));

  const quiet = (): { lines: string[]; log: (line: string) => void } => {
    const lines: string[] = [];
    return { lines, log: (line) => void lines.push(line) };
  };

  it('uses a given PATCHPROOF_TEST_IMAGE and builds nothing', () => {
    const { log } = quiet();
    expect(ensureTestImage({ env: { PATCHPROOF_TEST_IMAGE: 'sha256:' + 'a'.repeat(64), PATH: process.env.PATH }, script: failing, log })).toEqual({
      action: 'given',
      imageId: 'sha256:' + 'a'.repeat(64)
    });
  });

  it('does nothing without an engine, and says Docker tests will skip (or fail under CI)', () => {
    const { lines, log } = quiet();
    expect(ensureTestImage({ env: { PATH: process.env.PATH, DOCKER_HOST: DEAD }, script: failing, log }).action).toBe('no-docker');
    expect(lines.join('\n')).toMatch(/no Docker engine answers.*will skip/);
    expect(ensureTestImage({ env: { PATH: process.env.PATH, DOCKER_HOST: DEAD, CI: 'true' }, script: failing, log }).action).toBe('no-docker');
    expect(lines.join('\n')).toMatch(/will fail \(CI=true\)/);
  });

  it('is turned off by PATCHPROOF_NO_IMAGE_BUILD=1', () => {
    expect(ensureTestImage({ env: { PATH: process.env.PATH, PATCHPROOF_NO_IMAGE_BUILD: '1' }, script: failing, log: quiet().log })).toEqual({ action: 'skipped' });
  });

  it('reports a failed build with the command to run, and throws under CI=true', async () => {
    if (!(await dockerStatus()).available) {
      if (process.env.CI === 'true') throw new Error('Docker is required under CI=true');
      console.warn('SKIPPED failed-build check: no Docker engine');
      return;
    }
    const { lines, log } = quiet();
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    expect(ensureTestImage({ env, script: failing, log })).toMatchObject({ action: 'failed' });
    expect(env.PATCHPROOF_TEST_IMAGE).toBeUndefined();
    expect(lines.at(-1)).toMatch(/exited 1 without printing an image ID; Docker tests will skip\. It needs root.*sudo bash scripts\/build-test-image\.sh/);
    expect(() => ensureTestImage({ env: { ...env, CI: 'true' }, script: failing, log })).toThrow(/Docker tests cannot run under CI=true/);
  });

  it(
    'with an engine up, runs the real build script and exports the image ID the Docker tests then use',
    async () => {
      if (!(await dockerStatus()).available) {
        if (process.env.CI === 'true') throw new Error('Docker is required under CI=true');
        console.warn('SKIPPED image build check: no Docker engine');
        return;
      }
      const tagged = await findTestImage({});
      const env: NodeJS.ProcessEnv = { ...process.env };
      delete env.PATCHPROOF_TEST_IMAGE;
      const { log } = quiet();
      const result = ensureTestImage({ env, script: BUILD_SCRIPT, log });
      expect(result.action).toBe('built');
      expect(env.PATCHPROOF_TEST_IMAGE).toMatch(/^sha256:[0-9a-f]{64}$/);
      // The script tags what it builds, and the Docker tests' gate finds the exported ID.
      if (tagged.available) expect(env.PATCHPROOF_TEST_IMAGE).toBe(tagged.imageId);
      expect(await findTestImage(env)).toEqual({ available: true, imageId: env.PATCHPROOF_TEST_IMAGE });
      expect(TEST_IMAGE_TAG).toBe('patchproof-test:local');
    },
    30 * 60_000
  );

  it('finds the image by PATCHPROOF_TEST_IMAGE first, and names a missing one', async () => {
    if (!(await dockerStatus()).available) return;
    const missing = await findTestImage({ PATCHPROOF_TEST_IMAGE: 'sha256:' + '0'.repeat(64) });
    expect(missing.available).toBe(false);
    expect(!missing.available && missing.reason).toContain('0'.repeat(64));
  });
});
