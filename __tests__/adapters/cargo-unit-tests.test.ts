import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { changedUnitTests, rustTokens, scanUnitTests, testModuleFiles } from '../../src/adapters/cargo/unit-tests.js';
import { cargoAdapter } from '../../src/adapters/cargo/index.js';
import { inSourceTestFindings } from '../../src/inventory/surface/in-source-tests.js';
import { checkDiff } from '../../src/core/diff-policy.js';
import { applyFileChanges } from '../../src/core/patch-apply.js';
import { surfaceReasons } from '../../src/core/surface.js';
import { PolicyError } from '../../src/errors.js';
import { ROOT } from '../helpers/cli.js';

/**
 * cargo unit tests in the code's own files (src/*.rs): the base's test items against the
 * candidate's, on Rust's tokens. The end-to-end proof (a candidate that rewrites a unit test's
 * assertion and passes without this) is __tests__/hostile/cargo-unit-tests.test.ts.
 */

const TEXTCLIP = readFileSync(join(ROOT, 'fixtures', 'rust-textclip', 'repo', 'src', 'lib.rs'), 'utf8');
const HOSTILE_DIFF = readFileSync(join(ROOT, 'fixtures', 'hostile', 'rust-rewrite-unit-test.diff'), 'utf8');

const one = (before: string, after: string | undefined): string[] => changedUnitTests(new Map([['src/lib.rs', before]]), new Map([['src/lib.rs', after]]))[0]?.changed ?? [];

describe('rustTokens', () => {
  it('drops comments (nested block comments too) and keeps literals whole', () => {
    expect(rustTokens('a /* x /* y */ still comment */ b // c\nd')).toEqual(['a', 'b', 'd']);
    expect(rustTokens('let s = r#"a "} { b"#; let t = "q\\"}"; let c = \'{\'; let d = b\'}\';')).toEqual([
      'let',
      's',
      '=',
      'r#"a "} { b"#',
      ';',
      'let',
      't',
      '=',
      '"q\\"}"',
      ';',
      'let',
      'c',
      '=',
      "'{'",
      ';',
      'let',
      'd',
      '=',
      "b'}'",
      ';'
    ]);
  });

  it('tells lifetimes and labels from char literals, escapes included', () => {
    expect(rustTokens("fn f<'a>(x: &'a str) -> char { '\\'' }")).toEqual(['fn', 'f', '<', "'a", '>', '(', 'x', ':', '&', "'a", 'str', ')', '-', '>', 'char', '{', "'\\''", '}']);
    expect(rustTokens("'outer: loop { break 'outer; } '\\u{1F600}' '😀'")).toEqual(["'outer", ':', 'loop', '{', 'break', "'outer", ';', '}', "'\\u{1F600}'", "'😀'"]);
  });
});

describe('scanUnitTests', () => {
  it('finds the test module and each #[test] function of rust-textclip', () => {
    expect([...scanUnitTests(TEXTCLIP).items.keys()]).toEqual([
      'mod tests',
      'tests::short_text_is_kept',
      'tests::long_text_ends_with_an_ellipsis',
      'tests::zero_columns_hold_nothing',
      'tests::padding_fills_with_spaces'
    ]);
  });

  it('finds #[test] functions outside a cfg(test) module (shell-escape keeps them in `pub mod unix`) and test attributes with paths', () => {
    const source =
      'pub mod unix {\n  pub fn escape() {}\n  #[test]\n  fn test_escape() { assert!(true); }\n}\n#[tokio::test]\nasync fn t() {}\n#[cfg(test)]\nfn helper() -> u8 { 1 }\n';
    expect([...scanUnitTests(source).items.keys()]).toEqual(['unix::test_escape', 't', 'cfg(test) item at crate fn helper']);
  });

  it('numbers repeated keys (a test defined in two cfg branches)', () => {
    const source = '#[cfg(unix)]\n#[test]\nfn t() { a(); }\n#[cfg(windows)]\n#[test]\nfn t() { b(); }\n';
    expect([...scanUnitTests(source).items.keys()]).toEqual(['t', 't #2']);
  });
});

