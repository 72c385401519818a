import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { ModeResult } from '../../src/action/mode.js';
import type { PromoteModeDeps } from '../../src/action/promote-mode.js';
import { readActionSettings } from '../../src/inputs/action-settings.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { serializeReceipt } from '../../src/core/receipt.js';
import { asIsolated, receiptFor, recordingOutcome, uploadReceiptArtifact } from '../helpers/action-receipts.js';
import { quietly, setEnv } from '../helpers/process-env.js';
import { createTestSigstore, githubIdentity, RECEIPT_FACTS_PREDICATE, type TestSigstore } from '../helpers/sigstore-fixture.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer, type PullRequestFixture } from '../support/github-server.js';
import { JS_DURATION, git, makePullRequest, removePullRequest, type PullRequestRepos } from './data/validate-repos.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * promoteMode in process with the real toolkit clients (@actions/github for pulls, @actions/artifact)
 * against the loopback GitHub server, which validates every request and answer against GitHub's
 * OpenAPI description and answers `PUT .../pulls/{n}/merge` as GitHub documents it (409 when `sha`
 * is not the head, 405 when it cannot merge), and real git for the pull request's current diff.
 *
 * The receipts: the bundled CLI validates fix.diff (and not-fixed.diff) with the local runner, then
 * each is re-sealed as if the hardened runner had made it. That re-sealed receipt is exactly a forgery
 * anyone can make, so it is merged only where it sits as this job's own validate step wrote it, or
 * with an attestation by the gate signed under the test CA.
 */

const TOKEN = 'ghs_test';
const RUN_ATTEMPT = '1';
/** Pull request numbers, one per test that may merge (a merged pull request stays merged). */
const PR = { gate: 7, attested: 8, otherDiff: 9, stale: 10, failed: 11, notProof: 12, race: 13, unmergeable: 14, forged: 15, untrusted: 16, run: 17, otherPack: 18, factsOnly: 19 };

