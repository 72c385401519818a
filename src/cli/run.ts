import { TOOL_VERSION } from '../version.js';
import { checkDiff } from '../core/diff-policy.js';
import { approveProposal, createProposal, parseApproval, parseProposal } from '../core/proposal.js';
import { serializeReceipt, verifyReceiptText } from '../core/receipt.js';
import { renderPhaseTable, renderReport } from '../core/report.js';
import type { Verdict } from '../core/verdict.js';
import { canonicalJson } from '../core/hashing.js';
import { witnessAdapter } from '../adapters/registry.js';
import { createLocalRunner } from '../runners/local-runner.js';
import { createDockerRunner, installSignalCleanup } from '../runners/docker-runner.js';
import { containerWorkdirFor, DEFAULT_CONTAINER_ENV } from '../runners/docker-args.js';
import type { Runner } from '../runners/runner.js';
import { takeSnapshot } from '../io/snapshot.js';
import { removeLiveScratchSync } from '../io/workspace.js';
import { assertOutside, existingDir, readJsonFile, readTextFile, writeBytesAtomic, writeFileAtomic } from '../io/files.js';
import { validate, type WitnessInput } from '../validate.js';
import { resolveWitness } from '../witness/fetch.js';
import { witnessFromFolders } from '../witness/shortcut.js';
import { initWitness } from '../witness/scaffold.js';
import { digestWitnessFolder } from '../witness/digest.js';
import { packWitness } from '../witness/archive.js';
import { randomBytes } from 'node:crypto';
import { ConfigurationError, InfrastructureError, isRefusal } from '../errors.js';
import { USAGE, readSettings, type ApproveSettings, type ProposeSettings, type ValidateSettings, type VerifySettings, type WitnessDigestSettings, type WitnessInitSettings, type WitnessPackSettings } from './settings.js';
import { mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';

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
  const { env, ...paths } = settings.container;
  // The default workdir names the repository like a CI job's checkout: /home/runner/work/<repo>/<repo>.
  const workdir = paths.workdir ?? containerWorkdirFor(basename(resolve(settings.repo)));
  return createDockerRunner({ image: settings.image as string, layout: { ...paths, workdir, env: { ...DEFAULT_CONTAINER_ENV, ...env } } });
}

/** The grader: a digest-verified witness pack, or a pack built from two folders. */
async function openWitness(settings: ValidateSettings): Promise<{ witness: WitnessInput; dispose(): Promise<void> }> {
  const source = settings.witness;
  if (source.kind === 'folders') {
    const reproduction = await existingDir(source.reproduction, '--reproduction');
    const hidden = await existingDir(source.hidden, '--hidden');
    const pack = await witnessFromFolders(reproduction, hidden, source.adapter);
    return { witness: pack, dispose: () => pack.dispose() };
  }
  const resolved = await resolveWitness(source.source, source.digest);
  if (source.adapter !== undefined && source.adapter !== resolved.manifest.adapter) {
    await resolved.dispose();
    throw new ConfigurationError(`--adapter ${source.adapter} does not match the witness pack's adapter ${resolved.manifest.adapter}; drop --adapter or use the pack's`);
  }
  return { witness: resolved, dispose: () => resolved.dispose() };
}

async function validateCommand(settings: ValidateSettings, io: Console): Promise<number> {
  const repo = await existingDir(settings.repo, '--repo');
  await assertOutside(settings.out, repo, '--out');
  const proposal = parseProposal(await readJsonFile(settings.proposal, '--proposal'), settings.proposal);
  const approval = parseApproval(await readJsonFile(settings.approval, '--approval'), settings.approval, proposal);
  const { witness, dispose } = await openWitness(settings);
  try {
    const manifest = witness.manifest;
    const adapter = await witnessAdapter(manifest, witness.dir);
    const runner = await createRunner(settings);
    // On SIGINT/SIGTERM the process exits from the handler: remove the copies before it does.
    const removeHandlers = installSignalCleanup(runner, (code) => {
      removeLiveScratchSync();
      process.exit(code);
    });
    try {
      const receipt = await validate(
        {
          repoDir: repo,
          proposal,
          approval,
          witness,
          adapter,
          runner,
          limits: {
            timeoutMs: settings.timeoutMs ?? manifest.limits.timeout_seconds * 1000,
            outputLimitBytes: settings.outputLimitBytes ?? manifest.limits.output_limit_bytes,
            diff: { maxBytes: settings.maxDiffBytes ?? manifest.limits.diff_max_bytes, maxFiles: settings.maxDiffFiles ?? manifest.limits.diff_max_files }
          },
          concurrency: settings.concurrency,
          ...(settings.setupCache !== undefined ? { setupCacheDir: await setupCacheDir(settings.setupCache, repo) } : {})
        },
        { snapshot: (dir) => takeSnapshot(dir), now: () => new Date(), log: (line) => io.err(`${line}\n`), nonce: () => randomBytes(16).toString('hex') }
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
  } finally {
    await dispose();
  }
}

async function witnessCommand(settings: WitnessInitSettings | WitnessDigestSettings | WitnessPackSettings, io: Console): Promise<number> {
  switch (settings.command) {
    case 'witness-init': {
      const digest = await initWitness(settings.dir, {
        adapter: settings.adapter,
        ...(settings.reproduction !== undefined ? { reproduction: await existingDir(settings.reproduction, '--reproduction') } : {}),
        ...(settings.hidden !== undefined ? { hidden: await existingDir(settings.hidden, '--hidden') } : {})
      });
      io.out(`created: ${settings.dir}\nwitness_digest: ${digest}\n`);
      return EXIT.passed;
    }
    case 'witness-digest': {
      const dir = await existingDir(settings.dir, 'witness digest DIR');
      // Checked the same way validate checks it: the folder must be a well-formed pack.
      const { digest } = await digestWitnessFolder(dir);
      const resolved = await resolveWitness(dir, digest);
      await resolved.dispose();
      io.out(`${digest}\n`);
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
      case 'witness-init':
      case 'witness-digest':
      case 'witness-pack':
        return await witnessCommand(settings, io);
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

/** The dependency stage's cache folder: created when missing, and never inside the repository. */
async function setupCacheDir(dir: string, repo: string): Promise<string> {
  await assertOutside(dir, repo, '--setup-cache');
  await mkdir(dir, { recursive: true });
  return resolve(dir);
}
