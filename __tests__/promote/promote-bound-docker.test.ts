import { readFileSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli, proposeAndApprove, readJson, tempDir, treeListing } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { checkDiff } from '../../src/core/diff-policy.js';
import { applyFileChanges } from '../../src/core/patch-apply.js';
import { mergedBody, mergedDigest, serializeMerged, type Merged } from '../../src/core/merged.js';
import { rankCandidates, rankKeyOf, sealScreening, serializeScreening, verifyScreeningText, type Screening } from '../../src/core/screening.js';
import type { Receipt } from '../../src/core/receipt-schema.js';

/**
 * `patchproof promote` of a screening receipt and of a merged receipt of suite shards (issue 14),
 * end to end from the sources in the Docker runner on fixtures/js-duration: screen writes the
 * candidates' receipts and the screening into the receipt store; validate --shard writes each shard.
 * Promote takes the candidate ranked first (or the one named) and the merged pass, and refuses the
 * attacks: a re-sealed screening with another ranking, a re-sealed screening whose first candidate's
 * bound receipt is another verifying receipt of this store, a screening with a candidate left out, a
 * merged receipt missing a shard, and a passing shard receipt on its own (of a candidate whose
 * regression sits in the other shard).
 */

const gate = await dockerGate('promote of screening and merged receipts');

const CANDIDATES = { fix: 'candidates/fix.diff', 'fix-comments': 'screen-candidates/fix-comments.diff', 'not-fixed': 'candidates/not-fixed.diff' } as const;

