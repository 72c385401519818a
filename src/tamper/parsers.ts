import { parse, type ParserPlugin } from '@babel/parser';
import { loadPythonParser, parsePython, type SyntaxNode } from '../formal/python-parser.js';
import type { JsNode } from './js-ast.js';

/**
 * Parser loading, kept apart from the rules: @babel/parser for JS/TS (synchronous), tree-sitter's
 * Python grammar (WebAssembly, loaded once; src/formal/python-parser.ts finds it beside the bundle
 * or in the packages). Candidate code is only ever read, never run.
 */

export type Parsed<T> = { ok: true; tree: T } | { ok: false; line: number; message: string };

export async function loadPython(): Promise<void> {
  await loadPythonParser();
}

/** A Python module's tree; a tree with an error node is refused (the caller reports the file as unparsed). */
export function parsePythonModule(text: string): SyntaxNode {
  return parsePython(text);
}

/**
 * A JS/TS file's AST. TypeScript files by their extension (`.tsx` with JSX, `.d.ts` as declarations);
 * JavaScript with JSX, then, if that fails, with Flow's syntax (Flow and TypeScript exclude each
 * other). Module or script is decided by the file (`unambiguous`), and what CommonJS allows at the
 * top level (`return`) is accepted.
 */
export function parseJs(path: string, text: string): Parsed<JsNode> {
  const ts = /\.(?:ts|mts|cts|tsx)$/.test(path);
  const attempts: ParserPlugin[][] = ts
    ? [[['typescript', { dts: /\.d\.[mc]?ts$/.test(path) }], ...(path.endsWith('.tsx') ? (['jsx'] as ParserPlugin[]) : []), 'decorators-legacy']]
    : [['jsx'], ['jsx', 'flow'], ['decorators-legacy']];
  let first: { line: number; message: string } | undefined;
  for (const plugins of attempts) {
    try {
      const file = parse(text, {
        sourceType: 'unambiguous',
        plugins,
        errorRecovery: false,
        allowReturnOutsideFunction: true,
        allowAwaitOutsideFunction: true,
        allowUndeclaredExports: true
      });
      return { ok: true, tree: file.program as unknown as JsNode };
    } catch (error) {
      const loc = (error as { loc?: { line?: number } }).loc;
      first ??= { line: loc?.line ?? 1, message: error instanceof Error ? error.message : String(error) };
    }
  }
  return { ok: false, ...first! };
}
