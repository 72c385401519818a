import { randomBytes } from 'node:crypto';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, fixture, tempDir } from '../helpers/cli.js';
import { normalisedKey } from '../../src/core/normalise.js';
import { proposeCandidate, screenBase } from '../../src/phases/screen-pipeline.js';
import { witnessAdapter } from '../../src/adapters/registry.js';
import { approveProposal, createProposal } from '../../src/core/proposal.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { createLocalRunner } from '../../src/runners/local-runner.js';
import { validateWithDetail, type SharedRuns } from '../../src/phases/validate.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { resolveWitness } from '../../src/fetch/witness/fetch.js';
import { TOOL_VERSION } from '../../src/version.js';

/**
 * A duplicate never inherits runs it did not earn, whoever calls validate: runs offered as shared
 * are refused unless validate, applying the candidate's own diff, gets the very patched tree the
 * runs were made on (byte-identical, not only the same normalised key: code can read its own
 * comments back). screen only offers runs of the same exact key; this is the check at the point of
 * use. Nothing runs: the refusal comes before the first run, so the trusted-local runner is enough.
 */

const js = fixture('js-duration');

async function expectRefused(candidate: string, forged: (diff: string) => Promise<SharedRuns>): Promise<void> {
  const pack = join(ROOT, 'witness-packs', 'js-duration');
  const witness = await resolveWitness(pack, (await digestWitnessFolder(pack)).digest);
  try {
    const snapshot = await takeSnapshot(js.repo);
    const diff = await readFile(join(ROOT, 'fixtures', 'js-duration', candidate), 'utf8');
    const proposal = createProposal(diff, snapshot.digest, TOOL_VERSION);
    const approval = approveProposal(proposal, proposal.proposal_hash, 'shared-runs', 'reviewer', TOOL_VERSION);
    const sharedRuns = await forged(diff);
    const runner = createLocalRunner();
    let runs = 0;
    const counting = { ...runner, run: async (...args: Parameters<typeof runner.run>) => ((runs += 1), runner.run(...args)) };
    await expect(
      validateWithDetail(
        {
          repoDir: js.repo,
          proposal,
          approval,
          witness,
          adapter: await witnessAdapter(witness.manifest, witness.dir),
          runner: counting,
          limits: { timeoutMs: 60_000, outputLimitBytes: 4 * 1024 * 1024, diff: { maxBytes: 1024 * 1024, maxFiles: 200 } },
          concurrency: 1,
          earlyExit: true,
          sharedRuns
        },
        { snapshot: takeSnapshot, now: () => new Date(), log: () => undefined, nonce: () => randomBytes(16).toString('hex') }
      )
    ).rejects.toThrow('may not be shared with a candidate whose patched tree is not byte-identical');
    expect(runs).toBe(0);
    await runner.dispose();
  } finally {
    await witness.dispose();
  }
}

it('refuses runs shared from a candidate whose changed files normalise differently', async () => {
  // The string-literal copy of the fix, offered runs under a key that is not its own.
  await expectRefused('screen-candidates/fix-string.diff', () =>
    Promise.resolve({ diffDigest: `sha256:${'1'.repeat(64)}`, patchedSnapshot: `sha256:${'2'.repeat(64)}`, normalisedKey: `sha256:${'3'.repeat(64)}`, outputs: [] })
  );
}, 120_000);

it("refuses the fix's own runs for its comment-only copy: the same normalised key, another patched tree", async () => {
  // The attack the normalised key alone let through: the fix's real patched snapshot and the copy's
  // own (equal) normalised key. A copy that reads its own comments back could behave otherwise.
  const tmp = await tempDir('shared-runs');
  try {
    await expectRefused('screen-candidates/fix-comments.diff', async (diff) => {
      const fix = proposeCandidate(await readFile(join(ROOT, 'fixtures', 'js-duration', 'candidates', 'fix.diff'), 'utf8'), await screenBase(js.repo), {
        maxBytes: 1024 * 1024,
        maxFiles: 200
      });
      const patched = join(tmp, 'patched');
      await cp(js.repo, patched, { recursive: true });
      for (const [path, content] of fix.applied) await writeFile(join(patched, ...path.split('/')), content!);
      const own = proposeCandidate(diff, await screenBase(js.repo), { maxBytes: 1024 * 1024, maxFiles: 200 });
      const key = normalisedKey(fix.applied);
      expect(normalisedKey(own.applied)).toBe(key);
      return { diffDigest: fix.proposal.diff_digest, patchedSnapshot: (await takeSnapshot(patched)).digest, normalisedKey: key, outputs: [] };
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}, 120_000);
