import { parse } from '@babel/parser';
import { transformSync } from 'amaro';

/**
 * TypeScript targets' replay on Node 20, which cannot import `.ts`: the candidate's target file has
 * its types stripped on the host by amaro (the type stripper Node 22+ itself uses: swc in WASM, MIT;
 * chosen because its `strip-only` mode only erases types, replacing them with blanks, and refuses
 * everything that would need a transform, so the stripped file is the same program). It parses and
 * rewrites text and executes nothing. Pure apart from the WASM it runs.
 *
 * Fails closed: what the stripper refuses (enums, namespaces, parameter properties, `<T>x`, JSX),
 * and a file with a relative or computed import (the stripped copy would load the candidate's other
 * `.ts` files, which Node 20 cannot, or a module the gate did not read), is not stripped: its
 * counterexample cannot replay, so the target is `unknown`.
 */

const STRIPPABLE = /\.(c|m)?ts$/;

/** Whether a target file is TypeScript that the replay strips first (`.ts`, `.mts`, `.cts`; `.tsx` is not). */
export function needsStripping(file: string): boolean {
  return STRIPPABLE.test(file);
}

export type Stripped = { text: string; extension: '.mjs' | '.cjs' } | { refused: string };

// Babel's AST, loosely: each node's `type` is checked before a field is read.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = { type: string; [key: string]: any };

function visit(node: unknown, see: (node: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) visit(child, see);
    return;
  }
  if (typeof node !== 'object' || node === null || typeof (node as Node).type !== 'string') return;
  see(node as Node);
  for (const [key, child] of Object.entries(node)) if (key !== 'loc' && key !== 'extra') visit(child, see);
}

/** A call's callee that loads a module: `import(…)` as Babel sometimes writes it, or `require`. */
function isImportCallee(callee: Node): boolean {
  return callee.type === 'Import' || (callee.type === 'Identifier' && callee.name === 'require');
}

/** Why the stripped program's imports cannot replay soundly: relative or computed ones. */
function importProblems(program: Node): string[] {
  const problems: string[] = [];
  const relative = (specifier: string): boolean => specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:');
  visit(program, (node) => {
    const source = node.source as Node | undefined | null;
    if ((node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && source) {
      if (relative(String(source.value))) problems.push(`a relative import of ${String(source.value)}`);
    }
    if (node.type === 'ImportExpression' || (node.type === 'CallExpression' && isImportCallee(node.callee as Node))) {
      const first = (node.type === 'ImportExpression' ? node.source : (node.arguments as (Node | undefined)[])[0]) as Node | undefined;
      if (first?.type !== 'StringLiteral') problems.push('a computed import');
      else {
        // Babel's StringLiteral holds its value as a string.
        const specifier = first.value as string;
        if (relative(specifier)) problems.push(`a relative import of ${specifier}`);
      }
    }
  });
  return problems;
}

/** The target file with its types stripped, and the extension Node runs it under; or why not. */
export function stripTypes(text: string, file: string): Stripped {
  if (!needsStripping(file)) return { refused: `${file} is not a .ts, .mts or .cts file` };
  let code: string;
  try {
    code = transformSync(text, { mode: 'strip-only', sourceMap: false, filename: file }).code;
  } catch (error) {
    return { refused: `the type stripper refuses ${file}: ${(error as Error).message.split('\n')[0] ?? ''}` };
  }
  let program: Node;
  try {
    program = parse(code, { sourceType: file.endsWith('.cts') ? 'script' : 'unambiguous', errorRecovery: false }).program;
  } catch (error) {
    return { refused: `${file} stripped of its types is not JavaScript: ${(error as Error).message}` };
  }
  const problems = importProblems(program);
  if (problems.length > 0) return { refused: `${file} has ${problems[0]}: the stripped copy cannot load the candidate's other TypeScript files` };
  const extension = file.endsWith('.cts') || (!file.endsWith('.mts') && program.sourceType !== 'module') ? '.cjs' : '.mjs';
  return { text: code, extension };
}
