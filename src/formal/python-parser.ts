import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language as LanguageClass, Node as SyntaxNode, Parser as ParserClass } from 'web-tree-sitter';
import { InfrastructureError } from '../errors.js';

/**
 * tree-sitter's Python grammar, in WASM (web-tree-sitter + the tree-sitter-python package's
 * `tree-sitter-python.wasm`), for the formal gate's Python front end (src/formal/translate-python.ts).
 * Loaded once, on first use: both wasm files come from dist/tree-sitter beside the bundle
 * (scripts/bundle-z3.mjs copies them there), else from the packages themselves.
 */

export type { SyntaxNode };

let parser: ParserClass | undefined;
let loading: Promise<ParserClass> | undefined;

/** web-tree-sitter's CommonJS build and the two wasm files: dist/tree-sitter beside the bundle, else the packages. */
export function locatePythonGrammar(): { module: string; runtime: string; grammar: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, 'tree-sitter'), join(here, '..', 'tree-sitter')]) {
    const files = { module: join(dir, 'tree-sitter.cjs'), runtime: join(dir, 'tree-sitter.wasm'), grammar: join(dir, 'tree-sitter-python.wasm') };
    if (existsSync(files.module) && existsSync(files.runtime) && existsSync(files.grammar)) return files;
  }
  const require = createRequire(import.meta.url);
  try {
    // Computed names, so the bundler leaves the packages out of the bundle.
    const runtimePackage = ['web', 'tree', 'sitter'].join('-');
    return {
      module: require.resolve(runtimePackage),
      runtime: require.resolve(`${runtimePackage}/tree-sitter.wasm`),
      grammar: require.resolve(['tree-sitter-python', 'tree-sitter-python.wasm'].join('/'))
    };
  } catch {
    throw new InfrastructureError(
      'the formal gate needs the Python grammar (dist/tree-sitter beside the bundle, or the web-tree-sitter and tree-sitter-python packages), and neither was found'
    );
  }
}

/** Load the parser (once); afterwards parsePython is synchronous. */
export async function loadPythonParser(): Promise<void> {
  if (parser !== undefined) return;
  loading ??= (async () => {
    const { module, runtime, grammar } = locatePythonGrammar();
    const { Parser, Language } = createRequire(import.meta.url)(module) as { Parser: typeof ParserClass; Language: typeof LanguageClass };
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
