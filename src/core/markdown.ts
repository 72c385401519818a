/**
 * The one escaper for untrusted text (test ids, failure messages, locations, skip reasons, paths
 * and anything else that comes from the candidate or from test output) placed as plain text in
 * Markdown: the check run, the job summary and report.md. Pure.
 *
 * Written here rather than taken from a library: the libraries that exist escape for one renderer's
 * idea of "special" characters (and several leave `|`, `:` or `<` alone); CommonMark itself allows
 * a backslash before *every* ASCII punctuation character and guarantees it is then literal, so the
 * safe rule is one line: escape them all. That stops headings, lists, emphasis, links, images, raw
 * HTML, entities, table cells (`\|`) and GFM autolinks (`http\:`, `www\.`) alike. Control and
 * line-separator characters become spaces (nothing can start a new block), and bidirectional
 * overrides become U+FFFD (nothing can reorder what is shown). Text is clipped first.
 *
 * The result is for plain-text positions only: inside a code span backslashes show as they are
 * (code spans are safe on their own, see `codeSpan` below).
 *
 * Its sibling `plainText` is for sinks GitHub shows as plain text, not Markdown: a check run's
 * annotation (title, message, path). There nothing is escaped (a backslash would show), but ANSI
 * escape sequences are removed, control and line-separator characters become spaces (one piece of
 * untrusted text is one line), bidirectional overrides become U+FFFD, and the text is clipped.
 */

/** Default clip for one piece of untrusted text, in UTF-16 code units. */
export const UNTRUSTED_TEXT_LIMIT = 500;

// eslint-disable-next-line no-control-regex -- deliberate: C0/C1 controls and line separators are stripped from untrusted text
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// CSI (colours, cursor moves), OSC (titles, hyperlinks; ended by BEL or ST) and two-character escapes.
// eslint-disable-next-line no-control-regex -- deliberate: ESC, BEL and CSI start the terminal escape sequences removed from untrusted text
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** `text` cut to at most `max` code units (never inside a surrogate pair), with `…` where it was cut. */
export function clipText(text: string, max: number = UNTRUSTED_TEXT_LIMIT): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const unit = text.charCodeAt(end - 1);
  if (unit >= 0xd800 && unit <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Untrusted text as inert, one-line Markdown (see the module comment). */
export function escapeMarkdown(text: string, max: number = UNTRUSTED_TEXT_LIMIT): string {
  return clipText(text.replace(ANSI, ''), max)
    .replace(CONTROL, ' ')
    .replace(BIDI, '\ufffd')
    .replace(ASCII_PUNCTUATION, (c) => `\\${c}`);
}

/** Untrusted text for a plain-text sink (an annotation): one line, no ANSI, no bidi overrides, clipped (see the module comment). */
export function plainText(text: string, max: number = UNTRUSTED_TEXT_LIMIT): string {
  return clipText(text.replace(ANSI, ''), max).replace(CONTROL, ' ').replace(BIDI, '\ufffd');
}

/**
 * Untrusted text as a Markdown code span: clipped to `max`, one line (control and line-separator
 * characters become spaces), bidirectional overrides and isolates replaced by U+FFFD (a code span
 * shows them as they are, and U+202E in a test id would show the rest of the line reversed: a
 * failing `test_pass_ok` could read as another name), fenced by one backtick more than its longest
 * backtick run, padded when it starts or ends with one. With `cell`, pipes are escaped so the span
 * can stand in a table cell.
 */
export function codeSpan(text: string, options: { max?: number; cell?: boolean } = {}): string {
  let flat = clipText(text, options.max).replace(CONTROL, ' ').replace(BIDI, '\ufffd');
  if (options.cell === true) flat = flat.replace(/\|/g, '\\|');
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
