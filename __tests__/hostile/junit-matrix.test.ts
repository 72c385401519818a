import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli } from '../helpers/cli.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate, hostileDiff, PHASES } from './hostile-support.js';

/**
 * The hostile column of the generic junit adapter: junit-semver (node --test writing JUnit XML,
 * graded through the pack's own argv), end to end in Docker through the bundled CLI, with the
 * committed (sealed) pack: its reproduction and hidden tests are graded by observation, the
 * repository's suite by the JUnit XML.
 *
 * - `junit-rewrite-at-exit`: the correct fix plus a regression (`latest([])` no longer throws),
 *   and in every test process a detached rewriter that deletes the regression's `<failure>` from
 *   the XML once node has written it. Without the results channel it passes: the XML the host
 *   read held no failure (checked against the CLI built before the channel, see the commit). With
 *   it, the rewriter outlived its test file's process, which the wrapper reports:
 *   `grader_compromised`, and the base runs agree.
 * - `junit-inode-flood`: 100,000 empty files in every writable mount, then a hang: `output_limit`.
 * - `junit-grading-aware`: the fix applies only under the old layout (`/patchproof/…`, uid 65534):
 *   failed under the new defaults, passed with the old layout (the control).
 *
 * - `junit-spare-canary-throws`: the correct fix plus the same regression, and `assert.throws`
 *   disarmed in every process but the pack's canary file's (node --test gives each file a process).
 *   No mutant twin perturbs a `throws`, and an exact twin passes with its original, so without the
 *   canaries inside each test file (junit-file-canaries.ts) it passes (checked against the CLI
 *   built before them, see the commit); with them, the suite file's own must-fail canary passes:
 *   `grader_compromised` in the regression phase.
 *
 * - `junit-spare-canary-order`: the correct fix plus a regression (`parse('1.2')` no longer throws),
 *   and `assert.throws` disarmed except when called from one of the last two tests declared in its
 *   file (by source line), where the in-file canaries used to be appended; the pack's canary file
 *   holds only two tests. Against the CLI built before the canaries moved it **passed** (seen: the
 *   first run of this test, `verdict: passed`); now the canaries sit between the file's tests,
 *   two before and two after, so the must-fail one is disarmed and passes: `grader_compromised`.
 * - `junit-read-hidden-at-import`: the wrong (padding) fix plus code that reads every staged file
 *   under .patchproof/ at import and answers the value each assertion expects for the very call it
 *   names. Against the pack's unsealed originals with plain `node --test` on the host it passes all
 *   15 tests (the wrong fix alone fails 2); sealed, the staged files name no expected value:
 *   `hidden_failed`, no hidden run matched in full.
 *
 * Sabotage of every assertion that spares the pack's canary process (`spare-canary-process.diff`)
 * is in canary-twins.test.ts (the mutant twins catch that one too).
 */

const gate = await dockerGate('hostile junit tests');

const OLD_LAYOUT = ['--container-workdir', '/patchproof/repo', '--container-results', '/patchproof/results', '--container-user', '65534:65534'];

interface RunView {
  label: string;
  oracle?: { cases: number; observed: number; matched: number };
  canary?: { pass: string; fail: string; twins?: { kind: string; status: string; original: string }[] };
  channel?: { frames: number; disagreements: string[]; after_end_bytes: number };
}

interface ReceiptView {
  verdict: string;
  reasons: string[];
  adapter: string;
  phases: { name: string; status: string; reasons: string[]; grading?: string; runs: RunView[] }[];
}

