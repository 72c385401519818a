import { parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import { PolicyError } from '../errors.js';

/**
 * Diff policy: decide from the text alone whether a proposed diff is one PatchProof will apply, and
 * turn it into one change per file. Pure; nothing here touches the file system.
 *
 * Hunks are parsed by jsdiff's `parsePatch` (the `diff` package): maintained, linear-time on hostile
 * input, and strict about hunk line counts. It reads git's extended headers only in part and skips
 * lines it does not know, so every line is also screened here, before and around the parse.
 */

/** Size limits on a diff, checked before it is parsed. */
export interface DiffLimits {
  /** Largest diff accepted, in UTF-8 bytes. Default 1 MiB (1,048,576 bytes). */
  maxBytes: number;
  /** Most files one diff may change. Default 200. */
  maxFiles: number;
}

/** The limits used when none are given: 1 MiB (1,048,576 bytes) and 200 files. */
export const DEFAULT_DIFF_LIMITS: Readonly<DiffLimits> = Object.freeze({ maxBytes: 1024 * 1024, maxFiles: 200 });

/** What a diff does to one file. */
export type FileOp = 'add' | 'modify' | 'delete';

/** One file's change, as `checkDiff` accepted it. */
export interface FileChange {
  /** Repository-relative, `/`-separated path that passed `checkRepoPath`. */
  readonly path: string;
  readonly op: FileOp;
  /**
   * Hunks in file order, as jsdiff parses them: `oldStart` is already moved one line on when
   * `oldLines` is 0. An empty file that is added or deleted has none; an add or delete has at most one.
   */
  readonly hunks: readonly StructuredPatchHunk[];
}

const DEV_NULL = '/dev/null';
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
// eslint-disable-next-line no-control-regex -- deliberate: a diff path with a C0/C1 control character is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a path is refused, and what to do about it. */
interface PathProblem {
  reason: string;
  fix: string;
}

function pathProblem(path: string): PathProblem | undefined {
  if (path === '') {
    return { reason: 'is empty', fix: 'name every file by its repository-relative path' };
  }
  if (CONTROL.test(path)) {
    return { reason: 'contains a control character', fix: 'rename the file without control characters' };
  }
  if (path.includes('\\')) {
    return { reason: 'contains a backslash', fix: "separate directories with '/' and keep '\\' out of file names" };
  }
  // A drive letter makes a path absolute on Windows even without a leading slash.
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    return { reason: 'is absolute', fix: 'give repository-relative paths' };
  }
  const parts = path.split('/');
  if (parts.includes('..')) {
    return { reason: "contains '..'", fix: "give repository-relative paths without '..'" };
  }
  if (parts.includes('.')) {
    return { reason: "has a '.' component", fix: "give paths without './' in them" };
  }
  if (parts.includes('')) {
    return { reason: 'has an empty component', fix: "give paths without a doubled or trailing '/'" };
  }
  // Case-insensitive because .GIT is the same directory on macOS and Windows file systems.
  if (parts.some((part) => part.toLowerCase() === '.git')) {
    return { reason: "has a '.git' component", fix: "leave git's own files out of the diff" };
  }
  if (parts[0]!.toLowerCase() === '.patchproof') {
    return { reason: "is under '.patchproof/', which PatchProof reserves for itself", fix: 'put the file somewhere else' };
  }
  return undefined;
}

/**
 * Check one repository-relative path. Returns why it is refused, or `undefined` when it is fine.
 * Refused: empty, absolute (`/x`, `C:x`), control characters, backslashes, `..`, `.` or empty
 * components, any `.git` component and a first component `.patchproof` (both case-insensitive).
 */
export function checkRepoPath(path: string): string | undefined {
  return pathProblem(path)?.reason;
}

/**
 * Quote text for a one-line message: single quotes, control and line-separator characters escaped,
 * long text shortened.
 */
export function quoteForMessage(text: string, max = 120): string {
  const short = text.length > max ? `${text.slice(0, max)}…` : text;
  // eslint-disable-next-line no-control-regex -- deliberate: C0/C1 controls and line separators are shown as \u escapes in messages
  const escaped = short.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `'${escaped}'`;
}

function refuse(message: string): never {
  throw new PolicyError('policy_violation', `diff refused: ${message}`);
}

function invalid(message: string): never {
  throw new PolicyError('patch_invalid', `diff invalid: ${message}`);
}

