import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { treeListing } from '../helpers/cli.js';
import { JS, PHASES, area, bakeTargets, dockerGate, ensureCli, hostileDiff, validateCandidate, type Area, type Validation } from './hostile-support.js';

/**
 * Candidates that try to leave the sandbox from the code under test: to reach TCP servers on the
 * host, and to write into the host's file system. Both are the correct fix plus the escape
 * attempt, and apply the fix only when every attempt failed and a control attempt inside the
 * sandbox worked (fixtures/hostile/README.md). So in the Docker runner they must pass — proof that
 * the attempts ran and failed — while the host sees no connection and no file. (The write escape
 * reads its working directory, which the tamper screen reports: passed, proof grade withheld.)
 */

const gate = await dockerGate('hostile escape tests');

/** A TCP server on the host that counts the connections it receives. */
interface CountingServer {
  server: Server;
  port: number;
  connections: number;
}

async function countingServer(host: string): Promise<CountingServer> {
  const counting: CountingServer = { server: createServer(), port: 0, connections: 0 };
  counting.server.on('connection', (socket) => {
    counting.connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    counting.server.once('error', reject);
    counting.server.listen(0, host, () => resolve());
  });
  counting.port = (counting.server.address() as AddressInfo).port;
  return counting;
}

/** Every IPv4 address of this host, loopback included. */
function hostIPv4Addresses(): string[] {
  const found = Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry !== undefined && entry.family === 'IPv4')
    .map((entry) => entry.address);
  return [...new Set(found)];
}

/**
 * Passed, every phase, isolated and unchanged; proof grade unless the tamper screen withholds it
 * (`withheldFor`: the finding expected, as rule and text).
 */
function expectProofGradePass(result: Validation, withheldFor?: { rule: string; text: string }): void {
  expect(result.receipt).not.toBeNull();
  expect(result.verify?.status).toBe(0);
  expect(result.validation.status).toBe(0);
  expect(result.receipt!.verdict).toBe('passed');
  expect(result.receipt!.reasons).toEqual([]);
  expect(result.receipt!.proof_grade).toBe(withheldFor === undefined);
  const findings = (result.receipt as unknown as { tamper_screen: { findings: { rule: string; text: string }[] } }).tamper_screen.findings.map((f) => ({
    rule: f.rule,
    text: f.text
  }));
  if (withheldFor === undefined) expect(findings).toEqual([]);
  else {
    expect(findings).toContainEqual(withheldFor);
    // Besides it, only the targets it was given that name the grader's own paths (/patchproof/…).
    for (const f of findings.filter((f) => f.rule !== withheldFor.rule))
      expect(f).toEqual({ rule: 'test_framework_reference', text: expect.stringContaining('/patchproof/') as unknown });
  }
  expect(result.receipt!.runner.isolated).toBe(true);
  expect(result.receipt!.repository.unchanged).toBe(true);
  expect(result.receipt!.phases.map((p) => [p.name, p.status])).toEqual(PHASES.map((name) => [name, 'passed']));
  expect(result.containersLeft).toEqual([]);
  expect(result.processesLeft).toEqual([]);
  expect(result.scratchLeft).toEqual([]);
}

gate.describeDocker('escape attempts in the Docker runner', () => {
  let where: Area;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-escape');
  });

  afterEach(async () => {
    await where.dispose();
  });

  describe('network escape', () => {
    let wide: CountingServer;
    let loopback: CountingServer;
    let diff: string;

    beforeEach(async () => {
      wide = await countingServer('0.0.0.0');
      loopback = await countingServer('127.0.0.1');
      const addresses = hostIPv4Addresses();
      expect(addresses).toContain('127.0.0.1');
      const targets = [
        ...addresses.map((host) => ({ host, port: wide.port })),
        { host: '127.0.0.1', port: loopback.port },
        // Names, resolved by the candidate: the host's own name, and Docker Desktop's name for the host.
        { host: hostname(), port: wide.port },
        { host: hostname(), port: loopback.port },
        { host: 'host.docker.internal', port: wide.port }
      ];
      diff = await bakeTargets(hostileDiff('network-escape'), targets, where);
    });

    afterEach(async () => {
      await Promise.all([wide, loopback].map((s) => new Promise((resolve) => s.server.close(resolve))));
    });

    it('reaches no host server from the container: zero connections, and the fix passes as proof grade', async () => {
      const result = await validateCandidate(where, { diff, runner: 'docker', imageId: gate.imageId, timeoutSeconds: 30 });
      // Give late packets a moment to arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(wide.connections).toBe(0);
      expect(loopback.connections).toBe(0);
      expectProofGradePass(result);
    }, 60_000);

    it('control: the same candidate on the trusted-local runner does reach them, and is judged failed', async () => {
      // Not contained (the local runner runs candidate code on the host): the attempts connect, so
      // the candidate keeps the bug. This shows the Docker result above is the sandbox at work.
      const result = await validateCandidate(where, { diff, runner: 'local', timeoutSeconds: 30 });
      expect(wide.connections).toBeGreaterThan(0);
      expect(loopback.connections).toBeGreaterThan(0);
      expect(result.validation.status).toBe(1);
      expect(result.receipt!.verdict).toBe('failed');
      expect(result.receipt!.reasons).toContain('not_fixed');
      expect(result.receipt!.proof_grade).toBe(false);
      expect(result.receipt!.runner.isolated).toBe(false);
    }, 60_000);
  });

  it('writes nothing outside the sandbox: the real fixture and the host paths it tried are untouched', async () => {
    const nonce = randomBytes(6).toString('hex');
    const name = `pp-escape-${nonce}`;
    const hostPaths = [`/${name}`, `/etc/${name}`, `/root/${name}`, join(JS.repo, name), `/patchproof/${name}`];
    const targets = [
      ...hostPaths,
      // The repository mount, as the container sees it, and files of the real checkout (appended to).
      `/patchproof/repo/${name}`,
      `/home/runner/work/repo/repo/${name}`,
      join(JS.repo, 'src', 'duration.js'),
      join(JS.repo, 'README.md')
    ];
    const before = treeListing(JS.repo);
    expect(before).not.toBeNull();
    // Inside the container /tmp is its own writable tmpfs: a checkout living under the host's /tmp
    // (a CI clone) has paths that are writable there, harmlessly. Those are not escape attempts;
    // the host-side checks below still cover them.
    const insideContainerTmp = (path: string): boolean => path === '/tmp' || path.startsWith('/tmp/');
    const diff = await bakeTargets(
      hostileDiff('write-escape'),
      targets.filter((path) => !insideContainerTmp(path)),
      where
    );
    try {
      const result = await validateCandidate(where, { diff, runner: 'docker', imageId: gate.imageId, timeoutSeconds: 30 });
      expect(treeListing(JS.repo)).toEqual(before);
      for (const path of hostPaths) expect({ path, exists: existsSync(path) }).toEqual({ path, exists: false });
      // It reads its working directory to find its own copy: the tamper screen withholds proof grade for that.
      expectProofGradePass(result, { rule: 'env_argv_read', text: 'process.cwd()' });
    } finally {
      // Should any write have got through, leave no trace of it for the next run.
      for (const path of hostPaths) await rm(path, { force: true, recursive: true });
    }
  }, 60_000);
});
