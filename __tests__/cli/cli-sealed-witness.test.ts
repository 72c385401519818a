import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REFUSAL_LINE, ROOT, ensureCli, fixture, patchproofLeftovers, proposeAndApprove, runCli, tempDir, type Approved } from '../helpers/cli.js';

/**
 * End to end, through the bundled CLI: a witness pack whose hidden tests are age-encrypted
 * (witness keygen, witness seal-hidden), validated with and without its key (trusted-local runner),
 * and the maintainers' hidden detail opened with hidden-detail.
 */

const js = fixture('js-duration');
const PACK = join(ROOT, 'witness-packs', 'js-duration');
/** Words of the hidden tests' names and file that must not appear in anything public. */
const HIDDEN_WORDS = ['millisecond-unit-hidden', 'single-digit and upper-case milliseconds', 'timeouts mixing seconds'];

let tmp: string;
let keyFile: string;
let sealed: string;
let digest: string;
let approved: Approved;

async function validateSealed(key: string | undefined, out: string) {
  return runCli(
    [
      'validate',
      '--repo',
      js.repo,
      '--proposal',
      approved.proposalPath,
      '--approval',
      approved.approvalPath,
      '--witness',
      sealed,
      '--witness-digest',
      digest,
      '--runner',
      'local',
      '--out',
      out,
      ...(key !== undefined ? ['--witness-key-file', key] : [])
    ],
    { tmp, timeoutMs: 240_000 }
  );
}

beforeAll(async () => {
  await ensureCli();
  tmp = await tempDir('sealed');
  keyFile = join(tmp, 'witness.key');
  const keygen = await runCli(['witness', 'keygen', '--out', keyFile], { tmp });
  expect(keygen.status).toBe(0);
  const recipient = /recipient: (age1[0-9a-z]+)/.exec(keygen.stdout)?.[1] as string;
  sealed = join(tmp, 'sealed-pack');
  const seal = await runCli(['witness', 'seal-hidden', PACK, '--recipient', recipient, '--out', sealed], { tmp });
  expect(seal.status).toBe(0);
  digest = /witness_digest: (sha256:[0-9a-f]{64})/.exec(seal.stdout)?.[1] as string;
  approved = await proposeAndApprove(js.repo, js.candidate('overfit'), tmp, tmp, 'sealed-run');
}, 120_000);

describe('a sealed witness pack', () => {
  it('keeps the hidden tests only in hidden.age; witness digest works without the key and agrees', async () => {
    expect(existsSync(join(sealed, 'hidden.age'))).toBe(true);
    expect(existsSync(join(sealed, 'hidden'))).toBe(false);
    const head = (await readFile(join(sealed, 'hidden.age'))).subarray(0, 22).toString('latin1');
    expect(head).toBe('age-encryption.org/v1\n');
    const printed = await runCli(['witness', 'digest', sealed], { tmp });
    expect(printed.stdout.trim()).toBe(digest);
  });

  it('refuses without the key, or with another key, in one line with the fix, and leaves nothing behind', async () => {
    const other = join(tmp, 'other.key');
    expect((await runCli(['witness', 'keygen', '--out', other], { tmp })).status).toBe(0);
    for (const key of [undefined, other]) {
      const out = join(tmp, `refused-${key === undefined ? 'nokey' : 'otherkey'}`);
      const result = await validateSealed(key, out);
      expect(result.status).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(REFUSAL_LINE);
      expect(lines[0]).toMatch(key === undefined ? /encrypted \(hidden\.age\); give the witness key: --witness-key-file/ : /could not be decrypted with the witness key/);
      expect(existsSync(join(out, 'receipt.json'))).toBe(false);
      expect(patchproofLeftovers(tmp)).toEqual([]);
    }
  });

  it('refuses a key file that is not an age identity', async () => {
    const bad = join(tmp, 'bad.key');
    await writeFile(bad, 'not a key\n');
    const result = await validateSealed(bad, join(tmp, 'bad-out'));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/does not hold one age identity/);
  });

  it('validates with the key: hidden results public as keyed ids only, the detail for maintainers in hidden-detail.age', async () => {
    const out = join(tmp, 'out');
    const result = await validateSealed(keyFile, out);
    expect(result.status).toBe(1);
    const receiptText = await readFile(join(out, 'receipt.json'), 'utf8');
    const report = await readFile(join(out, 'report.md'), 'utf8');
    const receipt = JSON.parse(receiptText) as {
      verdict: string;
      reasons: string[];
      hidden_ids: { key: string };
      hidden_detail_sha256: string;
      phases: { name: string; tests: { failed: number } }[];
    };
    expect(receipt.verdict).toBe('failed');
    expect(receipt.reasons).toEqual(['hidden_failed']);
    expect(receipt.hidden_ids.key).toBe('witness_key');
    expect(receipt.phases[3]?.tests.failed).toBeGreaterThan(0);
    for (const text of [receiptText, report, result.stdout, result.stderr]) {
      for (const word of HIDDEN_WORDS) expect(text).not.toContain(word);
    }
    const verified = await runCli(['verify-receipt', join(out, 'receipt.json')], { tmp });
    expect(verified.status).toBe(0);
    const detailBytes = await readFile(join(out, 'hidden-detail.age'));
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(detailBytes).digest('hex')).toBe(receipt.hidden_detail_sha256);
    const shown = await runCli(['hidden-detail', join(out, 'hidden-detail.age'), '--witness-key-file', keyFile], { tmp });
    expect(shown.status).toBe(0);
    const detail = JSON.parse(shown.stdout) as { phase: { results: { id: string; message?: string }[] }; ids: Record<string, string> };
    expect(detail.phase.results.some((t) => t.id.includes('millisecond-unit-hidden') && t.message !== undefined)).toBe(true);
    expect(Object.values(detail.ids).some((id) => id.includes('timeouts mixing seconds'))).toBe(true);
    const wrong = await runCli(['hidden-detail', join(out, 'hidden-detail.age'), '--witness-key-file', join(tmp, 'other.key')], { tmp });
    expect(wrong.status).toBe(2);
    expect(patchproofLeftovers(tmp)).toEqual([]);
  }, 240_000);

  it('refuses a key file inside the repository', async () => {
    const result = await validateSealed(join(js.repo, 'package.json'), join(tmp, 'inside-out'));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--witness-key-file '.*' is inside the repository/);
  });
});