describe('changedUnitTests', () => {
  const rewrite = (from: string, to: string): string => {
    expect(TEXTCLIP).toContain(from);
    return TEXTCLIP.replace(from, to);
  };

  it('a rewritten assertion is a changed test; so is an added #[ignore] or #[should_panic]', () => {
    expect(one(TEXTCLIP, rewrite('assert_eq!(clip("tea", 0), "");', 'assert_eq!(clip("tea", 0), "…");'))).toEqual(['mod tests', 'tests::zero_columns_hold_nothing']);
    expect(one(TEXTCLIP, rewrite('    #[test]\n    fn zero_columns', '    #[test]\n    #[ignore]\n    fn zero_columns'))).toEqual([
      'mod tests',
      'tests::zero_columns_hold_nothing'
    ]);
    expect(one(TEXTCLIP, rewrite('    #[test]\n    fn zero_columns', '    #[test]\n    #[should_panic]\n    fn zero_columns'))).toContain('tests::zero_columns_hold_nothing');
  });

  it('a removed test, a removed test module and a deleted file are changed tests', () => {
    expect(one(TEXTCLIP, rewrite('    #[test]\n    fn zero_columns_hold_nothing() {\n        assert_eq!(clip("tea", 0), "");\n    }\n', ''))).toEqual([
      'mod tests',
      'tests::zero_columns_hold_nothing'
    ]);
    expect(one(TEXTCLIP, TEXTCLIP.slice(0, TEXTCLIP.indexOf('#[cfg(test)]')))).toHaveLength(5);
    expect(one(TEXTCLIP, undefined)).toHaveLength(5);
    // Gating the module off is a change of its attributes.
    expect(one(TEXTCLIP, rewrite('#[cfg(test)]\nmod tests', '#[cfg(test)]\n#[cfg(any())]\nmod tests'))).toEqual(['mod tests']);
  });

  it('the fix itself, comments and layout inside the tests, and a new test are not changes', () => {
    expect(one(TEXTCLIP, rewrite('    text.len()\n', '    text.chars().count()\n'))).toEqual([]);
    expect(
      one(TEXTCLIP, rewrite('assert_eq!(clip("tea", 5), "tea");', '// kept\n        assert_eq!(\n            clip("tea", 5),\n            "tea"\n        ); /* same */'))
    ).toEqual([]);
    expect(one(TEXTCLIP, `${TEXTCLIP}\n#[test]\nfn a_new_test() {}\n`)).toEqual([]);
  });

  it('hostile: a brace in a string or char literal does not end a test early (an edit after it is still seen)', () => {
    const base = '#[test]\nfn t() {\n    let s = "}";\n    let c = \'}\';\n    let r = r#"}"#;\n    assert_eq!(f(), 1);\n}\n#[test]\nfn u() {}\n';
    expect(one(base, base.replace('assert_eq!(f(), 1)', 'assert_eq!(f(), f())'))).toEqual(['t']);
    const comment = '#[test]\nfn t() {\n    /* } /* } */ } */\n    assert_eq!(f(), 1);\n}\n';
    expect(one(comment, comment.replace('assert_eq!(f(), 1)', 'assert!(true)'))).toEqual(['t']);
  });

  it('an out-of-line test module: its file is compared whole, and removing its declaration is a change', () => {
    const lib = 'pub fn f() -> u8 { 1 }\n#[cfg(test)]\nmod tests;\n#[cfg(test)]\n#[path = "checks/more.rs"]\nmod more;\n';
    const tests = 'use super::*;\nfn helper() -> u8 { 1 }\n#[test]\nfn t() { assert_eq!(f(), helper()); }\n';
    const base = new Map([
      ['src/lib.rs', lib],
      ['src/tests.rs', tests],
      ['src/checks/more.rs', 'mod deeper;\n'],
      ['src/checks/deeper.rs', '#[test] fn d() {}\n'],
      ['src/other.rs', 'pub fn g() {}\n']
    ]);
    expect([...testModuleFiles(base)].sort()).toEqual(['src/checks/deeper.rs', 'src/checks/more.rs', 'src/tests.rs']);
    // A helper that is not a #[test] function, changed: the file is test code whole.
    expect(changedUnitTests(base, new Map([['src/tests.rs', tests.replace('{ 1 }', '{ f() }')]]))).toEqual([
      { path: 'src/tests.rs', changed: ['(the whole file: a test module)'] }
    ]);
    expect(changedUnitTests(base, new Map([['src/lib.rs', lib.replace('#[cfg(test)]\nmod tests;\n', '')]]))).toEqual([{ path: 'src/lib.rs', changed: ['mod tests'] }]);
    expect(changedUnitTests(base, new Map([['src/other.rs', 'pub fn g() { }\n// x\n']]))).toEqual([]);
  });
});

describe('inSourceTestFindings', () => {
  const baseDir = join(ROOT, 'fixtures', 'rust-textclip', 'repo');
  const changes = checkDiff(HOSTILE_DIFF, { maxBytes: 1_000_000, maxFiles: 100 });
  const applied = applyFileChanges((path) => readFileSync(join(baseDir, ...path.split('/'))), changes);
  const allow = { test_edits: false, test_removal: false, skips: false, config_edits: false, dependency_changes: false };

  it('the hostile candidate rust-rewrite-unit-test: a test finding on src/lib.rs, not reset, grader_tampered', () => {
    const found = inSourceTestFindings(cargoAdapter, baseDir, ['Cargo.toml', 'src/lib.rs', 'tests/columns.rs'], changes, applied, [], allow, cargoAdapter.skipMarkers);
    expect(found.findings).toEqual([{ path: 'src/lib.rs', change: 'modify', categories: ['test'], skip_markers: [] }]);
    expect([...found.paths]).toEqual(['src/lib.rs']);
    expect(found.notes[0]).toContain('tests::zero_columns_hold_nothing');
    expect(surfaceReasons(found.findings, allow).reasons).toEqual(['grader_tampered']);
  });

  it('a pack that allows test edits is refused: the file cannot be reset without undoing the fix', () => {
    expect(() => inSourceTestFindings(cargoAdapter, baseDir, ['Cargo.toml', 'src/lib.rs'], changes, applied, [], { ...allow, test_edits: true }, cargoAdapter.skipMarkers)).toThrow(
      PolicyError
    );
  });

  it("the fixture's own fix touches no unit test", () => {
    const fix = checkDiff(readFileSync(join(ROOT, 'fixtures', 'rust-textclip', 'candidates', 'fix.diff'), 'utf8'), { maxBytes: 1_000_000, maxFiles: 100 });
    const fixed = applyFileChanges((path) => readFileSync(join(baseDir, ...path.split('/'))), fix);
    expect(inSourceTestFindings(cargoAdapter, baseDir, ['Cargo.toml', 'src/lib.rs'], fix, fixed, [], allow, cargoAdapter.skipMarkers).findings).toEqual([]);
  });
});
