import { dockerClientEnv, dockerStatus, dockerTestGate, findTestImage, TEST_IMAGE_TAG } from '../../src/runners/docker-available.js';

/** Point the Docker client at a socket that does not exist, for the duration of `fn`. */
async function withDeadDaemon<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.DOCKER_HOST;
  process.env.DOCKER_HOST = 'unix:///nonexistent/patchproof-test-docker.sock';
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.DOCKER_HOST;
    else process.env.DOCKER_HOST = saved;
  }
}

describe('docker availability', () => {
  it('reports an unreachable engine with the reason, never throwing', async () => {
    const status = await withDeadDaemon(() => dockerStatus());
    expect(status.available).toBe(false);
    expect(!status.available && status.reason).toMatch(/docker/i);
  }, 30_000);

  it('makes Docker tests fail under CI=true and skip (with the reason) elsewhere', async () => {
    const underCi = await withDeadDaemon(() => dockerTestGate({ CI: 'true' }));
    expect(underCi.mode).toBe('fail');
    const local = await withDeadDaemon(() => dockerTestGate({}));
    expect(local).toMatchObject({ mode: 'skip' });
    expect(local.mode !== 'run' && local.reason).toContain('scripts/build-test-image.sh');
  }, 30_000);

  it('gives the Docker client only what it needs to reach the daemon', () => {
    process.env.PATCHPROOF_LEAK_MARKER = 'host-secret';
    try {
      const env = dockerClientEnv();
      expect(env.PATCHPROOF_LEAK_MARKER).toBeUndefined();
      for (const key of Object.keys(env)) {
        expect(['PATH', 'HOME', 'DOCKER_HOST', 'DOCKER_CONFIG', 'DOCKER_CONTEXT', 'DOCKER_CERT_PATH', 'DOCKER_TLS_VERIFY']).toContain(key);
      }
    } finally {
      delete process.env.PATCHPROOF_LEAK_MARKER;
    }
  });

  it('agrees with the engine on the test image', async () => {
    const gate = await dockerTestGate();
    if (gate.mode === 'skip') {
      console.warn(`SKIPPED test-image lookup check: ${gate.reason}`);
      return;
    }
    if (gate.mode === 'fail') throw new Error(gate.reason);
    expect(await dockerStatus()).toEqual({ available: true });
    expect(await findTestImage()).toEqual({ available: true, imageId: gate.imageId });
    expect(TEST_IMAGE_TAG).toBe('patchproof-test:local');
  }, 30_000);
});
