import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES, ROOT, ensureCli, treeListing } from '../helpers/cli.js';
import { publicHiddenIds } from '../helpers/hidden.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * The cargo adapter end to end in the hardened Docker runner: the rust-textclip fixture graded by
 * its witness pack through the bundled CLI, with the test image's cargo. Each validation builds the
 * crate in seven fresh containers (reproduction twice before and after, the suite before and after,
 * the hidden tests), one CPU each. The pack is sealed by hand in the generic observation form (its
 * tests call the pack's patchproof_obs helper module; docs/witness-pack.md): reproduction and hidden
 * are graded on the host against oracle/expected.json.
 */

const gate = await dockerGate('cargo Docker end-to-end tests');
const FIXTURE_REPO = join(FIXTURES, 'rust-textclip', 'repo');
const CANDIDATES = join(FIXTURES, 'rust-textclip', 'candidates');
const SOURCE_PACK = join(ROOT, 'witness-packs', 'rust-textclip');

interface ReceiptView {
  bindings: { witness_digest: string };
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  runner: { isolated: boolean };
  inventory: { test_ids: Record<string, string[]> };
  phases: {
    name: string;
    status: string;
    reasons: string[];
    grading: string;
    results: { id: string; status: string; failure_kind?: string }[];
    runs: { label: string; attempt: number; duration_ms: number; oracle?: { cases: number; observed: number; matched: number } }[];
  }[];
}

gate.describeDocker('cargo witness pack in the Docker runner', () => {
  let fixture: StagedFixture;
  let repo: string;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    fixture = await stageFixture('cargo-docker', { repo: FIXTURE_REPO, pack: SOURCE_PACK });
    repo = fixture.repo;
  }, 180_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  async function validateCandidate(candidate: string): Promise<{ status: number | null; receipt: ReceiptView; seconds: number }> {
    const result = await validateInDocker<ReceiptView>(fixture, {
      diff: join(CANDIDATES, `${candidate}.diff`),
      label: `cargo-${candidate}`,
      imageId: gate.imageId,
      timeoutSeconds: 240,
      timeoutMs: 900_000
    });
    const runs = result.receipt.phases.flatMap((p) => p.runs.map((r) => `${r.label}#${r.attempt} ${Math.round(r.duration_ms / 1000)} s`));
    console.log(`cargo ${candidate}: validate took ${result.seconds} s (exit ${result.status}); container runs: ${runs.join(', ')}`);
    return result;
  }

  it('passes the correct fix as proof grade, the reproduction failing at base for the right reasons', async () => {
    const before = treeListing(repo);
    const { status, receipt } = await validateCandidate('fix');
    expect(receipt).toMatchObject({ verdict: 'passed', reasons: [], proof_grade: true, adapter: 'cargo', runner: { isolated: true } });
    expect(status).toBe(0);
    expect(receipt.phases.map((p) => [p.name, p.status])).toEqual([
      ['reproduction_before', 'passed'],
      ['reproduction_after', 'passed'],
      ['regression', 'passed'],
      ['hidden', 'passed']
    ]);
    expect(receipt.phases.map((p) => p.grading)).toEqual(['sealed', 'sealed', 'in_process', 'sealed']);
    const hidden = receipt.phases.find((p) => p.name === 'hidden');
    expect(hidden?.runs.map((r) => r.oracle)).toEqual([expect.objectContaining({ cases: 9, observed: 9, matched: 9 })]);
    const reproduction = receipt.phases.find((p) => p.name === 'reproduction_before')?.results ?? [];
    // At base: a panic in clip() (observed by the helper, then resumed, so its test errors too) and
    // a wrong value.
    expect(reproduction.map((t) => [t.id, t.status, t.failure_kind]).sort()).toEqual([
      ['.patchproof/reproduction/clip_unicode.rs::cuts_accented_text_between_characters', 'errored', 'exception_in_code'],
      ['oracle > reproduction:clip/cafe-au-lait/5', 'failed', 'exception_in_code'],
      ['oracle > reproduction:clip/naive/5', 'failed', 'assertion']
    ]);
    expect(receipt.inventory.test_ids.regression_before).toEqual([
      'lib:textclip::tests::long_text_ends_with_an_ellipsis',
      'lib:textclip::tests::padding_fills_with_spaces',
      'lib:textclip::tests::short_text_is_kept',
      'lib:textclip::tests::zero_columns_hold_nothing',
      'test:columns::a_row_lines_up_its_cells',
      'test:columns::fit_gives_the_exact_width'
    ]);
    expect(treeListing(repo)).toEqual(before);
  }, 900_000);

  it('fails the fix that only patches clip() on the hidden tests', async () => {
    const { status, receipt } = await validateCandidate('wrong-fix');
    expect(receipt).toMatchObject({ verdict: 'failed', reasons: ['hidden_failed'], proof_grade: false, adapter: 'cargo' });
    expect(status).toBe(1);
    const hidden = receipt.phases.find((p) => p.name === 'hidden')?.results ?? [];
    // width() still counts bytes: every case that measures accented or wide text, or a clipped cell.
    expect(
      hidden
        .filter((t) => t.status !== 'passed')
        .map((t) => t.id)
        .sort()
    ).toEqual(
      publicHiddenIds(receipt, [
        'oracle > hidden:fit/naive/7',
        'oracle > hidden:pad/cafe/6',
        'oracle > hidden:row/zoe-asa',
        'oracle > hidden:width-of-clip/breakfast/5',
        'oracle > hidden:width/nihongo',
        'oracle > hidden:width/zoe'
      ])
    );
  }, 900_000);
});
