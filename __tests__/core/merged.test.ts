import { passingRuns, receiptFrom, run } from '../helpers/evidence.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import { RECEIPT_V6_SCHEMA, type Receipt } from '../../src/core/receipt-schema.js';
import { shardOfFiles, suiteShare } from '../../src/core/suite-share.js';
import {
  mergedBody,
  mergedDigest,
  mergedOutcome,
  serializeMerged,
  shardBindingErrors,
  shardSetErrors,
  verifyMergedText,
  type ExpectedShardBindings,
  type MergedBody
} from '../../src/core/merged.js';
import { mergeShardReceipts } from '../../src/phases/suite-shards.js';
import { digestJson, canonicalJson } from '../../src/core/hashing.js';

/** `validate --shard K/N` and `patchproof merge` of its receipts: the cut, the shard record, the merged receipt. */

const SUITE = Array.from({ length: 40 }, (_, i) => `test/file-${i}.test.js`);
const WHOLE = { base: SUITE, patched: SUITE };

/** Shard `index` of `count` of a passing validation of SUITE (a real receipt, re-sealed with its share). */
function shardReceipt(index: number, count: number, edit: (body: Omit<Receipt, 'receipt_digest'>) => void = () => {}): Receipt {
  const { receipt_digest: _d, ...body } = receiptFrom(passingRuns());
  body.inventory.suite_files = suiteShare(WHOLE, index, count);
  body.shard = { index, count, suite_files: { base: [...SUITE], patched: [...SUITE] } };
  edit(body);
  return sealReceipt(body);
}

/** Shard 2 of 3 with a regression: a test that passed on the base fails on the candidate's tree. */
function failingShard(): Receipt {
  const runs = passingRuns();
  const regressed = {
    ...runs,
    regression_after: runs.regression_after.map((r) =>
      run(
        'regression_after',
        (r.parsed?.tests ?? []).map((t, i) => (i === 0 ? { ...t, status: 'failed' as const } : t))
      )
    )
  };
  const { receipt_digest: _d, ...body } = receiptFrom(regressed);
  body.inventory.suite_files = suiteShare(WHOLE, 2, 3);
  body.shard = { index: 2, count: 3, suite_files: { base: [...SUITE], patched: [...SUITE] } };
  return sealReceipt(body);
}

describe('the cut (suiteShare)', () => {
  it('partitions both trees for any N, and puts a file in the same shard on both trees', () => {
    const suite = { base: SUITE.slice(0, 30), patched: [...SUITE.slice(0, 30), 'test/added-by-candidate.test.js'] };
    for (let count = 2; count <= 9; count++) {
      const shares = Array.from({ length: count }, (_, i) => suiteShare(suite, i + 1, count));
      for (const tree of ['base', 'patched'] as const) {
        expect(shares.flatMap((s) => s[tree]).sort()).toEqual([...suite[tree]].sort());
        expect(new Set(shares.flatMap((s) => s[tree])).size).toBe(suite[tree].length);
      }
      shares.forEach((share, i) => {
        for (const file of share.base) expect(share.patched).toContain(file);
        for (const file of share.patched) expect(shardOfFiles(suite, count).get(file)).toBe(i + 1);
      });
    }
  });

  it("gives every shard a file when N is at most the number of files, in the files' order", () => {
    const three = {
      base: ['test/timeouts.test.js', 'test/duration.test.js', 'test/format.test.js'],
      patched: ['test/timeouts.test.js', 'test/duration.test.js', 'test/format.test.js']
    };
    expect(suiteShare(three, 1, 2).base).toEqual(['test/timeouts.test.js', 'test/duration.test.js']);
    expect(suiteShare(three, 2, 2).base).toEqual(['test/format.test.js']);
    for (let k = 1; k <= 3; k++) expect(suiteShare(three, k, 3).base).toHaveLength(1);
  });
});

