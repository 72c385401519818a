import { sealOf, framesOf, FRAME_MARK, type ChannelCheck } from '../shared/results-channel.js';

/**
 * The results channel of the generic `junit` adapter. The adapter knows no framework, so nothing
 * can frame tests as they finish; what it can do is run the pack's command under a wrapper that is
 * not the code under test, and seal the JUnit XML the moment the command ends.
 *
 * The wrapper (`JUNIT_CHANNEL_FILE`, python3, standard library only) is the container's PID 1 (no
 * docker-init: `TestAdapter.pid1`). Before it starts the command it
 *
 * - takes the channel's nonce out of its environment (the command's environment never holds it),
 *   and makes itself non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`), so a process of the test user can
 *   open neither its `/proc/1/environ` nor `/proc/1/mem` nor `/proc/1/fd/*`, nor ptrace it: the
 *   code under test cannot learn the nonce, so it cannot forge the wrapper's frame;
 * - becomes a child subreaper, so every process that outlives its parent (a detached rewriter, a
 *   daemon) is reparented to it and counted;
 * - gives SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 a handler that does nothing (PID 1
 *   of a namespace already gets no signal it has no handler for, SIGKILL included).
 *
 * When the command's own process ends, the wrapper kills every other process of the container
 * (`kill(-1, SIGKILL)` as PID 1; outside a container, under the local runner, its own descendants
 * only) and reaps them, and only then digests every file of the results folder and writes one
 * final frame to its stdout: `@@patchproof-frame <nonce> end {"exit":…,"orphans":…,"leftovers":…,"files":{name: sha256}}`.
 * Nothing is alive to write after it; the host reads the result files only after the container
 * is gone, and cross-checks (`checkJunitChannel`):
 *
 * - the frame is there, once, and nothing but it carries the nonce;
 * - every report file the host read is the file the wrapper sealed, byte for byte, and every
 *   report file the wrapper sealed is one the host read;
 * - the exit code the wrapper saw is the run's;
 * - no process outlived its parent during the run (`orphans`): that is how a test file's process
 *   leaves a rewriter behind (node's test runner, for one, writes the XML in its main process
 *   after every test file's process has ended, so a rewrite of it can only come from a process
 *   that outlived the test file that started it).
 *
 * Any disagreement is `grader_compromised`. What this does not stop: a runner that loads the code
 * under test into the process that writes the XML (pytest `--junitxml`, a JVM runner, mocha) can
 * have that process rewrite it before it exits (an `atexit` hook): the seal then holds the forged
 * file. Nor does it stop forgery while the tests run (a test file's process reporting its own
 * results falsely to the runner): canaries, twins and sealed oracles are the answer to that.
 */

/** File name of the staged wrapper (under HARNESS_DIR). */
export const JUNIT_CHANNEL_FILE = 'patchproof-junit-channel.py';

/** How many files of the results folder the wrapper digests at most (beyond: `truncated`). */
export const JUNIT_CHANNEL_MAX_FILES = 10_000;

/** Source of the wrapper: `python3 -I junit-channel.py RESULTS_DIR -- ARGV...`. */
export const JUNIT_CHANNEL_SOURCE = String.raw`# PatchProof junit results channel (generated from src/adapters/junit/channel.ts).
# Runs the pack's command, then kills whatever it left behind, seals every result file and writes
# one frame with a nonce the command never saw.
import ctypes, hashlib, json, os, signal, stat, sys

PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 4, 36
MARK, MAX_FILES = '@@patchproof-frame', ${JUNIT_CHANNEL_MAX_FILES}

def fail(message):
    sys.stderr.write('[patchproof] junit wrapper: %s\n' % message)
    sys.exit(126)

nonce = os.environ.pop('PATCHPROOF_CHANNEL', '')
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 or libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    fail('could not make itself non-dumpable and a subreaper (errno %d)' % ctypes.get_errno())
if len(nonce) < 32 or len(sys.argv) < 4 or sys.argv[2] != '--':
    fail('usage: PATCHPROOF_CHANNEL=NONCE junit-channel.py RESULTS_DIR -- ARGV...')
results, argv = sys.argv[1], sys.argv[3:]
for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2):
    signal.signal(number, lambda *_: None)

sys.stdout.flush()
child = os.fork()
if child == 0:
    try:
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGPIPE):
            signal.signal(number, signal.SIG_DFL)
        os.execvp(argv[0], argv)
    except OSError as error:
        sys.stderr.write('[patchproof] junit wrapper: cannot run %s: %s\n' % (argv[0], error))
    os._exit(127)

orphans = 0
status = None
while status is None:
    try:
        pid, code = os.waitpid(-1, 0)
    except ChildProcessError:
        fail('lost the command')
    if pid == child:
        status = code
    else:
        orphans += 1

def children():
    me, found = os.getpid(), []
    for name in os.listdir('/proc'):
        if name.isdigit():
            try:
                with open('/proc/%s/stat' % name, 'rb') as handle:
                    fields = handle.read().rsplit(b')', 1)[1].split()
                if int(fields[1]) == me:
                    found.append((int(name), fields[0] != b'Z'))
            except (OSError, ValueError, IndexError):
                pass
    return found

# Whatever the command left behind dies before anything is sealed.
leftovers = sum(1 for _, alive in children() if alive)
while True:
    if os.getpid() == 1:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
    else:
        for pid, _ in children():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    try:
        os.waitpid(-1, 0)
    except ChildProcessError:
        break
    orphans += 1

files, truncated = {}, False
for folder, dirs, names in os.walk(results):
    dirs.sort()
    for name in sorted(names):
        path = os.path.join(folder, name)
        relative = os.path.relpath(path, results).replace(os.sep, '/')
        if len(files) >= MAX_FILES:
            truncated = True
            break
        try:
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):
                files[relative] = None
                continue
            digest = hashlib.sha256()
            with open(path, 'rb') as handle:
                for block in iter(lambda: handle.read(1 << 20), b''):
                    digest.update(block)
            files[relative] = digest.hexdigest()
        except OSError:
            files[relative] = None

exit_code = os.waitstatus_to_exitcode(status)
exit_code = 128 - exit_code if exit_code < 0 else exit_code
frame = {'exit': exit_code, 'orphans': orphans, 'leftovers': leftovers, 'files': files, 'truncated': truncated}
sys.stdout.buffer.write(('\n%s %s end %s\n' % (MARK, nonce, json.dumps(frame, sort_keys=True))).encode('ascii'))
sys.stdout.flush()
sys.exit(exit_code)
`;

