import { TOOL_VERSION } from '../version.js';
import { checkDiff } from '../core/diff-policy.js';
import { approveProposal, createProposal, parseApproval, parseProposal } from '../core/proposal.js';
import { verifyReceiptText } from '../core/receipt.js';
import { renderPhaseTable, renderReport } from '../core/report.js';
import { renderClaimConsole } from '../core/claim-report.js';
import { readClaimFile } from '../io/claim-file.js';
import type { Verdict } from '../core/verdict.js';
import { canonicalJson, type Digest } from '../core/hashing.js';
import { installSignalCleanup } from '../runners/docker-runner.js';
import { takeSnapshot } from '../inventory/snapshot.js';
import { removeLiveScratchSync } from '../phases/workspace.js';
import { assertOutside, existingDir, readJsonFile, readTextFile, writeBytesAtomic, writeFileAtomic } from '../io/files.js';
import { stderrProgress } from './progress.js';
import type { BaseFailure } from '../phases/validate.js';
import { pipeline } from '../phases/pipeline.js';
import { decryptWith, generateWitnessKey, parseRecipients, sealHiddenEntries, SEALED_HIDDEN_FILE } from '../fetch/witness/sealed.js';
import { readWitnessFolder } from '../fetch/witness/folder.js';
import { writeWitnessEntries } from '../fetch/witness/archive.js';
import { digestWitnessEntries } from '../fetch/witness/digest.js';
import { resolveWitness } from '../fetch/witness/fetch.js';
import { initWitnessPack } from '../fetch/witness/scaffold.js';
import { digestWitnessFolder } from '../fetch/witness/digest.js';
import { packWitness } from '../fetch/witness/archive.js';
import { sealPack } from '../oracle/seal.js';
import { recordPack } from '../oracle/record.js';
import { randomBytes } from 'node:crypto';
import { ConfigurationError, InfrastructureError, isRefusal } from '../errors.js';
import { promoteCommand } from './promote.js';
import {
  baselineRequest,
  createRunner,
  EXIT,
  HIDDEN_DETAIL_FILE,
  lookUpBaseline,
  settleBaseline,
  hiddenDetailSealer,
  type BaselineLookup,
  openWitness,
  packInRepo,
  readWitnessKey,
  setupCacheDir,
  validationLimits,
  type Console
} from './shared.js';
import { compareCommand, screenCommand, verifyScreeningFile } from './screen.js';
import { mergeCommand, verifyMergedFile } from './merge.js';
import { isMergedText } from '../core/merged.js';
import { isScreeningText } from '../core/screening.js';
import { baseEntriesOf, storeReceipt } from '../receipt/store.js';
import type { Snapshot } from '../core/snapshot-record.js';
import {
  USAGE,
  defaultReceiptStore,
  readSettings,
  type HiddenDetailSettings,
  type WitnessKeygenSettings,
  type WitnessSealHiddenSettings,
  type WitnessSealSettings,
  type WitnessRecordSettings,
  type ApproveSettings,
  type ProposeSettings,
  type ValidateSettings,
  type VerifySettings,
  type WitnessDigestSettings,
  type WitnessInitSettings,
  type WitnessPackSettings
} from '../inputs/cli-settings.js';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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

