import { execFileSync } from 'node:child_process';
import { ConfigurationError } from '../../src/errors.js';
import { dockerTestGate } from '../../src/runners/docker-available.js';
import { createDockerRunner } from '../../src/runners/docker-runner.js';
import { parseImageRef, resolveImage } from '../../src/runners/image-ref.js';

const HEX = 'c0ffee'.repeat(10) + 'c0ff';

describe('parseImageRef', () => {
  it.each([
    [`sha256:${HEX}`, { kind: 'id', id: `sha256:${HEX}` }],
    [`python@sha256:${HEX}`, { kind: 'digest', name: 'python', digest: `sha256:${HEX}` }],
    [`ghcr.io/org/tools/runner@sha256:${HEX}`, { kind: 'digest', name: 'ghcr.io/org/tools/runner', digest: `sha256:${HEX}` }],
    [`localhost:5000/x_y-z@sha256:${HEX}`, { kind: 'digest', name: 'localhost:5000/x_y-z', digest: `sha256:${HEX}` }]
  ])('accepts %s', (input, expected) => {
    expect(parseImageRef(input)).toEqual(expected);
  });

  it.each([
    [''],
    ['python'],
    ['python:3.13'],
    ['patchproof-test:local'],
    ['6270a28e33bc'],
    [HEX],
    [`sha256:${HEX.slice(1)}`],
    [`sha256:${HEX.toUpperCase()}`],
    [`python:3.13@sha256:${HEX}`],
    [`Python@sha256:${HEX}`],
    [`@sha256:${HEX}`],
    [`python@sha512:${HEX}`],
    [`--privileged@sha256:${HEX}`]
  ])('refuses %j, naming the accepted forms and how to get an ID', (input) => {
    let error: unknown;
    try {
      parseImageRef(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    const message = (error as Error).message;
    expect(message).toContain('name@sha256:<64 hex>');
    expect(message).toContain('scripts/build-test-image.sh');
    expect(message.split('\n')).toHaveLength(1);
  });
});

const gate = await dockerTestGate();
if (gate.mode === 'skip') console.warn(`SKIPPED image-ref Docker tests: ${gate.reason}`);
const describeDocker = gate.mode === 'skip' ? describe.skip : describe;

describeDocker('resolveImage (real Docker engine)', () => {
  beforeAll(() => {
    if (gate.mode === 'fail') throw new Error(gate.reason);
  });
  const imageId = gate.mode === 'run' ? gate.imageId : '';

  it('resolves a local image ID to itself', async () => {
    await expect(resolveImage(imageId)).resolves.toEqual({ ref: imageId, imageId });
  });

  it('refuses a missing image with a way to get one, and never pulls', async () => {
    const missing = `sha256:${'0'.repeat(64)}`;
    await expect(resolveImage(missing)).rejects.toThrow(ConfigurationError);
    await expect(resolveImage(missing)).rejects.toThrow(/never pulls.*scripts\/build-test-image\.sh/);
    await expect(resolveImage(`patchproof-missing@sha256:${'1'.repeat(64)}`)).rejects.toThrow(/not present locally/);
  });

  it('refuses the tag even though it exists locally', async () => {
    await expect(resolveImage('patchproof-test:local')).rejects.toThrow(ConfigurationError);
    await expect(createDockerRunner({ image: 'patchproof-test:local' })).rejects.toThrow(ConfigurationError);
  });

  it('refuses a digest reference whose name does not match the local RepoDigests', async () => {
    // A locally built image has no RepoDigests at all: a digest made up from its ID must not pass.
    const hex = imageId.slice('sha256:'.length);
    await expect(resolveImage(`patchproof-test@sha256:${hex}`)).rejects.toThrow(ConfigurationError);
  });

  it('describes the docker runner with the image as given and its ID', async () => {
    const runner = await createDockerRunner({ image: imageId });
    expect(runner.description).toMatchObject({ kind: 'docker', isolated: true, image: imageId, image_id: imageId });
    expect(runner.description.settings).toEqual(expect.arrayContaining(['network=none', 'read-only', 'cap-drop=ALL']));
    expect(runner.view('/host/copy', '/host/results')).toEqual({ workdir: '/home/runner/work/project/project', resultsDir: '/home/runner/work/_temp/test-results' });
    // The image must really be local: inspect agrees on the ID.
    expect(execFileSync('docker', ['image', 'inspect', '--format', '{{.Id}}', imageId], { encoding: 'utf8' }).trim()).toBe(imageId);
  });
});