/** Where a line is, for messages: the file it belongs to when known, and its line number. */
function at(line: number, file: string | undefined): string {
  return file === undefined ? `line ${line}` : `${quoteForMessage(file)} (line ${line})`;
}

/**
 * The file a `diff --git` line names, best effort, for messages only: the new side, split where
 * the line names one path twice, else at the last ' b/'.
 */
function gitHeaderLabel(line: string): string {
  const rest = line.slice('diff --git '.length);
  const half = (rest.length - 1) / 2;
  const split = Number.isInteger(half) && rest[half] === ' ' ? half : rest.lastIndexOf(' b/');
  const second = split === -1 ? rest : rest.slice(split + 1);
  return second.startsWith('b/') ? second.slice(2) : second;
}

function modeKind(mode: string): string | undefined {
  if (mode === '120000') return 'a symbolic link';
  if (mode === '160000') return 'a submodule';
  return undefined;
}

/**
 * First screen, over every line: git extended headers jsdiff would accept or skip silently. No
 * hunk line can match these (hunk lines start with ' ', '+', '-' or '\'), so no hunk tracking is
 * needed here.
 */
function screenExtendedHeaders(lines: readonly string[]): void {
  let file: string | undefined;
  lines.forEach((line, index) => {
    const n = index + 1;
    if (line.startsWith('diff --git ')) {
      file = gitHeaderLabel(line);
      return;
    }
    if (/^(?:GIT binary patch|Binary files |(?:literal|delta) \d)/.test(line)) {
      refuse(`${at(n, file)} is a binary change; binary files are not supported, leave them out of the diff`);
    }
    const modeLine = /^(new file mode|deleted file mode|old mode|new mode)(?: (.*))?$/.exec(line);
    const indexLine = /^index [0-9a-fA-F]+\.\.[0-9a-fA-F]+ +(\S+)/.exec(line);
    const mode = modeLine ? (modeLine[2] ?? '') : indexLine?.[1];
    const kind = mode === undefined ? undefined : modeKind(mode);
    if (kind !== undefined) {
      refuse(`${at(n, file)} is ${kind} (mode ${mode}); only regular files are supported, leave it out of the diff`);
    }
    if (/^(?:rename|copy) (?:from|to)\b/.test(line) || /^(?:dis)?similarity index\b/.test(line)) {
      const what = line.startsWith('dis') ? 'a rewrite (git diff -B)' : line.startsWith('copy') ? 'a copy' : 'a rename or copy';
      refuse(
        `${at(n, file)} is ${what} (${quoteForMessage(line, 60)}); renames and copies are not supported, ` +
          'give the old path as a delete and the new one as an add (git diff --no-renames)'
      );
    }
    if (modeLine?.[1] === 'old mode' || modeLine?.[1] === 'new mode') {
      refuse(`${at(n, file)} changes the file mode (${quoteForMessage(line, 60)}); mode changes are not supported, leave them out of the diff`);
    }
    if (modeLine?.[1] === 'new file mode' && mode !== '100644') {
      refuse(`${at(n, file)} is added with mode ${quoteForMessage(mode ?? '')}; only plain files (mode 100644) may be added, add it without the executable bit`);
    }
    if ((modeLine?.[1] === 'deleted file mode' && mode !== '100644' && mode !== '100755') || (indexLine && mode !== '100644' && mode !== '100755')) {
      refuse(`${at(n, file)} has mode ${quoteForMessage(mode ?? '')}; only regular files (mode 100644 or 100755) are supported`);
    }
  });
}

/** One file's part of the diff, as the line scan found it. */
interface Section {
  /** 1-based line number of its first header. */
  line: number;
  /** Index of its first line. */
  start: number;
  /** Index after its last line. */
  end: number;
  /** Both names from a `diff --git` line, prefixes kept. */
  git?: { old: string; new: string };
  /** Names from `---` and `+++`, prefixes kept, timestamps dropped. */
  oldName?: string;
  newName?: string;
  newFile: boolean;
  deletedFile: boolean;
  hunks: number;
}

// Git quotes a name that holds a control character, '"' or '\\' (and, by default, non-ASCII), so a
// '"' in a header means a quoted name or a name git itself would have quoted.
function quotedRefusal(n: number, text: string): never {
  refuse(
    `line ${n} names a git-quoted path (${quoteForMessage(text, 80)}); rename files whose names hold control characters, '"' or '\\', ` +
      "and make a diff with non-ASCII names with 'git -c core.quotePath=false diff'"
  );
}

