import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, proposeAndApprove, readJson, runCli } from '../helpers/cli.js';
import { stageFixture, stagedFixtureHooks, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';

/**
 * `validate --shard K/N` and `patchproof merge` of its receipts (issue 14, item 8), end to end through
 * the bundled CLI in the Docker runner on fixtures/js-duration (three suite files; N = 2 cuts them
 * {duration, timeouts} and {format}). The fix's two shards merge into a passing receipt that
 * verify-receipt accepts; the regressing candidate's regression is in shard 1's files, so its shard 2
 * passes alone: merging that passing shard alone, or with the fix's shard 1 (another proposal), is
 * refused, and its own two shards merge into a failed receipt.
 */

const gate = await dockerGate('validate --shard end-to-end test');

interface ReceiptView {
  verdict: string;
  reasons: string[];
  inventory: { suite_files: { base: string[]; patched: string[] } };
  shard: { index: number; count: number; suite_files: { base: string[] } };
  phases: { name: string; status: string }[];
}

gate.describeDocker('validate --shard K/N and merge', () => {
  const hooks = stagedFixtureHooks(() => gate.requireDocker());
  let fixture: StagedFixture;

  /** Both shards of one candidate, with one proposal and one approval. */
  async function shards(candidate: string): Promise<{ paths: string[]; receipts: ReceiptView[]; statuses: (number | null)[] }> {
    const work = join(fixture.tmp, candidate);
    await mkdir(work, { recursive: true });
    const diff = join(ROOT, 'fixtures', 'js-duration', 'candidates', `${candidate}.diff`);
    const approved = await proposeAndApprove(fixture.repo, diff, work, fixture.tmp, candidate);
    const paths: string[] = [];
    const statuses: (number | null)[] = [];
    for (const k of [1, 2]) {
      const shard = await validateInDocker<ReceiptView>(fixture, {
        diff,
        label: candidate,
        approved,
        outName: `shard-${k}`,
        imageId: gate.imageId,
        timeoutSeconds: 180,
        timeoutMs: 600_000,
        extra: ['--shard', `${k}/2`]
      });
      expect([shard.stderr.includes(`shard ${k}/2:`), shard.stderr.slice(-1500)]).toEqual([true, shard.stderr.slice(-1500)]);
      statuses.push(shard.status);
      paths.push(join(shard.out, 'receipt.json'));
    }
    return { paths, receipts: await Promise.all(paths.map((p) => readJson<ReceiptView>(p))), statuses };
  }

  it("merges the fix's shards into a verified pass, and refuses a partial or mixed merge of a regressing candidate", async () => {
    fixture = hooks.track(await stageFixture('validate-shard', { repo: join(ROOT, 'fixtures', 'js-duration', 'repo'), pack: join(ROOT, 'witness-packs', 'js-duration') }));
    const fix = await shards('fix');
    expect(fix.statuses).toEqual([0, 0]);
    expect(fix.receipts.map((r) => r.inventory.suite_files.base)).toEqual([['test/duration.test.js', 'test/timeouts.test.js'], ['test/format.test.js']]);
    for (const r of fix.receipts) expect(r.shard.suite_files.base).toEqual(['test/duration.test.js', 'test/format.test.js', 'test/timeouts.test.js']);
    for (const path of fix.paths) expect((await runCli(['verify-receipt', path], { tmp: fixture.tmp })).status).toBe(0);

    const merged = join(fixture.tmp, 'merged-fix');
    const merge = await runCli(['merge', '--out', merged, fix.paths[1]!, fix.paths[0]!], { tmp: fixture.tmp });
    expect([merge.status, merge.stdout]).toEqual([0, 'merged 2 shards: passed (proof grade)\n']);
    const verified = await runCli(['verify-receipt', join(merged, 'merged.json')], { tmp: fixture.tmp });
    expect([verified.status, JSON.parse(verified.stdout)]).toEqual([0, expect.objectContaining({ integrity_valid: true, kind: 'merged', verdict: 'passed', proof_grade: true })]);
    expect(await readFile(join(merged, 'shards', '1', 'receipt.json'), 'utf8')).toBe(await readFile(fix.paths[0]!, 'utf8'));

    // The regressing candidate: its regression is in shard 1's files; shard 2 alone passes.
    const regressing = await shards('regressing');
    expect(regressing.receipts.map((r) => r.verdict)).toEqual(['failed', 'passed']);
    expect(regressing.receipts[0]!.reasons).toContain('regression');
    // The attack: show only the passing shard, or pass it off with another candidate's passing shard 1.
    const alone = await runCli(['merge', '--out', join(fixture.tmp, 'alone'), regressing.paths[1]!], { tmp: fixture.tmp });
    expect([alone.status, alone.stderr]).toEqual([2, expect.stringContaining('shard 1/2 is missing')]);
    const mixed = await runCli(['merge', '--out', join(fixture.tmp, 'mixed'), fix.paths[0]!, regressing.paths[1]!], { tmp: fixture.tmp });
    expect([mixed.status, mixed.stderr]).toEqual([2, expect.stringContaining('another proposal, approval, base, patched tree or pack (bindings)')]);
    const honest = await runCli(['merge', '--out', join(fixture.tmp, 'merged-regressing'), ...regressing.paths], { tmp: fixture.tmp });
    expect([honest.status, honest.stdout]).toEqual([1, 'merged 2 shards: failed [regression]\n']);
  }, 1_500_000);
});
