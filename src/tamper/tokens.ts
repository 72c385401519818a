/**
 * Tokens of Go and Rust source, with where they stand, for the token-level tamper rules (Go and
 * Rust have no parser the project ships: tree-sitter's grammars would be two more WebAssembly
 * modules in the bundle, and the rules need only lexical structure and bracket matching). Pure.
 */

export type TokenKind = 'ident' | 'string' | 'char' | 'number' | 'punct' | 'lifetime' | 'directive';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offsets in the source, end exclusive. */
  start: number;
  end: number;
  /** 1-based line of the token's start. */
  line: number;
}

/** Why a file could not be read as tokens: the line and what was wrong. */
export interface LexError {
  line: number;
  message: string;
}

export type Lexed = { tokens: Token[] } | { error: LexError };

/** Offsets of line starts, to turn an offset into a 1-based line. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

const CLOSE: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** The first unbalanced bracket, if any: `(`, `[` and `{` must nest and close. */
export function bracketError(tokens: readonly Token[]): LexError | undefined {
  const stack: Token[] = [];
  for (const token of tokens) {
    if (token.kind !== 'punct') continue;
    if (token.text === '(' || token.text === '[' || token.text === '{') stack.push(token);
    else if (CLOSE[token.text] !== undefined) {
      const open = stack.pop();
      if (open?.text !== CLOSE[token.text]) return { line: token.line, message: `unbalanced '${token.text}'` };
    }
  }
  const open = stack.pop();
  return open !== undefined ? { line: open.line, message: `unclosed '${open.text}'` } : undefined;
}

/** The index just past the bracket group that opens at `i`. */
export function skipGroup(tokens: readonly Token[], i: number): number {
  let depth = 0;
  for (let j = i; j < tokens.length; j += 1) {
    const t = tokens[j]!;
    if (t.kind !== 'punct') continue;
    if (t.text === '(' || t.text === '[' || t.text === '{') depth += 1;
    else if (t.text === ')' || t.text === ']' || t.text === '}') {
      depth -= 1;
      if (depth === 0) return j + 1;
    }
  }
  return tokens.length;
}

/** The longest of `operators` that starts at `i`. */
export function operatorAt(text: string, i: number, operators: readonly string[]): string {
  for (const op of operators) if (text.startsWith(op, i)) return op;
  return text[i]!;
}

export const IDENT_START = /[\p{L}_]/u;
export const IDENT_PART = /[\p{L}\p{N}_]/u;
