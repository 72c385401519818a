import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { PromoteError } from '../errors.js';
import { checkDiff } from '../core/diff-policy.js';
import { applyFileChanges } from '../core/patch-apply.js';
import { checkPromotable, planPromotion, selectChanges, type PromoteLog } from '../core/promote-plan.js';
import { verifyReceiptText } from '../core/receipt.js';
import { receiptSchema, RECEIPT_V2_SCHEMA } from '../core/receipt-schema.js';
import { existingDir, readTextFile } from '../io/files.js';
import { observePath, writeStep } from '../io/promote.js';
import { readStoredReceipt, storeEntryDir } from '../io/receipt-store.js';
import type { PromoteSettings } from './settings.js';

/** Where the CLI writes (the same shape as run.ts's Console). */
interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** promote's exit codes beside the CLI's: 0 applied or planned, 2 refused (nothing written), 4 a race half-way. */
export const PROMOTE_EXIT = { applied: 0, refused: 2, partialConflict: 4 } as const;

/** Test seam: runs right before each file is written (a race is simulated here). */
export interface PromoteHooks {
  beforeWrite?(path: string): Promise<void>;
}

/**
 * `patchproof promote RECEIPT --repo DIR`: bring a validated diff into a working tree, only when
 *  - the receipt verifies and this installation's validate stored these exact bytes (who produced it);
 *  - it passed with proof grade, and the stored diff is the one it binds;
 *  - every file it touches is still as the receipt's base snapshot had it (hash and mode; an added
 *    file still absent), is a regular file with one link, in plain folders (no symlinked parent).
 * Any refusal writes nothing. Each write re-checks its file first; a race found half-way stops there
 * (`partial_conflict`, exit 4) with the exact log of what was written.
 */
export async function promoteCommand(settings: PromoteSettings, io: Output, hooks: PromoteHooks = {}): Promise<number> {
  const repo = await existingDir(settings.repo, '--repo');
  const text = await readTextFile(settings.receipt, 'RECEIPT');
  const check = verifyReceiptText(text);
  if (!check.integrity_valid) {
    throw new PromoteError(`the receipt does not verify (${check.errors[0] ?? 'invalid'}); promote only an intact receipt`);
  }
  const parsed = receiptSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new PromoteError(`the receipt's schema is older than ${RECEIPT_V2_SCHEMA}; validate again with this version to promote`);
  }
  const receipt = parsed.data;
  const entry = await readStoredReceipt(settings.store, receipt, text);
  checkPromotable(receipt, entry.proposal);
  const all = checkDiff(entry.proposal.diff, { maxBytes: receipt.limits.diff_max_bytes, maxFiles: receipt.limits.diff_max_files });
  const changes = selectChanges(all, settings.paths);
  const observed = new Map(await Promise.all(changes.map(async (change) => [change.path, await observePath(repo, change.path)] as const)));
  const steps = planPromotion(changes, entry.base, observed);
  // The hashes matched the base's, so the diff applies exactly as it did in validation.
  const contents = applyFileChanges((path) => observed.get(path)?.bytes, changes);
  const selected = new Set(changes.map((change) => change.path));
  const log: PromoteLog = {
    schema: 'patchproof.promote-log/v1',
    receipt_digest: receipt.receipt_digest,
    repo,
    dry_run: settings.dryRun,
    outcome: settings.dryRun ? 'planned' : 'applied',
    applied: [],
    planned: steps.map((step) => ({ path: step.path, op: step.op })),
    skipped: all.filter((change) => !selected.has(change.path)).map((change) => ({ path: change.path, why: 'not named by --path' }))
  };
  if (!settings.dryRun) {
    for (const step of steps) {
      await hooks.beforeWrite?.(step.path);
      const outcome = await writeStep(repo, step, contents.get(step.path) ?? null);
      if (!outcome.ok) {
        log.outcome = 'partial_conflict';
        log.conflict = { path: step.path, why: outcome.why };
        break;
      }
      log.applied.push({ path: step.path, op: step.op });
    }
  }
  const logFile = settings.log ?? join(storeEntryDir(settings.store, receipt.receipt_digest), `promote-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(logFile, `${JSON.stringify(log, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  const lines = [
    ...log.applied.map((item) => `applied   ${item.op.padEnd(6)} ${item.path}`),
    ...(settings.dryRun ? log.planned.map((item) => `would     ${item.op.padEnd(6)} ${item.path}`) : []),
    ...log.skipped.map((item) => `skipped          ${item.path} (${item.why})`),
    ...(log.conflict !== undefined ? [`conflict         ${log.conflict.path}: ${log.conflict.why}`] : []),
    ...(log.outcome === 'partial_conflict' ? log.planned.slice(log.applied.length + 1).map((item) => `not written      ${item.path}`) : []),
    `outcome: ${log.outcome}`,
    `log: ${logFile}`
  ];
  io.out(`${lines.join('\n')}\n`);
  return log.outcome === 'partial_conflict' ? PROMOTE_EXIT.partialConflict : PROMOTE_EXIT.applied;
}
