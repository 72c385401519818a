import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ROOT, ensureCli } from '../helpers/cli.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { OLD_LAYOUT, expectSparedCanariesCaught, hostileDiff, type DockerGate } from './hostile-support.js';

/**
 * The hostile matrix's JS columns (issue 11, "Tests"; the table is in docs/security.md): attack
 * classes that had no end-to-end test on jest (jest-money), vitest (vitest-chunk) or node:test
 * (js-duration), each a hostile candidate validated by the bundled CLI in the Docker runner
 * against the fixture's committed, sealed witness pack (so the reproduction and hidden phases
 * grade observations outside the process, and the regression suite runs in-process with twins).
 *
 * - a. sabotage sparing the canaries by position (jest, vitest: assertions honest only for tests at
 *   the root of a file, where the wrapper registers its canaries) and by file (node:test: honest
 *   only when called from the generated entry file the canaries live in) and by order (node:test:
 *   failures swallowed in every test but those that start after the imported files' own tests,
 *   which are the canaries; through AsyncResource.prototype.runInAsyncScope). Caught by the mutant
 *   twins of the in-process regression suite, which sit inside the files' describe blocks:
 *   `grader_compromised`, though the fixed canaries behaved.
 * - d. configuration the runner discovers by itself: a `jest.config.js` or a `"jest"` key in
 *   package.json added by the candidate, a `setupFiles` entry added to vitest.config.ts, each
 *   loading a setup file that makes assertions lenient. Configuration is test surface: reset to
 *   the base, `grader_tampered`; the overfit fix then fails the hidden tests.
 * - e. the hidden tests read at import: the code under test reads every staged file under
 *   .patchproof/ and answers the expected values its assertions name. Against the unsealed
 *   originals the same candidates pass those tests (checked by hand, see docs/security.md); sealed,
 *   the staged files hold no expected values: the hidden cases fail.
 * - f. grading-aware: the real fix only under the old fixed layout (/patchproof/…, uid 65534).
 *   Failed under the neutral defaults; passed with the old layout given back (the control).
 * - g. a flood of files: 100,000 empty files in every writable bind mount at import, then a hang:
 *   `output_limit`.
 *
 * One test file per row (matrix-js-jest, -vitest, -node-test), so that Jest's workers share the
 * rows out. One staged fixture, one setup cache and one baseline cache per row: the candidates of a
 * row share the dependency stage's output (npm ci), which is what makes the jest and vitest rows
 * affordable, and the base side (reproduction before, base suite with its twins), which is the
 * same for all of them since only the candidate side is under attack: it runs once per (runner
 * settings, limits) and is reused after; the first candidate of each key runs it for real, and
 * every receipt must record which it was.
 */

interface Twin {
  kind: 'twin' | 'mutant';
  status: string;
  original: string;
}

interface RunView {
  label: string;
  canary: { pass: string; fail: string; changed?: string[]; twins?: Twin[] };
  oracle?: { cases: number; observed: number; matched: number };
}

export interface JsReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  phases: { name: string; status: string; reasons: string[]; grading?: string; runs: RunView[] }[];
  surface: { findings: { path: string; change: string; categories: string[] }[]; restored: string[]; removed: string[] };
}

/** A row of the JS matrix: its adapter. */
export type JsAdapter = 'jest' | 'vitest' | 'node-test';
export type JsFixture = 'jest-money' | 'vitest-chunk' | 'js-duration';

/** What one attack must come to. */
export type Expect = { kind: 'compromised' } | { kind: 'tampered'; path: string; change: 'add' | 'modify' } | { kind: 'sealed' } | { kind: 'neutral' } | { kind: 'flood' };

export interface Cell {
  /** The attack class of the matrix (a–g). */
  cls: string;
  diff: string;
  expect: Expect;
  /** `--timeout` per test run (default: the pack's own limit). */
  timeoutSeconds?: number;
}

const phase = (receipt: JsReceiptView, name: string): JsReceiptView['phases'][number] => receipt.phases.find((p) => p.name === name)!;
const runsOf = (receipt: JsReceiptView): RunView[] => receipt.phases.flatMap((p) => p.runs);

function expectCompromised(receipt: JsReceiptView): void {
  expect(receipt.verdict).toBe('failed');
  expect(receipt.proof_grade).toBe(false);
  expect(receipt.reasons).toContain('grader_compromised');
  // The sabotage spares the fixed canaries, so they behave in every patched in-process run; only
  // the mutant twins (inside describe blocks / other files) give it away.
  const patched = runsOf(receipt).filter((r) => r.label === 'regression_after');
  expect(patched.length).toBeGreaterThan(0);
  for (const run of patched) {
    expectSparedCanariesCaught(run);
  }
}

