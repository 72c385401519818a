/**
 * The L1 build gate's diagnostics: a build's output reduced to its first root cause, with file and
 * line where the tool prints them. Pure: text in, one diagnostic out. Each parser reads one tool's
 * own error format (tsc, python's compileall/py_compile, cargo/rustc, go build/vet, node --check);
 * an output none of them recognises gives its first line that mentions an error, without a file.
 */

export const BUILD_TOOLS = ['tsc', 'python', 'cargo', 'go', 'node', 'unknown'] as const;
export type BuildTool = (typeof BUILD_TOOLS)[number];

export interface BuildDiagnostic {
  tool: BuildTool;
  /** Repository-relative when the tool printed a path inside the copy. */
  file?: string;
  line?: number;
  column?: number;
  /** The error's own message (at most MESSAGE_MAX characters), e.g. `TS2322: Type 'string' is not assignable to type 'number'.` */
  message: string;
}

const MESSAGE_MAX = 500;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MESSAGE_MAX ? `${trimmed.slice(0, MESSAGE_MAX - 1)}…` : trimmed;
}

/** A path as the repository names it: without the container's workdir prefix or a leading `./`. */
export function repoRelative(path: string, workdir: string): string {
  let p = path.trim();
  const root = workdir.endsWith('/') ? workdir : `${workdir}/`;
  if (workdir !== '' && p.startsWith(root)) p = p.slice(root.length);
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}

type Parser = (lines: readonly string[], workdir: string) => BuildDiagnostic | undefined;

/** `src/a.ts(3,7): error TS2322: …` (plain) or `src/a.ts:3:7 - error TS2322: …` (pretty). */
const tsc: Parser = (lines, workdir) => {
  for (const line of lines) {
    const m = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line) ?? /^(.+?):(\d+):(\d+) - error (TS\d+): (.*)$/.exec(line);
    if (m !== null) return { tool: 'tsc', file: repoRelative(m[1]!, workdir), line: Number(m[2]), column: Number(m[3]), message: clip(`${m[4]}: ${m[5]}`) };
    const global = /^error (TS\d+): (.*)$/.exec(line);
    if (global !== null) return { tool: 'tsc', message: clip(`${global[1]}: ${global[2]}`) };
  }
  return undefined;
};

/**
 * `  File "./a.py", line 3` then, a few lines on, `SyntaxError: invalid syntax` (compileall prints
 * `*** Error compiling './a.py'...` before it; py_compile prints the same traceback tail).
 */
const python: Parser = (lines, workdir) => {
  for (const [index, line] of lines.entries()) {
    const m = /^\s*File "(.+)", line (\d+)/.exec(line);
    if (m === null) continue;
    for (let j = index + 1; j < Math.min(lines.length, index + 8); j += 1) {
      const next = lines[j]!.trim();
      const error = /^(?:[A-Za-z_][\w.]*)?(Error|Exception|Warning)(?::\s*(.*))?$/.exec(next);
      const sorry = /^Sorry: (.*)$/.exec(next);
      if (error === null && sorry === null) continue;
      // No column: the caret is placed under the source line as Python shows it, dedented.
      return { tool: 'python', file: repoRelative(m[1]!, workdir), line: Number(m[2]), message: clip(sorry !== null ? sorry[1]! : next) };
    }
  }
  return undefined;
};

/** `error[E0308]: mismatched types` then ` --> src/lib.rs:3:5` (summaries such as `could not compile` are not root causes). */
const cargo: Parser = (lines, workdir) => {
  for (const [index, line] of lines.entries()) {
    const m = /^error(\[E\d+\])?: (.*)$/.exec(line);
    if (m === null || /^(could not compile|aborting due to)/.test(m[2]!)) continue;
    const at = lines
      .slice(index + 1, index + 4)
      .map((l) => /^\s*--> (.+):(\d+):(\d+)$/.exec(l))
      .find((x) => x !== null);
    const message = clip(`${m[1] !== undefined ? `${m[1].slice(1, -1)}: ` : ''}${m[2]}`);
    if (at !== undefined) return { tool: 'cargo', file: repoRelative(at[1]!, workdir), line: Number(at[2]), column: Number(at[3]), message };
    if (m[1] !== undefined) return { tool: 'cargo', message };
  }
  return undefined;
};

/** `./a.go:3:5: undefined: x` (go build), the same behind `vet: ` (go vet). */
const go: Parser = (lines, workdir) => {
  for (const line of lines) {
    const m = /^(?:vet: )?(\S+\.go):(\d+)(?::(\d+))?: (.*)$/.exec(line);
    if (m !== null) return { tool: 'go', file: repoRelative(m[1]!, workdir), line: Number(m[2]), ...(m[3] !== undefined ? { column: Number(m[3]) } : {}), message: clip(m[4]!) };
  }
  return undefined;
};

/** `node --check`: `/work/src/a.js:12`, the source line and a caret, then `SyntaxError: …`. */
const node: Parser = (lines, workdir) => {
  for (const [index, line] of lines.entries()) {
    const m = /^(\S+\.[cm]?[jt]sx?):(\d+)$/.exec(line);
    if (m === null) continue;
    const error = lines.slice(index + 1, index + 8).find((l) => /^[A-Z]\w*Error: /.test(l));
    if (error !== undefined) return { tool: 'node', file: repoRelative(m[1]!, workdir), line: Number(m[2]), message: clip(error) };
  }
  return undefined;
};

const PARSERS: readonly Parser[] = [tsc, cargo, go, python, node];

/**
 * The first root cause in a failed build's output. `workdir` is where the container saw the copy
 * (its prefix is taken off paths). Never undefined for a non-empty output: without a known format
 * the first line that mentions an error (or the first line) is the message.
 */
export function firstBuildError(output: string, workdir: string): BuildDiagnostic | undefined {
  const lines = output.replace(ANSI, '').split(/\r?\n/);
  for (const parse of PARSERS) {
    const found = parse(lines, workdir);
    if (found !== undefined) return found;
  }
  const shown = lines.find((l) => /error/i.test(l)) ?? lines.find((l) => l.trim() !== '');
  return shown === undefined ? undefined : { tool: 'unknown', message: clip(shown) };
}

/** `file:line:column: message`, as feedback and the report show it. */
export function formatDiagnostic(d: BuildDiagnostic): string {
  const at = d.file === undefined ? '' : `${d.file}${d.line !== undefined ? `:${d.line}` : ''}${d.column !== undefined ? `:${d.column}` : ''}: `;
  return `${at}${d.message}`;
}
