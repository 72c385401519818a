import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Digest } from '../core/hashing.js';
import { TOOL_VERSION } from '../version.js';
import { witnessAdapter } from '../adapters/registry.js';
import type { TestAdapter } from '../adapters/adapter.js';
import { checkDiff, type DiffLimits } from '../core/diff-policy.js';
import { applyFileChanges } from '../core/patch-apply.js';
import { createProposal, parseApproval, parseProposal, type Approval, type Proposal } from '../core/proposal.js';
import { serializeReceipt, verifyReceiptText } from '../core/receipt.js';
import { receiptSchema, type Receipt } from '../core/receipt-schema.js';
import { renderReport } from '../core/report.js';
import { exactKey, normalisedKey, similarity } from '../core/normalise.js';
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
  type Screening,
  type ScreenedCandidate,
  type ScreeningBody,
  type ShardManifest
} from '../core/screening.js';
import { feedbackOf } from '../core/feedback.js';
import type { HiddenDetail } from '../core/hidden-ids.js';
import type { ProgressSink } from '../core/progress.js';
import { ConfigurationError, VerificationError } from '../errors.js';
import { readTextFile, writeFileAtomic } from '../io/files.js';
import { takeSnapshot } from '../inventory/snapshot.js';
import type { Snapshot } from '../core/snapshot-record.js';
import { installSignalCleanup } from '../runners/docker-runner.js';
import type { Runner } from '../runners/runner.js';
import { validateWithDetail } from './orchestrator.js';
import type { SharedBaseline, SharedRuns, ValidationLimits, ValidationRequest, ValidationResult, WitnessInput } from './types.js';

/**
 * The one screening chain both entries run (`patchproof screen`/`merge` in src/cli/screen.ts, and the
 * action's screen mode): candidates proposed on one base → witness → adapter → one runner → each
 * candidate validated with early exit, the base side once, exact duplicates sharing runs → candidate
 * folders → the sealed screening receipt (or, for one shard, its manifest); and the merge of shard
 * folders into the screening receipt. Entries keep their inputs and outputs; this module writes the
 * folder layout:
 *   screening.json, ranking.md, candidates/<name>/{proposal,approval,receipt,feedback}.json, report.md
 *   (a shard: shard.json and its candidates/ only)
 *
 * Not pipeline() itself: pipeline() makes and disposes of one runner per validation, and a screening
 * shares one runner (and its base side) across every candidate; the chain is the same.
 */

/** A near-duplicate is reported from this token-bigram similarity on. */
export const SIMILAR_FROM = 0.8;
/** A candidate's name: a folder name under candidates/. */
export const CANDIDATE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** A shard's manifest, beside its candidates/ folder. */
export const SHARD_FILE = 'shard.json';

/** One proposed candidate of a screening. */
export interface ScreenCandidate {
  name: string;
  proposal: Proposal;
  approval: Approval;
  /** The files it changes, as they are after it applies (for the keys and similarity). */
  applied: Map<string, Buffer | null>;
  /** The normalised key of the changed files (near-duplicates: reported, validated on their own). */
  key: string;
  /** The exact key of the changed files (paths and bytes): only candidates of one exact key share runs. */
  exact: string;
}

/** The base checkout a screening proposes its candidates on. */
export interface ScreenBase {
  dir: string;
  snapshot: Digest;
  tracked: ReadonlySet<string>;
  /** The whole snapshot record (the receipt store keeps the base entries a candidate changes). */
  record: Snapshot;
}

/** Snapshot the base checkout once for every candidate. */
export async function screenBase(dir: string): Promise<ScreenBase> {
  const snapshot = await takeSnapshot(dir);
  return { dir, snapshot: snapshot.digest, tracked: new Set(snapshot.entries.filter((e) => e.kind === 'file').map((e) => e.path)), record: snapshot };
}

/** Propose a candidate's diff on the base, and read the files it changes. Policy refusals throw. */
export function proposeCandidate(diff: string, base: ScreenBase, limits: DiffLimits): Omit<ScreenCandidate, 'name' | 'approval'> {
  const changes = checkDiff(diff, limits);
  const proposal = createProposal(diff, base.snapshot, TOOL_VERSION);
  const applied = applyFileChanges((path) => (base.tracked.has(path) ? readFileSync(join(base.dir, ...path.split('/'))) : undefined), changes);
  return { proposal, applied, key: normalisedKey(applied), exact: exactKey(applied) };
}

/**
 * The first candidate (by name) of each exact key is validated; the others share its runs. Code can
 * read its own comments and layout back, so candidates that differ only in them are validated on
 * their own (and reported as near-duplicates).
 */
