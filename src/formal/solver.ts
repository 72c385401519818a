import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InfrastructureError } from '../errors.js';

/**
 * Z3 for the formal gate, in a child process of its own: a hard wall-clock limit (SIGKILL), Z3's
 * own memory bound (`memory_max_size`) and a watchdog on the child's resident size (an
 * address-space rlimit would break the WASM heap). The child reads one job (SMT-LIB text) on stdin
 * and writes one JSON answer on stdout; it never sees candidate code, only the formula.
 */

/** One satisfiability question: assert these (inside push/pop), check, and read these values when sat. */
export interface SolverQuery {
  id: string;
  asserts: string[];
  values: string[];
}

export interface SolverJob {
  prelude: string;
  queries: SolverQuery[];
}

export interface SolverAnswer {
  id: string;
  status: 'sat' | 'unsat' | 'unknown';
  /** Raw get-value text when sat; the reason Z3 gives when unknown. */
  values?: string;
  reason?: string;
}

export interface SolverResult {
  /** Z3's full version string, as the solver reported it. */
  version: string;
  answers: SolverAnswer[];
  /** Why the run stopped without answering every query: time, memory, a crash. */
  stopped?: string;
  duration_ms: number;
}

export interface SolverLimits {
  timeoutMs: number;
  memoryMb: number;
  /** The watchdog's resident-size bound; default rssLimitBytes(memoryMb). */
  rssLimitBytes?: number;
}

// The child: plain CommonJS, run with `node -e`, so it ships inside the bundle as text. It loads
// Z3's low-level API and Emscripten module from `z3Dir` (node_modules/z3-solver/build, or the
// copy in dist/z3 whose wasm is brotli-compressed) and answers each query in turn.
const CHILD = String.raw`
const fs = require('fs'), path = require('path'), zlib = require('zlib');
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => main().catch((error) => {
  process.stderr.write('\n@@z3-error ' + String(error && error.message || error).split('\n')[0].slice(0, 500) + '\n', () => process.exit(1));
}));
async function main() {
  const { z3Dir, jobs, timeoutMs, memoryMb } = JSON.parse(input);
  const overrides = {};
  const br = path.join(z3Dir, 'z3-built.wasm.br');
  if (fs.existsSync(br)) overrides.wasmBinary = zlib.brotliDecompressSync(fs.readFileSync(br));
  const { init } = require(path.join(z3Dir, 'low-level'));
  const { Z3, em } = await init(require(path.join(z3Dir, 'z3-built')), overrides);
  Z3.global_param_set('memory_max_size', String(memoryMb));
  Z3.global_param_set('timeout', String(timeoutMs));
  const ctx = Z3.mk_context(Z3.mk_config());
  // The synchronous entry point: the async one hands a stack-allocated copy of the text to a worker
  // thread after the stack is reused (truncated commands, measured). Blocking is fine in this child.
  const run = async (text) => String(em.ccall('Z3_eval_smtlib2_string', 'string', ['number', 'string'], [ctx, text]));
  const batches = [];
  await run('(set-option :produce-models true)');
  // Each job in a scope of its own: its declarations are gone at its pop, so the jobs' names never meet.
  for (const job of jobs) {
  const answers = [];
  await run('(push)');
  const prelude = await run(job.prelude);
  if (prelude.includes('(error')) throw new Error('the formula is malformed: ' + prelude.slice(0, 400));
  for (const q of job.queries) {
    const out = await run('(push)\n' + q.asserts.map((a) => '(assert ' + a + ')').join('\n') + '\n(check-sat)');
    const status = out.trim().split('\n').pop();
    if (out.includes('(error')) throw new Error('query ' + q.id + ' is malformed: ' + out.slice(0, 400));
    const answer = { id: q.id, status: status === 'sat' || status === 'unsat' ? status : 'unknown' };
    if (answer.status === 'sat' && q.values.length > 0) answer.values = await run('(get-value (' + q.values.join(' ') + '))');
    if (answer.status === 'unknown') answer.reason = (await run('(get-info :reason-unknown)')).trim();
    await run('(pop)');
    answers.push(answer);
  }
  await run('(pop)');
  batches.push(answers);
  }
  process.stdout.write('\n@@z3-answer ' + JSON.stringify({ version: Z3.get_full_version(), batches }) + '\n', () => {
    try { em.PThread.terminateAllThreads(); } catch {}
    process.exit(0);
  });
}
`;

