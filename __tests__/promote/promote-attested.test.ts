import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { serializeReceipt } from '../../src/core/receipt.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { RECEIPT_BUNDLE_FILE } from '../../src/receipt/attestation.js';
import { asIsolated, receiptFor } from '../helpers/action-receipts.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { createTestSigstore, githubIdentity, type TestSigstore } from '../helpers/sigstore-fixture.js';
import { JS_DURATION, makePullRequest, removePullRequest, type PullRequestRepos } from '../action/data/validate-repos.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * `patchproof promote` of an attested receipt, from the sources, on real files: the bundled CLI
 * validates fix.diff of js-duration (local runner), the receipt is re-sealed as the hardened runner's
 * (a forgery anyone can make) and signed under a test CA as the gate workflow's attestation. Only
 * with that attestation, the exact diff, and an unchanged tree does promote write; the receipt store
 * is never consulted (it is empty).
 */

const SIGNER = 'octo-org/hello-world/.github/workflows/patchproof.yml';

describe('patchproof promote --trusted-root (an attested receipt instead of the receipt store)', () => {
  let repos: PullRequestRepos;
  let work: string;
  let base: string;
  let diffFile: string;
  let local: Receipt;
  let proven: Receipt;
  let sigstore: TestSigstore & { untrusted: TestSigstore };
  let rootPath: string;
  let copies = 0;
  const savedStore = process.env['PATCHPROOF_RECEIPT_STORE'];
  const gate = githubIdentity({
    signerUri: `https://github.com/${SIGNER}@refs/heads/main`,
    sourceRepository: 'https://github.com/octo-org/hello-world'
  });

  /** receipt.json (and optionally its bundle) in a folder of its own; returns the receipt's path. */
  function receiptFile(receipt: Receipt, bundle?: unknown): string {
    const dir = mkdtempSync(join(work, 'receipt-'));
    writeFileSync(join(dir, 'receipt.json'), serializeReceipt(receipt));
    if (bundle !== undefined) writeFileSync(join(dir, RECEIPT_BUNDLE_FILE), JSON.stringify(bundle));
    return join(dir, 'receipt.json');
  }

  function freshCopy(): string {
    const copy = join(work, `copy-${++copies}`);
    cpSync(base, copy, { recursive: true });
    return copy;
  }

  const promote = (receipt: string, repo: string, extra: string[] = []): ReturnType<typeof runCliInProcess> =>
    runCliInProcess(['promote', receipt, '--repo', repo, '--trusted-root', rootPath, '--signer-workflow', SIGNER, '--source-ref', 'refs/heads/main', '--diff', diffFile, ...extra]);

  beforeAll(async () => {
    repos = makePullRequest({ kind: 'diff', file: join(JS_DURATION, 'candidates', 'fix.diff') });
    work = mkdtempSync(join(tmpdir(), 'pp-promote-attested-'));
    // An empty store: promote must not need it.
    process.env['PATCHPROOF_RECEIPT_STORE'] = join(work, 'empty-store');
    mkdirSync(join(work, 'made'));
    local = (await receiptFor(repos, join(work, 'made'))).receipt;
    base = join(work, 'made', 'base');
    diffFile = join(work, 'made', 'candidate.diff');
    proven = asIsolated(local);
    sigstore = await createTestSigstore();
    rootPath = join(work, 'trusted-root.json');
    writeFileSync(rootPath, JSON.stringify(sigstore.trustedRoot));
  }, 120_000);

  afterAll(() => {
    if (savedStore === undefined) delete process.env['PATCHPROOF_RECEIPT_STORE'];
    else process.env['PATCHPROOF_RECEIPT_STORE'] = savedStore;
    removePullRequest(repos);
    if (mayBeUnset(work) !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it("attested by the gate, the exact diff, an unchanged tree: applied; the tree is the receipt's patched snapshot", async () => {
    const file = receiptFile(proven, await sigstore.attest(Buffer.from(serializeReceipt(proven)), { identity: gate }));
    const repo = freshCopy();
    const result = await promote(file, repo);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(result.stdout).toMatch(/^applied {3}modify src\/duration\.js$/m);
    expect(result.stdout).toMatch(/^outcome: applied$/m);
    expect((await takeSnapshot(repo)).digest).toBe(proven.bindings.patched_snapshot);
    // The log goes beside the receipt (there is no store entry), and the store was never created.
    const log = /^log: (.+)$/m.exec(result.stdout)?.[1] ?? '';
    expect(log.startsWith(join(file, '..'))).toBe(true);
    expect(JSON.parse(readFileSync(log, 'utf8'))).toMatchObject({ outcome: 'applied', receipt_digest: proven.receipt_digest });
    expect(existsSync(join(work, 'empty-store'))).toBe(false);
  });

  it('the same receipt without an attestation (a forged, self-sealed receipt): refused, nothing written', async () => {
    const repo = freshCopy();
    const result = await promote(receiptFile(proven), repo);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/no attestation at '.*receipt\.sigstore\.json'; a receipt that verifies is not evidence by itself/);
    expect((await takeSnapshot(repo)).digest).toBe(proven.bindings.base_snapshot);
  });

  it('signed by another workflow, by a pull_request run, under an untrusted CA, or over other bytes: refused', async () => {
    const bytes = Buffer.from(serializeReceipt(proven));
    const cases: [string, Promise<Record<string, unknown>>, RegExp][] = [
      [
        'other-workflow',
        sigstore.attest(bytes, { identity: { ...gate, signerUri: 'https://github.com/octo-org/hello-world/.github/workflows/mine.yml@refs/heads/main' } }),
        /certificate identity error/
      ],
      ['pull_request', sigstore.attest(bytes, { identity: { ...gate, trigger: 'pull_request', sourceRef: 'refs/pull/8/merge' } }), /was on refs\/pull\/8\/merge/],
      ['untrusted-ca', sigstore.untrusted.attest(bytes, { identity: gate }), /does not verify/],
      // The gate really signed the local (not proof-grade) receipt; the flipped one carries that bundle.
      ['other-bytes', sigstore.attest(Buffer.from(serializeReceipt(local)), { identity: gate }), /subject is sha256:[0-9a-f]{64}, but receipt.json is sha256:/]
    ];
    for (const [name, bundle, reason] of cases) {
      const repo = freshCopy();
      const result = await promote(receiptFile(proven, await bundle), repo);
      expect({ name, status: result.status }).toEqual({ name, status: 2 });
      expect(result.stderr).toMatch(new RegExp(`the receipt is not attested by ${SIGNER.replace(/[./]/g, '\\$&')}: `));
      expect(result.stderr).toMatch(reason);
      expect((await takeSnapshot(repo)).digest).toBe(proven.bindings.base_snapshot);
    }
  });

  it('an attested receipt that is not proof grade (the gate signed a local pass): refused', async () => {
    const file = receiptFile(local, await sigstore.attest(Buffer.from(serializeReceipt(local)), { identity: gate }));
    const result = await promote(file, freshCopy());
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/the receipt is not proof grade/);
  });

  it('another diff than the receipt binds, or a tree changed since the base: refused, nothing written', async () => {
    const file = receiptFile(proven, await sigstore.attest(Buffer.from(serializeReceipt(proven)), { identity: gate }));
    const otherDiff = join(work, 'other.diff');
    writeFileSync(otherDiff, readFileSync(join(JS_DURATION, 'candidates', 'not-fixed.diff'), 'utf8'));
    const repo = freshCopy();
    const wrong = await runCliInProcess([
      'promote',
      file,
      '--repo',
      repo,
      '--trusted-root',
      rootPath,
      '--signer-workflow',
      SIGNER,
      '--source-ref',
      'refs/heads/main',
      '--diff',
      otherDiff
    ]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/is not the diff the receipt binds/);
    // Newer work in a file the diff does not touch: without the store's per-file record the whole tree must be the base.
    writeFileSync(join(repo, 'NEWER.md'), 'newer work\n');
    const changed = await promote(file, repo);
    expect(changed.status).toBe(2);
    expect(changed.stderr).toMatch(/nothing was written: the working tree snapshots as sha256:[0-9a-f]{64}, not the receipt's base snapshot/);
    expect(readFileSync(join(repo, 'src', 'duration.js'), 'utf8')).toBe(readFileSync(join(base, 'src', 'duration.js'), 'utf8'));
  });

  it('refuses incomplete or mixed flags in one line', async () => {
    const file = receiptFile(proven);
    const cases: [string[], RegExp][] = [
      [['--signer-workflow', SIGNER], /--signer-workflow takes an attested receipt: give --trusted-root too/],
      [['--trusted-root', rootPath, '--source-ref', 'refs/heads/main', '--diff', diffFile], /--signer-workflow '' is not valid/],
      [['--trusted-root', rootPath, '--signer-workflow', SIGNER, '--diff', diffFile], /--source-ref '' is not valid/],
      [['--trusted-root', rootPath, '--signer-workflow', SIGNER, '--source-ref', 'refs/heads/main'], /--diff is required with --trusted-root/],
      [
        ['--trusted-root', rootPath, '--signer-workflow', SIGNER, '--source-ref', 'refs/heads/main', '--diff', diffFile, '--receipt-store', work],
        /--trusted-root and --receipt-store are two sources of trust/
      ]
    ];
    for (const [flags, reason] of cases) {
      const result = await runCliInProcess(['promote', file, '--repo', base, ...flags]);
      expect({ flags, status: result.status }).toEqual({ flags, status: 2 });
      expect(result.stderr).toMatch(reason);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
