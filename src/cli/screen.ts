import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { TOOL_VERSION } from '../version.js';
import { witnessAdapter } from '../adapters/registry.js';
import { checkDiff } from '../core/diff-policy.js';
import { applyFileChanges } from '../core/patch-apply.js';
import { approveProposal, createProposal, type Approval, type Proposal } from '../core/proposal.js';
import { serializeReceipt, verifyReceiptText } from '../core/receipt.js';
import { receiptSchema, type Receipt } from '../core/receipt-schema.js';
import { renderReport } from '../core/report.js';
import { normalisedKey, similarity } from '../core/normalise.js';
import { RANK_FIELDS, rankCandidates, rankKeyOf, sealScreening, serializeScreening, SCREENING_SCHEMA, verifyScreeningText, type ScreenedCandidate, type ScreeningBody } from '../core/screening.js';
import { compareFeedback, feedbackOf } from '../core/feedback.js';
import { ConfigurationError, VerificationError } from '../errors.js';
import { assertOutside, existingDir, readTextFile, writeFileAtomic } from '../io/files.js';
import { takeSnapshot } from '../io/snapshot.js';
import { removeLiveScratchSync } from '../io/workspace.js';
import { installSignalCleanup } from '../runners/docker-runner.js';
import { stderrProgress } from './progress.js';
import { validateWithDetail, type SharedBaseline, type SharedRuns, type ValidationResult } from '../validate.js';
import { baselineRequest, createRunner, EXIT, lookUpBaseline, settleBaseline, hiddenDetailSealer, validationLimits, openWitness, packInRepo, readWitnessKey, setupCacheDir, type Console } from './shared.js';
import type { CompareSettings, ScreenSettings } from './settings.js';

/**
 * `patchproof screen`: many candidates for one bug on one base. Each candidate is proposed and
 * must be approved by its exact proposal_hash; the base side runs once for all of them; each
 * candidate goes through the gates in cost order with early exit; candidates whose changed files
 * normalise to the same key share one candidate-side validation (each still gets its own receipt,
 * binding its own diff); the ranking follows the documented tuple; a sealed screening receipt binds
 * every candidate receipt by digest. Layout of --out:
 *   screening.json, ranking.md, candidates/<name>/{proposal,approval,receipt,feedback}.json, report.md
 */

/** A near-duplicate is reported from this token-bigram similarity on. */
const SIMILAR_FROM = 0.8;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

