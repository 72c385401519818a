import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { stageFixture, stagedFixtureHooks, validateInDocker } from '../helpers/docker-fixture.js';
import { dockerGate, expectLoadedFileReset, hostileDiff, type SurfaceReceiptView } from './hostile-support.js';

/**
 * A file the base's resolved test configuration loads is test surface, end to end in Docker: the
 * jest-money and vitest-chunk fixtures, with a base configuration that loads a setup file
 * (fixtures/hostile/loaded-config, and a "jest".setupFilesAfterEnv key added to package.json;
 * vitest.config.ts test.setupFiles), and a candidate that ships the overfit fix and edits that setup file to make
 * the hidden tests' assertions lenient. The setup file is neither a test file nor named like a
 * config, so only the loaded surface catches it: reset to the base (the sabotage never runs, so no
 * canary has anything to catch) and `grader_tampered`; the overfit fix then fails the hidden tests.
 */

const gate = await dockerGate('hostile loaded-config tests');

const CASES = [
  { adapter: 'jest', name: 'jest-money', setupFile: 'test/setup.js', diff: 'jest-setup-sabotage' },
  { adapter: 'vitest', name: 'vitest-chunk', setupFile: 'test/setup.ts', diff: 'vitest-setup-sabotage' }
] as const;

gate.describeDocker.each(CASES)('$adapter: a setup file the base config loads', ({ name, setupFile, diff }) => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());

  it('is reset to the base when the candidate edits it, and fails as grader_tampered', async () => {
    const fixture = hooks.track(await stageFixture(`loaded-${name}`, { repo: join(ROOT, 'fixtures', name, 'repo'), pack: join(ROOT, 'witness-packs', name) }));
    await cp(join(ROOT, 'fixtures', 'hostile', 'loaded-config', name), fixture.repo, { recursive: true });
    if (name === 'jest-money') {
      // The base's jest configuration loads the setup file (kept out of the fixture's package.json,
      // so the fixture's other tests keep their configuration).
      const pkg = JSON.parse(await readFile(join(fixture.repo, 'package.json'), 'utf8')) as Record<string, unknown>;
      await writeFile(join(fixture.repo, 'package.json'), `${JSON.stringify({ ...pkg, jest: { setupFilesAfterEnv: ['<rootDir>/test/setup.js'] } }, null, 2)}\n`);
    }
    const { status, receipt } = await validateInDocker<SurfaceReceiptView>(fixture, {
      diff: hostileDiff(diff),
      label: `loaded-${name}`,
      imageId: gate.imageId,
      timeoutSeconds: 180,
      timeoutMs: 900_000
    });
    expectLoadedFileReset(receipt, status, setupFile);
    // The base's setup file ran, not the candidate's: nothing was made lenient.
    expect(receipt.reasons).not.toContain('grader_compromised');
  }, 900_000);
});
