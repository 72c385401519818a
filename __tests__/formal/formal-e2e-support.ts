import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { proposeAndApprove, readJson, ROOT } from '../helpers/cli.js';

type Cli = (args: string[]) => Promise<{ status: number | null; stdout: string; stderr: string }>;

/**
 * The formal Docker tests' one step: propose and approve a fixture's candidate, validate it in the
 * Docker runner against the pack, and require verify-receipt to accept the receipt (the CLI's
 * stderr tail is shown when it does not). Returns the receipt and the output folder.
 */
export async function validateFormalCandidate<R>(
  cli: Cli,
  c: { fixture: string; candidate: string; label: string },
  where: { repo: string; pack: string; digest: string; tmp: string; imageId: string }
): Promise<{ receipt: R; out: string }> {
  const work = join(where.tmp, c.candidate);
  await mkdir(work, { recursive: true });
  const approved = await proposeAndApprove(where.repo, join(ROOT, 'fixtures', c.fixture, 'candidates', `${c.candidate}.diff`), work, where.tmp, c.label);
  const out = join(work, 'out');
  const run = await cli([
    'validate',
    '--repo',
    where.repo,
    '--proposal',
    approved.proposalPath,
    '--approval',
    approved.approvalPath,
    '--witness',
    where.pack,
    '--witness-digest',
    where.digest,
    '--runner',
    'docker',
    '--image',
    where.imageId,
    '--out',
    out
  ]);
  const verify = await cli(['verify-receipt', join(out, 'receipt.json')]);
  expect([c.candidate, verify.status, run.stderr.slice(-1500)]).toEqual([c.candidate, 0, run.stderr.slice(-1500)]);
  return { receipt: await readJson<R>(join(out, 'receipt.json')), out };
}