function parseGitHeader(line: string, n: number): { old: string; new: string } {
  const rest = line.slice('diff --git '.length);
  if (rest.includes('"')) quotedRefusal(n, rest);
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === ' ') {
    const old = rest.slice(0, half);
    const neu = rest.slice(half + 1);
    if (old === neu || (old.startsWith('a/') && neu.startsWith('b/') && old.slice(2) === neu.slice(2))) {
      return { old, new: neu };
    }
  }
  refuse(
    `line ${n} (${quoteForMessage(line, 80)}) does not name the same file twice; renames and copies are not supported, ` + 'give the old path as a delete and the new one as an add'
  );
}

/** The file name on a `---` or `+++` line: what comes before the first tab (a timestamp may follow). */
function parseFileName(line: string, n: number): string {
  const rest = line.slice(4);
  const tab = rest.indexOf('\t');
  const name = tab === -1 ? rest : rest.slice(0, tab);
  if (name.includes('"')) quotedRefusal(n, name);
  // jsdiff trims the name, so a name with outer whitespace would silently become another file.
  if (name !== name.trim()) {
    refuse(`${quoteForMessage(name)} (line ${n}) begins or ends with whitespace; rename the file`);
  }
  if (name === '') {
    invalid(`line ${n} (${quoteForMessage(line.slice(0, 3))}) names no file; give the file's path after '${line.slice(0, 3)} '`);
  }
  return name;
}

/**
 * Consume one hunk's body, counting lines the way jsdiff does (an empty line that is not the last
 * one counts as context). Returns the index after the body.
 */
function skipHunkBody(lines: readonly string[], headerIndex: number, file: string): number {
  const header = HUNK_HEADER.exec(lines[headerIndex]!)!;
  let oldLeft = header[2] === undefined ? 1 : Number(header[2]);
  let newLeft = header[4] === undefined ? 1 : Number(header[4]);
  let i = headerIndex + 1;
  while (i < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i]!.startsWith('\\'))) {
    const line = lines[i]!;
    const op = line === '' && i !== lines.length - 1 ? ' ' : line[0];
    if (op === ' ') {
      oldLeft--;
      newLeft--;
    } else if (op === '-') {
      oldLeft--;
    } else if (op === '+') {
      newLeft--;
    } else if (op !== '\\') {
      break;
    }
    i++;
  }
  if (oldLeft !== 0 || newLeft !== 0) {
    invalid(
      `${at(headerIndex + 1, file)}: the hunk's lines do not match its header ${quoteForMessage(header[0])}; ` +
        'make the header counts match the hunk (regenerate the diff rather than editing it by hand)'
    );
  }
  return i;
}

/**
 * Second screen: split the text into file sections, tracking hunk bodies so that a body line such
 * as `--- x` is never read as a header. Lines jsdiff would skip without a word are refused here.
 */
function splitSections(lines: readonly string[]): Section[] {
  const sections: Section[] = [];
  let current: Section | undefined;
  const open = (index: number): Section => {
    if (current) current.end = index;
    current = { line: index + 1, start: index, end: lines.length, newFile: false, deletedFile: false, hunks: 0 };
    sections.push(current);
    return current;
  };
  // For messages only: the name as the diff spells it, without git's b/ when a diff --git line shows it.
  const label = (): string | undefined => {
    const name = current?.newName === DEV_NULL ? current.oldName : (current?.newName ?? current?.git?.new);
    const prefixed = current?.git?.old.startsWith('a/') === true && current.git.new.startsWith('b/');
    return prefixed && name !== undefined && /^[ab]\//.test(name) ? name.slice(2) : name;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const n = i + 1;
    if (line.endsWith('\r')) {
      invalid(`line ${n} ends with a carriage return; save the diff with LF line endings (only hunk lines may end in CR)`);
    }
    if (line.startsWith('diff --git ')) {
      open(i).git = parseGitHeader(line, n);
    } else if (line.startsWith('--- ')) {
      const section = current && current.oldName === undefined && current.hunks === 0 ? current : open(i);
      section.oldName = parseFileName(line, n);
      const next = lines[i + 1];
      if (next === undefined || !next.startsWith('+++ ')) {
        invalid(`line ${n}: the '---' header is not followed by a '+++' header; give each file both headers, as 'git diff' does`);
      }
      section.newName = parseFileName(next, n + 1);
      i += 2;
      continue;
    } else if (line.startsWith('+++ ')) {
      invalid(`line ${n}: a '+++' header without a '---' header before it; give each file both headers, as 'git diff' does`);
    } else if (line.startsWith('@@')) {
      if (!HUNK_HEADER.test(line)) {
        invalid(`${at(n, label())}: malformed hunk header ${quoteForMessage(line, 60)}; hunk headers look like '@@ -12,7 +12,8 @@'`);
      }
      if (current?.oldName === undefined) {
        invalid(`line ${n}: a hunk with no '---'/'+++' file header before it; give each file both headers, as 'git diff' does`);
      }
      current.hunks++;
      i = skipHunkBody(lines, i, label()!);
      continue;
    } else if (/^Index:\s/.test(line) || /^diff(?: -r \w+)+\s/.test(line)) {
      open(i);
    } else if (current !== undefined && /^[-+ \\]/.test(line)) {
      // jsdiff skips such a line, so a reader would see a change that is never applied.
      invalid(`${at(n, label())} looks like a hunk line but lies outside every hunk; make each hunk header's counts match its lines`);
    } else if (current?.git && current.oldName === undefined && current.hunks === 0) {
      if (line.startsWith('new file mode ')) current.newFile = true;
      if (line.startsWith('deleted file mode ')) current.deletedFile = true;
    }
    i++;
  }
  return sections;
}

