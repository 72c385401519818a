import { execFile } from 'node:child_process';
import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, readJson, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { dockerGate, JS } from '../hostile/hostile-support.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { baselineCacheKey } from '../../src/phases/baseline-cache.js';
import { digestHex, sha256Hex } from '../../src/core/hashing.js';
import type { Receipt } from '../../src/core/receipt-schema.js';

const exec = promisify(execFile);

/**
 * `validate --baseline-cache DIR` end to end in the Docker runner, from the sources, on
 * fixtures/js-duration: the first validation runs the base side and keeps it; the next candidate
 * on the same base reuses it (the receipt says so and names the entry); an entry re-written
 * without re-hashing is a miss. Then the attack the trusted-writer rule is about: on a base that
 * is already fixed, a no-op candidate is `inconclusive` (repro_passes_before, the pack's fault); an attacker who can write DIR plants the
 * buggy base's runs under the fixed base's key. Half done (the writer's baseline digest left as it
 * was) it is refused; done consistently (re-hashed, the digest the refusal named) the no-op
 * candidate PASSES. Hashing cannot stop that: only who may write DIR can (docs/security.md).
 */

const gate = await dockerGate('baseline cache end-to-end test');

interface Run {
  status: number | null;
  stderr: string;
  receipt?: Receipt;
  verify?: number | null;
}

