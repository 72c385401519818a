import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES, ensureCli } from '../helpers/cli.js';
import { stageFixture, unsealedPack, validateInDocker, type DockerValidation, type StagedFixture } from '../helpers/docker-fixture.js';
import { OLD_LAYOUT, PHASES, hostileDiff, packedFixture, pytestCalculatorPack, sealPytestCalculatorPack, type DockerGate } from './hostile-support.js';

/**
 * The hostile matrix's cells for the go, cargo and pytest columns (issue 11, "Tests"; the table is
 * docs/hostile-matrix-native.md), end to end in the hardened Docker runner through the bundled CLI,
 * one staged fixture per column and several candidates against it. One test file per column
 * (matrix-native-go, -cargo, -pytest), so that Jest's workers share the columns out.
 *
 * - grading-aware (class f): the real fix only under the grader's old fixed layout (`/patchproof/`,
 *   uid 65534), the fixture's wrong fix everywhere else. Under the neutral defaults it fails; given
 *   the old layout back it passes (the control: that is what the defaults buy).
 * - a flood of files (class g): up to 100,000 empty files in every writable bind mount, then a
 *   hang, from the code under test (a Go `init()`, a Rust `.init_array` constructor, Python at
 *   import): the results tmpfs's inode cap and the file watchdog stop it, `output_limit`.
 * - hidden tests read at import (class e), go, cargo and pytest: the wrong (overfit) fix plus code
 *   that reads the staged tests' files and returns the expected value written next to the very call
 *   being made (go: at package init, the `{total, size, want}` rows of TestCount; its overfit count
 *   is right for the loop test's 0 to 12 items and wrong for 100 in pages of 10). Against the
 *   unsealed originals (in-process grading) the go and cargo candidates pass: the control, so the
 *   attack works; sealed (the committed pack), the expected values are not in the
 *   container: hidden_failed. The pytest control fails in-process as well: it also reads the mutant
 *   twins' perturbed copies, whose answers overwrite the real ones.
 * - the column's own cells (given by its test file): cargo's configuration loaded by itself (class
 *   d), pytest's root module shadowing the hidden test module (class c).
 *
 * The go and cargo packs are the committed, sealed ones; the pytest pack is made from the
 * py-calculator originals with `witness init --adapter pytest` and sealed with `witness seal`, as
 * cli-e2e-pytest-docker.test.ts does.
 *
 * Every candidate of a column validates with one `--baseline-cache` folder: only the candidate
 * side is under attack here, and the base side (reproduction before, base suite) is the same for
 * all of them, so it runs once per (pack, runner settings, limits) and is reused after; the first
 * candidate of each key runs it for real, and every receipt must record which it was.
 */

export interface NativeReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  runner: { settings?: string[] };
  surface: { findings: { path: string; categories: string[] }[]; removed: string[] };
  phases: { name: string; status: string; reasons: string[]; grading?: string }[];
}

export type NativeColumn = 'go' | 'cargo' | 'pytest';

interface Staged {
  sealed: StagedFixture;
  /** The pack's originals graded in-process (the controls of class e). */
  unsealed: StagedFixture;
  setupCache?: string;
  baselineCache: string;
}

/** How each column is staged, how long one validation may take, and its candidates' diffs. */
const COLUMNS: Record<NativeColumn, { timeoutMs: number; timeoutSeconds?: number; diffs: { gradingAware: string; flood: string; readTests: string } }> = {
  // The go pack's setup stage builds the test binaries once; under load it took over 300 s.
  go: { timeoutMs: 900_000, diffs: { gradingAware: 'go-grading-aware', flood: 'go-inode-flood', readTests: 'go-read-tests-at-import' } },
  cargo: { timeoutMs: 900_000, diffs: { gradingAware: 'rust-grading-aware', flood: 'rust-inode-flood', readTests: 'rust-read-tests-at-import' } },
  pytest: { timeoutMs: 300_000, timeoutSeconds: 60, diffs: { gradingAware: 'py-grading-aware', flood: 'py-inode-flood', readTests: 'py-calculator:read-tests-at-import' } }
};

/** A diff by name: fixtures/hostile/NAME.diff, or FIXTURE:NAME for a fixture's own candidate. */
function diffPath(name: string): string {
  const [fixture, candidate] = name.split(':');
  return candidate === undefined ? hostileDiff(name) : join(FIXTURES, fixture!, 'candidates', `${candidate}.diff`);
}

async function stage(column: NativeColumn, imageId: string): Promise<Staged> {
  if (column === 'pytest') {
    const plain = await pytestCalculatorPack('matrix-pytest');
    const unsealed = await unsealedPack(plain);
    return { sealed: await sealPytestCalculatorPack(plain, imageId), unsealed, baselineCache: join(plain.tmp, 'baseline-cache') };
  }
  const sealed = await stageFixture(`matrix-${column}`, packedFixture(column === 'go' ? 'go-paginate' : 'rust-textclip'));
  return {
    sealed,
    unsealed: await unsealedPack(sealed),
    baselineCache: join(sealed.tmp, 'baseline-cache'),
    ...(column === 'go' ? { setupCache: join(sealed.tmp, 'setup-cache') } : {})
  };
}