/** A section's old and new names, prefixes kept: from `---`/`+++`, else from `diff --git`. */
function sectionNames(section: Section): [string, string] {
  const oldRaw = section.oldName ?? section.git?.old;
  const newRaw = section.newName ?? section.git?.new;
  if (oldRaw === undefined || newRaw === undefined) {
    invalid(`line ${section.line}: a file section with no file names; give '---' and '+++' headers, as 'git diff' does`);
  }
  return [oldRaw, newRaw];
}

/** Resolve a section's names into one repository path and an operation. */
function resolveSection(section: Section, gitStyle: boolean): { path: string; op: FileOp } {
  const [oldRaw, newRaw] = sectionNames(section);
  const strip = (name: string, prefix: string): string | undefined => (name === DEV_NULL ? undefined : gitStyle ? name.slice(prefix.length) : name);
  const oldPath = strip(oldRaw, 'a/');
  const newPath = strip(newRaw, 'b/');
  if (oldPath === undefined && newPath === undefined) {
    invalid(`line ${section.line}: both sides are /dev/null; give the file's path on the '---' or '+++' line`);
  }
  for (const path of [oldPath, newPath]) {
    const problem = path === undefined ? undefined : pathProblem(path);
    if (problem) refuse(`${quoteForMessage(path!)} ${problem.reason}; ${problem.fix}`);
  }
  if (oldPath !== undefined && newPath !== undefined && oldPath !== newPath) {
    refuse(
      `${quoteForMessage(oldPath)} becomes ${quoteForMessage(newPath)} (line ${section.line}); renames and copies are not supported, ` +
        'give the old path as a delete and the new one as an add'
    );
  }
  const path = (newPath ?? oldPath)!;
  const where = `${quoteForMessage(path)} (line ${section.line})`;
  if (section.git && section.oldName !== undefined) {
    const agrees = (name: string, gitName: string): boolean => name === DEV_NULL || name === gitName;
    if (!agrees(section.oldName, section.git.old) || !agrees(section.newName!, section.git.new)) {
      invalid(`${where}: the 'diff --git' line and the '---'/'+++' headers name different files; regenerate the diff with 'git diff'`);
    }
  }
  let op: FileOp = oldPath === undefined ? 'add' : newPath === undefined ? 'delete' : 'modify';
  if (op === 'modify' && section.oldName === undefined) {
    // Only a `diff --git` line named the file: git prints that for an empty file added or deleted.
    if (section.newFile) op = 'add';
    if (section.deletedFile) op = 'delete';
  }
  if ((section.newFile && op !== 'add') || (section.deletedFile && op !== 'delete')) {
    invalid(`${where}: 'new file mode'/'deleted file mode' disagree with the '---'/'+++' headers; regenerate the diff with 'git diff'`);
  }
  if (section.hunks === 0 && section.oldName !== undefined) {
    invalid(`${where} has '---'/'+++' headers but no hunks; leave unchanged files out of the diff`);
  }
  if (section.hunks === 0 && op === 'modify') {
    invalid(`${where} changes nothing; leave unchanged files and mode-only changes out of the diff`);
  }
  if (section.hunks > 1 && op !== 'modify') {
    invalid(`${where}: a file that is ${op === 'add' ? 'added' : 'deleted'} must have a single hunk; regenerate the diff with 'git diff'`);
  }
  return { path, op };
}

