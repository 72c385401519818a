import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InfrastructureError } from '../../src/errors.js';
import { runCappedProcess } from '../../src/runners/capped-process.js';
import { createLocalRunner } from '../../src/runners/local-runner.js';
import type { RunRequest } from '../../src/runners/runner.js';

const NODE = process.execPath;
let work: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'patchproof-local-test-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

function request(argv: string[], overrides: Partial<RunRequest> = {}): RunRequest {
  return { hostWorkdir: work, hostResultsDir: work, argv, env: {}, timeoutMs: 20_000, outputLimitBytes: 1_000_000, label: 'test', ...overrides };
}

/** True while `pid` is a live (not zombie) process. */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe('createLocalRunner', () => {
  it('is declared unisolated and sees host paths', () => {
    const runner = createLocalRunner();
    expect(runner.description.kind).toBe('local');
    expect(runner.description.isolated).toBe(false);
    expect(runner.description.settings).toContain('isolation=none');
    expect(runner.view('/a/copy', '/a/results')).toEqual({ workdir: '/a/copy', resultsDir: '/a/results' });
  });

  it('reports exit codes, combined output, its hash and the duration', async () => {
    const runner = createLocalRunner();
    const outcome = await runner.run(request([NODE, '-e', 'process.stdout.write("out\\n"); process.stderr.write("err\\n"); process.exitCode = 3']));
    expect(outcome.exitCode).toBe(3);
    expect(outcome.signal).toBeNull();
    expect(outcome.timedOut).toBe(false);
    expect(outcome.outputTruncated).toBe(false);
    expect(outcome.output.split('\n').sort()).toEqual(['', 'err', 'out']);
    expect(outcome.outputBytes).toBe(8);
    expect(outcome.outputSha256).toBe(createHash('sha256').update(outcome.output).digest('hex'));
    expect(outcome.durationMs).toBeGreaterThan(0);
  });

  it('reports the signal that ended the process', async () => {
    const outcome = await createLocalRunner().run(request(['/bin/sh', '-c', 'kill -TERM $$']));
    expect(outcome.exitCode).toBeNull();
    expect(outcome.signal).toBe('SIGTERM');
  });

  it('runs in the copy with cwd = hostWorkdir', async () => {
    const outcome = await createLocalRunner().run(request([NODE, '-e', 'console.log(process.cwd())']));
    expect(outcome.output.trim()).toBe(work);
  });

  it('passes only the requested environment plus PATH, HOME and TMPDIR (a fresh dir, removed afterwards)', async () => {
    process.env.PATCHPROOF_LEAK_MARKER = 'host-secret';
    try {
      const outcome = await createLocalRunner().run(
        request([NODE, '-e', 'require("fs").writeFileSync(process.env.HOME + "/probe", "x"); console.log(JSON.stringify(process.env))'], { env: { FOO: 'bar baz', EMPTY: '' } })
      );
      const env = JSON.parse(outcome.output) as Record<string, string>;
      expect(Object.keys(env).sort()).toEqual(['EMPTY', 'FOO', 'HOME', 'PATH', 'TMPDIR']);
      expect(env.FOO).toBe('bar baz');
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.TMPDIR).toBe(env.HOME);
      expect(env.HOME).not.toBe(process.env.HOME);
      expect(existsSync(env.HOME as string)).toBe(false);
    } finally {
      delete process.env.PATCHPROOF_LEAK_MARKER;
    }
  });

  it('on timeout kills the whole process tree, grandchildren included', async () => {
    const pidFile = join(work, 'grandchild.pid');
    // node -> sh -> sleep: the sleep is a grandchild of the runner's child.
    const script = `require("child_process").spawn("/bin/sh", ["-c", "sleep 300 & echo $! > ${pidFile}; wait"], { stdio: "inherit" }); setInterval(() => {}, 1000)`;
    const started = Date.now();
    const outcome = await createLocalRunner().run(request([NODE, '-e', script], { timeoutMs: 1500 }));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exitCode).toBeNull();
    expect(outcome.signal).toBe('SIGKILL');
    const grandchild = Number((await readFile(pidFile, 'utf8')).trim());
    expect(grandchild).toBeGreaterThan(1);
    expect(await waitFor(async () => !(await alive(grandchild)), 5000)).toBe(true);
  });

  it('does not wait for, and kills, background children left behind by a process that exited', async () => {
    const pidFile = join(work, 'background.pid');
    const started = Date.now();
    const outcome = await createLocalRunner().run(request(['/bin/sh', '-c', `sleep 300 & echo $! > ${pidFile}; exit 0`]));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.timedOut).toBe(false);
    const background = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await waitFor(async () => !(await alive(background)), 5000)).toBe(true);
  });

  it('keeps the first N bytes of endless output and kills the process', async () => {
    const started = Date.now();
    const outcome = await createLocalRunner().run(request([NODE, '-e', 'const b = "x".repeat(65536); for (;;) process.stdout.write(b)'], { outputLimitBytes: 10_000 }));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(outcome.outputTruncated).toBe(true);
    expect(outcome.timedOut).toBe(false);
    expect(outcome.output).toBe('x'.repeat(10_000));
    expect(outcome.outputBytes).toBeGreaterThanOrEqual(10_000);
    expect(outcome.outputSha256).toBe(createHash('sha256').update('x'.repeat(10_000)).digest('hex'));
    expect(outcome.signal).toBe('SIGKILL');
  });

  it('does not mark output that exactly fills the cap as truncated', async () => {
    const outcome = await createLocalRunner().run(request([NODE, '-e', 'process.stdout.write("y".repeat(5000))'], { outputLimitBytes: 5000 }));
    expect(outcome.outputTruncated).toBe(false);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output).toHaveLength(5000);
  });

  it('throws InfrastructureError when the command cannot be started', async () => {
    const runner = createLocalRunner();
    await expect(runner.run(request(['/nonexistent/patchproof-no-such-binary']))).rejects.toThrow(InfrastructureError);
    await expect(runner.run(request([NODE, '-e', '0'], { hostWorkdir: join(work, 'missing') }))).rejects.toThrow(InfrastructureError);
  });

  it('dispose() kills live process groups', async () => {
    const runner = createLocalRunner();
    const pidFile = join(work, 'disposed.pid');
    const running = runner.run(request(['/bin/sh', '-c', `sleep 300 & echo $! > ${pidFile}; wait`], { timeoutMs: 60_000 }));
    expect(await waitFor(async () => existsSync(pidFile) && (await readFile(pidFile, 'utf8')).trim() !== '', 5000)).toBe(true);
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    const started = Date.now();
    await runner.dispose();
    const outcome = await running;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome.signal).toBe('SIGKILL');
    expect(outcome.timedOut).toBe(false);
    expect(await waitFor(async () => !(await alive(child)), 5000)).toBe(true);
  });
});

