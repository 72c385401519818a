import { TOOL_VERSION } from '../version.js';
import { checkDiff } from '../core/diff-policy.js';
import { approveProposal, createProposal, parseApproval, parseProposal } from '../core/proposal.js';
import { serializeReceipt, verifyReceiptText } from '../core/receipt.js';
import { renderPhaseTable, renderReport } from '../core/report.js';
import type { Verdict } from '../core/verdict.js';
import { canonicalJson } from '../core/hashing.js';
import { getAdapter } from '../adapters/registry.js';
import { createLocalRunner } from '../runners/local-runner.js';
import { createDockerRunner, installSignalCleanup } from '../runners/docker-runner.js';
import type { Runner } from '../runners/runner.js';
import { takeSnapshot } from '../io/snapshot.js';
import { assertOutside, existingDir, readJsonFile, readTextFile, writeFileAtomic } from '../io/files.js';
import { validate } from '../validate.js';
import { InfrastructureError, isRefusal } from '../errors.js';
import { USAGE, readSettings, type ApproveSettings, type ProposeSettings, type ValidateSettings, type VerifySettings } from './settings.js';
import { join } from 'node:path';

/** Where the CLI writes. Tests hand in recording streams. */
export interface Console {
  out(text: string): void;
  err(text: string): void;
}

/** Documented exit codes. */
export const EXIT = { passed: 0, failed: 1, refused: 2, inconclusive: 3 } as const;

const VERDICT_EXIT: Record<Verdict, number> = { passed: EXIT.passed, failed: EXIT.failed, inconclusive: EXIT.inconclusive };

async function propose(settings: ProposeSettings, io: Console): Promise<number> {
  const repo = await existingDir(settings.repo, '--repo');
  const diff = await readTextFile(settings.diff, '--diff');
  await assertOutside(settings.out, repo, '--out');
  // Refuse a bad diff at proposal time already: nobody should be asked to approve it.
  checkDiff(diff, { maxBytes: settings.maxDiffBytes, maxFiles: settings.maxDiffFiles });
  const snapshot = await takeSnapshot(repo);
  const proposal = createProposal(diff, snapshot.digest, TOOL_VERSION);
  await writeFileAtomic(settings.out, `${JSON.stringify(proposal, null, 2)}\n`);
  io.out(`proposal_hash: ${proposal.proposal_hash}\nbase_snapshot: ${proposal.base_snapshot}\nwritten: ${settings.out}\n`);
  return EXIT.passed;
}

async function approve(settings: ApproveSettings, io: Console): Promise<number> {
  const proposal = parseProposal(await readJsonFile(settings.proposal, '--proposal'), settings.proposal);
  const approval = approveProposal(proposal, settings.proposalHash, settings.runId, settings.approvedBy, TOOL_VERSION);
  await writeFileAtomic(settings.out, `${JSON.stringify(approval, null, 2)}\n`);
  io.out(`approved: ${approval.proposal_hash}\napproval_digest: ${approval.approval_digest}\nwritten: ${settings.out}\n`);
  return EXIT.passed;
}

async function createRunner(settings: ValidateSettings): Promise<Runner> {
  if (settings.runner === 'local') return createLocalRunner();
  return createDockerRunner({ image: settings.image as string });
}

async function validateCommand(settings: ValidateSettings, io: Console): Promise<number> {
  const repo = await existingDir(settings.repo, '--repo');
  const reproduction = await existingDir(settings.reproduction, '--reproduction');
  const hidden = await existingDir(settings.hidden, '--hidden');
  await assertOutside(settings.out, repo, '--out');
  const proposal = parseProposal(await readJsonFile(settings.proposal, '--proposal'), settings.proposal);
  const approval = parseApproval(await readJsonFile(settings.approval, '--approval'), settings.approval, proposal);
  const adapter = getAdapter(settings.adapter);
  const runner = await createRunner(settings);
  const removeHandlers = installSignalCleanup(runner);
  try {
    const receipt = await validate(
      {
        repoDir: repo,
        proposal,
        approval,
        reproductionDir: reproduction,
        hiddenDir: hidden,
        adapter,
        runner,
        limits: { timeoutMs: settings.timeoutMs, outputLimitBytes: settings.outputLimitBytes, diff: { maxBytes: settings.maxDiffBytes, maxFiles: settings.maxDiffFiles } },
        concurrency: settings.concurrency
      },
      { snapshot: (dir) => takeSnapshot(dir), now: () => new Date(), log: (line) => io.err(`${line}\n`) }
    );
    const text = serializeReceipt(receipt);
    const check = verifyReceiptText(text);
    await writeFileAtomic(join(settings.out, 'receipt.json'), text);
    await writeFileAtomic(join(settings.out, 'report.md'), renderReport(receipt));
    io.out(`${renderPhaseTable(receipt, check.integrity_valid)}\n`);
    if (!check.integrity_valid) {
      io.err(`patchproof: the receipt failed its own verification: ${check.errors.join('; ')}\n`);
      return EXIT.inconclusive;
    }
    return VERDICT_EXIT[receipt.verdict];
  } finally {
    await runner.dispose();
    removeHandlers();
  }
}

async function verifyCommand(settings: VerifySettings, io: Console): Promise<number> {
  const text = await readTextFile(settings.file, 'receipt');
  const check = verifyReceiptText(text);
  io.out(`${JSON.stringify({ integrity_valid: check.integrity_valid, verdict: check.verdict, proof_grade: check.proof_grade, receipt_digest: check.receipt_digest, errors: check.errors }, null, 2)}\n`);
  return check.integrity_valid ? EXIT.passed : EXIT.failed;
}

/**
 * The CLI's single entry: reads settings, runs one command, and is the only place that turns an
 * error into an exit code. Refusals are one line on stderr.
 */
export async function run(argv: readonly string[], io: Console): Promise<number> {
  try {
    const settings = readSettings(argv);
    if (settings === 'help') {
      io.out(`patchproof ${TOOL_VERSION}\n${USAGE}\n`);
      return EXIT.passed;
    }
    switch (settings.command) {
      case 'propose':
        return await propose(settings, io);
      case 'approve':
        return await approve(settings, io);
      case 'validate':
        return await validateCommand(settings, io);
      case 'verify-receipt':
        return await verifyCommand(settings, io);
    }
  } catch (error) {
    if (isRefusal(error)) {
      io.err(`patchproof: refused (${error.code}): ${error.message}\n`);
      return EXIT.refused;
    }
    if (error instanceof InfrastructureError) {
      io.err(`patchproof: infrastructure error, nothing was judged: ${error.message}\n`);
      return EXIT.inconclusive;
    }
    io.err(`patchproof: internal error, nothing was judged: ${error instanceof Error ? error.stack ?? error.message : canonicalJson(String(error))}\n`);
    return EXIT.inconclusive;
  }
}
