import type { IntegerModel } from '../core/formal.js';
import { loadPythonParser } from './python-parser.js';
import type { FormalTarget } from './spec.js';
import { pythonLengthBound, translatePython } from './translate-python.js';
import { jsLengthBound, translate, type Formula } from './translate.js';

/**
 * The formal gate's front ends, chosen by the target file's extension: Python (`.py`, tree-sitter's
 * grammar, src/formal/translate-python.ts) or JavaScript/TypeScript (Babel, src/formal/translate.ts).
 * Both make the same `Formula`.
 */

/** Whether a target (or a changed file) is Python. */
export function isPythonFile(file: string): boolean {
  return /\.py$/.test(file);
}

/** The integer model of a target's proofs: Python's unbounded `int`, or JS safe integers. */
export function integerModel(target: Pick<FormalTarget, 'file'>): IntegerModel {
  return isPythonFile(target.file) ? 'python-int' : 'safe';
}

/** Load what the target's front end needs before translating (Python: the grammar's wasm, once). */
export async function prepareFrontEnd(target: Pick<FormalTarget, 'file'>): Promise<void> {
  if (isPythonFile(target.file)) await loadPythonParser();
}

/** The formula of a target: its candidate source, or a spec-only formula when `source` is undefined. */
export function translateTarget(target: FormalTarget, source: { text: string; file: string } | undefined): Formula {
  return isPythonFile(target.file) ? translatePython(target, source) : translate(target, source);
}

/**
 * The int[] parameters whose inputs may be longer than the model's bound: their length is not
 * bounded by a `requires` at or below `bounds.array_length`. A proof covers arrays up to the bound
 * only, so with any of these the best status is `checked` (src/formal/gate.ts).
 */
export function unboundedArrays(target: FormalTarget): string[] {
  const bound = isPythonFile(target.file) ? pythonLengthBound : jsLengthBound;
  return target.params
    .filter((p) => p.type === 'int[]')
    .filter((p) => {
      const bounds = target.requires.map((text) => bound(text, p.name)).filter((b): b is number => b !== undefined);
      return bounds.length === 0 || Math.min(...bounds) > target.bounds.array_length;
    })
    .map((p) => p.name);
}