function expectTampered(receipt: JsReceiptView, path: string, change: string): void {
  expect(receipt.surface.findings).toContainEqual(expect.objectContaining({ path, change, categories: expect.arrayContaining(['config']) }));
  expect([...receipt.surface.restored, ...receipt.surface.removed]).toContain(path);
  expect(receipt.verdict).toBe('failed');
  expect(receipt.reasons).toContain('grader_tampered');
  // The base's configuration ran, not the candidate's: nothing was made lenient, the overfit fails.
  expect(receipt.reasons).not.toContain('grader_compromised');
  expect(phase(receipt, 'hidden').status).toBe('failed');
}

function expectSealedFailure(receipt: JsReceiptView): void {
  expect(receipt.verdict).toBe('failed');
  expect(receipt.proof_grade).toBe(false);
  expect(receipt.reasons).toContain('hidden_failed');
  const hidden = phase(receipt, 'hidden');
  expect([hidden.grading, hidden.status]).toEqual(['sealed', 'failed']);
  // The staged files named no expected value to read: the hidden cases are what the overfit makes of them.
  expect(hidden.runs.length).toBeGreaterThan(0);
  for (const run of hidden.runs) expect(run.oracle !== undefined && run.oracle.observed > 0 && run.oracle.matched < run.oracle.cases).toBe(true);
}

function expectFlood(receipt: JsReceiptView): void {
  expect(receipt.verdict).toBe('failed');
  expect(receipt.reasons).toContain('output_limit');
  for (const name of ['reproduction_after', 'hidden']) {
    expect([name, phase(receipt, name).status, phase(receipt, name).reasons.includes('output_limit')]).toEqual([name, 'failed', true]);
  }
}

/** The row's describe block: its cells, then the check that the base side ran for real and was reused. */
export function describeJsRow(gate: DockerGate, row: { adapter: JsAdapter; fixture: JsFixture; cells: readonly Cell[] }): void {
  const { adapter, fixture: name, cells } = row;
  gate.describeDocker(`hostile matrix, ${adapter} (${name}), in the Docker runner`, () => {
    let fixture: StagedFixture | undefined;
    const baselines: { label: string; reused?: string }[] = [];

    beforeAll(async () => {
      gate.requireDocker();
      await ensureCli();
      fixture = await stageFixture(`matrix-${adapter}`, { repo: join(ROOT, 'fixtures', name, 'repo'), pack: join(ROOT, 'witness-packs', name) });
    }, 180_000);

    afterAll(async () => {
      if (fixture !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
    });

    async function validate(cell: Cell, label: string, extra?: readonly string[]): Promise<{ status: number | null; receipt: JsReceiptView }> {
      const result = await validateInDocker<JsReceiptView>(fixture!, {
        diff: hostileDiff(cell.diff),
        label,
        imageId: gate.imageId,
        timeoutMs: 900_000,
        ...(cell.timeoutSeconds !== undefined ? { timeoutSeconds: cell.timeoutSeconds } : {}),
        baselineCache: join(fixture!.tmp, 'baseline-cache'),
        ...(adapter === 'node-test' ? {} : { setupCache: join(fixture!.tmp, 'setup-cache') }),
        ...(extra !== undefined ? { extra } : {})
      });
      baselines.push({ label, ...(result.reusedBaseline !== undefined ? { reused: result.reusedBaseline } : {}) });
      return result;
    }

    it.each(cells)(
      '$cls: $diff',
      async (cell) => {
        const { status, receipt } = await validate(cell, `${cell.diff}-neutral`);
        expect(receipt.adapter).toBe(adapter);
        expect(status).toBe(1);
        switch (cell.expect.kind) {
          case 'compromised':
            expectCompromised(receipt);
            return;
          case 'tampered':
            expectTampered(receipt, cell.expect.path, cell.expect.change);
            return;
          case 'sealed':
            expectSealedFailure(receipt);
            return;
          case 'flood':
            expectFlood(receipt);
            return;
          case 'neutral': {
            expect(receipt.verdict).toBe('failed');
            expect(phase(receipt, 'reproduction_after').status).toBe('failed');
            // The control: given the old layout back, the same candidate is the real fix and passes.
            const old = await validate(cell, `${cell.diff}-old-layout`, OLD_LAYOUT);
            expect([old.receipt.verdict, old.receipt.reasons]).toEqual(['passed', []]);
            return undefined;
          }
        }
      },
      1_800_000
    );

    it('the base side ran for real, and later candidates on the same key reused it (recorded in their receipts)', () => {
      expect(baselines.some((b) => b.reused === undefined)).toBe(true);
      expect(baselines.some((b) => b.reused !== undefined)).toBe(true);
    });
  });
}