export function originalsOf(candidates: readonly Pick<ScreenCandidate, 'name' | 'exact'>[]): Map<string, Pick<ScreenCandidate, 'name' | 'exact'>> {
  const original = new Map<string, Pick<ScreenCandidate, 'name' | 'exact'>>();
  for (const c of candidates) if (!original.has(c.exact)) original.set(c.exact, c);
  return original;
}

/** Progress of a screening: the runs, free lines, and the end (a terminal's status line is cleared). */
export interface ScreenProgress extends ProgressSink {
  log(line: string): void;
  done(): void;
}

/** What a screening writes its one-line notes to (stdout and stderr of the CLI, the action's log). */
export interface ScreenLog {
  out(text: string): void;
  err(text: string): void;
}

/** The base side across candidates (and runs): a cache looked up before the first validation. */
export interface ScreenBaseline {
  /** A cached base side (a hit), shared by every candidate. */
  baseline?: SharedBaseline;
  /** The request fields of the lookup (`baseline`, `baselineCache`). */
  request: Pick<ValidationRequest, 'baseline' | 'baselineCache'>;
  /** After the first validation: a hit must judge to its recorded digest; a miss is kept. */
  settle(result: ValidationResult): Promise<void>;
}

export interface ScreenOptions {
  base: ScreenBase;
  /** Every approved candidate, sorted by name (every shard proposes all of them). */
  candidates: readonly ScreenCandidate[];
  shard?: { index: number; count: number };
  /** The verified witness pack (its repoPath set when it sits in the base checkout). */
  witness: WitnessInput;
  createRunner(): Promise<Runner>;
  /** On SIGINT/SIGTERM, after the runner's containers are removed. */
  onSignal: (code: number) => void;
  /** The run limits, once the pack is known. */
  limits(manifest: WitnessInput['manifest']): ValidationLimits;
  /** The base side's cache, looked up once the adapter and runner exist; absent: none. */
  baseline?(context: { adapter: TestAdapter; runner: Runner; limits: ValidationLimits }): Promise<ScreenBaseline>;
  concurrency: number;
  encryptHiddenDetail?: (detail: HiddenDetail) => Promise<Uint8Array>;
  setupCacheDir: string;
  progress: ScreenProgress;
  log: ScreenLog;
  out: string;
  startedAt: Date;
}

/**
 * What a screening (or a merge) ended with: `broken` when a receipt failed its own verification
 * (nothing is trusted then); the screening, when one was sealed; the shard's manifest, for a shard.
 */
export interface ScreenOutcome {
  broken: boolean;
  shard?: ShardManifest;
  screening?: Screening;
  screened?: ScreenedCandidate[];
  /** The ranking table (Markdown). */
  table?: string;
  /** The best candidate, when the screening verified; null when none passed. */
  best?: string | null;
  receipts: Map<string, Receipt>;
}