/** The argv that runs `command` under the wrapper staged at `wrapper`. */
export function junitChannelArgv(wrapper: string, resultsDir: string, command: readonly string[]): string[] {
  // -I: isolated (no PYTHON* variables, no user site, not even the script's folder on sys.path).
  return ['python3', '-I', wrapper, resultsDir, '--', ...command];
}

/** One junit run's channel and what it is checked against. */
export interface JunitChannelInput {
  /** The run's stdout, as the host collected it. */
  output: string;
  nonce: string;
  /** The report files the host read after the run (name → text), the report glob's matches only. */
  reports: Readonly<Record<string, string>>;
  /** True for a results-folder name the report glob matches. */
  isReport(name: string): boolean;
  /** The run's exit code, as the runner saw it. */
  exitCode: number | null;
  /** The reports' digests as the run wrote them (ParseRequest.resultDigests); absent: from `reports`. */
  digests?: Readonly<Record<string, string>>;
}

/** The final frame's fields, as far as they are well formed. */
interface EndFrame {
  exit?: unknown;
  orphans?: unknown;
  leftovers?: unknown;
  files?: unknown;
  truncated?: unknown;
}

/** Cross-checks a junit run's wrapper frame against the report files the host read (pure). */
export function checkJunitChannel(input: JunitChannelInput): ChannelCheck {
  const frames = framesOf(input.output, FRAME_MARK, input.nonce);
  const disagreements: string[] = [];
  const ends = frames.filter((f) => f.kind === 'end');
  if (frames.length !== ends.length) disagreements.push(`${frames.length - ends.length} frame(s) of the results channel are not the wrapper's final frame`);
  const final = ends[0];
  if (final === undefined) {
    disagreements.push("the junit wrapper's final frame is missing from the results channel (the wrapper did not finish)");
    return { frames: frames.length, disagreements, after_end_bytes: 0 };
  }
  if (ends.length > 1) disagreements.push(`the junit wrapper's final frame appears ${ends.length} times`);
  const value = (typeof final.value === 'object' && final.value !== null ? final.value : {}) as EndFrame;
  const count = (n: unknown): number | undefined => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined);
  const orphans = count(value.orphans);
  const leftovers = count(value.leftovers);
  if (orphans === undefined || leftovers === undefined) {
    disagreements.push("the junit wrapper's final frame is malformed");
  } else if (orphans > 0) {
    disagreements.push(
      `${orphans} process(es) outlived their parent while the tests ran (${leftovers} still alive when the command ended, killed before the results were sealed): a detached process is how results get rewritten`
    );
  }
  if (value.exit !== input.exitCode) disagreements.push(`the junit wrapper saw exit code ${String(value.exit)}; the run ended with ${String(input.exitCode)}`);
  const sealed = (typeof value.files === 'object' && value.files !== null && !Array.isArray(value.files) ? value.files : {}) as Record<string, unknown>;
  for (const [name, text] of Object.entries(input.reports)) {
    if (!Object.hasOwn(sealed, name)) {
      disagreements.push(`the results file ${name} is not one the junit wrapper sealed when the command ended${value.truncated === true ? ' (too many files to seal)' : ''}`);
    } else if (sealed[name] !== (input.digests?.[name] ?? sealOf(text))) {
      disagreements.push(`the results file ${name} is not the one the junit wrapper sealed when the command ended (rewritten after the run)`);
    }
  }
  for (const name of Object.keys(sealed)) {
    if (input.isReport(name) && !Object.hasOwn(input.reports, name)) {
      disagreements.push(`the results file ${name}, sealed by the junit wrapper, was not read after the run`);
    }
  }
  return { frames: frames.length, disagreements, after_end_bytes: Math.max(0, Buffer.byteLength(input.output.slice(final.end), 'utf8')) };
}