gate.describeDocker('promote a screening or merged receipt', () => {
  let tmp = '';
  let repo: string;
  let pack: string;
  let digest: string;
  let store: string;
  let out: string;
  let screening: Screening;
  let screenExit: number | null;
  let screenErr: string;
  let copies = 0;
  const cache = (): string => join(tmp, 'baseline-cache');

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    tmp = await tempDir('promote-bound');
    repo = join(tmp, 'repo');
    pack = join(tmp, 'pack');
    store = join(tmp, 'store');
    await cp(join(ROOT, 'fixtures', 'js-duration', 'repo'), repo, { recursive: true });
    await cp(join(ROOT, 'witness-packs', 'js-duration'), pack, { recursive: true });
    digest = (await digestWitnessFolder(pack)).digest;
    const candidates = join(tmp, 'candidates');
    await mkdir(candidates);
    for (const [name, path] of Object.entries(CANDIDATES)) await cp(join(ROOT, 'fixtures', 'js-duration', path), join(candidates, `${name}.diff`));
    const common = [
      '--repo',
      repo,
      '--witness',
      pack,
      '--witness-digest',
      digest,
      '--candidates',
      candidates,
      '--approved-by',
      'promote-test',
      '--runner',
      'docker',
      '--image',
      gate.imageId
    ];
    const refused = await runCliInProcess(['screen', ...common, '--out', join(tmp, 'refused')]);
    const hashes = [...refused.stderr.matchAll(/([a-z-]+) ([0-9a-f]{64})/g)].map((m) => m[2] ?? '');
    expect(hashes).toHaveLength(3);
    out = join(tmp, 'screen');
    const result = await runCliInProcess([
      'screen',
      ...common,
      ...hashes.flatMap((hash) => ['--approve', hash]),
      '--out',
      out,
      '--timeout',
      '180',
      '--baseline-cache',
      cache(),
      '--receipt-store',
      store
    ]);
    screenExit = result.status;
    screenErr = result.stderr;
    screening = JSON.parse(await readFile(join(out, 'screening.json'), 'utf8')) as Screening;
  }, 900_000);

  afterAll(async () => {
    if (tmp !== '') await rm(tmp, { recursive: true, force: true });
  });

  async function freshCopy(): Promise<string> {
    const copy = join(tmp, `copy-${++copies}`);
    await cp(repo, copy, { recursive: true });
    return copy;
  }

  /** The tree the candidate's diff makes of the base, file by file, by the diff parser validate uses. */
  async function expectPromoted(copy: string, name: keyof typeof CANDIDATES): Promise<void> {
    const diff = await readFile(join(ROOT, 'fixtures', 'js-duration', CANDIDATES[name]), 'utf8');
    const changes = checkDiff(diff);
    const expected = applyFileChanges((path) => readFileSync(join(repo, path)), changes);
    for (const [path, bytes] of expected) expect([path, (await readFile(join(copy, path))).equals(bytes as Buffer)]).toEqual([path, true]);
  }

  /** Refused (exit 2, one line), the tree exactly as before. */
  async function expectRefused(file: string, reason: RegExp, ...extra: string[]): Promise<void> {
    const copy = await freshCopy();
    const before = treeListing(copy);
    const result = await runCliInProcess(['promote', file, '--repo', copy, '--receipt-store', store, ...extra]);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr).toMatch(/^patchproof: refused \(promote_refused\): .+\n$/);
    expect(result.stderr).toMatch(reason);
    expect(treeListing(copy)).toEqual(before);
  }

  /** A copy of the screening's folder with another screening.json (and bound receipts changed by `edit`). */
  async function forgedFolder(label: string, forged: Screening, edit: (dir: string) => Promise<void> = () => Promise.resolve()): Promise<string> {
    const dir = join(tmp, label);
    await cp(out, dir, { recursive: true });
    await edit(dir);
    await writeFile(join(dir, 'screening.json'), serializeScreening(forged));
    return join(dir, 'screening.json');
  }

  const withoutDuplicate = ({ duplicate_of: _d, ...c }: Screening['candidates'][number]): Screening['candidates'][number] => c;
  const reseal = (s: Screening, change: (body: Omit<Screening, 'screening_digest'>) => Omit<Screening, 'screening_digest'>): Screening => {
    const { screening_digest: _d, ...body } = s;
    return sealScreening(change(body));
  };

  it('promotes the candidate ranked first, or a passed one named by --candidate, and refuses a failed one', async () => {
    expect([screenExit, screenErr.slice(-1500)]).toEqual([0, screenErr.slice(-1500)]);
    const first = screening.ranking[0]!.name as keyof typeof CANDIDATES;
    const second = screening.ranking[1]!.name as keyof typeof CANDIDATES;
    expect([first, second].sort()).toEqual(['fix', 'fix-comments']);
    const copy = await freshCopy();
    const applied = await runCliInProcess(['promote', join(out, 'screening.json'), '--repo', copy, '--receipt-store', store]);
    expect([applied.status, applied.stderr]).toEqual([0, '']);
    expect(applied.stdout).toMatch(/^applied {3}modify src\/duration\.js\noutcome: applied\nlog: /);
    await expectPromoted(copy, first);
    const logFile = /log: (.+)\n/.exec(applied.stdout)![1]!;
    const log = await readJson<{ receipt_digest: string; source: unknown }>(logFile);
    const chosen = screening.candidates.find((c) => c.name === first)!;
    expect(log).toMatchObject({ receipt_digest: chosen.receipt_digest, source: { kind: 'screening', digest: screening.screening_digest, candidate: first } });

    const named = await freshCopy();
    const other = await runCliInProcess(['promote', join(out, 'screening.json'), '--repo', named, '--receipt-store', store, '--candidate', second]);
    expect([other.status, other.stderr]).toEqual([0, '']);
    await expectPromoted(named, second);

    await expectRefused(join(out, 'screening.json'), /--candidate not-fixed's verdict is failed; only a passed candidate can be promoted/, '--candidate', 'not-fixed');
    await expectRefused(join(out, 'screening.json'), /--candidate 'nobody' is no candidate of the screening/, '--candidate', 'nobody');
  });

  it('refuses a screening re-sealed with a reordered ranking', async () => {
    const reordered = reseal(screening, (body) => ({ ...body, ranking: [...body.ranking].reverse().map((r, i) => ({ ...r, rank: i + 1 })) }));
    await expectRefused(await forgedFolder('reordered', reordered), /the screening receipt does not verify \(the ranking does not follow from the candidates' rank keys\)/);
  });

  it("refuses a re-sealed screening whose first candidate's receipt is another verifying receipt of this store", async () => {
    // Another proof-grade pass of this installation on the same base, pack and baseline: validate of
    // the fix's diff with --early-exit (gates) and the screening's baseline cache. Bound under the name
    // ranked first (not a duplicate then), promote would write the fix's diff for that candidate.
    const first = screening.ranking[0]!.name;
    const work = join(tmp, 'other');
    await mkdir(work);
    const approved = await proposeAndApprove(repo, join(ROOT, 'fixtures', 'js-duration', CANDIDATES.fix), work, tmp, 'other');
    const validated = await runCliInProcess([
      'validate',
      '--repo',
      repo,
      '--proposal',
      approved.proposalPath,
      '--approval',
      approved.approvalPath,
      '--witness',
      pack,
      '--witness-digest',
      digest,
      '--runner',
      'docker',
      '--image',
      gate.imageId,
      '--out',
      join(work, 'out'),
      // The screening's limits: the baseline cache is keyed by them.
      '--timeout',
      '180',
      '--early-exit',
      '--baseline-cache',
      cache(),
      '--receipt-store',
      store
    ]);
    expect([validated.status, validated.stderr.slice(-800)]).toEqual([0, validated.stderr.slice(-800)]);
    const otherText = await readFile(join(work, 'out', 'receipt.json'), 'utf8');
    const other = JSON.parse(otherText) as Receipt;
    const swap = (s: Screening): Screening =>
      reseal(s, (body) => {
        const candidates = body.candidates.map((c) =>
          c.name === first
            ? { ...withoutDuplicate(c), receipt_digest: other.receipt_digest, diff_digest: other.bindings.diff_digest, verdict: other.verdict, rank_key: rankKeyOf(other) }
            : c
        );
        return { ...body, candidates, ranking: rankCandidates(candidates) };
      });
    const forged = swap(screening);
    const file = await forgedFolder('swapped', forged, (dir) => writeFile(join(dir, 'candidates', first, 'receipt.json'), otherText));
    // The forgery is self-consistent: every check of the receipts passes; only the store tells it from screen's.
    const readBound = (rel: string): string | undefined => {
      try {
        return readFileSync(join(file, '..', ...rel.split('/')), 'utf8');
      } catch {
        return undefined;
      }
    };
    expect(verifyScreeningText(serializeScreening(forged), readBound)).toMatchObject({ integrity_valid: true, errors: [] });
    await expectRefused(file, /the screening receipt sha256:[0-9a-f]{64} is not in the receipt store/);
    // Swapped without re-sealing: the screening no longer binds the receipt beside it.
    const unsealed = await forgedFolder('swapped-unsealed', screening, (dir) => writeFile(join(dir, 'candidates', first, 'receipt.json'), otherText));
    await expectRefused(unsealed, new RegExp(`the screening receipt does not verify \\(candidate ${first}: receipt_digest is not the bound receipt's`));
  }, 600_000);

  it('refuses a re-sealed screening with a candidate left out (it verifies, but screen never wrote it)', async () => {
    const dropped = screening.ranking[0]!.name;
    const subset = reseal(screening, (body) => {
      const candidates = body.candidates.filter((c) => c.name !== dropped).map((c) => ({ ...c, similar: c.similar.filter((s) => s.name !== dropped) }));
      return { ...body, candidates, ranking: rankCandidates(candidates) };
    });
    await expectRefused(await forgedFolder('subset', subset), /is not in the receipt store/);
  });

  it('promotes a merged pass of suite shards, and refuses a merged receipt missing a shard or a passing shard on its own', async () => {
    /** validate --shard K/2 of a candidate, into the store. */
    const approvals = new Map<string, Awaited<ReturnType<typeof proposeAndApprove>>>();
    const shard = async (name: string, diffPath: string, k: number): Promise<string> => {
      const work = join(tmp, `${name}-shards`);
      await mkdir(work, { recursive: true });
      if (!approvals.has(name)) approvals.set(name, await proposeAndApprove(repo, join(ROOT, 'fixtures', 'js-duration', diffPath), work, tmp, name));
      const { proposalPath: proposal, approvalPath: approvedFile } = approvals.get(name)!;
      const dir = join(work, `shard-${k}`);
      const result = await runCliInProcess([
        'validate',
        '--repo',
        repo,
        '--proposal',
        proposal,
        '--approval',
        approvedFile,
        '--witness',
        pack,
        '--witness-digest',
        digest,
        '--runner',
        'docker',
        '--image',
        gate.imageId,
        '--out',
        dir,
        '--shard',
        `${k}/2`,
        '--receipt-store',
        store
      ]);
      expect([result.status, result.stderr.slice(-800)]).toEqual([0, result.stderr.slice(-800)]);
      return join(dir, 'receipt.json');
    };
    const shards = [await shard('fix', 'candidates/fix.diff', 1), await shard('fix', 'candidates/fix.diff', 2)];
    const mergedDir = join(tmp, 'merged');
    const merge = await runCliInProcess(['merge', '--out', mergedDir, ...shards]);
    expect([merge.status, merge.stdout]).toEqual([0, 'merged 2 shards: passed (proof grade)\n']);
    const copy = await freshCopy();
    const applied = await runCliInProcess(['promote', join(mergedDir, 'merged.json'), '--repo', copy, '--receipt-store', store]);
    expect([applied.status, applied.stderr]).toEqual([0, '']);
    await expectPromoted(copy, 'fix');
    const merged = JSON.parse(await readFile(join(mergedDir, 'merged.json'), 'utf8')) as Merged;
    const log = await readJson<{ source: unknown }>(/log: (.+)\n/.exec(applied.stdout)![1]!);
    expect(log.source).toEqual({ kind: 'merged', digest: merged.merged_digest });

    // Missing a shard: shard 1's record alone, re-sealed.
    const one = JSON.parse(await readFile(shards[0]!, 'utf8')) as Receipt;
    const body = mergedBody([one], merged.tool_version);
    const partialDir = join(tmp, 'merged-partial');
    await cp(mergedDir, partialDir, { recursive: true });
    await rm(join(partialDir, 'shards', '2'), { recursive: true });
    await writeFile(join(partialDir, 'merged.json'), serializeMerged({ ...body, merged_digest: mergedDigest(body) }));
    await expectRefused(join(partialDir, 'merged.json'), /the merged receipt does not verify \(.*shard 2\/2 is missing/);

    // The same merged receipt from another installation's store: its shards are not this store's.
    const elsewhere = await freshCopy();
    const foreign = await runCliInProcess(['promote', join(mergedDir, 'merged.json'), '--repo', elsewhere, '--receipt-store', join(tmp, 'empty-store')]);
    expect([foreign.status, foreign.stderr]).toEqual([
      2,
      expect.stringMatching(/^patchproof: refused \(promote_refused\): the receipt sha256:[0-9a-f]{64} is not in the receipt store/)
    ]);

    // A passing share of a regressing candidate (its regression is in shard 1's files): refused alone.
    const regressingShard = await shard('regressing', 'candidates/regressing.diff', 2);
    expect((JSON.parse(await readFile(regressingShard, 'utf8')) as Receipt).verdict).toBe('passed');
    await expectRefused(regressingShard, /shard 2\/2 of the regression suite, and a share is never a pass on its own/);
  }, 900_000);
});
