import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Digest } from '../core/hashing.js';
import { TOOL_VERSION } from '../version.js';
import { witnessAdapter } from '../adapters/registry.js';
import { checkDiff, type DiffLimits } from '../core/diff-policy.js';
import { applyFileChanges } from '../core/patch-apply.js';
import { approveProposal, createProposal, parseApproval, parseProposal, type Approval, type Proposal } from '../core/proposal.js';
import { serializeReceipt, verifyReceiptText } from '../core/receipt.js';
import { receiptSchema, type Receipt } from '../core/receipt-schema.js';
import { renderReport } from '../core/report.js';
import { normalisedKey, similarity } from '../core/normalise.js';
import {
  checkShards,
  RANK_FIELDS,
  rankCandidates,
  rankKeyOf,
  sealScreening,
  serializeScreening,
  SCREENING_SCHEMA,
  SHARD_SCHEMA,
  shardMembers,
  shardSchema,
  verifyScreeningText,
  type ScreenedCandidate,
  type ScreeningBody,
  type ShardManifest
} from '../core/screening.js';
import { compareFeedback, feedbackOf } from '../core/feedback.js';
import { ConfigurationError, VerificationError } from '../errors.js';
import { assertOutside, existingDir, readTextFile, writeFileAtomic } from '../io/files.js';
import { takeSnapshot } from '../inventory/snapshot.js';
import type { Snapshot } from '../core/snapshot-record.js';
import { defaultReceiptStore } from '../inputs/cli-settings.js';
import { baseEntriesOf, storeReceipt, storeScreening } from '../receipt/store.js';
import { removeLiveScratchSync } from '../phases/workspace.js';
import { installSignalCleanup } from '../runners/docker-runner.js';
import { stderrProgress } from './progress.js';
import { validateWithDetail, type SharedBaseline, type SharedRuns, type ValidationResult } from '../phases/validate.js';
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
 * every candidate receipt by digest. Layout of --out:
 *   screening.json, ranking.md, candidates/<name>/{proposal,approval,receipt,feedback}.json, report.md
 */

/** A near-duplicate is reported from this token-bigram similarity on. */
const SIMILAR_FROM = 0.8;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