async function validateCommand(settings: ValidateSettings, io: Console): Promise<number> {
  const repo = await existingDir(settings.repo, '--repo');
  await assertOutside(settings.out, repo, '--out');
  // The key must not be a file the candidate's copy could hold; it is read, and the pack opened, before any candidate-side work.
  if (settings.witnessKeyFile !== undefined) await assertOutside(settings.witnessKeyFile, repo, '--witness-key-file');
  const witnessKey = settings.witnessKeyFile !== undefined ? await readWitnessKey(settings.witnessKeyFile, '--witness-key-file') : undefined;
  const proposal = parseProposal(await readJsonFile(settings.proposal, '--proposal'), settings.proposal);
  const approval = parseApproval(await readJsonFile(settings.approval, '--approval'), settings.approval, proposal);
  const { witness, dispose } = await openWitness(settings, witnessKey);
  try {
    const manifest = witness.manifest;
    let baseFailure: BaseFailure | undefined;
    const progress = stderrProgress({
      write: io.err,
      ...(io.errTTY !== undefined ? { isTTY: io.errTTY } : {}),
      ...(io.errColumns !== undefined ? { columns: io.errColumns } : {})
    });
    // The repository's snapshot before validation: its record of the touched paths goes to the receipt store.
    let baseSnapshot: Snapshot | undefined;
    let cached: BaselineLookup | undefined;
    {
      const sealer = hiddenDetailSealer(witnessKey);
      const limits = validationLimits(settings, manifest);
      const result = await pipeline({
        witness: { ...witness, ...packInRepo(repo, settings) },
        // The claim is read and parsed before any run: a malformed one is refused (exit 2), never ignored.
        intake: async () => (settings.claimed !== undefined ? await readClaimFile(settings.claimed, '--claimed', manifest.adapter) : undefined),
        createRunner: () => createRunner(settings),
        // On SIGINT/SIGTERM the process exits from the handler: remove the copies before it does.
        onSignal: (code) => {
          removeLiveScratchSync();
          process.exit(code);
        },
        request: async ({ adapter, runner, intake: claim }) => {
          cached =
            settings.baselineCache !== undefined
              ? await lookUpBaseline(
                  settings.baselineCache,
                  repo,
                  { baseSnapshot: proposal.base_snapshot as Digest, witnessDigest: witness.digest, adapter: adapter.name, runner, limits },
                  io
                )
              : undefined;
          return {
            repoDir: repo,
            proposal,
            approval,
            limits,
            concurrency: settings.concurrency,
            ...(settings.earlyExit === true ? { earlyExit: true } : {}),
            ...(settings.shard !== undefined ? { shard: settings.shard } : {}),
            ...baselineRequest(cached),
            ...(claim !== undefined ? { claim } : {}),
            ...(sealer !== undefined ? { encryptHiddenDetail: sealer } : {}),
            ...(settings.setupCache !== undefined ? { setupCacheDir: await setupCacheDir(settings.setupCache, repo) } : {}),
            progress
          };
        },
        deps: {
          snapshot: async (dir) => {
            const snapshot = await takeSnapshot(dir);
            if (dir === repo && baseSnapshot === undefined) baseSnapshot = snapshot;
            return snapshot;
          },
          now: () => new Date(),
          log: (line) => progress.log(line),
          nonce: () => randomBytes(16).toString('hex'),
          baseFailure: (failure) => {
            baseFailure = failure;
          }
        },
        settle: (made) => settleBaseline(cached, made, io)
      });
      const { receipt, hiddenDetail, changedPaths, text, check } = result;
      progress.done();
      await writeFileAtomic(join(settings.out, 'receipt.json'), text);
      await writeFileAtomic(join(settings.out, 'report.md'), renderReport(receipt, baseFailure === undefined ? {} : { baseFailure }));
      if (hiddenDetail !== undefined) await writeBytesAtomic(join(settings.out, HIDDEN_DETAIL_FILE), hiddenDetail);
      // Only an intact receipt of the repository as proposed is kept for promote (src/receipt/store.ts).
      if (check.integrity_valid && baseSnapshot !== undefined && baseSnapshot.digest === proposal.base_snapshot) {
        // The diff as validateWithDetail already parsed and checked it: not parsed a second time.
        const touched = changedPaths ?? checkDiff(proposal.diff, { maxBytes: receipt.limits.diff_max_bytes, maxFiles: receipt.limits.diff_max_files }).map((change) => change.path);
        const store = settings.receiptStore ?? defaultReceiptStore();
        try {
          await storeReceipt(store, receipt, text, proposal, baseEntriesOf(baseSnapshot, touched));
        } catch (error) {
          // The verdict stands; only promote loses this receipt, and says so when asked.
          io.err(`patchproof: the receipt was not kept in the receipt store '${store}' (${(error as Error).message.split('\n')[0] ?? ''}); promote will refuse it\n`);
        }
      }
      io.out(`${renderPhaseTable(receipt, check.integrity_valid)}\n`);
      if (receipt.claim !== undefined) io.out(`${renderClaimConsole(receipt.claim)}\n`);
      if (baseFailure !== undefined) {
        const lines = baseFailure.excerpt === '' ? ['(no output)'] : baseFailure.excerpt.split('\n');
        io.out(
          `the grader cannot run on the base tree; ${baseFailure.label} run ${baseFailure.attempt} says (excerpt sha256 ${baseFailure.sha256}):\n${lines.map((line) => `  | ${line}`).join('\n')}\n`
        );
      }
      if (!check.integrity_valid) {
        io.err(`patchproof: the receipt failed its own verification: ${check.errors.join('; ')}\n`);
        return EXIT.inconclusive;
      }
      return VERDICT_EXIT[receipt.verdict];
    }
  } finally {
    await dispose();
  }
}