/** One candidate of the column, validated against its sealed pack (or the unsealed originals). */
export type NativeValidate = (diff: string, label: string, options?: { unsealed?: boolean; extra?: readonly string[] }) => Promise<DockerValidation<NativeReceiptView>>;

/**
 * The column's describe block: staging, the f, g and e cells, then `ownCells` (the column's own
 * cells, given its validate and per-validation time bound), then the check that the base side ran
 * for real and was reused.
 */
export function describeNativeColumn(gate: DockerGate, column: NativeColumn, ownCells?: (validate: NativeValidate, timeoutMs: number) => void): void {
  gate.describeDocker(`the hostile matrix, ${column} column`, () => {
    const { timeoutMs, timeoutSeconds, diffs } = COLUMNS[column];
    let staged: Staged | undefined;
    const baselines: { label: string; reused?: string }[] = [];

    beforeAll(async () => {
      gate.requireDocker();
      await ensureCli();
      staged = await stage(column, gate.imageId);
    }, 300_000);

    afterAll(async () => {
      if (staged !== undefined) await rm(staged.sealed.tmp, { recursive: true, force: true });
    });

    const validate: NativeValidate = async (diff, label, options = {}) => {
      const result = await validateInDocker<NativeReceiptView>(options.unsealed === true ? staged!.unsealed : staged!.sealed, {
        diff: diffPath(diff),
        label: `${column}-${label}`,
        imageId: gate.imageId,
        timeoutMs,
        baselineCache: staged!.baselineCache,
        ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
        ...(staged!.setupCache === undefined ? {} : { setupCache: staged!.setupCache }),
        ...(options.extra === undefined ? {} : { extra: options.extra })
      });
      baselines.push({ label, ...(result.reusedBaseline !== undefined ? { reused: result.reusedBaseline } : {}) });
      return result;
    };

    it(
      'f. grading-aware (keyed on the old mount path and uid): fails under the neutral defaults, passes only with the old layout',
      async () => {
        const neutral = await validate(diffs.gradingAware, 'grading-aware');
        expect([neutral.status, neutral.receipt.verdict, neutral.receipt.adapter]).toEqual([1, 'failed', column]);
        expect(neutral.receipt.phases.map((p) => p.name)).toEqual(PHASES);
        // go and cargo keep the reproduction's fix and fail hidden; py-grading-aware brings the bug back whole.
        expect(neutral.receipt.reasons).toContain(column === 'pytest' ? 'not_fixed' : 'hidden_failed');
        expect(neutral.receipt.runner.settings).toEqual(expect.arrayContaining(['user=1001:1001', 'env.CI=true']));

        const old = await validate(diffs.gradingAware, 'grading-aware-old', { extra: OLD_LAYOUT });
        expect([old.status, old.receipt.verdict, old.receipt.reasons]).toEqual([0, 'passed', []]);
      },
      2 * timeoutMs + 60_000
    );

    it(
      'g. a flood of files in every writable mount, then a hang: failed, output_limit',
      async () => {
        const { status, receipt } = await validate(diffs.flood, 'flood');
        expect([status, receipt.verdict]).toEqual([1, 'failed']);
        expect(receipt.reasons).toContain('output_limit');
        for (const name of ['reproduction_after', 'hidden']) {
          const phase = receipt.phases.find((p) => p.name === name)!;
          expect([name, phase.status, phase.reasons]).toEqual([name, 'failed', expect.arrayContaining(['output_limit'])]);
        }
        expect(receipt.runner.settings).toContain('results-files-limit=4096');
      },
      timeoutMs + 60_000
    );

    it(
      'e. hidden tests read at import, expected values special-cased: the in-process control is fooled or caught, sealed it fails',
      async () => {
        const control = await validate(diffs.readTests, 'read-tests-control', { unsealed: true });
        expect(control.receipt.phases.find((p) => p.name === 'hidden')!.grading).toBe('in_process');
        if (column !== 'pytest') {
          // go and cargo add no twins. Graded in-process, the attack works: every hidden test passes on the values it read.
          expect([control.status, control.receipt.verdict, control.receipt.reasons, control.receipt.proof_grade]).toEqual([0, 'passed', [], false]);
        } else {
          // The mutant twins are staged copies of the tests with perturbed expectations: the candidate
          // reads those too, and its answers are wrong for the real tests (as for unittest in
          // sealed-oracle.test.ts). Failed in-process as well, never proof grade.
          expect([control.status, control.receipt.verdict, control.receipt.proof_grade]).toEqual([1, 'failed', false]);
        }

        const sealed = await validate(diffs.readTests, 'read-tests-sealed');
        expect([sealed.status, sealed.receipt.verdict, sealed.receipt.proof_grade]).toEqual([1, 'failed', false]);
        expect(sealed.receipt.reasons).toContain('hidden_failed');
        const hidden = sealed.receipt.phases.find((p) => p.name === 'hidden')!;
        expect([hidden.grading, hidden.status]).toEqual(['sealed', 'failed']);
      },
      2 * timeoutMs + 60_000
    );

    ownCells?.(validate, timeoutMs);

    it('the base side ran for real, and later candidates on the same key reused it (recorded in their receipts)', () => {
      expect(baselines.some((b) => b.reused === undefined)).toBe(true);
      expect(baselines.some((b) => b.reused !== undefined)).toBe(true);
    });
  });
}
