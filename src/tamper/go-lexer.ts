import { bracketError, IDENT_PART, IDENT_START, lineIndex, operatorAt, type Lexed, type Token } from './tokens.js';

/**
 * Go source as tokens (the Go spec's lexical grammar): comments dropped but the `//go:` and
 * `//export` directives, which change what the compiler links; interpreted strings, raw strings and
 * runes read whole, so nothing inside them is taken for code. An unterminated comment, string or
 * rune, an unbalanced bracket or a missing package clause is a lexical error: the caller reports
 * the file as unparsed. Pure.
 */

const OPERATORS = ['<<=', '>>=', '&^=', '...', '&&', '||', '<-', '++', '--', '==', '!=', '<=', '>=', ':=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '&^', '~'];

export function goTokens(text: string): Lexed {
  const lineOf = lineIndex(text);
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  const push = (kind: Token['kind'], start: number, end: number): void => {
    tokens.push({ kind, text: text.slice(start, end), start, end, line: lineOf(start) });
  };
  const fail = (at: number, message: string): Lexed => ({ error: { line: lineOf(at), message } });
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\ufeff') {
      i += 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      let j = i;
      while (j < n && text[j] !== '\n') j += 1;
      const comment = text.slice(i, j);
      const lineStart = text.lastIndexOf('\n', i - 1) + 1;
      // Directives are comments at the start of a line, with no space after the slashes.
      if (/^\/\/(?:go:|export\s|line\s)/.test(comment) && text.slice(lineStart, i).trim() === '') push('directive', i, j);
      i = j;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return fail(i, 'unterminated comment');
      i = end + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== c) {
        if (text[j] === '\n') return fail(i, c === '"' ? 'unterminated string' : 'unterminated rune');
        j += text[j] === '\\' ? 2 : 1;
      }
      if (j >= n) return fail(i, c === '"' ? 'unterminated string' : 'unterminated rune');
      push(c === '"' ? 'string' : 'char', i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '`') {
      const end = text.indexOf('`', i + 1);
      if (end < 0) return fail(i, 'unterminated raw string');
      push('string', i, end + 1);
      i = end + 1;
      continue;
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < n && IDENT_PART.test(text[j]!)) j += 1;
      push('ident', i, j);
      i = j;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < n) {
        const d = text[j]!;
        if (/[0-9A-Za-z_.]/.test(d)) j += 1;
        else if ((d === '+' || d === '-') && /[eEpP]/.test(text[j - 1]!)) j += 1;
        else break;
      }
      push('number', i, j);
      i = j;
      continue;
    }
    const op = operatorAt(text, i, OPERATORS);
    push('punct', i, i + op.length);
    i += op.length;
  }
  const unbalanced = bracketError(tokens);
  if (unbalanced !== undefined) return { error: unbalanced };
  const code = tokens.filter((t) => t.kind !== 'directive');
  if (code[0]?.text !== 'package' || code[1]?.kind !== 'ident') return { error: { line: code[0]?.line ?? 1, message: 'no package clause' } };
  return { tokens };
}
