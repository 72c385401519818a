import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ROOT, ensureCli, readJson, runCli, type CliResult } from '../helpers/cli.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { mayBeUnset } from '../helpers/lifecycle.js';
import { HOSTILE, dockerGate } from './hostile-support.js';

/**
 * `patchproof screen` against two candidates whose changed file is the same after comments and
 * layout are taken out (issue 26, item 7), end to end in the Docker runner through the bundled CLI.
 *
 * Both replace js-duration's token pattern by one built from a comment: `unitPattern()` reads its
 * own source (`String(unitPattern)`, i.e. Function.prototype.toString) and takes the units from
 * the comment `// units, in the order tried: …`. `reads-comment-fix` lists `ms d h m s` (the fix);
 * `reads-comment-keeps-bug` lists `d h m s ms`, so "250ms" is still read as 250 minutes. Their
 * normalised keys (src/core/normalise.ts) are equal, so on main at 97f676d the second (by name)
 * shared the first's runs: `duplicate_of: reads-comment-fix`, passed, proof grade, though validated
 * alone it fails `not_fixed`. Code can read its own comments: two files that differ only there are
 * not interchangeable. What must hold once runs are shared only between byte-identical changes:
 * each is validated on its own, and the one that keeps the bug does not pass.
 */

const gate = await dockerGate('screen: candidates that read their own comments');

const CANDIDATES = join(HOSTILE, 'screen-reads-comment');
const FIX = 'reads-comment-fix';
const KEEPS_BUG = 'reads-comment-keeps-bug';

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  phases: { name: string; status: string }[];
  gates?: { shared_runs?: unknown };
}

interface ScreeningView {
  candidates: { name: string; verdict: string; duplicate_of?: string }[];
}

gate.describeDocker('screen: two candidates equal but for a comment their code reads back', () => {
  let fixture: StagedFixture;
  let screen: CliResult;
  let verified: CliResult;
  let screening: ScreeningView;
  const receipts = new Map<string, ReceiptView>();

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    fixture = await stageFixture('screen-comment', { repo: join(ROOT, 'fixtures', 'js-duration', 'repo'), pack: join(ROOT, 'witness-packs', 'js-duration') });
    const approvals: string[] = [];
    for (const name of [FIX, KEEPS_BUG]) {
      const proposal = join(fixture.tmp, `${name}.proposal.json`);
      const proposed = await runCli(['propose', '--repo', fixture.repo, '--diff', join(CANDIDATES, `${name}.diff`), '--out', proposal], { tmp: fixture.tmp });
      expect([proposed.status, proposed.stderr]).toEqual([0, '']);
      approvals.push('--approve', (await readJson<{ proposal_hash: string }>(proposal)).proposal_hash);
    }
    const out = join(fixture.tmp, 'out');
    screen = await runCli(
      [
        'screen',
        '--repo',
        fixture.repo,
        '--witness',
        fixture.pack,
        '--witness-digest',
        fixture.digest,
        '--candidates',
        CANDIDATES,
        '--approved-by',
        'hostile-test',
        ...approvals,
        '--runner',
        'docker',
        '--image',
        gate.imageId,
        '--timeout',
        '60',
        '--out',
        out
      ],
      { tmp: fixture.tmp, timeoutMs: 600_000 }
    );
    verified = await runCli(['verify-receipt', join(out, 'screening.json')], { tmp: fixture.tmp });
    screening = await readJson<ScreeningView>(join(out, 'screening.json'));
    for (const name of [FIX, KEEPS_BUG]) receipts.set(name, await readJson<ReceiptView>(join(out, 'candidates', name, 'receipt.json')));
  }, 900_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  it('the control: validated alone, the copy that keeps the bug fails (not_fixed)', async () => {
    const { status, receipt } = await validateInDocker<ReceiptView>(fixture, {
      diff: join(CANDIDATES, `${KEEPS_BUG}.diff`),
      label: 'keeps-bug-alone',
      imageId: gate.imageId,
      timeoutSeconds: 60,
      timeoutMs: 300_000
    });
    expect([status, receipt.verdict, receipt.proof_grade]).toEqual([1, 'failed', false]);
    expect(receipt.reasons).toContain('not_fixed');
    expect(receipt.phases.find((p) => p.name === 'reproduction_after')?.status).toBe('failed');
  }, 360_000);

  it('screened together: each is validated on its own (no duplicate_of, no shared runs), and the copy that keeps the bug does not pass', () => {
    // Exit 0 or 1 (a candidate passed or none did; the fix's own verdict is the tamper screen's
    // business, not this test's), never 3: every receipt and the screening verify.
    expect([[0, 1].includes(screen.status ?? -1), verified.status, screen.stderr.slice(-1500)]).toEqual([true, 0, screen.stderr.slice(-1500)]);
    expect(screening.candidates.map((c) => [c.name, c.duplicate_of])).toEqual([
      [FIX, undefined],
      [KEEPS_BUG, undefined]
    ]);
    for (const name of [FIX, KEEPS_BUG]) expect([name, receipts.get(name)!.gates?.shared_runs]).toEqual([name, undefined]);
    const keepsBug = receipts.get(KEEPS_BUG)!;
    expect([keepsBug.verdict, keepsBug.proof_grade]).toEqual(['failed', false]);
    expect(keepsBug.reasons).toContain('not_fixed');
    // Its own runs, not the fix's: the reproduction after the patch failed in them.
    expect(keepsBug.phases.find((p) => p.name === 'reproduction_after')?.status).toBe('failed');
  });
});
