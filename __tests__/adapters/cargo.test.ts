import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cargoAdapter } from '../../src/adapters/cargo/index.js';
import { CARGO_BUILD_FILE, CARGO_RUN_FILE } from '../../src/adapters/cargo/harness.js';
import { listFiles, removeCopy, runAdapter, stageCopy } from './data/run-adapter.js';
import type { AdapterRun, StagedCopy } from './data/run-adapter.js';

/**
 * The cargo adapter on real cargo runs of the rust-textclip fixture with the grader's own tests:
 * the base suite passes, the reproduction fails for the right reasons. Runs when cargo is on the
 * host (the Docker end-to-end test runs the same in the test image).
 */

const probe = spawnSync('rustc', ['--print', 'sysroot'], { encoding: 'utf8' });
const sysroot = probe.status === 0 ? probe.stdout.trim() : undefined;
if (sysroot === undefined) console.warn('SKIPPING the real cargo runs: rustc is not on PATH');
const describeWithCargo = sysroot === undefined ? describe.skip : describe;

// The toolchain's own bin folder first: a rustup proxy would look for its toolchains under a HOME
// the run replaces.
const ORIGINAL_PATH = process.env.PATH ?? '';
beforeAll(() => {
  if (sysroot !== undefined) process.env.PATH = `${path.join(sysroot, 'bin')}:${ORIGINAL_PATH}`;
});
afterAll(() => {
  process.env.PATH = ORIGINAL_PATH;
});

// stageCopy takes projects relative to __tests__/adapters/data.
const FIXTURE = '../../../fixtures/rust-textclip/repo';
// The pack is sealed; the adapter's own judging is shown on the author's unsealed originals.
const PACK = '../../../witness-packs/rust-textclip/oracle/original';

describeWithCargo('cargo adapter on the rust-textclip fixture', () => {
  const copies: StagedCopy[] = [];
  afterAll(async () => {
    for (const copy of copies) await removeCopy(copy);
  });

  it('runs the suite: every unit and integration test passes, the canaries behave, nothing is written into the copy', async () => {
    const copy = await stageCopy(cargoAdapter, FIXTURE);
    copies.push(copy);
    const files = cargoAdapter.suiteFiles(await listFiles(copy));
    expect(files).toEqual(['src/lib.rs', 'tests/columns.rs']);
    const run: AdapterRun = await runAdapter(cargoAdapter, copy, { files, suite: true, testRoots: [] });
    expect(run.parsed.problems).toEqual([]);
    expect(run.exitCode).toBe(1);
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    expect(run.parsed.tests.map((t) => `${t.id} ${t.status}`).sort()).toEqual([
      'lib:textclip::tests::long_text_ends_with_an_ellipsis passed',
      'lib:textclip::tests::padding_fills_with_spaces passed',
      'lib:textclip::tests::short_text_is_kept passed',
      'lib:textclip::tests::zero_columns_hold_nothing passed',
      'test:columns::a_row_lines_up_its_cells passed',
      'test:columns::fit_gives_the_exact_width passed'
    ]);
    expect(Object.keys(run.files)).toEqual(expect.arrayContaining([CARGO_RUN_FILE, CARGO_BUILD_FILE]));
    // Cargo built under TMPDIR, never in the copy (read-only in the Docker runner).
    expect(existsSync(path.join(copy.workdir, 'target'))).toBe(false);
  }, 300_000);

  it('runs the reproduction: a panic in clip() and an assertion, both for the right reason', async () => {
    const copy = await stageCopy(cargoAdapter, FIXTURE, { from: `${PACK}/reproduction`, files: ['clip_unicode.rs'], placement: '.patchproof/reproduction' });
    copies.push(copy);
    const run = await runAdapter(cargoAdapter, copy, { files: ['.patchproof/reproduction/clip_unicode.rs'], suite: false, testRoots: ['.patchproof/reproduction'] });
    expect(run.parsed.problems).toEqual([]);
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    expect(run.parsed.tests.map((t) => [t.id, t.status, t.failure_kind]).sort()).toEqual([
      ['.patchproof/reproduction/clip_unicode.rs::cuts_accented_text_between_characters', 'errored', 'exception_in_code'],
      ['.patchproof/reproduction/clip_unicode.rs::keeps_accented_text_that_fits', 'failed', 'assertion']
    ]);
  }, 300_000);
});