interface Candidate {
  name: string;
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

/** Propose a candidate's diff on the base, and read the files it changes (for the normalised key and similarity). */
function proposed(
  diff: string,
  repo: string,
  tracked: ReadonlySet<string>,
  baseSnapshot: Digest,
  limits: DiffLimits
): { proposal: Proposal; applied: Map<string, Buffer | null>; key: string } {
  const changes = checkDiff(diff, limits);
  const proposal = createProposal(diff, baseSnapshot, TOOL_VERSION);
  const applied = applyFileChanges((path) => (tracked.has(path) ? readFileSync(join(repo, ...path.split('/'))) : undefined), changes);
  return { proposal, applied, key: normalisedKey(applied) };
}

/** The first candidate (by name) of each normalised key is validated; the others share its runs. */
function originalsOf(candidates: readonly Candidate[]): Map<string, Candidate> {
  const original = new Map<string, Candidate>();
  for (const c of candidates) if (!original.has(c.key)) original.set(c.key, c);
  return original;
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

  // Every candidate is proposed and its approval checked before anything runs (every shard checks all of them).
  const approved = new Set(settings.approve);
  const candidates: Candidate[] = [];
  const unapproved: string[] = [];
  for (const { name, file } of files) {
    const { proposal, applied, key } = proposed(await readTextFile(file, `candidate ${name}`), repo, tracked, snapshot.digest, limits);
    if (!approved.has(proposal.proposal_hash)) {
      unapproved.push(`${name} ${proposal.proposal_hash}`);
      continue;
    }
    const approval = approveProposal(proposal, proposal.proposal_hash, `${settings.runId}-${name}`, settings.approvedBy, TOOL_VERSION);
    candidates.push({ name, proposal, approval, applied, key });
  }
  if (unapproved.length > 0) {
    throw new VerificationError('approval_mismatch', `not approved (approve each by its exact proposal_hash with --approve): ${unapproved.join('; ')}`);
  }
  const stray = settings.approve.filter((hash) => !candidates.some((c) => c.proposal.proposal_hash === hash));
  if (stray.length > 0) throw new ConfigurationError(`--approve ${stray[0]} is no candidate's proposal_hash; approve only the candidates given`);

  const original = originalsOf(candidates);
  const members = settings.shard !== undefined ? shardMembers(candidates, settings.shard.index, settings.shard.count) : undefined;
  const mine = members !== undefined ? candidates.filter((c) => members.has(c.name)) : candidates;
  const order = [...mine.filter((c) => original.get(c.key) === c), ...mine.filter((c) => original.get(c.key) !== c)];

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
      const progress = stderrProgress({
        write: io.err,
        ...(io.errTTY !== undefined ? { isTTY: io.errTTY } : {}),
        ...(io.errColumns !== undefined ? { columns: io.errColumns } : {})
      });
      if (settings.shard !== undefined)
        progress.log(`screen: shard ${settings.shard.index}/${settings.shard.count}: ${order.length === 0 ? 'no candidate' : order.map((c) => c.name).join(', ')}`);
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

      let broken = false;
      const keep = { store: settings.receiptStore ?? defaultReceiptStore(), snapshot };
      for (const c of mine) broken = !(await writeCandidate(settings.out, c, (results.get(c.name) as ValidationResult).receipt, io, keep)) || broken;
      if (settings.shard !== undefined) {
        const shard: ShardManifest = {
          schema: SHARD_SCHEMA,
          tool_version: TOOL_VERSION,
          index: settings.shard.index,
          count: settings.shard.count,
          started_at: startedAt.toISOString(),
          finished_at: new Date().toISOString(),
          base_snapshot: snapshot.digest,
          witness_digest: witness.digest,
          candidates: candidates.map((c) => ({ name: c.name, proposal_hash: c.proposal.proposal_hash })),
          validated: mine.map((c) => c.name)
        };
        await writeFileAtomic(join(settings.out, SHARD_FILE), `${JSON.stringify(shard, null, 2)}\n`);
        io.out(`shard ${shard.index}/${shard.count}: ${shard.validated.length} of ${candidates.length} candidates validated; merge every shard's folder with 'patchproof merge'\n`);
        return broken ? EXIT.inconclusive : EXIT.passed;
      }
      const receipts = new Map(candidates.map((c) => [c.name, (results.get(c.name) as ValidationResult).receipt]));
      return await writeScreening(settings.out, { startedAt, baseSnapshot: snapshot.digest, witnessDigest: witness.digest }, candidates, receipts, broken, io, keep.store);
    } finally {
      await runner.dispose();
      removeHandlers();
    }
  } finally {
    await dispose();
    if (ownCache !== undefined) await rm(ownCache, { recursive: true, force: true });
  }
}

/** A shard's manifest, beside its candidates/ folder. */
const SHARD_FILE = 'shard.json';

/** One candidate's folder: proposal, approval, receipt, report and feedback. False when its receipt fails its own verification. */
async function writeCandidate(out: string, c: Candidate, receipt: Receipt, io: Console, keep?: { store: string; snapshot: Snapshot }): Promise<boolean> {
  const text = serializeReceipt(receipt);
  const check = verifyReceiptText(text);
  if (!check.integrity_valid) io.err(`patchproof: ${c.name}'s receipt failed its own verification: ${check.errors.join('; ')}\n`);
  const dir = join(out, 'candidates', c.name);
  await writeFileAtomic(join(dir, 'proposal.json'), `${JSON.stringify(c.proposal, null, 2)}\n`);
  await writeFileAtomic(join(dir, 'approval.json'), `${JSON.stringify(c.approval, null, 2)}\n`);
  await writeFileAtomic(join(dir, 'receipt.json'), text);
  await writeFileAtomic(join(dir, 'report.md'), renderReport(receipt, {}));
  await writeFileAtomic(join(dir, 'feedback.json'), `${JSON.stringify(feedbackOf(receipt), null, 2)}\n`);
  // As validate does: an intact receipt of the base as proposed is kept for promote (src/receipt/store.ts).
  if (keep !== undefined && check.integrity_valid && receipt.bindings.base_snapshot === keep.snapshot.digest) {
    await keepOrWarn(keep.store, io, () => storeReceipt(keep.store, receipt, text, c.proposal, baseEntriesOf(keep.snapshot, [...c.applied.keys()])));
  }
  return check.integrity_valid;
}

