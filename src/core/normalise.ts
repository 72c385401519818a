// @babel/parser 7 (already a dependency, for the JS twins and the sealer): a real tokenizer for
// JS/TS/JSX, so comments and layout are told apart from strings, templates and regexes.
import { parse } from '@babel/parser';
import { domainDigest, type Digest } from './hashing.js';

/**
 * Keys for `screen`. Two candidates share one validation only when their changed files are
 * byte-identical (`exactKey`): code can read its own comments and layout back
 * (`Function.prototype.toString`, `inspect.getsource`, stack line numbers), so two files that differ
 * only in comments are not interchangeable. The normalised key (`normalisedKey`) tells candidates
 * that are identical after a normalisation of comments and layout; they are validated on their own
 * and reported as near-duplicates.
 *
 * - JS/TS/JSX files: the token stream, without comments and without spaces and indentation.
 *   Whether a token starts a new line is kept (automatic semicolon insertion depends on it), and
 *   so are comments a tool reads (pragmas with `@`, `#`, `!`, `ts-`, `eslint`, `istanbul`, `c8`,
 *   `sourceMappingURL`): `@jest-environment` or `@ts-ignore` change what a run does. String,
 *   template, regex and JSX text tokens keep their exact source text.
 * - Every other file (Python among them: indentation is syntax) and any JS file that does not
 *   parse: its exact bytes.
 */

const JS_FILE = /\.(?:[cm]?[jt]sx?)$/;
/** Comments that tools read, which therefore stay part of the key. */
const TOOL_COMMENT = /@|^\s*[#!]|ts-|eslint|istanbul|\bc8\b|sourceMappingURL|prettier|jshint|global\s/;

interface Token {
  type: { label: string } | string;
  start: number;
  end: number;
  loc: { start: { line: number }; end: { line: number } };
}

function jsTokens(path: string, source: string): string | undefined {
  const plugins: ('typescript' | 'jsx')[] = path.endsWith('x') ? ['typescript', 'jsx'] : /\.[cm]?ts$/.test(path) ? ['typescript'] : ['jsx'];
  let tokens: Token[];
  try {
    const ast = parse(source, { sourceType: 'unambiguous', plugins, tokens: true, errorRecovery: false, allowReturnOutsideFunction: true });
    tokens = (ast as unknown as { tokens: Token[] }).tokens;
  } catch {
    return undefined;
  }
  const out: string[] = [];
  let lastLine = 0;
  for (const token of tokens) {
    const label = typeof token.type === 'string' ? token.type : token.type.label;
    const text = source.slice(token.start, token.end);
    if (label === 'CommentLine' || label === 'CommentBlock') {
      if (!TOOL_COMMENT.test(text)) continue;
    }
    if (label === 'eof') continue;
    // Only the fact of a line break before a token, never indentation or blank lines.
    const newline = out.length > 0 && token.loc.start.line > lastLine ? '\n' : ' ';
    out.push(`${newline}${text}`);
    lastLine = token.loc.end.line;
  }
  return out.join('');
}

/** The normalised form of one changed file (null: deleted). */
export function normaliseFile(path: string, content: Buffer | null): string {
  if (content === null) return '\u0000deleted';
  if (JS_FILE.test(path)) {
    const tokens = jsTokens(path, content.toString('utf8'));
    if (tokens !== undefined && Buffer.from(content.toString('utf8'), 'utf8').equals(content)) return `js:${tokens}`;
  }
  return `bytes:${content.toString('base64')}`;
}

/**
 * The normalised key of a candidate: the digest of its changed files' paths and normalised
 * contents. Equal keys mean the same paths changed to the same tokens (reported, never used to share
 * a validation).
 */
export function normalisedKey(changed: ReadonlyMap<string, Buffer | null>): Digest {
  const parts = [...changed.keys()].sort().map((path) => [path, normaliseFile(path, changed.get(path) ?? null)]);
  return domainDigest('patchproof/normalised/v1', JSON.stringify(parts));
}

/**
 * The exact key of a candidate: the digest of its changed files' paths and exact bytes (a deletion
 * is not an empty file). Only candidates of one exact key share a validation.
 */
export function exactKey(changed: ReadonlyMap<string, Buffer | null>): Digest {
  const parts = [...changed.keys()].sort().map((path) => {
    const content = changed.get(path) ?? null;
    return [path, content === null ? null : content.toString('base64')];
  });
  return domainDigest('patchproof/exact/v1', JSON.stringify(parts));
}

/**
 * A similarity score in [0, 1] for near-duplicates (reported, never used to share a validation):
 * the Jaccard index of the two candidates' normalised token bigrams over all changed files.
 */
export function similarity(a: ReadonlyMap<string, Buffer | null>, b: ReadonlyMap<string, Buffer | null>): number {
  const grams = (changed: ReadonlyMap<string, Buffer | null>): Set<string> => {
    const set = new Set<string>();
    for (const [path, content] of changed) {
      const words = normaliseFile(path, content)
        .split(/\s+/)
        .filter((w) => w !== '');
      for (let i = 0; i + 1 < words.length; i++) set.add(`${path}\u0000${words[i]}\u0000${words[i + 1]}`);
      if (words.length === 1) set.add(`${path}\u0000${words[0]}`);
    }
    return set;
  };
  const x = grams(a);
  const y = grams(b);
  const union = new Set([...x, ...y]).size;
  if (union === 0) return 1;
  let both = 0;
  for (const g of x) if (y.has(g)) both += 1;
  return Math.round((both / union) * 1000) / 1000;
}