/** Parse one section with jsdiff and check that it saw what the line scan saw. */
function parseSection(lines: readonly string[], section: Section, path: string, op: FileOp): StructuredPatchHunk[] {
  const where = `${quoteForMessage(path)} (line ${section.line})`;
  let parsed: StructuredPatch[];
  try {
    parsed = parsePatch(`${lines.slice(section.start, section.end).join('\n')}\n`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    invalid(`${where} could not be parsed (${quoteForMessage(reason, 160)}); regenerate the diff with 'git diff'`);
  }
  const indexes = parsed.filter((p) => p.hunks.length > 0 || p.oldFileName !== undefined || p.newFileName !== undefined || p.isGit);
  const patch = indexes[0];
  const namesAgree = section.oldName === undefined || (patch?.oldFileName === section.oldName && patch.newFileName === section.newName);
  if (indexes.length !== 1 || patch!.hunks.length !== section.hunks || !namesAgree) {
    invalid(`${where} could not be read unambiguously; regenerate the diff with 'git diff'`);
  }
  const hunks = patch!.hunks.map((h) => ({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: [...h.lines] }));
  for (const hunk of hunks) {
    const wrong = op === 'add' ? /^[- ]/ : op === 'delete' ? /^[+ ]/ : undefined;
    if (wrong && hunk.lines.some((l) => l === '' || wrong.test(l))) {
      invalid(`${where}: a file that is ${op === 'add' ? 'added may only gain' : 'deleted may only lose'} lines; regenerate the diff with 'git diff'`);
    }
  }
  return hunks;
}

/**
 * Check a unified diff against PatchProof's policy and parse it into one change per file.
 *
 * Takes git diffs (`diff --git`, `a/`/`b/` prefixes, `/dev/null`, `new file mode 100644`,
 * `deleted file mode`, `index` lines) and plain `diff -u` output (timestamps after a tab).
 * Throws `PolicyError`: `policy_violation` for anything refused by policy (size, file count, NUL
 * bytes, binary patches, renames and copies, symlinks, submodules, mode changes, unsafe paths);
 * `patch_invalid` for text that is not a usable unified diff (no file changes, malformed hunks,
 * hunk counts that disagree with their header, one file changed twice).
 */
export function checkDiff(text: string, limits: DiffLimits = DEFAULT_DIFF_LIMITS): FileChange[] {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) {
    refuse(`it is ${bytes} bytes, more than the limit of ${limits.maxBytes}; send a smaller diff or raise the size limit`);
  }
  const nul = text.indexOf('\0');
  if (nul !== -1) {
    const line = text.slice(0, nul).split('\n').length;
    refuse(`line ${line} contains a NUL byte; binary content is not supported, leave binary files out of the diff`);
  }
  if (LONE_SURROGATE.test(text)) {
    invalid('the text holds an unpaired UTF-16 surrogate, so it is not valid Unicode; send the diff as UTF-8 text');
  }
  const lines = text.split('\n');
  screenExtendedHeaders(lines);
  const sections = splitSections(lines);
  if (sections.length === 0) {
    invalid("it changes no files; give a unified diff with '---'/'+++' file headers, as 'git diff' prints");
  }
  if (sections.length > limits.maxFiles) {
    refuse(`it changes ${sections.length} files, more than the limit of ${limits.maxFiles}; split the change or raise the file limit`);
  }
  const names = sections.map(sectionNames);
  // Prefixes are stripped only when every file carries them: a plain diff may really have an a/ directory.
  const gitStyle = names.every(([o, n]) => (o === DEV_NULL || o.startsWith('a/')) && (n === DEV_NULL || n.startsWith('b/')));
  const resolved = sections.map((section) => resolveSection(section, gitStyle));
  const seen = new Map<string, number>();
  resolved.forEach(({ path }, index) => {
    const first = seen.get(path);
    if (first !== undefined) {
      invalid(`${quoteForMessage(path)} is changed twice (lines ${first} and ${sections[index]!.line}); give one section per file`);
    }
    seen.set(path, sections[index]!.line);
  });
  return resolved.map(({ path, op }, index) => ({ path, op, hunks: parseSection(lines, sections[index]!, path, op) }));
}
