import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { TOOL_VERSION } from '../version.js';
import { approveProposal } from '../core/proposal.js';
import { verifyScreeningText } from '../core/screening.js';
import { compareFeedback } from '../core/feedback.js';
import { ConfigurationError, VerificationError } from '../errors.js';
import { assertOutside, existingDir, readTextFile } from '../io/files.js';
import { removeLiveScratchSync } from '../phases/workspace.js';
import { serializeReceipt, verifyReceiptText } from '../core/receipt.js';
import { serializeScreening } from '../core/screening.js';
import { defaultReceiptStore } from '../inputs/cli-settings.js';
import { baseEntriesOf, storeReceipt, storeScreening } from '../receipt/store.js';
import {
  CANDIDATE_NAME,
  mergeShardFolders,
  proposeCandidate,
  readBound,
  readVerifiedReceipt,
  screenBase,
  screenPipeline,
  type ScreenCandidate,
  type ScreenOutcome
} from '../phases/screen-pipeline.js';
import { stderrProgress } from './progress.js';
import {
  baselineRequest,
  createRunner,
  EXIT,
  lookUpBaseline,
  settleBaseline,
  hiddenDetailSealer,
  validationLimits,
  openWitness,
  packInRepo,
  readWitnessKey,
  setupCacheDir,
  type Console
} from './shared.js';
import type { CompareSettings, MergeSettings, ScreenSettings } from '../inputs/cli-settings.js';

/**
 * `patchproof screen`: many candidates for one bug on one base. Each candidate is proposed and
 * must be approved by its exact proposal_hash; the base side runs once for all of them; each
 * candidate goes through the gates in cost order with early exit; candidates whose changed files
 * normalise to the same key share one candidate-side validation (each still gets its own receipt,
 * binding its own diff); the ranking follows the documented tuple; a sealed screening receipt binds
 * every candidate receipt by digest. The chain and the layout of --out are src/phases/screen-pipeline.ts's;
 * this file reads the command line and maps the outcome to an exit code.
 */

/** The candidate diff files: each file given, and each folder's *.diff and *.patch files, by name. */
async function candidateFiles(entries: readonly string[]): Promise<{ name: string; file: string }[]> {
  const files: string[] = [];
  for (const entry of entries) {
    const info = await stat(entry).catch(() => undefined);
    if (info === undefined) throw new ConfigurationError(`--candidates '${entry}' does not exist; give diff files or folders of *.diff files`);
    if (info.isDirectory()) {
      const names = (await readdir(entry)).filter((n) => /\.(?:diff|patch)$/.test(n)).sort();
      if (names.length === 0) throw new ConfigurationError(`--candidates '${entry}' holds no *.diff or *.patch file`);
      files.push(...names.map((n) => join(entry, n)));
    } else {
      files.push(entry);
    }
  }
  const named = files.map((file) => ({ name: basename(file).replace(/\.(?:diff|patch)$/, ''), file }));
  for (const { name, file } of named) {
    if (!CANDIDATE_NAME.test(name)) throw new ConfigurationError(`candidate '${file}': its name '${name}' must be letters, digits, '.', '_' or '-' (at most 100)`);
  }
  const twice = named.find((c, i) => named.findIndex((d) => d.name === c.name) !== i);
  if (twice !== undefined) throw new ConfigurationError(`two candidates are named '${twice.name}'; rename one of the files`);
  return named.sort((a, b) => (a.name < b.name ? -1 : 1));
}