interface Candidate {
  name: string;
  file: string;
  proposal: Proposal;
  approval: Approval;
  applied: Map<string, Buffer | null>;
  key: string;
}

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
    if (!NAME.test(name)) throw new ConfigurationError(`candidate '${file}': its name '${name}' must be letters, digits, '.', '_' or '-' (at most 100)`);
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
  const snapshot = await takeSnapshot(repo);
  const tracked = new Set(snapshot.entries.filter((e) => e.kind === 'file').map((e) => e.path));
  const limits = { maxBytes: settings.maxDiffBytes ?? 1024 * 1024, maxFiles: settings.maxDiffFiles ?? 200 };

  // Every candidate is proposed and its approval checked before anything runs.
  const approved = new Set(settings.approve);
  const candidates: Candidate[] = [];
  const unapproved: string[] = [];
  for (const { name, file } of files) {
    const diff = await readTextFile(file, `candidate ${name}`);
    const changes = checkDiff(diff, limits);
    const proposal = createProposal(diff, snapshot.digest, TOOL_VERSION);
    if (!approved.has(proposal.proposal_hash)) {
      unapproved.push(`${name} ${proposal.proposal_hash}`);
      continue;
    }
    const approval = approveProposal(proposal, proposal.proposal_hash, `${settings.runId}-${name}`, settings.approvedBy, TOOL_VERSION);
    const applied = applyFileChanges((path) => (tracked.has(path) ? readFileSync(join(repo, ...path.split('/'))) : undefined), changes);
    candidates.push({ name, file, proposal, approval, applied, key: normalisedKey(applied) });
  }
  if (unapproved.length > 0) {
    throw new VerificationError('approval_mismatch', `not approved (approve each by its exact proposal_hash with --approve): ${unapproved.join('; ')}`);
  }
  const stray = settings.approve.filter((hash) => !candidates.some((c) => c.proposal.proposal_hash === hash));
  if (stray.length > 0) throw new ConfigurationError(`--approve ${stray[0]} is no candidate's proposal_hash; approve only the candidates given`);

  // The first candidate (by name) of each normalised key is validated; the others share its runs.
  const original = new Map<string, Candidate>();
  for (const c of candidates) if (!original.has(c.key)) original.set(c.key, c);
  const order = [...candidates.filter((c) => original.get(c.key) === c), ...candidates.filter((c) => original.get(c.key) !== c)];

  const { witness, dispose } = await openWitness(settings, witnessKey);
  const ownCache = settings.setupCache === undefined ? await mkdtemp(join(tmpdir(), 'patchproof-screen-setup-')) : undefined;
  try {
    const manifest = witness.manifest;
    const adapter = await witnessAdapter(manifest, witness.dir);
    const runner = await createRunner(settings);
    const removeHandlers = installSignalCleanup(runner, (code) => {
      removeLiveScratchSync();
      process.exit(code);
    });
    try {
      const sealer = hiddenDetailSealer(witnessKey);
      const cacheDir = settings.setupCache !== undefined ? await setupCacheDir(settings.setupCache, repo) : (ownCache as string);
      const limits = validationLimits(settings, manifest);
      // --baseline-cache: a hit stands for the base side of every candidate; a miss is filled by the first one.
      const cached =
        settings.baselineCache !== undefined
          ? await lookUpBaseline(settings.baselineCache, repo, { baseSnapshot: snapshot.digest, witnessDigest: witness.digest, adapter: adapter.name, runner, limits }, io)
          : undefined;
      let baseline: SharedBaseline | undefined = cached?.hit?.baseline;
      const fromCache = baselineRequest(cached);
      const results = new Map<string, ValidationResult>();
      const runsOf = new Map<string, SharedRuns | undefined>();
      const progress = stderrProgress({ write: io.err, ...(io.errTTY !== undefined ? { isTTY: io.errTTY } : {}), ...(io.errColumns !== undefined ? { columns: io.errColumns } : {}) });
      for (const c of order) {
        const from = original.get(c.key) as Candidate;
        const shared = from === c ? undefined : runsOf.get(from.name);
        progress.log(`screen: ${c.name}${from === c ? '' : ` (normalises like ${from.name}${shared === undefined ? ', validated on its own: it made no runs to share' : ''})`}`);
        const result = await validateWithDetail(
          {
            repoDir: repo,
            proposal: c.proposal,
            approval: c.approval,
            witness: { ...witness, ...packInRepo(repo, settings) },
            adapter,
            runner,
            limits,
            concurrency: settings.concurrency,
            earlyExit: true,
            baselineShared: true,
            ...fromCache,
            ...(baseline !== undefined ? { baseline } : {}),
            ...(shared !== undefined ? { sharedRuns: shared } : {}),
            ...(sealer !== undefined ? { encryptHiddenDetail: sealer } : {}),
            setupCacheDir: cacheDir,
            progress: { run: (event) => progress.run({ ...event, candidate: c.name }) }
          },
          { snapshot: takeSnapshot, now: () => new Date(), log: (line) => progress.log(`  ${line}`), nonce: () => randomBytes(16).toString('hex') }
        );
        if (c === order[0]) await settleBaseline(cached, result, io);
        baseline ??= result.baseline;
        results.set(c.name, result);
        runsOf.set(c.name, result.runs);
      }
      progress.done();

      const screened: ScreenedCandidate[] = [];
      let broken = false;
      for (const c of candidates) {
        const { receipt } = results.get(c.name) as ValidationResult;
        const text = serializeReceipt(receipt);
        const check = verifyReceiptText(text);
        if (!check.integrity_valid) {
          broken = true;
          io.err(`patchproof: ${c.name}'s receipt failed its own verification: ${check.errors.join('; ')}\n`);
        }
        const dir = join(settings.out, 'candidates', c.name);
        await writeFileAtomic(join(dir, 'proposal.json'), `${JSON.stringify(c.proposal, null, 2)}\n`);
        await writeFileAtomic(join(dir, 'approval.json'), `${JSON.stringify(c.approval, null, 2)}\n`);
        await writeFileAtomic(join(dir, 'receipt.json'), text);
        await writeFileAtomic(join(dir, 'report.md'), renderReport(receipt, {}));
        await writeFileAtomic(join(dir, 'feedback.json'), `${JSON.stringify(feedbackOf(receipt), null, 2)}\n`);
        const from = original.get(c.key) as Candidate;
        screened.push({
          name: c.name,
          receipt: `candidates/${c.name}/receipt.json`,
          receipt_digest: receipt.receipt_digest,
          diff_digest: receipt.bindings.diff_digest,
          verdict: receipt.verdict,
          normalised_key: c.key,
          ...(receipt.gates?.shared_runs !== undefined ? { duplicate_of: from.name } : {}),
          similar: candidates
            .filter((d) => d !== c && d.key !== c.key)
            .map((d) => ({ name: d.name, score: similarity(c.applied, d.applied) }))
            .filter((s) => s.score >= SIMILAR_FROM),
          rank_key: rankKeyOf(receipt)
        });
      }
      const first = results.get(candidates[0]!.name)!.receipt;
      const body: ScreeningBody = {
        schema: SCREENING_SCHEMA,
        tool_version: TOOL_VERSION,
        started_at: startedAt.toISOString(),
        finished_at: new Date().toISOString(),
        base_snapshot: snapshot.digest,
        witness_digest: witness.digest,
        baseline_digest: first.baseline?.digest ?? first.receipt_digest,
        rank_fields: [...RANK_FIELDS],
        candidates: screened,
        ranking: rankCandidates(screened)
      };
      const screening = sealScreening(body);
      const text = serializeScreening(screening);
      await writeFileAtomic(join(settings.out, 'screening.json'), text);
      const table = renderRanking(screening.ranking, screened);
      await writeFileAtomic(join(settings.out, 'ranking.md'), table);
      io.out(table);
      const check = verifyScreeningText(text, (rel) => readBound(settings.out, rel));
      if (broken || !check.integrity_valid) {
        io.err(`patchproof: the screening receipt failed its own verification: ${check.errors.join('; ')}\n`);
        return EXIT.inconclusive;
      }
      return check.best !== null ? EXIT.passed : EXIT.failed;
    } finally {
      await runner.dispose();
      removeHandlers();
    }
  } finally {
    await dispose();
    if (ownCache !== undefined) await rm(ownCache, { recursive: true, force: true });
  }
}

