import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { InfrastructureError } from '../../src/errors.js';
import { dockerTestGate } from '../../src/runners/docker-available.js';
import { createDockerRunner } from '../../src/runners/docker-runner.js';
import type { RunOutcome, RunRequest, Runner } from '../../src/runners/runner.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

const run = promisify(execFile);

/**
 * Integration tests against the real engine and the real test image (scripts/build-test-image.sh).
 * Every run gets a unique label so the "container is gone" checks only see their own containers.
 */
const gate = await dockerTestGate();
if (gate.mode === 'skip') console.warn(`SKIPPED docker-runner tests: ${gate.reason}`);
const describeDocker = gate.mode === 'skip' ? describe.skip : describe;

/** Containers still present (running or not) with this run label. */
/** A one-file image (no shell, no binaries) imported from a tree holding only a random `/marker`. */
async function importMarkerImage(tree: string): Promise<string> {
  await mkdir(tree);
  await writeFile(join(tree, 'marker'), randomBytes(16).toString('hex'));
  return execFileSync('/bin/sh', ['-c', `tar -C '${tree}' -c . | docker import -`], { encoding: 'utf8' }).trim();
}

async function containersLabelled(label: string, status?: 'running'): Promise<string[]> {
  const { stdout } = await run('docker', [
    'ps',
    '-aq',
    '--filter',
    'label=patchproof=1',
    '--filter',
    `label=patchproof.label=${label}`,
    ...(status === undefined ? [] : ['--filter', `status=${status}`])
  ]);
  return stdout.split('\n').filter((line) => line.trim() !== '');
}

