import { rm } from 'node:fs/promises';
import { ensureCli } from '../helpers/cli.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { PHASES, dockerGate, hostileDiff, packedFixture } from './hostile-support.js';

/**
 * cargo unit tests live in the code's own file (rust-textclip's `#[cfg(test)] mod tests` in
 * src/lib.rs), which no path glob puts on the test surface. The hostile candidate
 * `rust-rewrite-unit-test` is the real fix plus a regression that only a unit test covers
 * (`clip("tea", 0)` becomes "…" instead of ""), with that unit test's assertion rewritten to match.
 * Every phase passes: the regression phase runs the rewritten test, the hidden tests never ask for
 * zero columns. Without the item-by-item comparison (src/adapters/cargo/unit-tests.ts) it is
 * `passed` with proof grade (measured with the bundle before the change); with it, the file is a
 * `test` finding, not reset (that would undo the fix), and the candidate fails `grader_tampered`.
 *
 * The control, `rust-zero-columns-regression`: the same code without the rewritten assertion is a
 * `regression`, so the assertion is what the rewrite hides.
 */

const gate = await dockerGate('cargo unit tests in src/');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  surface: { findings: { path: string; change: string; categories: string[]; skip_markers: unknown[] }[]; restored: string[]; removed: string[]; reasons: string[] };
  phases: { name: string; status: string; reasons: string[] }[];
}

// cargo builds the crate in every run; under load a validation has taken minutes.
const TIMEOUT_MS = 900_000;

gate.describeDocker('cargo unit tests in src/ (rust-textclip)', () => {
  let staged: StagedFixture | undefined;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    staged = await stageFixture('cargo-unit-tests', packedFixture('rust-textclip'));
  }, 300_000);

  afterAll(async () => {
    if (staged !== undefined) await rm(staged.tmp, { recursive: true, force: true });
  });

  const validate = (name: string) => validateInDocker<ReceiptView>(staged!, { diff: hostileDiff(name), label: name, imageId: gate.imageId, timeoutMs: TIMEOUT_MS });

  it(
    'a rewritten unit-test assertion hiding a regression: every phase passes, the finding fails it (grader_tampered), src/lib.rs not reset',
    async () => {
      const { status, receipt, stderr } = await validate('rust-rewrite-unit-test');
      expect(receipt.phases.map((p) => [p.name, p.status])).toEqual(PHASES.map((name) => [name, 'passed']));
      expect(receipt.surface.findings).toEqual([{ path: 'src/lib.rs', change: 'modify', categories: ['test'], skip_markers: [] }]);
      expect([receipt.surface.restored, receipt.surface.removed]).toEqual([[], []]);
      expect([status, receipt.verdict, receipt.reasons, receipt.proof_grade]).toEqual([1, 'failed', ['grader_tampered'], false]);
      expect(stderr).toContain('tests::zero_columns_hold_nothing');
    },
    TIMEOUT_MS + 60_000
  );

  it(
    'the control: the same code with the unit test left as it is, a regression',
    async () => {
      const { status, receipt } = await validate('rust-zero-columns-regression');
      expect(receipt.surface.findings).toEqual([]);
      expect([status, receipt.verdict, receipt.reasons]).toEqual([1, 'failed', expect.arrayContaining(['regression'])]);
      expect(receipt.phases.find((p) => p.name === 'hidden')?.status).toBe('passed');
    },
    TIMEOUT_MS + 60_000
  );
});
