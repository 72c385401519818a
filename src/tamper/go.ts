import type { TamperRule } from '../core/tamper.js';
import { FindingSink, type RawFinding } from './raw-finding.js';
import { GRADER_NAME, matchesQualified } from './qualified.js';
import { skipGroup, type Token } from './tokens.js';

/**
 * The tamper rules over Go tokens (src/tamper/go-lexer.ts). Pure.
 *
 * Imports are read from the import declarations (a package's name is taken as its path's last
 * element, or the one before a `/vN` suffix, or its alias); `pkg.Name` is then that path's name.
 * Go has no monkeypatching in the language: an assignment to an imported package's variable, the
 * `//go:linkname` directive, `unsafe` and cgo are its ways to reach into another package.
 */

const GO_QUALIFIED: Readonly<Record<Exclude<TamperRule, 'lying_type' | 'unparsed' | 'import_hook'>, readonly string[]>> = {
  test_framework_reference: [
    'testing',
    'github.com/stretchr/testify',
    'gotest.tools',
    'github.com/onsi/ginkgo',
    'github.com/onsi/ginkgo/v2',
    'github.com/onsi/gomega',
    'github.com/frankban/quicktest',
    'github.com/matryer/is',
    'github.com/smartystreets/goconvey',
    'github.com/golang/mock',
    'go.uber.org/mock',
    'github.com/google/go-cmp'
  ],
  introspection: [
    'runtime.Caller',
    'runtime.Callers',
    'runtime.CallersFrames',
    'runtime.Stack',
    'runtime.FuncForPC',
    'runtime/debug.Stack',
    'runtime/debug.PrintStack',
    'runtime/debug.SetTraceback'
  ],
  env_argv_read: [
    'os.Getenv',
    'os.LookupEnv',
    'os.Environ',
    'os.ExpandEnv',
    'os.Setenv',
    'os.Unsetenv',
    'os.Clearenv',
    'os.Args',
    'os.Getwd',
    'syscall.Getenv',
    'syscall.Environ',
    'syscall.Setenv',
    'flag'
  ],
  process_control: [
    'os.Exit',
    'os.Executable',
    'os.StartProcess',
    'os.FindProcess',
    'os/exec',
    'os/signal',
    'syscall.Exec',
    'syscall.ForkExec',
    'syscall.StartProcess',
    'syscall.Kill',
    'syscall.Exit',
    'runtime.Goexit',
    'golang.org/x/sys/unix.Exec',
    'golang.org/x/sys/unix.Kill',
    'golang.org/x/sys/unix.Exit'
  ],
  monkeypatch: ['unsafe', 'C'],
  dynamic_code: ['plugin']
};

/** Methods the comparison libraries consult on a value (go-cmp's `Equal`, errors.Is/As's `Is`/`As`). */
const GO_LYING_METHODS = new Set(['Equal', 'Is', 'As']);

const ASSIGN = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=', '&^=', '++', '--']);

/** A package's default name from its import path: the last element, before a `/vN` or `.vN` suffix. */
export function goPackageName(path: string): string {
  const parts = path.split('/');
  let last = parts[parts.length - 1] ?? path;
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2]!;
  return last
    .replace(/\.v\d+$/, '')
    .replace(/^go-/, '')
    .replace(/-go$/, '')
    .replace(/[^\p{L}\p{N}_]/gu, '_');
}

function unquote(token: Token): string {
  return token.text.slice(1, -1);
}

