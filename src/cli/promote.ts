import { dirname, join, resolve } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { PromoteError, VerificationError } from '../errors.js';
import { checkDiff } from '../core/diff-policy.js';
import { applyFileChanges } from '../core/patch-apply.js';
import { checkPromotable, planPromotion, selectChanges, type PromoteLog } from '../core/promote-plan.js';
import { verifyReceiptText } from '../core/receipt.js';
import { receiptSchema, RECEIPT_V2_SCHEMA } from '../core/receipt-schema.js';
import { existingDir, readTextFile } from '../io/files.js';
import { observePath, writeStep } from '../io/promote.js';
import { baseEntriesOf, readStoredReceipt, storeEntryDir, type StoreEntry } from '../receipt/store.js';
import { createProposal, diffDigest } from '../core/proposal.js';
import type { Receipt } from '../core/receipt-schema.js';
import { RECEIPT_BUNDLE_FILE } from '../receipt/attestation.js';
import { gateSignerPolicy, readTrustedRoots, verifyUnderAnyRoot } from '../receipt/trusted-roots.js';
import { takeSnapshot } from '../inventory/snapshot.js';
import { TOOL_VERSION } from '../version.js';
import { isMergedText } from '../core/merged.js';
import { isScreeningText } from '../core/screening.js';
import { mergedSource, screeningSource } from './promote-source.js';
import type { AttestedPromoteSettings, PromoteSettings } from '../inputs/cli-settings.js';

/** Where the CLI writes (the same shape as run.ts's Console). */
interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** promote's exit codes beside the CLI's: 0 applied or planned, 2 refused (nothing written), 4 a race half-way. */
export const PROMOTE_EXIT = { applied: 0, refused: 2, partialConflict: 4 } as const;

/**
 * The receipt store's entry, rebuilt for an attested receipt: the gate's Sigstore attestation of
 * these exact bytes stands in for "this installation's validate stored them" (docs/promote.md).
 * Without the store there is no record of the base's touched files, so the whole working tree must
 * snapshot as the receipt's base snapshot (stricter: any other change in the tree refuses), and the
 * given diff must be the one the receipt binds (checkPromotable checks its digest).
 */
async function attestedEntry(attested: AttestedPromoteSettings, receiptFile: string, receipt: Receipt, text: string, repo: string): Promise<StoreEntry> {
  const bundlePath = attested.bundle ?? join(dirname(resolve(receiptFile)), RECEIPT_BUNDLE_FILE);
  const bundleText = await readFile(bundlePath, 'utf8').catch(() => undefined);
  if (bundleText === undefined)
    throw new PromoteError(
      `no attestation at '${bundlePath}'; a receipt that verifies is not evidence by itself: give the gate's Sigstore bundle (--bundle) or use the receipt store`
    );
  let bundle: unknown;
  try {
    bundle = JSON.parse(bundleText);
  } catch {
    throw new PromoteError(`the attestation '${bundlePath}' is not JSON`);
  }
  const roots = await readTrustedRoots(attested.trustedRoot, '--trusted-root');
  try {
    verifyUnderAnyRoot(Buffer.from(text, 'utf8'), bundle, gateSignerPolicy(attested.signerWorkflow, attested.repository, attested.sourceRef), roots);
  } catch (error) {
    if (!(error instanceof VerificationError)) throw error;
    throw new PromoteError(`the receipt is not attested by ${attested.signerWorkflow}: ${error.message}`);
  }
  const diff = await readTextFile(attested.diff, '--diff');
  if (diffDigest(diff) !== receipt.bindings.diff_digest) {
    throw new PromoteError(
      `--diff '${attested.diff}' is not the diff the receipt binds (its digest ${diffDigest(diff)} is not the receipt's diff_digest ${receipt.bindings.diff_digest})`
    );
  }
  const snapshot = await takeSnapshot(repo);
  if (snapshot.digest !== receipt.bindings.base_snapshot) {
    throw new PromoteError(
      `nothing was written: the working tree snapshots as ${snapshot.digest}, not the receipt's base snapshot ${receipt.bindings.base_snapshot}; without the receipt store the whole tree must still be the validated base`
    );
  }
  const proposal = createProposal(diff, snapshot.digest, TOOL_VERSION);
  const touched = checkDiff(diff, { maxBytes: receipt.limits.diff_max_bytes, maxFiles: receipt.limits.diff_max_files }).map((change) => change.path);
  return { receiptText: text, proposal, base: new Map(baseEntriesOf(snapshot, touched).map((entry) => [entry.path, entry])) };
}

/** One receipt (validate's), from the receipt store or attested by the gate. */
async function singleSource(settings: PromoteSettings, text: string, repo: string): Promise<{ receipt: Receipt; entry: StoreEntry; source?: undefined }> {
  if (settings.candidate !== undefined) throw new PromoteError('--candidate names a candidate of a screening receipt; RECEIPT is a single receipt');
  const check = verifyReceiptText(text);
  if (!check.integrity_valid) {
    throw new PromoteError(`the receipt does not verify (${check.errors[0] ?? 'invalid'}); promote only an intact receipt`);
  }
  const parsed = receiptSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new PromoteError(`the receipt's schema is older than ${RECEIPT_V2_SCHEMA}; validate again with this version to promote`);
  }
  const receipt = parsed.data;
  const entry =
    settings.attested !== undefined ? await attestedEntry(settings.attested, settings.receipt, receipt, text, repo) : await readStoredReceipt(settings.store, receipt, text);
  checkPromotable(receipt, entry.proposal);
  return { receipt, entry };
}

/** Test seam: runs right before each file is written (a race is simulated here). */
export interface PromoteHooks {
  beforeWrite?(path: string): Promise<void>;
}

/**
 * `patchproof promote RECEIPT --repo DIR`: bring a validated diff into a working tree. RECEIPT is
 * validate's receipt, a screening receipt (its first ranked or `--candidate` candidate) or a merged
 * receipt of suite shards (src/cli/promote-source.ts). Only when
 *  - the receipt verifies and this installation's validate stored these exact bytes (who produced it),
 *    or, with --trusted-root, the gate's Sigstore attestation of these bytes verifies instead;
 *  - it passed with proof grade, and the stored diff is the one it binds;
 *  - every file it touches is still as the receipt's base snapshot had it (hash and mode; an added
 *    file still absent), is a regular file with one link, in plain folders (no symlinked parent).
 * Any refusal writes nothing. Each write re-checks its file first; a race found half-way stops there
 * (`partial_conflict`, exit 4) with the exact log of what was written.
 */
export async function promoteCommand(settings: PromoteSettings, io: Output, hooks: PromoteHooks = {}): Promise<number> {
  const repo = await existingDir(settings.repo, '--repo');
  const text = await readTextFile(settings.receipt, 'RECEIPT');
  const { receipt, entry, source } = isScreeningText(text)
    ? await screeningSource(settings, text)
    : isMergedText(text)
      ? await mergedSource(settings, text)
      : await singleSource(settings, text, repo);
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
    skipped: all.filter((change) => !selected.has(change.path)).map((change) => ({ path: change.path, why: 'not named by --path' })),
    ...(source !== undefined ? { source } : {})
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
  const logName = `promote-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  const logFile = settings.log ?? join(settings.attested !== undefined ? dirname(resolve(settings.receipt)) : storeEntryDir(settings.store, receipt.receipt_digest), logName);
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
