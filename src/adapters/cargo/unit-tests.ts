/**
 * cargo's unit tests live in the code's own files (`#[cfg(test)] mod tests { #[test] fn … }` in
 * `src/*.rs`), so a path cannot tell them from the code under test: a candidate that rewrites such
 * a test's assertions keeps its id, still passes, and the regression phase cannot see it. This
 * module compares the unit tests of a base file with the candidate's, item by item, on the
 * token stream (comments and layout do not count; everything else does). Pure.
 *
 * What is compared, per file under `src/`:
 * - every function with a test attribute (`#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(…)]`,
 *   any attribute path ending in `test`), anywhere, attributes included (an added `#[ignore]` or
 *   `#[should_panic]` changes it), keyed by its module path and name;
 * - every module gated by `cfg(test)` (or `cfg(… test …)`), whole: its helpers, constants, macros
 *   and the declaration itself, so an out-of-line `#[cfg(test)] mod tests;` that is removed counts;
 * - a file that a base `#[cfg(test)] mod name;` declaration loads (`name.rs`, `name/mod.rs`, or its
 *   `#[path = "…"]`), whole.
 * A base item that is missing or different in the candidate is a changed unit test. Added items are
 * not (a new test judges nothing: it is not in the base's PASS_TO_PASS set).
 *
 * Why a tokenizer and not a parser: the only maintained Rust parser on npm is tree-sitter-rust, a
 * WebAssembly grammar that the bundle would have to ship and load beside web-tree-sitter; the items
 * compared here need only Rust's lexical rules (nested block comments, raw strings, char literals
 * against lifetimes) and bracket matching, which are written out and tested below
 * (__tests__/adapters/cargo-unit-tests.test.ts).
 */

/** One token's text; comments and whitespace are dropped. */
type Token = string;

const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT_PART = /[A-Za-z0-9_\u0080-\uffff]/;

/** Where a raw string (`r"…"`, `r#"…"#`, `br…`, `cr…`) opens at `i`: its hash count, or undefined. */
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

/** Rust source as tokens: identifiers, literals and single punctuation characters. Never throws: an unterminated literal or comment runs to the end. */
export function rustTokens(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i += 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      // Block comments nest in Rust.
      let depth = 1;
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
      continue;
    }
    const raw = rawStringAt(text, i);
    if (raw !== undefined) {
      const close = `"${'#'.repeat(raw.hashes)}`;
      const end = text.indexOf(close, raw.start);
      const stop = end < 0 ? n : end + close.length;
      tokens.push(text.slice(i, stop));
      i = stop;
      continue;
    }
    if (c === '"' || ((c === 'b' || c === 'c') && text[i + 1] === '"')) {
      let j = c === '"' ? i + 1 : i + 2;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      tokens.push(text.slice(i, Math.min(j + 1, n)));
      i = j + 1;
      continue;
    }
    if (c === "'" || (c === 'b' && text[i + 1] === "'")) {
      const q = c === "'" ? i : i + 1;
      if (text[q + 1] === '\\') {
        // An escaped char literal: '\n', '\'', '\u{1F600}'.
        let j = q + 3;
        while (j < n && text[j] !== "'" && text[j] !== '\n') j += 1;
        tokens.push(text.slice(i, j + 1));
        i = j + 1;
        continue;
      }
      const cp = text.codePointAt(q + 1);
      const width = cp !== undefined && cp > 0xffff ? 2 : 1;
      if (cp !== undefined && text[q + 1 + width] === "'") {
        tokens.push(text.slice(i, q + 2 + width));
        i = q + 2 + width;
        continue;
      }
      if (c === "'") {
        // A lifetime or a label: 'a, 'static, 'outer.
        let j = i + 1;
        while (j < n && IDENT_PART.test(text[j]!)) j += 1;
        tokens.push(text.slice(i, j));
        i = j;
        continue;
      }
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      // A raw identifier: r#match.
      if (c === 'r' && text[j] === '#' && IDENT_START.test(text[j + 1] ?? '')) j += 1;
      while (j < n && IDENT_PART.test(text[j]!)) j += 1;
      tokens.push(text.slice(i, j));
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
      tokens.push(text.slice(i, j));
      i = j;
      continue;
    }
    tokens.push(c);
    i += 1;
  }
  return tokens;
}

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** The index just past the bracket group opening at `i` (its matching closer), or the end. */
function skipGroup(tokens: readonly Token[], i: number): number {
  const stack: string[] = [];
  let j = i;
  while (j < tokens.length) {
    const t = tokens[j]!;
    if (OPEN[t] !== undefined) stack.push(OPEN[t]);
    else if (t === ')' || t === ']' || t === '}') {
      stack.pop();
      if (stack.length === 0) return j + 1;
    }
    j += 1;
  }
  return tokens.length;
}

