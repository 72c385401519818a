import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli, treeListing } from '../helpers/cli.js';
import { publicHiddenIds } from '../helpers/hidden.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * The go adapter end to end in the hardened Docker runner: the go-paginate fixture graded by its
 * witness pack (witness-packs/go-paginate) through the bundled CLI, with the test image's Go.
 * The repository and the pack are copied out of this repository first, so the snapshot and the
 * digest cover their files whether or not git tracks them yet. The pack's setup stage fills a build
 * cache once (shared by both candidates through --setup-cache), so the test runs do not compile the
 * standard library again. The pack is sealed by hand in the generic observation form (its tests
 * call the pack's patchproof_obs_test.go helper; docs/witness-pack.md): reproduction and hidden
 * are graded on the host against oracle/expected.json.
 */

const gate = await dockerGate('go Docker end-to-end tests');
const FIXTURE = join(ROOT, 'fixtures', 'go-paginate');
const SOURCE_PACK = join(ROOT, 'witness-packs', 'go-paginate');

interface ResultView {
  id: string;
  status: string;
  failure_kind?: string;
}

interface ReceiptView {
  bindings: { witness_digest: string };
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  runner: { isolated: boolean };
  setup?: { base?: { status: string } };
  phases: {
    name: string;
    status: string;
    reasons: string[];
    grading: string;
    results: ResultView[];
    runs: { canary: { pass: string; fail: string }; oracle?: { cases: number; observed: number; matched: number } }[];
  }[];
}

gate.describeDocker('go witness pack in the Docker runner', () => {
  let fixture: StagedFixture;
  let repo: string;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    fixture = await stageFixture('go-docker', { repo: join(FIXTURE, 'repo'), pack: SOURCE_PACK });
    repo = fixture.repo;
  }, 60_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  async function validateCandidate(candidate: string): Promise<{ status: number | null; receipt: ReceiptView }> {
    const diff = join(FIXTURE, 'candidates', `${candidate}.diff`);
    return validateInDocker<ReceiptView>(fixture, {
      diff,
      label: `go-${candidate}`,
      imageId: gate.imageId,
      // Under load (8 engineers on 2 cores) one validation with its setup stage took over 5 minutes.
      timeoutMs: 900_000,
      setupCache: join(fixture.tmp, 'setup-cache')
    });
  }

  it('passes the correct fix as proof grade; the bug reproduced for the right reasons first', async () => {
    const before = treeListing(repo);
    const { status, receipt } = await validateCandidate('fix');
    expect(receipt).toMatchObject({ verdict: 'passed', reasons: [], proof_grade: true, adapter: 'go', runner: { isolated: true } });
    expect(receipt.phases.map((p) => [p.name, p.grading])).toEqual([
      ['reproduction_before', 'sealed'],
      ['reproduction_after', 'sealed'],
      ['regression', 'in_process'],
      ['hidden', 'sealed']
    ]);
    expect(status).toBe(0);
    expect(receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(receipt.setup?.base?.status).toBe('ok');
    const reproduction = receipt.phases.find((p) => p.name === 'reproduction_before');
    // At base the count is a wrong value and the page a panic in paginate.go, which the helper
    // observes (and reports as a failure of its test, without stopping the test binary).
    expect(reproduction?.results.map((r) => [r.id, r.status, r.failure_kind])).toEqual([
      ['oracle > reproduction:count/10/3', 'failed', 'assertion'],
      ['oracle > reproduction:page/10/4/3', 'failed', 'exception_in_code'],
      ['.patchproof/reproduction/TestPartialLastPage', 'failed', 'assertion']
    ]);
    const hidden = receipt.phases.find((p) => p.name === 'hidden');
    expect(hidden?.runs.map((r) => r.oracle)).toEqual([expect.objectContaining({ cases: 74, observed: 74, matched: 74 })]);
    const regression = receipt.phases.find((p) => p.name === 'regression');
    expect(regression?.results.map((r) => r.id)).toContain('example.com/paginate/TestPageFullPages/second');
    for (const phase of receipt.phases) {
      for (const run of phase.runs) expect(run.canary).toMatchObject({ pass: 'passed', fail: 'failed' });
    }
    expect(treeListing(repo)).toEqual(before);
  }, 960_000);

  it('fails the wrong fix on the hidden tests', async () => {
    const { status, receipt } = await validateCandidate('wrong-fix');
    expect(receipt).toMatchObject({ verdict: 'failed', reasons: ['hidden_failed'], proof_grade: false, adapter: 'go' });
    expect(status).toBe(1);
    const hidden = receipt.phases.find((p) => p.name === 'hidden');
    // Count is one too many for every exact multiple: those counts, and the pages of those totals.
    const multiples = [...Array(12).keys()].flatMap((t) => [1, 2, 3, 4, 5].filter((s) => (t + 1) % s === 0).map((s) => `oracle > hidden:pages/${t + 1}/${s}`));
    const counts = ['9/3', '3/3', '100/10', '5/1'].map((c) => `oracle > hidden:count/${c}`);
    expect(multiples).toHaveLength(27);
    expect(
      hidden?.results
        .filter((r) => r.status !== 'passed')
        .map((r) => r.id)
        .sort()
    ).toEqual(publicHiddenIds(receipt, [...counts, ...multiples]));
  }, 960_000);
});
