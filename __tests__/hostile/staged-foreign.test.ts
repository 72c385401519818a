import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { stageFixture, stagedFixtureHooks, validateInDocker } from '../helpers/docker-fixture.js';
import { dockerGate, hostileDiff, pytestCalculatorPack } from './hostile-support.js';

/**
 * Staged tests are the staged files' own, end to end in Docker (docs/security.md, "Staged tests by
 * file path, under unique module names"): py-calculator graded in-process (the pack's unsealed
 * originals), and a candidate that keeps the bug and, from the code under test, patches unittest's
 * loader so that every test method of a staged module is replaced by a passing one of its own.
 * The harness errors each such test (`ForeignTest`), so the reproduction after the patch fails
 * with that message. Without the check the replaced tests report passes (the run still fails
 * there, on the mutant twins, as grader_compromised: the twins are the first defence, and this
 * test fails without the check because the message is missing).
 *
 * pytest (py-calculator's originals as a pytest pack, in-process): `py-pytest-forge-staged-module`
 * is the overfit fix plus code under test that, when a staged test module imports it, plants a
 * forged module in `sys.modules` under that module's own name, compiled from the staged file
 * itself (so `__file__` and every function's `co_filename` are the staged file's) with every test
 * body emptied. The import system hands back whatever `sys.modules` holds once the module's code
 * has run, and pytest's prepend import checks only `__file__`. Checked by hand with plain pytest
 * (8.3.5 in the image, 9.0.3 on the host), no PatchProof: the hidden file passes 4 of 4 with the
 * forgery, 3 of 4 with the overfit alone; and with the plugin of before this check (pytest's own
 * import plus the `__file__`/`co_filename` check) it also passed 4 of 4 (in PatchProof the mutant
 * twins, emptied too, would still fail the run as grader_compromised, without any ForeignTest:
 * this test fails without the new check because the message is missing). Now the plugin
 * imports each staged file itself under a unique name and checks the module by identity: the
 * file is a collection error with the ForeignTest message.
 */

const gate = await dockerGate('hostile staged-foreign tests');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  phases: { name: string; status: string; reasons: string[]; results: { id: string; status: string; message?: string; failure_kind?: string }[] }[];
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

interface PytestReceiptView extends ReceiptView {
  adapter: string;
}

gate.describeDocker("pytest: a forged module planted under a staged test module's name", () => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());

  it('is a collection error (ForeignTest), never the forged passes', async () => {
    const fixture = hooks.track(await pytestCalculatorPack('staged-foreign-pytest'));
    const { status, receipt } = await validateInDocker<PytestReceiptView>(fixture, {
      diff: hostileDiff('py-pytest-forge-staged-module'),
      label: 'staged-foreign-pytest',
      imageId: gate.imageId,
      timeoutSeconds: 180,
      timeoutMs: 900_000
    });
    expect([receipt.adapter, receipt.verdict, status]).toEqual(['pytest', 'failed', 1]);
    // The staged file is refused before any of its tests ran; each pinned test is then absent, failed.
    const reproduction = receipt.phases.find((p) => p.name === 'reproduction_after');
    expect(reproduction?.status).toBe('failed');
    expect((reproduction?.results ?? []).map((r) => [r.id, r.status, r.message])).toEqual([
      ['.patchproof/reproduction/test_repro_subtraction.py', 'errored', 'ForeignTest: staged test module test_repro_subtraction.py was replaced while it was imported'],
      ...['test_minus_then_plus_in_a_divisor', 'test_subtractions_are_applied_left_to_right'].map((name) => [
        `.patchproof/reproduction/test_repro_subtraction.py::ChainedSubtractionTest::${name}`,
        'failed',
        'absent from the results'
      ])
    ]);
    // The hidden phase is redacted (keyed ids, no messages): one collection error, no pass.
    const hidden = receipt.phases.find((p) => p.name === 'hidden');
    expect(hidden?.status).toBe('failed');
    const statuses = (hidden?.results ?? []).map((r) => [r.status, r.failure_kind ?? null]);
    expect(statuses.filter(([status]) => status === 'errored')).toEqual([['errored', 'collection_error']]);
    expect(statuses.filter(([status]) => status === 'passed')).toEqual([]);
  }, 900_000);
});