/** An item's outer attribute, as tokens without `#[` and `]`. */
type Attribute = readonly Token[];

/** True for an attribute that makes a function a test: its path's last segment is or starts with `test`, or `rstest`, `quickcheck`. */
function isTestAttribute(attr: Attribute): boolean {
  let last = '';
  for (let k = 0; k < attr.length; k += 1) {
    const t = attr[k]!;
    if (t === '(' || t === '[' || t === '=' || t === '{') break;
    if (IDENT_START.test(t[0] ?? '')) last = t;
  }
  return last === 'test' || last.startsWith('test_') || last === 'rstest' || last === 'quickcheck';
}

/** True for `cfg(test)`, `cfg(all(test, …))`, `cfg_attr(…)` naming `test`: code that exists only in the test build. */
function isTestCfg(attr: Attribute): boolean {
  return (attr[0] === 'cfg' || attr[0] === 'cfg_attr') && attr.includes('test');
}

/** `#[path = "…"]`'s value, if the attributes carry one. */
function pathAttribute(attrs: readonly Attribute[]): string | undefined {
  for (const attr of attrs) {
    if (attr[0] === 'path' && attr[1] === '=' && attr[2] !== undefined && attr[2].startsWith('"')) return attr[2].slice(1, -1);
  }
  return undefined;
}

export interface UnitTestScan {
  /** Test items by key (`mod::path::name`, `mod …` for a test module, `#2` for a repeated key) → their tokens joined. */
  items: Map<string, string>;
  /** Out-of-line test modules this file declares: `mod name;` under a test cfg, with its `#[path]` if any. */
  testModules: { name: string; path?: string }[];
}

/** The test items of one Rust file (see the module comment). */
export function scanUnitTests(text: string): UnitTestScan {
  const tokens = rustTokens(text);
  const items = new Map<string, string>();
  const testModules: UnitTestScan['testModules'] = [];
  const put = (key: string, from: number, to: number): void => {
    let unique = key;
    for (let k = 2; items.has(unique); k += 1) unique = `${key} #${k}`;
    items.set(unique, tokens.slice(from, to).join(' '));
  };
  const scan = (start: number, end: number, modPath: string, inTestCode: boolean): void => {
    let i = start;
    while (i < end) {
      const itemStart = i;
      const attrs: Attribute[] = [];
      for (;;) {
        if (tokens[i] === '#' && tokens[i + 1] === '[') {
          const close = skipGroup(tokens, i + 1);
          attrs.push(tokens.slice(i + 2, close - 1));
          i = close;
        } else if (tokens[i] === '#' && tokens[i + 1] === '!' && tokens[i + 2] === '[') {
          // An inner attribute belongs to the enclosing module, which is compared whole if it is test code.
          i = skipGroup(tokens, i + 2);
        } else break;
      }
      if (i >= end) break;
      // The item runs to a `;` at its own level, or to the end of its first brace group.
      let j = i;
      let body = -1;
      while (j < end) {
        const t = tokens[j]!;
        if (t === ';') {
          j += 1;
          break;
        }
        if (t === '{') {
          body = j;
          j = skipGroup(tokens, j);
          break;
        }
        if (t === '(' || t === '[') {
          j = skipGroup(tokens, j);
          continue;
        }
        j += 1;
      }
      const head = tokens.slice(i, body < 0 ? j : body);
      const testCfg = attrs.some(isTestCfg);
      const modAt = head.indexOf('mod');
      const fnAt = head.indexOf('fn');
      if (modAt >= 0 && (fnAt < 0 || modAt < fnAt) && head[modAt + 1] !== undefined) {
        const name = head[modAt + 1]!;
        const path = modPath === '' ? name : `${modPath}::${name}`;
        if (testCfg || inTestCode) put(`mod ${path}`, itemStart, j);
        if (body < 0 && (testCfg || inTestCode)) testModules.push({ name, ...(pathAttribute(attrs) === undefined ? {} : { path: pathAttribute(attrs)! }) });
        if (body >= 0) scan(body + 1, j - 1, path, inTestCode || testCfg);
      } else if (fnAt >= 0 && head[fnAt + 1] !== undefined && attrs.some(isTestAttribute)) {
        const name = head[fnAt + 1]!;
        put(modPath === '' ? name : `${modPath}::${name}`, itemStart, j);
      } else if (testCfg && !inTestCode) {
        // Any other item that exists only in the test build (a helper fn, an impl, a macro).
        const stop = head.findIndex((t) => t === '(' || t === ':' || t === '<' || t === '=');
        const words = (stop < 0 ? head : head.slice(0, stop)).filter((t) => IDENT_START.test(t[0] ?? ''));
        put(`cfg(test) item at ${modPath === '' ? 'crate' : modPath} ${words.join(' ')}`, itemStart, j);
      }
      i = j > i ? j : i + 1;
    }
  };
  scan(0, tokens.length, '', false);
  return { items, testModules };
}

