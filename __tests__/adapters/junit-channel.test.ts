import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkJunitChannel, JUNIT_CHANNEL_SOURCE, junitChannelArgv } from '../../src/adapters/junit/channel.js';
import { CHANNEL_ENV, FRAME_MARK } from '../../src/adapters/shared/results-channel.js';

/**
 * The junit results channel's wrapper (src/adapters/junit/channel.ts), run for real (python3, sh)
 * outside a container, where it kills its own descendants only: what it seals, what it kills, what
 * it hides, and the host's cross-check. Each hostile command here gets through without the wrapper:
 * the file the host reads is the rewritten one, and nothing else says so.
 */

const NONCE = 'a'.repeat(64);
const XML = '<testsuites><testsuite name="s"><testcase name="t" classname="c"><failure message="x"/></testcase></testsuite></testsuites>\n';
const FORGED = '<testsuites><testsuite name="s"><testcase name="t" classname="c"/></testsuite></testsuites>\n';

let root: string;
let wrapper: string;
let results: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'pp-junit-channel-')));
  wrapper = path.join(root, 'junit-channel.py');
  results = path.join(root, 'results');
  await writeFile(wrapper, JUNIT_CHANNEL_SOURCE);
  await mkdir(results);
  // Writable for the unprivileged user the commands run as (see `wrapped`).
  await chmod(root, 0o777);
  await chmod(results, 0o777);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Runs `script` (a sh script, `$1` the results folder) under the wrapper; stdout alone, as the host reads the channel. */
async function wrapped(script: string, env: Record<string, string> = { [CHANNEL_ENV]: NONCE }): Promise<{ exitCode: number | null; stdout: string }> {
  const file = path.join(root, 'command.sh');
  await writeFile(file, `XML='${XML.trim()}'\nFORGED='${FORGED.trim()}'\n${script}\n`);
  const [program, ...args] = junitChannelArgv(wrapper, results, ['sh', file, results]);
  return new Promise((resolve, reject) => {
    // As the container's test user does: without privileges (root may read any process's /proc).
    const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const child = spawn(program!, args, { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'ignore'], ...user });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout: Buffer.concat(chunks).toString('utf8') }));
  });
}

