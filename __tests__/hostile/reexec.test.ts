import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate, ensureCli, hostileDiff, packedFixture } from './hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * Compiled test binaries that re-execute themselves, or leave tests out, end to end in Docker
 * through the bundled CLI (src/adapters/shared/supervisor.ts, go-supervision.ts). Each candidate is a
 * wrong fix (the fixture's own `wrong-fix.diff`, which fails hidden tests) plus the attack:
 *
 * - `go-reexec-relay.diff` (go-paginate): `init()` re-executes the test binary and relays its
 *   output with every failure but the canaries' turned into a pass (exit code kept, so the
 *   must-fail canary still fails and the run exits 1 like an honest one).
 * - `rust-reexec-relay.diff` (rust-textclip): the same from an `.init_array` constructor of the
 *   library, rewriting libtest's JSON events and the suite's tallies.
 * - `go-reexec-relay-order.diff`, `go-reexec-relay-file.diff`, `rust-reexec-relay-order.diff`: the
 *   same relays with selectors that match no name: the first two tests of the run (go runs the
 *   canary file, which sorts first, first; libtest starts tests in name order, and the canaries'
 *   `c…` sorts before the staged modules' `f…`), or the tests declared in the package's test file
 *   that sorts first (go). The supervisor's kill does not look at the selector.
 * - `go-skip-from-init.diff` (go-paginate): `init()` sets `-test.skip` through `flag.Set`, so the
 *   hidden tests the wrong fix fails never run and vanish from the results (the pack pins no ids).
 *
 * Without the defences each of them passed: measured with the CLI built from the tree before this
 * change (main at 0cc229c), `validate` gave `verdict: passed`, reasons [] for all three (the packs
 * are not sealed, so `proof_grade: false`). Now the relays are killed by the supervisor's filter
 * on their first fork (grader_compromised), and the skipped hidden tests count as failed.
 */

const gate = await dockerGate('hostile re-executing test binaries');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  adapter: string;
  phases: {
    name: string;
    status: string;
    reasons: string[];
    results: { id: string; status: string; message?: string }[];
    runs: { label: string; channel?: { disagreements: string[] } }[];
  }[];
}

const phase = (receipt: ReceiptView, name: string): ReceiptView['phases'][number] => receipt.phases.find((p) => p.name === name)!;
const disagreements = (receipt: ReceiptView, label: string): string[] =>
  receipt.phases
    .flatMap((p) => p.runs)
    .filter((r) => r.label.startsWith(label))
    .flatMap((r) => r.channel?.disagreements ?? []);

gate.describeDocker.each([
  // go: the first validation of the file also runs the dependency stage; under load (average 30-45) a cell took over 600 s.
  { name: 'go-paginate' as const, timeoutMs: 900_000 },
  { name: 'rust-textclip' as const, timeoutMs: 900_000 }
])('re-executing test binaries, $name', ({ name, timeoutMs }) => {
  let fixture: StagedFixture;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    // The supervision guards in-process grading: the sealed packs' originals (sealed-generic.test.ts has the sealed side).
    fixture = await stageFixture(`reexec-${name}`, { ...packedFixture(name), unsealed: true });
  }, 180_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  const validate = (diff: string) =>
    validateInDocker<ReceiptView>(fixture, { diff, label: `reexec-${diff.replace(/.*\//, '')}`, imageId: gate.imageId, timeoutMs, setupCache: join(fixture.tmp, 'setup-cache') });

  const relays =
    name === 'go-paginate'
      ? [
          { selector: 'by name', diff: 'go-reexec-relay' },
          { selector: 'by order (the first two tests of the run)', diff: 'go-reexec-relay-order' },
          { selector: 'by file (the package test file that sorts first)', diff: 'go-reexec-relay-file' }
        ]
      : [
          { selector: 'by name', diff: 'rust-reexec-relay' },
          { selector: 'by order (the first two tests each binary starts)', diff: 'rust-reexec-relay-order' }
        ];

  it.each(relays)(
    'a binary that re-executes itself and relays its output with failures turned into passes, sparing the canaries $selector: failed, grader_compromised',
    async ({ diff }) => {
      const { status, receipt } = await validate(hostileDiff(diff));
      expect(receipt.verdict).toBe('failed');
      expect(status).toBe(1);
      expect(receipt.reasons).toContain('grader_compromised');
      for (const patched of ['reproduction_after', 'hidden']) {
        expect([patched, phase(receipt, patched).reasons]).toEqual([patched, expect.arrayContaining(['grader_compromised'])]);
        expect(disagreements(receipt, patched)).toEqual(expect.arrayContaining([expect.stringMatching(/tried to start a second process/)]));
      }
      // The base tree's binaries never try: their runs carry no finding, and they are graded as usual.
      expect(disagreements(receipt, 'reproduction_before')).toEqual([]);
      expect(phase(receipt, 'reproduction_before').status).toBe('passed');
    },
    timeoutMs + 30_000
  );

  if (name === 'go-paginate') {
    it(
      '-test.skip set from init() so that failing hidden tests never run: they count as failed (hidden_failed)',
      async () => {
        const { status, receipt } = await validate(hostileDiff('go-skip-from-init'));
        expect({ verdict: receipt.verdict, reasons: receipt.reasons, status }).toEqual({ verdict: 'failed', reasons: ['hidden_failed'], status: 1 });
        const hidden = phase(receipt, 'hidden');
        expect(hidden.status).toBe('failed');
        const neverRan = hidden.results.filter((r) => r.status === 'failed');
        expect(neverRan).toHaveLength(2);
        // The regression suite is untouched by this skip; a regression test left out would be tests_removed.
        expect(phase(receipt, 'regression').status).toBe('passed');
      },
      timeoutMs + 30_000
    );
  }
});