describe('promoteMode (real git, real toolkit clients, OpenAPI-validated loopback GitHub)', () => {
  let repos: PullRequestRepos;
  let failedRepos: PullRequestRepos;
  let work: string;
  let runnerTemp: string;
  let artifacts: ArtifactServer;
  let github: GitHubServer;
  let restoreEnv: () => void;
  let thisRun: string;
  /** not-fixed.diff's receipt, re-sealed as the isolated runner's: failed. */
  let failedPath: string;
  /** fix.diff validated locally in "this job" (run id = this run), not proof grade. */
  let local: Receipt;
  /** The same receipt as the hardened runner would have made it: passed, proof grade. */
  let proven: Receipt;
  let movedHead: string;
  let sigstore: TestSigstore & { untrusted: TestSigstore };
  let rootPath: string;
  let promoteMode: typeof import('../../src/action/promote-mode.js').promoteMode;
  let defaultPromoteModeDeps: typeof import('../../src/action/promote-mode.js').defaultPromoteModeDeps;
  const gate = githubIdentity({
    signerUri: 'https://github.com/octo-org/hello-world/.github/workflows/patchproof.yml@refs/heads/main',
    sourceRepository: 'https://github.com/octo-org/hello-world'
  });

  /** Where validate mode of this job writes a receipt; returns the path. */
  function writeAsValidateStep(receipt: Receipt): string {
    const dir = join(runnerTemp, `patchproof-${receipt.receipt_digest.slice('sha256:'.length)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'receipt.json'), serializeReceipt(receipt));
    return join(dir, 'receipt.json');
  }

  /** A promote step: workflow_dispatch of promote.yml on the default branch, unless `event` says otherwise. */
  async function promote(
    inputs: Record<string, string>,
    options: { event?: 'workflow_dispatch' | 'pull_request_target' | 'pull_request'; number?: number; head?: string; deps?: Partial<PromoteModeDeps> } = {}
  ): Promise<{ result: ModeResult; summaries: string[] }> {
    const eventName = options.event ?? 'workflow_dispatch';
    const event = join(work, `event-${Math.random().toString(16).slice(2)}.json`);
    const repository = { full_name: 'octo-org/hello-world', default_branch: 'main' };
    const payload =
      eventName === 'workflow_dispatch'
        ? { inputs: {}, ref: 'refs/heads/main', repository }
        : {
            action: 'synchronize',
            number: options.number,
            pull_request: {
              number: options.number,
              base: { ref: 'main', sha: repos.base },
              head: { ref: 'candidate', sha: options.head ?? repos.head, repo: { full_name: 'agent/hello-world' } }
            },
            repository
          };
    writeFileSync(event, JSON.stringify(payload));
    const workflow =
      eventName === 'pull_request' ? 'octo-org/hello-world/.github/workflows/ci.yml@refs/pull/7/merge' : 'octo-org/hello-world/.github/workflows/patchproof.yml@refs/heads/main';
    const restore = setEnv({ GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: eventName, GITHUB_WORKFLOW_REF: workflow });
    try {
      const all: Record<string, string> = {
        'github-token': TOKEN,
        mode: 'promote',
        ...(eventName === 'workflow_dispatch' && options.number !== undefined ? { 'pull-number': String(options.number) } : {}),
        ...inputs
      };
      const settings = readActionSettings((name) => all[name] ?? '');
      const recorded = recordingOutcome();
      const deps = { ...defaultPromoteModeDeps(), ...options.deps };
      const result = await quietly(() => promoteMode(settings, recorded.outcome, deps));
      return { result, summaries: recorded.summaries };
    } finally {
      restore();
    }
  }

  /** Requests to the pulls API since `before`, as operation ids. */
  const pullsOps = (before: number): (string | undefined)[] =>
    github
      .requests()
      .slice(before)
      .map((r) => r.operationId)
      .filter((op) => op?.startsWith('pulls/'));

  const upload = (name: string, receiptText: string, bundle?: unknown): Promise<void> => uploadReceiptArtifact(work, name, receiptText, '# report\n', bundle);

  beforeAll(async () => {
    repos = makePullRequest({ kind: 'diff', file: join(JS_DURATION, 'candidates', 'fix.diff') });
    failedRepos = makePullRequest({ kind: 'diff', file: join(JS_DURATION, 'candidates', 'not-fixed.diff') });
    work = mkdtempSync(join(tmpdir(), 'pp-promote-'));
    runnerTemp = join(work, 'runner-temp');
    mkdirSync(runnerTemp);
    artifacts = await startArtifactServer();
    thisRun = `${artifacts.runId}-${RUN_ATTEMPT}`;
    mkdirSync(join(work, 'made'));
    mkdirSync(join(work, 'failed'));
    local = (await receiptFor(repos, join(work, 'made'), thisRun)).receipt;
    const failedLocal = (await receiptFor(failedRepos, join(work, 'failed'), thisRun)).receipt;
    proven = asIsolated(local);
    failedPath = writeAsValidateStep(asIsolated(failedLocal));

    // A later push to the pull request: one more commit on its head, so base...head is another diff.
    const author = join(repos.dir, 'author');
    writeFileSync(join(author, 'src', 'duration.js'), `${readFileSync(join(author, 'src', 'duration.js'), 'utf8')}\n// a later push\n`);
    git(author, ['commit', '-q', '-am', 'A later push']);
    movedHead = git(author, ['rev-parse', 'HEAD']);
    git(author, ['push', '-q', repos.origin, `candidate:refs/heads/moved`]);

    const pull = (number: number, change: Partial<PullRequestFixture> = {}): PullRequestFixture => ({
      number,
      headSha: repos.head,
      baseSha: repos.base,
      headRef: 'candidate',
      headRepository: 'agent/hello-world',
      ...change
    });
    github = await startGitHubServer({
      token: TOKEN,
      artifacts,
      pulls: [
        ...Object.values(PR)
          .filter((n) => n !== PR.failed && n !== PR.unmergeable)
          .map((n) => pull(n)),
        pull(PR.failed, { headSha: failedRepos.head, baseSha: failedRepos.base }),
        pull(PR.unmergeable, { mergeable: false })
      ]
    });
    sigstore = await createTestSigstore();
    rootPath = join(work, 'trusted-root.json');
    writeFileSync(rootPath, JSON.stringify(sigstore.trustedRoot));
    // @actions/github reads GITHUB_API_URL once, when first imported: set the env, then import.
    restoreEnv = setEnv({
      ...artifacts.env(),
      GITHUB_API_URL: github.url,
      GITHUB_WORKSPACE: repos.workspace,
      RUNNER_TEMP: runnerTemp,
      GITHUB_RUN_ATTEMPT: RUN_ATTEMPT,
      GITHUB_ACTOR: 'octocat'
    });
    ({ promoteMode, defaultPromoteModeDeps } = await import('../../src/action/promote-mode.js'));
  });

  afterAll(async () => {
    mayBeUnset(restoreEnv)?.();
    await Promise.all([mayBeUnset(artifacts)?.close(), mayBeUnset(github)?.close()]);
    removePullRequest(repos);
    removePullRequest(failedRepos);
    rmSync(work, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(github.invalidRequests()).toEqual([]);
    expect(github.invalidResponses()).toEqual([]);
    expect(artifacts.invalidRequests()).toEqual([]);
  });

  it('the fixtures: a local pass of this run, re-sealed as proof grade; a failed one', () => {
    expect(local).toMatchObject({ verdict: 'passed', proof_grade: false, run_id: thisRun });
    expect(proven).toMatchObject({ verdict: 'passed', proof_grade: true, run_id: thisRun });
    expect(JSON.parse(readFileSync(failedPath, 'utf8'))).toMatchObject({ verdict: 'failed', proof_grade: false, runner: { isolated: true } });
  });

  it('a pull_request-triggered run: refused in one line before any request, nothing merged', async () => {
    const before = github.requests().length;
    const { result } = await promote({ 'receipt-path': writeAsValidateStep(proven) }, { event: 'pull_request', number: PR.untrusted });
    expect(result).toEqual({
      verdict: 'failed',
      proofGrade: false,
      message: expect.stringMatching(/^promote refused, nothing was merged: untrusted_workflow: on pull_request GitHub runs the workflow files of the pull request's merge commit/)
    });
    expect(result.message).not.toMatch(/\n/);
    expect(github.requests()).toHaveLength(before);
    expect(github.merges()).toEqual([]);
  });

  it('validated in this job (the gate: pull_request_target), passed, proof grade, bound: merged with sha set to the head', async () => {
    const before = github.requests().length;
    const { result, summaries } = await promote({ 'receipt-path': writeAsValidateStep(proven) }, { event: 'pull_request_target', number: PR.gate });
    expect(result).toMatchObject({ verdict: 'passed', proofGrade: true, receiptDigest: proven.receipt_digest, mergeSha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(result.message).toBe(
      `PatchProof promoted pull request #${PR.gate}: merged head ${repos.head} (merge) as ${result.mergeSha} on the evidence of receipt ${proven.receipt_digest}`
    );
    expect(github.merges()).toEqual([{ number: PR.gate, headSha: repos.head, method: 'merge', mergeSha: result.mergeSha }]);
    const merge = github
      .requests()
      .slice(before)
      .find((r) => r.operationId === 'pulls/merge');
    expect(merge).toMatchObject({ method: 'PUT', url: `/repos/octo-org/hello-world/pulls/${PR.gate}/merge`, body: { sha: repos.head, merge_method: 'merge' }, status: 200 });
    // It reads the pull request and merges it: nothing else.
    expect(
      github
        .requests()
        .slice(before)
        .map((r) => r.operationId)
    ).toEqual(['pulls/get', 'pulls/merge']);
    expect(summaries[0]).toContain('validated in this job');
    expect(summaries[0]).toMatch(/Trust: ✅ trusted/);
    // The checkout is still the base, untouched.
    expect(git(repos.workspace, ['status', '--porcelain'])).toBe('');
  });

  it('an already merged pull request: refused, no second merge request', async () => {
    const before = github.requests().length;
    const { result } = await promote({ 'receipt-path': writeAsValidateStep(proven) }, { number: PR.gate });
    expect(result.verdict).toBe('failed');
    expect(result.message).toBe(`promote refused, nothing was merged: pull request #${PR.gate} is already merged`);
    expect(pullsOps(before)).toEqual(['pulls/get']);
  });

  it('a receipt of another diff: refused, not bound to the current head', async () => {
    const other = asIsolated(local, { bindings: { ...local.bindings, diff_digest: `sha256:${'a'.repeat(64)}` } });
    const before = github.requests().length;
    const { result } = await promote({ 'receipt-path': writeAsValidateStep(other) }, { number: PR.otherDiff });
    expect(result.verdict).toBe('failed');
    expect(result.message).toMatch(
      new RegExp(
        `^promote refused, nothing was merged: the receipt is not bound to the current head: its diff_digest sha256:a{64} is not ${local.bindings.diff_digest} of the pull request's current diff`
      )
    );
    expect(pullsOps(before)).toEqual(['pulls/get']);
    expect(github.merges().map((m) => m.number)).not.toContain(PR.otherDiff);
  });

  it('a stale head (pushed to after validation): refused, not bound; the merge is never asked for', async () => {
    github.updatePull(PR.stale, { headSha: movedHead });
    const before = github.requests().length;
    const { result } = await promote({ 'receipt-path': writeAsValidateStep(proven) }, { number: PR.stale });
    expect(result.verdict).toBe('failed');
    expect(result.message).toMatch(
      /^promote refused, nothing was merged: the receipt is not bound to the current head: its diff_digest sha256:[0-9a-f]{64} is not sha256:[0-9a-f]{64} of the pull request's current diff base\.\.\.head$/
    );
    expect(pullsOps(before)).toEqual(['pulls/get']);
  });

  it('a failed receipt (not-fixed.diff, from the isolated runner): refused, with its reasons', async () => {
    const { result } = await promote({ 'receipt-path': failedPath, 'repository-path': failedRepos.workspace }, { number: PR.failed });
    expect(result.verdict).toBe('failed');
    expect(result.message).toMatch(
      /^promote refused, nothing was merged: the receipt's verdict is failed \([a-z_, ]+\); only a passed validation is merged; the receipt is not proof grade/
    );
    expect(github.merges().map((m) => m.number)).not.toContain(PR.failed);
  });

  it('a receipt that is not proof grade (this job validated with the local runner): refused', async () => {
    const { result } = await promote({ 'receipt-path': writeAsValidateStep(local) }, { number: PR.notProof });
    expect(result.verdict).toBe('failed');
    expect(result.message).toBe('promote refused, nothing was merged: the receipt is not proof grade (it did not pass in the hardened runner)');
    expect(github.merges().map((m) => m.number)).not.toContain(PR.notProof);
  });

  describe('a forged, self-sealed receipt (verifies, bound, passed, proof grade) without an attestation', () => {
    it('as an artifact of another run, without a bundle: refused before reading the pull request', async () => {
      await upload('patchproof-receipt-forged', serializeReceipt(proven));
      const before = github.requests().length;
      const { result } = await promote(
        { 'run-id': String(artifacts.runId), 'artifact-name': 'patchproof-receipt-forged', 'trusted-root': rootPath, 'witness-digest': proven.bindings.witness_digest },
        { number: PR.forged }
      );
      expect(result.verdict).toBe('failed');
      expect(result.message).toMatch(
        /^promote refused, nothing was merged: the receipt of run \d+ \(patchproof-receipt-forged\) is not attested by the gate, and a receipt that verifies is not evidence by itself: the artifact carries no receipt\.sigstore\.json$/
      );
      expect(pullsOps(before)).toEqual([]);
    });

    it('signed by a pull_request run, or under an untrusted CA: refused', async () => {
      const cases: [string, Promise<Record<string, unknown>>, RegExp][] = [
        [
          'fork',
          sigstore.attest(Buffer.from(serializeReceipt(proven)), { identity: { ...gate, trigger: 'pull_request', sourceRef: 'refs/pull/8/merge' } }),
          /was on refs\/pull\/8\/merge/
        ],
        ['untrusted-ca', sigstore.untrusted.attest(Buffer.from(serializeReceipt(proven)), { identity: gate }), /does not verify/]
      ];
      for (const [suffix, bundle, reason] of cases) {
        await upload(`patchproof-receipt-${suffix}`, serializeReceipt(proven), await bundle);
        const { result } = await promote(
          { 'run-id': String(artifacts.runId), 'artifact-name': `patchproof-receipt-${suffix}`, 'trusted-root': rootPath, 'witness-digest': proven.bindings.witness_digest },
          { number: PR.forged }
        );
        expect({ suffix, verdict: result.verdict }).toEqual({ suffix, verdict: 'failed' });
        expect(result.message).toMatch(reason);
      }
      expect(github.merges().map((m) => m.number)).not.toContain(PR.forged);
    });

    it('given as receipt-path outside where validate writes, or of another run: refused', async () => {
      const elsewhere = join(work, 'downloaded', 'receipt.json');
      mkdirSync(join(work, 'downloaded'));
      writeFileSync(elsewhere, serializeReceipt(proven));
      const outside = await promote({ 'receipt-path': elsewhere }, { number: PR.forged });
      expect(outside.result.message).toMatch(/^promote refused, nothing was merged: receipt-path '.*' is not where a validate step of this job writes its receipt/);
      const otherRun = asIsolated(local, { run_id: '999-1' });
      const another = await promote({ 'receipt-path': writeAsValidateStep(otherRun) }, { number: PR.forged });
      expect(another.result.message).toBe(
        `promote refused, nothing was merged: the receipt at '${join(runnerTemp, `patchproof-${otherRun.receipt_digest.slice(7)}`, 'receipt.json')}' was made by run 999-1, not by this job's run ${thisRun}; a receipt of another run needs an attestation (run-id)`
      );
      // Bytes changed after sealing: does not verify.
      const tamperedPath = writeAsValidateStep(proven);
      writeFileSync(tamperedPath, readFileSync(tamperedPath, 'utf8').replace('"approved_by":"reviewer"', '"approved_by":"reviewEr"'));
      const tampered = await promote({ 'receipt-path': tamperedPath }, { number: PR.forged });
      expect(tampered.result.message).toMatch(/does not verify: receipt_digest does not match the content/);
      expect(github.merges().map((m) => m.number)).not.toContain(PR.forged);
    });
  });

  it('attested by the gate (a receipt artifact of the gate run, with its Sigstore bundle): merged', async () => {
    await upload('patchproof-receipt-gate', serializeReceipt(proven), await sigstore.attest(Buffer.from(serializeReceipt(proven)), { identity: gate }));
    const { result, summaries } = await promote(
      {
        'run-id': String(artifacts.runId),
        'artifact-name': 'patchproof-receipt-gate',
        'trusted-root': rootPath,
        'merge-method': 'squash',
        'witness-digest': proven.bindings.witness_digest
      },
      { number: PR.attested }
    );
    expect(result).toMatchObject({ verdict: 'passed', proofGrade: true, receiptDigest: proven.receipt_digest });
    expect(github.merges().find((m) => m.number === PR.attested)).toEqual({ number: PR.attested, headSha: repos.head, method: 'squash', mergeSha: result.mergeSha });
    expect(summaries[0]).toContain('attested by `https://github.com/octo-org/hello-world/.github/workflows/patchproof.yml@refs/heads/main`');
  });

  it('attack: a receipt signed by the gate workflow whose predicate does not say the check was a trusted success (a pull request into another branch: posted as failure, still signed) is refused', async () => {
    // The receipt itself says passed and proof grade: an untrusted run's receipt does too (the trust
    // decision is not in it). Signed by the gate's identity with the receipt's facts only, as the gate
    // signed before issue 27, it merged; the signed predicate must now say the check was a trusted success.
    await upload(
      'patchproof-receipt-facts-only',
      serializeReceipt(proven),
      await sigstore.attest(Buffer.from(serializeReceipt(proven)), { identity: gate, predicate: RECEIPT_FACTS_PREDICATE })
    );
    const inputs = {
      'run-id': String(artifacts.runId),
      'artifact-name': 'patchproof-receipt-facts-only',
      'trusted-root': rootPath,
      'witness-digest': proven.bindings.witness_digest
    };
    const { result } = await promote(inputs, { number: PR.factsOnly });
    expect(result.verdict).toBe('failed');
    expect(result.message).toMatch(/is not attested by the gate.*does not say the gate concluded this receipt's check run as success from a trusted workflow/);
    expect(github.merges().map((m) => m.number)).not.toContain(PR.factsOnly);
  });

  it('attack: a receipt the gate attested, graded by another pack (a trivial one), promoted by run-id: the pack digest is required, and another pack is refused', async () => {
    // Genuinely attested by the signer workflow, bound, passed, proof grade: only the pack differs, as
    // when another caller of the signer workflow on the default branch pins a pack of its own.
    const weakPack = `sha256:${'c'.repeat(64)}`;
    const graded = asIsolated(local, { bindings: { ...local.bindings, witness_digest: weakPack } });
    await upload('patchproof-receipt-weak-pack', serializeReceipt(graded), await sigstore.attest(Buffer.from(serializeReceipt(graded)), { identity: gate }));
    const inputs = { 'run-id': String(artifacts.runId), 'artifact-name': 'patchproof-receipt-weak-pack', 'trusted-root': rootPath };
    // Without witness-digest (accepted and merged before issue 27): refused before any request.
    const before = github.requests().length;
    await expect(promote(inputs, { number: PR.otherPack })).rejects.toThrow(/witness-digest is required with run-id/);
    expect(github.requests().length).toBe(before);
    // With the gate's pack: refused, graded by another pack.
    const { result } = await promote({ ...inputs, 'witness-digest': proven.bindings.witness_digest }, { number: PR.otherPack });
    expect(result.verdict).toBe('failed');
    expect(result.message).toContain(`was graded by witness pack ${weakPack}, not the pinned ${proven.bindings.witness_digest}`);
    expect(github.merges().map((m) => m.number)).not.toContain(PR.otherPack);
    // The pack named is the only difference: pinned to the weak pack, the same receipt merges.
    const fooled = await promote({ ...inputs, 'witness-digest': weakPack }, { number: PR.otherPack });
    expect(fooled.result.verdict).toBe('passed');
  });

  it('GitHub answering 409 (a push lands between the check and the merge): reported as a refusal, never as success', async () => {
    const deps = defaultPromoteModeDeps();
    const pullsClient: PromoteModeDeps['pullsClient'] = (token, baseUrl) => {
      const client = deps.pullsClient(token, baseUrl);
      return {
        get: async (owner, repo, number) => {
          const seen = await client.get(owner, repo, number);
          // The push, right after promote read the head it checks.
          github.updatePull(number, { headSha: movedHead });
          return seen;
        },
        merge: (...args) => client.merge(...args)
      };
    };
    const before = github.requests().length;
    const { result } = await promote({ 'receipt-path': writeAsValidateStep(proven) }, { number: PR.race, deps: { pullsClient } });
    expect(result).toEqual({
      verdict: 'failed',
      proofGrade: false,
      receiptDigest: proven.receipt_digest,
      message: `promote refused, nothing was merged: GitHub answered 409 to the merge of #${PR.race} at ${repos.head}: the head moved after it was checked: Head branch was modified. Review and try the merge again.`
    });
    expect(
      github
        .requests()
        .slice(before)
        .find((r) => r.operationId === 'pulls/merge')
    ).toMatchObject({ status: 409, body: { sha: repos.head } });
    expect(github.merges().map((m) => m.number)).not.toContain(PR.race);
  });

  it("through run(), the action's entry: a merge sets verdict, proof-grade, receipt-digest and merge-sha; a refusal fails the step with its one line", async () => {
    const { run } = await import('../../src/action/main.js');
    const event = join(work, 'event-run.json');
    writeFileSync(event, JSON.stringify({ inputs: {}, ref: 'refs/heads/main', repository: { full_name: 'octo-org/hello-world', default_branch: 'main' } }));
    const steps = async (inputs: Record<string, string>): Promise<{ outputs: Record<string, string>; failed: string[] }> => {
      const outputs: Record<string, string> = {};
      const failed: string[] = [];
      const restore = setEnv({
        GITHUB_EVENT_PATH: event,
        GITHUB_EVENT_NAME: 'workflow_dispatch',
        GITHUB_WORKFLOW_REF: 'octo-org/hello-world/.github/workflows/promote.yml@refs/heads/main',
        ...Object.fromEntries(Object.entries({ mode: 'promote', 'github-token': TOKEN, ...inputs }).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]))
      });
      try {
        await quietly(() =>
          run({
            setOutput: (name, value) => void (outputs[name] = value),
            summary: () => Promise.resolve(),
            setFailed: (message) => void failed.push(message),
            info: () => undefined,
            warning: () => undefined
          })
        );
      } finally {
        restore();
        for (const name of Object.keys(inputs)) Reflect.deleteProperty(process.env, `INPUT_${name.toUpperCase()}`);
      }
      return { outputs, failed };
    };
    const merged = await steps({ 'receipt-path': writeAsValidateStep(proven), 'pull-number': String(PR.run) });
    expect(merged.failed).toEqual([]);
    const mergeSha = github.merges().find((m) => m.number === PR.run)?.mergeSha;
    expect(merged.outputs).toEqual({ verdict: 'passed', 'proof-grade': 'true', 'receipt-digest': proven.receipt_digest, 'merge-sha': mergeSha });
    const again = await steps({ 'receipt-path': writeAsValidateStep(proven), 'pull-number': String(PR.run) });
    expect(again.failed).toEqual([`promote refused, nothing was merged: pull request #${PR.run} is already merged`]);
    expect(again.outputs).toMatchObject({ verdict: 'failed', 'proof-grade': 'false' });
    expect(again.outputs['merge-sha']).toBeUndefined();
  });

  it('GitHub answering 405 (not mergeable): reported as a refusal', async () => {
    const { result } = await promote({ 'receipt-path': writeAsValidateStep(proven) }, { number: PR.unmergeable });
    expect(result.verdict).toBe('failed');
    expect(result.message).toMatch(
      /^promote refused, nothing was merged: GitHub answered 405 to the merge of #14 at [0-9a-f]{40}: GitHub cannot merge it .*: Pull Request is not mergeable$/
    );
    expect(github.merges().map((m) => m.number)).not.toContain(PR.unmergeable);
  });
});
