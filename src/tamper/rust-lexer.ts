import { bracketError, IDENT_PART, IDENT_START, lineIndex, operatorAt, type Lexed, type Token } from './tokens.js';

/**
 * Rust source as tokens (the Reference's lexical structure): line and nested block comments
 * dropped; strings, byte and C strings, raw strings (`r#"…"#`), char literals and lifetimes read
 * whole, so nothing inside a literal is taken for code. An unterminated comment or literal, or an
 * unbalanced bracket, is a lexical error: the caller reports the file as unparsed. Pure.
 *
 * src/adapters/cargo/unit-tests.ts has a tokenizer of its own for comparing unit tests (texts
 * only, never failing); this one keeps positions and fails closed.
 */

const OPERATORS = ['<<=', '>>=', '...', '..=', '::', '->', '=>', '==', '!=', '<=', '>=', '&&', '||', '+=', '-=', '*=', '/=', '%=', '^=', '&=', '|=', '<<', '>>', '..'];

/** Where a raw string (`r"…"`, `r#"…"#`, `br…`, `cr…`) opens at `i`: its hash count and body start. */
function rawStringAt(text: string, i: number): { start: number; hashes: number } | undefined {
  let j = i;
  if (text[j] === 'b' || text[j] === 'c') j += 1;
  if (text[j] !== 'r') return undefined;
  j += 1;
  let hashes = 0;
  while (text[j] === '#') {
    hashes += 1;
    j += 1;
  }
  return text[j] === '"' ? { start: j + 1, hashes } : undefined;
}

export function rustTokensAt(text: string): Lexed {
  const lineOf = lineIndex(text);
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  const push = (kind: Token['kind'], start: number, end: number): void => {
    tokens.push({ kind, text: text.slice(start, end), start, end, line: lineOf(start) });
  };
  const fail = (at: number, message: string): Lexed => ({ error: { line: lineOf(at), message } });
  // A shebang line (not an inner attribute `#![`).
  if (text.startsWith('#!') && !text.startsWith('#![')) i = text.indexOf('\n') < 0 ? n : text.indexOf('\n');
  while (i < n) {
    const c = text[i]!;
    if (/\s/.test(c) || c === '\ufeff') {
      i += 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i += 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      let depth = 1;
      const start = i;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth += 1;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth -= 1;
          i += 2;
        } else i += 1;
      }
      if (depth > 0) return fail(start, 'unterminated block comment');
      continue;
    }
    const raw = rawStringAt(text, i);
    if (raw !== undefined) {
      const close = `"${'#'.repeat(raw.hashes)}`;
      const end = text.indexOf(close, raw.start);
      if (end < 0) return fail(i, 'unterminated raw string');
      push('string', i, end + close.length);
      i = end + close.length;
      continue;
    }
    if (c === '"' || ((c === 'b' || c === 'c') && text[i + 1] === '"')) {
      let j = c === '"' ? i + 1 : i + 2;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= n) return fail(i, 'unterminated string');
      push('string', i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === "'" || (c === 'b' && text[i + 1] === "'")) {
      const q = c === "'" ? i : i + 1;
      if (text[q + 1] === '\\') {
        // From the backslash: the loop steps over each escape whole ('\\', '\'', '\u{…}').
        let j = q + 1;
        while (j < n && text[j] !== "'" && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
        if (text[j] !== "'") return fail(i, 'unterminated char literal');
        push('char', i, j + 1);
        i = j + 1;
        continue;
      }
      const cp = text.codePointAt(q + 1);
      const width = cp !== undefined && cp > 0xffff ? 2 : 1;
      if (cp !== undefined && text[q + 1 + width] === "'") {
        push('char', i, q + 2 + width);
        i = q + 2 + width;
        continue;
      }
      if (c === "'" && IDENT_START.test(text[i + 1] ?? '')) {
        // A lifetime or a label: 'a, 'static, 'outer.
        let j = i + 2;
        while (j < n && IDENT_PART.test(text[j]!)) j += 1;
        push('lifetime', i, j);
        i = j;
        continue;
      }
      if (c === "'") return fail(i, 'malformed char literal');
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      // A raw identifier: r#match.
      if (c === 'r' && text[j] === '#' && IDENT_START.test(text[j + 1] ?? '')) j += 1;
      while (j < n && IDENT_PART.test(text[j]!)) j += 1;
      push('ident', i, j);
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_]/.test(text[j]!)) j += 1;
      if (text[j] === '.' && /[0-9]/.test(text[j + 1] ?? '')) {
        j += 1;
        while (j < n && /[0-9A-Za-z_]/.test(text[j]!)) j += 1;
      }
      if (/[eE]/.test(text[j - 1] ?? '') && (text[j] === '+' || text[j] === '-') && /[0-9]/.test(text[j + 1] ?? '') && !/^0x/i.test(text.slice(i, j))) {
        j += 1;
        while (j < n && /[0-9_]/.test(text[j]!)) j += 1;
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
  return unbalanced !== undefined ? { error: unbalanced } : { tokens };
}
