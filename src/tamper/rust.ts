import type { TamperRule } from '../core/tamper.js';
import { FindingSink, type RawFinding } from './raw-finding.js';
import { GRADER_NAME, matchesQualified } from './qualified.js';
import { skipGroup, type Token } from './tokens.js';

/**
 * The tamper rules over Rust tokens (src/tamper/rust-lexer.ts). Pure.
 *
 * Paths are resolved through the file's `use` declarations (`use std::env::var as v;` makes `v`
 * `std::env::var`; `core::` and `alloc::` read as `std::`). Rust cannot patch another crate at run
 * time; what reaches the test harness is compile time: a crate-level `macro_rules! assert_eq`
 * shadows the standard one in the unit tests that glob-import the module, `#[no_mangle]` and
 * `#[export_name]` interpose symbols, `#[link_section]` and `#[ctor]` run code before `main`.
 * Unit tests in the file (`#[cfg(test)]`, `#[test]`) are screened like the rest: their edits are
 * the test surface's findings (src/inventory/surface/in-source-tests.ts), their attributes are not
 * flagged here.
 */

const RUST_QUALIFIED: Readonly<Record<Exclude<TamperRule, 'lying_type' | 'unparsed' | 'monkeypatch'>, readonly string[]>> = {
  test_framework_reference: [
    'test',
    'pretty_assertions',
    'proptest',
    'quickcheck',
    'rstest',
    'mockall',
    'assert_matches',
    'claims',
    'googletest',
    'insta',
    'assert_cmd',
    'serial_test',
    'test_case',
    'similar_asserts'
  ],
  introspection: ['std::backtrace', 'backtrace', 'std::panic::Location'],
  env_argv_read: [
    'std::env::var',
    'std::env::var_os',
    'std::env::vars',
    'std::env::vars_os',
    'std::env::args',
    'std::env::args_os',
    'std::env::set_var',
    'std::env::remove_var',
    'std::env::current_dir',
    'std::env::set_current_dir'
  ],
  process_control: [
    'std::process::exit',
    'std::process::abort',
    'std::process::Command',
    'std::env::current_exe',
    'std::panic::set_hook',
    'std::panic::take_hook',
    'std::panic::update_hook',
    'std::os::unix::process::CommandExt',
    'libc::fork',
    'libc::vfork',
    'libc::exec*',
    'libc::_exit',
    'libc::exit',
    'libc::atexit',
    'libc::signal',
    'libc::sigaction',
    'libc::kill',
    'libc::raise',
    'nix::unistd::fork',
    'nix::unistd::exec*',
    'nix::sys::signal',
    'signal_hook',
    'ctrlc',
    'ctor',
    'dtor'
  ],
  import_hook: [],
  dynamic_code: ['libloading', 'libc::dlopen', 'libc::dlsym']
};

const MACROS: Readonly<Record<string, TamperRule>> = {
  env: 'env_argv_read',
  option_env: 'env_argv_read',
  include: 'import_hook',
  include_str: 'import_hook',
  include_bytes: 'import_hook',
  file: 'introspection',
  line: 'introspection',
  column: 'introspection',
  module_path: 'introspection',
  asm: 'dynamic_code',
  global_asm: 'dynamic_code',
  naked_asm: 'dynamic_code'
};

const ATTRIBUTES: Readonly<Record<string, TamperRule>> = {
  no_mangle: 'monkeypatch',
  export_name: 'monkeypatch',
  link_section: 'process_control',
  ctor: 'process_control',
  dtor: 'process_control',
  path: 'import_hook'
};

/** Standard macros the tests assert with: a crate's own `macro_rules!` of one of these names shadows it. */
const ASSERTION_MACROS = /^(?:assert\w*|debug_assert\w*|panic|unreachable|todo|unimplemented|matches)$/;

/**
 * Traits whose manual implementation decides whether `assert_eq!`, `assert_ne!` and the collections
 * see two values as equal. `Display` is left out: what it prints is the behaviour a test of a
 * message checks, so a fix often changes it (semver's upstream fix does).
 */
const LYING_TRAITS = new Set(['PartialEq', 'PartialOrd', 'Ord', 'Hash']);

function normalisePath(segments: readonly string[]): string {
  const parts = segments[0] === '' ? segments.slice(1) : [...segments];
  if (parts[0] === 'core' || parts[0] === 'alloc') parts[0] = 'std';
  return parts.join('::');
}

