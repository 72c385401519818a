import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { proposeAndApprove, ROOT, runCli } from '../helpers/cli.js';
import { stageFixture, stagedFixtureHooks, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate, expectLoadedFileReset, hostileDiff, type SurfaceReceiptView } from './hostile-support.js';

/**
 * The loaded surface's reach rules end to end in Docker (docs/security.md, "Surface"): the
 * jest-money fixture graded in-process (the pack's unsealed originals, so that sabotage of the
 * matchers would really pass), with a base configuration from fixtures/hostile/surface-gaps/<case>
 * (its jest.json becomes package.json's "jest"), and a candidate that ships the overfit fix and
 * makes `toBe` lenient in a file that configuration loads only indirectly:
 * - mapper: through a setup file's `require('testkit/matchers')` and moduleNameMapper's
 *   `<rootDir>/tools/testkit/$1`;
 * - setup-import: through the setup file's `require('../tools/matchers')`, outside its folder;
 * - projects: through a `projects` entry naming jest.unit.config.js, whose setup file it is.
 * Without these rules none of the files is surface, the edit stays and the overfit passes. With
 * them it is reset to the base and `grader_tampered`; the overfit then fails the hidden tests.
 * A project configuration outside the repository is refused in one line before anything runs.
 */

const gate = await dockerGate('hostile surface-gap tests');

const CASES = [
  { gap: 'mapper', edited: 'tools/testkit/matchers.js', diff: 'jest-mapper-sabotage' },
  { gap: 'setup-import', edited: 'tools/matchers.js', diff: 'jest-setup-import-sabotage' },
  { gap: 'projects', edited: 'test/setup.js', diff: 'jest-project-setup-sabotage' }
] as const;

/** jest-money, unsealed, with a base configuration merged into package.json's "jest". */
async function stageCase(label: string, files: string | undefined, jest: Record<string, unknown>): Promise<StagedFixture> {
  const fixture = await stageFixture(label, { repo: join(ROOT, 'fixtures', 'jest-money', 'repo'), pack: join(ROOT, 'witness-packs', 'jest-money'), unsealed: true });
  if (files !== undefined) {
    await cp(files, fixture.repo, { recursive: true });
    await rm(join(fixture.repo, 'jest.json'));
  }
  const pkg = JSON.parse(await readFile(join(fixture.repo, 'package.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(join(fixture.repo, 'package.json'), `${JSON.stringify({ ...pkg, jest }, null, 2)}\n`);
  return fixture;
}

gate.describeDocker.each(CASES)('jest: a file the base config loads through $gap', ({ gap, edited, diff }) => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());

  it('is reset to the base when the candidate edits it, and fails as grader_tampered', async () => {
    const files = join(ROOT, 'fixtures', 'hostile', 'surface-gaps', gap);
    const jest = JSON.parse(await readFile(join(files, 'jest.json'), 'utf8')) as Record<string, unknown>;
    const fixture = hooks.track(await stageCase(`gap-${gap}`, files, jest));
    const { status, receipt } = await validateInDocker<SurfaceReceiptView>(fixture, {
      diff: hostileDiff(diff),
      label: `gap-${gap}`,
      imageId: gate.imageId,
      timeoutSeconds: 180,
      timeoutMs: 900_000
    });
    expectLoadedFileReset(receipt, status, edited);
  }, 900_000);
});

gate.describeDocker('jest: a project configuration outside the repository', () => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());

  it('is refused in one line before anything runs', async () => {
    const fixture = hooks.track(
      await stageCase('gap-outside', join(ROOT, 'fixtures', 'hostile', 'surface-gaps', 'projects'), { projects: ['<rootDir>/../shared/jest.config.js'] })
    );
    const work = join(fixture.tmp, 'work');
    await mkdir(work, { recursive: true });
    const approved = await proposeAndApprove(fixture.repo, hostileDiff('jest-project-setup-sabotage'), work, fixture.tmp, 'gap-outside');
    const result = await runCli(
      [
        'validate',
        '--repo',
        fixture.repo,
        '--proposal',
        approved.proposalPath,
        '--approval',
        approved.approvalPath,
        '--witness',
        fixture.pack,
        '--witness-digest',
        fixture.digest,
        '--runner',
        'docker',
        '--image',
        gate.imageId,
        '--out',
        join(work, 'out')
      ],
      { tmp: fixture.tmp, timeoutMs: 300_000 }
    );
    expect([result.status, result.stderr]).toEqual([2, expect.stringContaining('lies outside the repository')]);
    const lines = result.stderr.split('\n').filter((line) => line.includes('lies outside the repository'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"<rootDir>/../shared/jest.config.js"');
  }, 300_000);
});
