/**
 * The process supervision of compiled test binaries (go and cargo): a test binary is one process,
 * and nothing it does can start another one or reach the process that collects its results.
 *
 * Why: a test binary that re-executes itself (from Go's `init()`, from a Rust `.init_array`
 * constructor) runs the real tests in a child and relays the child's output with failures turned
 * into passes. Its own stdout is all the results rest on, so the relay is indistinguishable from an
 * honest run. Three parts stop it:
 *
 * 1. **One process per test binary, enforced by the kernel.** Every test binary is started through
 *    `SUPERVISOR_FILE` (a short python3 script, standard library only), which installs a seccomp
 *    filter on itself and then execs the binary; the filter survives the exec and cannot be
 *    removed. It kills the whole binary (SIGSYS) on `fork`, `vfork` and a `clone` without
 *    `CLONE_THREAD` (threads stay allowed: they are the same process); `clone3`, whose flags a
 *    filter cannot read, fails with ENOSYS, so libc falls back to `clone`. It also kills on
 *    `ptrace`, `process_vm_readv`/`writev`, `pidfd_send_signal`, `tkill`, and on `kill`, `tgkill`,
 *    `rt_sigqueueinfo`, `rt_tgsigqueueinfo` aimed at any process but the binary itself, on any
 *    other architecture than the one it was written for, and on x32 system calls.
 * 2. **Nothing else to hijack.** The run's first process is PID 1 of the container (no
 *    docker-init: `TestAdapter.pid1`), started from a copy of its executable that the test user
 *    may execute but not read (mode 0111), which makes the kernel mark it non-dumpable: a process
 *    of the same uid can neither open its `/proc/1/mem` or `/proc/1/fd/*`, nor ptrace it, nor kill
 *    it (a PID namespace's init gets no signal it has no handler for, and the filter allows none).
 *    `go test` runs with `-p 1`, so no compiler or linker (readable, dumpable) is alive while a
 *    test binary runs. The cargo harness kills every other process of the container before it
 *    starts the first test binary (build scripts and proc-macros run candidate code; a daemon they
 *    left behind would outlive the build), and writes its result files afresh after the last one.
 * 3. **Detection.** A binary killed by the filter dies of SIGSYS, which no honest test binary does
 *    (Docker's own profile answers EPERM, never SIGSYS). The go command reports it as the package
 *    output `signal: bad system call`; the cargo harness records the signal of each run. Either is
 *    a disagreement of the run's results channel: `grader_compromised`.
 *
 * Limits: a test suite that legitimately starts processes (Go's helper-process pattern, tests that
 * run `git` or a compiler) cannot be graded: its binaries are killed and the run is
 * `grader_compromised`. In-process code can still forge its own output as it runs (sealed oracles
 * are the answer to that). Only x86_64 is supported; elsewhere the supervisor refuses to run (exit
 * 126), which fails the run closed.
 */

/** File name of the staged supervisor (under HARNESS_DIR). */
export const SUPERVISOR_FILE = 'supervise.py';

/** What the go command prints for a test binary killed by SIGSYS. */
export const GO_SIGSYS_OUTPUT = 'signal: bad system call';

/** The disagreement recorded for a binary the filter killed. */
export const SECOND_PROCESS_FINDING =
  'the test binary tried to start a second process (re-executing itself or spawning a child) or to reach another process, and was killed by the supervisor';

/** The `channel` record a supervised run carries: no frames, the supervisor's findings. */
export function supervisionChannel(findings: readonly string[]): { frames: number; disagreements: string[]; after_end_bytes: number } {
  return { frames: 0, disagreements: [...findings], after_end_bytes: 0 };
}

/**
 * A shell fragment that makes `program` (a command on PATH, or an absolute path) non-dumpable when
 * exec'd: copies it to `$tmp/<name>` with mode 0111 and sets `$<variable>` to the copy. A copy that
 * fails ends the run (exit 2, no results written): fail closed, never an unprotected run.
 */
export function nonDumpableCopy(variable: string, program: string, name: string): string {
  return [
    `${variable}="\${TMPDIR:-/tmp}/${name}"`,
    `if ! { cp "${program}" "$${variable}" && chmod 0111 "$${variable}"; }; then echo "[patchproof] could not make ${name} non-dumpable" >&2; exit 2; fi`
  ].join('; ');
}

/** Source of the supervisor: `python3 supervise.py BINARY ARGS...` execs BINARY under the filter. */
export const SUPERVISOR_SOURCE = String.raw`# PatchProof test-binary supervisor (generated from src/adapters/shared/supervisor.ts).
# Installs a seccomp filter on this process, then execs the test binary under it: the binary can
# start threads but no other process, and can signal or trace no process but itself.
import ctypes, os, platform, struct, sys

KILL, ALLOW, ERRNO, ENOSYS = 0x80000000, 0x7FFF0000, 0x00050000, 38
LD, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
CLONE_THREAD = 0x00010000
if platform.machine() != 'x86_64' or struct.calcsize('P') != 8:
    sys.stderr.write('[patchproof] the test-binary supervisor supports x86_64 only\n')
    sys.exit(126)
ARCH = 0xC000003E
FORK, VFORK, CLONE, CLONE3, PTRACE = 57, 58, 56, 435, 101
VM_READV, VM_WRITEV, PIDFD_SEND_SIGNAL, TKILL = 310, 311, 424, 200
KILL_SYS, TGKILL, SIGQUEUEINFO, TGSIGQUEUEINFO = 62, 234, 129, 297

def ins(code, k, jt=0, jf=0):
    return struct.pack('=HBBI', code, jt, jf, k)

me = os.getpid()
prog = [ins(LD, 4), ins(JEQ, ARCH, 1, 0), ins(RET, KILL), ins(LD, 0), ins(JGE, 0x40000000, 0, 1), ins(RET, KILL)]
for nr in (FORK, VFORK, PTRACE, VM_READV, VM_WRITEV, PIDFD_SEND_SIGNAL, TKILL):
    prog += [ins(JEQ, nr, 0, 1), ins(RET, KILL)]
prog += [ins(JEQ, CLONE3, 0, 1), ins(RET, ERRNO | ENOSYS)]
# clone: a thread (CLONE_THREAD set) is allowed, anything else is a new process.
prog += [ins(JEQ, CLONE, 0, 4), ins(LD, 16), ins(JSET, CLONE_THREAD, 1, 0), ins(RET, KILL), ins(RET, ALLOW)]
# Signals: only to this process (the low 32 bits of the first argument are the pid the kernel uses).
for nr in (KILL_SYS, TGKILL, SIGQUEUEINFO, TGSIGQUEUEINFO):
    prog += [ins(JEQ, nr, 0, 4), ins(LD, 16), ins(JEQ, me, 1, 0), ins(RET, KILL), ins(RET, ALLOW)]
prog += [ins(RET, ALLOW)]

code = ctypes.create_string_buffer(b''.join(prog))
class SockFprog(ctypes.Structure):
    _fields_ = [('len', ctypes.c_ushort), ('filter', ctypes.c_void_p)]
fprog = SockFprog(len(prog), ctypes.addressof(code))
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog), 0, 0) != 0:
    sys.stderr.write('[patchproof] the test-binary supervisor could not install its filter (errno %d)\n' % ctypes.get_errno())
    sys.exit(126)
if len(sys.argv) < 2:
    sys.stderr.write('[patchproof] usage: supervise.py BINARY [ARGS...]\n')
    sys.exit(126)
os.execv(sys.argv[1], sys.argv[1:])
`;
