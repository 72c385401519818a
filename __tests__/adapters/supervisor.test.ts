import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SUPERVISOR_SOURCE } from '../../src/adapters/shared/supervisor.js';

/**
 * The test-binary supervisor (src/adapters/shared/supervisor.ts) on this machine's kernel: real
 * processes exec'd under its seccomp filter. The filter is the kernel's, so the host shows what
 * the container does (the Docker end to end cases are in __tests__/hostile/reexec.test.ts).
 */

const probe = spawnSync('python3', ['-c', 'import ctypes, platform; print(platform.machine())'], { encoding: 'utf8' });
const SKIP = probe.status !== 0 ? 'python3 is not on PATH' : probe.stdout.trim() !== 'x86_64' ? 'the supervisor supports x86_64 only' : undefined;
if (SKIP !== undefined) console.warn(`SKIPPING the supervisor tests: ${SKIP}`);
const describeHere = SKIP === undefined ? describe : describe.skip;

describeHere('test-binary supervisor', () => {
  let dir: string;
  let script: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'patchproof-supervisor-'));
    script = path.join(dir, 'supervise.py');
    writeFileSync(script, SUPERVISOR_SOURCE);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const supervised = (...argv: string[]) => {
    const result = spawnSync('python3', ['-I', '-S', script, ...argv], { encoding: 'utf8', timeout: 30_000 });
    return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
  };
  const python = (code: string) => supervised(process.env.PYTHON3 ?? '/usr/bin/python3', '-I', '-S', '-c', code);

  it('execs the binary in place with its arguments and exit code (one process, no fork)', () => {
    expect(supervised('/bin/sh', '-c', 'echo "$0 $1"; exit 3', 'a', 'b')).toMatchObject({ status: 3, signal: null, stdout: 'a b\n' });
  });

  it('kills a binary that starts a second process (fork/clone) with SIGSYS', () => {
    expect(supervised('/bin/sh', '-c', '/bin/true; echo survived')).toMatchObject({ status: null, signal: 'SIGSYS', stdout: '' });
    expect(python('import os; os.fork()')).toMatchObject({ signal: 'SIGSYS' });
    expect(python('import subprocess; subprocess.run(["/bin/true"])')).toMatchObject({ signal: 'SIGSYS' });
  });

  it('lets threads run (clone3 answers ENOSYS, libc falls back to clone with CLONE_THREAD)', () => {
    expect(python('import threading\nt = threading.Thread(target=print, args=("thread",)); t.start(); t.join()')).toMatchObject({ status: 0, stdout: 'thread\n' });
  });

  it('kills a binary that signals or traces another process, never one that signals itself', () => {
    expect(python('import os, signal; os.kill(os.getpid(), 0); print("self ok")')).toMatchObject({ status: 0, stdout: 'self ok\n' });
    expect(python('import os; os.kill(os.getppid(), 0)')).toMatchObject({ signal: 'SIGSYS' });
    expect(python('import os; os.kill(0, 0)')).toMatchObject({ signal: 'SIGSYS' });
    expect(python('import ctypes; ctypes.CDLL(None).ptrace(16, 1, 0, 0)')).toMatchObject({ signal: 'SIGSYS' });
  });

  it('refuses to run without a binary (exit 126)', () => {
    expect(supervised()).toMatchObject({ status: 126 });
  });
});