/**
 * The screening receipt of every candidate (their folders already written under `out`): each
 * candidate's entry from its own receipt, the duplicates and near-duplicates from the changed
 * files, the ranking; sealed, written with ranking.md, and verified as verify-receipt would.
 */
async function writeScreening(
  out: string,
  meta: { startedAt: Date; baseSnapshot: ScreeningBody['base_snapshot']; witnessDigest: ScreeningBody['witness_digest'] },
  candidates: readonly Candidate[],
  receipts: ReadonlyMap<string, Receipt>,
  broken: boolean,
  io: Console,
  store: string
): Promise<number> {
  const original = originalsOf(candidates);
  const screened: ScreenedCandidate[] = candidates.map((c) => {
    const receipt = receipts.get(c.name) as Receipt;
    const from = original.get(c.key) as Candidate;
    return {
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
    };
  });
  const first = receipts.get(candidates[0]!.name)!;
  const body: ScreeningBody = {
    schema: SCREENING_SCHEMA,
    tool_version: TOOL_VERSION,
    started_at: meta.startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    base_snapshot: meta.baseSnapshot,
    witness_digest: meta.witnessDigest,
    baseline_digest: first.baseline?.digest ?? first.receipt_digest,
    rank_fields: [...RANK_FIELDS],
    candidates: screened,
    ranking: rankCandidates(screened)
  };
  const screening = sealScreening(body);
  const text = serializeScreening(screening);
  await writeFileAtomic(join(out, 'screening.json'), text);
  const table = renderRanking(screening.ranking, screened);
  await writeFileAtomic(join(out, 'ranking.md'), table);
  io.out(table);
  const check = verifyScreeningText(text, (rel) => readBound(out, rel));
  if (broken || !check.integrity_valid) {
    io.err(`patchproof: the screening receipt failed its own verification: ${check.errors.join('; ')}\n`);
    return EXIT.inconclusive;
  }
  const bound = screened.map((c) => ({ digest: c.receipt_digest, text: serializeReceipt(receipts.get(c.name) as Receipt) }));
  await keepOrWarn(store, io, () => storeScreening(store, screening.screening_digest, text, bound));
  return check.best !== null ? EXIT.passed : EXIT.failed;
}

/** Keep a receipt for promote; a store that cannot be written costs only the promotion, and says so. */
async function keepOrWarn(store: string, io: Console, keep: () => Promise<unknown>): Promise<void> {
  try {
    await keep();
  } catch (error) {
    io.err(`patchproof: not kept in the receipt store '${store}' (${(error as Error).message.split('\n')[0] ?? ''}); promote will refuse it\n`);
  }
}

/**
 * `patchproof merge --repo DIR --out DIR SHARD_DIR...` (src/cli/merge.ts hands folders here): the shards of one screening into one
 * screening receipt. The shard manifests are checked against each other first (one N, every K once,
 * one base, pack and candidate list, every candidate validated once); then each candidate's
 * proposal is re-read and must carry its listed hash and apply to the base checkout, its receipt must
 * verify and bind that proposal's diff; the normalised keys, near-duplicates and the ranking are
 * computed here, from the base checkout and the receipts, never taken from a shard.
 */