function renderRanking(ranking: { rank: number; name: string; why: string }[], candidates: readonly ScreenedCandidate[]): string {
  const byName = new Map(candidates.map((c) => [c.name, c]));
  const rows = ranking.map((r) => {
    const c = byName.get(r.name)!;
    const tuple = RANK_FIELDS.map((f) => c.rank_key[f]).join(', ');
    const notes = [c.duplicate_of !== undefined ? `duplicate of ${c.duplicate_of}` : '', ...c.similar.map((s) => `similar to ${s.name} (${s.score})`)].filter((n) => n !== '').join('; ');
    return `| ${r.rank} | ${c.name} | ${c.verdict} | (${tuple}) | ${notes} |`;
  });
  return [`| rank | candidate | verdict | (${RANK_FIELDS.join(', ')}) | notes |`, '| --- | --- | --- | --- | --- |', ...rows].join('\n') + '\n';
}

/** A bound receipt beside the screening receipt (the path is checked by the schema: candidates/<name>/receipt.json). */
function readBound(dir: string, rel: string): string | undefined {
  try {
    const path = join(dir, ...rel.split('/'));
    if (!statSync(path).isFile()) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** verify-receipt of a screening receipt: its bound receipts are read from beside it. */
export function verifyScreeningFile(file: string, text: string, io: Console): number {
  const check = verifyScreeningText(text, (rel) => readBound(dirname(resolve(file)), rel));
  io.out(`${JSON.stringify({ integrity_valid: check.integrity_valid, kind: 'screening', best: check.best, screening_digest: check.screening_digest, errors: check.errors }, null, 2)}\n`);
  return check.integrity_valid ? EXIT.passed : EXIT.failed;
}

async function readVerified(path: string, what: string): Promise<Receipt> {
  const text = await readTextFile(path, what);
  const check = verifyReceiptText(text);
  if (!check.integrity_valid) throw new VerificationError('bad_input', `${what} '${path}' does not verify: ${check.errors.slice(0, 3).join('; ')}`);
  return receiptSchema.parse(JSON.parse(text));
}

/** `patchproof compare OLD NEW`: exit 0 when NEW improved on OLD (a check gained, none lost), else 1. */
export async function compareCommand(settings: CompareSettings, io: Console): Promise<number> {
  const before = await readVerified(settings.old, 'OLD_RECEIPT');
  const after = await readVerified(settings.new, 'NEW_RECEIPT');
  if (before.bindings.base_snapshot !== after.bindings.base_snapshot || before.bindings.witness_digest !== after.bindings.witness_digest) {
    throw new ConfigurationError('the two receipts are for another base snapshot or witness pack; compare candidates of one bug on one base');
  }
  const result = compareFeedback(before, after);
  io.out(`${JSON.stringify({ improved: result.improved, gained: result.gained, lost: result.lost }, null, 2)}\n`);
  return result.improved ? EXIT.passed : EXIT.failed;
}
