import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FormalRecord } from '../core/formal.js';
import { ConfigurationError } from '../errors.js';
import { blockLimits, checkSpec, overallStatus, runFormalGate, SpecRefusal, type SolverOptions, type TargetOutcome } from './gate.js';
import type { FormalBlock } from './spec.js';
import { isPythonFile } from './front-end.js';
import { loadPythonParser } from './python-parser.js';
import { integrityProblems, parseSource, Unsupported } from './translate.js';
import { pythonChangedFileProblems } from './translate-python.js';

/**
 * The formal gate as validate() runs it: the spec checks against the base tree (a bad spec refuses
 * the pack before any test runs), then the candidate's tree. Files are read on the host and never
 * executed.
 */

function reader(dir: string): (file: string) => string | undefined {
  return (file) => {
    try {
      return readFileSync(join(dir, ...file.split('/')), 'utf8');
    } catch {
      return undefined;
    }
  };
}

/** Refuse the pack (ConfigurationError, one line) if any target's spec does not calibrate on the base. */
export async function checkFormalSpecs(block: FormalBlock, baseDir: string, options: Partial<SolverOptions> = {}): Promise<void> {
  const read = reader(baseDir);
  const solver: SolverOptions = { limits: blockLimits(block), ...options };
  for (const target of block.targets) {
    try {
      await checkSpec(target, read(target.file), solver);
    } catch (error) {
      if (error instanceof SpecRefusal) throw new ConfigurationError(`the witness pack's formal block is refused: ${error.message}`);
      throw error;
    }
  }
}

/**
 * Why a changed JS/TS file other than a target's would change what the target computes (it rebinds
 * a builtin the subset calls): each such problem makes every target unknown.
 */
export function changedFileProblems(changed: ReadonlyMap<string, Buffer | null>, targets: readonly string[], pythonFunctions?: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [path, content] of changed) {
    if (content === null || targets.includes(path)) continue;
    // A Python file that reaches builtins or another module's globals (the parser is loaded when a target is Python).
    if (isPythonFile(path) && pythonFunctions !== undefined) {
      for (const problem of pythonChangedFileProblems(content.toString('utf8'), pythonFunctions)) problems.push(`${path}: ${problem}`);
      continue;
    }
    if (!/\.(c|m)?[jt]sx?$/.test(path)) continue;
    let program;
    try {
      program = parseSource(content.toString('utf8'), path);
    } catch (error) {
      if (error instanceof Unsupported) continue;
      throw error;
    }
    for (const problem of integrityProblems(program)) if (/Math|eval|globalThis|global|window|self/.test(problem)) problems.push(`${path}: ${problem}`);
  }
  return problems;
}

/** The candidate's formal record: every target's status, never throwing for what the candidate did. */
export async function formalRecordFor(
  block: FormalBlock,
  patchedDir: string,
  changed: ReadonlyMap<string, Buffer | null>,
  options: Partial<SolverOptions> = {}
): Promise<FormalRecord> {
  const solver: SolverOptions = { limits: blockLimits(block), ...options };
  const python = block.targets.filter((t) => isPythonFile(t.file));
  if (python.length > 0) await loadPythonParser();
  const problems = changedFileProblems(
    changed,
    block.targets.map((t) => t.file),
    python.length > 0 ? python.map((t) => t.function) : undefined
  );
  let outcome = await runFormalGate(block, reader(patchedDir), solver);
  if (problems.length > 0) {
    const targets = outcome.targets.map((t): TargetOutcome => {
      if (t.status === 'counterexample') return t;
      const { counterexample: _unused, ...rest } = t;
      return { ...rest, status: 'unknown', reason: `a changed file rebinds what the subset calls: ${problems[0]}` };
    });
    outcome = { status: overallStatus(targets), targets };
  }
  if (outcome.status === 'not_applicable') throw new Error('a formal block without targets');
  return {
    status: outcome.status,
    targets: outcome.targets.map((t) => ({
      name: t.name,
      file: t.file,
      function: t.function,
      required: t.required,
      status: t.status,
      ...(t.reason !== undefined ? { reason: t.reason } : {}),
      ...(t.counterexample !== undefined ? { counterexample: t.counterexample } : {}),
      scope: t.scope,
      duration_ms: t.duration_ms
    }))
  };
}
