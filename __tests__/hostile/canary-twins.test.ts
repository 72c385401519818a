import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli, fixture as fixtureOf, runCli, tempDir } from '../helpers/cli.js';
import { packDigest, stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { area, dockerGate, expectSparedCanariesCaught, hostileDiff, validateCandidate, type Area } from './hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * Twin and mutant canaries (src/adapters/shared/python-twins.ts) against sabotage that spares the fixed
 * canaries, end to end in the Docker runner through the bundled CLI, for the unittest pack and the
 * pytest pack of py-calculator.
 *
 * `spare-canaries.diff` is the overfitting fix plus, at import of calculator.py, every
 * `TestCase.assert*` (but assertRaises) turned into a no-op, except in PatchProof's fixed canaries,
 * told apart by their module and class (`patchproof.Checks`, appended last), their name shape
 * (`c` + 16 hex digits) and the pytest plugin's environment variable. The fixed canaries still
 * behave, so without the twins this candidate passes with proof grade; the mutant twins of the
 * hidden and reproduction tests (one assertion perturbed) now pass next to their passing
 * originals: grader_compromised.
 */

const gate = await dockerGate('canary twin tests');
const py = fixtureOf('py-calculator');
// The py-calculator pack is sealed (issue 11): twins are for in-process grading, so these packs are
// built from the author's unsealed originals.
const ORIGINALS = join(ROOT, 'witness-packs', 'py-calculator', 'oracle', 'original');

interface Twin {
  kind: 'twin' | 'mutant';
  status: string;
  original: string;
}

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  phases: {
    name: string;
    status: string;
    reasons: string[];
    runs: { label: string; problems?: string[]; canary: { pass: string; fail: string; changed?: string[]; twins?: Twin[] } }[];
  }[];
}

function runsOf(receipt: ReceiptView): ReceiptView['phases'][number]['runs'] {
  return receipt.phases.flatMap((p) => p.runs);
}

/** A twin behaved: as in src/core/twins.ts (written out again, so a mistake there cannot hide here). */
function behaved(t: Twin): boolean {
  if (t.kind === 'twin') return t.status !== 'missing' && t.original !== 'missing' && (t.status === 'passed') === (t.original === 'passed');
  return t.original !== 'missing' && (t.original !== 'passed' || t.status === 'failed');
}

gate.describeDocker.each(['unittest', 'pytest'])('twin canaries, %s pack, in the Docker runner', (adapter) => {
  let fixture: StagedFixture;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    {
      const tmp = await tempDir(`twins-${adapter}`);
      const pack = join(tmp, `${adapter}-pack`);
      const init = await runCli(['witness', 'init', pack, '--adapter', adapter, '--reproduction', join(ORIGINALS, 'reproduction'), '--hidden', join(ORIGINALS, 'hidden')], { tmp });
      expect(init.status).toBe(0);
      fixture = { tmp, repo: py.repo, pack, digest: await packDigest(pack, tmp) };
    }
  }, 180_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  /** A candidate of py-calculator's own (`candidates/NAME.diff`), or `hostile:NAME` under fixtures/hostile. */
  async function validate(candidate: string): Promise<{ status: number | null; receipt: ReceiptView }> {
    const name = candidate.replace(/^hostile:/, '');
    const diff = name === candidate ? py.candidate(name) : hostileDiff(name);
    return validateInDocker<ReceiptView>(fixture, { diff, label: `twins-${adapter}-${name}`, imageId: gate.imageId, timeoutSeconds: 60, timeoutMs: 150_000 });
  }

  it('the correct fix passes (in-process pack: not proof grade), with twins and mutants in every run, all behaved', async () => {
    const { status, receipt } = await validate('fix');
    expect(status).toBe(0);
    // An in-process pack passes but is never proof grade (issue 11: proof grade needs sealed oracles).
    expect(receipt).toMatchObject({ verdict: 'passed', reasons: [], proof_grade: false, adapter });
    for (const run of runsOf(receipt)) {
      const twins = run.canary.twins ?? [];
      expect([run.label, twins.some((t) => t.kind === 'mutant'), twins.some((t) => t.kind === 'twin')]).toEqual([run.label, true, true]);
      expect(twins.filter((t) => !behaved(t))).toEqual([]);
    }
    // The hidden run has a mutant of each of its 4 tests; each failed next to its passing original.
    const hidden = runsOf(receipt).find((r) => r.label === 'hidden')!;
    expect(hidden.canary.twins!.filter((t) => t.kind === 'mutant')).toEqual(Array(4).fill({ kind: 'mutant', status: 'failed', original: 'passed' }));
  }, 180_000);

  /** The fixed canaries were spared and behaved; the mutant twins passed: grader_compromised. */
  function expectSparedButCaught(status: number | null, receipt: ReceiptView): void {
    expect(status).toBe(1);
    expect(receipt.verdict).toBe('failed');
    expect(receipt.proof_grade).toBe(false);
    expect(receipt.reasons).toContain('grader_compromised');
    for (const name of ['reproduction_after', 'hidden']) {
      expect(receipt.phases.find((p) => p.name === name)!.reasons).toContain('grader_compromised');
    }
    const patched = runsOf(receipt).filter((r) => ['reproduction_after', 'hidden', 'regression_after'].includes(r.label));
    expect(patched.length).toBeGreaterThan(0);
    for (const run of patched) {
      expectSparedCanariesCaught(run);
    }
    // The base runs carry no sabotage: their twins behaved.
    for (const run of runsOf(receipt).filter((r) => r.label.endsWith('_before'))) {
      expect((run.canary.twins ?? []).filter((t) => !behaved(t))).toEqual([]);
    }
  }

  it('sabotage sparing the fixed canaries by module, class, name shape and environment: failed, grader_compromised', async () => {
    const { status, receipt } = await validate('spare-canaries');
    expectSparedButCaught(status, receipt);
  }, 180_000);

  // py-spare-canary-order.diff: the same overfit fix, every assertion disarmed but in the last two
  // tests of the run order (unittest: the outermost suite, flattened; pytest: the session's items and
  // PYTEST_CURRENT_TEST), where both harnesses append their canaries. Checked by hand with plain
  // unittest and pytest 9 on the host, the two canaries appended last and no twins: only the
  // must-fail canary fails, so it would pass; the overfit alone fails test_chained_division.
  it('sabotage sparing the fixed canaries by their place in the run order (the last two): failed, grader_compromised', async () => {
    const { status, receipt } = await validate('hostile:py-spare-canary-order');
    expectSparedButCaught(status, receipt);
  }, 180_000);
});