/** A `use` tree, expanded: every (bound name, full path), and the full paths named (globs too). */
function useTree(tokens: readonly Token[], start: number, end: number): { bindings: [string, string[]][]; paths: string[][] } {
  const bindings: [string, string[]][] = [];
  const paths: string[][] = [];
  let i = start;
  const tree = (prefix: string[]): void => {
    const segments = [...prefix];
    if (tokens[i]?.text === '::') {
      if (segments.length === 0) segments.push('');
      i += 1;
    }
    while (i < end) {
      const t = tokens[i]!;
      if (t.text === '{') {
        i += 1;
        while (i < end && tokens[i]!.text !== '}') {
          tree(segments);
          if (tokens[i]?.text === ',') i += 1;
        }
        i += 1;
        return;
      }
      if (t.text === '*') {
        paths.push(segments);
        i += 1;
        return;
      }
      if (t.kind !== 'ident') {
        i += 1;
        return;
      }
      if (t.text === 'self' && segments.length > 0) {
        i += 1;
      } else {
        segments.push(t.text);
        i += 1;
      }
      if (tokens[i]?.text === '::') {
        i += 1;
        continue;
      }
      let name = segments[segments.length - 1] ?? '';
      if (tokens[i]?.text === 'as' && tokens[i + 1] !== undefined) {
        name = tokens[i + 1]!.text;
        i += 2;
      }
      paths.push(segments);
      if (name !== '_') bindings.push([name, segments]);
      return;
    }
  };
  tree([]);
  return { bindings, paths };
}

