import { checkDiff } from '../../src/core/diff-policy.js';
import { createProposal } from '../../src/core/proposal.js';
import { checkPromotable, pathProblem, planPromotion, selectChanges, type BaseEntry, type ObservedPath } from '../../src/core/promote-plan.js';
import { sealReceipt } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { PromoteError } from '../../src/errors.js';
import { fail, passingRuns, receiptFrom, run } from '../helpers/evidence.js';

/** The pure rules of `patchproof promote` (src/core/promote-plan.ts). */

const DIFF = ['--- a/src/a.js', '+++ b/src/a.js', '@@ -1 +1 @@', '-old', '+new', '--- /dev/null', '+++ b/src/b.js', '@@ -0,0 +1 @@', '+added', ''].join('\n');
const BASE = `sha256:${'1'.repeat(64)}` as const;
const HASH = 'a'.repeat(64);

/** A passed, proof-grade receipt re-sealed to bind `proposal` (as validate would have bound it). */
function boundReceipt(proposal: ReturnType<typeof createProposal>, change: (receipt: Receipt) => Receipt = (r) => r): Receipt {
  const { receipt_digest: _digest, ...body } = change(receiptFrom(passingRuns()));
  return sealReceipt({ ...body, bindings: { ...body.bindings, proposal_hash: proposal.proposal_hash, diff_digest: proposal.diff_digest, base_snapshot: proposal.base_snapshot } });
}

describe('checkPromotable', () => {
  const proposal = createProposal(DIFF, BASE, 'test');

  it('accepts a passed, proof-grade receipt of an isolated run that binds the proposal', () => {
    expect(() => checkPromotable(boundReceipt(proposal), proposal)).not.toThrow();
  });

  it('refuses a failed receipt', () => {
    const runs = passingRuns();
    const failed = receiptFrom({ ...runs, hidden: [run('hidden', [fail('h1')])] });
    expect(failed.verdict).toBe('failed');
    expect(() => checkPromotable(failed, proposal)).toThrow(/verdict is failed/);
  });

  it('refuses a pass that is not proof grade (the local runner)', () => {
    const local = receiptFrom(passingRuns(), { isolated: false });
    expect([local.verdict, local.proof_grade]).toEqual(['passed', false]);
    expect(() => checkPromotable(local, proposal)).toThrow(/not proof grade/);
  });

  it('refuses a shard receipt on its own (a share is never a pass), and takes it as a share of a merged receipt', () => {
    const suite = { base: ['test/a.test.js', 'test/b.test.js'], patched: ['test/a.test.js', 'test/b.test.js'] };
    const share = boundReceipt(proposal, (r) => ({ ...r, shard: { index: 2, count: 2, suite_files: suite } }));
    expect(share.verdict).toBe('passed');
    expect(() => checkPromotable(share, proposal)).toThrow(/shard 2\/2 of the regression suite, and a share is never a pass on its own/);
    expect(() => checkPromotable(share, proposal, { shareOfMerged: true })).not.toThrow();
  });

  it('refuses a stored diff that is not the one the receipt binds', () => {
    const other = createProposal(DIFF.replace('+new', '+newer'), BASE, 'test');
    expect(() => checkPromotable(boundReceipt(proposal), other)).toThrow(PromoteError);
    expect(() => checkPromotable(boundReceipt(proposal), { ...proposal, base_snapshot: `sha256:${'2'.repeat(64)}` })).toThrow(/base snapshot or proposal hash/);
  });
});

describe('selectChanges', () => {
  const changes = checkDiff(DIFF);
  it('keeps every change without --path, and only the named ones with it', () => {
    expect(selectChanges(changes, []).map((c) => c.path)).toEqual(['src/a.js', 'src/b.js']);
    expect(selectChanges(changes, ['src/b.js']).map((c) => c.path)).toEqual(['src/b.js']);
  });
  it('refuses a --path the diff does not change', () => {
    expect(() => selectChanges(changes, ['src/c.js'])).toThrow(/not a file the receipt's diff changes/);
  });
});

describe('pathProblem', () => {
  const file: BaseEntry = { path: 'src/a.js', state: 'file', sha256: HASH, mode: '100644' };
  const absent: BaseEntry = { path: 'src/b.js', state: 'absent' };
  const same: ObservedPath = { path: 'src/a.js', kind: 'file', sha256: HASH, mode: '100644', links: 1 };

  it.each<[string, BaseEntry, ObservedPath, RegExp | undefined]>([
    ['unchanged file', file, same, undefined],
    ['still absent', absent, { path: 'src/b.js', kind: 'absent' }, undefined],
    ['stale hash', file, { ...same, sha256: 'b'.repeat(64) }, /changed since the receipt's base snapshot/],
    ['changed mode', file, { ...same, mode: '100755' }, /changed mode/],
    ['symlink', file, { path: 'src/a.js', kind: 'symlink' }, /symbolic link/],
    ['hard link', file, { ...same, links: 2 }, /2 hard links/],
    ['special file', file, { path: 'src/a.js', kind: 'other' }, /not a regular file/],
    ['symlinked parent', file, { path: 'src/a.js', kind: 'absent', parent: { path: 'src', kind: 'symlink' } }, /beneath the symbolic link/],
    ['parent not a folder', file, { path: 'src/a.js', kind: 'absent', parent: { path: 'src', kind: 'not_a_folder' } }, /not a folder/],
    ['deleted since', file, { path: 'src/a.js', kind: 'absent' }, /deleted since/],
    ['created since', absent, { path: 'src/b.js', kind: 'file', sha256: HASH, mode: '100644', links: 1 }, /created since/]
  ])('%s', (_name, base, seen, problem) => {
    const found = pathProblem(base, seen);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });
});

describe('planPromotion', () => {
  const changes = checkDiff(DIFF);
  const base = new Map<string, BaseEntry>([
    ['src/a.js', { path: 'src/a.js', state: 'file', sha256: HASH, mode: '100755' }],
    ['src/b.js', { path: 'src/b.js', state: 'absent' }]
  ]);
  const fine = new Map<string, ObservedPath>([
    ['src/a.js', { path: 'src/a.js', kind: 'file', sha256: HASH, mode: '100755', links: 1 }],
    ['src/b.js', { path: 'src/b.js', kind: 'absent' }]
  ]);

  it('plans one write per change, keeping a modified file its mode', () => {
    expect(planPromotion(changes, base, fine)).toEqual([
      { path: 'src/a.js', op: 'modify', expect: base.get('src/a.js'), mode: '100755' },
      { path: 'src/b.js', op: 'add', expect: base.get('src/b.js'), mode: '100644' }
    ]);
  });

  it('refuses the whole promotion, listing every problem, when any path is not as the base had it', () => {
    const bad = new Map(fine);
    bad.set('src/a.js', { path: 'src/a.js', kind: 'symlink' });
    bad.set('src/b.js', { path: 'src/b.js', kind: 'file', sha256: HASH, mode: '100644', links: 1 });
    expect(() => planPromotion(changes, base, bad)).toThrow(/^nothing was written: .*symbolic link.*; .*created since/);
  });

  it('refuses a change without a base record, or whose record contradicts the diff', () => {
    expect(() => planPromotion(changes, new Map([...base].slice(0, 1)), fine)).toThrow(/no base record/);
    const contradicting = new Map(base);
    contradicting.set('src/b.js', { path: 'src/b.js', state: 'file', sha256: HASH, mode: '100644' });
    expect(() => planPromotion(changes, contradicting, fine)).toThrow(/store entry is damaged/);
  });
});
