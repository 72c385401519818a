import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { packDigest, stageFixture, stagedFixtureHooks, validateInDocker } from '../helpers/docker-fixture.js';
import { dockerGate, hostileDiff } from './hostile-support.js';

/**
 * With dependency changes allowed, the candidate's lockfile still may not link a dependency of the
 * test runner to vendored code, end to end in Docker: jest-money graded by its pack with
 * `allow.dependency_changes`, and a candidate (fixtures/hostile/jest-link-vendored-expect.diff)
 * that ships the overfit fix and a `vendor/expect` whose matchers all pass, linked in place of
 * jest's `expect` by `"node_modules/expect": {"resolved": "vendor/expect", "link": true}`. The
 * candidate's dependency stage never runs (`dependency_refused`, the refusals in
 * `setup.candidate.refused`); its tests run on the base's node_modules and the overfit fails.
 */

const gate = await dockerGate('hostile dependency-policy tests');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  setup?: { candidate?: { status: string; exit_code: number | null; refused?: string[] } };
  phases: { name: string; status: string }[];
}

gate.describeDocker('a lockfile linking a dependency of the test runner to vendored code', () => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());

  it('is refused although the pack allows dependency changes', async () => {
    const staged = hooks.track(await stageFixture('deps-link', { repo: join(ROOT, 'fixtures', 'jest-money', 'repo'), pack: join(ROOT, 'witness-packs', 'jest-money') }));
    const manifestPath = join(staged.pack, 'witness.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
    await writeFile(manifestPath, `${JSON.stringify({ ...manifest, allow: { dependency_changes: true } }, null, 2)}\n`);
    const fixture = { ...staged, digest: await packDigest(staged.pack, staged.tmp) };
    const { status, receipt } = await validateInDocker<ReceiptView>(fixture, {
      diff: hostileDiff('jest-link-vendored-expect'),
      label: 'deps-link',
      imageId: gate.imageId,
      timeoutSeconds: 180,
      timeoutMs: 900_000
    });
    expect(receipt.setup?.candidate).toMatchObject({ status: 'failed', exit_code: null });
    expect(receipt.setup?.candidate?.refused).toEqual(
      expect.arrayContaining([
        'package-lock.json: node_modules/expect is a link (to "vendor/expect")',
        "package-lock.json: node_modules/expect belongs to the test runner's dependencies (jest) and differs from the base's"
      ])
    );
    expect(receipt.verdict).toBe('failed');
    expect(receipt.reasons).toContain('dependency_refused');
    // The base's jest (and its expect) graded the overfit fix.
    expect(receipt.phases.find((p) => p.name === 'hidden')?.status).toBe('failed');
    expect(status).toBe(1);
  }, 900_000);
});