/**
 * js-duration (node:test): `disarm-strict-only.diff` is the overfitting fix plus every assertion of
 * `node:assert/strict` (the module the tests use) turned into a no-op at import; the fixed
 * canaries assert through `node:assert` and still behave. The mutant twins are declared through the
 * file's own `assert` (node:assert/strict), so they pass next to their passing originals.
 */
gate.describeDocker('twin canaries, node:test pack (js-duration), in the Docker runner', () => {
  let where: Area;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-twins');
  });

  afterEach(async () => {
    await where.dispose();
  });

  it('sabotage of node:assert/strict only: failed, grader_compromised, though the fixed canaries behaved', async () => {
    const result = await validateCandidate(where, { diff: hostileDiff('disarm-strict-only'), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 30 });
    expect(result.verify?.status).toBe(0);
    expect(result.validation.status).toBe(1);
    const receipt = result.receipt as unknown as ReceiptView;
    expect(receipt.verdict).toBe('failed');
    expect(receipt.proof_grade).toBe(false);
    expect(receipt.reasons).toContain('grader_compromised');
    // js-duration's pack is sealed: its reproduction and hidden runs have no twins (the oracle grades
    // them); the in-process regression suite is where the twins catch the sabotage.
    const patched = runsOf(receipt).filter((r) => r.label === 'regression_after');
    expect(patched.length).toBeGreaterThan(0);
    for (const run of patched) {
      expectSparedCanariesCaught(run);
    }
    for (const run of runsOf(receipt).filter((r) => r.label.endsWith('_before'))) {
      expect((run.canary.twins ?? []).filter((t) => !behaved(t))).toEqual([]);
    }
    expect(result.containersLeft).toEqual([]);
  }, 120_000);
});

/**
 * jest-money and vitest-chunk, each with the overfitting fix plus sabotage that spares the fixed
 * canaries by their name shape: jest's toBe/toEqual honest only when the running test is named
 * `c` + 16 hex digits (`spare-canary-names.diff`); vitest's afterEach turning any other failed task
 * into a pass (`flip-failed.diff`). The twins are declared through the file's own `test`/`expect`,
 * under names like its real tests', so the mutants pass (or are flipped to a pass) next to their
 * passing originals. junit-semver (generic junit, node --test: one process per test file) with
 * the wrong fix plus `node:assert/strict` disarmed in every process but the one of the pack's
 * separate canary file (`spare-canary-process.diff`): the twins live inside each test file, so in
 * the sabotaged processes.
 */
gate.describeDocker.each([
  ['jest', 'jest-money', 'spare-canary-names'],
  ['vitest', 'vitest-chunk', 'flip-failed'],
  ['junit', 'junit-semver', 'spare-canary-process']
])('twin canaries, %s pack, in the Docker runner', (adapter, name, candidate) => {
  let fixture: StagedFixture;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    // Twins are for in-process grading: every sealed pack runs from its unsealed originals here.
    fixture = await stageFixture(`twins-${adapter}`, { repo: join(ROOT, 'fixtures', name, 'repo'), pack: join(ROOT, 'witness-packs', name), unsealed: true });
  }, 180_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  it(`${candidate}: failed, grader_compromised, though the fixed canaries behaved`, async () => {
    const { status, receipt } = await validateInDocker<ReceiptView>(fixture, {
      diff: join(ROOT, 'fixtures', name, 'candidates', `${candidate}.diff`),
      label: `twins-${name}-${candidate}`,
      imageId: gate.imageId,
      timeoutMs: 900_000,
      ...(adapter === 'junit' ? {} : { setupCache: join(fixture.tmp, 'setup-cache') })
    });
    // With the base runs' result problems beside the verdict, so that a failure shows them (a CI run once had one, and was inconclusive).
    const problems = runsOf(receipt)
      .filter((r) => r.label.endsWith('_before'))
      .flatMap((r) => (r.problems ?? []).map((p) => `${r.label}: ${p}`));
    expect({ verdict: receipt.verdict, problems }).toEqual({ verdict: 'failed', problems: [] });
    expect(status).toBe(1);
    expect(receipt.reasons).toContain('grader_compromised');
    for (const run of runsOf(receipt).filter((r) => ['reproduction_after', 'hidden'].includes(r.label))) {
      expectSparedCanariesCaught(run);
    }
  }, 900_000);
});
