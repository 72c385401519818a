import { applyPatch, type StructuredPatchHunk } from 'diff';
import { PolicyError } from '../errors.js';
import { checkRepoPath, quoteForMessage, type FileChange } from './diff-policy.js';

/**
 * Exact patch application: every hunk must match the file at the very line its header names, with
 * no offset, no fuzz and no line-ending conversion, so one diff and one base tree give exactly one
 * result. Pure: the caller supplies the base files through `read`.
 *
 * jsdiff's `applyPatch` does the work, with `fuzzFactor: 0` and `autoConvertLineEndings: false`.
 * Even then it looks for a hunk above and below the line its header names, and it reads
 * "\ No newline at end of file" only in the last hunk, so each hunk is checked first against the
 * file, and the result is checked against an exact splice of the hunks.
 */

/** A file as lines without their `\n`, and whether the last line ends with one. */
interface Text {
  lines: string[];
  /** True when the last line ends with `\n`; true for an empty file too. */
  eol: boolean;
}

/** One hunk line: its side, its text, and whether "\ No newline at end of file" follows it. */
interface HunkLine {
  op: ' ' | '-' | '+';
  text: string;
  noEol: boolean;
}

function toText(content: string): Text {
  if (content === '') return { lines: [], eol: true };
  const lines = content.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
    return { lines, eol: true };
  }
  return { lines, eol: false };
}

function fromText(text: Text): string {
  return text.lines.length === 0 ? '' : text.lines.join('\n') + (text.eol ? '\n' : '');
}

function fail(message: string): never {
  throw new PolicyError('patch_invalid', `patch does not apply: ${message}`);
}

const REGENERATE = "regenerate the diff against the base tree with 'git diff'";

/** How messages name a hunk: the file, its number, and its header as the diff wrote it. */
function hunkLabel(path: string, index: number, hunk: StructuredPatchHunk): string {
  // jsdiff moves oldStart/newStart on by one when the count is 0; the diff had the smaller number.
  const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
  const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
  return `${quoteForMessage(path)} hunk ${index + 1} (@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@)`;
}

function hunkLines(hunk: StructuredPatchHunk, label: string): HunkLine[] {
  const result: HunkLine[] = [];
  for (const line of hunk.lines) {
    // jsdiff reads an empty line inside a hunk as an empty context line.
    const op = line === '' ? ' ' : line[0];
    if (op === '\\') {
      const previous = result[result.length - 1];
      if (previous === undefined || previous.noEol) {
        fail(`${label} has a '\\ No newline at end of file' marker that follows no line; ${REGENERATE}`);
      }
      previous.noEol = true;
    } else if (op === ' ' || op === '-' || op === '+') {
      result.push({ op, text: line.slice(1), noEol: false });
    } else {
      fail(`${label} has a line that is not context, '+', '-' or '\\'; ${REGENERATE}`);
    }
  }
  return result;
}

/**
 * Apply hunks by splicing, after checking that each one matches the file exactly where its header
 * says, and that every "\ No newline at end of file" marker is true of the file.
 */