export function goFindings(tokens: readonly Token[], text: string): RawFinding[] {
  const sink = new FindingSink();
  const code = tokens.filter((t) => t.kind !== 'directive');
  const flag = (rule: TamperRule, from: Token, to: Token, source = text.slice(from.start, to.end)): void => sink.add(rule, source, from.line, to.line, from.start, to.end);
  const lineRest = (from: Token): string => {
    const end = text.indexOf('\n', from.start);
    return text.slice(from.start, end < 0 ? text.length : end);
  };
  const match = (qualified: string, from: Token, to: Token): void => {
    for (const [rule, entries] of Object.entries(GO_QUALIFIED) as [TamperRule, readonly string[]][]) {
      if (entries.some((entry) => matchesQualified(qualified, entry))) flag(rule, from, to);
    }
  };

  for (const directive of tokens.filter((t) => t.kind === 'directive')) {
    if (/^\/\/go:linkname\b/.test(directive.text)) flag('monkeypatch', directive, directive);
  }

  // The import declarations: `import "p"`, `import x "p"`, `import ( … )`.
  const packages = new Map<string, string>();
  const importSpec = (at: number): number => {
    let i = at;
    let alias: string | undefined;
    const first = code[i];
    if (first !== undefined && (first.kind === 'ident' || first.text === '.' || first.text === '_') && code[i + 1]?.kind === 'string') {
      alias = first.text;
      i += 1;
    }
    const spec = code[i];
    if (spec?.kind !== 'string') return i + 1;
    const path = unquote(spec);
    const name = alias ?? goPackageName(path);
    if (name !== '_' && name !== '.') packages.set(name, path);
    match(path, code[at]!, spec);
    if (/^-?test\./.test(path)) flag('test_framework_reference', code[at]!, spec);
    return i + 1;
  };
  for (let i = 0; i < code.length; i += 1) {
    if (code[i]!.text !== 'import' || code[i]!.kind !== 'ident') continue;
    if (code[i + 1]?.text === '(') {
      let j = i + 2;
      while (j < code.length && code[j]!.text !== ')') {
        if (code[j]!.text === ';') j += 1;
        else j = importSpec(j);
      }
      i = j;
    } else i = importSpec(i + 1) - 1;
  }

  for (let i = 0; i < code.length; i += 1) {
    const t = code[i]!;
    if (t.kind === 'string' && (/^["`]-?test\.\w/.test(t.text) || GRADER_NAME.test(t.text))) flag('test_framework_reference', t, t);
    if (t.kind !== 'ident') continue;
    // A method of a comparison or error-matching interface: func (r T) Equal(…) … { … }.
    if (t.text === 'func' && code[i + 1]?.text === '(') {
      const afterReceiver = skipGroup(code, i + 1);
      const name = code[afterReceiver];
      if (name !== undefined && GO_LYING_METHODS.has(name.text) && code[afterReceiver + 1]?.text === '(') {
        let j = afterReceiver + 1;
        while (j < code.length && code[j]!.text !== '{') j = code[j]!.text === '(' || code[j]!.text === '[' ? skipGroup(code, j) : j + 1;
        const end = j < code.length ? skipGroup(code, j) - 1 : code.length - 1;
        flag('lying_type', t, code[end]!);
      }
    }
    const path = packages.get(t.text);
    if (path === undefined || code[i + 1]?.text !== '.' || code[i + 2]?.kind !== 'ident') continue;
    if (code[i - 1]?.text === '.') continue;
    let j = i + 2;
    const parts = [path, code[j]!.text];
    while (code[j + 1]?.text === '.' && code[j + 2]?.kind === 'ident') {
      j += 2;
      parts.push(code[j]!.text);
    }
    const qualified = `${parts[0]!}.${parts.slice(1).join('.')}`;
    const last = code[j + 1]?.text === '(' ? skipGroup(code, j + 1) - 1 : j;
    match(qualified, t, code[last]!);
    // Assigning a package's variable: pkg.Var = …, pkg.Var++, a, pkg.Var = ….
    const next = code[j + 1];
    let assigns = next !== undefined && ASSIGN.has(next.text);
    if (next?.text === ',') {
      for (let k = j + 1; k < code.length && code[k]!.line === t.line; k += 1) {
        if (code[k]!.text === ':=' || code[k]!.text === '{' || code[k]!.text === '(') break;
        if (ASSIGN.has(code[k]!.text)) {
          assigns = true;
          break;
        }
      }
    }
    if (assigns) sink.add('monkeypatch', lineRest(t), t.line, t.line, t.start, t.start + lineRest(t).length);
  }
  return sink.findings;
}