describe('the shard record (v7)', () => {
  it('verifies a shard receipt whose inventory is exactly its share', () => {
    expect(verifyReceiptText(serializeReceipt(shardReceipt(1, 3))).errors).toEqual([]);
  });

  it('refuses a receipt that ran another share than its record says, even re-sealed', () => {
    const forged = shardReceipt(1, 3, (b) => {
      b.inventory.suite_files.base = suiteShare(WHOLE, 1, 3).base.slice(1);
    });
    expect(verifyReceiptText(serializeReceipt(forged)).errors).toContain("shard: inventory.suite_files.base is not shard 1/3's share of the recorded suite");
  });

  it('refuses a shard record in a v6 receipt (the record is new in v7)', () => {
    const receipt = shardReceipt(1, 2);
    const { receipt_digest: _d, ...body } = receipt;
    const v6 = { ...body, schema: RECEIPT_V6_SCHEMA } as typeof body;
    const text = `${canonicalJson({ ...v6, receipt_digest: digestJson('patchproof/receipt/v6', v6) })}\n`;
    expect(verifyReceiptText(text).errors).toEqual(expect.arrayContaining([expect.stringContaining('a shard record exists only from patchproof.receipt/v7')]));
  });
});

describe('the merged receipt', () => {
  const shards = [shardReceipt(1, 3), shardReceipt(2, 3), shardReceipt(3, 3)];
  const files = (list: Receipt[]): Map<string, string> => new Map(list.map((r) => [`shards/${r.shard!.index}/receipt.json`, serializeReceipt(r)]));
  const seal = (body: MergedBody): string => serializeMerged({ ...body, merged_digest: mergedDigest(body) });
  const verify = (text: string, bound: Map<string, string>) => verifyMergedText(text, (rel) => bound.get(rel));

  it('accepts the three shards of one validation, in any order given', () => {
    expect(shardSetErrors([shards[2]!, shards[0]!, shards[1]!])).toEqual([]);
    const text = seal(mergedBody([shards[2]!, shards[0]!, shards[1]!], '0.1.0'));
    expect(verify(text, files(shards))).toMatchObject({ integrity_valid: true, verdict: 'passed', proof_grade: true });
  });

  it.each([
    ['a missing shard', [shards[0]!, shards[1]!], 'shard 3/3 is missing'],
    ['a shard given twice', [shards[0]!, shards[1]!, shards[1]!, shards[2]!], 'a shard is given twice'],
    [
      'another proposal',
      [shards[0]!, shards[1]!, shardReceipt(3, 3, (b) => (b.bindings = { ...b.bindings, proposal_hash: 'd'.repeat(64) }))],
      'another proposal, approval, base, patched tree or pack'
    ],
    ['another image', [shards[0]!, shards[1]!, shardReceipt(3, 3, (b) => (b.runner = { ...b.runner, image: `sha256:${'9'.repeat(64)}` }))], 'another runner or image'],
    [
      'another whole suite',
      [
        shards[0]!,
        shards[1]!,
        shardReceipt(3, 3, (b) => {
          b.shard!.suite_files = { base: SUITE.slice(1), patched: SUITE.slice(1) };
          b.inventory.suite_files = suiteShare(b.shard!.suite_files, 3, 3);
        })
      ],
      'another whole suite'
    ],
    ['another cut', [shards[0]!, shards[1]!, shardReceipt(2, 2)], 'their N differ'],
    ['a whole-suite receipt', [shards[0]!, receiptFrom(passingRuns())], 'ran the whole suite']
  ])('refuses %s', (_what, list, message) => {
    expect(shardSetErrors(list)).toEqual(expect.arrayContaining([expect.stringContaining(message)]));
  });

  it('fails the merge when one shard found a regression, and is inconclusive when one shard is', () => {
    const failing = failingShard();
    expect(failing.verdict).toBe('failed');
    expect(verifyReceiptText(serializeReceipt(failing)).errors).toEqual([]);
    const body = mergedBody([shards[0]!, failing, shards[2]!], '0.1.0');
    expect(body).toMatchObject({ verdict: 'failed', proof_grade: false });
    expect(verify(seal(body), files([shards[0]!, failing, shards[2]!])).integrity_valid).toBe(true);
    expect(
      mergedOutcome([
        { verdict: 'passed', proof_grade: true, reasons: [] },
        { verdict: 'inconclusive', proof_grade: false, reasons: ['no_results'] },
        { verdict: 'failed', proof_grade: false, reasons: ['regression'] }
      ])
    ).toEqual({ verdict: 'inconclusive', proof_grade: false, reasons: ['no_results', 'regression'] });
  });

  it('refuses a merged receipt re-sealed to say passed over a failing shard, a swapped shard file and a missing one', () => {
    const failing = failingShard();
    const list = [shards[0]!, failing, shards[2]!];
    const lying = seal({ ...mergedBody(list, '0.1.0'), verdict: 'passed', proof_grade: true, reasons: [] });
    expect(verify(lying, files(list)).errors).toContain('the merged record does not follow from its shard receipts (count, bindings, suite, verdict, proof grade or reasons)');
    // The failing shard's file replaced by the passing shard 2: its digest is not the bound one.
    const honest = seal(mergedBody(list, '0.1.0'));
    expect(verify(honest, files(shards)).errors).toContain("shard 2: receipt_digest is not the bound receipt's");
    const missing = files(list);
    missing.delete('shards/3/receipt.json');
    expect(verify(honest, missing).errors).toContain('shard 3: its receipt shards/3/receipt.json is missing');
    expect(verify(honest.replace('"count":3', '"count":4'), files(list)).integrity_valid).toBe(false);
  });
});