async function recordCommand(settings: WitnessRecordSettings, io: Console): Promise<number> {
  const dir = await existingDir(settings.dir, 'witness record DIR');
  const repo = await existingDir(settings.repo, '--repo');
  const diff = await readTextFile(settings.reference, '--reference');
  const runner = await createRunner(settings);
  const removeHandlers = installSignalCleanup(runner, (code) => {
    removeLiveScratchSync();
    process.exit(code);
  });
  try {
    const report = await recordPack({
      pack: dir,
      repo,
      diff,
      runner,
      concurrency: settings.concurrency,
      ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
      ...(settings.setupCache !== undefined ? { setupCacheDir: await setupCacheDir(settings.setupCache, repo) } : {}),
      log: (line) => io.err(`${line}\n`)
    });
    io.out(
      [
        `recorded: ${report.recorded} case(s) from the reference fix into ${report.oracleFile}`,
        `checked: ${report.checked} sealed case(s) hold with the reference fix`,
        `discriminating: ${report.discriminating} reproduction case(s) observed otherwise on the base`,
        `cases: ${report.cases}`,
        `witness_digest: ${(await digestWitnessFolder(dir)).digest}`
      ].join('\n') + '\n'
    );
    return EXIT.passed;
  } finally {
    await runner.dispose();
    removeHandlers();
  }
}

async function witnessCommand(
  settings: WitnessInitSettings | WitnessDigestSettings | WitnessPackSettings | WitnessKeygenSettings | WitnessSealHiddenSettings | WitnessSealSettings,
  io: Console
): Promise<number> {
  switch (settings.command) {
    case 'witness-seal': {
      const dir = await existingDir(settings.dir, 'witness seal DIR');
      const report = await sealPack(dir);
      const { digest } = await digestWitnessFolder(dir);
      const lines = [
        `sealed: ${report.cases} case(s) into ${report.oracleFile}`,
        `reproduction: ${report.sealed.reproduction ? 'sealed' : 'NOT fully sealed'}`,
        `hidden: ${report.sealed.hidden ? 'sealed' : 'NOT fully sealed'}`,
        ...report.unsealed.map((u) => `unsealed (${u.phase}) ${u.file}:${u.line}: ${u.text}`),
        ...report.pending.map((p) => `to record (${p.phase}) ${p.file}:${p.line}: ${p.text}`),
        ...(report.pending.length > 0
          ? [
              `${report.pending.length} site(s) need their expected values recorded: patchproof witness record ${settings.dir} --reference FIX.diff --repo REPO --runner docker --image REF (validate refuses the pack until then)`
            ]
          : []),
        ...(!(report.sealed.reproduction && report.sealed.hidden) && (report.pending.length === 0 || report.unsealed.length > 0)
          ? ['a pack whose reproduction or hidden tests stay partly unsealed is not proof grade: rewrite those assertions with literal expected values']
          : []),
        `witness_digest: ${digest}`
      ];
      io.out(`${lines.join('\n')}\n`);
      return EXIT.passed;
    }
    case 'witness-init': {
      const made = await initWitnessPack(settings.dir, {
        adapter: settings.adapter,
        ...(settings.reproduction !== undefined ? { reproduction: await existingDir(settings.reproduction, '--reproduction') } : {}),
        ...(settings.hidden !== undefined ? { hidden: await existingDir(settings.hidden, '--hidden') } : {})
      });
      const pinned = (['reproduction', 'hidden'] as const).filter((set) => made.pinned[set] !== undefined).map((set) => `pinned: ${set}.ids (${made.pinned[set]!.length})\n`);
      io.out(`created: ${settings.dir}\n${pinned.join('')}witness_digest: ${made.digest}\n`);
      for (const note of made.notes) io.err(`note: ${note}\n`);
      return EXIT.passed;
    }
    case 'witness-digest': {
      const dir = await existingDir(settings.dir, 'witness digest DIR');
      // Checked the same way validate checks it: the folder must be a well-formed pack.
      const { digest } = await digestWitnessFolder(dir);
      const resolved = await resolveWitness(dir, digest, { leaveSealed: true });
      await resolved.dispose();
      io.out(`${digest}\n`);
      return EXIT.passed;
    }
    case 'witness-keygen': {
      const key = await generateWitnessKey();
      await writeSecretFile(settings.out, key.fileText);
      io.out(`written: ${settings.out} (keep it secret: a repository secret for the trusted job)\nrecipient: ${key.recipient}\n`);
      return EXIT.passed;
    }
    case 'witness-seal-hidden': {
      const recipients = parseRecipients(settings.recipients, '--recipient');
      const dir = await existingDir(settings.dir, 'witness seal-hidden DIR');
      // The plain pack is checked as validate would check it before it is sealed.
      const { digest: plainDigest } = await digestWitnessFolder(dir);
      const plain = await resolveWitness(dir, plainDigest);
      await plain.dispose();
      const sealed = await sealHiddenEntries(await readWitnessFolder(dir), plain.manifest.hidden.path, recipients);
      await writeWitnessEntries(sealed, settings.out);
      io.out(
        `written: ${settings.out} (hidden tests, and any hidden expectations, hidden originals and pinned hidden ids, encrypted in ${SEALED_HIDDEN_FILE})\nwitness_digest: ${digestWitnessEntries(sealed)}\n`
      );
      return EXIT.passed;
    }
    case 'witness-pack': {
      const dir = await existingDir(settings.dir, 'witness pack DIR');
      const bytes = await packWitness(dir);
      await writeBytesAtomic(settings.out, bytes);
      const { digest } = await digestWitnessFolder(dir);
      io.out(`written: ${settings.out} (${bytes.length} bytes)\nwitness_digest: ${digest}\n`);
      return EXIT.passed;
    }
  }
}

