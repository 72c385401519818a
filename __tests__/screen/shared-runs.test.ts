import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, fixture } from '../helpers/cli.js';
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
 * are refused unless validate, applying the candidate's own diff, computes the same normalised key.
 * (screen only offers runs of the same key; this is the check at the point of use.) Nothing runs:
 * the refusal comes before the first run, so the trusted-local runner is enough.
 */

const js = fixture('js-duration');

it('refuses runs shared from a candidate whose changed files normalise differently', async () => {
  const pack = join(ROOT, 'witness-packs', 'js-duration');
  const witness = await resolveWitness(pack, (await digestWitnessFolder(pack)).digest);
  try {
    const snapshot = await takeSnapshot(js.repo);
    // The string-literal copy of the fix, offered the fix's runs under the fix's key.
    const diff = await readFile(join(ROOT, 'fixtures', 'js-duration', 'screen-candidates', 'fix-string.diff'), 'utf8');
    const proposal = createProposal(diff, snapshot.digest, TOOL_VERSION);
    const approval = approveProposal(proposal, proposal.proposal_hash, 'shared-runs', 'reviewer', TOOL_VERSION);
    const forged: SharedRuns = { diffDigest: `sha256:${'1'.repeat(64)}`, patchedSnapshot: `sha256:${'2'.repeat(64)}`, normalisedKey: `sha256:${'3'.repeat(64)}`, outputs: [] };
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
          sharedRuns: forged
        },
        { snapshot: takeSnapshot, now: () => new Date(), log: () => undefined, nonce: () => randomBytes(16).toString('hex') }
      )
    ).rejects.toThrow('may not be shared with a candidate whose changed files normalise differently');
    expect(runs).toBe(0);
    await runner.dispose();
  } finally {
    await witness.dispose();
  }
}, 120_000);