describe('shardBindingErrors and mergeShardReceipts with what the merging job computed (validate-merge)', () => {
  const expectedOf = (r: Receipt): ExpectedShardBindings => ({
    proposal_hash: r.bindings.proposal_hash,
    diff_digest: r.bindings.diff_digest,
    base_snapshot: r.bindings.base_snapshot,
    witness_digest: r.bindings.witness_digest,
    approval_digest: r.bindings.approval_digest
  });
  const shards = [1, 2, 3].map((k) => shardReceipt(k, 3));
  const texts = shards.map((r, i) => ({ label: `shard-${i + 1}`, text: serializeReceipt(r) }));

  it('accepts shards that bind exactly the computed candidate, and merges them', () => {
    const expected = expectedOf(shards[0]!);
    expect(shardBindingErrors(shards, expected)).toEqual([]);
    expect(mergeShardReceipts(texts, 'test', expected).body).toMatchObject({ count: 3, verdict: 'passed' });
  });

  it.each<[string, keyof ExpectedShardBindings]>([
    ['another proposal (another candidate, or an earlier head)', 'proposal_hash'],
    ['another diff', 'diff_digest'],
    ['another base', 'base_snapshot'],
    ['another pack', 'witness_digest'],
    ['another approval (another run attempt)', 'approval_digest']
  ])('refuses a consistent set of %s, which shardSetErrors alone accepts', (_name, field) => {
    const expected = { ...expectedOf(shards[0]!), [field]: field === 'proposal_hash' ? 'f'.repeat(64) : `sha256:${'f'.repeat(64)}` };
    expect(shardSetErrors(shards)).toEqual([]);
    const errors = shardBindingErrors(shards, expected);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(new RegExp(`^shard 1/3 binds another ${field}`));
    expect(() => mergeShardReceipts(texts, 'test', expected)).toThrow(/the shard receipts are not of this pull request's candidate: shard 1\/3 binds another/);
    // Without `expected` (the CLI's merge, which has no candidate of its own) the same set merges.
    expect(mergeShardReceipts(texts, 'test').body.verdict).toBe('passed');
  });

  it('leaves the approval out when none is expected', () => {
    const { approval_digest: _a, ...rest } = expectedOf(shards[0]!);
    expect(shardBindingErrors(shards, rest)).toEqual([]);
  });

  it('verifies every receipt before it compares anything', () => {
    const broken = [{ label: 'shard-1', text: texts[0]!.text.replace('"passed"', '"failed"') }, ...texts.slice(1)];
    expect(() => mergeShardReceipts(broken, 'test', expectedOf(shards[0]!))).toThrow(/shard receipt 'shard-1' does not verify/);
  });
});
