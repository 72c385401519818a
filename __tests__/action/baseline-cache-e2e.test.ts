import * as cache from '@actions/cache';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateMode, type ValidateModeDeps } from '../../src/action/validate-mode.js';
import { BASELINE_CACHE_FOLDER } from '../../src/action/baseline-store.js';
import type { ModeResult } from '../../src/action/mode.js';
import { baselineDigest, verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import type { Digest } from '../../src/core/hashing.js';
import { createGitSource } from '../../src/fetch/git.js';
import { digestWitnessFolder } from '../../src/fetch/witness/digest.js';
import { readActionSettings } from '../../src/inputs/action-settings.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { openBaselineCache, type BaselineKeyFields } from '../../src/phases/baseline-cache.js';
import type { RunOutput } from '../../src/phases/validate.js';
import { actionsCacheKey } from '../../src/publish/actions-cache.js';
import { createChecksClient } from '../../src/publish/checks-client.js';
import type { ReceiptArtifacts, StepOutcome } from '../../src/publish/ports.js';
import { createDockerRunner } from '../../src/runners/docker-runner.js';
import type { Runner } from '../../src/runners/runner.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { startCacheServer, type CacheServer } from '../support/cache-server.js';
import { startGitHubServer } from '../support/github-server.js';
import { JS_DURATION, JS_PACK, PACK_PATH, PULL_NUMBER, makePullRequest, removePullRequest, type HeadChange, type PullRequestRepos } from './data/validate-repos.js';

/**
 * Input `baseline-cache` end to end: validateMode in process with the real Docker runner (each run
 * it is asked for recorded), real git repositories, the real @actions/cache client against the
 * loopback cache service (__tests__/support/cache-server.ts, with GitHub's scopes) and the real
 * Checks client against the loopback GitHub API. The runs are made in order and share one
 * RUNNER_TEMP, as jobs on one runner image do (the cache version hashes the folder's path).
 */

const gate = await dockerGate('baseline-cache (Actions cache) end-to-end test');
const REPOSITORY = 'octo-org/hello-world';
const TOKEN = 'ghs_test';
const MAIN = 'refs/heads/main';
const PR_REF = `refs/pull/${PULL_NUMBER}/merge`;
const CLIENT_ENV = ['ACTIONS_RESULTS_URL', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_CACHE_SERVICE_V2', 'RUNNER_TEMP', 'GITHUB_WORKSPACE', 'GITHUB_SERVER_URL'] as const;

const fix: HeadChange = { kind: 'diff', file: join(JS_DURATION, 'candidates', 'fix.diff') };
const fixComments: HeadChange = { kind: 'diff', file: join(JS_DURATION, 'screen-candidates', 'fix-comments.diff') };
const notFixed: HeadChange = { kind: 'diff', file: join(JS_DURATION, 'candidates', 'not-fixed.diff') };
const overfit: HeadChange = { kind: 'diff', file: join(JS_DURATION, 'candidates', 'overfit.diff') };

interface Job {
  /** Default pull_request_target on the default branch. */
  event?: 'pull_request' | 'pull_request_target';
  /** GITHUB_REF of the job; default: main for pull_request_target, the merge ref for pull_request. */
  ref?: string;
  /** The ref the cache token is for (default `ref`): a test may hand a job another scope's token. */
  cacheScope?: string;
  /** ACTIONS_RESULTS_URL instead of the stand-in's (a service that is down). */
  resultsUrl?: string;
  fork?: boolean;
}

interface Run {
  result: ModeResult;
  receipt?: Receipt;
  verified: boolean;
  infos: string[];
  warnings: string[];
  /** The labels of every run the runner was asked for. */
  labels: string[];
  /** What the step printed on stdout (the @actions/cache client's own log lines and warnings). */
  stdout: string;
  /** Cache service requests made during this job. */
  cacheRequests: number;
  conclusion?: string;
  repos: PullRequestRepos;
}

function recordingRunner(inner: Runner, labels: string[]): Runner {
  return {
    description: inner.description,
    view: (workdir, results) => inner.view(workdir, results),
    run: (request) => {
      labels.push(request.label);
      return inner.run(request);
    },
    ...(inner.prestart !== undefined
      ? {
          prestart: (request: Parameters<NonNullable<Runner['prestart']>>[0]) => {
            labels.push(request.label);
            return (inner.prestart as NonNullable<Runner['prestart']>)(request);
          }
        }
      : {}),
    dispose: () => inner.dispose()
  };
}

const isBaseLabel = (label: string): boolean => /^(reproduction_before|regression_before)\b/.test(label);

gate.describeDocker('baseline-cache: the GitHub Actions cache as the baseline store, trusted scope only', () => {
  let server: CacheServer;
  let tmp: string;
  let runnerTemp: string;
  let packDigest: string;
  const saved = Object.fromEntries(CLIENT_ENV.map((n) => [n, process.env[n]]));
  const cleanup: PullRequestRepos[] = [];

  beforeAll(async () => {
    gate.requireDocker();
    server = await startCacheServer({ defaultBranch: 'main' });
    tmp = mkdtempSync(join(tmpdir(), 'pp-baseline-actions-cache-'));
    runnerTemp = join(tmp, 'runner-temp');
    mkdirSync(runnerTemp);
    packDigest = (await digestWitnessFolder(JS_PACK)).digest;
  });

  afterAll(async () => {
    await server.close();
    for (const repos of cleanup) removePullRequest(repos);
    rmSync(tmp, { recursive: true, force: true });
    for (const name of CLIENT_ENV) Reflect.deleteProperty(process.env, name);
    Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
  });

  /** The environment @actions/cache reads (process.env: the client has no other way in), for a job on `ref`. */
  function clientEnv(ref: string, resultsUrl?: string): void {
    Object.assign(process.env, server.env(ref), { RUNNER_TEMP: runnerTemp }, resultsUrl !== undefined ? { ACTIONS_RESULTS_URL: resultsUrl } : {});
    Reflect.deleteProperty(process.env, 'GITHUB_WORKSPACE');
    Reflect.deleteProperty(process.env, 'GITHUB_SERVER_URL');
  }

  async function job(change: HeadChange, spec: Job = {}, baseChange?: HeadChange): Promise<Run> {
    const repos = makePullRequest(change, baseChange !== undefined ? { baseChange } : {});
    cleanup.push(repos);
    const event = spec.event ?? 'pull_request_target';
    const ref = spec.ref ?? (event === 'pull_request' ? PR_REF : MAIN);
    const fork = spec.fork ?? false;
    const eventPath = join(repos.dir, 'event.json');
    writeFileSync(
      eventPath,
      JSON.stringify({
        action: 'synchronize',
        number: PULL_NUMBER,
        pull_request: {
          number: PULL_NUMBER,
          base: { sha: repos.base, ref: 'main', repo: { full_name: REPOSITORY } },
          head: { sha: repos.head, ref: 'fix-ms', repo: { full_name: fork ? 'contributor/hello-world' : REPOSITORY } }
        },
        repository: { full_name: REPOSITORY, default_branch: 'main' }
      })
    );
    const github = await startGitHubServer({
      token: TOKEN,
      repository: REPOSITORY,
      readOnlyToken: fork && event === 'pull_request',
      pulls: [{ number: PULL_NUMBER, headSha: repos.head, baseSha: repos.base, headRepository: fork ? 'contributor/hello-world' : REPOSITORY }]
    });
    const inputs: Record<string, string> = {
      mode: 'validate',
      runner: 'docker',
      image: gate.imageId,
      'github-token': TOKEN,
      'check-name': 'PatchProof',
      'repository-path': '.',
      'witness-pack': PACK_PATH,
      'witness-digest': packDigest,
      'baseline-cache': 'true'
    };
    const infos: string[] = [];
    const warnings: string[] = [];
    const labels: string[] = [];
    const outcome: StepOutcome = {
      setOutput: () => undefined,
      setFailed: () => undefined,
      summary: () => Promise.resolve(),
      info: (line) => infos.push(line),
      warning: (line) => warnings.push(line)
    };
    const uploads: string[] = [];
    const artifacts: ReceiptArtifacts = {
      upload(receipt, files) {
        uploads.push(readFileSync(files.receipt, 'utf8'));
        return Promise.resolve({ id: 77, name: `patchproof-receipt-${receipt.receipt_digest.slice(7)}` });
      },
      download() {
        return Promise.reject(new Error('not used by validate mode'));
      }
    };
    const deps: ValidateModeDeps = {
      env: {
        GITHUB_EVENT_NAME: event,
        GITHUB_WORKFLOW_REF: `${REPOSITORY}/.github/workflows/patchproof-gate.yml@${event === 'pull_request' ? PR_REF : MAIN}`,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: REPOSITORY,
        GITHUB_REF: ref,
        GITHUB_WORKSPACE: repos.workspace,
        RUNNER_TEMP: runnerTemp,
        GITHUB_ACTOR: 'contributor',
        GITHUB_RUN_ID: '4242',
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_API_URL: github.url,
        GITHUB_SERVER_URL: 'https://github.com'
      },
      gitSource: createGitSource,
      checksClient: (token, baseUrl) => createChecksClient(token, { baseUrl }),
      receiptArtifacts: () => artifacts,
      createRunner: async () => recordingRunner(await createDockerRunner({ image: gate.imageId }), labels),
      nonce: () => randomBytes(16).toString('hex'),
      appToken: () => Promise.reject(new Error('no app in these tests'))
    };
    clientEnv(spec.cacheScope ?? ref, spec.resultsUrl);
    const before = server.requests().length;
    const chunks: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    };
    let result: ModeResult;
    try {
      result = await validateMode(
        readActionSettings((name) => inputs[name] ?? ''),
        outcome,
        deps
      );
    } finally {
      process.stdout.write = write;
      await github.close();
    }
    const text = uploads[0];
    const receipt = text !== undefined ? (JSON.parse(text) as Receipt) : undefined;
    const conclusion = github.checkRuns().find((r) => r.head_sha === repos.head)?.conclusion;
    return {
      result,
      ...(receipt !== undefined ? { receipt } : {}),
      verified: text !== undefined && verifyReceiptText(text).integrity_valid,
      infos,
      warnings,
      labels,
      stdout: chunks.join(''),
      cacheRequests: server.requests().length - before,
      ...(conclusion !== undefined && conclusion !== null ? { conclusion } : {}),
      repos
    };
  }

  const folder = (): string => join(runnerTemp, BASELINE_CACHE_FOLDER);

  /** Restore one key as a job on `scope` would, and read the folder cache's single object. */
  async function restoreEntry(key: string, scope: string): Promise<{ object: string; entry: { key_fields: BaselineKeyFields; outputs: RunOutput[] } }> {
    clientEnv(scope);
    rmSync(folder(), { recursive: true, force: true });
    expect(await cache.restoreCache([folder()], key, [])).toBe(key);
    const [name] = readdirSync(join(folder(), 'objects'));
    const object = join(folder(), 'objects', name as string);
    return { object, entry: JSON.parse(readFileSync(object, 'utf8')) as { key_fields: BaselineKeyFields; outputs: RunOutput[] } };
  }

  let first: Run;
  let entryKey: string;

  test('a trusted run saves the base side; a trusted run for another candidate on the same base reuses it, the base runs not asked for again', async () => {
    first = await job(fix);
    expect(first.result.verdict).toBe('passed');
    expect(first.conclusion).toBe('success');
    expect(first.infos).toContain(`baseline-cache: the Actions cache of ${MAIN} (a trusted writer and reader)`);
    expect(first.infos.some((l) => /^baseline cache: miss \(no entry patchproof-baseline-v1-[0-9a-f]{64} in the Actions cache/.test(l))).toBe(true);
    const kept = first.infos.map((l) => /^baseline cache: kept entry (sha256:[0-9a-f]{64})$/.exec(l)?.[1]).find((e) => e !== undefined);
    expect(kept).toBeDefined();
    expect(first.labels.some(isBaseLabel)).toBe(true);
    expect(first.receipt?.baseline?.shared).toBe(false);
    expect(first.receipt?.baseline?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(first.receipt?.baseline?.cache).toBeUndefined();
    const stored = server.entries().filter((e) => e.finalized);
    expect(stored.map((e) => [e.scope, e.key.slice(0, 23)])).toEqual([[MAIN, 'patchproof-baseline-v1-']]);
    entryKey = stored[0]?.key as string;

    const second = await job(fixComments);
    expect(second.infos).toContain(`baseline cache: reusing entry ${kept} (baseline ${first.receipt?.baseline?.digest})`);
    expect(second.receipt?.baseline).toEqual({ shared: true, digest: first.receipt?.baseline?.digest, cache: { entry: kept } });
    // The runner was not asked for a single base-side run; the patched side ran.
    expect(second.labels.filter(isBaseLabel)).toEqual([]);
    expect(second.labels.some((l) => l.startsWith('reproduction_after'))).toBe(true);
    expect(second.result.verdict).toBe('passed');
    expect(second.conclusion).toBe('success');
    expect(second.verified).toBe(true);
    expect(server.invalidRequests()).toEqual([]);
  }, 900_000);

  test("attack: a hostile pull request's own run writes a forged entry under the trusted key; its validation never reads it, and a trusted run does not see it", async () => {
    // A base where the bug is already fixed, and a candidate that only touches the README: honestly inconclusive (repro_passes_before: the pack's fault, never a pass).
    const noop: HeadChange = { kind: 'files', files: { 'README.md': '# duration\n\nTouched by the candidate.\n' } };
    const probe = makePullRequest(noop, { baseChange: fix });
    cleanup.push(probe);
    const baseDir = join(tmp, 'fixed-base');
    await createGitSource(probe.workspace, { token: TOKEN, serverUrl: 'https://github.com' }).writeTree(probe.base, baseDir);
    const fixedSnapshot: Digest = (await takeSnapshot(baseDir)).digest;

    // The forger: the buggy base's intact runs under the fixed base's key, re-hashed and with the baseline
    // digest they judge to there (baselineDigest is public), written by PatchProof's own folder writer and
    // saved with the real client from the pull request's job (the runtime token of refs/pull/N/merge).
    const genuine = await restoreEntry(entryKey, MAIN);
    const fields: BaselineKeyFields = { ...genuine.entry.key_fields, base_snapshot: fixedSnapshot };
    const receipt = first.receipt as Receipt;
    const consistent = baselineDigest({ ...receipt, bindings: { ...receipt.bindings, base_snapshot: fixedSnapshot } });
    rmSync(folder(), { recursive: true, force: true });
    const forged = await (
      await openBaselineCache(folder())
    ).write(fields, consistent, { baseSnapshot: fixedSnapshot, witnessDigest: fields.witness_digest, outputs: genuine.entry.outputs });
    expect(forged).toBeDefined();
    clientEnv(PR_REF);
    expect(await cache.saveCache([folder()], actionsCacheKey(fields))).toBeGreaterThan(0);
    rmSync(folder(), { recursive: true, force: true });
    expect(
      server
        .entries()
        .filter((e) => e.key === actionsCacheKey(fields))
        .map((e) => e.scope)
    ).toEqual([PR_REF]);

    // Defence 1 (decideBaselineScope: never on pull_request): the PR's own validation does not touch the cache.
    const own = await job(noop, { event: 'pull_request', fork: true }, fix);
    expect(own.infos.some((l) => l.startsWith("baseline-cache is off for this run: on pull_request the job is the pull request's own workflow"))).toBe(true);
    expect(own.cacheRequests).toBe(0);
    expect(own.receipt?.verdict).toBe('inconclusive');
    expect(own.receipt?.reasons).toContain('repro_passes_before');
    expect(own.receipt?.baseline).toBeUndefined();

    // Without the scope rule (a job that restores from the pull request's scope), the forgery works: the no-op passes.
    const unscoped = await job(noop, { cacheScope: PR_REF }, fix);
    expect(unscoped.infos).toContain(`baseline cache: reusing entry ${forged} (baseline ${consistent})`);
    expect(unscoped.receipt?.verdict).toBe('passed');

    // Defence 2 (the cache service's scopes, and only a default-branch job reads): the trusted run misses and judges honestly.
    const trusted = await job(noop, {}, fix);
    expect(trusted.infos.some((l) => /^baseline cache: miss \(no entry /.test(l))).toBe(true);
    expect(trusted.labels.some(isBaseLabel)).toBe(true);
    expect(trusted.receipt?.verdict).toBe('inconclusive');
    expect(trusted.receipt?.reasons).toContain('repro_passes_before');
    expect(trusted.receipt?.baseline?.cache).toBeUndefined();
    expect(trusted.conclusion).toBe('failure');
    expect(trusted.verified).toBe(true);
  }, 900_000);

  test('attack: a trusted-scope entry whose bytes were changed re-hashes wrong: a miss, the base side runs again, the verdict is right', async () => {
    // The base reproduction's exit code made 0: read as it is, the bug would not be established and the fix would not pass.
    const { object } = await restoreEntry(entryKey, MAIN);
    writeFileSync(object, readFileSync(object, 'utf8').replace(/"exitCode":1/g, '"exitCode":0'));
    expect(server.remove(entryKey, MAIN)).toBe(true);
    clientEnv(MAIN);
    expect(await cache.saveCache([folder()], entryKey)).toBeGreaterThan(0);
    rmSync(folder(), { recursive: true, force: true });

    // The check that stops it: openBaselineCache's re-hash of the object against the name its key file gives.
    const run = await job(fix);
    expect(run.infos.some((l) => /^baseline cache: miss \(object sha256:[0-9a-f]{64} re-hashes to sha256:[0-9a-f]{64}: damaged or re-written, not used\)/.test(l))).toBe(true);
    expect(run.labels.some(isBaseLabel)).toBe(true);
    expect(run.receipt?.phases.find((p) => p.name === 'reproduction_before')?.status).toBe('passed');
    expect(run.receipt?.baseline?.cache).toBeUndefined();
    expect(run.result.verdict).toBe('passed');
    expect(run.conclusion).toBe('success');
  }, 900_000);

  test('the cache service down, or answering errors: a miss with a warning, the base side runs, never a pass and never an error verdict', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const down = await job(notFixed, { resultsUrl: `http://127.0.0.1:${closed}/` });
    expect(down.stdout).toMatch(/::warning::Failed to restore: /);
    expect(down.infos.some((l) => /^baseline cache: miss \(no entry /.test(l))).toBe(true);
    expect(down.warnings.some((l) => /^baseline cache: the Actions cache did not take entry /.test(l))).toBe(true);
    expect(down.labels.some(isBaseLabel)).toBe(true);
    expect(down.result.verdict).toBe('failed');
    expect(down.receipt?.verdict).toBe('failed');
    expect(down.conclusion).toBe('failure');

    server.fail({ status: 403, code: 'permission_denied' });
    try {
      const failing = await job(overfit);
      expect(failing.stdout).toMatch(/::warning::Failed to restore: .*\(403\)/);
      expect(failing.warnings.some((l) => /^baseline cache: the Actions cache did not take entry /.test(l))).toBe(true);
      expect(failing.labels.some(isBaseLabel)).toBe(true);
      expect(failing.result.verdict).toBe('failed');
      expect(failing.receipt?.verdict).toBe('failed');
    } finally {
      server.fail(undefined);
    }
  }, 900_000);
});
