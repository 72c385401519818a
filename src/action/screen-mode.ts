import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { approveProposal } from '../core/proposal.js';
import type { Receipt } from '../core/receipt-schema.js';
import { tamperWithheldLine, tamperWithholds } from '../core/tamper.js';
import { renderScreenFailure, renderScreenTable, type CandidateOrigin, type SkippedCandidate } from '../core/screen-table.js';
import type { Screening } from '../core/screening.js';
import { eventLine } from '../core/progress.js';
import { codeSpan, escapeMarkdown } from '../core/markdown.js';
import { COMMIT_SHA_PATTERN, type Digest } from '../core/hashing.js';
import { ConfigurationError, InfrastructureError, VerificationError, isRefusal } from '../errors.js';
import { writeFileAtomic } from '../io/files.js';
import { takeSnapshot } from '../inventory/snapshot.js';
import { resolveWitness, type ResolvedWitness } from '../fetch/witness/fetch.js';
import { createGitSource, type GitSource, type GitSourceOptions } from '../fetch/git.js';
import { splitRepository } from '../inputs/event.js';
import { openBaselineCache, type BaselineKeyFields } from '../phases/baseline-cache.js';
import { mergeShardFolders, proposeCandidate, screenBase, screenPipeline, type ScreenBase, type ScreenCandidate, type ScreenOutcome } from '../phases/screen-pipeline.js';
import type { WitnessInput } from '../phases/types.js';
import { createDockerRunner } from '../runners/docker-runner.js';
import { createLocalRunner } from '../runners/local-runner.js';
import type { Runner } from '../runners/runner.js';
import { checkConclusion, renderCheck, withPreamble } from '../publish/check-report.js';
import { checksClientFor, createChecksClient, type ChecksClientSource } from '../publish/checks-client.js';
import { createCommentsClient, type CommentsClient } from '../publish/comments-client.js';
import { ChecksPermissionError, type StepOutcome } from '../publish/ports.js';
import { createShardArtifacts, shardArtifactName, type ShardArtifacts } from '../publish/shard-artifacts.js';
import type { ActionSettings, WitnessPackInput } from '../inputs/action-settings.js';
import type { ScreenInputs } from '../inputs/screen-settings.js';
import { readRunnerContext, type RunnerContextWith } from '../inputs/runner-context.js';
import { TOOL_VERSION } from '../version.js';
import { createAppInstallationToken } from './app-token.js';
import { createOpenPullsClient, type OpenPullsClient } from './pulls-client.js';
import { inside, readEventPayload, runShardKey, type ModeResult } from './mode.js';
import { decideTrust, defaultBranchRef, trustLine, unprotectedPackRef, type TrustDecision } from './trust.js';

/**
 * Screen mode (`mode: screen`, and `mode: screen-merge` for the last job of a matrix): many candidates
 * for one bug, screened like `patchproof screen` (src/phases/screen-pipeline.ts). Dispatched only,
 * and only from the default branch, so the job runs the default branch's workflow files; the
 * candidates are open pull requests carrying a label (base: the default branch) or given refs. Each
 * candidate's diff is `git diff BASE...HEAD` from git objects (nothing is checked out), proposed on
 * the base tree (GITHUB_SHA, written from git's objects) and approved by its exact hash. A shard job
 * uploads its tagged shard folder; the job that merges verifies every shard, seals the screening
 * receipt, and only then posts each candidate's check run on the commit that was validated, the one
 * comparison table in the job summary, and one marked comment on the tracking issue.
 */

/** The side effects of screen mode, so tests can hand in their own. */
export interface ScreenModeDeps extends ChecksClientSource {
  env: NodeJS.ProcessEnv;
  gitSource(repoDir: string, options: GitSourceOptions): GitSource;
  createRunner(settings: ActionSettings): Promise<Runner>;
  openPulls(token: string, baseUrl: string): OpenPullsClient;
  comments(token: string, baseUrl: string): CommentsClient;
  shardArtifacts(tempRoot: string): ShardArtifacts;
}