async function hiddenDetailCommand(settings: HiddenDetailSettings, io: Console): Promise<number> {
  const witnessKey = await readWitnessKey(settings.witnessKeyFile, '--witness-key-file');
  const bytes = await readFile(settings.file).catch((error: unknown) => {
    throw new ConfigurationError(`hidden-detail file '${settings.file}' cannot be read (${(error as Error).message}); give the ${HIDDEN_DETAIL_FILE} written beside the receipt`);
  });
  const plain = await decryptWith(witnessKey, bytes, `'${settings.file}'`);
  io.out(`${JSON.stringify(JSON.parse(new TextDecoder().decode(plain)), null, 2)}\n`);
  return EXIT.passed;
}

/** A new secret file: mode 0600, never over an existing file. */
async function writeSecretFile(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ConfigurationError(`--out '${path}' exists; give a new file (a key is never overwritten)`);
    throw new InfrastructureError(`could not write '${path}': ${(error as Error).message}`, { cause: error });
  }
}

async function verifyCommand(settings: VerifySettings, io: Console): Promise<number> {
  const text = await readTextFile(settings.file, 'receipt');
  if (isScreeningText(text)) return verifyScreeningFile(settings.file, text, io);
  if (isMergedText(text)) return verifyMergedFile(settings.file, text, io);
  const check = verifyReceiptText(text);
  io.out(
    `${JSON.stringify({ integrity_valid: check.integrity_valid, verdict: check.verdict, proof_grade: check.proof_grade, receipt_digest: check.receipt_digest, errors: check.errors }, null, 2)}\n`
  );
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
      case 'witness-init':
      case 'witness-digest':
      case 'witness-pack':
      case 'witness-seal':
      case 'witness-keygen':
      case 'witness-seal-hidden':
        return await witnessCommand(settings, io);
      case 'hidden-detail':
        return await hiddenDetailCommand(settings, io);
      case 'witness-record':
        return await recordCommand(settings, io);
      case 'promote':
        return await promoteCommand(settings, io);
      case 'screen':
        return await screenCommand(settings, io);
      case 'compare':
        return await compareCommand(settings, io);
      case 'merge':
        return await mergeCommand(settings, io);
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
    io.err(`patchproof: internal error, nothing was judged: ${error instanceof Error ? (error.stack ?? error.message) : canonicalJson(String(error))}\n`);
    return EXIT.inconclusive;
  }
}
