import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { proposeAndApprove, readJson, ROOT } from '../helpers/cli.js';

type Cli = (args: string[]) => Promise<{ status: number | null; stdout: string; stderr: string }>;

/** What the formal Docker tests read of a receipt's formal target. */
export interface FormalTargetView {
  name: string;
  status: string;
  reason?: string;
  counterexample?: { inputs: Record<string, unknown>; result?: unknown; violated: string[] };
  replay?: { outcome: string; exit_code: number | null };
  binding?: { outcome: string; exit_code: number | null; duration_ms: number };
  scope: { solver: string; integers: string; lengths?: string; loops?: string };
}

/** What the formal Docker tests read of a receipt. */
export interface ReceiptView {
  verdict: string;
  reasons: string[];
  phases: { name: string; status: string }[];
  formal?: { status: string; targets: FormalTargetView[] };
}

/** Where a staged fixture is: its repository and pack copied out of the work tree, and the pack's digest. */
export interface StagedFormalFixture {
  repo: string;
  pack: string;
  digest: string;
  tmp: string;
  imageId: string;
}

/** Copy a fixture's repository and pack into `tmp` (inside the git work tree only tracked files would count) and digest the pack. */
export async function stageFormalFixture(cli: Cli, fixture: string, tmp: string, imageId: string): Promise<StagedFormalFixture> {
  const repo = join(tmp, `${fixture}-repo`);
  const pack = join(tmp, `${fixture}-pack`);
  await cp(join(ROOT, 'fixtures', fixture, 'repo'), repo, { recursive: true });
  await cp(join(ROOT, 'witness-packs', fixture), pack, { recursive: true });
  const digest = await cli(['witness', 'digest', pack]);
  expect([digest.status, digest.stderr]).toEqual([0, '']);
  return { repo, pack, digest: digest.stdout.trim(), tmp, imageId };
}

/**
 * The formal Docker tests' one step: propose and approve a fixture's candidate, validate it in the
 * Docker runner against the pack, and require verify-receipt to accept the receipt (the CLI's
 * stderr tail is shown when it does not). Returns the receipt and the output folder.
 */
export async function validateFormalCandidate(
  cli: Cli,
  c: { fixture: string; candidate: string; label: string },
  where: StagedFormalFixture
): Promise<{ receipt: ReceiptView; out: string }> {
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
  return { receipt: await readJson<ReceiptView>(join(out, 'receipt.json')), out };
}