/** The directory an out-of-line `mod name;` declared in `file` is looked up under, as rustc does. */
function moduleDir(file: string): string {
  const slash = file.lastIndexOf('/');
  const dir = slash < 0 ? '' : file.slice(0, slash);
  const base = file.slice(slash + 1);
  if (base === 'lib.rs' || base === 'main.rs' || base === 'mod.rs') return dir;
  return `${dir === '' ? '' : `${dir}/`}${base.replace(/\.rs$/, '')}`;
}

function joinPath(dir: string, rel: string): string {
  const parts = dir === '' ? [] : dir.split('/');
  for (const part of rel.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** Base files that a `#[cfg(test)] mod name;` loads: they are test code whole. */
export function testModuleFiles(baseFiles: ReadonlyMap<string, string>): Set<string> {
  const out = new Set<string>();
  const pending = [...baseFiles.keys()];
  const scanned = new Set<string>();
  while (pending.length > 0) {
    const file = pending.shift()!;
    if (scanned.has(file)) continue;
    scanned.add(file);
    const text = baseFiles.get(file);
    if (text === undefined) continue;
    const whole = out.has(file);
    const scan = scanUnitTests(text);
    const declared = whole ? [...scan.testModules, ...rustModules(text)] : scan.testModules;
    for (const mod of declared) {
      const slash = file.lastIndexOf('/');
      const here = slash < 0 ? '' : file.slice(0, slash);
      // A file loaded through #[path] looks its own modules up beside itself (as a mod.rs does):
      // both places are taken, so none is missed.
      const dirs = whole ? [moduleDir(file), here] : [moduleDir(file)];
      const candidates = mod.path !== undefined ? [joinPath(here, mod.path)] : dirs.flatMap((dir) => [joinPath(dir, `${mod.name}.rs`), joinPath(dir, `${mod.name}/mod.rs`)]);
      for (const target of candidates) {
        if (!baseFiles.has(target) || out.has(target)) continue;
        out.add(target);
        // Its own sub-modules are test code too.
        scanned.delete(target);
        pending.push(target);
      }
    }
  }
  return out;
}

/** Every out-of-line `mod name;` of a file (for the sub-modules of a test module file). */
function rustModules(text: string): { name: string; path?: string }[] {
  const tokens = rustTokens(text);
  const out: { name: string; path?: string }[] = [];
  for (let i = 0; i + 2 < tokens.length; i += 1) {
    if (tokens[i] === 'mod' && tokens[i + 2] === ';') out.push({ name: tokens[i + 1]! });
  }
  return out;
}

/** How the candidate changed one file's unit tests. */
export interface UnitTestChange {
  path: string;
  /** Keys of base test items that are missing or different in the candidate. */
  changed: string[];
}

/**
 * The files under `src/` whose base unit tests the candidate removed or changed. `baseFiles`: every
 * `.rs` file under `src/` of the base tree; `patched`: the candidate's version of each file it
 * changed (undefined when it deleted it).
 */
export function changedUnitTests(baseFiles: ReadonlyMap<string, string>, patched: ReadonlyMap<string, string | undefined>): UnitTestChange[] {
  const whole = testModuleFiles(baseFiles);
  const out: UnitTestChange[] = [];
  for (const [path, after] of [...patched].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const before = baseFiles.get(path);
    if (before === undefined) continue;
    const changed: string[] = [];
    if (whole.has(path)) {
      if (after === undefined || rustTokens(before).join(' ') !== rustTokens(after).join(' ')) changed.push('(the whole file: a test module)');
    } else {
      const baseItems = scanUnitTests(before).items;
      const afterItems = after === undefined ? new Map<string, string>() : scanUnitTests(after).items;
      for (const [key, value] of baseItems) if (afterItems.get(key) !== value) changed.push(key);
    }
    if (changed.length > 0) out.push({ path, changed });
  }
  return out;
}
