import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { ClaimArtifacts } from '../../src/publish/claim-artifact.js';
import { parseClaimBytes } from '../../src/io/claim-file.js';
import { ConfigurationError, VerificationError } from '../../src/errors.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import { setEnv, quietly } from '../helpers/process-env.js';
import { makeZip } from '../helpers/zip.js';

/**
 * The claim as an artifact of the pull request's CI run: the real @actions/artifact client (findBy,
 * REST) and @actions/github's octokit against the loopback artifact services (two runs) and the
 * OpenAPI-validated GitHub server. The artifact is the attacker's: every hostile case below is bytes
 * a pull request's workflow can store (ArtifactServer.publish), refused without anything written
 * outside a folder that is removed again.
 */

const TOKEN = 'ghs_test';
const HEAD = 'a'.repeat(40);
const OTHER_HEAD = 'b'.repeat(40);
const OWN_RUN = 5151;
// Built before any server starts: compressing 32 MiB keeps the event loop busy for a while.
const ZEROS = Buffer.alloc(32 * 1024 * 1024);
const BOMB = makeZip([{ name: 'junit.xml', data: ZEROS }]);
const LYING_BOMB = makeZip([{ name: 'junit.xml', data: ZEROS, declaredSize: 1_000 }]);
const JUNIT = readFile(new URL('../claim/data/node-junit.xml', import.meta.url));