describe('runCappedProcess', () => {
  it('calls onKill with the reason before returning', async () => {
    const reasons: string[] = [];
    const outcome = await runCappedProcess({
      argv: [NODE, '-e', 'setInterval(() => {}, 1000)'],
      cwd: work,
      env: {},
      timeoutMs: 300,
      outputLimitBytes: 100,
      onKill: async (reason) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        reasons.push(reason);
      }
    });
    expect(outcome.timedOut).toBe(true);
    expect(reasons).toEqual(['timeout']);
  });

  // Found by the corpus (integrations/idna-oversized-input): a suite writing megabytes to stderr cut
  // results-channel frames on stdout in the combined output, and lost them (a false grader_compromised).
  it('keeps stdout apart: a stdout line written in two parts stays whole although stderr bytes arrived in between', async () => {
    // The child writes the frame's two halves to fd 1 with a stderr line between them, 100 ms apart.
    const halves = JSON.stringify(['\n@@frame nonce test {"id":', '"t.a"}\n']);
    const script = `const { writeSync } = require('node:fs'); const [a, b] = ${halves};
      writeSync(1, a); setTimeout(() => { writeSync(2, 'runTest ... ok\\n'); setTimeout(() => writeSync(1, b), 100); }, 100);`;
    const outcome = await runCappedProcess({ argv: [NODE, '-e', script], cwd: work, env: {}, timeoutMs: 10_000, outputLimitBytes: 10_000 });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe('\n@@frame nonce test {"id":"t.a"}\n');
    // The combined output (what the receipt digests) has the stderr line inside the frame.
    expect(outcome.output).toBe('\n@@frame nonce test {"id":runTest ... ok\n"t.a"}\n');
    expect(outcome.outputBytes).toBe(Buffer.byteLength(outcome.output));
  });

  it('keeps in stdout only stdout bytes within the output cap', async () => {
    const outcome = await runCappedProcess({
      argv: [NODE, '-e', "process.stderr.write('e'.repeat(50), () => process.stdout.write('o'.repeat(100)))"],
      cwd: work,
      env: {},
      timeoutMs: 10_000,
      outputLimitBytes: 80
    });
    expect(outcome.outputTruncated).toBe(true);
    expect(outcome.output).toBe('e'.repeat(50) + 'o'.repeat(30));
    expect(outcome.stdout).toBe('o'.repeat(30));
  });

  it('looks the command up on the given PATH only', async () => {
    await expect(runCappedProcess({ argv: ['node', '-e', '0'], cwd: work, env: { PATH: join(work, 'empty') }, timeoutMs: 5000, outputLimitBytes: 100 })).rejects.toThrow(
      InfrastructureError
    );
  });
});