/** Where Z3's build lives: dist/z3 beside the bundle, else the z3-solver package. */
export function locateZ3(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, 'z3'), join(here, '..', 'z3')]) {
    if (existsSync(join(dir, 'z3-built.js'))) return dir;
  }
  // A computed name, so the bundler leaves the package out of the bundle.
  const name = ['z3', 'solver'].join('-');
  try {
    return dirname(createRequire(import.meta.url).resolve(name));
  } catch {
    throw new InfrastructureError(`the formal gate needs Z3 (the ${name} package, or dist/z3 beside the bundle), and neither was found`);
  }
}

/** The child's resident set size in bytes (Linux), or undefined where /proc is not there. */
function residentBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The resident size the watchdog allows: Z3's bound plus the WASM runtime's own (measured ~120 MB). */
export function rssLimitBytes(memoryMb: number): number {
  return (memoryMb + 384) * 1024 * 1024;
}

/** The answers to several jobs solved in one child, in the jobs' order. */
export interface BatchResult {
  version: string;
  /** One list per job; shorter than the jobs when the child stopped. */
  batches: SolverAnswer[][];
  stopped?: string;
  duration_ms: number;
}

/**
 * Run one job in a fresh child. Never throws for what the solver does: a timeout, the memory
 * watchdog or a crash comes back as `stopped` (the gate then says unknown, never proved).
 */
export async function solve(job: SolverJob, limits: SolverLimits, z3Dir: string = locateZ3()): Promise<SolverResult> {
  const result = await solveBatch([job], limits, z3Dir);
  return { version: result.version, answers: result.batches[0] ?? [], ...(result.stopped !== undefined ? { stopped: result.stopped } : {}), duration_ms: result.duration_ms };
}

/**
 * Run several jobs in one fresh child (one WASM start instead of one per job: the calibration of a
 * target). The wall clock is the limit times the number of jobs, the budget the jobs had one child
 * each; Z3's own timeout per check stays the limit. A stop answers none of the jobs.
 */
export async function solveBatch(jobs: readonly SolverJob[], limits: SolverLimits, z3Dir: string = locateZ3()): Promise<BatchResult> {
  const started = Date.now();
  const wallMs = limits.timeoutMs * Math.max(1, jobs.length);
  // Z3's own timeout per check is the limit; the wall clock covers start-up and every check.
  const child = spawn(process.execPath, ['--max-old-space-size=512', '-e', CHILD], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
  let stdout = '';
  let stderr = '';
  let stopped: string | undefined;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    if (stdout.length < 8 * 1024 * 1024) stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < 64 * 1024) stderr += d;
  });
  const kill = (why: string): void => {
    if (stopped === undefined) stopped = why;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(() => kill(`the solver ran out of time (${wallMs} ms)`), wallMs);
  const rssLimit = limits.rssLimitBytes ?? rssLimitBytes(limits.memoryMb);
  const watchdog = setInterval(() => {
    const rss = child.pid === undefined ? undefined : residentBytes(child.pid);
    if (rss !== undefined && rss > rssLimit) kill(`the solver's resident size ${Math.round(rss / 1048576)} MB passed ${Math.round(rssLimit / 1048576)} MB`);
  }, 100);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  child.on('error', (error) => kill(`the solver could not start: ${error.message}`));
  child.stdin.on('error', () => undefined);
  child.stdin.end(JSON.stringify({ z3Dir, jobs, timeoutMs: limits.timeoutMs, memoryMb: limits.memoryMb }));
  const { code, signal } = await exit;
  clearTimeout(timer);
  clearInterval(watchdog);
  const duration_ms = Date.now() - started;
  const line = stdout.split('\n').find((l) => l.startsWith('@@z3-answer '));
  if (stopped === undefined && (code !== 0 || line === undefined)) {
    const said =
      stderr
        .split('\n')
        .find((l) => l.startsWith('@@z3-error '))
        ?.slice('@@z3-error '.length) ?? stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 300);
    stopped = `the solver exited with ${signal ?? code} without an answer${said === '' ? '' : `: ${said}`}`;
  }
  if (stopped !== undefined || line === undefined) return { version: 'unknown', batches: [], stopped: stopped ?? 'no answer', duration_ms };
  const parsed = JSON.parse(line.slice('@@z3-answer '.length)) as { version: string; batches: SolverAnswer[][] };
  if (!Array.isArray(parsed.batches) || parsed.batches.length !== jobs.length)
    return { version: 'unknown', batches: [], stopped: 'the solver answered another number of jobs', duration_ms };
  return { version: parsed.version, batches: parsed.batches, duration_ms };
}