export function screenModeDeps(): ScreenModeDeps {
  return {
    env: process.env,
    gitSource: createGitSource,
    createRunner: async (settings) => (settings.runner === 'local' ? createLocalRunner() : createDockerRunner({ image: settings.image as string })),
    checksClient: (token, baseUrl) => createChecksClient(token, { baseUrl }),
    appToken: createAppInstallationToken,
    openPulls: (token, baseUrl) => createOpenPullsClient(token, { baseUrl }),
    comments: (token, baseUrl) => createCommentsClient(token, { baseUrl }),
    shardArtifacts: createShardArtifacts
  };
}

/** The comment's first line: a later run updates the comment that starts with it. */
export const SCREEN_COMMENT_MARKER = '<!-- patchproof-screen -->';
/** The base side of a sharded screening, uploaded by shard 1 (a baseline cache folder, tagged like a shard). */
export const BASELINE_ARTIFACT = 'patchproof-screen-baseline';
/** Beside a shard's candidates: where each candidate came from (covered by the shard's tag). */
const ORIGINS_FILE = 'origins.json';

/** The runner's variables screen mode cannot run without (src/inputs/runner-context.ts reads them). */
const NEEDS = ['eventName', 'eventPath', 'ref', 'sha', 'repository', 'workspace', 'runnerTemp', 'actor', 'runId'] as const;
type ScreenContext = RunnerContextWith<(typeof NEEDS)[number]>;

/**
 * Refused unless dispatched from the default branch: a workflow_dispatch runs the workflow file of
 * the ref it was dispatched on, so from any other branch whoever pushed it wrote this job.
 */
export function dispatchRefusal(eventName: string, ref: string, payload: unknown): string | undefined {
  if (eventName !== 'workflow_dispatch') return `mode screen runs on workflow_dispatch only, not ${eventName}; dispatch the screening workflow from the default branch`;
  const defaultRef = defaultBranchRef(payload);
  if (defaultRef === undefined) return 'the event payload has no repository.default_branch; dispatch the screening workflow from the default branch';
  if (ref !== defaultRef) return `mode screen must be dispatched from the default branch ${defaultRef}, not ${ref}: a dispatch runs the workflow file of the ref it names`;
  return undefined;
}

/** A candidate before it is proposed: where it comes from, and the commit to validate. */
interface Found {
  name: string;
  label: string;
  head: string;
  pullNumber?: number;
  ref?: string;
}

/** The candidates of `screen-label` (open pull requests on the default branch) or `screen-refs`. */
async function findCandidates(
  screen: ScreenInputs,
  settings: ActionSettings,
  deps: ScreenModeDeps,
  context: ScreenContext,
  git: GitSource,
  defaultBranch: string,
  outcome: StepOutcome
): Promise<{ found: Found[]; skipped: SkippedCandidate[] }> {
  const { owner, repo } = splitRepository(context.repository);
  const found: Found[] = [];
  const skipped: SkippedCandidate[] = [];
  if (screen.label !== undefined) {
    const open = await deps.openPulls(settings.token, context.apiUrl).listOpen(owner, repo);
    for (const pr of open.filter((p) => p.labels.includes(screen.label as string)).sort((a, b) => a.number - b.number)) {
      // Only pull requests into the default branch: the screening's one base is its tip.
      if (pr.baseRef !== defaultBranch) {
        skipped.push({
          label: `#${pr.number}`,
          why: `its base is ${codeSpan(pr.baseRef, { max: 100 })}, not the default branch ${codeSpan(defaultBranch, { max: 100 })}; only pull requests into the default branch are screened`
        });
        continue;
      }
      if (!COMMIT_SHA_PATTERN.test(pr.headSha)) throw new InfrastructureError(`pull request #${pr.number} has no valid head sha`);
      found.push({ name: `pr-${pr.number}`, label: `#${pr.number}`, head: pr.headSha, pullNumber: pr.number });
    }
    outcome.info(`screen: ${found.length} open pull request(s) labelled '${screen.label}' on ${defaultBranch}${skipped.length > 0 ? `, ${skipped.length} skipped` : ''}`);
  } else {
    for (const ref of screen.refs ?? []) {
      const head = COMMIT_SHA_PATTERN.test(ref) ? ref : await git.resolveCommit(ref);
      const name = `ref-${ref.replace(/^refs\/(heads|tags)\//, '').replace(/[^A-Za-z0-9._-]/g, '-')}`.slice(0, 100);
      if (found.some((f) => f.name === name)) throw new ConfigurationError(`screen-refs names '${ref}' twice (or two refs that spell the same name ${name}); list each once`);
      found.push({ name, label: ref, head, ref });
    }
  }
  return { found, skipped };
}