describe("the claim artifact of the pull request's CI run", () => {
  let ci: ArtifactServer;
  let lint: ArtifactServer;
  let github: GitHubServer;
  let restoreEnv: () => void;
  let work: string;
  let runnerTemp: string;
  let claims: ClaimArtifacts;
  let upload: (name: string, files: Record<string, Buffer | string>) => Promise<void>;

  beforeAll(async () => {
    ci = await startArtifactServer({ runId: 4242 });
    lint = await startArtifactServer({ runId: 4343, firstArtifactId: 8001 });
    github = await startGitHubServer({
      token: TOKEN,
      artifacts: [ci, lint],
      workflowRuns: [
        { id: 4242, headSha: HEAD, name: 'CI' },
        { id: 4343, headSha: HEAD, name: 'Lint' },
        { id: 4444, headSha: OTHER_HEAD, name: 'CI' },
        { id: 4545, headSha: HEAD, name: 'CI', repository: 'mallory/hello-world' },
        { id: OWN_RUN, headSha: HEAD, name: 'PatchProof gate', event: 'pull_request_target' }
      ]
    });
    work = await mkdtemp(join(tmpdir(), 'pp-claim-artifact-'));
    runnerTemp = await mkdtemp(join(tmpdir(), 'pp-claim-temp-'));
    restoreEnv = setEnv({ ...ci.env(), GITHUB_API_URL: github.url, RUNNER_TEMP: runnerTemp });
    const { createClaimArtifacts } = await import('../../src/publish/claim-artifact.js');
    const { DefaultArtifactClient } = await import('@actions/artifact');
    claims = createClaimArtifacts({ token: TOKEN, repository: 'octo-org/hello-world', apiUrl: github.url, ownRunId: OWN_RUN, tempRoot: runnerTemp });
    // What the pull request's CI does: actions/upload-artifact, i.e. the real client's zip.
    upload = async (name, files) => {
      const root = await mkdtemp(join(work, 'upload-'));
      const paths: string[] = [];
      for (const [path, data] of Object.entries(files)) {
        await mkdir(join(root, path, '..'), { recursive: true });
        await writeFile(join(root, path), data);
        paths.push(join(root, path));
      }
      await quietly(() => new DefaultArtifactClient().uploadArtifact(name, paths, root));
    };
  });
  afterAll(async () => {
    restoreEnv();
    await Promise.all([ci.close(), lint.close(), github.close(), rm(work, { recursive: true, force: true }), rm(runnerTemp, { recursive: true, force: true })]);
  });
  afterEach(async () => {
    expect(ci.invalidRequests()).toEqual([]);
    expect(lint.invalidRequests()).toEqual([]);
    expect(github.invalidRequests()).toEqual([]);
    expect(github.invalidResponses()).toEqual([]);
    // Every download folder is removed again, refused or not.
    expect(await readdir(runnerTemp)).toEqual([]);
  });

  const fetch = (request: Parameters<ClaimArtifacts['fetch']>[0]) => quietly(() => claims.fetch(request));

  it('finds the one run of the head commit that has the artifact, and reads the JUnit file the real client zipped', async () => {
    const junit = await JUNIT;
    await upload('agent-junit', { 'junit.xml': junit });
    const fetched = await fetch({ name: 'agent-junit', headSha: HEAD });
    expect(fetched).toMatchObject({ runId: 4242, label: expect.stringMatching(/^claimed-artifact 'agent-junit' \(id \d+\) of run 4242, "junit.xml"$/) });
    expect(fetched.bytes.equals(junit)).toBe(true);
    // The bytes are the claim the existing reader takes.
    expect(parseClaimBytes(fetched.bytes, fetched.label, 'node-test').parsed.cases.length).toBeGreaterThan(0);
    // Runs were found by head SHA; this job's own run was never asked for artifacts.
    const asked = github.requests().map((r) => r.operationId);
    expect(asked).toContain('actions/list-workflow-runs-for-repo');
    expect(github.requests().some((r) => r.url.includes(`/actions/runs/${OWN_RUN}/artifacts`))).toBe(false);
  });

  it('takes the file named by claimed out of an artifact of several, and refuses to guess without it', async () => {
    const junit = await JUNIT;
    await upload('agent-reports', { 'reports/junit.xml': junit, 'reports/coverage.txt': 'lines: 100%' });
    await expect(fetch({ name: 'agent-reports', headSha: HEAD })).rejects.toThrow(
      /holds 2 files, so which one is the claim\? it holds .*reports\/junit.xml.*; name it with the input claimed/
    );
    expect((await fetch({ name: 'agent-reports', headSha: HEAD, path: 'reports/junit.xml' })).bytes.equals(junit)).toBe(true);
    await expect(fetch({ name: 'agent-reports', headSha: HEAD, path: 'reports/missing.xml' })).rejects.toThrow(/has no file "reports\/missing.xml"/);
  });

  it('reads an artifact uploaded unarchived as the file itself', async () => {
    ci.publish('agent-raw', Buffer.from('<testsuites><testsuite name="a"><testcase name="t" classname="c"/></testsuite></testsuites>'), 'application/xml');
    const fetched = await fetch({ name: 'agent-raw', headSha: HEAD });
    expect(fetched.bytes.toString('utf8')).toMatch(/^<testsuites>/);
  });

  it('refuses an artifact name two runs of the head commit have, and takes the one claimed-run-id names', async () => {
    ci.publish('results', makeZip([{ name: 'junit.xml', data: '<testsuites/>' }]));
    lint.publish('results', makeZip([{ name: 'junit.xml', data: '<testsuites><testsuite name="lint"/></testsuites>' }]));
    await expect(fetch({ name: 'results', headSha: HEAD })).rejects.toThrow(
      /^runs 4343, 4242 of the head a{40} each have an artifact named 'results'; give claimed-run-id to say which$/
    );
    expect((await fetch({ name: 'results', headSha: HEAD, runId: 4343 })).bytes.toString()).toContain('lint');
  });

  it('refuses a run of another commit, of another repository, this run itself, and a run that does not exist', async () => {
    await expect(fetch({ name: 'results', headSha: HEAD, runId: 4444 })).rejects.toThrow(
      new ConfigurationError(`claimed-run-id 4444 ran on commit ${OTHER_HEAD}, not on the pull request's head ${HEAD}: its results are not a claim about this patch`)
    );
    await expect(fetch({ name: 'results', headSha: HEAD, runId: 4545 })).rejects.toThrow(
      /^claimed-run-id 4545 is a run of mallory\/hello-world, not of octo-org\/hello-world; refusing its artifacts$/
    );
    await expect(fetch({ name: 'results', headSha: HEAD, runId: OWN_RUN })).rejects.toThrow(/is this run/);
    await expect(fetch({ name: 'results', headSha: HEAD, runId: 999999 })).rejects.toThrow(/^claimed-run-id 999999 is not a workflow run of octo-org\/hello-world$/);
    // None of them got as far as a listing of its artifacts.
    expect(github.requests().some((r) => /\/actions\/runs\/(4444|4545|999999)\/artifacts/.test(r.url))).toBe(false);
    await expect(fetch({ name: 'no-such-artifact', headSha: HEAD })).rejects.toThrow(
      /^no workflow run of the head a{40} in octo-org\/hello-world has an artifact named 'no-such-artifact'/
    );
  });

  it('refuses a zip bomb, honest or with a lying header, after inflating no more than the bound', async () => {
    ci.publish('bomb', BOMB);
    ci.publish('bomb-lying', LYING_BOMB);
    expect(ci.artifacts().find((a) => a.name === 'bomb')?.bytes.length).toBeLessThan(100_000);
    await expect(fetch({ name: 'bomb', headSha: HEAD })).rejects.toThrow(/junit.xml is 33554432 bytes, more than 8388608; refusing it/);
    await expect(fetch({ name: 'bomb-lying', headSha: HEAD })).rejects.toThrow(
      /junit.xml (inflates to more than 8388608 bytes; refusing it|cannot be read: too many bytes in the stream. expected 1000)/
    );
  });

  it('refuses names that leave the folder, symbolic links, special files, duplicate names and too many entries', async () => {
    const claim = '<testsuites/>';
    const cases: [string, Buffer, RegExp][] = [
      ['escape', makeZip([{ name: '../../escaped.xml', data: claim }]), /is not a zip PatchProof reads: invalid relative path|a \. or \.\. segment/],
      ['absolute', makeZip([{ name: '/tmp/absolute.xml', data: claim }]), /absolute path/],
      ['symlink', makeZip([{ name: 'junit.xml', data: '/etc/passwd', mode: 0o120777 }]), /holds "junit.xml", which is not a regular file \(a symbolic link or a special file\)/],
      ['fifo', makeZip([{ name: 'junit.xml', data: '', mode: 0o010644 }]), /not a regular file/],
      [
        'linked-folder',
        makeZip([
          { name: 'reports/', data: '', mode: 0o120777 },
          { name: 'reports/junit.xml', data: claim }
        ]),
        /not a regular file/
      ],
      [
        'twice',
        makeZip([
          { name: 'junit.xml', data: '<testsuites/>' },
          { name: 'junit.xml', data: '<testsuites><testsuite name="x"/></testsuites>' }
        ]),
        /holds "junit.xml" twice/
      ],
      ['many', makeZip(Array.from({ length: 1_001 }, (_, i) => ({ name: `f${i}.xml`, data: claim, method: 'store' as const }))), /holds 1001 entries, more than 1000/]
    ];
    for (const [name, bytes] of cases) ci.publish(`hostile-${name}`, bytes);
    for (const [name, , message] of cases) {
      const refusal = fetch({ name: `hostile-${name}`, headSha: HEAD, path: 'junit.xml' });
      await expect(refusal).rejects.toThrow(ConfigurationError);
      await expect(refusal).rejects.toThrow(message);
    }
    expect(existsSync(join(runnerTemp, '..', 'escaped.xml'))).toBe(false);
    expect(existsSync('/tmp/absolute.xml')).toBe(false);
  });

  it('refuses an artifact larger than the bound without downloading it, and one that changed after upload', async () => {
    ci.publish('huge', randomBytes(9 * 1024 * 1024), 'application/octet-stream');
    const before = ci.requests().filter((r) => r.operation === 'Get Blob').length;
    await expect(fetch({ name: 'huge', headSha: HEAD })).rejects.toThrow(/^claimed-artifact 'huge' \(id \d+\) of run 4242 is 9437184 bytes, more than 8388608; refusing it$/);
    expect(ci.requests().filter((r) => r.operation === 'Get Blob').length).toBe(before);
    ci.publish('tampered', makeZip([{ name: 'junit.xml', data: '<testsuites/>' }]));
    ci.corrupt('tampered');
    await expect(fetch({ name: 'tampered', headSha: HEAD })).rejects.toThrow(VerificationError);
  });
});
