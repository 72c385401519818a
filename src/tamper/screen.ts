import { compareTamperFindings, tamperAllowed, tamperText, type TamperFinding, type TamperRule, type TamperScreen } from '../core/tamper.js';
import { goTokens } from './go-lexer.js';
import { goFindings } from './go.js';
import { addedLineNumbers, introducedFindings } from './introduced.js';
import { jsFindings } from './js.js';
import { languageOf, type ScreenedLanguage } from './languages.js';
import { loadPython, parseJs, parsePythonModule } from './parsers.js';
import { pythonFindings, pythonParseError } from './python.js';
import type { RawFinding } from './raw-finding.js';
import { rustTokensAt } from './rust-lexer.js';
import { rustFindings } from './rust.js';

/** One changed file: its text before and after the patch (null where it does not exist). */
export interface ChangedFile {
  path: string;
  base: string | null;
  patched: string | null;
  /** The patched bytes are not UTF-8 (the text is a lossy decoding): a screened file is then unparsed. */
  invalidUtf8?: boolean;
}

/** A witness pack's allowance: findings of `rule` in files matching one of `paths` (globs) are listed as allowed. */
export interface TamperAllowance {
  rule: TamperRule;
  paths: readonly string[];
}

type Scan = { ok: true; findings: RawFinding[] } | { ok: false; error: RawFinding };

function unparsed(line: number, message: string, text: string): RawFinding {
  const shown = text.split('\n')[line - 1] ?? '';
  return { rule: 'unparsed', line, endLine: line, source: `${message.split('\n')[0] ?? message}: ${shown}` };
}

/** The rules of one language over one text; a text that does not parse is an `unparsed` finding. */
function scan(language: ScreenedLanguage, path: string, text: string): Scan {
  switch (language) {
    case 'python': {
      const root = parsePythonModule(text);
      if (root.hasError) return { ok: false, error: pythonParseError(root, text) };
      return { ok: true, findings: pythonFindings(root) };
    }
    case 'javascript':
    case 'typescript': {
      const parsed = parseJs(path, text);
      if (!parsed.ok) return { ok: false, error: unparsed(parsed.line, `JS/TS syntax error: ${parsed.message}`, text) };
      return { ok: true, findings: jsFindings(parsed.tree, text) };
    }
    case 'go': {
      const lexed = goTokens(text);
      if ('error' in lexed) return { ok: false, error: unparsed(lexed.error.line, `Go: ${lexed.error.message}`, text) };
      return { ok: true, findings: goFindings(lexed.tokens, text) };
    }
    case 'rust': {
      const lexed = rustTokensAt(text);
      if ('error' in lexed) return { ok: false, error: unparsed(lexed.error.line, `Rust: ${lexed.error.message}`, text) };
      return { ok: true, findings: rustFindings(lexed.tokens, text) };
    }
  }
}

/**
 * Screen a candidate's changed non-test files (the caller has left test files out: they are reset to
 * the base before judging). For each file in a screened language, the findings the patch introduced
 * (src/tamper/introduced.ts: the base file's findings, counted by rule and text, are not
 * reported again); a file that does not parse is one `unparsed` finding (fail closed). Deleted
 * files are not screened; files in other languages are listed in `not_screened`. An allowance marks
 * a finding `allowed` (never an `unparsed` one).
 */
export async function screenChanges(files: readonly ChangedFile[], allow: readonly TamperAllowance[]): Promise<TamperScreen> {
  const screened = files.filter((f) => f.patched !== null && languageOf(f.path) !== undefined);
  if (screened.some((f) => languageOf(f.path) === 'python')) await loadPython();
  const allowed = (rule: TamperRule, path: string): boolean => tamperAllowed(allow, rule, path);
  const findings: TamperFinding[] = [];
  const notScreened: string[] = [];
  for (const file of files) {
    if (file.patched === null) continue;
    const language = languageOf(file.path);
    if (language === undefined) {
      notScreened.push(file.path);
      continue;
    }
    let introduced: RawFinding[];
    if (file.invalidUtf8 === true) introduced = [unparsed(1, 'not UTF-8 text', '')];
    else {
      const after = scan(language, file.path, file.patched);
      if (!after.ok) introduced = [after.error];
      else {
        // A base that does not parse counts for nothing: every finding after the patch is new.
        const before = file.base !== null ? scan(language, file.path, file.base) : undefined;
        const baseFindings = before?.ok === true ? before.findings : [];
        introduced = introducedFindings(baseFindings, after.findings, addedLineNumbers(file.base ?? '', file.patched));
      }
    }
    for (const f of introduced) findings.push({ rule: f.rule, path: file.path, line: f.line, text: tamperText(f.source), allowed: allowed(f.rule, file.path) });
  }
  // Two constructs that read the same after escaping and clipping, on one line, are one finding.
  const unique = findings.sort(compareTamperFindings).filter((f, i, all) => i === 0 || compareTamperFindings(all[i - 1]!, f) !== 0);
  return { files_screened: screened.length, findings: unique, not_screened: [...new Set(notScreened)].sort() };
}
