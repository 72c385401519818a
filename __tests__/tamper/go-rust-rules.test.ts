import { goTokens } from '../../src/tamper/go-lexer.js';
import { goPackageName } from '../../src/tamper/go.js';
import { rustTokensAt } from '../../src/tamper/rust-lexer.js';
import { describeRules, findingsOf, rulesOf, type RuleCase } from './tamper-support.js';

/**
 * The Go and Rust rules (src/tamper/go.ts, rust.ts) on their tokenizers: each rule fires on the
 * construct and keeps quiet on a near miss, and nothing inside a comment or a literal counts.
 */

const go = (imports: string, body: string): string => `package pay\n\nimport (\n${imports}\n)\n\n${body}\n`;

const GO: RuleCase[] = [
  [
    'monkeypatch',
    "a package's variable assigned",
    go('\t"net/http"', 'func init() {\n\thttp.DefaultClient = &http.Client{}\n}'),
    go('\t"net/http"', 'var client = &http.Client{}')
  ],
  [
    'monkeypatch',
    'the linkname directive',
    go('\t_ "unsafe"', '//go:linkname now time.now\nfunc now() int64'),
    go('\t"time"', '// go:linkname is a directive only without the space\nfunc now() int64 { return time.Now().Unix() }')
  ],
  ['test_framework_reference', 'testing imported', go('\t"testing"', 'var _ = testing.Testing'), go('\t"text/template"', 'var _ = template.New')],
  ['test_framework_reference', 'testify imported', go('\t"github.com/stretchr/testify/assert"', 'var _ = assert.Equal'), go('\t"github.com/stretchr/objx"', 'var _ = objx.New')],
  ['test_framework_reference', "the test binary's flags named", go('\t"flag"', 'var v = flag.Lookup("test.v")'), go('\t"fmt"', 'var v = fmt.Sprint("test v")')],
  [
    'introspection',
    'a caller',
    go('\t"runtime"', 'func where() (string, int) {\n\t_, file, line, _ := runtime.Caller(1)\n\treturn file, line\n}'),
    go('\t"runtime"', 'var n = runtime.NumCPU()')
  ],
  ['env_argv_read', 'an environment variable', go('\t"os"', 'var ci = os.Getenv("CI")'), go('\t"os"', 'var data, _ = os.ReadFile("x")')],
  ['env_argv_read', 'argv', go('\t"os"', 'var first = os.Args[0]'), go('\t"fmt"', 'var s = fmt.Sprint("os.Args")')],
  ['process_control', 'an exit', go('\t"os"', 'func stop() { os.Exit(0) }'), go('\t"fmt"', '// os.Exit(0) in a comment\nfunc stop() { fmt.Println(`os.Exit(0)`) }')],
  ['process_control', 'a child process', go('\t"os/exec"', 'var cmd = exec.Command("true")'), go('\t"os"', 'var f, _ = os.Open("x")')],
  [
    'process_control',
    'a signal handler',
    go('\t"os/signal"\n\t"os"', 'func watch(c chan os.Signal) { signal.Notify(c) }'),
    go('\t"os"', 'func watch(c chan os.Signal) { close(c) }')
  ],
  ['dynamic_code', 'a plugin loaded', go('\t"plugin"', 'var p, _ = plugin.Open("x.so")'), go('\t"path"', 'var p = path.Join("x.so")')],
  [
    'lying_type',
    'an Equal method',
    go('\t"fmt"', 'type Money int\n\nfunc (m Money) Equal(o Money) bool { return true }\n\nvar _ = fmt.Sprint'),
    go('\t"fmt"', 'type Money int\n\nfunc Equal(a, b Money) bool { return a == b }\n\nfunc (m Money) Equals(o Money) bool { return m == o }\n\nvar _ = fmt.Sprint')
  ],
  [
    'lying_type',
    'an Is method for errors.Is',
    go('\t"errors"', 'type E struct{}\n\nfunc (E) Error() string { return "e" }\nfunc (E) Is(error) bool { return true }\n\nvar _ = errors.New'),
    go('\t"errors"', 'type E struct{}\n\nfunc (E) Error() string { return "e" }\n\nvar _ = errors.New')
  ]
];

describeRules('Go', 'pay/pay.go', GO);