export function rustFindings(tokens: readonly Token[], text: string): RawFinding[] {
  const sink = new FindingSink();
  const flag = (rule: TamperRule, from: Token, to: Token): void => sink.add(rule, text.slice(from.start, to.end), from.line, to.line, from.start, to.end);
  const match = (path: string, from: Token, to: Token): void => {
    for (const [rule, entries] of Object.entries(RUST_QUALIFIED) as [TamperRule, readonly string[]][]) {
      if (entries.some((entry) => matchesQualified(path.replace(/::/g, '.'), entry.replace(/::/g, '.')))) flag(rule, from, to);
    }
  };

  // Pass 1: every `use` declaration (they are visible in the whole module).
  const aliases = new Map<string, string[]>();
  const globs: string[][] = [];
  const uses: [number, number][] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    if (tokens[i]!.text !== 'use' || tokens[i]!.kind !== 'ident') continue;
    let end = i + 1;
    while (end < tokens.length && tokens[end]!.text !== ';') end += 1;
    const { bindings, paths } = useTree(tokens, i + 1, end);
    for (const [name, path] of bindings) aliases.set(name, path);
    for (const path of paths) if (!bindings.some(([, bound]) => bound === path)) globs.push(path);
    for (const path of paths) match(normalisePath(path), tokens[i]!, tokens[Math.min(end, tokens.length - 1)]!);
    uses.push([i, end]);
  }
  const inUse = (i: number): boolean => uses.some(([from, to]) => i >= from && i <= to);

  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i]!;
    if (inUse(i)) continue;
    // Attributes: #[name …] and #![name …], also inside unsafe(…).
    if (t.text === '#' && (tokens[i + 1]?.text === '[' || (tokens[i + 1]?.text === '!' && tokens[i + 2]?.text === '['))) {
      const open = tokens[i + 1]?.text === '[' ? i + 1 : i + 2;
      const close = skipGroup(tokens, open) - 1;
      let name = tokens[open + 1];
      if (name?.text === 'unsafe' && tokens[open + 2]?.text === '(') name = tokens[open + 3];
      // A path attribute like ctor::ctor: its last segment.
      let k = tokens.indexOf(name!, open);
      while (tokens[k + 1]?.text === '::' && tokens[k + 2]?.kind === 'ident') k += 2;
      const last = tokens[k]?.text ?? '';
      const rule = ATTRIBUTES[last];
      if (rule !== undefined) flag(rule, t, tokens[close]!);
      continue;
    }
    if (t.kind === 'string' && GRADER_NAME.test(t.text)) flag('test_framework_reference', t, t);
    if (t.kind !== 'ident') continue;
    const prev = tokens[i - 1]?.text;
    // macro_rules! assert_eq { … }: shadows the standard assertion in unit tests that glob-import the module.
    if (t.text === 'macro_rules' && tokens[i + 1]?.text === '!' && tokens[i + 2]?.kind === 'ident') {
      if (ASSERTION_MACROS.test(tokens[i + 2]!.text)) {
        const body = tokens[i + 3];
        const end = body !== undefined && ['(', '[', '{'].includes(body.text) ? skipGroup(tokens, i + 3) - 1 : i + 2;
        flag('test_framework_reference', t, tokens[end]!);
      }
      continue;
    }
    if (t.text === 'extern' && tokens[i + 1]?.text === 'crate' && tokens[i + 2] !== undefined) {
      match(normalisePath([tokens[i + 2]!.text]), t, tokens[i + 2]!);
      continue;
    }
    // A macro call: name!( … ).
    if (tokens[i + 1]?.text === '!' && prev !== '::' && MACROS[t.text] !== undefined && ['(', '[', '{'].includes(tokens[i + 2]?.text ?? '')) {
      flag(MACROS[t.text]!, t, tokens[skipGroup(tokens, i + 2) - 1]!);
      continue;
    }
    // impl … Trait … for Type { … }
    if (t.text === 'impl') {
      let j = i + 1;
      if (tokens[j]?.text === '<') j = skipAngles(tokens, j);
      let forAt = -1;
      let k = j;
      while (k < tokens.length && tokens[k]!.text !== '{' && tokens[k]!.text !== ';') {
        if (tokens[k]!.text === '<') k = skipAngles(tokens, k);
        else if (tokens[k]!.text === '(' || tokens[k]!.text === '[') k = skipGroup(tokens, k);
        else {
          if (tokens[k]!.text === 'for' && forAt < 0) forAt = k;
          k += 1;
        }
      }
      if (forAt > 0 && tokens[k]?.text === '{') {
        // The trait's own name: the last identifier before its generic arguments.
        let trait = '';
        for (let m = j; m < forAt; m += 1) {
          if (tokens[m]!.text === '<') m = skipAngles(tokens, m) - 1;
          else if (tokens[m]!.kind === 'ident') trait = tokens[m]!.text;
        }
        if (LYING_TRAITS.has(trait)) flag('lying_type', t, tokens[skipGroup(tokens, k) - 1]!);
      }
      continue;
    }
    // A path: a::b::c, not a field or method (after `.`) nor the tail of a longer path.
    if (prev === '::' || prev === '.') continue;
    const segments = [t.text];
    let j = i;
    while (tokens[j + 1]?.text === '::' && tokens[j + 2]?.kind === 'ident') {
      j += 2;
      segments.push(tokens[j]!.text);
    }
    // A path-qualified macro call: std::arch::asm!( … ), core::line!().
    const macro = MACROS[segments[segments.length - 1]!];
    if (macro !== undefined && tokens[j + 1]?.text === '!' && ['(', '[', '{'].includes(tokens[j + 2]?.text ?? '')) {
      flag(macro, t, tokens[skipGroup(tokens, j + 2) - 1]!);
      i = j;
      continue;
    }
    if (segments[0] === 'crate' || segments[0] === 'self' || segments[0] === 'super' || segments[0] === 'Self') continue;
    const alias = aliases.get(segments[0]!);
    const full = normalisePath(alias !== undefined ? [...alias, ...segments.slice(1)] : segments);
    // A single unqualified segment is a local name unless a `use` bound it, or a glob import may have (when it is called).
    if (segments.length === 1 && alias === undefined) {
      if (tokens[i + 1]?.text === '(') for (const glob of globs) match(normalisePath([...glob, t.text]), t, tokens[skipGroup(tokens, i + 1) - 1]!);
      continue;
    }
    const last = tokens[j + 1]?.text === '(' ? skipGroup(tokens, j + 1) - 1 : j;
    match(full, t, tokens[last]!);
    i = j;
  }
  return sink.findings;
}

/** The index just past a generic argument list `<…>` opening at `i` (`->` and `=>` are not brackets). */
function skipAngles(tokens: readonly Token[], i: number): number {
  let depth = 0;
  for (let j = i; j < tokens.length; j += 1) {
    const t = tokens[j]!.text;
    if (t === '<') depth += 1;
    else if (t === '>') depth -= 1;
    else if (t === '>>') depth -= 2;
    else if (t === '<<') depth += 2;
    else if (t === '{' || t === ';') return j;
    else if (t === '(' || t === '[') j = skipGroup(tokens, j) - 1;
    if (depth <= 0) return j + 1;
  }
  return tokens.length;
}