/** Containers still present (running or not) made from this image. */
async function containersOf(imageId: string): Promise<string[]> {
  const { stdout } = await run('docker', ['ps', '-aq', '--filter', `ancestor=${imageId}`]);
  return stdout.split('\n').filter((line) => line.trim() !== '');
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

/** Every file under `dir` with its mode and content hash: what "unchanged" means for the copy. */
async function listing(dir: string, prefix = ''): Promise<string[]> {
  const entries: string[] = [];
  for (const entry of (await readdir(join(dir, prefix), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const relative = join(prefix, entry.name);
    const info = await stat(join(dir, relative));
    if (entry.isDirectory()) {
      entries.push(`${relative}/ ${info.mode.toString(8)}`);
      entries.push(...(await listing(dir, relative)));
    } else {
      const hash = createHash('sha256')
        .update(await readFile(join(dir, relative)))
        .digest('hex');
      entries.push(`${relative} ${info.mode.toString(8)} ${hash}`);
    }
  }
  return entries;
}

describeDocker('createDockerRunner (real Docker engine)', () => {
  const imageId = gate.mode === 'run' ? gate.imageId : '';
  let runner: Runner;
  let work: string;
  let copy: string;
  let results: string;

  beforeAll(async () => {
    if (gate.mode === 'fail') throw new Error(gate.reason);
    runner = await createDockerRunner({ image: imageId, memoryMiB: 256, pidsLimit: 128, cpus: 1 });
  });

  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'patchproof-docker-test-'));
    copy = join(work, 'copy');
    results = join(work, 'results');
    await mkdir(join(copy, 'src'), { recursive: true });
    await writeFile(join(copy, 'README.md'), '# fixture\n');
    await writeFile(join(copy, 'src', 'app.py'), 'def answer():\n    return 42\n');
    // The container user (65534) must be able to read the copy; mkdtemp makes the parent 0700,
    // which the bind mount bypasses.
    await chmod(copy, 0o755);
    await chmod(join(copy, 'src'), 0o755);
  });

  afterEach(async () => {
    await mayBeUnset(runner)?.dispose();
    await rm(work, { recursive: true, force: true });
  });

  function request(argv: string[], overrides: Partial<RunRequest> = {}): RunRequest {
    return {
      hostWorkdir: copy,
      hostResultsDir: results,
      argv,
      env: {},
      timeoutMs: 30_000,
      outputLimitBytes: 1_000_000,
      label: `t-${randomBytes(6).toString('hex')}`,
      ...overrides
    };
  }

  /** Run, watching that the container existed while it ran and is gone afterwards. */
  async function runAndWatch(req: RunRequest, using: Runner = runner): Promise<{ outcome: RunOutcome; seenRunning: boolean }> {
    let seenRunning = false;
    let done = false;
    // A named function, not an IIFE: TypeScript reads an IIFE inline and would hold `done` false throughout.
    const watch = async (): Promise<void> => {
      while (!done) {
        if ((await containersLabelled(req.label)).length > 0) seenRunning = true;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    };
    const watcher = watch();
    try {
      const outcome = await using.run(req);
      return { outcome, seenRunning };
    } finally {
      done = true;
      await watcher;
      expect(await containersLabelled(req.label)).toEqual([]);
    }
  }

  it('runs node and python in the copy, with exit code and output', async () => {
    const outcome = await runner.run(request(['sh', '-c', 'pwd; node -e "console.log(process.version)"; python3 -c "import sys; print(sys.version_info[:2])"; exit 3']));
    expect(outcome.exitCode).toBe(3);
    expect(outcome.timedOut).toBe(false);
    const [cwd, node, python] = outcome.output.trim().split('\n');
    expect(cwd).toBe('/home/runner/work/project/project');
    expect(node).toMatch(/^v20\./);
    expect(python).toBe('(3, 13)');
    expect(outcome.outputSha256).toBe(createHash('sha256').update(outcome.output).digest('hex'));
  }, 30_000);

  it('a process that never ends is timed out and its container removed', async () => {
    const started = Date.now();
    const { outcome, seenRunning } = await runAndWatch(request(['node', '-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 3000 }));
    expect(seenRunning).toBe(true);
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exitCode).toBeNull();
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);

  it('endless output is cut at the cap and the container removed', async () => {
    const started = Date.now();
    const { outcome } = await runAndWatch(request(['python3', '-c', 'import sys\nwhile True: sys.stdout.write("z" * 65536)'], { outputLimitBytes: 100_000 }));
    expect(outcome.outputTruncated).toBe(true);
    expect(outcome.timedOut).toBe(false);
    expect(outcome.output).toBe('z'.repeat(100_000));
    expect(outcome.outputBytes).toBeGreaterThanOrEqual(100_000);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);

  it('a fork bomb hits the pids limit and the host is fine', async () => {
    const counter = await runner.run(
      request([
        'python3',
        '-c',
        [
          'import os, time',
          'n = 0',
          'while True:',
          '    try:',
          '        pid = os.fork()',
          '    except OSError:',
          '        break',
          '    if pid == 0:',
          '        time.sleep(60)',
          '        os._exit(0)',
          '    n += 1',
          'print(n)'
        ].join('\n')
      ])
    );
    const forks = Number(counter.output.trim());
    expect(forks).toBeGreaterThan(10);
    expect(forks).toBeLessThan(128);

    const started = Date.now();
    const { outcome } = await runAndWatch(request(['python3', '-c', 'import os\nwhile True:\n    try: os.fork()\n    except OSError: pass'], { timeoutMs: 5000 }));
    expect(outcome.timedOut || outcome.exitCode !== null).toBe(true);
    expect(Date.now() - started).toBeLessThan(30_000);
    // The host can still start processes.
    expect(execFileSync('/bin/sh', ['-c', 'echo alive'], { encoding: 'utf8' }).trim()).toBe('alive');
  }, 50_000);

  it('a memory bomb is OOM-killed (exit 137)', async () => {
    const { outcome } = await runAndWatch(request(['python3', '-c', 'a = []\nwhile True: a.append(b"m" * (1 << 20))'], { timeoutMs: 30_000 }));
    expect(outcome.timedOut).toBe(false);
    expect(outcome.exitCode).toBe(137);
  }, 45_000);

  it('cannot reach a TCP server on the host (loopback, docker0 or any host address)', async () => {
    const addresses = Object.values(networkInterfaces())
      .flat()
      .filter((entry) => entry !== undefined && entry.family === 'IPv4')
      .map((entry) => entry.address);
    // Loopback, the docker0 bridge when the daemon has one, and every other host address.
    expect(addresses).toContain('127.0.0.1');
    let connections = 0;
    const servers: { address: string; port: number; server: Server }[] = [];
    try {
      for (const address of addresses) {
        const server = createServer((socket) => {
          connections += 1;
          socket.destroy();
        });
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, address, () => resolve());
        });
        const port = (server.address() as { port: number }).port;
        servers.push({ address, port, server });
      }
      const targets = servers.map(({ address, port }) => ({ host: address, port }));
      // The probe first connects to its own in-container server: proof that it can connect at all.
      const probe = `
        const net = require("net");
        const attempt = (t) => new Promise((resolve) => {
          const s = net.connect(t);
          s.setTimeout(2000, () => { s.destroy(); resolve(t.host + " timeout"); });
          s.on("connect", () => { s.destroy(); resolve(t.host + " CONNECTED"); });
          s.on("error", (e) => resolve(t.host + " " + e.code));
        });
        const own = net.createServer((c) => c.destroy()).listen(0, "127.0.0.1", async () => {
          const control = await attempt({ host: "127.0.0.1", port: own.address().port });
          const results = await Promise.all(${JSON.stringify(targets)}.map(attempt));
          own.close();
          console.log(JSON.stringify({ control, results }));
        });`;
      const outcome = await runner.run(request(['node', '-e', probe]));
      const { control, results: lines } = JSON.parse(outcome.output) as { control: string; results: string[] };
      expect(control).toBe('127.0.0.1 CONNECTED');
      expect(lines).toHaveLength(targets.length);
      for (const line of lines) expect(line).not.toContain('CONNECTED');
      expect(connections).toBe(0);
    } finally {
      await Promise.all(servers.map(({ server }) => new Promise((resolve) => server.close(resolve))));
    }
  }, 30_000);

  it('cannot write to the copy, the root file system or /etc; can write results and /tmp', async () => {
    // World-writable on the host, so only the read-only mount can stop the writes (EROFS, not EACCES).
    for (const dir of [copy, join(copy, 'src')]) await chmod(dir, 0o777);
    for (const file of ['README.md', join('src', 'app.py')]) await chmod(join(copy, file), 0o666);
    const before = await listing(copy);
    const probe = [
      'import json, os',
      'def attempt(label, fn):',
      '    try:',
      '        fn()',
      '        return [label, "ok"]',
      '    except OSError as e:',
      '        return [label, e.errno]',
      'def write(path):',
      '    return lambda: open(path, "w").write("pwned")',
      'out = [',
      '    attempt("repo-new", write("/home/runner/work/project/project/new.txt")),',
      '    attempt("repo-overwrite", write("/home/runner/work/project/project/src/app.py")),',
      '    attempt("repo-delete", lambda: os.remove("/home/runner/work/project/project/README.md")),',
      '    attempt("repo-chmod", lambda: os.chmod("/home/runner/work/project/project/README.md", 0o777)),',
      '    attempt("repo-mkdir", lambda: os.mkdir("/home/runner/work/project/project/dir")),',
      '    attempt("root", write("/evil")),',
      '    attempt("etc", write("/etc/evil")),',
      '    attempt("etc-passwd", write("/etc/passwd")),',
      '    attempt("root-home", write("/root/x")),',
      '    attempt("usr-bin", write("/usr/bin/evil")),',
      '    attempt("var-tmp", write("/var/tmp/evil")),',
      '    attempt("results", write("/home/runner/work/_temp/test-results/ok.txt")),',
      '    attempt("tmp", write("/tmp/ok.txt")),',
      ']',
      'print(json.dumps(dict(out)))'
    ].join('\n');
    const outcome = await runner.run(request(['python3', '-c', probe]));
    const seen = JSON.parse(outcome.output) as Record<string, string | number>;
    const EROFS = 30;
    const EACCES = 13;
    for (const key of ['repo-new', 'repo-overwrite', 'repo-delete', 'repo-chmod', 'repo-mkdir', 'root', 'etc', 'etc-passwd', 'usr-bin', 'var-tmp']) {
      expect([key, seen[key]]).toEqual([key, EROFS]);
    }
    // /root is 0700: the lookup is refused before the read-only check.
    expect([EROFS, EACCES]).toContain(seen['root-home']);
    expect(seen.results).toBe('ok');
    expect(seen.tmp).toBe('ok');
    expect(await listing(copy)).toEqual(before);
    expect(await readFile(join(results, 'ok.txt'), 'utf8')).toBe('pwned');
    expect((await stat(results)).mode & 0o777).toBe(0o777);
  }, 30_000);

  it('runs as 1001 (the default, the uid of a CI runner) with no capabilities, no-new-privileges and seccomp', async () => {
    const outcome = await runner.run(request(['cat', '/proc/self/status']));
    const status = Object.fromEntries(
      outcome.output
        .split('\n')
        .map((line) => line.split(':\t'))
        .filter((parts) => parts.length === 2)
    ) as Record<string, string>;
    expect(status.Uid).toBe('1001\t1001\t1001\t1001');
    expect(status.Gid).toBe('1001\t1001\t1001\t1001');
    for (const set of ['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb']) expect(status[set]).toBe('0000000000000000');
    expect(status.NoNewPrivs).toBe('1');
    expect(status.Seccomp).toBe('2');
  }, 30_000);

  it('sees only the requested environment (nothing of the host leaks)', async () => {
    process.env.PATCHPROOF_LEAK_MARKER = 'host-secret-marker';
    try {
      const outcome = await runner.run(
        request(['node', '-e', 'console.log(JSON.stringify(process.env))'], {
          env: { FOO: 'bar --privileged', MULTI: 'a\nb' }
        })
      );
      expect(outcome.output).not.toContain('host-secret-marker');
      const env = JSON.parse(outcome.output) as Record<string, string>;
      // HOSTNAME is set by Docker, PATH and LANG come from the image.
      expect(Object.keys(env).sort()).toEqual(['CI', 'FOO', 'HOME', 'HOSTNAME', 'LANG', 'MULTI', 'PATH', 'TMPDIR']);
      expect(env).toMatchObject({ FOO: 'bar --privileged', MULTI: 'a\nb', CI: 'true', HOME: '/home/runner', TMPDIR: '/tmp' });
    } finally {
      delete process.env.PATCHPROOF_LEAK_MARKER;
    }
  }, 30_000);

  it("reports the test process's own exit 125 as an exit code, not an infrastructure fault", async () => {
    const outcome = await runner.run(request(['sh', '-c', 'exit 125']));
    expect(outcome.exitCode).toBe(125);
  }, 30_000);

  it('turns a docker run the daemon refuses (exit 125) into InfrastructureError', async () => {
    // A real image that disappears after the runner resolved it.
    const tinyId = await importMarkerImage(join(work, 'tiny'));
    const doomed = await createDockerRunner({ image: tinyId });
    // -f: the runner's /bin/sh probe (started by createDockerRunner) may still hold a created container of it.
    execFileSync('docker', ['image', 'rm', '-f', tinyId]);
    const req = request(['true']);
    await expect(doomed.run(req)).rejects.toThrow(InfrastructureError);
    expect(await containersLabelled(req.label)).toEqual([]);

    // A limit the daemon refuses.
    const tooSmall = await createDockerRunner({ image: imageId, memoryMiB: 1 });
    await expect(tooSmall.run(request(['true']))).rejects.toThrow(/docker create failed: .*memory/i);
  }, 30_000);

  it('prestart: the container waits at its gate; the command begins only at go(), and its time limit counts from there', async () => {
    const prestart = runner.prestart?.bind(runner);
    if (prestart === undefined) throw new Error('the Docker runner must offer prestart');
    // The command prints the moment it begins (the container shares the host's clock), then takes 1 s.
    const req = request(['python3', '-c', 'import time; print("began", int(time.time() * 1000), flush=True); time.sleep(1); print("done")'], { timeoutMs: 3_000 });
    const held = await prestart(req);
    // Held for longer than the run's whole time limit: not begun, not timed out.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(await containersLabelled(req.label)).toHaveLength(1);
    const released = Date.now();
    const outcome = await held.go();
    expect(outcome.timedOut).toBe(false);
    expect(outcome.exitCode).toBe(0);
    const began = Number(/^began (\d+)$/m.exec(outcome.stdout)?.[1]);
    expect(began).toBeGreaterThanOrEqual(released);
    expect(outcome.stdout).toMatch(/^done$/m);
    expect(await containersLabelled(req.label)).toEqual([]);
    await expect(held.go()).rejects.toThrow(/released twice/);
  }, 60_000);

  it('prestart: the command keeps its process ID (PID 1 without docker-init), its environment and /dev/null as input', async () => {
    const script = 'import os, sys; print("pid=%d" % os.getpid()); print(" ".join(sorted(os.environ))); print("stdin=%r" % sys.stdin.read())';
    const outcome = await runner.run(request(['python3', '-c', script], { init: false, env: { ONLY: 'x' } }));
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toMatch(/^pid=1$/m);
    expect(outcome.stdout).toMatch(/^stdin=''$/m);
    const names = (outcome.stdout.split('\n')[1] ?? '').trim().split(' ');
    expect(names).toEqual(['CI', 'HOME', 'HOSTNAME', 'LANG', 'ONLY', 'PATH', 'TMPDIR']);
  }, 30_000);

  it('prestart: discard() and an aborted signal kill and remove a held container without running its command', async () => {
    const prestart = runner.prestart?.bind(runner);
    if (prestart === undefined) throw new Error('the Docker runner must offer prestart');
    const first = request(['true']);
    const held = await prestart(first);
    expect(await containersLabelled(first.label)).toHaveLength(1);
    await held.discard();
    expect(await containersLabelled(first.label)).toEqual([]);

    const controller = new AbortController();
    const second = request(['true'], { signal: controller.signal });
    await prestart(second);
    controller.abort();
    expect(await waitFor(async () => (await containersLabelled(second.label)).length === 0, 20_000)).toBe(true);
  }, 60_000);

  it('an image without /bin/sh is run without the start gate: the command itself is what the container executes', async () => {
    const noShell = await importMarkerImage(join(work, 'nosh'));
    try {
      const bare = await createDockerRunner({ image: noShell });
      const req = request(['/marker']);
      const outcome = await bare.run(req);
      // docker-init tried to execute /marker (not executable), never a shell gate.
      expect(outcome.exitCode).not.toBe(0);
      expect(outcome.output).toMatch(/\/marker/);
      expect(outcome.output).not.toMatch(/\/bin\/sh/);
      expect(await containersLabelled(req.label)).toEqual([]);
      // The probe's container is removed in the background; dispose() waits for that removal.
      await bare.dispose();
      expect(await containersOf(noShell)).toEqual([]);
    } finally {
      execFileSync('docker', ['image', 'rm', '-f', noShell]);
    }
  }, 60_000);

  it("dispose() while the image probe is under way waits for it: the probe's container is not left behind", async () => {
    // A fresh image, so this runner's probe is the first for it (one probe per image and process).
    const tree = join(work, 'probe-race');
    await mkdir(tree);
    await writeFile(join(tree, 'marker'), randomBytes(16).toString('hex'));
    const fresh = execFileSync('/bin/sh', ['-c', `tar -C '${tree}' -c . | docker import -`], { encoding: 'utf8' }).trim();
    try {
      const own = await createDockerRunner({ image: fresh });
      // At once: the probe (create, cp, rm) started by createDockerRunner has not finished.
      await own.dispose();
      expect(await containersOf(fresh)).toEqual([]);
    } finally {
      const leftovers = await containersOf(fresh);
      if (leftovers.length > 0) await run('docker', ['rm', '-f', ...leftovers]);
      execFileSync('docker', ['image', 'rm', '-f', fresh]);
    }
  }, 60_000);

  it('dispose() removes running containers', async () => {
    const own = await createDockerRunner({ image: imageId });
    const req = request(['sleep', '300'], { timeoutMs: 60_000 });
    const running = own.run(req);
    // Running, not just created: a dispose() between create and start is the other case (the run
    // throws "stopped before it could start"), which a loaded machine widens enough to hit here.
    expect(await waitFor(async () => (await containersLabelled(req.label, 'running')).length > 0, 30_000)).toBe(true);
    const started = Date.now();
    await own.dispose();
    expect(await containersLabelled(req.label)).toEqual([]);
    const outcome = await running;
    expect(outcome.timedOut).toBe(false);
    expect(outcome.exitCode).toBeNull();
    // Killed, not waited for: the command would sleep 300 s (a wide margin, for a loaded machine).
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);

  it('installSignalCleanup (in a real CLI-like process) removes the container on SIGTERM/SIGINT and exits 143/130', async () => {
    // Jest gives tests a sandboxed `process`, so a real signal must go to a real process: compile
    // the runner and drive it from a child node process.
    const build = join(work, 'build');
    const tsc = join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [
      tsc,
      join(process.cwd(), 'src', 'runners', 'docker-runner.ts'),
      '--outDir',
      build,
      '--noEmit',
      'false',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--skipLibCheck',
      '--types',
      'node',
      '--strict'
    ]);
    await writeFile(join(build, 'package.json'), '{"type":"module"}');
    // The runner imports packages (picomatch): the compiled copy resolves them from the project.
    await symlink(join(process.cwd(), 'node_modules'), join(build, 'node_modules'));
    const cli = join(build, 'cli.js');
    await writeFile(
      cli,
      `import { createDockerRunner, installSignalCleanup } from './runners/docker-runner.js';
       const [image, copy, results, label] = process.argv.slice(2);
       const runner = await createDockerRunner({ image });
       installSignalCleanup(runner);
       // A run the signal stops before its command began is refused (InfrastructureError): expected here.
       runner.run({ hostWorkdir: copy, hostResultsDir: results, argv: ['sleep', '300'], env: {}, timeoutMs: 60000, outputLimitBytes: 1000, label }).catch(() => undefined);
       setInterval(() => {}, 1000);`
    );
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130]
    ] as const) {
      const label = `sig-${randomBytes(6).toString('hex')}`;
      const child = execFile(process.execPath, [cli, imageId, copy, results, label], { env: { PATH: process.env.PATH ?? '' } });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
      try {
        const started = await waitFor(async () => (await containersLabelled(label)).length > 0, 40_000);
        expect({ started, stderr }).toEqual({ started: true, stderr: '' });
        child.kill(signal);
        expect(await exited).toBe(code);
        expect(await containersLabelled(label)).toEqual([]);
      } finally {
        child.kill('SIGKILL');
        const leftovers = await containersLabelled(label);
        if (leftovers.length > 0) await run('docker', ['rm', '-f', ...leftovers]);
      }
    }
  }, 120_000);
});
