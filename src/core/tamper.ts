import picomatch from 'picomatch';
import { z } from 'zod';

/**
 * The tamper screen's record (receipt v9 `tamper_screen`; src/tamper/ computes it): the rules, the
 * result's shape, what withholds proof grade, and the record's own consistency. Pure.
 *
 * The screen reads the candidate's changed non-test files with real parsers and reports constructs
 * the patch introduced that let code under test make the in-process assertion layer lie (patching
 * an assertion library, a lying `__eq__`, an `asymmetricMatch`), learn that it is being graded
 * (environment, argv, its own source and stack) or run beyond the test (exit hooks, re-exec). A
 * finding never changes the verdict; it withholds proof grade (docs/security.md, "The tamper screen").
 */

/** The rules, a closed set: one finding names one. */
export const TAMPER_RULES = [
  'monkeypatch',
  'test_framework_reference',
  'introspection',
  'env_argv_read',
  'process_control',
  'import_hook',
  'dynamic_code',
  'lying_type',
  'unparsed'
] as const;
export type TamperRule = (typeof TAMPER_RULES)[number];

/** The rules a witness pack may allow for named paths (`tamper_allow`): every rule but `unparsed`. */
export const ALLOWABLE_TAMPER_RULES = [
  'monkeypatch',
  'test_framework_reference',
  'introspection',
  'env_argv_read',
  'process_control',
  'import_hook',
  'dynamic_code',
  'lying_type'
] as const satisfies readonly Exclude<TamperRule, 'unparsed'>[];
export type AllowableTamperRule = (typeof ALLOWABLE_TAMPER_RULES)[number];

/** A finding's text: at most this many UTF-16 code units, control and bidirectional characters escaped. */
export const TAMPER_TEXT_LIMIT = 200;

const count = z.number().int().nonnegative();

export const tamperFindingSchema = z.strictObject({
  rule: z.enum(TAMPER_RULES),
  /** Repository-relative path of the changed file. */
  path: z.string().min(1),
  /** 1-based line in the patched file where the offending construct starts. */
  line: z.number().int().min(1),
  /** The offending source text, one line, escaped and clipped (tamperText). */
  text: z.string().max(TAMPER_TEXT_LIMIT),
  /** The witness pack's `tamper_allow` names this rule for this path: listed, not held against proof grade. */
  allowed: z.boolean()
});

export const tamperScreenSchema = z.strictObject({
  /** Changed non-test files in a screened language (Python, JS/TS, Go, Rust) that the patch leaves in the tree. */
  files_screened: count,
  findings: z.array(tamperFindingSchema),
  /** Changed non-test files in languages the screen does not read, by path. */
  not_screened: z.array(z.string().min(1))
});

/** A witness pack's `tamper_allow` entry, as the receipt records it (`witness.tamper_allow`). */
export const tamperAllowanceSchema = z.strictObject({ rule: z.enum(ALLOWABLE_TAMPER_RULES), paths: z.array(z.string().min(1)).min(1) });
export type TamperAllowanceRecord = z.infer<typeof tamperAllowanceSchema>;

/** Whether the pack's allowances accept `rule` at `path` (never `unparsed`); globs as picomatch reads them, dotfiles included. */
export function tamperAllowed(allow: readonly { rule: string; paths: readonly string[] }[], rule: TamperRule, path: string): boolean {
  return rule !== 'unparsed' && allow.some((a) => a.rule === rule && picomatch([...a.paths], { dot: true })(path));
}

export type TamperFinding = z.infer<typeof tamperFindingSchema>;
export type TamperScreen = z.infer<typeof tamperScreenSchema>;

/** The findings that withhold proof grade: every one not allowed, and every `unparsed` one (a file that does not parse is never allowed). */
export function tamperBlocking(screen: TamperScreen): TamperFinding[] {
  return screen.findings.filter((f) => !f.allowed || f.rule === 'unparsed');
}

/** True when the screen withholds proof grade. */
export function tamperWithholds(screen: TamperScreen): boolean {
  return tamperBlocking(screen).length > 0;
}

// eslint-disable-next-line no-control-regex -- deliberate: C0/C1 controls and line separators are escaped in finding texts
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu;

/**
 * Offending source text as a finding's text: whitespace runs become one space, control, zero-width
 * and bidirectional characters become `\u{…}` escapes (so the text shows what is there and cannot
 * reorder or hide what is shown), clipped to TAMPER_TEXT_LIMIT code units with `…`.
 */
export function tamperText(source: string): string {
  const escaped = source
    .replace(/[ \t\r\n\f\v]+/g, ' ')
    .trim()
    .replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  if (escaped.length <= TAMPER_TEXT_LIMIT) return escaped;
  let end = TAMPER_TEXT_LIMIT - 1;
  // Never inside a surrogate pair or an escape.
  const unit = escaped.charCodeAt(end - 1);
  if (unit >= 0xd800 && unit <= 0xdbff) end -= 1;
  const open = escaped.lastIndexOf('\\u{', end);
  if (open >= 0 && escaped.indexOf('}', open) >= end) end = open;
  return `${escaped.slice(0, end)}…`;
}

/** The order findings are recorded in: path, line, rule, text. */
export function compareTamperFindings(a: TamperFinding, b: TamperFinding): number {
  const key = (f: TamperFinding): [string, number, string, string] => [f.path, f.line, f.rule, f.text];
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < ka.length; i += 1) {
    if (ka[i]! < kb[i]!) return -1;
    if (ka[i]! > kb[i]!) return 1;
  }
  return 0;
}

/**
 * The record's own consistency (verify-receipt): each finding's `allowed` as the pack's recorded
 * allowances give it, findings in order, texts as tamperText leaves them, `unparsed` never allowed,
 * paths listed once in not_screened and sorted, and no path both with a finding and not screened.
 */
export function tamperScreenErrors(screen: TamperScreen, allow: readonly TamperAllowanceRecord[] = []): string[] {
  const errors: string[] = [];
  const where = 'tamper_screen';
  if (screen.findings.some((f) => f.allowed !== tamperAllowed(allow, f.rule, f.path)))
    errors.push(`${where}: a finding's allowed does not follow from the pack's tamper_allow (witness.tamper_allow)`);
  for (let i = 1; i < screen.findings.length; i += 1) {
    if (compareTamperFindings(screen.findings[i - 1]!, screen.findings[i]!) > 0) {
      errors.push(`${where}: findings must be sorted by path, line, rule and text`);
      break;
    }
  }
  if (screen.findings.some((f) => tamperText(f.text) !== f.text)) errors.push(`${where}: a finding's text is not escaped and clipped as the screen writes it`);
  if (screen.findings.some((f) => f.rule === 'unparsed' && f.allowed)) errors.push(`${where}: an unparsed file is never allowed`);
  const sorted = [...new Set(screen.not_screened)].sort();
  if (sorted.join('\n') !== screen.not_screened.join('\n')) errors.push(`${where}: not_screened must be sorted and unique`);
  const notScreened = new Set(screen.not_screened);
  if (screen.findings.some((f) => notScreened.has(f.path))) errors.push(`${where}: a path with findings is listed as not screened`);
  const screenedPaths = new Set(screen.findings.map((f) => f.path));
  if (screenedPaths.size > screen.files_screened) errors.push(`${where}: findings in more files than were screened`);
  return errors;
}

/** One line naming what withholds proof grade, for the console, the action's outcome and the check run. */
export function tamperWithheldLine(screen: TamperScreen): string {
  const blocking = tamperBlocking(screen);
  const n = blocking.length;
  return `proof grade withheld: tamper screen (${n} finding${n === 1 ? '' : 's'})`;
}
