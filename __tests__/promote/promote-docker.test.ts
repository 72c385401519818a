import { chmod, cp, link, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, ROOT, ensureCli, tempDir, treeListing } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { promoteCommand } from '../../src/cli/promote.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { sealReceipt, serializeReceipt } from '../../src/core/receipt.js';
import { createProposal } from '../../src/core/proposal.js';
import { storeReceipt } from '../../src/receipt/store.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * `patchproof promote` end to end: a real proof-grade validation in the hardened Docker runner
 * writes its receipt into the receipt store; promote then brings that exact diff into fresh copies
 * of the repository, and refuses every unsafe state of the tree, writing nothing.
 */

const gate = await dockerGate('promote end-to-end tests');

/** The correct fix of py-calculator, plus a new file in a new folder (an add and a nested path). */
const NOTE = [
  'diff --git a/notes/grouping.md b/notes/grouping.md',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/notes/grouping.md',
  '@@ -0,0 +1 @@',
  '+Operators of one precedence group left to right.',
  ''
].join('\n');

gate.describeDocker('patchproof promote (Docker validation, real files)', () => {
  let staged: StagedFixture;
  let store: string;
  let receiptFile: string;
  let receipt: Receipt;
  let work: string;
  let copies = 0;
  const savedStore = process.env.PATCHPROOF_RECEIPT_STORE;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    staged = await stageFixture('promote', { repo: join(FIXTURES, 'py-calculator', 'repo'), pack: join(ROOT, 'witness-packs', 'py-calculator') });
    store = join(staged.tmp, 'store');
    work = await tempDir('promote-work');
    const diff = join(staged.tmp, 'fix-and-note.diff');
    await writeFile(diff, `${await readFile(join(FIXTURES, 'py-calculator', 'candidates', 'fix.diff'), 'utf8')}${NOTE}`);
    // The bundled CLI's validate writes to the store its environment names.
    process.env.PATCHPROOF_RECEIPT_STORE = store;
    const result = await validateInDocker<Receipt>(staged, { diff, label: 'fix', imageId: gate.imageId, timeoutMs: 300_000 });
    receipt = result.receipt;
    receiptFile = join(result.out, 'receipt.json');
  }, 420_000);

  afterAll(async () => {
    if (savedStore === undefined) delete process.env.PATCHPROOF_RECEIPT_STORE;
    else process.env.PATCHPROOF_RECEIPT_STORE = savedStore;
    if (mayBeUnset(staged) !== undefined) await rm(staged.tmp, { recursive: true, force: true });
    if (mayBeUnset(work) !== undefined) await rm(work, { recursive: true, force: true });
  });

  /** A fresh copy of the repository as validated (the receipt's base snapshot). */
  async function freshCopy(): Promise<string> {
    const copy = join(work, `copy-${++copies}`);
    await cp(staged.repo, copy, { recursive: true });
    return copy;
  }

  const promote = (copy: string, ...extra: string[]) => runCliInProcess(['promote', receiptFile, '--repo', copy, '--receipt-store', store, ...extra]);

  /** Refused with a one-line reason, and the tree is exactly as before. */
  async function expectRefused(copy: string, reason: RegExp, ...extra: string[]): Promise<void> {
    const before = treeListing(copy);
    const result = await promote(copy, ...extra);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr).toMatch(/^patchproof: refused \(promote_refused\): .+\n$/);
    expect(result.stderr).toMatch(reason);
    expect(treeListing(copy)).toEqual(before);
  }

  it('the validation passed with proof grade, and validate kept its receipt in the store', () => {
    expect([receipt.verdict, receipt.proof_grade]).toEqual(['passed', true]);
    expect(readdirSync(join(store, receipt.receipt_digest.slice('sha256:'.length))).sort()).toEqual(['base.json', 'proposal.json', 'receipt.json']);
  });

  it('applies the exact diff: the promoted tree is the snapshot the receipt calls patched', async () => {
    const copy = await freshCopy();
    const result = await promote(copy);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^applied {3}modify calculator\.py\napplied {3}add {4}notes\/grouping\.md\noutcome: applied\nlog: .+\n$/);
    expect((await takeSnapshot(copy)).digest).toBe(receipt.bindings.patched_snapshot);
    const log = JSON.parse(await readFile(/log: (.+)\n$/.exec(result.stdout)?.[1] ?? '', 'utf8')) as { outcome: string; applied: unknown[] };
    expect([log.outcome, log.applied.length]).toEqual(['applied', 2]);
    // Promoting again: the files are no longer as the base had them.
    await expectRefused(copy, /'calculator\.py' changed since the receipt's base snapshot.*'notes\/grouping\.md' did not exist in the receipt's base snapshot but exists now/);
  });

  it('--dry-run prints the plan and changes nothing; --path promotes one file of the diff', async () => {
    const copy = await freshCopy();
    const before = treeListing(copy);
    const dry = await promote(copy, '--dry-run');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/would {5}modify calculator\.py\nwould {5}add {4}notes\/grouping\.md\noutcome: planned/);
    expect(treeListing(copy)).toEqual(before);
    const one = await promote(copy, '--path', 'notes/grouping.md');
    expect(one.status).toBe(0);
    expect(one.stdout).toMatch(/applied {3}add {4}notes\/grouping\.md\nskipped {10}calculator\.py \(not named by --path\)/);
    expect(existsSync(join(copy, 'notes', 'grouping.md'))).toBe(true);
    expect(await readFile(join(copy, 'calculator.py'), 'utf8')).toBe(await readFile(join(staged.repo, 'calculator.py'), 'utf8'));
    await expectRefused(await freshCopy(), /--path 'tests\/test_lexer\.py' is not a file the receipt's diff changes/, '--path', 'tests/test_lexer.py');
  });

  it('refuses newer work: a stale hash, a changed mode, a file created since', async () => {
    const stale = await freshCopy();
    await writeFile(join(stale, 'calculator.py'), `${await readFile(join(stale, 'calculator.py'), 'utf8')}# newer work\n`);
    await expectRefused(stale, /'calculator\.py' changed since the receipt's base snapshot/);
    const mode = await freshCopy();
    await chmod(join(mode, 'calculator.py'), 0o755);
    await expectRefused(mode, /'calculator\.py' changed mode since the receipt's base snapshot \(100755 is not 100644\)/);
    const created = await freshCopy();
    await mkdir(join(created, 'notes'));
    await writeFile(join(created, 'notes', 'grouping.md'), 'mine\n');
    await expectRefused(created, /'notes\/grouping\.md' did not exist in the receipt's base snapshot but exists now \(created since\)/);
  });

  it('refuses links: a symlink, a hard link, a symlinked parent folder', async () => {
    const linked = await freshCopy();
    await rename(join(linked, 'calculator.py'), join(work, `elsewhere-${copies}.py`));
    await symlink(join(work, `elsewhere-${copies}.py`), join(linked, 'calculator.py'));
    await expectRefused(linked, /'calculator\.py' is a symbolic link/);
    const hard = await freshCopy();
    await link(join(hard, 'calculator.py'), join(work, `hard-${copies}.py`));
    await expectRefused(hard, /'calculator\.py' has 2 hard links/);
    const parent = await freshCopy();
    const outside = join(work, `outside-${copies}`);
    await mkdir(outside);
    await symlink(outside, join(parent, 'notes'));
    await expectRefused(parent, /'notes\/grouping\.md' lies beneath the symbolic link 'notes'/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses receipts this installation did not produce, or that do not allow promotion', async () => {
    const copy = await freshCopy();
    const text = await readFile(receiptFile, 'utf8');
    // Intact but not in the store: a receipt sealed anywhere else (another store here).
    const otherStore = join(work, 'other-store');
    await mkdir(otherStore);
    await expectRefused(copy, /is not in the receipt store/, '--receipt-store', otherStore);
    // Tampered bytes: it no longer verifies.
    const tampered = join(work, 'tampered.json');
    await writeFile(tampered, text.replace('"verdict":"passed"', '"verdict":"failed"'));
    const before = treeListing(copy);
    const bad = await runCliInProcess(['promote', tampered, '--repo', copy, '--receipt-store', store]);
    expect([bad.status, bad.stderr]).toEqual([2, expect.stringMatching(/^patchproof: refused \(promote_refused\): the receipt does not verify/)]);
    // A failed receipt of the same proposal, re-sealed and even put in the store by hand: refused for its verdict.
    const { receipt_digest: _d, ...body } = receipt;
    const failed = sealReceipt({
      ...body,
      verdict: 'failed',
      proof_grade: false,
      reasons: ['hidden_failed'],
      phases: body.phases.map((p) => (p.name === 'hidden' ? { ...p, status: 'failed', reasons: ['hidden_failed'] } : p))
    });
    const failedText = serializeReceipt(failed);
    const failedFile = join(work, 'failed.json');
    await writeFile(failedFile, failedText);
    const entry = JSON.parse(await readFile(join(store, receipt.receipt_digest.slice(7), 'proposal.json'), 'utf8')) as ReturnType<typeof createProposal>;
    const base = JSON.parse(await readFile(join(store, receipt.receipt_digest.slice(7), 'base.json'), 'utf8')) as { entries: never[] };
    await storeReceipt(store, failed, failedText, entry, base.entries);
    const refused = await runCliInProcess(['promote', failedFile, '--repo', copy, '--receipt-store', store]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/verdict is failed|does not verify/);
    expect(treeListing(copy)).toEqual(before);
  });

  it('refuses a stored diff whose paths leave the root, even in a receipt that verifies', async () => {
    const copy = await freshCopy();
    const escape = ['--- a/../outside.txt', '+++ b/../outside.txt', '@@ -1 +1 @@', '-a', '+b', ''].join('\n');
    const proposal = createProposal(escape, receipt.bindings.base_snapshot as `sha256:${string}`, 'test');
    const { receipt_digest: _d, ...body } = receipt;
    const forged = sealReceipt({ ...body, bindings: { ...body.bindings, proposal_hash: proposal.proposal_hash, diff_digest: proposal.diff_digest } });
    const forgedText = serializeReceipt(forged);
    const file = join(work, 'escape.json');
    await writeFile(file, forgedText);
    await storeReceipt(store, forged, forgedText, proposal, []);
    const before = treeListing(copy);
    const result = await runCliInProcess(['promote', file, '--repo', copy, '--receipt-store', store]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^patchproof: refused \(policy_violation\): diff refused: .*outside\.txt/);
    expect(treeListing(copy)).toEqual(before);
    expect(existsSync(join(work, 'outside.txt'))).toBe(false);
  });

  it('a file changed between the plan and its write: partial_conflict (exit 4), with the exact log', async () => {
    const copy = await freshCopy();
    const lines: string[] = [];
    const code = await promoteCommand(
      { command: 'promote', receipt: receiptFile, repo: copy, dryRun: false, paths: [], store },
      { out: (text) => void lines.push(text), err: (text) => void lines.push(text) },
      {
        beforeWrite: async (path) => {
          // The second write races with someone creating that file.
          if (path === 'notes/grouping.md') {
            await mkdir(join(copy, 'notes'), { recursive: true });
            await writeFile(join(copy, 'notes', 'grouping.md'), 'theirs\n');
          }
        }
      }
    );
    expect(code).toBe(4);
    const out = lines.join('');
    expect(out).toMatch(/^applied {3}modify calculator\.py\nconflict {9}notes\/grouping\.md: .*created since.*\noutcome: partial_conflict\nlog: /);
    expect(await readFile(join(copy, 'notes', 'grouping.md'), 'utf8')).toBe('theirs\n');
    const log = JSON.parse(await readFile(/log: (.+)\n$/.exec(out)?.[1] ?? '', 'utf8')) as { outcome: string; applied: { path: string }[]; conflict: { path: string } };
    expect([log.outcome, log.applied.map((a) => a.path), log.conflict.path]).toEqual(['partial_conflict', ['calculator.py'], 'notes/grouping.md']);
  });
});