export async function mergeScreenShards(settings: MergeSettings & { repo: string }, io: Console): Promise<number> {
  const startedAt = new Date();
  const repo = await existingDir(settings.repo, '--repo');
  await assertOutside(settings.out, repo, '--out');
  const dirs = await Promise.all(settings.shards.map((dir) => existingDir(dir, 'SHARD_DIR')));
  const out = resolve(settings.out);
  if (dirs.some((dir) => resolve(dir) === out)) throw new ConfigurationError('--out is one of the shard folders; give a new folder');
  const shards: ShardManifest[] = [];
  for (const dir of dirs) {
    const text = await readTextFile(join(dir, SHARD_FILE), `shard folder '${dir}'`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ConfigurationError(`'${join(dir, SHARD_FILE)}' is not JSON; give folders written by 'patchproof screen --shard K/N --out'`);
    }
    const parsed = shardSchema.safeParse(value);
    if (!parsed.success)
      throw new ConfigurationError(`'${join(dir, SHARD_FILE)}' is no shard manifest (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''})`);
    shards.push(parsed.data);
  }
  const checked = checkShards(shards);
  if ('error' in checked) throw new ConfigurationError(`the shards do not make one screening: ${checked.error}`);
  const base = shards[0]!;
  const snapshot = await takeSnapshot(repo);
  if (snapshot.digest !== base.base_snapshot)
    throw new ConfigurationError(`--repo's snapshot ${snapshot.digest} is not the shards' base ${base.base_snapshot}; give the checkout they were screened on`);
  const tracked = new Set(snapshot.entries.filter((e) => e.kind === 'file').map((e) => e.path));
  const dirOf = new Map(shards.map((s, i) => [s.index, dirs[i]!]));

  const candidates: Candidate[] = [];
  const receipts = new Map<string, Receipt>();
  let broken = false;
  for (const { name, proposal_hash } of base.candidates) {
    const from = join(dirOf.get(checked.owner.get(name)!)!, 'candidates', name);
    const proposal = parseProposal(JSON.parse(await readTextFile(join(from, 'proposal.json'), `${name}'s proposal`)), `${name}'s proposal`);
    if (proposal.proposal_hash !== proposal_hash)
      throw new VerificationError('approval_mismatch', `${name}'s proposal has hash ${proposal.proposal_hash}, not the approved ${proposal_hash} the shards list`);
    const approval = parseApproval(JSON.parse(await readTextFile(join(from, 'approval.json'), `${name}'s approval`)), `${name}'s approval`, proposal);
    const receipt = await readVerified(join(from, 'receipt.json'), `${name}'s receipt`);
    if (receipt.bindings.diff_digest !== proposal.diff_digest || receipt.bindings.base_snapshot !== base.base_snapshot) {
      throw new VerificationError('bad_input', `${name}'s receipt binds another diff or base than its proposal`);
    }
    const { applied, key } = proposed(proposal.diff, repo, tracked, snapshot.digest, { maxBytes: Number.MAX_SAFE_INTEGER, maxFiles: Number.MAX_SAFE_INTEGER });
    const c: Candidate = { name, proposal, approval, applied, key };
    candidates.push(c);
    receipts.set(name, receipt);
    broken = !(await writeCandidate(out, c, receipt, io)) || broken;
  }
  const startedAtFirst = shards.map((s) => s.started_at).sort()[0] ?? startedAt.toISOString();
  // The candidates' receipts are not stored here (they were screened by the shards); the screening
  // is kept only when the store already holds every one of them (storeScreening).
  return await writeScreening(
    out,
    { startedAt: new Date(startedAtFirst), baseSnapshot: base.base_snapshot, witnessDigest: base.witness_digest },
    candidates,
    receipts,
    broken,
    io,
    settings.receiptStore ?? defaultReceiptStore()
  );
}

function renderRanking(ranking: { rank: number; name: string; why: string }[], candidates: readonly ScreenedCandidate[]): string {
  const byName = new Map(candidates.map((c) => [c.name, c]));
  const rows = ranking.map((r) => {
    const c = byName.get(r.name)!;
    const tuple = RANK_FIELDS.map((f) => c.rank_key[f]).join(', ');
    const notes = [c.duplicate_of !== undefined ? `duplicate of ${c.duplicate_of}` : '', ...c.similar.map((s) => `similar to ${s.name} (${s.score})`)]
      .filter((n) => n !== '')
      .join('; ');
    return `| ${r.rank} | ${c.name} | ${c.verdict} | (${tuple}) | ${notes} |`;
  });
  return [`| rank | candidate | verdict | (${RANK_FIELDS.join(', ')}) | notes |`, '| --- | --- | --- | --- | --- |', ...rows].join('\n') + '\n';
}

/** A bound receipt beside the screening receipt (the path is checked by the schema: candidates/<name>/receipt.json). */
export function readBound(dir: string, rel: string): string | undefined {
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
  io.out(
    `${JSON.stringify({ integrity_valid: check.integrity_valid, kind: 'screening', best: check.best, screening_digest: check.screening_digest, errors: check.errors }, null, 2)}\n`
  );
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