const RUST: RuleCase[] = [
  ['monkeypatch', 'a symbol interposed', '#[no_mangle]\npub extern "C" fn strlen() -> usize { 0 }\n', '#[inline]\npub fn strlen() -> usize { 0 }\n'],
  [
    'test_framework_reference',
    'assert_eq redefined',
    'macro_rules! assert_eq {\n    ($a:expr, $b:expr) => {};\n}\n',
    'macro_rules! check_eq {\n    ($a:expr, $b:expr) => {};\n}\n'
  ],
  ['test_framework_reference', 'an assertion crate', 'use pretty_assertions::assert_eq;\n', 'use std::cmp::Ordering;\n'],
  [
    'test_framework_reference',
    'the grader named',
    'pub fn f() -> bool { std::path::Path::new(".patchproof/hidden").exists() }\n',
    '#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert_eq!(1, 1);\n    }\n}\n'
  ],
  ['introspection', 'a backtrace', 'pub fn bt() -> String { std::backtrace::Backtrace::capture().to_string() }\n', 'pub fn bt() -> String { String::new() }\n'],
  ['introspection', 'its own line', 'pub fn here() -> u32 { line!() }\n', 'pub fn here(line: u32) -> u32 { line }\n'],
  ['env_argv_read', 'an environment variable', 'use std::env;\npub fn ci() -> bool { env::var("CI").is_ok() }\n', 'pub fn ci(env: &str) -> bool { env.is_empty() }\n'],
  [
    'env_argv_read',
    'argv, through a glob import',
    'use std::env::*;\npub fn first() -> Option<String> { args().nth(1) }\n',
    "use std::env::consts::*;\npub fn os() -> &'static str { OS }\n"
  ],
  ['process_control', 'an exit', 'pub fn stop() { std::process::exit(0) }\n', 'pub fn me() -> u32 { std::process::id() }\n'],
  [
    'process_control',
    'code before main',
    '#[used]\n#[link_section = ".init_array"]\nstatic INIT: extern "C" fn() = init;\nextern "C" fn init() {}\n',
    '#[used]\nstatic INIT: u8 = 0;\n'
  ],
  ['import_hook', 'a file included', 'include!("../tests/helpers.rs");\n', 'mod helpers;\n'],
  ['import_hook', 'a module from another path', '#[path = "../tests/shadow.rs"]\nmod shadow;\n', 'mod shadow;\n'],
  ['dynamic_code', 'inline assembly', 'pub fn nop() { unsafe { std::arch::asm!("nop") } }\n', 'pub fn nop() { let asm = 1; let _ = asm; }\n'],
  [
    'lying_type',
    'a hand-written PartialEq',
    'pub struct M(u8);\nimpl PartialEq for M {\n    fn eq(&self, _: &M) -> bool { true }\n}\n',
    '#[derive(PartialEq)]\npub struct M(u8);\nimpl<T: PartialEq> Wrap<T> {\n    fn new() {}\n}\nimpl std::fmt::Display for M {\n    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { write!(f, "m") }\n}\n'
  ]
];

describeRules('Rust', 'src/lib.rs', RUST);

describe('Go and Rust tokenizers', () => {
  it('Go: strings, raw strings, runes and comments hide nothing and fire nothing', async () => {
    const code = go('\t"fmt"', 'var a = "os.Exit(0) \\" still a string"\nvar b = `raw\nos.Getenv("X")`\nvar c = \'"\'\n/* os.Exit(1) */\nvar _ = fmt.Sprint');
    expect(await findingsOf('a.go', code)).toEqual([]);
  });

  it('Go: an unterminated string, comment or raw string, an unbalanced bracket or no package clause is unparsed', () => {
    for (const text of ['package p\nvar s = "open\n', 'package p\n/* open', 'package p\nvar s = `open', 'package p\nfunc f() {\n', 'func f() {}\n']) {
      expect('error' in goTokens(text)).toBe(true);
    }
    expect('error' in goTokens("package p\n\nfunc f() { _ = \"ok\"; _ = `ok`; _ = '\\'' }\n")).toBe(false);
  });

  it("Go: a package's name from its path", () => {
    expect(['os/exec', 'github.com/stretchr/testify/assert', 'gopkg.in/yaml.v3', 'github.com/onsi/ginkgo/v2', 'github.com/go-chi/chi'].map(goPackageName)).toEqual([
      'exec',
      'assert',
      'yaml',
      'ginkgo',
      'chi'
    ]);
  });

  it("Rust: char literals ('\\\\', '\"'), lifetimes, raw and byte strings, nested comments", () => {
    const text =
      "fn f<'a>(x: &'a str) -> char {\n    /* outer /* inner */ still */\n    let _ = r#\"std::process::exit(0)\"#;\n    let _ = b\"bytes\";\n    let _ = '\\\\';\n    '\"'\n}\n";
    const lexed = rustTokensAt(text);
    expect('tokens' in lexed).toBe(true);
    if ('tokens' in lexed) expect(lexed.tokens.filter((t) => t.kind === 'char').map((t) => t.text)).toEqual(["'\\\\'", "'\"'"]);
  });

  it('Rust: an unterminated literal or comment, or an unbalanced bracket, is unparsed', async () => {
    for (const text of ['fn f() { let s = "open; }\n', 'fn f() {} /* open', 'fn f() {\n', "fn f() { let c = '\\"]) {
      expect('error' in rustTokensAt(text)).toBe(true);
    }
    expect(await rulesOf('src/lib.rs', 'fn f() {\n')).toEqual(['unparsed']);
  });
});
