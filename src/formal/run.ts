import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { FormalRecord } from '../core/formal.js';
import { ConfigurationError } from '../errors.js';
import { blockLimits, checkSpec, overallStatus, resolveReturns, runFormalGate, SpecRefusal, type SolverOptions, type TargetOutcome } from './gate.js';
import type { FormalBlock } from './spec.js';
import { isPythonFile } from './front-end.js';
import { loadPythonParser } from './python-parser.js';
import { globalProblems, parseSource, Unsupported } from './translate.js';
import { targetWriteProblems } from './js-integrity.js';
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

/**
 * Refuse the pack (ConfigurationError, one line) if any target's spec does not calibrate on the
 * base. Returns the block with every target's `returns` resolved (inferred where the pack leaves it
 * out): the block the candidate is checked against.
 */
export async function checkFormalSpecs(block: FormalBlock, baseDir: string, options: Partial<SolverOptions> = {}): Promise<FormalBlock> {
  const read = reader(baseDir);
  const solver: SolverOptions = { limits: blockLimits(block), ...options };
  const targets: FormalBlock['targets'] = [];
  for (const target of block.targets) {
    try {
      const resolved = await resolveReturns(target, read(target.file));
      await checkSpec(resolved, read(target.file), solver);
      targets.push(resolved);
    } catch (error) {
      if (error instanceof SpecRefusal) throw new ConfigurationError(`the witness pack's formal block is refused: ${error.message}`);
      throw error;
    }
  }
  return { ...block, targets };
}

/** Compiled code the import system may load in place of a source file the gate read. */
const COMPILED = /\.(pyc|pyo|so|pyd)$/;

/**
 * Why a changed file other than a target's would change what the target computes (it rebinds a
 * builtin the subset calls, replaces a target's export from outside, or ships compiled code the
 * import system may prefer to a source): each such problem makes every target unknown.
 */
export function changedFileProblems(
  changed: ReadonlyMap<string, Buffer | null>,
  targets: readonly string[],
  pythonFunctions?: readonly string[],
  jsFunctions: readonly string[] = []
): string[] {
  const problems: string[] = [];
  for (const [path, content] of changed) {
    if (content === null || targets.includes(path)) continue;
    if (COMPILED.test(path)) {
      problems.push(`${path}: compiled code, which the import system may load in place of a source the gate read`);
      continue;
    }
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
    for (const problem of [...globalProblems(program), ...targetWriteProblems(program, jsFunctions)]) problems.push(`${path}: ${problem}`);
  }
  return problems;
}

/**
 * Why the import system would not load a Python target's file for its module name: a package folder
 * of the same name beside it (`shop/pricing/__init__.py` wins over `shop/pricing.py`), or an
 * extension module (`pricing.cpython-313-x86_64-linux-gnu.so`, `pricing.abi3.so`, `.pyd`), which the
 * finders try before the source. Read from the candidate's tree on the host.
 */
export function pythonShadowProblems(dir: string, file: string): string[] {
  const folder = posix.dirname(file);
  const stem = posix.basename(file).replace(/\.py$/, '');
  const problems: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(join(dir, ...folder.split('/').filter((p) => p !== '.')));
  } catch {
    return [];
  }
  for (const entry of entries) {
    const path = folder === '.' ? entry : `${folder}/${entry}`;
    if (entry === stem) {
      const inner = (() => {
        try {
          return statSync(join(dir, ...path.split('/'))).isDirectory() ? readdirSync(join(dir, ...path.split('/'))) : [];
        } catch {
          return [];
        }
      })();
      if (inner.some((name) => /^__init__\./.test(name))) problems.push(`the package folder ${path}/ is imported in place of ${file}`);
    }
    if (entry.startsWith(`${stem}.`) && /\.(so|pyd)$/.test(entry)) problems.push(`the extension module ${path} is imported in place of ${file}`);
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
  return (await formalRecordAndSources(block, patchedDir, changed, options)).record;
}

/** The record, and the text the gate analysed for each target (by name): what the binding check compares the running code with. */
export async function formalRecordAndSources(
  block: FormalBlock,
  patchedDir: string,
  changed: ReadonlyMap<string, Buffer | null>,
  options: Partial<SolverOptions> = {}
): Promise<{ record: FormalRecord; sources: Map<string, string> }> {
  const read = reader(patchedDir);
  const texts = new Map<string, string>();
  const recording = (file: string): string | undefined => {
    const text = read(file);
    if (text !== undefined) texts.set(file, text);
    return text;
  };
  const solver: SolverOptions = { limits: blockLimits(block), ...options };
  const python = block.targets.filter((t) => isPythonFile(t.file));
  if (python.length > 0) await loadPythonParser();
  const problems = changedFileProblems(
    changed,
    block.targets.map((t) => t.file),
    python.length > 0 ? python.map((t) => t.function) : undefined,
    block.targets.filter((t) => !isPythonFile(t.file)).map((t) => t.function)
  );
  let outcome = await runFormalGate(block, recording, solver);
  const shadowed = new Map(python.map((t) => [t.file, pythonShadowProblems(patchedDir, t.file)]));
  if (problems.length > 0 || [...shadowed.values()].some((p) => p.length > 0)) {
    const targets = outcome.targets.map((t): TargetOutcome => {
      if (t.status === 'counterexample') return t;
      const shadow = shadowed.get(t.file)?.[0];
      if (problems.length === 0 && shadow === undefined) return t;
      const { counterexample: _unused, ...rest } = t;
      return {
        ...rest,
        status: 'unknown',
        reason: problems.length > 0 ? `a changed file rebinds what the subset calls: ${problems[0]}` : `the code that runs is not the file the gate read: ${shadow ?? ''}`
      };
    });
    outcome = { status: overallStatus(targets), targets };
  }
  if (outcome.status === 'not_applicable') throw new Error('a formal block without targets');
  const sources = new Map<string, string>();
  for (const t of outcome.targets) {
    const text = texts.get(t.file);
    if (text !== undefined) sources.set(t.name, text);
  }
  const record: FormalRecord = {
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
  return { record, sources };
}
