import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StepOutcome } from '../../src/publish/ports.js';
import { createGitSource } from '../../src/fetch/git.js';
import { receiptSchema, type Receipt } from '../../src/core/receipt-schema.js';
import { sealReceipt } from '../../src/core/receipt.js';
import { RECEIPT_BUNDLE_FILE } from '../../src/receipt/attestation.js';
import { quietly } from './process-env.js';
import { JS_PACK, ROOT, type PullRequestRepos } from '../action/data/validate-repos.js';

/**
 * Receipts for the action's receipt-taking modes (reverify, promote), made by the bundled CLI as
 * validate mode would make them, and a recording StepOutcome that refuses what only run() may do.
 */

const CLI = join(ROOT, 'dist', 'cli', 'index.js');

/** Run the bundled CLI; throws unless it exits with one of `allow`. */
export function patchproof(args: string[], allow: number[] = [0]): string {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (!allow.includes(result.status ?? -1)) throw new Error(`patchproof ${args[0]} exited ${result.status}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** What validate mode would have produced for this pull request: the CLI on the base tree and the git diff (local runner). */
export async function receiptFor(repos: PullRequestRepos, work: string, runId = 'run-1'): Promise<{ receiptPath: string; reportPath: string; receipt: Receipt; diff: string }> {
  const source = createGitSource(repos.workspace);
  await source.fetchCommits(repos.base, repos.head);
  const diff = await source.diff(repos.base, repos.head, 1 << 20);
  const baseDir = join(work, 'base');
  await source.writeTree(repos.base, baseDir);
  writeFileSync(join(work, 'candidate.diff'), diff);
  patchproof(['propose', '--repo', baseDir, '--diff', join(work, 'candidate.diff'), '--out', join(work, 'proposal.json')]);
  const { proposal_hash: hash } = JSON.parse(readFileSync(join(work, 'proposal.json'), 'utf8')) as { proposal_hash: string };
  patchproof(['approve', '--proposal', join(work, 'proposal.json'), '--proposal-hash', hash, '--approved-by', 'reviewer', '--run-id', runId, '--out', join(work, 'approval.json')]);
  const digest = patchproof(['witness', 'digest', JS_PACK]).trim();
  const out = join(work, 'out');
  patchproof(
    [
      'validate',
      '--repo',
      baseDir,
      '--proposal',
      join(work, 'proposal.json'),
      '--approval',
      join(work, 'approval.json'),
      '--witness',
      JS_PACK,
      '--witness-digest',
      digest,
      '--runner',
      'local',
      '--out',
      out
    ],
    [0, 1]
  );
  const receiptPath = join(out, 'receipt.json');
  return { receiptPath, reportPath: join(out, 'report.md'), receipt: receiptSchema.parse(JSON.parse(readFileSync(receiptPath, 'utf8'))), diff };
}

/**
 * The receipt as if the hardened runner had produced it (isolated docker, so proof grade follows a
 * pass), re-sealed: self-consistent and intact, which is exactly why verifying it proves nothing.
 */
export function asIsolated(receipt: Receipt, change: Partial<Omit<Receipt, 'receipt_digest'>> = {}): Receipt {
  const { receipt_digest: _digest, ...body } = receipt;
  return sealReceipt({
    ...body,
    runner: { ...body.runner, kind: 'docker', isolated: true, image: `patchproof-test@sha256:${'1'.repeat(64)}`, image_id: `sha256:${'1'.repeat(64)}` },
    proof_grade: body.verdict === 'passed',
    ...change
  });
}

/** A StepOutcome that records infos, warnings and summaries, and throws on what only run() may do. */
export function recordingOutcome(): { outcome: StepOutcome; infos: string[]; warnings: string[]; summaries: string[] } {
  const infos: string[] = [];
  const warnings: string[] = [];
  const summaries: string[] = [];
  return {
    infos,
    warnings,
    summaries,
    outcome: {
      setOutput: () => {
        throw new Error('a mode must not set outputs: only run() does');
      },
      setFailed: () => {
        throw new Error('a mode must not fail the step: only run() does');
      },
      summary: (markdown) => {
        summaries.push(markdown);
        return Promise.resolve();
      },
      info: (message) => infos.push(message),
      warning: (message) => warnings.push(message)
    }
  };
}

/**
 * Upload receipt.json (as given) and a report under `name` with the toolkit's artifact client, as
 * another run's validate step would; with the Sigstore bundle inside, when given. Needs the
 * artifact service's environment (artifact-server.ts `env()`).
 */
export async function uploadReceiptArtifact(work: string, name: string, receiptText: string, report: string, bundle?: unknown): Promise<void> {
  const dir = mkdtempSync(join(work, 'upload-'));
  writeFileSync(join(dir, 'receipt.json'), receiptText);
  writeFileSync(join(dir, 'report.md'), report);
  const files = [join(dir, 'receipt.json'), join(dir, 'report.md')];
  if (bundle !== undefined) {
    writeFileSync(join(dir, RECEIPT_BUNDLE_FILE), JSON.stringify(bundle));
    files.push(join(dir, RECEIPT_BUNDLE_FILE));
  }
  const { DefaultArtifactClient } = await import('@actions/artifact');
  await quietly(() => new DefaultArtifactClient().uploadArtifact(name, files, dir));
}