export async function screenCommand(settings: ScreenSettings, io: Console): Promise<number> {
  const startedAt = new Date();
  const repo = await existingDir(settings.repo, '--repo');
  await assertOutside(settings.out, repo, '--out');
  if (settings.witnessKeyFile !== undefined) await assertOutside(settings.witnessKeyFile, repo, '--witness-key-file');
  const witnessKey = settings.witnessKeyFile !== undefined ? await readWitnessKey(settings.witnessKeyFile, '--witness-key-file') : undefined;
  const files = await candidateFiles(settings.candidates);
  const base = await screenBase(repo);
  const limits = { maxBytes: settings.maxDiffBytes ?? 1024 * 1024, maxFiles: settings.maxDiffFiles ?? 200 };

  // Every candidate is proposed and its approval checked before anything runs (every shard checks all of them).
  const approved = new Set(settings.approve);
  const candidates: ScreenCandidate[] = [];
  const unapproved: string[] = [];
  for (const { name, file } of files) {
    const { proposal, applied, key, exact } = proposeCandidate(await readTextFile(file, `candidate ${name}`), base, limits);
    if (!approved.has(proposal.proposal_hash)) {
      unapproved.push(`${name} ${proposal.proposal_hash}`);
      continue;
    }
    const approval = approveProposal(proposal, proposal.proposal_hash, `${settings.runId}-${name}`, settings.approvedBy, TOOL_VERSION);
    candidates.push({ name, proposal, approval, applied, key, exact });
  }
  if (unapproved.length > 0) {
    throw new VerificationError('approval_mismatch', `not approved (approve each by its exact proposal_hash with --approve): ${unapproved.join('; ')}`);
  }
  const stray = settings.approve.filter((hash) => !candidates.some((c) => c.proposal.proposal_hash === hash));
  if (stray.length > 0) throw new ConfigurationError(`--approve ${stray[0]} is no candidate's proposal_hash; approve only the candidates given`);

  const { witness, dispose } = await openWitness(settings, witnessKey);
  const ownCache = settings.setupCache === undefined ? await mkdtemp(join(tmpdir(), 'patchproof-screen-setup-')) : undefined;
  try {
    const cacheDir = settings.setupCache !== undefined ? await setupCacheDir(settings.setupCache, repo) : (ownCache as string);
    const sealer = hiddenDetailSealer(witnessKey);
    const progress = stderrProgress({
      write: io.err,
      ...(io.errTTY !== undefined ? { isTTY: io.errTTY } : {}),
      ...(io.errColumns !== undefined ? { columns: io.errColumns } : {})
    });
    const outcome = await screenPipeline({
      base,
      candidates,
      ...(settings.shard !== undefined ? { shard: settings.shard } : {}),
      witness: { ...witness, ...packInRepo(repo, settings) },
      createRunner: () => createRunner(settings),
      onSignal: (code) => {
        removeLiveScratchSync();
        process.exit(code);
      },
      limits: (manifest) => validationLimits(settings, manifest),
      // --baseline-cache: a hit stands for the base side of every candidate; a miss is filled by the first one.
      ...(settings.baselineCache !== undefined
        ? {
            baseline: async ({ adapter, runner, limits: runLimits }) => {
              const cached = await lookUpBaseline(
                settings.baselineCache as string,
                repo,
                { baseSnapshot: base.snapshot, witnessDigest: witness.digest, adapter: adapter.name, runner, limits: runLimits },
                io
              );
              return {
                ...(cached.hit !== undefined ? { baseline: cached.hit.baseline } : {}),
                request: baselineRequest(cached),
                settle: (result) => settleBaseline(cached, result, io)
              };
            }
          }
        : {}),
      concurrency: settings.concurrency,
      ...(sealer !== undefined ? { encryptHiddenDetail: sealer } : {}),
      setupCacheDir: cacheDir,
      progress,
      log: { out: io.out, err: io.err },
      out: settings.out,
      startedAt
    });
    // As validate does: every intact receipt of the base as proposed is kept for promote (src/receipt/store.ts).
    const store = settings.receiptStore ?? defaultReceiptStore();
    for (const c of candidates) {
      const receipt = outcome.receipts.get(c.name);
      if (receipt === undefined || receipt.bindings.base_snapshot !== base.snapshot) continue;
      const text = serializeReceipt(receipt);
      if (!verifyReceiptText(text).integrity_valid) continue;
      await keepOrWarn(store, io, () => storeReceipt(store, receipt, text, c.proposal, baseEntriesOf(base.record, [...c.applied.keys()])));
    }
    if (outcome.screening !== undefined && !outcome.broken) await keepScreening(store, outcome, io);
    if (outcome.shard !== undefined) {
      const shard = outcome.shard;
      io.out(`shard ${shard.index}/${shard.count}: ${shard.validated.length} of ${candidates.length} candidates validated; merge every shard's folder with 'patchproof merge'\n`);
      return outcome.broken ? EXIT.inconclusive : EXIT.passed;
    }
    return screeningExit(outcome);
  } finally {
    await dispose();
    if (ownCache !== undefined) await rm(ownCache, { recursive: true, force: true });
  }
}