gate.describeDocker('the junit adapter against hostile candidates (junit-semver, sealed pack)', () => {
  let fixture: StagedFixture | undefined;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    fixture = await stageFixture('junit-hostile', { repo: join(ROOT, 'fixtures', 'junit-semver', 'repo'), pack: join(ROOT, 'witness-packs', 'junit-semver') });
  }, 180_000);

  afterAll(async () => {
    if (fixture !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  const validate = (diff: string, label: string, extra: readonly string[] = [], timeoutSeconds = 60) =>
    validateInDocker<ReceiptView>(fixture!, { diff: hostileDiff(diff), label, imageId: gate.imageId, timeoutSeconds, timeoutMs: 600_000, extra });

  it('results rewritten after node wrote them, by a detached process: failed, grader_compromised; the base runs agree', async () => {
    const { receipt } = await validate('junit-rewrite-at-exit', 'junit-rewrite');
    expect(receipt.adapter).toBe('junit');
    expect(receipt.verdict).toBe('failed');
    expect(receipt.reasons).toContain('grader_compromised');
    const runs = receipt.phases.flatMap((p) => p.runs);
    const base = runs.filter((r) => r.label.endsWith('_before'));
    expect(base.length).toBeGreaterThan(0);
    for (const run of base) expect([run.label, run.channel?.disagreements]).toEqual([run.label, []]);
    // Every patched run's test processes left a rewriter behind: every one is reported.
    const patched = runs.filter((r) => !r.label.endsWith('_before'));
    expect(patched.length).toBeGreaterThan(0);
    for (const run of patched) {
      expect([run.label, run.channel?.disagreements.some((d) => /outlived their parent/.test(d))]).toEqual([run.label, true]);
    }
    expect(receipt.phases.find((p) => p.name === 'regression')!.reasons).toContain('grader_compromised');
  }, 600_000);

  // The pack's own per-run limit (120 s) for the order cell: at load average 40 one base run hit 60 s.
  it.each([
    ["sabotage that spares the pack canaries' process: the canaries inside the suite file catch it, grader_compromised", 'junit-spare-canary-throws', 60],
    ['sabotage that spares the last two tests declared in each file (where the in-file canaries used to be appended): grader_compromised', 'junit-spare-canary-order', 120]
  ])(
    '%s',
    async (_title, diff, timeoutSeconds) => {
      const { receipt } = await validate(diff, diff.replace('canary-', ''), [], timeoutSeconds);
      expect(receipt.verdict).toBe('failed');
      expect(receipt.reasons).toContain('grader_compromised');
      const regression = receipt.phases.find((p) => p.name === 'regression')!;
      expect(regression.reasons).toContain('grader_compromised');
      for (const run of regression.runs.filter((r) => r.label === 'regression_after')) {
        expect([run.label, run.canary?.pass, run.canary?.fail]).toEqual([run.label, 'passed', 'failed']);
        expect((run.canary?.twins ?? []).some((t) => t.kind === 'mutant' && t.status === 'passed' && t.original === 'passed')).toBe(true);
      }
    },
    900_000
  );

  it('hidden tests read at import, expected values special-cased: sealed, the hidden cases fail (hidden_failed)', async () => {
    const { receipt } = await validate('junit-read-hidden-at-import', 'junit-read-hidden', [], 120);
    expect(receipt.verdict).toBe('failed');
    expect(receipt.reasons).toContain('hidden_failed');
    const hidden = receipt.phases.find((p) => p.name === 'hidden')!;
    expect([hidden.grading, hidden.status]).toEqual(['sealed', 'failed']);
    expect(hidden.runs.length).toBeGreaterThan(0);
    for (const run of hidden.runs) expect(run.oracle !== undefined && run.oracle.observed > 0 && run.oracle.matched < run.oracle.cases).toBe(true);
  }, 900_000);

  it('a flood of files in the results mount: failed, output_limit', async () => {
    const { receipt } = await validate('junit-inode-flood', 'junit-flood', [], 20);
    expect(receipt.verdict).toBe('failed');
    expect(receipt.reasons).toContain('output_limit');
    expect(receipt.phases.map((p) => p.name)).toEqual(PHASES);
    for (const name of ['reproduction_after', 'hidden']) {
      const phase = receipt.phases.find((p) => p.name === name)!;
      expect([name, phase.status, phase.reasons.includes('output_limit')]).toEqual([name, 'failed', true]);
    }
  }, 600_000);

  it('grading-aware: keyed on the old mount path and uid, it fails under the new defaults and passes only with the old layout', async () => {
    const neutral = await validate('junit-grading-aware', 'junit-aware');
    expect(neutral.receipt.verdict).toBe('failed');
    expect(neutral.receipt.phases.find((p) => p.name === 'reproduction_after')!.status).toBe('failed');
    const old = await validate('junit-grading-aware', 'junit-aware-old', OLD_LAYOUT);
    expect(old.receipt.verdict).toBe('passed');
  }, 600_000);
});