gate.describeDocker('validate --baseline-cache', () => {
  let tmp: string;
  let cache: string;
  let pack: string;
  let packDigest: string;
  let seq = 0;

  async function validate(repo: string, diff: string): Promise<Run> {
    const dir = join(tmp, `v${++seq}`);
    await cp(diff, join(tmp, `c${seq}.diff`));
    const proposal = join(tmp, `p${seq}.json`);
    const approval = join(tmp, `a${seq}.json`);
    expect((await runCliInProcess(['propose', '--repo', repo, '--diff', diff, '--out', proposal])).status).toBe(0);
    const hash = (await readJson<{ proposal_hash: string }>(proposal)).proposal_hash;
    expect(
      (await runCliInProcess(['approve', '--proposal', proposal, '--proposal-hash', hash, '--approved-by', 'cache-test', '--run-id', `cache-${seq}`, '--out', approval])).status
    ).toBe(0);
    const result = await runCliInProcess([
      'validate',
      '--repo',
      repo,
      '--proposal',
      proposal,
      '--approval',
      approval,
      '--witness',
      pack,
      '--witness-digest',
      packDigest,
      '--runner',
      'docker',
      '--image',
      gate.imageId,
      '--timeout',
      '180',
      '--out',
      dir,
      '--receipt-store',
      join(tmp, 'store'),
      '--baseline-cache',
      cache
    ]);
    const receiptPath = join(dir, 'receipt.json');
    const receipt = await readJson<Receipt>(receiptPath).catch(() => undefined);
    const verify = receipt !== undefined ? (await runCliInProcess(['verify-receipt', receiptPath])).status : undefined;
    return { status: result.status, stderr: result.stderr, ...(receipt !== undefined ? { receipt } : {}), ...(verify !== undefined ? { verify } : {}) };
  }

  async function objects(): Promise<string[]> {
    return (await readdir(join(cache, 'objects'))).filter((n) => n.endsWith('.json')).sort();
  }

  let fix: Run;
  let notFixed: Run;
  beforeAll(async () => {
    gate.requireDocker();
    tmp = await tempDir('baseline-cache');
    cache = join(tmp, 'cache');
    pack = join(tmp, 'pack');
    await cp(join(ROOT, 'witness-packs', 'js-duration'), pack, { recursive: true });
    packDigest = (await digestWitnessFolder(pack)).digest;
    fix = await validate(JS.repo, JS.candidate('fix'));
    notFixed = await validate(JS.repo, JS.candidate('not-fixed'));
  }, 900_000);

  test('the first validation runs the base side and keeps it; the next candidate reuses it', () => {
    expect(fix.stderr).toMatch(/baseline cache: miss \(no entry\)/);
    expect(fix.stderr).toMatch(/baseline cache: kept entry sha256:[0-9a-f]{64}/);
    expect(fix.receipt?.verdict).toBe('passed');
    expect(fix.receipt?.baseline?.shared).toBe(false);
    expect(fix.receipt?.baseline?.cache).toBeUndefined();
    expect(fix.verify).toBe(0);

    const entry = /kept entry (sha256:[0-9a-f]{64})/.exec(fix.stderr)?.[1];
    expect(notFixed.stderr).toContain(`baseline cache: reusing entry ${entry}`);
    expect(notFixed.receipt?.baseline).toEqual({ shared: true, digest: fix.receipt?.baseline?.digest, cache: { entry } });
    // The reused base runs are the first validation's, record for record.
    const baseRuns = (r?: Receipt) => r?.phases.find((p) => p.name === 'reproduction_before')?.runs;
    expect(baseRuns(notFixed.receipt)).toEqual(baseRuns(fix.receipt));
    expect(notFixed.receipt?.verdict).toBe('failed');
    expect(notFixed.verify).toBe(0);
  });

  test('screen reuses the entry for every candidate, and its screening receipt verifies', async () => {
    const entry = /kept entry (sha256:[0-9a-f]{64})/.exec(fix.stderr)?.[1];
    const candidates = join(tmp, 'screen-candidates');
    await cp(join(ROOT, 'fixtures', 'js-duration', 'screen-candidates', 'fix-comments.diff'), join(candidates, 'fix-comments.diff'));
    await cp(JS.candidate('overfit'), join(candidates, 'overfit.diff'));
    const hashes: string[] = [];
    for (const name of ['fix-comments', 'overfit']) {
      const proposal = join(tmp, `screen-${name}.json`);
      expect((await runCliInProcess(['propose', '--repo', JS.repo, '--diff', join(candidates, `${name}.diff`), '--out', proposal])).status).toBe(0);
      hashes.push((await readJson<{ proposal_hash: string }>(proposal)).proposal_hash);
    }
    const out = join(tmp, 'screen-out');
    const screened = await runCliInProcess([
      'screen',
      '--repo',
      JS.repo,
      '--witness',
      pack,
      '--witness-digest',
      packDigest,
      '--candidates',
      candidates,
      ...hashes.flatMap((h) => ['--approve', h]),
      '--approved-by',
      'cache-test',
      '--runner',
      'docker',
      '--image',
      gate.imageId,
      '--timeout',
      '180',
      '--out',
      out,
      '--baseline-cache',
      cache
    ]);
    expect(screened.stderr).toContain(`baseline cache: reusing entry ${entry}`);
    expect(screened.status).toBe(0);
    for (const [name, verdict] of [
      ['fix-comments', 'passed'],
      ['overfit', 'failed']
    ] as const) {
      const receipt = await readJson<Receipt>(join(out, 'candidates', name, 'receipt.json'));
      expect(receipt.verdict).toBe(verdict);
      expect(receipt.baseline).toEqual({ shared: true, digest: fix.receipt?.baseline?.digest, cache: { entry } });
    }
    expect((await runCliInProcess(['verify-receipt', join(out, 'screening.json')])).status).toBe(0);
  }, 600_000);

  test('an entry whose bytes were changed without re-hashing is a miss: the base side runs again', async () => {
    const [object] = await objects();
    const file = join(cache, 'objects', object as string);
    // The base reproduction's exit code "0": the bug would not be established and every candidate inconclusive.
    await writeFile(file, (await readFile(file, 'utf8')).replace(/"exitCode":1/g, '"exitCode":0'));
    const again = await validate(JS.repo, JS.candidate('not-fixed'));
    expect(again.stderr).toMatch(/baseline cache: miss \(object sha256:[0-9a-f]{64} re-hashes to sha256:[0-9a-f]{64}: damaged or re-written, not used\)/);
    expect(again.receipt?.baseline?.cache).toBeUndefined();
    expect(again.receipt?.verdict).toBe('failed');
    // Established afresh: the base reproduction's phase passes (the test fails on the base).
    expect(again.receipt?.phases.find((p) => p.name === 'reproduction_before')?.status).toBe('passed');
  }, 600_000);

  test('a writable cache is trusted input: a consistent poisoned entry makes a no-op candidate pass on a fixed base', async () => {
    // A base where the bug is already fixed, and a candidate that changes only the README.
    const fixed = join(tmp, 'fixed');
    await cp(JS.repo, fixed, { recursive: true });
    await exec('git', ['apply', JS.candidate('fix')], { cwd: fixed });
    const readme = await readFile(join(fixed, 'README.md'), 'utf8');
    const [first, ...rest] = readme.split('\n');
    const noop = join(tmp, 'noop.diff');
    await writeFile(noop, `--- a/README.md\n+++ b/README.md\n@@ -1,1 +1,2 @@\n ${first}\n+<!-- touched -->\n`);
    expect(rest.length).toBeGreaterThan(0);

    const honest = await validate(fixed, noop);
    // Honestly: the reproduction passes on this base, so the bug is not established.
    expect(honest.receipt?.verdict).toBe('inconclusive');
    expect(honest.receipt?.reasons).toContain('repro_passes_before');
    const fixedBase = honest.receipt?.bindings.base_snapshot as `sha256:${string}`;

    // The attacker: the buggy base's runs (an intact entry from the first validation) planted under
    // the key of the fixed base's honest entry (its key fields read from that entry).
    const intact: (Record<string, unknown> & { key: string; key_fields: { base_snapshot: string } })[] = [];
    for (const name of await objects()) {
      const bytes = await readFile(join(cache, 'objects', name));
      if (`${sha256Hex(bytes)}.json` === name) intact.push(JSON.parse(bytes.toString('utf8')) as (typeof intact)[number]);
    }
    const source = intact.find((e) => e.key_fields.base_snapshot === fix.receipt?.bindings.base_snapshot);
    const target = intact.find((e) => e.key_fields.base_snapshot === fixedBase);
    expect(source).toBeDefined();
    expect(target).toBeDefined();
    const plant = async (baselineDigest: string): Promise<void> => {
      const fields = target!.key_fields as unknown as Parameters<typeof baselineCacheKey>[0];
      const key = baselineCacheKey(fields);
      expect(key).toBe(target!.key);
      const text = `${JSON.stringify({ ...source, key, key_fields: fields, baseline_digest: baselineDigest })}\n`;
      await writeFile(join(cache, 'objects', `${sha256Hex(text)}.json`), text);
      await writeFile(join(cache, 'keys', digestHex(key)), `sha256:${sha256Hex(text)}\n`);
    };

    // Half done: the writer's baseline digest does not match what the planted runs judge to. Refused, no receipt.
    await plant(source!['baseline_digest'] as string);
    const half = await validate(fixed, noop);
    expect(half.status).toBe(2);
    expect(half.receipt).toBeUndefined();
    const judged = /its runs judge to (sha256:[0-9a-f]{64})/.exec(half.stderr)?.[1];
    expect(judged).toBeDefined();

    // Done consistently: nothing in the entry can tell. The no-op candidate passes.
    await plant(judged as string);
    const poisoned = await validate(fixed, noop);
    expect(poisoned.receipt?.verdict).toBe('passed');
    expect(poisoned.verify).toBe(0);
    // What the receipt still shows: the base side was not made here, and from which entry it came.
    expect(poisoned.receipt?.baseline?.shared).toBe(true);
    expect(poisoned.receipt?.baseline?.cache?.entry).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(poisoned.receipt?.baseline?.digest).not.toBe(honest.receipt?.baseline?.digest);
  }, 900_000);
});