/**
 * The witness pack, digest-verified; a `ref:` pack only from the default branch or a tag, never a
 * pull request's ref. Its commit is returned so that no candidate whose head it holds is screened
 * against it (the grader must not come from the candidate).
 */
async function openPack(
  pack: WitnessPackInput,
  digest: string,
  git: GitSource,
  context: ScreenContext,
  payload: unknown,
  repoDir: string,
  key: string | undefined
): Promise<ResolvedWitness & { repoPath?: string; packCommit?: string }> {
  const options = { tempDir: context.runnerTemp, ...(key !== undefined ? { witnessKey: key } : {}) };
  switch (pack.kind) {
    case 'url':
      return resolveWitness(pack.url, digest, options);
    case 'path': {
      const full = inside(context.workspace, pack.path, 'witness-pack');
      const inRepo = relative(repoDir, full);
      const resolved = await resolveWitness(full, digest, options);
      return inRepo.startsWith('..') || isAbsolute(inRepo) ? resolved : { ...resolved, repoPath: inRepo.split(sep).join('/') };
    }
    case 'ref': {
      if (pack.ref.startsWith('refs/pull/'))
        throw new ConfigurationError(`witness-pack ref '${pack.ref}' belongs to a pull request; read the pack from the default branch or a tag`);
      const unprotected = unprotectedPackRef(pack.ref, payload);
      if (unprotected !== undefined) throw new ConfigurationError(unprotected);
      const commit = await git.resolveCommit(pack.ref);
      const folder = await mkdtemp(join(context.runnerTemp, 'patchproof-ref-'));
      try {
        await git.writeTree(`${commit}:${pack.path}`, folder);
        return { ...(await resolveWitness(folder, digest, options)), repoPath: pack.path, packCommit: commit };
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    }
  }
}

/** The base tree (GITHUB_SHA) written from git's objects into a fresh folder under RUNNER_TEMP, and snapshotted. */
async function writeBase(git: GitSource, commit: string, work: string): Promise<ScreenBase> {
  const dir = join(work, 'base');
  const written = await git.writeTree(commit, dir);
  const snapshot = await takeSnapshot(dir);
  if (snapshot.source !== 'walk' || snapshot.entries.length !== written.length) {
    throw new InfrastructureError(
      `the base tree written to ${dir} snapshots as ${snapshot.entries.length} files, not ${written.length}; RUNNER_TEMP must not be inside a git work tree`
    );
  }
  return screenBase(dir);
}

/**
 * Run screen or screen-merge. A dispatch from anything but the default branch is refused before
 * anything is fetched. Infrastructure faults and a missing shard are `inconclusive`; a refused shard
 * (its tag or download does not verify) is `failed`; in both no check run is posted.
 */
export async function screenMode(settings: ActionSettings, outcome: StepOutcome, deps: ScreenModeDeps = screenModeDeps()): Promise<ModeResult> {
  const screen = settings.screen;
  if (screen === undefined) throw new ConfigurationError('screen inputs are missing; give screen-label or screen-refs');
  const context = readRunnerContext(deps.env, NEEDS);
  const payload = await readEventPayload(context.eventPath);
  const refusal = dispatchRefusal(context.eventName, context.ref, payload);
  if (refusal !== undefined) throw new ConfigurationError(refusal);
  if (!COMMIT_SHA_PATTERN.test(context.sha)) throw new ConfigurationError(`GITHUB_SHA '${context.sha}' is not a commit SHA`);
  const defaultBranch = (defaultBranchRef(payload) as string).slice('refs/heads/'.length);
  const trust = decideTrust({ eventName: context.eventName, workflowRef: context.workflowRef, repository: context.repository, payload });
  if (!trust.trusted) outcome.warning(`PatchProof will not post success from this run: ${trust.why}`);
  const repoDir = inside(context.workspace, settings.repositoryPath, 'repository-path');
  const git = deps.gitSource(repoDir, { token: settings.token, serverUrl: context.serverUrl });
  const work = await mkdtemp(join(context.runnerTemp, 'patchproof-screen-'));
  try {
    if (settings.mode === 'screen-merge') return await mergeJob(settings, screen, outcome, deps, context, git, work, trust);
    return await screenJob(settings, screen, outcome, deps, context, git, work, trust, payload, repoDir, defaultBranch);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function screenJob(
  settings: ActionSettings,
  screen: ScreenInputs,
  outcome: StepOutcome,
  deps: ScreenModeDeps,
  context: ScreenContext,
  git: GitSource,
  work: string,
  trust: TrustDecision,
  payload: unknown,
  repoDir: string,
  defaultBranch: string
): Promise<ModeResult> {
  if (settings.witness === undefined) throw new ConfigurationError('witness-pack and witness-digest are required in screen mode');
  const startedAt = new Date();
  const { found, skipped } = await findCandidates(screen, settings, deps, context, git, defaultBranch, outcome);
  const base = context.sha;
  for (const f of found) await git.fetchCommits(base, f.head, f.pullNumber);
  const witness = await openPack(settings.witness.pack, settings.witness.digest, git, context, payload, repoDir, settings.witnessKey);
  try {
    const limits = { maxBytes: witness.manifest.limits.diff_max_bytes, maxFiles: witness.manifest.limits.diff_max_files };
    const baseTree = await writeBase(git, base, work);
    const candidates: ScreenCandidate[] = [];
    const origins = new Map<string, CandidateOrigin>();
    const approved = screen.approvedHashes !== undefined ? new Set(screen.approvedHashes) : undefined;
    for (const f of found) {
      if (witness.packCommit !== undefined && (f.head === witness.packCommit || (await git.isAncestor(f.head, witness.packCommit)))) {
        skipped.push({
          label: f.label,
          why: `refused: the witness pack's commit ${witness.packCommit} is this candidate's head or contains it; the grader must not come from the candidate`
        });
        continue;
      }
      let proposed;
      try {
        proposed = proposeCandidate(await git.diff(base, f.head, limits.maxBytes), baseTree, limits);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        skipped.push({ label: f.label, why: `refused (${error.code}): ${escapeMarkdown(error.message, 500)}` });
        continue;
      }
      const hash = proposed.proposal.proposal_hash;
      outcome.info(`proposal_hash of ${f.label} (${f.head}): ${hash}`);
      if (approved !== undefined && !approved.has(hash)) {
        skipped.push({ label: f.label, why: `not approved: its proposal hash ${hash} is not in approved-proposal-hashes` });
        continue;
      }
      // approved_by is declared metadata (who dispatched the run), not an authenticated identity.
      const approval = approveProposal(proposed.proposal, hash, `${context.runId}-${context.runAttempt}-${f.name}`, `github-actions:${context.actor}`, TOOL_VERSION);
      candidates.push({ name: f.name, ...proposed, approval });
      origins.set(f.name, { name: f.name, headSha: f.head, ...(f.pullNumber !== undefined ? { pullNumber: f.pullNumber } : {}), ...(f.ref !== undefined ? { ref: f.ref } : {}) });
    }
    candidates.sort((a, b) => (a.name < b.name ? -1 : 1));
    if (candidates.length === 0) {
      await summary(outcome, renderScreenFailure('no candidate to screen: none was found, or every one was refused', skipped));
      return { verdict: 'inconclusive', proofGrade: false, message: `screen: no candidate to screen (${skipped.length} refused or skipped)` };
    }
    // Kept after the step (receipt-path): the screening folder, under RUNNER_TEMP.
    const out = await mkdtemp(join(context.runnerTemp, 'patchproof-screening-'));
    const setupCache = await mkdtemp(join(context.runnerTemp, 'patchproof-screen-setup-'));
    const artifacts = deps.shardArtifacts(context.runnerTemp);
    // One base side for every shard (the screening receipt binds one baseline): shard 1 makes it and
    // uploads it tagged like a shard; the others take exactly that artifact of this run, or stop.
    let baselineDir: string | undefined;
    if (screen.shard !== undefined) {
      if (screen.shard.index === 1) baselineDir = await mkdtemp(join(context.runnerTemp, 'patchproof-baseline-'));
      else {
        baselineDir = await artifacts.download(BASELINE_ARTIFACT, runShardKey(settings, context));
        if (baselineDir === undefined) {
          throw new ConfigurationError(
            `this run has no ${BASELINE_ARTIFACT} artifact: shard 1 must finish (and upload the base side) before shard ${screen.shard.index}/${screen.shard.count} starts`
          );
        }
      }
    }
    try {
      const result = await screenPipeline({
        base: baseTree,
        candidates,
        ...(screen.shard !== undefined ? { shard: screen.shard } : {}),
        witness: {
          ...(witness as WitnessInput),
          source: { kind: witness.source.kind, location: describePack(settings.witness.pack) },
          ...(settings.witnessKey !== undefined ? { witnessKey: settings.witnessKey } : {})
        },
        createRunner: () => deps.createRunner(settings),
        onSignal: (code) => process.exit(code),
        limits: (manifest) => ({
          timeoutMs: manifest.limits.timeout_seconds * 1000,
          outputLimitBytes: manifest.limits.output_limit_bytes,
          diff: { maxBytes: manifest.limits.diff_max_bytes, maxFiles: manifest.limits.diff_max_files }
        }),
        ...(baselineDir !== undefined ? { baseline: baselineFrom(baselineDir, baseTree, witness.digest, outcome) } : {}),
        concurrency: 2,
        setupCacheDir: setupCache,
        progress: { run: (event) => (event.kind === 'end' ? outcome.info(eventLine(event)) : undefined), log: (line) => outcome.info(line), done: () => undefined },
        log: { out: (text) => outcome.info(text.trimEnd()), err: (text) => outcome.warning(text.trimEnd()) },
        out,
        startedAt
      });
      await writeFileAtomic(join(out, ORIGINS_FILE), `${JSON.stringify({ origins: [...origins.values()], skipped }, null, 2)}\n`);
      if (screen.shard !== undefined) {
        if (result.broken)
          return {
            verdict: 'inconclusive',
            proofGrade: false,
            message: `shard ${screen.shard.index}/${screen.shard.count}: a receipt failed its own verification; nothing was uploaded`
          };
        if (screen.shard.index === 1) await artifacts.upload(BASELINE_ARTIFACT, baselineDir as string, runShardKey(settings, context));
        const name = shardArtifactName(screen.shard.index, screen.shard.count);
        const id = await artifacts.upload(name, out, runShardKey(settings, context));
        const validated = result.shard?.validated ?? [];
        // A shard is no verdict: `uploaded`, as a validate shard job reports (main.ts keeps the step green).
        return {
          verdict: 'uploaded',
          proofGrade: false,
          artifactId: id,
          message: `shard ${screen.shard.index}/${screen.shard.count}: ${validated.length} of ${candidates.length} candidates validated and uploaded as ${name}; the merge job judges them`
        };
      }
      return await publishScreening(settings, outcome, deps, context, trust, result, origins, skipped, join(out, 'screening.json'));
    } finally {
      await rm(setupCache, { recursive: true, force: true });
      if (baselineDir !== undefined) await rm(baselineDir, { recursive: true, force: true });
    }
  } finally {
    await witness.dispose();
  }
}

function describePack(pack: WitnessPackInput): string {
  return pack.kind === 'url' ? pack.url : pack.kind === 'path' ? pack.path : `ref:${pack.ref}:${pack.path}`;
}

/**
 * The base side in a baseline cache folder: shard 1's fresh one (a miss: it runs the base side and
 * keeps it), or shard 1's upload, downloaded from this run with its tag verified (a hit). An entry
 * is re-hashed before reuse; a miss runs the base side (and merge then refuses the other baseline).
 */
function baselineFrom(dir: string, base: ScreenBase, witnessDigest: Digest, outcome: StepOutcome): NonNullable<Parameters<typeof screenPipeline>[0]['baseline']> {
  return async ({ adapter, runner, limits }) => {
    const cache = await openBaselineCache(dir, 'baseline-cache');
    const fields: BaselineKeyFields = {
      tool_version: TOOL_VERSION,
      base_snapshot: base.snapshot,
      witness_digest: witnessDigest,
      adapter: adapter.name,
      runner: { ...runner.description, settings: [...runner.description.settings] },
      limits: { timeout_ms: limits.timeoutMs, output_limit_bytes: limits.outputLimitBytes }
    };
    const { hit, miss } = await cache.read(fields);
    outcome.info(
      hit !== undefined ? `baseline cache: reusing entry ${hit.entry} (baseline ${hit.baselineDigest})` : `baseline cache: miss (${miss ?? 'no entry'}); the base side runs`
    );
    return {
      ...(hit !== undefined ? { baseline: hit.baseline } : {}),
      request: hit !== undefined ? { baseline: hit.baseline, baselineCache: { entry: hit.entry } } : { baselineCache: {} },
      settle: async (result) => {
        const digest = result.receipt.baseline?.digest;
        if (hit !== undefined) {
          if (digest !== hit.baselineDigest)
            throw new VerificationError('bad_input', `baseline-cache entry ${hit.entry} records baseline ${hit.baselineDigest}, but its runs judge to ${digest ?? 'none'}`);
          return;
        }
        if (digest !== undefined && result.baseline !== undefined) await cache.write(fields, digest as Digest, result.baseline);
      }
    };
  };
}

/** The last job of a matrix: every shard of this run, verified, merged, then published. */
async function mergeJob(
  settings: ActionSettings,
  screen: ScreenInputs,
  outcome: StepOutcome,
  deps: ScreenModeDeps,
  context: ScreenContext,
  git: GitSource,
  work: string,
  trust: TrustDecision
): Promise<ModeResult> {
  const count = screen.shards as number;
  const artifacts = deps.shardArtifacts(context.runnerTemp);
  const dirs: string[] = [];
  const missing: string[] = [];
  try {
    for (let index = 1; index <= count; index++) {
      const name = shardArtifactName(index, count);
      let dir: string | undefined;
      try {
        dir = await artifacts.download(name, runShardKey(settings, context));
      } catch (error) {
        if (!isRefusal(error)) throw error;
        const why = `refused: ${error.message}`;
        await summary(outcome, renderScreenFailure(why, []));
        await comment(settings, screen, deps, context, outcome, renderScreenFailure(why, []));
        return { verdict: 'failed', proofGrade: false, message: `screen-merge ${why}; no check run was posted` };
      }
      if (dir === undefined) missing.push(name);
      else dirs.push(dir);
    }
    if (missing.length > 0) {
      const why = `the shard artifact(s) ${missing.join(', ')} of this run are missing: the candidates they hold were not judged`;
      await summary(outcome, renderScreenFailure(why, []));
      await comment(settings, screen, deps, context, outcome, renderScreenFailure(why, []));
      return { verdict: 'inconclusive', proofGrade: false, message: `screen-merge: ${why}; no check run was posted` };
    }
    const origins = new Map<string, CandidateOrigin>();
    const skipped: SkippedCandidate[] = [];
    for (const dir of dirs) {
      const parsed = JSON.parse(await readFile(join(dir, ORIGINS_FILE), 'utf8')) as { origins: CandidateOrigin[]; skipped: SkippedCandidate[] };
      for (const o of parsed.origins) if (!origins.has(o.name)) origins.set(o.name, o);
      if (dir === dirs[0]) skipped.push(...parsed.skipped);
    }
    const baseTree = await writeBase(git, context.sha, work);
    const out = await mkdtemp(join(context.runnerTemp, 'patchproof-screening-'));
    let result: ScreenOutcome;
    try {
      result = await mergeShardFolders(baseTree, dirs, out, { out: (text) => outcome.info(text.trimEnd()), err: (text) => outcome.warning(text.trimEnd()) });
      if (result.screening?.witness_digest !== screen.witnessDigest) {
        throw new VerificationError(
          'bad_input',
          `the shards were graded by pack ${result.screening?.witness_digest ?? '(none)'}, not witness-digest ${screen.witnessDigest ?? '(none)'}`
        );
      }
    } catch (error) {
      if (!isRefusal(error)) throw error;
      const why = `the shards do not make one verified screening: ${error.message}`;
      await summary(outcome, renderScreenFailure(why, skipped));
      await comment(settings, screen, deps, context, outcome, renderScreenFailure(why, skipped));
      return { verdict: 'failed', proofGrade: false, message: `screen-merge refused: ${why}; no check run was posted` };
    }
    return await publishScreening(settings, outcome, deps, context, trust, result, origins, skipped, join(out, 'screening.json'));
  } finally {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

async function summary(outcome: StepOutcome, markdown: string): Promise<void> {
  try {
    await outcome.summary(markdown);
  } catch (error) {
    outcome.warning(`the job summary could not be written: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The tracking comment, updated in place; a failure is returned as a line (the run is then inconclusive). */
async function comment(
  settings: ActionSettings,
  screen: ScreenInputs,
  deps: ScreenModeDeps,
  context: ScreenContext,
  outcome: StepOutcome,
  markdown: string
): Promise<string | undefined> {
  if (screen.commentIssue === undefined) return undefined;
  const { owner, repo } = splitRepository(context.repository);
  try {
    const { id, updated } = await deps.comments(settings.token, context.apiUrl).upsert(owner, repo, screen.commentIssue, SCREEN_COMMENT_MARKER, markdown);
    outcome.info(`comment ${id} ${updated ? 'updated' : 'added'} on #${screen.commentIssue}`);
    return undefined;
  } catch (error) {
    return `the comment on #${screen.commentIssue} could not be written: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * A verified screening, published: each candidate's check run on the commit that was validated (a
 * pass only as success when the receipt verified, has proof grade and the workflow is trusted), the
 * table in the job summary and the tracking comment.
 */
async function publishScreening(
  settings: ActionSettings,
  outcome: StepOutcome,
  deps: ScreenModeDeps,
  context: ScreenContext,
  trust: TrustDecision,
  result: ScreenOutcome,
  origins: ReadonlyMap<string, CandidateOrigin>,
  skipped: readonly SkippedCandidate[],
  screeningPath: string
): Promise<ModeResult> {
  const screening = result.screening as Screening;
  const table = renderScreenTable(screening, result.receipts, origins, skipped);
  if (result.broken) {
    const why = 'a receipt or the screening receipt failed its own verification; nothing of this screening is trusted';
    await summary(outcome, renderScreenFailure(why, skipped));
    return { verdict: 'inconclusive', proofGrade: false, message: `screen: ${why}` };
  }
  const { owner, repo } = splitRepository(context.repository);
  const client = checksClientFor(settings, context.apiUrl, deps);
  const errors: string[] = [];
  for (const entry of screening.ranking) {
    const receipt = result.receipts.get(entry.name) as Receipt;
    const origin = origins.get(entry.name);
    if (origin === undefined) {
      errors.push(`${entry.name} has no recorded commit`);
      continue;
    }
    const downgrade = receipt.verdict !== 'passed' ? undefined : !receipt.proof_grade ? 'not_proof_grade' : !trust.trusted ? 'untrusted_workflow' : undefined;
    const conclusion = downgrade === undefined ? checkConclusion(receipt.verdict) : 'failure';
    const rendered = withPreamble(
      withPreamble(renderCheck(receipt), `Screening rank ${entry.rank} of ${screening.ranking.length} (${entry.why}); screening receipt \`${screening.screening_digest}\`.`),
      trustLine(trust, context.eventName)
    );
    const withheld = receipt.tamper_screen !== undefined && tamperWithholds(receipt.tamper_screen) ? ` (${tamperWithheldLine(receipt.tamper_screen)})` : '';
    const check =
      downgrade !== undefined
        ? { ...withPreamble(rendered, `**${downgrade}**: the candidate passed, but this run cannot post success for it${withheld}`), title: `PatchProof: FAILED — ${downgrade}` }
        : rendered;
    try {
      const id = await client.publish({ owner, repo, headSha: origin.headSha, name: settings.checkName }, conclusion, check);
      outcome.info(`check run ${id} (${conclusion}) posted on ${origin.headSha} for ${entry.name}`);
    } catch (error) {
      if (error instanceof ChecksPermissionError) outcome.warning(`the check run for ${entry.name} could not be posted: ${error.message}`);
      else errors.push(`the check run for ${entry.name} could not be posted: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await summary(outcome, table);
  const commentError = await comment(settings, settings.screen as ScreenInputs, deps, context, outcome, table);
  if (commentError !== undefined) errors.push(commentError);
  const best = result.best ?? null;
  const line = `PatchProof screening of ${screening.candidates.length} candidates: best ${best ?? 'none passed'}; screening ${screening.screening_digest}`;
  const base = { proofGrade: false, receiptDigest: screening.screening_digest, receiptPath: screeningPath };
  if (errors.length > 0) return { ...base, verdict: 'inconclusive', message: `${line}, but ${errors.join('; ')}` };
  return { ...base, verdict: best !== null ? 'passed' : 'failed', message: line };
}
