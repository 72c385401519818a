import { readFileSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ROOT, readJson, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { sealScreening, serializeScreening, verifyScreeningText, type Screening } from '../../src/core/screening.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * `patchproof screen` end to end in the Docker runner, from the sources: fixtures/js-duration with
 * eight candidates for its one bug (the fix; the same change as a diff with less context, so its
 * result is byte-identical; a copy with other comments and spacing; a copy differing in one string
 * literal, which breaks number inputs; overfit; regressing; not fixed; one that adds a credential).
 * One shared baseline, gates with early exit, the byte-identical copy sharing the fix's runs, the
 * comment-only copy (code can read its comments back) and the string-literal copy validated on their
 * own, the ranking, and the screening receipt checked by verify-receipt, with forgeries that must fail.
 */

const gate = await dockerGate('screen end-to-end test');

const CANDIDATES = {
  fix: 'candidates/fix.diff',
  overfit: 'candidates/overfit.diff',
  regressing: 'candidates/regressing.diff',
  'not-fixed': 'candidates/not-fixed.diff',
  'fix-comments': 'screen-candidates/fix-comments.diff',
  'fix-context': 'screen-candidates/fix-context.diff',
  'fix-string': 'screen-candidates/fix-string.diff',
  'leaks-secret': 'screen-candidates/leaks-secret.diff'
} as const;
type Name = keyof typeof CANDIDATES;

gate.describeDocker('screen: eight candidates for one bug', () => {
  let tmp: string;
  let out: string;
  let screenExit: number | null;
  let screenErr: string;
  const receipts = {} as Record<Name, Receipt>;
  let screening: Screening;
  let screeningText: string;
  let approvals: Map<string, string>;
  const readBound = (rel: string): string | undefined => {
    try {
      return readFileSync(join(out, ...rel.split('/')), 'utf8');
    } catch {
      return undefined;
    }
  };

  beforeAll(async () => {
    gate.requireDocker();
    tmp = await tempDir('screen');
    const repo = join(tmp, 'repo');
    const pack = join(tmp, 'pack');
    const candidates = join(tmp, 'candidates');
    await cp(join(ROOT, 'fixtures', 'js-duration', 'repo'), repo, { recursive: true });
    await cp(join(ROOT, 'witness-packs', 'js-duration'), pack, { recursive: true });
    // The L0 gate's allowed_paths: the candidates may change the sources only.
    const manifest = JSON.parse(await readFile(join(pack, 'witness.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(pack, 'witness.json'), `${JSON.stringify({ ...manifest, allowed_paths: ['src/**'] }, null, 2)}\n`);
    await mkdir(candidates);
    for (const [name, path] of Object.entries(CANDIDATES)) await cp(join(ROOT, 'fixtures', 'js-duration', path), join(candidates, `${name}.diff`));
    const { digest } = await digestWitnessFolder(pack);
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
      'screen-test',
      '--runner',
      'docker',
      '--image',
      gate.imageId
    ];

    // Unapproved candidates: refused before anything runs, each named with its proposal_hash.
    const refused = await runCliInProcess(['screen', ...common, '--out', join(tmp, 'refused')]);
    expect(refused.status).toBe(2);
    const hashes = [...refused.stderr.matchAll(/([a-z-]+) ([0-9a-f]{64})/g)].map((m) => [m[1] ?? '', m[2] ?? ''] as const);
    expect(hashes.map(([name]) => name).sort()).toEqual(Object.keys(CANDIDATES).sort());
    // The hashes are the ones `patchproof propose` gives.
    const proposal = join(tmp, 'fix.proposal.json');
    expect((await runCliInProcess(['propose', '--repo', repo, '--diff', join(candidates, 'fix.diff'), '--out', proposal])).status).toBe(0);
    expect(hashes.find(([name]) => name === 'fix')?.[1]).toBe((await readJson<{ proposal_hash: string }>(proposal)).proposal_hash);

    out = join(tmp, 'out');
    approvals = new Map(hashes);
    // The base side is kept in a baseline cache for the sharded screening below.
    const result = await runCliInProcess([
      'screen',
      ...common,
      ...hashes.flatMap(([, hash]) => ['--approve', hash]),
      '--out',
      out,
      '--timeout',
      '180',
      '--baseline-cache',
      join(tmp, 'baseline-cache')
    ]);
    screenExit = result.status;
    screenErr = result.stderr;
    for (const name of Object.keys(CANDIDATES) as Name[]) receipts[name] = await readJson<Receipt>(join(out, 'candidates', name, 'receipt.json'));
    screeningText = await readFile(join(out, 'screening.json'), 'utf8');
    screening = JSON.parse(screeningText) as Screening;
  }, 1_500_000);

  afterAll(async () => {
    if (mayBeUnset(tmp) !== undefined) await rm(tmp, { recursive: true, force: true });
  });

  const statuses = (name: Name): string[] => receipts[name].phases.map((p) => p.status);

  it('exits 0 with a passing best candidate, and verify-receipt accepts the screening receipt', async () => {
    expect([screenExit, screenErr.slice(-1500)]).toEqual([0, screenErr.slice(-1500)]);
    const verified = await runCliInProcess(['verify-receipt', join(out, 'screening.json')]);
    expect(verified.status).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ integrity_valid: true, kind: 'screening', best: 'fix-comments' });
    for (const name of Object.keys(CANDIDATES)) expect((await runCliInProcess(['verify-receipt', join(out, 'candidates', name, 'receipt.json')])).status).toBe(0);
  });

  it('runs the base side once: every receipt holds the same base runs and baseline digest', () => {
    const baseRuns = (r: Receipt): string => JSON.stringify(r.phases[0]!.runs.map((run) => [run.canary.nonce, run.output_sha256]));
    const first = receipts.fix;
    for (const r of Object.values(receipts)) {
      expect(r.baseline).toEqual({ shared: true, digest: first.baseline!.digest });
      expect(baseRuns(r)).toBe(baseRuns(first));
    }
    expect(screening.baseline_digest).toBe(first.baseline!.digest);
  });

  it('stops each candidate at its first failed gate; later phases are not_run', () => {
    expect(statuses('fix')).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(statuses('overfit')).toEqual(['passed', 'passed', 'passed', 'failed']);
    expect(statuses('regressing')).toEqual(['passed', 'passed', 'failed', 'not_run']);
    expect(statuses('not-fixed')).toEqual(['passed', 'failed', 'not_run', 'not_run']);
    expect(statuses('leaks-secret')).toEqual(['passed', 'not_run', 'not_run', 'not_run']);
    expect(receipts['leaks-secret'].reasons).toContain('policy_gate_failed');
    expect(receipts['leaks-secret'].gates!.l0).toEqual([expect.objectContaining({ rule: 'secret', path: 'src/duration.js' })]);
    // No run of the candidate's tree is made after a failed gate.
    expect(receipts['not-fixed'].phases.flatMap((p) => p.runs.map((r) => r.label)).filter((l) => l === 'regression_after' || l === 'hidden')).toEqual([]);
    for (const name of ['overfit', 'regressing', 'not-fixed', 'leaks-secret', 'fix-string'] as const) expect(receipts[name].verdict).toBe('failed');
  });

  it("stops the regressing candidate at L3's related tier (the suite files importing src/duration.js); the full suite decides the fix's pass", async () => {
    const regressing = receipts.regressing;
    expect(regressing.gates!.related).toEqual({
      status: 'failed',
      files: ['test/duration.test.js', 'test/format.test.js'],
      regressions: [expect.stringContaining('allows whitespace between the parts')]
    });
    const labels = (r: Receipt): string[] => r.phases[2]!.runs.map((run) => run.label);
    expect(labels(regressing)).toContain('regression_related');
    expect(labels(regressing)).not.toContain('regression_after');
    expect(regressing.phases[2]!.reasons).toContain('regression');
    expect(regressing.phases[2]!.regressions).toEqual(regressing.gates!.related!.regressions);
    expect(regressing.reasons).toContain('regression');
    // The tier passed for the fix: the full suite still ran after it and decided the pass.
    expect(receipts.fix.gates!.related).toEqual({ status: 'passed', files: ['test/duration.test.js', 'test/format.test.js'], regressions: [] });
    expect(labels(receipts.fix)).toEqual(expect.arrayContaining(['regression_before', 'regression_related', 'regression_after']));
    expect(receipts['not-fixed'].gates!.related).toMatchObject({ status: 'not_run' });
    expect(receipts['leaks-secret'].gates!.related).toMatchObject({ status: 'not_run' });
    // A receipt whose tier cites a regression the phase does not hold fails, even re-sealed.
    const { receipt_digest: _digest, ...body } = structuredClone(regressing);
    body.gates!.related!.regressions = ['test/format.test.js > formats largest unit first and leaves out zero parts'];
    const forgedPath = join(tmp, 'forged-related.json');
    await writeFile(forgedPath, serializeReceipt(sealReceipt(body)));
    const forged = await runCliInProcess(['verify-receipt', forgedPath]);
    expect(forged.status).not.toBe(0);
    expect(forged.stdout + forged.stderr).toContain('gates.related');
  });

  it("shares the fix's runs with its byte-identical copy only; the comment-only and string-literal copies are validated on their own", () => {
    expect(receipts['fix-context'].gates!.shared_runs).toEqual({
      diff_digest: receipts.fix.bindings.diff_digest,
      patched_snapshot: receipts.fix.bindings.patched_snapshot,
      normalised_key: expect.any(String)
    });
    expect(receipts['fix-context'].bindings.diff_digest).not.toBe(receipts.fix.bindings.diff_digest);
    expect(receipts['fix-context'].bindings.patched_snapshot).toBe(receipts.fix.bindings.patched_snapshot);
    expect(receipts['fix-context'].verdict).toBe('passed');
    const runsOf = (r: Receipt): string[] => r.phases.slice(1).flatMap((p) => p.runs.filter((run) => run.label !== 'regression_before').map((run) => run.output_sha256));
    expect(runsOf(receipts['fix-context'])).toEqual(runsOf(receipts.fix));
    // Other comments and spacing: the same normalised key, other bytes (code can read its comments
    // back). Validated on its own, with runs of its own, and reported as a near-duplicate.
    expect(receipts['fix-comments'].gates!.shared_runs).toBeUndefined();
    expect(receipts['fix-comments'].bindings.patched_snapshot).not.toBe(receipts.fix.bindings.patched_snapshot);
    expect(receipts['fix-comments'].verdict).toBe('passed');
    expect(statuses('fix-comments')).toEqual(['passed', 'passed', 'passed', 'passed']);
    const nonces = (r: Receipt): string[] => r.phases.slice(1).flatMap((p) => p.runs.filter((run) => run.label !== 'regression_before').map((run) => run.canary.nonce));
    expect(nonces(receipts['fix-comments']).filter((n) => nonces(receipts.fix).includes(n))).toEqual([]);
    // The attack: one string literal differs, which breaks number inputs. It never inherits the pass.
    expect(receipts['fix-string'].gates!.shared_runs).toBeUndefined();
    expect(statuses('fix-string')).toEqual(['passed', 'passed', 'failed', 'not_run']);
    const byName = new Map(screening.candidates.map((c) => [c.name, c]));
    expect(byName.get('fix-context')!.duplicate_of).toBe('fix');
    expect(byName.get('fix-comments')!.duplicate_of).toBeUndefined();
    expect(byName.get('fix-comments')!.normalised_key).toBe(byName.get('fix')!.normalised_key);
    expect(byName.get('fix-comments')!.similar).toEqual(
      expect.arrayContaining([
        { name: 'fix', score: 1 },
        { name: 'fix-context', score: 1 }
      ])
    );
    expect(byName.get('fix')!.similar.map((s) => s.name)).not.toContain('fix-context');
    expect(byName.get('fix-string')!.duplicate_of).toBeUndefined();
    expect(byName.get('fix-string')!.similar.map((s) => s.name)).toContain('fix');
  });

  it('ranks by the tuple: passes first, then by gates failed; the credential last', () => {
    const order = screening.ranking.map((r) => r.name);
    expect(order.slice(0, 4)).toEqual(['fix-comments', 'fix', 'fix-context', 'overfit']);
    expect(order.slice(-2)).toEqual(['not-fixed', 'leaks-secret']);
    expect(new Set(order.slice(4, 6))).toEqual(new Set(['regressing', 'fix-string']));
    expect(screening.ranking[0]!.why).toContain('before fix by changed_lines');
  });

  it('refuses a reordered ranking, a forged rank key and a forged duplicate, even when re-sealed', () => {
    const { screening_digest: _d, ...body } = screening;
    const forged = (change: (b: typeof body) => typeof body): string => serializeScreening(sealScreening(change(structuredClone(body))));
    const swapped = forged((b) => ({ ...b, ranking: [b.ranking[1]!, b.ranking[0]!, ...b.ranking.slice(2)].map((r, i) => ({ ...r, rank: i + 1 })) }));
    expect(verifyScreeningText(swapped, readBound).errors).toContain("the ranking does not follow from the candidates' rank keys");
    const key = forged((b) => ({ ...b, candidates: b.candidates.map((c) => (c.name === 'overfit' ? { ...c, rank_key: { ...c.rank_key, hard_gates_failed: 0 } } : c)) }));
    expect(verifyScreeningText(key, readBound).errors).toEqual(expect.arrayContaining(['candidate overfit: rank_key does not follow from its receipt']));
    const duplicate = forged((b) => ({ ...b, candidates: b.candidates.map((c) => (c.name === 'fix-string' ? { ...c, duplicate_of: 'fix' } : c)) }));
    expect(verifyScreeningText(duplicate, readBound).integrity_valid).toBe(false);
    expect(verifyScreeningText(screeningText, readBound).integrity_valid).toBe(true);
  });

  it("refuses a screening whose comment-only copy shares the fix's runs (the rule before byte-identity), even with its receipt re-sealed", () => {
    // What a screening made under the normalised-key rule looks like: the copy's receipt records the
    // fix's runs under its own (equal) normalised key, and the screening lists it as a duplicate.
    const { receipt_digest: _r, ...body } = structuredClone(receipts['fix-comments']);
    body.gates!.shared_runs = {
      diff_digest: receipts.fix.bindings.diff_digest,
      patched_snapshot: receipts.fix.bindings.patched_snapshot,
      normalised_key: screening.candidates.find((c) => c.name === 'fix-comments')!.normalised_key
    };
    const receiptText = serializeReceipt(sealReceipt(body));
    const receipt = JSON.parse(receiptText) as Receipt;
    const { screening_digest: _d, ...screeningBody } = structuredClone(screening);
    screeningBody.candidates = screeningBody.candidates.map((c) => (c.name === 'fix-comments' ? { ...c, receipt_digest: receipt.receipt_digest, duplicate_of: 'fix' } : c));
    const text = serializeScreening(sealScreening(screeningBody));
    const read = (rel: string): string | undefined => (rel === 'candidates/fix-comments/receipt.json' ? receiptText : readBound(rel));
    expect(verifyReceiptText(receiptText).integrity_valid).toBe(true);
    expect(verifyScreeningText(text, read).errors).toEqual(['candidate fix-comments: shares the runs of fix, whose patched tree is not byte-identical to its own']);
  });

  it('writes feedback per candidate, and compare tells progress from none', async () => {
    const feedback = await readJson<{ failed_gate: string | null; failing: { phase: string; message?: string }[] }>(join(out, 'candidates', 'not-fixed', 'feedback.json'));
    expect(feedback.failed_gate).toBe('L2_reproduction');
    expect(feedback.failing.filter((f) => f.phase === 'reproduction_after').length).toBeGreaterThan(0);
    expect((await readJson<{ failed_gate: string | null }>(join(out, 'candidates', 'fix', 'feedback.json'))).failed_gate).toBeNull();
    const receipt = (name: Name): string => join(out, 'candidates', name, 'receipt.json');
    expect((await runCliInProcess(['compare', receipt('not-fixed'), receipt('overfit')])).status).toBe(0);
    expect((await runCliInProcess(['compare', receipt('fix'), receipt('overfit')])).status).toBe(1);
    expect((await runCliInProcess(['compare', receipt('fix'), receipt('fix-comments')])).status).toBe(1);
  });

  it('shards: two `screen --shard K/N` runs on the cached base side, merged into a screening receipt that verifies; merge refuses a missing shard and a swapped proposal', async () => {
    const repo = join(tmp, 'repo');
    const pack = join(tmp, 'pack');
    const subset = join(tmp, 'shard-candidates');
    await mkdir(subset);
    const names = ['fix', 'fix-context', 'not-fixed'] as const;
    for (const name of names) await cp(join(tmp, 'candidates', `${name}.diff`), join(subset, `${name}.diff`));
    const { digest } = await digestWitnessFolder(pack);
    const shardArgs = (k: number): string[] => [
      'screen',
      '--repo',
      repo,
      '--witness',
      pack,
      '--witness-digest',
      digest,
      '--candidates',
      subset,
      '--approved-by',
      'screen-test',
      '--runner',
      'docker',
      '--image',
      gate.imageId,
      ...names.flatMap((n) => ['--approve', approvals.get(n)!]),
      '--timeout',
      '180',
      '--baseline-cache',
      join(tmp, 'baseline-cache'),
      '--shard',
      `${k}/2`,
      '--out',
      join(tmp, `shard-${k}`)
    ];
    const shards = [];
    for (const k of [1, 2]) shards.push(await runCliInProcess(shardArgs(k)));
    for (const r of shards) {
      expect([r.status, r.stderr.slice(-800)]).toEqual([0, r.stderr.slice(-800)]);
      expect(r.stderr).toContain('baseline cache: reusing entry');
    }
    // The groups of one exact key stay together: the fix and its byte-identical copy in shard 1, not-fixed in shard 2.
    expect((await readJson<{ validated: string[] }>(join(tmp, 'shard-1', 'shard.json'))).validated).toEqual(['fix', 'fix-context']);
    expect((await readJson<{ validated: string[] }>(join(tmp, 'shard-2', 'shard.json'))).validated).toEqual(['not-fixed']);

    const merged = join(tmp, 'merged');
    const merge = await runCliInProcess(['merge', '--repo', repo, '--out', merged, join(tmp, 'shard-2'), join(tmp, 'shard-1')]);
    expect([merge.status, merge.stderr]).toEqual([0, '']);
    const verified = await runCliInProcess(['verify-receipt', join(merged, 'screening.json')]);
    expect(JSON.parse(verified.stdout)).toMatchObject({ integrity_valid: true, kind: 'screening', best: 'fix' });
    const mergedScreening = await readJson<Screening>(join(merged, 'screening.json'));
    expect(mergedScreening.ranking.map((r) => r.name)).toEqual(['fix', 'fix-context', 'not-fixed']);
    // The same base side as the unsharded screening (from the cache), the same verdicts and duplicates.
    expect(mergedScreening.baseline_digest).toBe(screening.baseline_digest);
    const byName = new Map(screening.candidates.map((c) => [c.name, c]));
    for (const c of mergedScreening.candidates) {
      expect([c.name, c.verdict, c.normalised_key, c.duplicate_of]).toEqual([
        c.name,
        byName.get(c.name)!.verdict,
        byName.get(c.name)!.normalised_key,
        byName.get(c.name)!.duplicate_of
      ]);
    }
    expect(await readFile(join(merged, 'candidates', 'not-fixed', 'receipt.json'), 'utf8')).toBe(
      await readFile(join(tmp, 'shard-2', 'candidates', 'not-fixed', 'receipt.json'), 'utf8')
    );

    // A shard left out is refused before anything is written.
    const partial = await runCliInProcess(['merge', '--repo', repo, '--out', join(tmp, 'partial'), join(tmp, 'shard-1')]);
    expect([partial.status, partial.stderr]).toEqual([2, expect.stringContaining('shard 2/2 is missing')]);
    // The attack: shard 2's folder carries the overfit candidate's proposal and receipt under not-fixed's name.
    const swapped = join(tmp, 'shard-2-swapped');
    await cp(join(tmp, 'shard-2'), swapped, { recursive: true });
    for (const file of ['proposal.json', 'approval.json', 'receipt.json']) await cp(join(out, 'candidates', 'overfit', file), join(swapped, 'candidates', 'not-fixed', file));
    const forged = await runCliInProcess(['merge', '--repo', repo, '--out', join(tmp, 'forged'), join(tmp, 'shard-1'), swapped]);
    expect([forged.status, forged.stderr]).toEqual([2, expect.stringContaining("not-fixed's proposal has hash")]);
  }, 900_000);
});