/** Validate the candidates of one screening (or of its shard) and write their folders and the screening receipt (or shard manifest). */
export async function screenPipeline(options: ScreenOptions): Promise<ScreenOutcome> {
  const { candidates, witness, progress, base } = options;
  const original = originalsOf(candidates);
  const members =
    options.shard !== undefined
      ? shardMembers(
          candidates.map((c) => ({ name: c.name, key: c.exact })),
          options.shard.index,
          options.shard.count
        )
      : undefined;
  const mine = members !== undefined ? candidates.filter((c) => members.has(c.name)) : candidates;
  const order = [...mine.filter((c) => original.get(c.exact) === c), ...mine.filter((c) => original.get(c.exact) !== c)];
  const adapter = await witnessAdapter(witness.manifest, witness.dir);
  const runner = await options.createRunner();
  const removeHandlers = installSignalCleanup(runner, options.onSignal);
  const results = new Map<string, ValidationResult>();
  try {
    const limits = options.limits(witness.manifest);
    const cached = options.baseline !== undefined ? await options.baseline({ adapter, runner, limits }) : undefined;
    let baseline: SharedBaseline | undefined = cached?.baseline;
    const runsOf = new Map<string, SharedRuns | undefined>();
    if (options.shard !== undefined)
      progress.log(`screen: shard ${options.shard.index}/${options.shard.count}: ${order.length === 0 ? 'no candidate' : order.map((c) => c.name).join(', ')}`);
    for (const c of order) {
      const from = original.get(c.exact)!;
      const shared = from === c ? undefined : runsOf.get(from.name);
      const alike = from === c ? candidates.find((d) => d !== c && d.key === c.key && d.exact !== c.exact) : undefined;
      const note =
        from !== c
          ? ` (byte-identical to ${from.name}${shared === undefined ? ', validated on its own: it made no runs to share' : ''})`
          : alike !== undefined
            ? ` (normalises like ${alike.name} but its bytes differ: validated on its own)`
            : '';
      progress.log(`screen: ${c.name}${note}`);
      const result = await validateWithDetail(
        {
          repoDir: base.dir,
          proposal: c.proposal,
          approval: c.approval,
          witness,
          adapter,
          runner,
          limits,
          concurrency: options.concurrency,
          earlyExit: true,
          baselineShared: true,
          ...(cached?.request ?? {}),
          ...(baseline !== undefined ? { baseline } : {}),
          ...(shared !== undefined ? { sharedRuns: shared } : {}),
          ...(options.encryptHiddenDetail !== undefined ? { encryptHiddenDetail: options.encryptHiddenDetail } : {}),
          setupCacheDir: options.setupCacheDir,
          progress: { run: (event) => progress.run({ ...event, candidate: c.name }) }
        },
        { snapshot: takeSnapshot, now: () => new Date(), log: (line) => progress.log(`  ${line}`), nonce: () => randomBytes(16).toString('hex') }
      );
      if (c === order[0]) await cached?.settle(result);
      baseline ??= result.baseline;
      results.set(c.name, result);
      runsOf.set(c.name, result.runs);
    }
    progress.done();
  } finally {
    await runner.dispose();
    removeHandlers();
  }

  let broken = false;
  for (const c of mine) broken = !(await writeCandidate(options.out, c, (results.get(c.name) as ValidationResult).receipt, options.log)) || broken;
  const receipts = new Map(mine.map((c) => [c.name, (results.get(c.name) as ValidationResult).receipt]));
  if (options.shard !== undefined) {
    const shard: ShardManifest = {
      schema: SHARD_SCHEMA,
      tool_version: TOOL_VERSION,
      index: options.shard.index,
      count: options.shard.count,
      started_at: options.startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      base_snapshot: base.snapshot,
      witness_digest: witness.digest,
      candidates: candidates.map((c) => ({ name: c.name, proposal_hash: c.proposal.proposal_hash })),
      validated: mine.map((c) => c.name)
    };
    await writeFileAtomic(join(options.out, SHARD_FILE), `${JSON.stringify(shard, null, 2)}\n`);
    return { broken, shard, receipts };
  }
  const sealed = await writeScreening(options.out, { startedAt: options.startedAt, baseSnapshot: base.snapshot, witnessDigest: witness.digest }, candidates, receipts, options.log);
  return { ...sealed, broken: broken || sealed.broken, receipts };
}

/** One candidate's folder: proposal, approval, receipt, report and feedback. False when its receipt fails its own verification. */
export async function writeCandidate(out: string, c: ScreenCandidate, receipt: Receipt, log: ScreenLog): Promise<boolean> {
  const text = serializeReceipt(receipt);
  const check = verifyReceiptText(text);
  if (!check.integrity_valid) log.err(`patchproof: ${c.name}'s receipt failed its own verification: ${check.errors.join('; ')}\n`);
  const dir = join(out, 'candidates', c.name);
  await writeFileAtomic(join(dir, 'proposal.json'), `${JSON.stringify(c.proposal, null, 2)}\n`);
  await writeFileAtomic(join(dir, 'approval.json'), `${JSON.stringify(c.approval, null, 2)}\n`);
  await writeFileAtomic(join(dir, 'receipt.json'), text);
  await writeFileAtomic(join(dir, 'report.md'), renderReport(receipt, {}));
  await writeFileAtomic(join(dir, 'feedback.json'), `${JSON.stringify(feedbackOf(receipt), null, 2)}\n`);
  return check.integrity_valid;
}

/**
 * The screening receipt of every candidate (their folders already written under `out`): each
 * candidate's entry from its own receipt, the duplicates and near-duplicates from the changed
 * files, the ranking; sealed, written with ranking.md, and verified as verify-receipt would.
 */
