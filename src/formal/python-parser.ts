import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Language, Parser, type Node as SyntaxNode } from 'web-tree-sitter';
import { InfrastructureError } from '../errors.js';

/**
 * tree-sitter's Python grammar, in WASM (web-tree-sitter + the tree-sitter-python package's
 * `tree-sitter-python.wasm`), for the formal gate's Python front end (src/formal/translate-python.ts).
 * Loaded once, on first use: both wasm files come from dist/tree-sitter beside the bundle
 * (scripts/bundle-z3.mjs copies them there), else from the packages themselves.
 */

export type { SyntaxNode };

let parser: Parser | undefined;
let loading: Promise<Parser> | undefined;

/** The two wasm files: dist/tree-sitter beside the bundle, else the packages. */
export function locatePythonGrammar(): { runtime: string; grammar: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, 'tree-sitter'), join(here, '..', 'tree-sitter')]) {
    const files = { runtime: join(dir, 'tree-sitter.wasm'), grammar: join(dir, 'tree-sitter-python.wasm') };
    if (existsSync(files.runtime) && existsSync(files.grammar)) return files;
  }
  const require = createRequire(import.meta.url);
  try {
    // Computed names, so the bundler does not try to inline the wasm.
    return {
      runtime: require.resolve(['web-tree-sitter', 'tree-sitter.wasm'].join('/')),
      grammar: require.resolve(['tree-sitter-python', 'tree-sitter-python.wasm'].join('/'))
    };
  } catch {
    throw new InfrastructureError('the formal gate needs the Python grammar (dist/tree-sitter beside the bundle, or the web-tree-sitter and tree-sitter-python packages), and neither was found');
  }
}

/** Load the parser (once); afterwards parsePython is synchronous. */
export async function loadPythonParser(): Promise<void> {
  if (parser !== undefined) return;
  loading ??= (async () => {
    const { runtime, grammar } = locatePythonGrammar();
    await Parser.init({ wasmBinary: readFileSync(runtime) });
    const language = await Language.load(readFileSync(grammar));
    const p = new Parser();
    p.setLanguage(language);
    return p;
  })();
  parser = await loading;
}

/** Whether loadPythonParser has finished. */
export function pythonParserLoaded(): boolean {
  return parser !== undefined;
}

/** The syntax tree's root of a Python text (loadPythonParser first). */
export function parsePython(text: string): SyntaxNode {
  if (parser === undefined) throw new Error('the Python parser is not loaded (call loadPythonParser first)');
  const tree = parser.parse(text);
  if (tree === null) throw new Error('tree-sitter returned no tree');
  return tree.rootNode;
}
