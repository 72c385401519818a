import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { stageFixture, stagedFixtureHooks, validateInDocker } from '../helpers/docker-fixture.js';
import { dockerGate, hostileDiff } from './hostile-support.js';

/**
 * Staged tests are the staged files' own, end to end in Docker (docs/security.md, "Staged tests by
 * file path, under unique module names"): py-calculator graded in-process (the pack's unsealed
 * originals), and a candidate that keeps the bug and, from the code under test, patches unittest's
 * loader so that every test method of a staged module is replaced by a passing one of its own.
 * The harness errors each such test (`ForeignTest`), so the reproduction after the patch fails
 * with that message. Without the check the replaced tests report passes (the run still fails
 * there, on the mutant twins, as grader_compromised: the twins are the first defence, and this
 * test fails without the check because the message is missing).
 */

const gate = await dockerGate('hostile staged-foreign tests');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  phases: { name: string; status: string; reasons: string[]; results: { id: string; status: string; message?: string }[] }[];
}

gate.describeDocker('unittest: staged tests replaced by the code under test', () => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());

  it('are errored as ForeignTest, never passes', async () => {
    const fixture = hooks.track(
      await stageFixture('staged-foreign', { repo: join(ROOT, 'fixtures', 'py-calculator', 'repo'), pack: join(ROOT, 'witness-packs', 'py-calculator'), unsealed: true })
    );
    const { status, receipt } = await validateInDocker<ReceiptView>(fixture, {
      diff: hostileDiff('py-forge-staged-tests'),
      label: 'staged-foreign',
      imageId: gate.imageId,
      timeoutSeconds: 180,
      timeoutMs: 900_000
    });
    expect(receipt.verdict).toBe('failed');
    const reproduction = receipt.phases.find((p) => p.name === 'reproduction_after');
    expect(reproduction?.status).toBe('failed');
    const foreign = (reproduction?.results ?? []).filter((r) => /is defined in calculator\.py, not in a staged file/.test(r.message ?? ''));
    expect(foreign.length).toBeGreaterThan(0);
    expect(foreign.every((r) => r.status === 'errored')).toBe(true);
    // Ids are the discovery ids, never the harness's unique package.
    expect((reproduction?.results ?? []).every((r) => !/^_t[0-9a-f]{16}\./.test(r.id))).toBe(true);
    expect(receipt.phases.find((p) => p.name === 'hidden')?.status).toBe('failed');
    expect(status).toBe(1);
  }, 900_000);
});