/** True while a process of that pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function check(run: { exitCode: number | null; stdout: string }) {
  const text = await readFile(path.join(results, 'junit.xml'), 'utf8');
  return checkJunitChannel({ output: run.stdout, nonce: NONCE, reports: { 'junit.xml': text }, isReport: (name) => name === 'junit.xml', exitCode: run.exitCode });
}

describe('the junit wrapper', () => {
  it('passes the exit code through and seals the XML as the command left it: an honest run agrees', async () => {
    const run = await wrapped('echo "$XML" > "$1/junit.xml"; echo out; exit 3');
    expect(run.exitCode).toBe(3);
    expect(run.stdout).toContain('out\n');
    expect(await check(run)).toEqual({ frames: 1, disagreements: [], after_end_bytes: 0 });
  }, 60_000);

  it('kills a process the command left behind before it seals anything, and reports it', async () => {
    // A detached rewriter waiting for its moment (here: for ever). Without the wrapper it would
    // outlive the run and write whenever it liked.
    const run = await wrapped(
      'echo "$XML" > "$1/junit.xml"; ( trap "" HUP; while [ ! -e "$1/never" ]; do sleep 1; done; echo "$FORGED" > "$1/junit.xml" ) </dev/null >/dev/null 2>&1 & echo $! > "$1/rewriter.pid"; exit 1'
    );
    expect(run.exitCode).toBe(1);
    const pid = Number(await readFile(path.join(results, 'rewriter.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
    const found = await check(run);
    // The rewriter, and its `sleep` (orphaned when the rewriter was killed).
    expect(found.disagreements).toEqual([expect.stringMatching(/^[1-9]\d* process\(es\) outlived their parent .*\(1 still alive when the command ended/)]);
  }, 60_000);

  it('reports a rewriter that finished before the command ended: it outlived its parent', async () => {
    // A child's child, orphaned at once, rewrites the XML and exits; the command (a runner that
    // ends later) waits for the rewrite, so the seal holds FORGED. Only the orphan gives it away.
    const run = await wrapped(
      'echo "$XML" > "$1/junit.xml"; sh -c \'( echo "$2" > "$1/junit.xml"; touch "$1/done" ) & exit 0\' sh "$1" "$FORGED"; while [ ! -e "$1/done" ]; do sleep 0.1; done; exit 1'
    );
    expect(await readFile(path.join(results, 'junit.xml'), 'utf8')).toBe(FORGED);
    const found = await check(run);
    // (Under load the orphan may not have finished exiting when the command saw its file: then it is killed.)
    expect(found.disagreements).toEqual([expect.stringMatching(/^1 process\(es\) outlived their parent .*\([01] still alive/)]);
  }, 60_000);

  it('hides the nonce: neither the environment nor /proc of the wrapper shows it', async () => {
    const run = await wrapped('env; cat /proc/$PPID/environ; tr "\\0" "\\n" < /proc/$PPID/cmdline; echo "$XML" > "$1/junit.xml"; exit 1');
    // The nonce appears once: in the wrapper's own frame, written after the command ended.
    expect(run.stdout.split(NONCE).length - 1).toBe(1);
    expect(run.stdout.indexOf(`${FRAME_MARK} ${NONCE} end `)).toBeGreaterThan(0);
    expect((await check(run)).disagreements).toEqual([]);
  }, 60_000);

  it('refuses to run without a nonce (fail closed: no frame)', async () => {
    const run = await wrapped('echo "$XML" > "$1/junit.xml"; exit 1', {});
    expect(run.exitCode).toBe(126);
    expect(checkJunitChannel({ output: run.stdout, nonce: NONCE, reports: {}, isReport: () => true, exitCode: run.exitCode }).disagreements).toEqual([
      expect.stringMatching(/final frame is missing/)
    ]);
  }, 60_000);
});

describe('checkJunitChannel (host side)', () => {
  const frame = (value: unknown, nonce = NONCE): string => `${FRAME_MARK} ${nonce} end ${JSON.stringify(value)}\n`;
  const sealedXml = { exit: 1, orphans: 0, leftovers: 0, truncated: false, files: { 'junit.xml': '' } };
  const base = { nonce: NONCE, isReport: (name: string) => name.endsWith('.xml'), exitCode: 1 };

  it('finds a file rewritten after the seal, a sealed report the host did not read, and a wrong exit code', async () => {
    const { createHash } = await import('node:crypto');
    const digest = createHash('sha256').update(XML).digest('hex');
    const output = frame({ ...sealedXml, files: { 'junit.xml': digest, 'other.xml': digest, 'log.txt': digest } });
    expect(checkJunitChannel({ ...base, output, reports: { 'junit.xml': XML } }).disagreements).toEqual([
      'the results file other.xml, sealed by the junit wrapper, was not read after the run'
    ]);
    expect(checkJunitChannel({ ...base, output, reports: { 'junit.xml': FORGED, 'other.xml': XML } }).disagreements).toEqual([
      'the results file junit.xml is not the one the junit wrapper sealed when the command ended (rewritten after the run)'
    ]);
    expect(checkJunitChannel({ ...base, output, exitCode: 0, reports: { 'junit.xml': XML, 'other.xml': XML } }).disagreements).toEqual([
      'the junit wrapper saw exit code 1; the run ended with 0'
    ]);
  });

  it('ignores frames with another nonce, and counts a second frame or a missing one', () => {
    const forged = frame({ ...sealedXml, files: {} }, 'b'.repeat(64));
    expect(checkJunitChannel({ ...base, output: forged, reports: {} }).disagreements).toEqual([expect.stringMatching(/final frame is missing/)]);
    const twice = frame({ ...sealedXml, files: {} }) + frame({ ...sealedXml, files: {} });
    expect(checkJunitChannel({ ...base, output: twice, reports: {} }).disagreements).toEqual(["the junit wrapper's final frame appears 2 times"]);
    expect(checkJunitChannel({ ...base, output: frame({ files: {} }), reports: {} }).disagreements).toEqual([
      "the junit wrapper's final frame is malformed",
      'the junit wrapper saw exit code undefined; the run ended with 1'
    ]);
  });
});