/** Keep the sealed screening and its bound receipts for promote. */
async function keepScreening(store: string, outcome: ScreenOutcome, io: Console): Promise<void> {
  const screening = outcome.screening!;
  const bound = (outcome.screened ?? []).map((c) => ({ digest: c.receipt_digest, text: serializeReceipt(outcome.receipts.get(c.name)!) }));
  await keepOrWarn(store, io, () => storeScreening(store, screening.screening_digest, serializeScreening(screening), bound));
}

/** Keep a receipt for promote; a store that cannot be written costs only the promotion, and says so. */
async function keepOrWarn(store: string, io: Console, keep: () => Promise<unknown>): Promise<void> {
  try {
    await keep();
  } catch (error) {
    io.err(`patchproof: not kept in the receipt store '${store}' (${(error as Error).message.split('\n')[0] ?? ''}); promote will refuse it\n`);
  }
}

/** A sealed screening's exit: inconclusive when a receipt or the screening fails its own verification, passed when a candidate passed. */
function screeningExit(outcome: ScreenOutcome): number {
  if (outcome.broken) return EXIT.inconclusive;
  return outcome.best !== null && outcome.best !== undefined ? EXIT.passed : EXIT.failed;
}

/**
 * `patchproof merge --repo DIR --out DIR SHARD_DIR...` (src/cli/merge.ts hands folders here): the
 * shards of one screening into one screening receipt (mergeShardFolders, src/phases/screen-pipeline.ts).
 */
export async function mergeScreenShards(settings: MergeSettings & { repo: string }, io: Console): Promise<number> {
  const repo = await existingDir(settings.repo, '--repo');
  await assertOutside(settings.out, repo, '--out');
  const dirs = await Promise.all(settings.shards.map((dir) => existingDir(dir, 'SHARD_DIR')));
  const out = resolve(settings.out);
  if (dirs.some((dir) => resolve(dir) === out)) throw new ConfigurationError('--out is one of the shard folders; give a new folder');
  const outcome = await mergeShardFolders(await screenBase(repo), dirs, out, { out: io.out, err: io.err });
  // The candidates' receipts are not stored here (the shards screened them); the screening is kept
  // only when the store already holds every one of them (storeScreening).
  if (outcome.screening !== undefined && !outcome.broken) await keepScreening(settings.receiptStore ?? defaultReceiptStore(), outcome, io);
  return screeningExit(outcome);
}

/** verify-receipt of a screening receipt: its bound receipts are read from beside it. */
export function verifyScreeningFile(file: string, text: string, io: Console): number {
  const check = verifyScreeningText(text, (rel) => readBound(dirname(resolve(file)), rel));
  io.out(
    `${JSON.stringify({ integrity_valid: check.integrity_valid, kind: 'screening', best: check.best, screening_digest: check.screening_digest, errors: check.errors }, null, 2)}\n`
  );
  return check.integrity_valid ? EXIT.passed : EXIT.failed;
}

/** `patchproof compare OLD NEW`: exit 0 when NEW improved on OLD (a check gained, none lost), else 1. */
export async function compareCommand(settings: CompareSettings, io: Console): Promise<number> {
  const before = await readVerifiedReceipt(settings.old, 'OLD_RECEIPT');
  const after = await readVerifiedReceipt(settings.new, 'NEW_RECEIPT');
  if (before.bindings.base_snapshot !== after.bindings.base_snapshot || before.bindings.witness_digest !== after.bindings.witness_digest) {
    throw new ConfigurationError('the two receipts are for another base snapshot or witness pack; compare candidates of one bug on one base');
  }
  const result = compareFeedback(before, after);
  io.out(`${JSON.stringify({ improved: result.improved, gained: result.gained, lost: result.lost }, null, 2)}\n`);
  return result.improved ? EXIT.passed : EXIT.failed;
}
