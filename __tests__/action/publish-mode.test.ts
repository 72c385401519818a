import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModeResult } from '../../src/action/main.js';
import type { StepOutcome } from '../../src/action/ports.js';
import { readActionSettings } from '../../src/action/settings.js';
import { receiptDigest, serializeReceipt } from '../../src/core/receipt.js';
import { receiptSchema, type Receipt } from '../../src/core/receipt-schema.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import { setEnv, quietly } from '../helpers/process-env.js';

/**
 * publishMode in process, as the workflow_run workflow of the fork pattern runs it: the real
 * artifact and Checks clients against the loopback services, a real receipt made by the bundled CLI
 * (the overfitting candidate, which fails), and forged ones.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli', 'index.js');
const FIXTURE = join(ROOT, 'fixtures', 'js-duration');
const PACK = join(ROOT, 'witness-packs', 'js-duration');
const TOKEN = 'ghs_test';
/** The fork's head commit, as the workflow_run payload gives it. */
const HEAD_SHA = 'c0ffee0000000000000000000000000000000001';

function patchproof(args: string[], allow: number[] = [0]): string {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (!allow.includes(result.status ?? -1)) throw new Error(`patchproof ${args[0]} exited ${result.status}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** A receipt for a candidate of the fixture, made with the bundled CLI and the trusted-local runner. */
function receiptFor(candidate: string, work: string): { receiptPath: string; reportPath: string; receipt: Receipt } {
  const repo = join(FIXTURE, 'repo');
  mkdirSync(work, { recursive: true });
  patchproof(['propose', '--repo', repo, '--diff', join(FIXTURE, 'candidates', `${candidate}.diff`), '--out', join(work, 'proposal.json')]);
  const { proposal_hash: hash } = JSON.parse(readFileSync(join(work, 'proposal.json'), 'utf8')) as { proposal_hash: string };
  patchproof(['approve', '--proposal', join(work, 'proposal.json'), '--proposal-hash', hash, '--approved-by', 'fork-ci', '--run-id', 'fork-1', '--out', join(work, 'approval.json')]);
  const digest = patchproof(['witness', 'digest', PACK]).trim();
  const out = join(work, 'out');
  patchproof(
    ['validate', '--repo', repo, '--proposal', join(work, 'proposal.json'), '--approval', join(work, 'approval.json'), '--witness', PACK, '--witness-digest', digest, '--runner', 'local', '--out', out],
    [0, 1]
  );
  const receiptPath = join(out, 'receipt.json');
  return { receiptPath, reportPath: join(out, 'report.md'), receipt: receiptSchema.parse(JSON.parse(readFileSync(receiptPath, 'utf8'))) };
}



function outcome(): StepOutcome {
  return {
    setOutput: () => {
      throw new Error('publish mode must not set outputs: only run() does');
    },
    setFailed: () => {
      throw new Error('publish mode must not fail the step: only run() does');
    },
    summary: async () => undefined,
    info: () => undefined,
    warning: () => undefined
  };
}

describe('publishMode (workflow_run, real artifact and Checks clients, loopback services)', () => {
  let work: string;
  let artifacts: ArtifactServer;
  let github: GitHubServer;
  let restoreEnv: () => void;
  let failed: ReturnType<typeof receiptFor>;
  let publishMode: typeof import('../../src/action/publish-mode.js').publishMode;
  let receiptArtifactName: typeof import('../../src/action/artifacts.js').receiptArtifactName;

  /** The workflow_run event of the fork's finished gate run, and the publish step's inputs. */
  async function publish(inputs: Record<string, string>, run: Record<string, unknown> = {}): Promise<ModeResult> {
    const event = join(work, `event-${Math.random().toString(16).slice(2)}.json`);
    writeFileSync(
      event,
      JSON.stringify({
        action: 'completed',
        workflow_run: {
          id: artifacts.runId,
          name: 'PatchProof gate',
          event: 'pull_request',
          conclusion: 'failure',
          head_sha: HEAD_SHA,
          head_repository: { full_name: 'fork-owner/hello-world' },
          pull_requests: [],
          ...run
        }
      })
    );
    process.env['GITHUB_EVENT_PATH'] = event;
    const all: Record<string, string> = { 'github-token': TOKEN, mode: 'publish', ...inputs };
    return quietly(() => publishMode(readActionSettings((name) => all[name] ?? ''), outcome()));
  }

  async function uploadAs(name: string, receiptText: string): Promise<void> {
    const dir = mkdtempSync(join(work, 'upload-'));
    writeFileSync(join(dir, 'receipt.json'), receiptText);
    writeFileSync(join(dir, 'report.md'), readFileSync(failed.reportPath));
    const { DefaultArtifactClient } = await import('@actions/artifact');
    await quietly(() => new DefaultArtifactClient().uploadArtifact(name, [join(dir, 'receipt.json'), join(dir, 'report.md')], dir));
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'pp-publish-'));
    failed = receiptFor('overfit', join(work, 'overfit'));
    artifacts = await startArtifactServer();
    github = await startGitHubServer({ token: TOKEN, artifacts });
    const temp = join(work, 'runner-temp');
    mkdirSync(temp);
    // @actions/github reads GITHUB_API_URL once, when first imported: set the env, then import.
    restoreEnv = setEnv({ ...artifacts.env(), GITHUB_API_URL: github.url, GITHUB_EVENT_NAME: 'workflow_run', RUNNER_TEMP: temp });
    ({ publishMode } = await import('../../src/action/publish-mode.js'));
    const { createReceiptArtifacts } = await import('../../src/action/artifacts.js');
    ({ receiptArtifactName } = await import('../../src/action/artifacts.js'));
    // The fork's gate run uploaded its receipt: the one receipt artifact of that run.
    await quietly(() => createReceiptArtifacts().upload(failed.receipt, { receipt: failed.receiptPath, report: failed.reportPath }));
  });

  afterAll(async () => {
    restoreEnv?.();
    await Promise.all([artifacts?.close(), github?.close()]);
    rmSync(work, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(github.invalidRequests()).toEqual([]);
    expect(github.invalidResponses()).toEqual([]);
    expect(artifacts.invalidRequests()).toEqual([]);
  });

  it('a valid receipt that failed: a failure check run on workflow_run.head_sha, found without naming the artifact', async () => {
    expect(failed.receipt.verdict).toBe('failed');
    const before = github.checkRuns().length;
    const result = await publish({});
    expect(result).toMatchObject({ verdict: 'failed', proofGrade: false, receiptDigest: failed.receipt.receipt_digest });
    const runs = github.checkRuns().slice(before);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: 'PatchProof', head_sha: HEAD_SHA, status: 'completed', conclusion: 'failure' });
    expect(runs[0]?.output.title).toBe('PatchProof: FAILED — hidden_failed');
  });

  it('a valid receipt that passed: success, the only way to a green check', async () => {
    const passed = receiptFor('fix', join(work, 'fix'));
    expect(passed.receipt.verdict).toBe('passed');
    const { createReceiptArtifacts } = await import('../../src/action/artifacts.js');
    await quietly(() => createReceiptArtifacts().upload(passed.receipt, { receipt: passed.receiptPath, report: passed.reportPath }));
    const before = github.checkRuns().length;
    const result = await publish({ 'artifact-name': receiptArtifactName(passed.receipt.receipt_digest) });
    expect(result).toMatchObject({ verdict: 'passed', receiptDigest: passed.receipt.receipt_digest });
    expect(github.checkRuns().slice(before)).toEqual([expect.objectContaining({ head_sha: HEAD_SHA, conclusion: 'success' })]);
  });

  it('the check-name input names the check run', async () => {
    const before = github.checkRuns().length;
    await publish({ 'check-name': 'agent gate', 'artifact-name': receiptArtifactName(failed.receipt.receipt_digest) });
    expect(github.checkRuns().slice(before).map((r) => r.name)).toEqual(['agent gate']);
  });

  it('a forged receipt (verdict flipped to passed and resealed): failure, never success', async () => {
    const { receipt_digest: _old, ...body } = failed.receipt;
    const forgedBody = { ...body, verdict: 'passed' as const, reasons: [] };
    const forged = serializeReceipt({ ...forgedBody, receipt_digest: receiptDigest(forgedBody) });
    await uploadAs('patchproof-receipt-forged', forged);
    const before = github.checkRuns().length;
    const result = await publish({ 'artifact-name': 'patchproof-receipt-forged' });
    expect(result.verdict).toBe('failed');
    expect(result.message).toMatch(/failed verification: .*verdict passed does not follow from the phases/);
    const runs = github.checkRuns().slice(before);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'failure' });
    expect(runs[0]?.output.title).toBe('PatchProof: REJECTED — the receipt failed offline verification');
    expect(runs[0]?.output.summary).toContain('verdict passed does not follow from the phases');
  });

  it('a receipt edited by one byte: failure', async () => {
    const text = readFileSync(failed.receiptPath, 'utf8');
    const at = text.indexOf('"approved_by":"fork-ci"') + '"approved_by":"f'.length;
    await uploadAs('patchproof-receipt-edited', `${text.slice(0, at)}O${text.slice(at + 1)}`);
    const before = github.checkRuns().length;
    const result = await publish({ 'artifact-name': 'patchproof-receipt-edited' });
    expect(result.verdict).toBe('failed');
    expect(github.checkRuns().slice(before)[0]).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'failure' });
  });

  it('a run without the named artifact: failure "no receipt", so the pull request does not wait for ever', async () => {
    const before = github.checkRuns().length;
    const result = await publish({ 'artifact-name': 'patchproof-receipt-missing' });
    expect(result.verdict).toBe('failed');
    expect(result.message).toMatch(/has no artifact named 'patchproof-receipt-missing'/);
    expect(github.checkRuns().slice(before)[0]).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'failure' });
    expect(github.checkRuns().slice(before)[0]?.output.title).toBe('PatchProof: REJECTED — no receipt artifact could be found');
  });

  it('the target commit comes only from the event: a bad head_sha, another run-id or another event is refused before anything is posted', async () => {
    const before = github.checkRuns().length;
    await expect(publish({}, { head_sha: 'not-a-sha' })).rejects.toThrow(/no valid workflow_run.head_sha/);
    await expect(publish({ 'run-id': '99' })).rejects.toThrow(/run-id 99 is not the triggering run 4242/);
    process.env['GITHUB_EVENT_NAME'] = 'pull_request';
    try {
      await expect(publish({})).rejects.toThrow(/mode publish runs in a workflow_run workflow, not on pull_request/);
    } finally {
      process.env['GITHUB_EVENT_NAME'] = 'workflow_run';
    }
    expect(github.checkRuns()).toHaveLength(before);
  });
});