function spliceExactly(path: string, base: Text, hunks: readonly StructuredPatchHunk[]): Text {
  const out: string[] = [];
  let cursor = 0;
  let eol = base.eol;
  hunks.forEach((hunk, index) => {
    const label = hunkLabel(path, index, hunk);
    const lines = hunkLines(hunk, label);
    const oldSide = lines.filter((l) => l.op !== '+');
    const newSide = lines.filter((l) => l.op !== '-');
    const pos = hunk.oldStart - 1;
    if (pos < cursor) {
      fail(`${label} starts before the end of the hunk before it; ${REGENERATE}`);
    }
    if (pos + oldSide.length > base.lines.length) {
      fail(`${label} reaches past the end of the file, which has ${base.lines.length} lines; ${REGENERATE}`);
    }
    oldSide.forEach((line, i) => {
      const actual = base.lines[pos + i]!;
      if (actual !== line.text) {
        fail(`${label} expects ${quoteForMessage(line.text, 60)} at line ${pos + i + 1} but the file has ${quoteForMessage(actual, 60)}; ${REGENERATE}`);
      }
    });
    const touchesEnd = pos + oldSide.length === base.lines.length;
    const isLast = index === hunks.length - 1;
    if (oldSide.slice(0, -1).some((l) => l.noEol) || newSide.slice(0, -1).some((l) => l.noEol)) {
      fail(`${label} has '\\ No newline at end of file' after a line that is not the last; ${REGENERATE}`);
    }
    if (oldSide[oldSide.length - 1]?.noEol === true && (!touchesEnd || base.eol)) {
      fail(
        `${label} says line ${pos + oldSide.length} has no newline at end of file, but ${touchesEnd ? 'the file ends with a newline' : 'it is not the last line'}; ${REGENERATE}`
      );
    }
    if (oldSide[oldSide.length - 1]?.noEol !== true && touchesEnd && base.lines.length > 0 && !base.eol) {
      fail(`${label}: the file's last line has no newline at end of file, but the hunk does not say '\\ No newline at end of file'; ${REGENERATE}`);
    }
    const newNoEol = newSide[newSide.length - 1]?.noEol === true;
    if (newNoEol && !(isLast && touchesEnd)) {
      fail(`${label} ends the new file without a newline but is not at the end of the file; ${REGENERATE}`);
    }
    out.push(...base.lines.slice(cursor, pos), ...newSide.map((l) => l.text));
    cursor = pos + oldSide.length;
    if (touchesEnd) eol = !newNoEol;
  });
  out.push(...base.lines.slice(cursor));
  return { lines: out, eol };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decode(path: string, content: Buffer): string {
  try {
    // ignoreBOM keeps a byte-order mark in the text, so it survives into the patched file.
    return utf8.decode(content);
  } catch {
    fail(`${quoteForMessage(path)} is not valid UTF-8 text; only UTF-8 text files can be patched, leave it out of the diff`);
  }
}

/** Apply one change to one file's text, exactly, and check jsdiff and the splice agree. */
function applyOne(change: FileChange, source: string): string {
  const expected = fromText(spliceExactly(change.path, toText(source), change.hunks));
  const patch = {
    oldFileName: change.path,
    newFileName: change.path,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: change.hunks.map((h) => ({ ...h, lines: [...h.lines] }))
  };
  const applied = applyPatch(source, patch, { fuzzFactor: 0, autoConvertLineEndings: false });
  if (applied === false || applied !== expected) {
    fail(`${quoteForMessage(change.path)} does not patch to one exact result; ${REGENERATE}`);
  }
  return applied;
}

/**
 * Apply checked file changes to a base tree, exactly. `read` returns a base file's bytes, or
 * `undefined` when there is no such file. Returns each changed path's new UTF-8 content, or `null`
 * for a deleted file.
 *
 * Throws `PolicyError('patch_invalid')` naming the file (and hunk) when a hunk does not match the
 * file exactly where its header says, an add targets an existing file, a modify or delete targets a
 * missing one, a delete does not remove the whole file, or a target file is not valid UTF-8.
 */
export function applyFileChanges(read: (path: string) => Buffer | undefined, changes: readonly FileChange[]): Map<string, Buffer | null> {
  const result = new Map<string, Buffer | null>();
  for (const change of changes) {
    const problem = checkRepoPath(change.path);
    if (problem !== undefined) {
      throw new PolicyError('policy_violation', `diff refused: ${quoteForMessage(change.path)} ${problem}`);
    }
    if (result.has(change.path)) {
      fail(`${quoteForMessage(change.path)} is changed twice; give one section per file`);
    }
    const current = read(change.path);
    const name = quoteForMessage(change.path);
    if (change.op === 'add') {
      if (current !== undefined) {
        fail(`${name} is added but already exists in the base tree; change it as a modification instead`);
      }
      result.set(change.path, Buffer.from(applyOne(change, ''), 'utf8'));
      continue;
    }
    if (current === undefined) {
      fail(`${name} is ${change.op === 'delete' ? 'deleted' : 'modified'} but does not exist in the base tree; add a new file with '--- /dev/null'`);
    }
    const patched = applyOne(change, decode(change.path, current));
    if (change.op === 'modify') {
      result.set(change.path, Buffer.from(patched, 'utf8'));
    } else if (patched !== '') {
      fail(`${name} is deleted, but its hunks do not remove all of its content exactly; ${REGENERATE}`);
    } else {
      result.set(change.path, null);
    }
  }
  return result;
}

/** What a base tree holds at a path, as far as `checkTargets` needs to know. */
export type TreeKind = 'file' | 'symlink';

/**
 * Refuse changes that would write through a link or clash with the tree's shape: a change to a
 * symlink itself or beneath a path that is a symlink (writing there would follow the link out of
 * the copy), a file beneath a path that is a file, and a file added where a folder is.
 */
export function checkTargets(changes: readonly FileChange[], tree: ReadonlyMap<string, TreeKind>): void {
  const folders = new Set<string>();
  for (const path of tree.keys()) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  for (const change of changes) {
    const parts = change.path.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      const kind = tree.get(prefix);
      if (kind === 'symlink') {
        throw new PolicyError(
          'policy_violation',
          `diff refused: ${quoteForMessage(change.path)} ${i === parts.length ? 'is' : 'lies beneath'} the symlink ${quoteForMessage(prefix)}; change regular files only`
        );
      }
      if (kind === 'file' && i < parts.length) {
        throw new PolicyError('patch_invalid', `diff refused: ${quoteForMessage(change.path)} lies beneath the file ${quoteForMessage(prefix)}; the diff does not fit this tree`);
      }
    }
    if (change.op === 'add' && folders.has(change.path)) {
      throw new PolicyError('patch_invalid', `diff refused: ${quoteForMessage(change.path)} is a folder in the base tree; the diff does not fit this tree`);
    }
  }
}