export async function writeScreening(
  out: string,
  meta: { startedAt: Date; baseSnapshot: ScreeningBody['base_snapshot']; witnessDigest: ScreeningBody['witness_digest'] },
  candidates: readonly ScreenCandidate[],
  receipts: ReadonlyMap<string, Receipt>,
  log: ScreenLog
): Promise<{ broken: boolean; screening: Screening; screened: ScreenedCandidate[]; table: string; best: string | null }> {
  const original = originalsOf(candidates);
  const screened: ScreenedCandidate[] = candidates.map((c) => {
    const receipt = receipts.get(c.name) as Receipt;
    const from = original.get(c.exact)!;
    return {
      name: c.name,
      receipt: `candidates/${c.name}/receipt.json`,
      receipt_digest: receipt.receipt_digest,
      diff_digest: receipt.bindings.diff_digest,
      verdict: receipt.verdict,
      normalised_key: c.key,
      ...(receipt.gates?.shared_runs !== undefined ? { duplicate_of: from.name } : {}),
      similar: candidates
        .filter((d) => d !== c && d.exact !== c.exact)
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
  log.out(table);
  const check = verifyScreeningText(text, (rel) => readBound(out, rel));
  if (!check.integrity_valid) log.err(`patchproof: the screening receipt failed its own verification: ${check.errors.join('; ')}\n`);
  return { broken: !check.integrity_valid, screening, screened, table, best: check.best };
}

/** The ranking as a Markdown table: rank, candidate, verdict, the rank tuple, duplicates and near-duplicates. */
export function renderRanking(ranking: { rank: number; name: string; why: string }[], candidates: readonly ScreenedCandidate[]): string {
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

/** A receipt file that must verify; refused otherwise. */
export async function readVerifiedReceipt(path: string, what: string): Promise<Receipt> {
  const text = await readTextFile(path, what);
  const check = verifyReceiptText(text);
  if (!check.integrity_valid) throw new VerificationError('bad_input', `${what} '${path}' does not verify: ${check.errors.slice(0, 3).join('; ')}`);
  return receiptSchema.parse(JSON.parse(text));
}

/** A shard folder's manifest, parsed as untrusted JSON. */
export async function readShardManifest(dir: string): Promise<ShardManifest> {
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
  return parsed.data;
}

/**
 * The shards of one screening into one screening receipt. The shard manifests are checked against
 * each other first (one N, every K once, one base, pack and candidate list, every candidate
 * validated once); then each candidate's proposal is re-read and must carry its listed hash and
 * apply to the base checkout, its receipt must verify and bind that proposal's diff; the exact and
 * normalised keys, near-duplicates and the ranking are computed here, from the base checkout and the receipts,
 * never taken from a shard. `expected`, when given, is the candidate list the caller computed itself
 * (the action's merge job): the shards must list exactly it.
 */
export async function mergeShardFolders(
  base: ScreenBase,
  dirs: readonly string[],
  out: string,
  log: ScreenLog,
  expected?: readonly { name: string; proposal_hash: string }[]
): Promise<ScreenOutcome> {
  const shards: ShardManifest[] = [];
  for (const dir of dirs) shards.push(await readShardManifest(dir));
  const checked = checkShards(shards);
  if ('error' in checked) throw new ConfigurationError(`the shards do not make one screening: ${checked.error}`);
  const first = shards[0]!;
  if (base.snapshot !== first.base_snapshot)
    throw new ConfigurationError(`--repo's snapshot ${base.snapshot} is not the shards' base ${first.base_snapshot}; give the checkout they were screened on`);
  if (expected !== undefined) {
    const want = expected.map((c) => `${c.name} ${c.proposal_hash}`).sort();
    const have = first.candidates.map((c) => `${c.name} ${c.proposal_hash}`).sort();
    if (want.join('\n') !== have.join('\n')) {
      throw new VerificationError('bad_input', `the shards list candidates [${have.join(', ')}], not the approved [${want.join(', ')}] this job computed`);
    }
  }
  const dirOf = new Map(shards.map((s, i) => [s.index, dirs[i]!]));
  const candidates: ScreenCandidate[] = [];
  const receipts = new Map<string, Receipt>();
  let broken = false;
  for (const { name, proposal_hash } of first.candidates) {
    const from = join(dirOf.get(checked.owner.get(name)!)!, 'candidates', name);
    const proposal = parseProposal(JSON.parse(await readTextFile(join(from, 'proposal.json'), `${name}'s proposal`)), `${name}'s proposal`);
    if (proposal.proposal_hash !== proposal_hash)
      throw new VerificationError('approval_mismatch', `${name}'s proposal has hash ${proposal.proposal_hash}, not the approved ${proposal_hash} the shards list`);
    const approval = parseApproval(JSON.parse(await readTextFile(join(from, 'approval.json'), `${name}'s approval`)), `${name}'s approval`, proposal);
    const receipt = await readVerifiedReceipt(join(from, 'receipt.json'), `${name}'s receipt`);
    if (receipt.bindings.diff_digest !== proposal.diff_digest || receipt.bindings.base_snapshot !== first.base_snapshot) {
      throw new VerificationError('bad_input', `${name}'s receipt binds another diff or base than its proposal`);
    }
    const { applied, key, exact } = proposeCandidate(proposal.diff, base, { maxBytes: Number.MAX_SAFE_INTEGER, maxFiles: Number.MAX_SAFE_INTEGER });
    const c: ScreenCandidate = { name, proposal, approval, applied, key, exact };
    candidates.push(c);
    receipts.set(name, receipt);
    broken = !(await writeCandidate(out, c, receipt, log)) || broken;
  }
  const startedAt = shards.map((s) => s.started_at).sort()[0] ?? new Date().toISOString();
  const sealed = await writeScreening(out, { startedAt: new Date(startedAt), baseSnapshot: first.base_snapshot, witnessDigest: first.witness_digest }, candidates, receipts, log);
  return { ...sealed, broken: broken || sealed.broken, receipts };
}
