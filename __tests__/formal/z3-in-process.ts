import { createRequire } from 'node:module';
import type { Z3Core } from 'z3-solver';
import type { SolverJob, SolverLimits, SolverResult } from '../../src/formal/solver.js';

/**
 * Z3 in the test process, for the many small formulas of the translator's tests: the same protocol
 * as the product's child (src/formal/solver.ts), without a process start per check. The child
 * itself (time limit, memory watchdog, answers) is tested in solver.test.ts.
 */

/** The Emscripten module's calls used here (z3-solver types it as `any`). */
interface Emscripten {
  ccall(name: string, returnType: 'string', argTypes: string[], args: unknown[]): string;
  PThread: { terminateAllThreads(): void };
}
type Api = { Z3: Z3Core; em: Emscripten };
let api: Promise<Api> | undefined;

function load(): Promise<Api> {
  const require = createRequire(import.meta.url);
  api ??= (require('z3-solver') as { init(): Promise<Api> }).init();
  return api;
}

export async function solveInProcess(job: SolverJob, limits: SolverLimits): Promise<SolverResult> {
  const started = Date.now();
  const { Z3, em } = await load();
  Z3.global_param_set('timeout', String(limits.timeoutMs));
  const ctx = Z3.mk_context(Z3.mk_config());
  // Synchronous, as in the product's child: the async entry point loses its text (see solver.ts).
  const run = (text: string): Promise<string> => Promise.resolve(em.ccall('Z3_eval_smtlib2_string', 'string', ['number', 'string'], [ctx, text]));
  const prelude = await run(`(set-option :produce-models true)\n${job.prelude}`);
  if (prelude.includes('(error')) throw new Error(`malformed formula: ${prelude.slice(0, 500)}`);
  const answers: SolverResult['answers'] = [];
  for (const q of job.queries) {
    const out = await run(`(push)\n${q.asserts.map((a) => `(assert ${a})`).join('\n')}\n(check-sat)`);
    if (out.includes('(error')) throw new Error(`malformed query ${q.id}: ${out.slice(0, 500)}`);
    const last = out.trim().split('\n').pop();
    const status = last === 'sat' || last === 'unsat' ? last : 'unknown';
    const answer: SolverResult['answers'][number] = { id: q.id, status };
    if (status === 'sat' && q.values.length > 0) answer.values = await run(`(get-value (${q.values.join(' ')}))`);
    if (status === 'unknown') answer.reason = (await run('(get-info :reason-unknown)')).trim();
    await run('(pop)');
    answers.push(answer);
  }
  Z3.del_context(ctx);
  return { version: Z3.get_full_version(), answers, duration_ms: Date.now() - started };
}

/** Stop Z3's worker threads so the test process can exit. */
export async function stopZ3(): Promise<void> {
  if (api === undefined) return;
  const { em } = await api;
  em.PThread.terminateAllThreads();
}
