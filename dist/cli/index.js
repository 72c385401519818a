#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ // The require scope
/******/ var __nccwpck_require__ = {};
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

;// CONCATENATED MODULE: ./src/version.ts
/** The tool version recorded in every proposal, approval and receipt. Kept equal to package.json. */
const TOOL_VERSION = '0.1.0';

;// CONCATENATED MODULE: ./node_modules/diff/libesm/patch/parse.js
/**
 * Parses a unified diff format patch into a structured patch object.
 *
 * `parsePatch` has some understanding of Git's particular dialect of unified diff format.
 * When parsing a Git patch, each index in the result may contain additional
 * fields (`isRename`, `isBinary`, etc) not included in the data structure returned by
 * `structuredPatch`; see the `StructuredPatch` interface for a full list.
 *
 * @return a JSON object representation of the patch, suitable for use with the `applyPatch`
 * method. This parses to the same structure returned by `structuredPatch`, except that
 * `oldFileName` and `newFileName` may be `undefined` if the patch doesn't contain enough
 * information to determine them (e.g. a hunk-only patch with no file headers).
 */
function parse_parsePatch(uniDiff) {
    const diffstr = uniDiff.split(/\n/), list = [];
    let i = 0;
    // These helper functions identify line types that can appear between files
    // in a multi-file patch. Keeping them in one place avoids subtle
    // inconsistencies from having the same regexes duplicated in multiple places.
    // Matches `diff --git ...` lines specifically.
    function isGitDiffHeader(line) {
        return (/^diff --git /).test(line);
    }
    // Matches lines that denote the start of a new diff's section in a
    // multi-file patch: `diff --git ...`, `Index: ...`, or `diff -r ...`.
    function isDiffHeader(line) {
        return isGitDiffHeader(line)
            || (/^Index:\s/).test(line)
            || (/^diff(?: -r \w+)+\s/).test(line);
    }
    // Matches `--- ...` and `+++ ...` file header lines.
    function isFileHeader(line) {
        return (/^(---|\+\+\+)\s/).test(line);
    }
    // Matches `@@ ...` hunk header lines.
    function isHunkHeader(line) {
        return (/^@@\s/).test(line);
    }
    function parseIndex() {
        var _a;
        const index = {};
        index.hunks = [];
        list.push(index);
        // Parse diff metadata
        let seenDiffHeader = false;
        while (i < diffstr.length) {
            const line = diffstr[i];
            // File header (---, +++) or hunk header (@@) found; end parsing diff metadata
            if (isFileHeader(line) || isHunkHeader(line)) {
                break;
            }
            // The next two branches handle recognized diff headers. Note that
            // isDiffHeader deliberately does NOT match arbitrary `diff`
            // commands like `diff -u -p -r1.1 -r1.2`, because in some
            // formats (e.g. CVS diffs) such lines appear as metadata within
            // a single file's header section, after an `Index:` line. See the
            // diffx documentation (https://diffx.org) for examples.
            //
            // In both branches: if we've already seen a diff header for *this*
            // file and now we encounter another one, it must belong to the
            // next file, so break.
            if (isGitDiffHeader(line)) {
                if (seenDiffHeader) {
                    return;
                }
                seenDiffHeader = true;
                index.isGit = true;
                // Parse the old and new filenames from the `diff --git` header and
                // tentatively set oldFileName and newFileName from them. These may
                // be overridden below by `rename from` / `rename to` or `copy from` /
                // `copy to` extended headers, or by --- and +++ lines. But for Git
                // diffs that lack all of those (e.g. mode-only changes, binary
                // file changes without rename), these are the only filenames we
                // get.
                // parseGitDiffHeader returns null if the header can't be parsed
                // (e.g. unterminated quoted filename, or unexpected format). In
                // that case we skip setting filenames here; they may still be
                // set from --- / +++ or rename from / rename to lines below.
                const paths = parseGitDiffHeader(line);
                if (paths) {
                    index.oldFileName = paths.oldFileName;
                    index.newFileName = paths.newFileName;
                }
                // Consume Git extended headers (`old mode`, `new mode`, `rename from`,
                // `rename to`, `similarity index`, `index`, `Binary files ... differ`,
                // etc.)
                i++;
                while (i < diffstr.length) {
                    const extLine = diffstr[i];
                    // Stop consuming extended headers if we hit a file header,
                    // hunk header, or another diff header.
                    if (isFileHeader(extLine) || isHunkHeader(extLine) || isDiffHeader(extLine)) {
                        break;
                    }
                    // Parse `rename from` / `rename to` lines - these give us
                    // unambiguous filenames. These lines don't include the
                    // a/ and b/ prefixes that appear in the `diff --git` header
                    // and --- / +++ lines, so we add them for consistency.
                    // Git C-style quotes filenames containing special characters
                    // (tabs, newlines, backslashes, double quotes), so we must
                    // unquote them when present.
                    const renameFromMatch = (/^rename from (.*)/).exec(extLine);
                    if (renameFromMatch) {
                        index.oldFileName = 'a/' + unquoteIfQuoted(renameFromMatch[1]);
                        index.isRename = true;
                    }
                    const renameToMatch = (/^rename to (.*)/).exec(extLine);
                    if (renameToMatch) {
                        index.newFileName = 'b/' + unquoteIfQuoted(renameToMatch[1]);
                        index.isRename = true;
                    }
                    // Parse copy from / copy to lines similarly
                    const copyFromMatch = (/^copy from (.*)/).exec(extLine);
                    if (copyFromMatch) {
                        index.oldFileName = 'a/' + unquoteIfQuoted(copyFromMatch[1]);
                        index.isCopy = true;
                    }
                    const copyToMatch = (/^copy to (.*)/).exec(extLine);
                    if (copyToMatch) {
                        index.newFileName = 'b/' + unquoteIfQuoted(copyToMatch[1]);
                        index.isCopy = true;
                    }
                    const newFileModeMatch = (/^new file mode (\d+)/).exec(extLine);
                    if (newFileModeMatch) {
                        index.isCreate = true;
                        index.newMode = newFileModeMatch[1];
                    }
                    const deletedFileModeMatch = (/^deleted file mode (\d+)/).exec(extLine);
                    if (deletedFileModeMatch) {
                        index.isDelete = true;
                        index.oldMode = deletedFileModeMatch[1];
                    }
                    const oldModeMatch = (/^old mode (\d+)/).exec(extLine);
                    if (oldModeMatch) {
                        index.oldMode = oldModeMatch[1];
                    }
                    const newModeMatch = (/^new mode (\d+)/).exec(extLine);
                    if (newModeMatch) {
                        index.newMode = newModeMatch[1];
                    }
                    if ((/^Binary files /).test(extLine)) {
                        index.isBinary = true;
                    }
                    i++;
                }
                continue;
            }
            else if (isDiffHeader(line)) {
                if (seenDiffHeader) {
                    return;
                }
                seenDiffHeader = true;
                // For Mercurial-style headers like
                //     diff -r 9117c6561b0b -r 273ce12ad8f1 .hgignore
                // or Index: headers like
                //     Index: something with multiple words
                // we extract the trailing filename as the index.
                //
                // TODO: It seems awkward that we indiscriminately trim off
                //       trailing whitespace here. Theoretically, couldn't that
                //       be meaningful - e.g. if the patch represents a diff of a
                //       file whose name ends with a space? Seems wrong to nuke
                //       it. But this behaviour has been around since v2.2.1 in
                //       2015, so if it's going to change, it should be done
                //       cautiously and in a new major release, for
                //       backwards-compat reasons.
                //       -- ExplodingCabbage
                const headerMatch = (/^(?:Index:|diff(?: -r \w+)+)\s+/).exec(line);
                if (headerMatch) {
                    index.index = line.substring(headerMatch[0].length).trim();
                }
            }
            i++;
        }
        // Parse file headers if they are defined. Unified diff requires them, but
        // there's no technical issues to have an isolated hunk without file header
        parseFileHeader(index);
        parseFileHeader(index);
        // If we got one file header but not the other, that's a malformed patch.
        if ((index.oldFileName === undefined) !== (index.newFileName === undefined)) {
            throw new Error('Missing ' + (index.oldFileName !== undefined ? '"+++ ..."' : '"--- ..."')
                + ' file header for ' + ((_a = index.oldFileName) !== null && _a !== void 0 ? _a : index.newFileName));
        }
        while (i < diffstr.length) {
            const line = diffstr[i];
            if (isDiffHeader(line) || isFileHeader(line) || (/^===================================================================/).test(line)) {
                break;
            }
            else if (isHunkHeader(line)) {
                index.hunks.push(parseHunk());
            }
            else {
                // Skip blank lines and any other unrecognized content between
                // or after hunks. Real-world examples of such content include:
                //   - `Only in <dir>: <file>` from GNU `diff -r`
                //   - `Property changes on:` sections from `svn diff`
                //   - Trailing prose or commentary in email patches
                // GNU `patch` tolerates all of these, and so do we.
                i++;
            }
        }
    }
    /**
     * Parses the old and new filenames from a `diff --git` header line.
     *
     * The format is:
     *     diff --git a/<old-path> b/<new-path>
     *
     * When filenames contain special characters (including newlines, tabs,
     * backslashes, or double quotes), Git quotes them with C-style escaping:
     *     diff --git "a/file\twith\ttabs.txt" "b/file\twith\ttabs.txt"
     *
     * When filenames don't contain special characters and the old and new names
     * are the same, we can unambiguously split on ` b/` by finding where the
     * two halves (including their a/ and b/ prefixes) yield matching bare names.
     *
     * A pathological case exists in which we cannot reliably determine the paths
     * from the `diff --git` header. This case is when the following are true:
     * - the old and new file paths differ
     * - they are both unquoted (i.e. contain no special characters)
     * - at least one of the underlying file paths includes the substring ` b/`
     * In this scenario, we do not know which occurrence of ` b/` indicates the
     * start of the new file path, so the header is inherently ambiguous. We thus
     * select a possible interpretation arbitrarily and return that.
     *
     * Fortunately, this ambiguity should never matter, because in any patch
     * genuinely output by Git in which this pathological scenario occurs, there
     * must also be `rename from`/`rename to` or `copy from`/`copy to` extended
     * headers present below the `diff --git` header. `parseIndex` will parse
     * THOSE headers, from which we CAN unambiguously determine the filenames,
     * and will discard the result returned by this function.
     *
     * Returns null if the header can't be parsed at all — e.g. a quoted filename
     * has an unterminated quote, or if the unquoted header doesn't match the
     * expected `a/... b/...` format. In that case, the caller (parseIndex)
     * skips setting oldFileName/newFileName from this header, but they may
     * still be set later from `---`/`+++` lines or `rename from`/`rename to`
     * extended headers; if none of those are present either, they'll remain
     * undefined in the output.
     */
    function parseGitDiffHeader(line) {
        // Strip the "diff --git " prefix
        const rest = line.substring('diff --git '.length);
        // Handle quoted paths: "a/path" "b/path"
        // Git quotes paths when they contain characters like newlines, tabs,
        // backslashes, or double quotes (but notably not spaces).
        if (rest.startsWith('"')) {
            const oldPath = parseQuotedFileName(rest);
            if (oldPath === null) {
                return null;
            }
            const afterOld = rest.substring(oldPath.rawLength + 1); // +1 for space
            let newFileName;
            if (afterOld.startsWith('"')) {
                const newPath = parseQuotedFileName(afterOld);
                if (newPath === null) {
                    return null;
                }
                newFileName = newPath.fileName;
            }
            else {
                newFileName = afterOld;
            }
            return {
                oldFileName: oldPath.fileName,
                newFileName
            };
        }
        // Check if the second path is quoted
        // e.g. diff --git a/simple "b/renamed\nnewline.txt"
        const quoteIdx = rest.indexOf('"');
        if (quoteIdx > 0) {
            const oldFileName = rest.substring(0, quoteIdx - 1);
            const newPath = parseQuotedFileName(rest.substring(quoteIdx));
            if (newPath === null) {
                return null;
            }
            return {
                oldFileName,
                newFileName: newPath.fileName
            };
        }
        // Unquoted paths. Try to find the split point.
        // The format is: a/<old-path> b/<new-path>
        //
        // Note the potential ambiguity caused by the possibility of the file paths
        // themselves containing the substring ` b/`, plus the pathological case
        // described in the comment above.
        //
        // Strategy: find all occurrences of " b/" and split on the middle
        // one. When old and new names are the same (which is the only case where
        // we can't rely on extended headers later in the patch so HAVE to get
        // this right), this will always be the correct split.
        if (rest.startsWith('a/')) {
            const splits = [];
            let idx = 0;
            while (true) {
                idx = rest.indexOf(' b/', idx + 1);
                if (idx === -1) {
                    break;
                }
                splits.push(idx);
            }
            if (splits.length > 0) {
                const mid = splits[Math.floor(splits.length / 2)];
                return {
                    oldFileName: rest.substring(0, mid),
                    newFileName: rest.substring(mid + 1)
                };
            }
        }
        // Fallback: can't parse, return null
        return null;
    }
    /**
     * If `s` starts with a double quote, unquotes it using C-style escape
     * rules (as used by Git). Otherwise returns `s` as-is.
     */
    function unquoteIfQuoted(s) {
        if (s.startsWith('"')) {
            const parsed = parseQuotedFileName(s);
            if (parsed) {
                return parsed.fileName;
            }
        }
        return s;
    }
    /**
     * Parses a C-style quoted filename as used by Git or GNU `diff -u`.
     * Returns the unescaped filename and the raw length consumed (including quotes).
     */
    function parseQuotedFileName(s) {
        if (!s.startsWith('"')) {
            return null;
        }
        let result = '';
        let j = 1; // skip opening quote
        while (j < s.length) {
            if (s[j] === '"') {
                return { fileName: result, rawLength: j + 1 };
            }
            if (s[j] === '\\' && j + 1 < s.length) {
                j++;
                switch (s[j]) {
                    case 'a':
                        result += '\x07';
                        break;
                    case 'b':
                        result += '\b';
                        break;
                    case 'f':
                        result += '\f';
                        break;
                    case 'n':
                        result += '\n';
                        break;
                    case 'r':
                        result += '\r';
                        break;
                    case 't':
                        result += '\t';
                        break;
                    case 'v':
                        result += '\v';
                        break;
                    case '\\':
                        result += '\\';
                        break;
                    case '"':
                        result += '"';
                        break;
                    case '0':
                    case '1':
                    case '2':
                    case '3':
                    case '4':
                    case '5':
                    case '6':
                    case '7': {
                        // C-style octal escapes represent raw bytes. Collect
                        // consecutive octal-escaped bytes and decode as UTF-8.
                        // Validate that we have a full 3-digit octal escape
                        if (j + 2 >= s.length || s[j + 1] < '0' || s[j + 1] > '7' || s[j + 2] < '0' || s[j + 2] > '7') {
                            return null;
                        }
                        const bytes = [parseInt(s.substring(j, j + 3), 8)];
                        j += 3;
                        while (s[j] === '\\' && s[j + 1] >= '0' && s[j + 1] <= '7') {
                            if (j + 3 >= s.length || s[j + 2] < '0' || s[j + 2] > '7' || s[j + 3] < '0' || s[j + 3] > '7') {
                                return null;
                            }
                            bytes.push(parseInt(s.substring(j + 1, j + 4), 8));
                            j += 4;
                        }
                        result += new TextDecoder('utf-8').decode(new Uint8Array(bytes));
                        continue; // j already points at the next character
                    }
                    // Note that in C, there are also three kinds of hex escape sequences:
                    // - \xhh
                    // - \uhhhh
                    // - \Uhhhhhhhh
                    // We do not bother to parse them here because, so far as we know,
                    // they are never emitted by any tools that generate unified diff
                    // format diffs, and so for now jsdiff does not consider them legal.
                    default: return null;
                }
            }
            else {
                result += s[j];
            }
            j++;
        }
        // Unterminated quote
        return null;
    }
    // Parses the --- and +++ headers, if none are found, no lines
    // are consumed.
    function parseFileHeader(index) {
        const fileHeaderMatch = (/^(---|\+\+\+)\s+/).exec(diffstr[i]);
        if (fileHeaderMatch) {
            const prefix = fileHeaderMatch[1], data = diffstr[i].substring(3).trim().split('\t', 2), header = (data[1] || '').trim();
            let fileName = data[0];
            if (fileName.startsWith('"')) {
                fileName = unquoteIfQuoted(fileName);
            }
            else {
                fileName = fileName.replace(/\\\\/g, '\\');
            }
            if (prefix === '---') {
                index.oldFileName = fileName;
                index.oldHeader = header;
            }
            else {
                index.newFileName = fileName;
                index.newHeader = header;
            }
            i++;
        }
    }
    // Parses a hunk
    // This assumes that we are at the start of a hunk.
    function parseHunk() {
        var _a;
        const chunkHeaderIndex = i, chunkHeaderLine = diffstr[i++], chunkHeader = chunkHeaderLine.split(/@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/);
        const hunk = {
            oldStart: +chunkHeader[1],
            oldLines: typeof chunkHeader[2] === 'undefined' ? 1 : +chunkHeader[2],
            newStart: +chunkHeader[3],
            newLines: typeof chunkHeader[4] === 'undefined' ? 1 : +chunkHeader[4],
            lines: []
        };
        // Unified Diff Format quirk: If the chunk size is 0,
        // the first number is one lower than one would expect.
        // https://www.artima.com/weblogs/viewpost.jsp?thread=164293
        if (hunk.oldLines === 0) {
            hunk.oldStart += 1;
        }
        if (hunk.newLines === 0) {
            hunk.newStart += 1;
        }
        let addCount = 0, removeCount = 0;
        for (; i < diffstr.length && (removeCount < hunk.oldLines || addCount < hunk.newLines || ((_a = diffstr[i]) === null || _a === void 0 ? void 0 : _a.startsWith('\\'))); i++) {
            const operation = (diffstr[i].length == 0 && i != (diffstr.length - 1)) ? ' ' : diffstr[i][0];
            if (operation === '+' || operation === '-' || operation === ' ' || operation === '\\') {
                hunk.lines.push(diffstr[i]);
                if (operation === '+') {
                    addCount++;
                }
                else if (operation === '-') {
                    removeCount++;
                }
                else if (operation === ' ') {
                    addCount++;
                    removeCount++;
                }
            }
            else {
                throw new Error(`Hunk at line ${chunkHeaderIndex + 1} contained invalid line ${diffstr[i]}`);
            }
        }
        // Handle the empty block count case
        if (!addCount && hunk.newLines === 1) {
            hunk.newLines = 0;
        }
        if (!removeCount && hunk.oldLines === 1) {
            hunk.oldLines = 0;
        }
        // Perform sanity checking
        if (addCount !== hunk.newLines) {
            throw new Error('Added line count did not match for hunk at line ' + (chunkHeaderIndex + 1));
        }
        if (removeCount !== hunk.oldLines) {
            throw new Error('Removed line count did not match for hunk at line ' + (chunkHeaderIndex + 1));
        }
        // Check for extra hunk-body-like lines after the declared line counts
        // were exhausted. If the very next line starts with ' ', '+', or '-',
        // the hunk's line counts were probably wrong — unless it's a file
        // header (--- or +++), which legitimately appears immediately after a
        // hunk in multi-file diffs without Index lines.
        if (i < diffstr.length && diffstr[i] && (/^[+ -]/).test(diffstr[i])
            && !isFileHeader(diffstr[i])) {
            throw new Error('Hunk at line ' + (chunkHeaderIndex + 1)
                + ' has more lines than expected (expected '
                + hunk.oldLines + ' old lines and ' + hunk.newLines + ' new lines)');
        }
        return hunk;
    }
    while (i < diffstr.length) {
        parseIndex();
    }
    return list;
}

;// CONCATENATED MODULE: ./src/errors.ts
/**
 * Typed errors. Everything below `run()` throws one of these; only the entry point turns them into
 * an exit code or a step outcome.
 */
/** The user gave something malformed or missing: a flag, a file, a path. */
class ConfigurationError extends Error {
    code = 'bad_input';
    constructor(message) {
        super(message);
        this.name = 'ConfigurationError';
    }
}
/** A refusal before anything ran: the diff breaks policy, or does not apply. */
class PolicyError extends Error {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
        this.name = 'PolicyError';
    }
}
/** A digest or binding did not match: the proposal, approval, snapshot or witness was not the one bound. */
class VerificationError extends Error {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
        this.name = 'VerificationError';
    }
}
/** Docker, git, the file system or the network failed: never the candidate's fault, never a pass. */
class InfrastructureError extends Error {
    constructor(message, options) {
        super(message, options);
        this.name = 'InfrastructureError';
    }
}
/** Refusals (exit 2) are the errors a user can fix by changing the input. */
function isRefusal(error) {
    return error instanceof ConfigurationError || error instanceof PolicyError || error instanceof VerificationError;
}

;// CONCATENATED MODULE: ./src/core/diff-policy.ts


/** The limits used when none are given: 1 MiB (1,048,576 bytes) and 200 files. */
const DEFAULT_DIFF_LIMITS = Object.freeze({ maxBytes: 1024 * 1024, maxFiles: 200 });
const DEV_NULL = '/dev/null';
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function pathProblem(path) {
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
    if (parts[0].toLowerCase() === '.patchproof') {
        return { reason: "is under '.patchproof/', which PatchProof reserves for itself", fix: 'put the file somewhere else' };
    }
    return undefined;
}
/**
 * Check one repository-relative path. Returns why it is refused, or `undefined` when it is fine.
 * Refused: empty, absolute (`/x`, `C:x`), control characters, backslashes, `..`, `.` or empty
 * components, any `.git` component and a first component `.patchproof` (both case-insensitive).
 */
function checkRepoPath(path) {
    return pathProblem(path)?.reason;
}
/**
 * Quote text for a one-line message: single quotes, control and line-separator characters escaped,
 * long text shortened.
 */
function quoteForMessage(text, max = 120) {
    const short = text.length > max ? `${text.slice(0, max)}…` : text;
    const escaped = short.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return `'${escaped}'`;
}
function refuse(message) {
    throw new PolicyError('policy_violation', `diff refused: ${message}`);
}
function invalid(message) {
    throw new PolicyError('patch_invalid', `diff invalid: ${message}`);
}
/** Where a line is, for messages: the file it belongs to when known, and its line number. */
function at(line, file) {
    return file === undefined ? `line ${line}` : `${quoteForMessage(file)} (line ${line})`;
}
/**
 * The file a `diff --git` line names, best effort, for messages only: the new side, split where
 * the line names one path twice, else at the last ' b/'.
 */
function gitHeaderLabel(line) {
    const rest = line.slice('diff --git '.length);
    const half = (rest.length - 1) / 2;
    const split = Number.isInteger(half) && rest[half] === ' ' ? half : rest.lastIndexOf(' b/');
    const second = split === -1 ? rest : rest.slice(split + 1);
    return second.startsWith('b/') ? second.slice(2) : second;
}
function modeKind(mode) {
    if (mode === '120000')
        return 'a symbolic link';
    if (mode === '160000')
        return 'a submodule';
    return undefined;
}
/**
 * First screen, over every line: git extended headers jsdiff would accept or skip silently. No
 * hunk line can match these (hunk lines start with ' ', '+', '-' or '\'), so no hunk tracking is
 * needed here.
 */
function screenExtendedHeaders(lines) {
    let file;
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
            refuse(`${at(n, file)} is ${what} (${quoteForMessage(line, 60)}); renames and copies are not supported, ` +
                'give the old path as a delete and the new one as an add (git diff --no-renames)');
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
// Git quotes a name that holds a control character, '"' or '\\' (and, by default, non-ASCII), so a
// '"' in a header means a quoted name or a name git itself would have quoted.
function quotedRefusal(n, text) {
    refuse(`line ${n} names a git-quoted path (${quoteForMessage(text, 80)}); rename files whose names hold control characters, '"' or '\\', ` +
        "and make a diff with non-ASCII names with 'git -c core.quotePath=false diff'");
}
function parseGitHeader(line, n) {
    const rest = line.slice('diff --git '.length);
    if (rest.includes('"'))
        quotedRefusal(n, rest);
    const half = (rest.length - 1) / 2;
    if (Number.isInteger(half) && rest[half] === ' ') {
        const old = rest.slice(0, half);
        const neu = rest.slice(half + 1);
        if (old === neu || (old.startsWith('a/') && neu.startsWith('b/') && old.slice(2) === neu.slice(2))) {
            return { old, new: neu };
        }
    }
    refuse(`line ${n} (${quoteForMessage(line, 80)}) does not name the same file twice; renames and copies are not supported, ` +
        'give the old path as a delete and the new one as an add');
}
/** The file name on a `---` or `+++` line: what comes before the first tab (a timestamp may follow). */
function parseFileName(line, n) {
    const rest = line.slice(4);
    const tab = rest.indexOf('\t');
    const name = tab === -1 ? rest : rest.slice(0, tab);
    if (name.includes('"'))
        quotedRefusal(n, name);
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
function skipHunkBody(lines, headerIndex, file) {
    const header = HUNK_HEADER.exec(lines[headerIndex]);
    let oldLeft = header[2] === undefined ? 1 : Number(header[2]);
    let newLeft = header[4] === undefined ? 1 : Number(header[4]);
    let i = headerIndex + 1;
    while (i < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i].startsWith('\\'))) {
        const line = lines[i];
        const op = line === '' && i !== lines.length - 1 ? ' ' : line[0];
        if (op === ' ') {
            oldLeft--;
            newLeft--;
        }
        else if (op === '-') {
            oldLeft--;
        }
        else if (op === '+') {
            newLeft--;
        }
        else if (op !== '\\') {
            break;
        }
        i++;
    }
    if (oldLeft !== 0 || newLeft !== 0) {
        invalid(`${at(headerIndex + 1, file)}: the hunk's lines do not match its header ${quoteForMessage(header[0])}; ` +
            'make the header counts match the hunk (regenerate the diff rather than editing it by hand)');
    }
    return i;
}
/**
 * Second screen: split the text into file sections, tracking hunk bodies so that a body line such
 * as `--- x` is never read as a header. Lines jsdiff would skip without a word are refused here.
 */
function splitSections(lines) {
    const sections = [];
    let current;
    const open = (index) => {
        if (current)
            current.end = index;
        current = { line: index + 1, start: index, end: lines.length, newFile: false, deletedFile: false, hunks: 0 };
        sections.push(current);
        return current;
    };
    // For messages only: the name as the diff spells it, without git's b/ when a diff --git line shows it.
    const label = () => {
        const name = current?.newName === DEV_NULL ? current.oldName : (current?.newName ?? current?.git?.new);
        const prefixed = current?.git?.old.startsWith('a/') === true && current.git.new.startsWith('b/');
        return prefixed && name !== undefined && /^[ab]\//.test(name) ? name.slice(2) : name;
    };
    let i = 0;
    while (i < lines.length) {
        const line = lines[i];
        const n = i + 1;
        if (line.endsWith('\r')) {
            invalid(`line ${n} ends with a carriage return; save the diff with LF line endings (only hunk lines may end in CR)`);
        }
        if (line.startsWith('diff --git ')) {
            open(i).git = parseGitHeader(line, n);
        }
        else if (line.startsWith('--- ')) {
            const section = current && current.oldName === undefined && current.hunks === 0 ? current : open(i);
            section.oldName = parseFileName(line, n);
            const next = lines[i + 1];
            if (next === undefined || !next.startsWith('+++ ')) {
                invalid(`line ${n}: the '---' header is not followed by a '+++' header; give each file both headers, as 'git diff' does`);
            }
            section.newName = parseFileName(next, n + 1);
            i += 2;
            continue;
        }
        else if (line.startsWith('+++ ')) {
            invalid(`line ${n}: a '+++' header without a '---' header before it; give each file both headers, as 'git diff' does`);
        }
        else if (line.startsWith('@@')) {
            if (!HUNK_HEADER.test(line)) {
                invalid(`${at(n, label())}: malformed hunk header ${quoteForMessage(line, 60)}; hunk headers look like '@@ -12,7 +12,8 @@'`);
            }
            if (current?.oldName === undefined) {
                invalid(`line ${n}: a hunk with no '---'/'+++' file header before it; give each file both headers, as 'git diff' does`);
            }
            current.hunks++;
            i = skipHunkBody(lines, i, label());
            continue;
        }
        else if (/^Index:\s/.test(line) || /^diff(?: -r \w+)+\s/.test(line)) {
            open(i);
        }
        else if (current !== undefined && /^[-+ \\]/.test(line)) {
            // jsdiff skips such a line, so a reader would see a change that is never applied.
            invalid(`${at(n, label())} looks like a hunk line but lies outside every hunk; make each hunk header's counts match its lines`);
        }
        else if (current?.git && current.oldName === undefined && current.hunks === 0) {
            if (line.startsWith('new file mode '))
                current.newFile = true;
            if (line.startsWith('deleted file mode '))
                current.deletedFile = true;
        }
        i++;
    }
    return sections;
}
/** A section's old and new names, prefixes kept: from `---`/`+++`, else from `diff --git`. */
function sectionNames(section) {
    const oldRaw = section.oldName ?? section.git?.old;
    const newRaw = section.newName ?? section.git?.new;
    if (oldRaw === undefined || newRaw === undefined) {
        invalid(`line ${section.line}: a file section with no file names; give '---' and '+++' headers, as 'git diff' does`);
    }
    return [oldRaw, newRaw];
}
/** Resolve a section's names into one repository path and an operation. */
function resolveSection(section, gitStyle) {
    const [oldRaw, newRaw] = sectionNames(section);
    const strip = (name, prefix) => name === DEV_NULL ? undefined : gitStyle ? name.slice(prefix.length) : name;
    const oldPath = strip(oldRaw, 'a/');
    const newPath = strip(newRaw, 'b/');
    if (oldPath === undefined && newPath === undefined) {
        invalid(`line ${section.line}: both sides are /dev/null; give the file's path on the '---' or '+++' line`);
    }
    for (const path of [oldPath, newPath]) {
        const problem = path === undefined ? undefined : pathProblem(path);
        if (problem)
            refuse(`${quoteForMessage(path)} ${problem.reason}; ${problem.fix}`);
    }
    if (oldPath !== undefined && newPath !== undefined && oldPath !== newPath) {
        refuse(`${quoteForMessage(oldPath)} becomes ${quoteForMessage(newPath)} (line ${section.line}); renames and copies are not supported, ` +
            'give the old path as a delete and the new one as an add');
    }
    const path = (newPath ?? oldPath);
    const where = `${quoteForMessage(path)} (line ${section.line})`;
    if (section.git && section.oldName !== undefined) {
        const agrees = (name, gitName) => name === DEV_NULL || name === gitName;
        if (!agrees(section.oldName, section.git.old) || !agrees(section.newName, section.git.new)) {
            invalid(`${where}: the 'diff --git' line and the '---'/'+++' headers name different files; regenerate the diff with 'git diff'`);
        }
    }
    let op = oldPath === undefined ? 'add' : newPath === undefined ? 'delete' : 'modify';
    if (op === 'modify' && section.oldName === undefined) {
        // Only a `diff --git` line named the file: git prints that for an empty file added or deleted.
        if (section.newFile)
            op = 'add';
        if (section.deletedFile)
            op = 'delete';
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
function parseSection(lines, section, path, op) {
    const where = `${quoteForMessage(path)} (line ${section.line})`;
    let parsed;
    try {
        parsed = parse_parsePatch(`${lines.slice(section.start, section.end).join('\n')}\n`);
    }
    catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        invalid(`${where} could not be parsed (${quoteForMessage(reason, 160)}); regenerate the diff with 'git diff'`);
    }
    const indexes = parsed.filter((p) => p.hunks.length > 0 || p.oldFileName !== undefined || p.newFileName !== undefined || p.isGit);
    const patch = indexes[0];
    const namesAgree = section.oldName === undefined || (patch?.oldFileName === section.oldName && patch.newFileName === section.newName);
    if (indexes.length !== 1 || patch.hunks.length !== section.hunks || !namesAgree) {
        invalid(`${where} could not be read unambiguously; regenerate the diff with 'git diff'`);
    }
    const hunks = patch.hunks.map((h) => ({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: [...h.lines] }));
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
function checkDiff(text, limits = DEFAULT_DIFF_LIMITS) {
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
    const seen = new Map();
    resolved.forEach(({ path }, index) => {
        const first = seen.get(path);
        if (first !== undefined) {
            invalid(`${quoteForMessage(path)} is changed twice (lines ${first} and ${sections[index].line}); give one section per file`);
        }
        seen.set(path, sections[index].line);
    });
    return resolved.map(({ path, op }, index) => ({ path, op, hunks: parseSection(lines, sections[index], path, op) }));
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/util.js

// functions
function assertEqual(val) {
    return val;
}
function assertNotEqual(val) {
    return val;
}
function toZod() {
    return (schema) => schema;
}
function assertIs(_arg) { }
function assertNever(_x) {
    throw new Error("Unexpected value in exhaustive check");
}
function assert(_) { }
function getEnumValues(entries) {
    const numericValues = Object.values(entries).filter((v) => typeof v === "number");
    const values = Object.entries(entries)
        .filter(([k, _]) => numericValues.indexOf(+k) === -1)
        .map(([_, v]) => v);
    return values;
}
function joinValues(array, separator = "|") {
    return array.map((val) => stringifyPrimitive(val)).join(separator);
}
function jsonStringifyReplacer(_, value) {
    if (typeof value === "bigint")
        return value.toString();
    return value;
}
// the accessor lives on a shared prototype: an own accessor makes every box a dictionary-mode object (~360 B and a slow load per read against ~100 B and an inlined getter here)
class Cached {
    constructor(getter) {
        this._getter = getter;
        this._value = undefined;
    }
    get value() {
        const getter = this._getter;
        if (getter !== undefined) {
            this._value = getter();
            this._getter = undefined;
        }
        return this._value;
    }
}
function cached(getter) {
    return new Cached(getter);
}
function nullish(input) {
    return input === null || input === undefined;
}
function cleanRegex(source) {
    const start = source.startsWith("^") ? 1 : 0;
    const end = source.endsWith("$") ? source.length - 1 : source.length;
    return source.slice(start, end);
}
function floatSafeRemainder(val, step) {
    const ratio = val / step;
    const roundedRatio = Math.round(ratio);
    // `val` and `step` each round to a double before the division rounds again, so a true decimal multiple's quotient can sit up to 1.5 of these scaled epsilons from the integer. A 1x tolerance therefore rejected 2.03 as a multiple of 0.07; 4x covers the worst case with margin.
    const tolerance = 4 * Number.EPSILON * Math.max(Math.abs(ratio), 1);
    if (Math.abs(ratio - roundedRatio) < tolerance)
        return 0;
    return ratio - roundedRatio;
}
const EVALUATING = /* @__PURE__*/ (/* unused pure expression or super */ null && (Symbol("evaluating")));
function defineLazy(object, key, getter) {
    let value = undefined;
    Object.defineProperty(object, key, {
        get() {
            if (value === EVALUATING) {
                // Circular reference detected, return undefined to break the cycle
                return undefined;
            }
            if (value === undefined) {
                value = EVALUATING;
                value = getter();
            }
            return value;
        },
        set(v) {
            Object.defineProperty(object, key, {
                value: v,
                // configurable: true,
            });
            // object[key] = v;
        },
        configurable: true,
    });
}
function objectClone(obj) {
    return Object.create(Object.getPrototypeOf(obj), Object.getOwnPropertyDescriptors(obj));
}
function util_assignProp(target, prop, value) {
    Object.defineProperty(target, prop, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
    });
}
/**
 * Whichever object a def's `shape` currently answers from: the one the caller passed until the first read, the frozen copy after it.
 *
 * Its keys and descriptors read without invoking anything, which is what lets a discriminated union check its discriminator, and the cycle walk read a shape, without resolving a getter that references the schema being constructed. A def that answers `shape` from an accessor of its own has none.
 */
function rawShape(def) {
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    return desc?.get ? desc.get.raw : desc?.value;
}
// where a builder reads its source's keys and descriptors, resolving only a shape a def answers for itself. A shape resolves by object spread, so only its enumerable keys are ever part of it.
function sourceShape(schema) {
    return rawShape(schema._zod.def) ?? schema._zod.def.shape;
}
// a key whose value is not settled yet, self-caching so every read after the first gets the same one
function deferProp(target, key, getter) {
    Object.defineProperty(target, key, {
        get() {
            const value = getter();
            util_assignProp(this, key, value);
            return value;
        },
        enumerable: true,
        configurable: true,
    });
}
// Writes a settled key. A plain assignment is much cheaper than `defineProperty` and produces the same descriptor, but it runs whatever setter already answers to the key — an accessor this shape deferred, or an inherited one, which `__proto__` has on every object and prototype pollution can add for any name.
function putProp(target, key, value) {
    if (key in target)
        util_assignProp(target, key, value);
    else
        target[key] = value;
}
/**
 * Copies `keys` of `source`'s shape onto `target`, each value passed through `wrap`.
 *
 * A key the source has resolved is copied through now, so the derived shape states it outright and nothing has to resolve it to learn what it holds. A key the source still defers stays deferred, and reads back through the source's own `shape`, so it resolves once and both shapes get that one schema.
 */
function mirrorShape(target, source, keys, wrap) {
    const raw = sourceShape(source);
    for (const key of keys) {
        const desc = Object.getOwnPropertyDescriptor(raw, key);
        if (!desc.enumerable)
            continue;
        if (desc.get) {
            deferProp(target, key, () => {
                const value = source._zod.def.shape[key];
                return wrap ? wrap(value, key) : value;
            });
        }
        else
            putProp(target, key, wrap ? wrap(desc.value, key) : desc.value);
    }
}
// same, for a plain shape a caller passed rather than a schema's
function mirrorProps(target, source) {
    for (const key of Reflect.ownKeys(source)) {
        const desc = Object.getOwnPropertyDescriptor(source, key);
        if (!desc.enumerable)
            continue;
        if (desc.get)
            deferProp(target, key, () => source[key]);
        else
            putProp(target, key, desc.value);
    }
}
function mergeDefs(...defs) {
    const mergedDescriptors = {};
    for (const def of defs) {
        const descriptors = Object.getOwnPropertyDescriptors(def);
        Object.assign(mergedDescriptors, descriptors);
    }
    return Object.defineProperties({}, mergedDescriptors);
}
function cloneDef(schema) {
    return mergeDefs(schema._zod.def);
}
function getElementAtPath(obj, path) {
    if (!path)
        return obj;
    return path.reduce((acc, key) => acc?.[key], obj);
}
function promiseAllObject(promisesObj) {
    const keys = Object.keys(promisesObj);
    const promises = keys.map((key) => promisesObj[key]);
    return Promise.all(promises).then((results) => {
        const resolvedObj = {};
        for (let i = 0; i < keys.length; i++) {
            resolvedObj[keys[i]] = results[i];
        }
        return resolvedObj;
    });
}
function randomString(length = 10) {
    const chars = "abcdefghijklmnopqrstuvwxyz";
    let str = "";
    for (let i = 0; i < length; i++) {
        str += chars[Math.floor(Math.random() * chars.length)];
    }
    return str;
}
function esc(str) {
    return JSON.stringify(str);
}
function slugify(input) {
    return input
        .toLowerCase()
        .trim()
        .replace(/[^\w\s-]/g, "")
        .replace(/[\s_-]+/g, "-")
        .replace(/^-+|-+$/g, "");
}
const captureStackTrace = ("captureStackTrace" in Error ? Error.captureStackTrace : (..._args) => { });
function util_isObject(data) {
    return typeof data === "object" && data !== null && !Array.isArray(data);
}
const util_allowsEval = /* @__PURE__*/ cached(() => {
    // Skip the probe under `jitless`: strict CSPs report the caught `new Function` as a `securitypolicyviolation` even though the throw is swallowed.
    if (globalConfig.jitless) {
        return false;
    }
    // @ts-ignore
    if (typeof navigator !== "undefined" && navigator?.userAgent?.includes("Cloudflare")) {
        return false;
    }
    try {
        const F = Function;
        new F("");
        return true;
    }
    catch (_) {
        return false;
    }
});
function isPlainObject(o) {
    if (util_isObject(o) === false)
        return false;
    // modified constructor
    const ctor = o.constructor;
    if (ctor === undefined)
        return true;
    if (typeof ctor !== "function")
        return true;
    // modified prototype
    const prot = ctor.prototype;
    if (util_isObject(prot) === false)
        return false;
    // ctor doesn't have static `isPrototypeOf`
    if (Object.prototype.hasOwnProperty.call(prot, "isPrototypeOf") === false) {
        return false;
    }
    return true;
}
function shallowClone(o) {
    if (isPlainObject(o))
        return { ...o };
    if (Array.isArray(o))
        return [...o];
    if (o instanceof Map)
        return new Map(o);
    if (o instanceof Set)
        return new Set(o);
    return o;
}
function numKeys(data) {
    let keyCount = 0;
    for (const key in data) {
        if (Object.prototype.hasOwnProperty.call(data, key)) {
            keyCount++;
        }
    }
    return keyCount;
}
const getParsedType = (data) => {
    const t = typeof data;
    switch (t) {
        case "undefined":
            return "undefined";
        case "string":
            return "string";
        case "number":
            return Number.isNaN(data) ? "nan" : "number";
        case "boolean":
            return "boolean";
        case "function":
            return "function";
        case "bigint":
            return "bigint";
        case "symbol":
            return "symbol";
        case "object":
            if (Array.isArray(data)) {
                return "array";
            }
            if (data === null) {
                return "null";
            }
            if (data.then && typeof data.then === "function" && data.catch && typeof data.catch === "function") {
                return "promise";
            }
            if (typeof Map !== "undefined" && data instanceof Map) {
                return "map";
            }
            if (typeof Set !== "undefined" && data instanceof Set) {
                return "set";
            }
            if (typeof Date !== "undefined" && data instanceof Date) {
                return "date";
            }
            // @ts-ignore
            if (typeof File !== "undefined" && data instanceof File) {
                return "file";
            }
            return "object";
        default:
            throw new Error(`Unknown data type: ${t}`);
    }
};
const propertyKeyTypes = /* @__PURE__*/ new Set(["string", "number", "symbol"]);
const primitiveTypes = /* @__PURE__*/ new Set([
    "string",
    "number",
    "bigint",
    "boolean",
    "symbol",
    "undefined",
]);
function escapeRegex(str) {
    return str.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
// zod-specific utils
function clone(inst, def, params) {
    const cl = new inst._zod.constr(def ?? inst._zod.def);
    if (!def || params?.parent)
        cl._zod.parent = inst;
    return cl;
}
function normalizeParams(_params) {
    const params = _params;
    if (!params)
        return {};
    if (typeof params === "string")
        return { error: () => params };
    if (params?.message !== undefined) {
        if (params?.error !== undefined)
            throw new Error("Cannot specify both `message` and `error` params");
        params.error = params.message;
    }
    delete params.message;
    if (typeof params.error === "string")
        return { ...params, error: () => params.error };
    return params;
}
function createTransparentProxy(getter) {
    let target;
    return new Proxy({}, {
        get(_, prop, receiver) {
            target ?? (target = getter());
            return Reflect.get(target, prop, receiver);
        },
        set(_, prop, value, receiver) {
            target ?? (target = getter());
            return Reflect.set(target, prop, value, receiver);
        },
        has(_, prop) {
            target ?? (target = getter());
            return Reflect.has(target, prop);
        },
        deleteProperty(_, prop) {
            target ?? (target = getter());
            return Reflect.deleteProperty(target, prop);
        },
        ownKeys(_) {
            target ?? (target = getter());
            return Reflect.ownKeys(target);
        },
        getOwnPropertyDescriptor(_, prop) {
            target ?? (target = getter());
            return Reflect.getOwnPropertyDescriptor(target, prop);
        },
        defineProperty(_, prop, descriptor) {
            target ?? (target = getter());
            return Reflect.defineProperty(target, prop, descriptor);
        },
    });
}
function stringifyPrimitive(value) {
    if (typeof value === "bigint")
        return value.toString() + "n";
    if (typeof value === "string")
        return `"${value}"`;
    return `${value}`;
}
function optionalKeys(shape) {
    return Object.keys(shape).filter((k) => {
        return shape[k]._zod.optin !== undefined && shape[k]._zod.optout === "optional";
    });
}
// Wrapped in a `@__PURE__` IIFE: esbuild never tree-shakes a top-level initializer that contains a member access on `Number`, so the bare object literal survived into every bundle.
const NUMBER_FORMAT_RANGES = /*@__PURE__*/ (() => ({
    safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    int32: [-2147483648, 2147483647],
    uint32: [0, 4294967295],
    float32: [-3.4028234663852886e38, 3.4028234663852886e38],
    float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
}))();
const BIGINT_FORMAT_RANGES = {
    int64: [/* @__PURE__*/ BigInt("-9223372036854775808"), /* @__PURE__*/ BigInt("9223372036854775807")],
    uint64: [/* @__PURE__*/ BigInt(0), /* @__PURE__*/ BigInt("18446744073709551615")],
};
function pick(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".pick() cannot be used on object schemas containing refinements");
    }
    const newShape = {};
    mirrorShape(newShape, schema, maskedKeys(schema, mask));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
// the mask keys that select something, checked against the source's shape without resolving it
function maskedKeys(schema, mask) {
    const raw = sourceShape(schema);
    const keys = [];
    // `for...in` skips symbols, so a symbol in the mask would select nothing
    for (const key of Reflect.ownKeys(mask)) {
        if (!Object.getOwnPropertyDescriptor(raw, key)?.enumerable) {
            throw new Error(`Unrecognized key: "${String(key)}"`);
        }
        if (mask[key])
            keys.push(key);
    }
    return keys;
}
function omit(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".omit() cannot be used on object schemas containing refinements");
    }
    const omitted = new Set(maskedKeys(schema, mask));
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)).filter((key) => !omitted.has(key)));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
function extend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to extend: expected a plain object");
    }
    const checks = schema._zod.def.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        // Only throw if new shape overlaps with existing shape. Use getOwnPropertyDescriptor to check key existence without accessing values
        const existingShape = sourceShape(schema);
        for (const key of Reflect.ownKeys(shape)) {
            if (Object.getOwnPropertyDescriptor(existingShape, key) !== undefined) {
                throw new Error("Cannot overwrite keys on object schemas containing refinements. Use `.safeExtend()` instead.");
            }
        }
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
// the source's keys, then the caller's overlaid on top
function extended(schema, shape) {
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)));
    mirrorProps(newShape, shape);
    return newShape;
}
function safeExtend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to safeExtend: expected a plain object");
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
function merge(a, b) {
    if (!b?._zod?.def) {
        throw new Error("Invalid input to merge: expected an object schema. To merge a plain shape, use `.extend()`.");
    }
    if (a._zod.def.checks?.length) {
        throw new Error(".merge() cannot be used on object schemas containing refinements. Use .safeExtend() instead.");
    }
    const newShape = {};
    mirrorShape(newShape, a, Reflect.ownKeys(sourceShape(a)));
    mirrorShape(newShape, b, Reflect.ownKeys(sourceShape(b)));
    const def = mergeDefs(a._zod.def, {
        shape: newShape,
        get catchall() {
            return b._zod.def.catchall;
        },
        checks: b._zod.def.checks ?? [],
    });
    return clone(a, def);
}
function partial(Class, schema, mask, name = "partial") {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(`.${name}() cannot be used on object schemas containing refinements`);
    }
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), Class &&
        ((value, key) => (selected && !selected.has(key) ? value : new Class({ type: "optional", innerType: value }))));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape, checks: [] }));
}
function required(Class, schema, mask) {
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), (value, key) => 
    // overwrite with non-optional
    selected && !selected.has(key) ? value : new Class({ type: "nonoptional", innerType: value }));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape }));
}
// invalid_type | too_big | too_small | invalid_format | not_multiple_of | unrecognized_keys | invalid_union | invalid_key | invalid_element | invalid_value | custom
function aborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue !== true) {
            return true;
        }
    }
    return false;
}
// Checks for explicit abort (continue === false), as opposed to implicit abort (continue === undefined). Used to respect `abort: true` in .refine() even for checks that have a `when` function.
function explicitlyAborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue === false) {
            return true;
        }
    }
    return false;
}
function prefixIssues(path, issues) {
    return issues.map((iss) => {
        var _a;
        (_a = iss).path ?? (_a.path = []);
        iss.path.unshift(path);
        return iss;
    });
}
function unwrapMessage(message) {
    return typeof message === "string" ? message : message?.message;
}
/* A check holds no link back to the schema it is attached to — the same check instance is shared by every clone of that schema — so the owner is stamped onto the issues a check just raised, at the only point where both are in scope. Runs on the failure path only; `start` is the issue count from before the check ran. */
/** The leading size checks of `defChecks` that set an upper bound, each paired with it. */
function sizeCaps(defChecks) {
    const caps = [];
    for (const ch of defChecks ?? []) {
        const d = ch._zod.def;
        // a later check may rewrite the value
        if (!/_(length|size)$|_equals$/.test(d.check))
            break;
        const max = d.maximum ?? d.length ?? d.size;
        if (max >= 0)
            caps.push([max, ch]);
    }
    return caps;
}
function attachSchema(issues, start, inst) {
    var _a;
    for (let i = start; i < issues.length; i++) {
        (_a = issues[i]).schema ?? (_a.schema = inst);
    }
}
function finalizeIssue(iss, ctx, config) {
    var _a;
    // A schema that raised an issue itself owns it outright, and outranks any stamp an enclosing check left in `attachSchema`. String formats and z.custom() are schema and check at once, so when they act as a check they defer to that stamp instead.
    const traits = iss.inst?._zod?.traits;
    if (traits?.has("$ZodType")) {
        if (traits.has("$ZodCheck"))
            (_a = iss).schema ?? (_a.schema = iss.inst);
        else
            iss.schema = iss.inst;
    }
    // Decreasing specificity, first map to return a message wins. `inst` is whatever raised the issue, so a check's own map outranks the owning schema's.
    const schemaError = iss.schema !== iss.inst ? iss.schema?._zod.def?.error : undefined;
    const message = iss.message
        ? iss.message
        : (unwrapMessage(iss.inst?._zod.def?.error?.(iss)) ??
            unwrapMessage(schemaError?.(iss)) ??
            unwrapMessage(ctx?.error?.(iss)) ??
            unwrapMessage(config.customError?.(iss)) ??
            unwrapMessage(config.localeError?.(iss)) ??
            "Invalid input");
    // an explicit own-key copy beats object rest with excluded keys, which v8 routes through a generic runtime call; Object.keys rather than for-in so an issue pushed with a prototype does not leak inherited keys, and an own __proto__ key is dropped rather than assigned through the setter
    const full = {};
    for (const k of Object.keys(iss)) {
        if (k === "inst" || k === "schema" || k === "continue" || k === "input" || k === "__proto__")
            continue;
        full[k] = iss[k];
    }
    full.path ?? (full.path = []);
    full.message = message;
    if (ctx?.reportInput) {
        full.input = iss.input;
    }
    return full;
}
function getSizableOrigin(input) {
    if (input instanceof Set)
        return "set";
    if (input instanceof Map)
        return "map";
    // @ts-ignore
    if (input instanceof File)
        return "file";
    return "unknown";
}
const highSurrogate = /[\uD800-\uDBFF]/;
// Code points in `str`: a surrogate pair counts once, a lone surrogate as itself. Hand-rolled because the string iterator allocates and runs ~250x slower on this path; the regex probe exits ~50x quicker for a string with no astral characters.
function codePointLength(str) {
    const units = str.length;
    if (!highSurrogate.test(str))
        return units;
    let count = units;
    for (let i = 0; i < units - 1; i++) {
        if ((str.charCodeAt(i) & 0xfc00) === 0xd800 && (str.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
            count--;
            i++;
        }
    }
    return count;
}
function getLengthableOrigin(input) {
    if (Array.isArray(input))
        return "array";
    if (typeof input === "string")
        return "string";
    return "unknown";
}
function parsedType(data) {
    const t = typeof data;
    switch (t) {
        case "number": {
            return Number.isNaN(data) ? "nan" : "number";
        }
        case "object": {
            if (data === null) {
                return "null";
            }
            if (Array.isArray(data)) {
                return "array";
            }
            const obj = data;
            if (obj && Object.getPrototypeOf(obj) !== Object.prototype && "constructor" in obj && obj.constructor) {
                return obj.constructor.name;
            }
        }
    }
    return t;
}
function util_issue(...args) {
    const [iss, input, inst] = args;
    if (typeof iss === "string") {
        return {
            message: iss,
            code: "custom",
            input,
            inst,
        };
    }
    return { ...iss };
}
function cleanEnum(obj) {
    return Object.entries(obj)
        .filter(([k, _]) => {
        // return true if NaN, meaning it's not a number, thus a string key
        return Number.isNaN(Number.parseInt(k, 10));
    })
        .map((el) => el[1]);
}
// Codec utility functions
function base64ToUint8Array(base64) {
    const binaryString = atob(base64);
    const bytes = new Uint8Array(binaryString.length);
    for (let i = 0; i < binaryString.length; i++) {
        bytes[i] = binaryString.charCodeAt(i);
    }
    return bytes;
}
function uint8ArrayToBase64(bytes) {
    let binaryString = "";
    for (let i = 0; i < bytes.length; i++) {
        binaryString += String.fromCharCode(bytes[i]);
    }
    return btoa(binaryString);
}
function base64urlToUint8Array(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    const padding = "=".repeat((4 - (base64.length % 4)) % 4);
    return base64ToUint8Array(base64 + padding);
}
function uint8ArrayToBase64url(bytes) {
    return uint8ArrayToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, "");
}
function hexToUint8Array(hex) {
    const cleanHex = hex.replace(/^0x/, "");
    if (cleanHex.length % 2 !== 0) {
        throw new Error("Invalid hex string length");
    }
    const bytes = new Uint8Array(cleanHex.length / 2);
    for (let i = 0; i < cleanHex.length; i += 2) {
        bytes[i / 2] = Number.parseInt(cleanHex.slice(i, i + 2), 16);
    }
    return bytes;
}
function uint8ArrayToHex(bytes) {
    return Array.from(bytes)
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
}
// instanceof
class Class {
    constructor(..._args) { }
}
//////////    PROTOTYPE INSTALLERS     //////////
//
// Members live on the prototype and materialize per instance on first read, which keeps own-property count under the step where V8 stops using inline slots. Changing anything here means re-measuring runtime, memory and bundle size together — see "The three axes" in AGENTS.md.
/**
 * Installs a trait's members on its prototype. Each value builds that member for the instance on first read; the built value shadows the accessor as an own property, so a detached `const { parse } = schema` keeps working.
 *
 * Call this from a `proto` initializer, which runs once per prototype — never per instance.
 */
function members(proto, table) {
    for (const key in table) {
        const desc = Object.getOwnPropertyDescriptor(table, key);
        // a getter installs as written, so it stays live: `description` reads through to the registry on every access. not enumerable: an object literal's is, and a prototype member never was
        if (desc.get)
            Object.defineProperty(proto, key, { ...desc, enumerable: false });
        // a method materializes bound on first read, which is what keeps a detached member working: `const opt = schema.optional; opt()`
        else
            defineBound(proto, key, desc.value);
    }
}
/** Shadows a prototype member with an own value, so a getter that builds from the instance runs once. */
function own(inst, key, value, enumerable = true) {
    Object.defineProperty(inst, key, { configurable: true, writable: true, enumerable, value });
    return value;
}
/** Like {@link own}, for a member that was never an own data property and has to stay out of `Object.keys`. */
function hide(inst, key, value) {
    return own(inst, key, value, false);
}
/** Adds members a table derives from the instance: each builds on first read and shadows as own data, and assignment shadows the same way, as when these were own properties. */
function derived(computes, table) {
    for (const key in computes) {
        const compute = computes[key];
        // an object literal's accessor is configurable and enumerable, and `members` copies the descriptor as written
        Object.defineProperty(table, key, {
            configurable: true,
            enumerable: true,
            get() {
                return own(this, key, compute(this));
            },
            set(value) {
                own(this, key, value);
            },
        });
    }
    return table;
}
function defineBound(proto, key, fn) {
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // vitest's spyOn calls a prototype getter bare to find the function it wraps, so a nullish receiver answers the raw method
            return this == null ? fn : own(this, key, fn.bind(this));
        },
        set(value) {
            own(this, key, value);
        },
    });
}
/** Returns the prototype to install on, or `undefined` if this group is already installed on it. */
function claim(inst, sentinel) {
    const proto = Object.getPrototypeOf(inst);
    // Runs on every construction, so `in` rather than the costlier `hasOwnProperty.call`. Sentinels are keys the group itself defines.
    return sentinel in proto ? undefined : proto;
}
// The internals whose init chain is installing. A second call for the same one is a derived constructor overriding its base, so it must not construct another schema in between or the override is dropped.
let installing;
// Set while a getter is running, so a value that resolved through a recursion break is not memoized. One shared descriptor shadows the key for the duration, which costs no per-key allocation.
let broke = false;
const breaker = {
    configurable: true,
    get() {
        broke = true;
        return undefined;
    },
};
/**
 * Installs a lazily-derived internal on the `_zod` prototype of `inst`'s
 * constructor, computed from the internals object itself and cached there on
 * first read. One accessor per constructor rather than one per instance.
 */
function defineLazyInternal(inst, key, compute) {
    const proto = Object.getPrototypeOf(inst._zod);
    if (key in proto && installing !== inst._zod) {
        // A repeat construction: everything is installed already. Cleared here so the reference is not held past the first construction of every type.
        installing = undefined;
        return;
    }
    installing = inst._zod;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing so a re-entrant read from a recursive schema resolves to undefined instead of running the getter again.
            Object.defineProperty(this, key, breaker);
            const outer = broke;
            broke = false;
            try {
                const value = compute(this);
                // A result that resolved through a recursion break is recomputed once the graph is complete; everything else memoizes, undefined included.
                if (broke)
                    delete this[key];
                else
                    Object.defineProperty(this, key, { configurable: true, writable: true, value });
                broke = broke || outer;
                return value;
            }
            catch (err) {
                // A compute that threw memoizes nothing, so a later read runs it again and fails the same way. The shadow goes with it, since leaving it installed would answer undefined for every later read.
                delete this[key];
                broke = broke || outer;
                throw err;
            }
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, value });
        },
    });
}
/**
 * Installs `key` on `inst`'s prototype, computed by `make` on first read and cached there as an own
 * data property. One accessor per constructor rather than one per instance, because an own accessor
 * puts every instance after the first into v8 dictionary mode. The key doubles as the sentinel.
 */
function installLazyProp(inst, key, make, enumerable) {
    const proto = claim(inst, key);
    if (!proto)
        return;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing, so a re-entrant read from a self-referential shape resolves to undefined instead of running the getter again. A data property rather than an accessor: an own accessor is the dictionary-mode transition this exists to avoid.
            const desc = { configurable: true, writable: true, enumerable, value: undefined };
            Object.defineProperty(this, key, desc);
            // a compute that throws leaves the shadow behind, so later reads answer undefined instead of re-throwing; `defineLazy` did the same, and `defineLazyInternal`'s delete-on-catch would cost bytes in every bundle for a case only a throwing user getter reaches
            desc.value = make(this);
            Object.defineProperty(this, key, desc);
            return desc.value;
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, enumerable, value });
        },
    });
}
/** Marks the thunk `_catch` synthesises for a constant catch value. `Function.length` cannot tell that thunk from a user callback — rest and defaulted parameters both report arity 0 — and a user callback reads `ctx.error`, whose issues only finalize correctly against the caller's per-parse error map. Provenance can say what arity cannot. A plain string key rather than `Symbol.for`, whose call at module scope no bundler can prove pure — the same shape that anchored `urlCanParse` into every build. */
const CONSTANT_CATCH = "~constantCatch";
/** Wraps a constant catch value in a thunk tagged with {@link CONSTANT_CATCH}. */
function constantCatch(value) {
    const fn = () => value;
    fn[CONSTANT_CATCH] = true;
    return fn;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/core.js
var _a;

/** A special constant with type `never` */
const NEVER = /*@__PURE__*/ Object.freeze({
    status: "aborted",
});
/* Shared descriptor for installing `_zod`; defineProperty reads it
 * synchronously, so reusing one object avoids a per-instance allocation. */
const _zodDesc = { value: undefined, enumerable: false };
// null where suppressing the capture would be unrecoverable: `parse()` puts the frames back with `captureStackTrace`, so without it the throw would lose its stack. also latched to null once `stackTraceLimit` proves unassignable, which a realm can do at any point by hardening Error
let _E = "captureStackTrace" in Error ? Error : null;
// v8 captures a stack trace inside the Error constructor, which dominates a failed parse; costs only the frames, and parse() restores those. the constructor must RUN: Object.create is cheaper and passes instanceof, but Error.isError and util.types.isNativeError check an internal slot
function newError(Definition) {
    const E = _E;
    if (E) {
        const saved = E.stackTraceLimit;
        if (typeof saved === "number") {
            try {
                E.stackTraceLimit = 0;
            }
            catch {
                _E = null;
                return new Definition();
            }
            try {
                return new Definition();
            }
            finally {
                E.stackTraceLimit = saved;
            }
        }
    }
    return new Definition();
}
function $constructor(name, initializer, 
/** This trait's members, installed once on every prototype that composes it. They cannot be declared in the initializer above: that runs per instance, and the prototype is shared. */
proto, params) {
    // Prototype for this constructor's `_zod` internals. Lazily-derived fields (`values`, `pattern`, `optin`, …) install here once rather than as an accessor on every instance.
    const zodProto = {};
    // Assigning the fields in the constructor body is what gives instances in-object slots; building the object literally and reparenting it costs a second allocation and a generic property copy.
    function Internals(def) {
        this.def = def;
        this.constr = _;
        this.traits = new Set();
    }
    Internals.prototype = zodProto;
    const protoMembers = proto;
    // One trait's members land on every prototype whose chain composes it, so the answer is per prototype rather than per trait.
    const initialized = protoMembers && new WeakSet();
    function init(inst, def) {
        if (!inst._zod) {
            _zodDesc.value = new Internals(def);
            try {
                Object.defineProperty(inst, "_zod", _zodDesc);
            }
            finally {
                // Cleared even on throw, so the shared descriptor never leaks one instance's internals into the next.
                _zodDesc.value = undefined;
            }
        }
        else if (inst._zod.traits.has(name)) {
            return;
        }
        inst._zod.traits.add(name);
        initializer(inst, def);
        if (initialized) {
            // `super(def)` from a user subclass gives `this` a prototype the subclass owns, and installing there would overwrite whatever the subclass declared. `constr` built the instance, so its prototype is the one below the subclass's that should carry the members. A receiver whose chain never reaches that prototype installs on its own, which for a plain object handed straight to `init` means `Object.prototype` — unchanged from before.
            const own = Object.getPrototypeOf(inst);
            const ctorProto = inst._zod.constr.prototype;
            let up = own;
            while (up && up !== ctorProto)
                up = Object.getPrototypeOf(up);
            const target = up ?? own;
            if (!initialized.has(target)) {
                initialized.add(target);
                members(target, protoMembers);
            }
        }
        // support prototype modifications; for-in avoids the array allocation of Object.keys on the (usually empty) prototype
        const proto = _.prototype;
        for (const k in proto) {
            if (!Object.prototype.hasOwnProperty.call(proto, k))
                continue;
            if (!(k in inst)) {
                inst[k] = proto[k].bind(inst);
            }
        }
    }
    // doesn't work if Parent has a constructor with arguments
    const Parent = params?.Parent ?? Object;
    class Definition extends Parent {
    }
    Object.defineProperty(Definition, "name", { value: name });
    function _(def) {
        const inst = params?.Parent ? newError(Definition) : this;
        init(inst, def);
        const deferred = inst._zod.deferred;
        if (deferred) {
            for (const fn of deferred) {
                fn();
            }
            // Released: initializers run once, and the list would otherwise be retained for the schema's lifetime.
            inst._zod.deferred = undefined;
        }
        // Global post-processor hook. Internal: installed by `import "zod/compile"` to enable AOT compilation for every constructed schema. Runs last, once the instance is fully built, because it hands the instance to compile(). The post-processor is expected to be reentrancy-guarded by its own implementation.
        const pp = globalThis.__zod_globalConfig?.postProcessor;
        if (pp)
            pp(inst);
        return inst;
    }
    Object.defineProperty(_, "init", { value: init });
    Object.defineProperty(_, Symbol.hasInstance, {
        value: (inst) => {
            if (params?.Parent && inst instanceof params.Parent)
                return true;
            return inst?._zod?.traits?.has(name);
        },
    });
    Object.defineProperty(_, "name", { value: name });
    return _;
}
//////////////////////////////   UTILITIES   ///////////////////////////////////////
const $brand = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("zod_brand")));
class $ZodAsyncError extends Error {
    constructor() {
        super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
    }
}
class $ZodEncodeError extends Error {
    constructor(name) {
        super(`Encountered unidirectional transform during encode: ${name}`);
        this.name = "ZodEncodeError";
    }
}
(_a = globalThis).__zod_globalConfig ?? (_a.__zod_globalConfig = {});
const globalConfig = globalThis.__zod_globalConfig;
function config(newConfig) {
    if (newConfig)
        Object.assign(globalConfig, newConfig);
    return globalConfig;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/memoizer.js

class $ZodCyclicError extends Error {
    constructor() {
        super(`Cannot parse a reference cycle that closes through a transform`);
        this.name = "ZodCyclicError";
    }
}
/** Keyed off the context object every schema in one parse call already shares. */
const STATE = "~memo";
const NO_ISSUES = [];
// a value a cycle can close through
function isRef(value) {
    return value !== null && typeof value === "object";
}
// Receivers prefix paths in place, so the cache and every hand-out need their own copies.
function cloneIssues(issues) {
    return issues.map((iss) => (iss.path ? { ...iss, path: iss.path.slice() } : { ...iss }));
}
const recursive = /*@__PURE__*/ new WeakMap();
/** What the walk established, in order of certainty: ordered so the strongest answer among children wins. */
const NONE = 0;
const ASSUMED = 1;
const PROVEN = 2;
/** Whether this schema's subtree contains a cycle, so one parse can re-enter it. */
function isRecursive(inst, stack, resolve) {
    const cached = recursive.get(inst);
    if (cached !== undefined)
        return cached ? PROVEN : NONE;
    // Relative to the walk in progress, so not cached.
    if (stack.has(inst))
        return PROVEN;
    stack.add(inst);
    let result = NONE;
    const check = (child) => {
        if (result !== PROVEN && child?._zod) {
            const answer = isRecursive(child, stack, resolve);
            if (answer > result)
                result = answer;
        }
    };
    // `Reflect.ownKeys` rather than `Object.keys`, so a cycle through a declared symbol key is still seen
    const shape = (sh, spread) => {
        let answer = NONE;
        for (const key of Reflect.ownKeys(sh)) {
            const desc = Object.getOwnPropertyDescriptor(sh, key);
            // an object resolves its shape by spread, so a key it does not enumerate is never parsed; `z.properties` reads every own key and so keeps them all
            if (spread && !desc.enumerable)
                continue;
            // resolving runs user code, and a factory mints a fresh subtree per read, so an edge the walk can't follow counts as a cycle
            const child = desc.get ? ASSUMED : desc.value?._zod ? isRecursive(desc.value, stack, resolve) : NONE;
            if (child > answer)
                answer = child;
        }
        return answer;
    };
    const merge = (answer) => {
        if (answer > result)
            result = answer;
    };
    const def = inst._zod.def;
    const kind = def.type;
    switch (kind) {
        case "object": {
            const raw = rawShape(def);
            // a def with no raw shape answers `shape` from an accessor of its own, and running that can mint a whole fresh subtree
            merge(raw ? shape(raw, true) : ASSUMED);
            check(def.catchall);
            break;
        }
        case "array":
            check(def.element);
            break;
        case "tuple":
            for (const el of def.items)
                check(el);
            check(def.rest);
            break;
        case "record":
        case "map":
            check(def.keyType);
            check(def.valueType);
            break;
        case "set":
            check(def.valueType);
            break;
        case "union":
            for (const el of def.options)
                check(el);
            break;
        case "intersection":
            check(def.left);
            check(def.right);
            break;
        case "optional":
        case "nullable":
        case "default":
        case "prefault":
        case "catch":
        case "readonly":
        case "nonoptional":
        case "promise":
        case "success":
            check(def.innerType);
            break;
        case "pipe":
            check(def.in);
            check(def.out);
            break;
        case "function":
            check(def.input);
            check(def.output);
            break;
        // `$ZodLazy` caches its inner on the def, so a resolved edge is followed exactly
        case "lazy": {
            const inner = def._cachedInner ?? (resolve ? inst._zod.innerType : undefined);
            // walked with resolution off: one hop sees past the deferral, and a lazy that yields only another unresolved lazy is generative, so it stops there
            merge(inner ? isRecursive(inner, stack, false) : ASSUMED);
            break;
        }
        // a leaf by choice: `parts` are regex fragments, not data positions
        case "template_literal":
        // leaves
        case "string":
        case "number":
        case "int":
        case "boolean":
        case "bigint":
        case "symbol":
        case "undefined":
        case "null":
        case "void":
        case "never":
        case "any":
        case "unknown":
        case "date":
        case "nan":
        case "enum":
        case "literal":
        case "file":
        case "transform":
        case "custom":
            break;
        default: {
            // a new built-in kind becomes a compile error here
            kind;
            // a user-defined kind can still hold children, and only its author knows where, so fall back to scanning the def — skipping accessors, since reading one can run user code
            for (const key in def) {
                const desc = Object.getOwnPropertyDescriptor(def, key);
                if (!desc || desc.get)
                    continue;
                const value = desc.value;
                if (!value || typeof value !== "object")
                    continue;
                if (value._zod)
                    check(value);
                else if (Array.isArray(value))
                    for (const el of value)
                        check(el);
            }
        }
    }
    stack.delete(inst);
    return settle(inst, result);
}
/** An assumed answer must not outlive the resolution that settles it, so only a certain one is cached. */
function settle(inst, answer) {
    if (answer !== ASSUMED)
        recursive.set(inst, answer === PROVEN);
    return answer;
}
/**
 * Whether one parse can re-enter this schema, i.e. its subtree contains a cycle.
 * Exported for `z.compile`, which refuses to compile such a schema: cycle
 * breaking is driven from here off state keyed on the parse context, and a
 * generated fast path has no context to key on.
 */
function isRecursiveSchema(inst) {
    // z.compile never parses, so nothing would ever resolve a lazy for it; it runs once and already treats a throw here as recursive
    return isRecursive(inst, new Set(), true) !== NONE;
}
function bucketFor(state, inst) {
    let bucket = state.buckets.get(inst);
    if (!bucket) {
        bucket = new WeakMap();
        state.buckets.set(inst, bucket);
    }
    return bucket;
}
// Set immediately before delegating to core and cleared immediately after, so `alloc` registers only for a visit this module is driving.
let handoff;
// Allocated but unfinished entries. `alloc` and the matching pop both happen in the synchronous part of a parse, so they nest even when children are async, and one stack serves every schema.
const memoizer_open = [];
const memo = {
    alloc(_inst, payload, empty) {
        const bucket = handoff;
        if (!bucket)
            return empty;
        handoff = undefined;
        const entry = { value: empty, issues: null };
        bucket.set(payload.value, entry);
        memoizer_open.push(entry);
        return empty;
    },
    guard(inst) {
        var _a;
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred.push(() => {
            const base = inst._zod.parse;
            const wrapped = (payload, ctx) => {
                // The value is a placeholder a back-edge is still waiting on, so the cycle closes through this transform. Its output can't exist in time to bind.
                if (ctx.direction !== "backward" && isBackEdge(ctx, payload.value))
                    throw new $ZodCyclicError();
                return base(payload, ctx);
            };
            inst._zod.parse = wrapped;
            if (inst._zod.run === base)
                inst._zod.run = wrapped;
        });
    },
    attach(inst) {
        var _a;
        let isRecursiveInst;
        let rechecked = false;
        // a recursive schema is re-entered many times per parse and its bucket never changes
        let lastCtx;
        let lastBucket;
        // Wraps `parse` in a deferred so it sees the container's final parse. Core's own deferred copies `parse` into `run` when there are no checks, and it ran first, so `run` is patched to match; with checks, `run` reads `parse` dynamically.
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred.push(() => {
            const base = inst._zod.parse;
            const wrapped = (payload, ctx) => {
                if (isRecursiveInst === undefined) {
                    const walked = isRecursive(inst, new Set(), false);
                    if (walked === NONE) {
                        // Nothing here can ever fire, so take it back out.
                        inst._zod.parse = base;
                        if (inst._zod.run === wrapped)
                            inst._zod.run = base;
                        return base(payload, ctx);
                    }
                    // this parse resolves the deferred edges on its own path, so ask once more before latching
                    if (walked === PROVEN || rechecked)
                        isRecursiveInst = true;
                    else
                        rechecked = true;
                }
                const input = payload.value;
                if (!isRef(input))
                    return base(payload, ctx);
                let state = ctx[STATE];
                if (!state) {
                    state = { buckets: new WeakMap(), backEdges: undefined };
                    ctx[STATE] = state;
                }
                let bucket;
                if (lastCtx === ctx) {
                    bucket = lastBucket;
                }
                else {
                    bucket = bucketFor(state, inst);
                    lastCtx = ctx;
                    lastBucket = bucket;
                }
                const hit = bucket.get(input);
                if (hit) {
                    payload.value = hit.value;
                    if (hit.issues) {
                        if (hit.issues.length)
                            payload.issues.push(...cloneIssues(hit.issues));
                    }
                    else {
                        // Still being parsed: its own checks cover it, so skip them here.
                        payload.memo = true;
                        state.backEdges ?? (state.backEdges = new WeakSet());
                        state.backEdges.add(hit.value);
                    }
                    return payload;
                }
                handoff = bucket;
                const depth = memoizer_open.length;
                const result = base(payload, ctx);
                handoff = undefined;
                // A container that rejected its input outright allocated nothing.
                const entry = memoizer_open.length > depth ? memoizer_open.pop() : undefined;
                // Both paths written out so the sync one allocates no closure. It runs once per node, and capturing here cost more than everything else combined.
                if (result instanceof Promise) {
                    return result.then((r) => {
                        if (entry)
                            entry.issues = r.issues.length ? cloneIssues(r.issues) : NO_ISSUES;
                        return r;
                    });
                }
                if (entry)
                    entry.issues = result.issues.length ? cloneIssues(result.issues) : NO_ISSUES;
                return result;
            };
            inst._zod.parse = wrapped;
            if (inst._zod.run === base)
                inst._zod.run = wrapped;
        });
    },
};
/** The memoizer that gives containers cycle support. `zod` installs it by default; `zod/mini` opts in with `config({ memoizer: memoizer() })`. */
function memoizer() {
    return memo;
}
/** Whether this value is a node a back-edge resolved to before it finished. */
function isBackEdge(ctx, value) {
    const backEdges = ctx[STATE]?.backEdges;
    return backEdges !== undefined && isRef(value) && backEdges.has(value);
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/regexes.js

/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const cuid = /^[cC][0-9a-z]{6,}$/;
const cuid2 = /^[0-9a-z]+$/;
const ulid = /^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/;
const xid = /^[0-9a-vA-V]{20}$/;
const ksuid = /^[A-Za-z0-9]{27}$/;
const nanoid = /^[a-zA-Z0-9_-]{21}$/;
function nanoidOfLength(length) {
    return new RegExp(`^[a-zA-Z0-9_-]{${length}}$`);
}
/** ISO 8601-1 duration regex. Does not support the 8601-2 extensions like negative durations or fractional/negative components. */
const duration = /^P(?:(\d+W)|(?!.*W)(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?)$/;
/** Implements ISO 8601-2 extensions like explicit +- prefixes, mixing weeks with other units, and fractional/negative components. */
const extendedDuration = /^[-+]?P(?!$)(?:(?:[-+]?\d+Y)|(?:[-+]?\d+[.,]\d+Y$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:(?:[-+]?\d+W)|(?:[-+]?\d+[.,]\d+W$))?(?:(?:[-+]?\d+D)|(?:[-+]?\d+[.,]\d+D$))?(?:T(?=[\d+-])(?:(?:[-+]?\d+H)|(?:[-+]?\d+[.,]\d+H$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:[-+]?\d+(?:[.,]\d+)?S)?)??$/;
/** A regex for any UUID-like identifier: 8-4-4-4-12 hex pattern */
const guid = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
/** Returns a regex for validating an RFC 9562/4122 UUID.
 *
 * @param version Optionally specify a version 1-8. If no version is specified, all versions are supported. */
const uuid = (version) => {
    if (!version)
        return /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
    return new RegExp(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-${version}[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$`);
};
const uuid4 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(4)));
const uuid6 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(6)));
const uuid7 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(7)));
/** Practical email validation */
const email = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
/** Equivalent to the HTML5 input[type=email] validation implemented by browsers. Source: https://developer.mozilla.org/en-US/docs/Web/HTML/Element/input/email */
const html5Email = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/** The classic emailregex.com regex for RFC 5322-compliant emails */
const rfc5322Email = /^(([^<>()\[\]\\.,;:\s@"]+(\.[^<>()\[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;
/** A loose regex that allows Unicode characters, enforces length limits, and that's about it. */
const unicodeEmail = /^[^\s@"]{1,64}@[^\s@]{1,255}$/u;
const idnEmail = (/* unused pure expression or super */ null && (unicodeEmail));
const browserEmail = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
// from https://thekevinscott.com/emojis-in-javascript/#writing-a-regular-expression
// Single character class, not an alternation: the two properties overlap (U+1F9B0-U+1F9B3), so `(A|B)+` backtracks exponentially on a failed match. The leading lookahead then demands one anchor — a pictograph, a regional indicator, or the enclosing keycap — because `\p{Emoji_Component}` on its own covers ASCII digits, `#`, `*`, ZWJ, variation selectors and skin tone modifiers, none of which is an emoji without a base.
const _emoji = `^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$`;
function emoji() {
    return new RegExp(_emoji, "u");
}
const ipv4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
const ipv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$/;
const mac = (delimiter) => {
    const escapedDelim = util.escapeRegex(delimiter ?? ":");
    return new RegExp(`^(?:[0-9A-F]{2}${escapedDelim}){5}[0-9A-F]{2}$|^(?:[0-9a-f]{2}${escapedDelim}){5}[0-9a-f]{2}$`);
};
const cidrv4 = /^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/([0-9]|[1-2][0-9]|3[0-2])$/;
const cidrv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$/;
// https://stackoverflow.com/questions/7860392/determine-if-string-is-in-base64-using-javascript
const base64 = /^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$/;
const base64url = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;
// based on https://stackoverflow.com/questions/106179/regular-expression-to-match-dns-hostname-or-ip-address
// export const hostname: RegExp = /^([a-zA-Z0-9-]+\.)*[a-zA-Z0-9-]+$/;
const hostname = /^(?=.{1,253}\.?$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[-0-9a-zA-Z]{0,61}[0-9a-zA-Z])?)*\.?$/;
const domain = /^(?=.{1,253}$)([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;
const httpProtocol = /^https?$/;
// https://blog.stevenlevithan.com/archives/validate-phone-number#r4-3 (regex sans spaces) E.164: leading digit must be 1-9; total digits (excluding '+') between 7-15
const e164 = /^\+[1-9]\d{6,14}$/;
// Credit card shape: 12–19 digits, optionally separated by single spaces or single hyphens. ISO/IEC 7812 caps the PAN at 19 digits; 12 is the shortest issued length (Maestro).
const creditCard = /^\d(?:[ -]?\d){11,18}$/;
// ISO 4217 alpha codes from the SIX list, regenerated by scripts/update-iso-4217.ts
const currencyCode = /^(?:AED|AFN|ALL|AMD|AOA|ARS|AUD|AWG|AZN|BAM|BBD|BDT|BHD|BIF|BMD|BND|BOB|BOV|BRL|BSD|BTN|BWP|BYN|BZD|CAD|CDF|CHE|CHF|CHW|CLF|CLP|CNY|COP|COU|CRC|CUP|CVE|CZK|DJF|DKK|DOP|DZD|EGP|ERN|ETB|EUR|FJD|FKP|GBP|GEL|GHS|GIP|GMD|GNF|GTQ|GYD|HKD|HNL|HTG|HUF|IDR|ILS|INR|IQD|IRR|ISK|JMD|JOD|JPY|KES|KGS|KHR|KMF|KPW|KRW|KWD|KYD|KZT|LAK|LBP|LKR|LRD|LSL|LYD|MAD|MDL|MGA|MKD|MMK|MNT|MOP|MRU|MUR|MVR|MWK|MXN|MXV|MYR|MZN|NAD|NGN|NIO|NOK|NPR|NZD|OMR|PAB|PEN|PGK|PHP|PKR|PLN|PYG|QAR|RON|RSD|RUB|RWF|SAR|SBD|SCR|SDG|SEK|SGD|SHP|SLE|SOS|SRD|SSP|STN|SVC|SYP|SZL|THB|TJS|TMT|TND|TOP|TRY|TTD|TWD|TZS|UAH|UGX|USD|USN|UYI|UYU|UYW|UZS|VED|VES|VND|VUV|WST|XAD|XAF|XAG|XAU|XBA|XBB|XBC|XBD|XCD|XCG|XDR|XOF|XPD|XPF|XPT|XSU|XTS|XUA|XXX|YER|ZAR|ZMW|ZWG)$/;
// iban electronic format: 2-letter country, check digits 02-98 (the only values `98 - remainder` can produce), 11-30 bban characters
const iban = /^[A-Z]{2}(?!00|01|99)\d{2}[A-Z0-9]{11,30}$/;
const dateSource = `(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))`;
/** Anchors a pattern source. The interpolation lives here rather than at the call site because
 * esbuild will not drop a `@__PURE__` call whose own argument interpolates a variable, but it
 * will drop `anchor(dateSource)`. Keeping it inline pinned `date` into every bundle. */
function regexes_anchor(source) {
    return new RegExp(`^${source}$`);
}
const date = /*@__PURE__*/ regexes_anchor(dateSource);
function timeSource(args) {
    const hhmm = `(?:[01]\\d|2[0-3]):[0-5]\\d`;
    const regex = typeof args.precision === "number"
        ? args.precision === -1
            ? `${hhmm}`
            : args.precision === 0
                ? `${hhmm}:[0-5]\\d`
                : `${hhmm}:[0-5]\\d\\.\\d{${args.precision}}`
        : args.seconds
            ? `${hhmm}:[0-5]\\d(?:\\.\\d+)?`
            : `${hhmm}(?::[0-5]\\d(?:\\.\\d+)?)?`;
    return regex;
}
function time(args) {
    return new RegExp(`^${timeSource(args)}$`);
}
// Adapted from https://stackoverflow.com/a/3143231
function datetime(args) {
    const opts = ["Z"];
    // if (args.offset) opts.push(`([+-]\\d{2}:\\d{2})`);
    if (args.offset)
        opts.push(`([+-](?:[01]\\d|2[0-3]):[0-5]\\d)`);
    // RFC 3339 mandates seconds wherever the time carries a `Z` or an offset, so only the unqualified form `local` adds may omit them
    const qualified = `${timeSource({ precision: args.precision, seconds: true })}(?:${opts.join("|")})`;
    const timeRegex = args.local ? `${qualified}|${timeSource({ precision: args.precision })}` : qualified;
    return new RegExp(`^${dateSource}T(?:${timeRegex})$`);
}
// the unbounded form of `string()` as a literal, so every plain string shares one instance instead of building its own
const anyString = /^[\s\S]{0,}$/;
const string = (params) => {
    const regex = params ? `[\\s\\S]{${params?.minimum ?? 0},${params?.maximum ?? ""}}` : `[\\s\\S]*`;
    return new RegExp(`^${regex}$`);
};
const bigint = /^-?\d+n?$/;
const integer = /^-?\d+$/;
const number = /^-?\d+(?:\.\d+)?$/;
const regexes_boolean = /^(?:true|false)$/i;
const _null = /^null$/i;

const _undefined = /^undefined$/i;

// regex for string with no uppercase letters
const lowercase = /^[^A-Z]*$/;
// regex for string with no lowercase letters
const uppercase = /^[^a-z]*$/;
// regex for hexadecimal strings (any length)
const hex = /^[0-9a-fA-F]*$/;
// Hash regexes for different algorithms and encodings
// Helper function to create base64 regex with exact length and padding
function fixedBase64(bodyLength, padding) {
    return new RegExp(`^[A-Za-z0-9+/]{${bodyLength}}${padding}$`);
}
// Helper function to create base64url regex with exact length (no padding)
function fixedBase64url(length) {
    return new RegExp(`^[A-Za-z0-9_-]{${length}}$`);
}
// MD5 (16 bytes): base64 = 24 chars total (22 + "==")
const md5_hex = /^[0-9a-fA-F]{32}$/;
const md5_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(22, "==")));
const md5_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(22)));
// SHA1 (20 bytes): base64 = 28 chars total (27 + "=")
const sha1_hex = /^[0-9a-fA-F]{40}$/;
const sha1_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(27, "=")));
const sha1_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(27)));
// SHA256 (32 bytes): base64 = 44 chars total (43 + "=")
const sha256_hex = /^[0-9a-fA-F]{64}$/;
const sha256_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(43, "=")));
const sha256_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(43)));
// SHA384 (48 bytes): base64 = 64 chars total (no padding)
const sha384_hex = /^[0-9a-fA-F]{96}$/;
const sha384_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(64, "")));
const sha384_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(64)));
// SHA512 (64 bytes): base64 = 88 chars total (86 + "==")
const sha512_hex = /^[0-9a-fA-F]{128}$/;
const sha512_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(86, "==")));
const sha512_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(86)));

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/checks.js
// import { $ZodType } from "./schemas.js";



const $ZodCheck = /*@__PURE__*/ $constructor("$ZodCheck", (inst, def) => {
    var _a;
    inst._zod ?? (inst._zod = {});
    inst._zod.def = def;
    (_a = inst._zod).onattach ?? (_a.onattach = []);
});
/** Default `when` for size-based checks: run only on non-nullish values with a `size`. */
const _whenHasSize = (payload) => {
    const val = payload.value;
    return !util.nullish(val) && val.size !== undefined;
};
/** Default `when` for length-based checks: run only on non-nullish values with a `length`. */
const _whenHasLength = (payload) => {
    const val = payload.value;
    return !nullish(val) && val.length !== undefined;
};
const numericOriginMap = {
    number: "number",
    bigint: "bigint",
    object: "date",
};
const $ZodCheckLessThan = /*@__PURE__*/ $constructor("$ZodCheckLessThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value <= def.value : payload.value < def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_big",
            maximum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckGreaterThan = /*@__PURE__*/ $constructor("$ZodCheckGreaterThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value >= def.value : payload.value > def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_small",
            minimum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMultipleOf = 
/*@__PURE__*/ $constructor("$ZodCheckMultipleOf", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        if (typeof payload.value !== typeof def.value)
            throw new Error("Cannot mix number and bigint in multiple_of check.");
        const isMultiple = typeof payload.value === "bigint"
            ? // `value % 0n` throws, and nothing is a multiple of zero — the number branch already fails this way via NaN
                def.value !== BigInt(0) && payload.value % def.value === BigInt(0)
            : floatSafeRemainder(payload.value, def.value) === 0;
        if (isMultiple)
            return;
        payload.issues.push({
            origin: typeof payload.value,
            code: "not_multiple_of",
            divisor: def.value,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckNumberFormat = /*@__PURE__*/ $constructor("$ZodCheckNumberFormat", (inst, def) => {
    $ZodCheck.init(inst, def); // no format checks
    def.format = def.format || "float64";
    const isInt = def.format?.includes("int");
    const origin = isInt ? "int" : "number";
    const [minimum, maximum] = NUMBER_FORMAT_RANGES[def.format];
    inst._zod.check = (payload) => {
        const input = payload.value;
        if (isInt) {
            if (!Number.isInteger(input)) {
                // invalid_format issue
                // payload.issues.push({
                //   expected: def.format,
                //   format: def.format,
                //   code: "invalid_format",
                //   input,
                //   inst,
                // });
                // invalid_type issue
                payload.issues.push({
                    expected: origin,
                    format: def.format,
                    code: "invalid_type",
                    continue: false,
                    input,
                    inst,
                });
                return;
                // not_multiple_of issue
                // payload.issues.push({
                //   code: "not_multiple_of",
                //   origin: "number",
                //   input,
                //   inst,
                //   divisor: 1,
                // });
            }
            if (!Number.isSafeInteger(input)) {
                if (input > 0) {
                    // too_big
                    payload.issues.push({
                        input,
                        code: "too_big",
                        maximum: Number.MAX_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                else {
                    // too_small
                    payload.issues.push({
                        input,
                        code: "too_small",
                        minimum: Number.MIN_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                return;
            }
        }
        if (input < minimum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_small",
                minimum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
        if (input > maximum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_big",
                maximum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodCheckBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckBigIntFormat", (inst, def) => {
    $ZodCheck.init(inst, def); // no format checks
    const [minimum, maximum] = util.BIGINT_FORMAT_RANGES[def.format];
    inst._zod.check = (payload) => {
        const input = payload.value;
        if (input < minimum) {
            payload.issues.push({
                origin: "bigint",
                input,
                code: "too_small",
                minimum: minimum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
        if (input > maximum) {
            payload.issues.push({
                origin: "bigint",
                input,
                code: "too_big",
                maximum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
    };
})));
const $ZodCheckMaxSize = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMaxSize", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size <= def.maximum)
            return;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            code: "too_big",
            maximum: def.maximum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckMinSize = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMinSize", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size >= def.minimum)
            return;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            code: "too_small",
            minimum: def.minimum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckSizeEquals = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckSizeEquals", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size === def.size)
            return;
        const tooBig = size > def.size;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            ...(tooBig ? { code: "too_big", maximum: def.size } : { code: "too_small", minimum: def.size }),
            inclusive: true,
            exact: true,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckMaxLength = /*@__PURE__*/ $constructor("$ZodCheckMaxLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // Strings are measured in Unicode code points, not UTF-16 units. A code point is at most two units, so a string that already fits in units fits in code points; only an overflow has to be counted.
        const length = typeof input === "string" && units > def.maximum ? codePointLength(input) : units;
        if (length <= def.maximum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_big",
            maximum: def.maximum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMinLength = /*@__PURE__*/ $constructor("$ZodCheckMinLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so fewer units than the floor can never reach it and twice the floor always clears it. Only in between is the exact count in doubt.
        const length = typeof input === "string" && units >= def.minimum && units < def.minimum * 2
            ? codePointLength(input)
            : units;
        if (length >= def.minimum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_small",
            minimum: def.minimum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLengthEquals = /*@__PURE__*/ $constructor("$ZodCheckLengthEquals", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so outside `[length, length * 2]` units the target is missed either way — and missed in the same direction in both measures.
        const length = typeof input === "string" && units >= def.length && units <= def.length * 2
            ? codePointLength(input)
            : units;
        if (length === def.length)
            return;
        const origin = getLengthableOrigin(input);
        const tooBig = length > def.length;
        payload.issues.push({
            origin,
            ...(tooBig ? { code: "too_big", maximum: def.length } : { code: "too_small", minimum: def.length }),
            inclusive: true,
            exact: true,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckStringFormat = /*@__PURE__*/ $constructor("$ZodCheckStringFormat", (inst, def) => {
    var _a, _b;
    $ZodCheck.init(inst, def);
    if (def.pattern)
        (_a = inst._zod).check ?? (_a.check = (payload) => {
            def.pattern.lastIndex = 0;
            if (def.pattern.test(payload.value))
                return;
            payload.issues.push({
                origin: "string",
                code: "invalid_format",
                format: def.format,
                input: payload.value,
                ...(def.pattern ? { pattern: def.pattern.toString() } : {}),
                inst,
                continue: !def.abort,
            });
        });
    else
        (_b = inst._zod).check ?? (_b.check = () => { });
});
const $ZodCheckRegex = /*@__PURE__*/ $constructor("$ZodCheckRegex", (inst, def) => {
    $ZodCheckStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        def.pattern.lastIndex = 0;
        if (def.pattern.test(payload.value))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "regex",
            input: payload.value,
            pattern: def.pattern.toString(),
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLowerCase = /*@__PURE__*/ $constructor("$ZodCheckLowerCase", (inst, def) => {
    def.pattern ?? (def.pattern = lowercase);
    $ZodCheckStringFormat.init(inst, def);
});
const $ZodCheckUpperCase = /*@__PURE__*/ $constructor("$ZodCheckUpperCase", (inst, def) => {
    def.pattern ?? (def.pattern = uppercase);
    $ZodCheckStringFormat.init(inst, def);
});
const $ZodCheckIncludes = /*@__PURE__*/ $constructor("$ZodCheckIncludes", (inst, def) => {
    $ZodCheck.init(inst, def);
    const escapedRegex = escapeRegex(def.includes);
    // `String.prototype.includes(sub, position)` matches `sub` at `position`
    // OR LATER, so the pattern must allow at least `position` leading chars
    // (`{N,}`), not exactly `position` chars (`{N}`).
    const pattern = new RegExp(typeof def.position === "number" ? `^.{${def.position},}${escapedRegex}` : escapedRegex);
    def.pattern = pattern;
    inst._zod.check = (payload) => {
        if (payload.value.includes(def.includes, def.position))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "includes",
            includes: def.includes,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckStartsWith = /*@__PURE__*/ $constructor("$ZodCheckStartsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`^${escapeRegex(def.prefix)}.*`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.startsWith(def.prefix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "starts_with",
            prefix: def.prefix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckEndsWith = /*@__PURE__*/ $constructor("$ZodCheckEndsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`.*${escapeRegex(def.suffix)}$`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.endsWith(def.suffix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "ends_with",
            suffix: def.suffix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
///////////////////////////////////
/////    $ZodCheckProperty    /////
///////////////////////////////////
function handleCheckPropertyResult(result, payload, property) {
    if (result.issues.length) {
        payload.issues.push(...prefixIssues(property, result.issues));
    }
}
const $ZodCheckProperty = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckProperty", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        const result = def.schema._zod.run({
            value: payload.value[def.property],
            issues: [],
        }, {});
        if (result instanceof Promise) {
            return result.then((result) => handleCheckPropertyResult(result, payload, def.property));
        }
        handleCheckPropertyResult(result, payload, def.property);
        return;
    };
})));
const $ZodCheckProperties = /*@__PURE__*/ $constructor("$ZodCheckProperties", (inst, def) => {
    $ZodCheck.init(inst, def);
    hide(inst, Symbol.iterator, function* () {
        yield inst;
    });
    // key and schema snapshotted together: reading one live and the other cached lets a later mutation of the caller's shape object pair a stale key with a missing schema
    let entries;
    inst._zod.check = (payload) => {
        // the base schema already typed the value, so only a nullish one is rejected here: the properties read on a primitive too, matching z.property() on a string's length
        if (payload.value == null) {
            payload.issues.push({ expected: "object", code: "invalid_type", input: payload.value, inst });
            return undefined;
        }
        entries ?? (entries = Reflect.ownKeys(def.shape).map((key) => [key, def.shape[key]]));
        const input = payload.value;
        let proms;
        for (const [key, schema] of entries) {
            const result = schema._zod.run({ value: input[key], issues: [] }, {});
            if (result instanceof Promise) {
                proms ?? (proms = []);
                proms.push(result.then((result) => handleCheckPropertyResult(result, payload, key)));
            }
            else {
                handleCheckPropertyResult(result, payload, key);
            }
        }
        if (proms)
            return Promise.all(proms).then(() => undefined);
        return undefined;
    };
});
const $ZodCheckMimeType = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMimeType", (inst, def) => {
    $ZodCheck.init(inst, def);
    const mimeSet = new Set(def.mime);
    inst._zod.check = (payload) => {
        if (mimeSet.has(payload.value.type))
            return;
        payload.issues.push({
            code: "invalid_value",
            values: def.mime,
            input: payload.value.type,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckOverwrite = /*@__PURE__*/ $constructor("$ZodCheckOverwrite", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        payload.value = def.tx(payload.value);
    };
});

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/doc.js
class Doc {
    constructor(args = [], closed = {}) {
        this.content = [];
        this.indent = 0;
        this.args = args;
        this.closed = closed;
    }
    // the compiler catches a child's throw and keeps writing into this doc, so the indent has to unwind with it
    indented(fn) {
        this.indent += 1;
        try {
            fn(this);
        }
        finally {
            this.indent -= 1;
        }
    }
    write(arg) {
        if (typeof arg === "function") {
            arg(this, { execution: "sync" });
            arg(this, { execution: "async" });
            return;
        }
        const content = arg;
        const lines = content.split("\n").filter((x) => x);
        const minIndent = Math.min(...lines.map((x) => x.length - x.trimStart().length));
        const dedented = lines.map((x) => x.slice(minIndent)).map((x) => " ".repeat(this.indent * 2) + x);
        for (const line of dedented) {
            this.content.push(line);
        }
    }
    compile() {
        const F = Function;
        const content = this?.content ?? [``];
        const factory = new F(...Object.keys(this.closed), `return function (${this.args.join(", ")}) {\n${content.join("\n")}\n};`);
        return factory(...Object.values(this.closed));
    }
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/versions.js
const version = {
    major: 4,
    minor: 6,
    patch: 7,
};

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/schemas.js







const $ZodType = /*@__PURE__*/ $constructor("$ZodType", (inst, def) => {
    var _a;
    inst ?? (inst = {});
    inst._zod.def = def; // set _def property
    inst._zod.bag = inst._zod.bag || {}; // initialize _bag object
    inst._zod.version = version;
    const defChecks = inst._zod.def.checks;
    // if inst is itself a checks.$ZodCheck, run it as a check
    const checks = inst._zod.traits.has("$ZodCheck")
        ? [inst, ...(defChecks ?? [])]
        : defChecks?.length
            ? [...defChecks]
            : [];
    for (const ch of checks) {
        for (const fn of ch._zod.onattach) {
            fn(inst);
        }
    }
    if (checks.length === 0) {
        // deferred initializer inst._zod.parse is not yet defined
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred?.push(() => {
            inst._zod.run = inst._zod.parse;
        });
    }
    else {
        const runChecks = (payload, checks, ctx) => {
            if (payload.memo)
                return payload;
            let isAborted = aborted(payload);
            let asyncResult;
            for (const ch of checks) {
                if (ch._zod.def.when) {
                    if (explicitlyAborted(payload))
                        continue;
                    const shouldRun = ch._zod.def.when(payload);
                    if (!shouldRun)
                        continue;
                }
                else if (isAborted) {
                    continue;
                }
                const currLen = payload.issues.length;
                const _ = ch._zod.check(payload);
                if (_ instanceof Promise && ctx?.async === false) {
                    throw new $ZodAsyncError();
                }
                if (asyncResult || _ instanceof Promise) {
                    asyncResult = (asyncResult ?? Promise.resolve()).then(async () => {
                        await _;
                        const nextLen = payload.issues.length;
                        if (nextLen === currLen)
                            return;
                        attachSchema(payload.issues, currLen, inst);
                        if (!isAborted)
                            isAborted = aborted(payload, currLen);
                    });
                }
                else {
                    const nextLen = payload.issues.length;
                    if (nextLen === currLen)
                        continue;
                    attachSchema(payload.issues, currLen, inst);
                    if (!isAborted)
                        isAborted = aborted(payload, currLen);
                }
            }
            if (asyncResult) {
                return asyncResult.then(() => {
                    return payload;
                });
            }
            return payload;
        };
        const handleCanaryResult = (canary, payload, ctx) => {
            // abort if the canary is aborted
            if (aborted(canary)) {
                canary.aborted = true;
                return canary;
            }
            // run checks first, then
            const checkResult = runChecks(payload, checks, ctx);
            if (checkResult instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return checkResult.then((checkResult) => inst._zod.parse(checkResult, ctx));
            }
            return inst._zod.parse(checkResult, ctx);
        };
        inst._zod.run = (payload, ctx) => {
            if (ctx.skipChecks) {
                return inst._zod.parse(payload, ctx);
            }
            if (ctx.direction === "backward") {
                // run canary initial pass (no checks)
                const canary = inst._zod.parse({ value: payload.value, issues: [] }, { ...ctx, skipChecks: true });
                if (canary instanceof Promise) {
                    return canary.then((canary) => {
                        return handleCanaryResult(canary, payload, ctx);
                    });
                }
                return handleCanaryResult(canary, payload, ctx);
            }
            // forward
            const result = inst._zod.parse(payload, ctx);
            if (result instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return result.then((result) => runChecks(result, checks, ctx));
            }
            return runChecks(result, checks, ctx);
        };
    }
}, {
    // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
    get "~standard"() {
        return hide(this, "~standard", standardProps(this));
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
});
/** The Standard Schema surface for `inst`. Shared so wrappers can extend it without forcing it. */
// a Standard Schema result only reports issues, so a failure finalizes them straight off the raw payload: no ZodError, and no lazy result to read through
const toStandardResult = (r, ctx) => r.issues.length ? { issues: r.issues.map((iss) => finalizeIssue(iss, ctx, config())) } : { value: r.value };
async function validateAsync(inst, value) {
    const ctx = { async: true };
    return toStandardResult((await inst._zod.run({ value, issues: [] }, ctx)), ctx);
}
function standardProps(inst) {
    return {
        validate: (value) => {
            const ctx = { async: false };
            try {
                const r = inst._zod.run({ value, issues: [] }, ctx);
                if (!(r instanceof Promise))
                    return toStandardResult(r, ctx);
            }
            catch (_) { }
            // async function so a synchronously throwing check rejects instead of escaping validate
            return validateAsync(inst, value);
        },
        vendor: "zod",
        version: 1,
    };
}

const $ZodString = /*@__PURE__*/ $constructor("$ZodString", (inst, def) => {
    $ZodType.init(inst, def);
    // a format's own pattern, else unbounded; a template literal derives the check-aware form itself
    inst._zod.pattern = def.pattern ?? anyString;
    inst._zod.parse = (payload, _) => {
        if (def.coerce)
            try {
                payload.value = String(payload.value);
            }
            catch (_) { }
        if (typeof payload.value === "string")
            return payload;
        payload.issues.push({
            expected: "string",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodStringFormat = /*@__PURE__*/ $constructor("$ZodStringFormat", (inst, def) => {
    // check initialization must come first
    $ZodCheckStringFormat.init(inst, def);
    $ZodString.init(inst, def);
});
const $ZodGUID = /*@__PURE__*/ $constructor("$ZodGUID", (inst, def) => {
    def.pattern ?? (def.pattern = guid);
    $ZodStringFormat.init(inst, def);
});
const $ZodUUID = /*@__PURE__*/ $constructor("$ZodUUID", (inst, def) => {
    if (def.version) {
        const versionMap = {
            v1: 1,
            v2: 2,
            v3: 3,
            v4: 4,
            v5: 5,
            v6: 6,
            v7: 7,
            v8: 8,
        };
        const v = versionMap[def.version];
        if (v === undefined)
            throw new Error(`Invalid UUID version: "${def.version}"`);
        def.pattern ?? (def.pattern = uuid(v));
    }
    else
        def.pattern ?? (def.pattern = uuid());
    $ZodStringFormat.init(inst, def);
});
const $ZodEmail = /*@__PURE__*/ $constructor("$ZodEmail", (inst, def) => {
    def.pattern ?? (def.pattern = email);
    $ZodStringFormat.init(inst, def);
});
/** The `://` guard rejected the input before the URL constructor saw it. */
const URL_BAD_FORMAT = 1;
/** The URL parser rejected the input. */
const URL_UNPARSEABLE = 2;
function canParseURL(input) {
    try {
        if (typeof URL !== "undefined" && typeof URL.canParse === "function")
            return URL.canParse(input);
        new URL(input);
        return true;
    }
    catch {
        return false;
    }
}
function validateURL(trimmed, def) {
    if (!("normalize" in def) && !("hostname" in def) && !("protocol" in def)) {
        return canParseURL(trimmed) || URL_UNPARSEABLE;
    }
    return parseURLObject(trimmed, def);
}
/** Parses a URL while preserving the non-normalizing HTTP guard. */
function parseURLObject(trimmed, def) {
    // When normalize is off, require :// for http/https URLs. This prevents strings like "http:example.com" or "https:/path" from being silently accepted
    if (!def.normalize && def.protocol?.source === httpProtocol.source && !/^https?:\/\//i.test(trimmed)) {
        return URL_BAD_FORMAT;
    }
    try {
        if (typeof URL !== "undefined") {
            const URLStatic = URL;
            if (typeof URLStatic.parse === "function")
                return URLStatic.parse(trimmed) ?? URL_UNPARSEABLE;
        }
        // @ts-ignore
        return new URL(trimmed);
    }
    catch {
        return URL_UNPARSEABLE;
    }
}
const asciiTabOrNewline = /[\t\n\r]/g;
/** The URL parser deletes every ASCII tab, LF and CR from its input before it parses, so `new URL("https://exa\nmple.com")` reports on `example.com`. Applying the same deletion to the returned value closes the half of that divergence which can move the host; the parser's other rewrite, stripping C0 controls at the edges, cannot. */
function stripTabAndNewline(value) {
    return value.replace(asciiTabOrNewline, "");
}
function urlHostnameOk(url, hostname) {
    hostname.lastIndex = 0;
    return hostname.test(url.hostname);
}
function urlProtocolOk(url, protocol) {
    protocol.lastIndex = 0;
    return protocol.test(url.protocol.endsWith(":") ? url.protocol.slice(0, -1) : url.protocol);
}
const $ZodURL = /*@__PURE__*/ $constructor("$ZodURL", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        try {
            // Trim whitespace from input
            const trimmed = payload.value.trim();
            const url = validateURL(trimmed, def);
            if (url === URL_BAD_FORMAT) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid URL format",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === URL_UNPARSEABLE) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === true) {
                payload.value = stripTabAndNewline(trimmed);
                return;
            }
            if (def.hostname && !urlHostnameOk(url, def.hostname)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid hostname",
                    pattern: def.hostname.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            if (def.protocol && !urlProtocolOk(url, def.protocol)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid protocol",
                    pattern: def.protocol.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            // Set the output value based on normalize flag
            payload.value = def.normalize ? url.href : stripTabAndNewline(trimmed);
            return;
        }
        catch (_) {
            payload.issues.push({
                code: "invalid_format",
                format: "url",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodEmoji = /*@__PURE__*/ $constructor("$ZodEmoji", (inst, def) => {
    def.pattern ?? (def.pattern = emoji());
    $ZodStringFormat.init(inst, def);
});
const $ZodNanoID = /*@__PURE__*/ $constructor("$ZodNanoID", (inst, def) => {
    if (def.length !== undefined && (!Number.isInteger(def.length) || def.length < 1))
        throw new Error(`Invalid nanoid length: ${def.length}`);
    def.pattern ?? (def.pattern = def.length === undefined ? nanoid : nanoidOfLength(def.length));
    $ZodStringFormat.init(inst, def);
});
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link $ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const $ZodCUID = /*@__PURE__*/ $constructor("$ZodCUID", (inst, def) => {
    def.pattern ?? (def.pattern = cuid);
    $ZodStringFormat.init(inst, def);
});
const $ZodCUID2 = /*@__PURE__*/ $constructor("$ZodCUID2", (inst, def) => {
    def.pattern ?? (def.pattern = cuid2);
    $ZodStringFormat.init(inst, def);
});
const $ZodULID = /*@__PURE__*/ $constructor("$ZodULID", (inst, def) => {
    def.pattern ?? (def.pattern = ulid);
    $ZodStringFormat.init(inst, def);
});
const $ZodXID = /*@__PURE__*/ $constructor("$ZodXID", (inst, def) => {
    def.pattern ?? (def.pattern = xid);
    $ZodStringFormat.init(inst, def);
});
const $ZodKSUID = /*@__PURE__*/ $constructor("$ZodKSUID", (inst, def) => {
    def.pattern ?? (def.pattern = ksuid);
    $ZodStringFormat.init(inst, def);
});
const $ZodISODateTime = /*@__PURE__*/ $constructor("$ZodISODateTime", (inst, def) => {
    def.pattern ?? (def.pattern = datetime(def));
    $ZodStringFormat.init(inst, def);
});
const $ZodISODate = /*@__PURE__*/ $constructor("$ZodISODate", (inst, def) => {
    def.pattern ?? (def.pattern = date);
    $ZodStringFormat.init(inst, def);
});
const $ZodISOTime = /*@__PURE__*/ $constructor("$ZodISOTime", (inst, def) => {
    def.pattern ?? (def.pattern = time(def));
    $ZodStringFormat.init(inst, def);
});
const $ZodISODuration = /*@__PURE__*/ $constructor("$ZodISODuration", (inst, def) => {
    def.pattern ?? (def.pattern = duration);
    $ZodStringFormat.init(inst, def);
});
const $ZodIPv4 = /*@__PURE__*/ $constructor("$ZodIPv4", (inst, def) => {
    def.pattern ?? (def.pattern = ipv4);
    $ZodStringFormat.init(inst, def);
});
/** An IPv6 address is written with hex digits, colons and dots, and nothing else. The guard is what makes the check below an IPv6 check: `new URL("http://[...]")` parses an authority, not an address, so `@` and `\` re-delimit it and `"::@1\\"` validates against the host `0.0.0.1`. The URL parser also deletes ASCII tab, LF and CR rather than failing, which is how `"::1\n"` validated as `::1`. */
const ipv6Alphabet = /^[0-9a-fA-F:.]+$/;
function isValidIPv6(value) {
    if (!ipv6Alphabet.test(value))
        return false;
    return canParseURL(`http://[${value}]`);
}
const $ZodIPv6 = /*@__PURE__*/ $constructor("$ZodIPv6", (inst, def) => {
    def.pattern ?? (def.pattern = ipv6);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidIPv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "ipv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodMAC = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodMAC", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.mac(def.delimiter));
    $ZodStringFormat.init(inst, def);
})));
const $ZodCIDRv4 = /*@__PURE__*/ $constructor("$ZodCIDRv4", (inst, def) => {
    def.pattern ?? (def.pattern = cidrv4);
    $ZodStringFormat.init(inst, def);
});
function isValidCIDRv6(value) {
    const parts = value.split("/");
    if (parts.length !== 2)
        return false;
    const [address, prefix] = parts;
    if (!prefix)
        return false;
    const prefixNum = Number(prefix);
    if (`${prefixNum}` !== prefix)
        return false;
    if (prefixNum < 0 || prefixNum > 128)
        return false;
    return isValidIPv6(address);
}
const $ZodCIDRv6 = /*@__PURE__*/ $constructor("$ZodCIDRv6", (inst, def) => {
    def.pattern ?? (def.pattern = cidrv6); // not used for validation
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidCIDRv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "cidrv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
//////////////////////////////   ZodBase64   //////////////////////////////
function isValidBase64(data) {
    if (data === "")
        return true;
    // atob ignores whitespace, so reject it up front.
    if (/\s/.test(data))
        return false;
    if (data.length % 4 !== 0)
        return false;
    try {
        // @ts-ignore
        atob(data);
        return true;
    }
    catch {
        return false;
    }
}
// lax on purpose: the quantified regexes.base64 overflows the regex stack on multi-MB input and its leading ^$| alternation leaks through template-literal composition; isValidBase64 enforces length and padding
const base64Charset = /^[0-9a-zA-Z+/]*={0,2}$/;
const $ZodBase64 = /*@__PURE__*/ $constructor("$ZodBase64", (inst, def) => {
    def.pattern ?? (def.pattern = base64Charset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
//////////////////////////////   ZodBase64URL   //////////////////////////////
// lax on purpose: the quantified regexes.base64url overflows the regex stack on multi-MB input; isValidBase64 enforces length on the padded string
const base64urlCharset = /^[A-Za-z0-9_-]*$/;
function isValidBase64URL(data) {
    if (!base64urlCharset.test(data))
        return false;
    const base64 = data.replace(/[-_]/g, (c) => (c === "-" ? "+" : "/"));
    const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, "=");
    return isValidBase64(padded);
}
const $ZodBase64URL = /*@__PURE__*/ $constructor("$ZodBase64URL", (inst, def) => {
    def.pattern ?? (def.pattern = base64urlCharset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64URL(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64url",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodE164 = /*@__PURE__*/ $constructor("$ZodE164", (inst, def) => {
    def.pattern ?? (def.pattern = e164);
    $ZodStringFormat.init(inst, def);
});
//////////////////////////////   ZodCreditCard   //////////////////////////////
const CC_SANITIZE = /[- ]/g;
/** Luhn checksum on a digit-only string. Adapted from valibot (MIT). */
function isLuhnAlgo(digits) {
    let length = digits.length;
    let bit = 1;
    let sum = 0;
    while (length) {
        const value = digits.charCodeAt(--length) - 48;
        bit ^= 1;
        sum += bit ? [0, 2, 4, 6, 8, 1, 3, 5, 7, 9][value] : value;
    }
    return sum % 10 === 0;
}
function isValidCreditCard(input) {
    if (!regexes.creditCard.test(input))
        return false;
    return isLuhnAlgo(input.replace(CC_SANITIZE, ""));
}
const $ZodCreditCard = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCreditCard", (inst, def) => {
    // Shape only — the Luhn check below is not expressible as a pattern, so consumers of `pattern` (JSON Schema, template literals) get the length and separator rules alone.
    def.pattern ?? (def.pattern = regexes.creditCard);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidCreditCard(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "credit_card",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
//////////////////////////////   ZodIBAN   //////////////////////////////
// iso 7064 mod 97-10 checksum without BigInt
function isIso7064Mod97(iban) {
    let remainder = 0;
    const len = iban.length;
    for (let i = 4; i < len; i++) {
        const code = iban.charCodeAt(i);
        remainder = (code >= 65 ? remainder * 100 + (code - 55) : remainder * 10 + (code - 48)) % 97;
    }
    for (let i = 0; i < 4; i++) {
        const code = iban.charCodeAt(i);
        remainder = (code >= 65 ? remainder * 100 + (code - 55) : remainder * 10 + (code - 48)) % 97;
    }
    return remainder === 1;
}
function isValidIBAN(input) {
    if (!regexes.iban.test(input))
        return false;
    return isIso7064Mod97(input);
}
const $ZodIBAN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodIBAN", (inst, def) => {
    // shape only — checksum is not expressible as a pattern
    def.pattern ?? (def.pattern = regexes.iban);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidIBAN(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "iban",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
//////////////////////////////   ZodJWT   //////////////////////////////
function isValidJWT(token, algorithm = null) {
    try {
        const tokensParts = token.split(".");
        if (tokensParts.length !== 3)
            return false;
        const [header] = tokensParts;
        if (!header)
            return false;
        // @ts-ignore
        const parsedHeader = JSON.parse(atob(header));
        if ("typ" in parsedHeader && parsedHeader?.typ !== "JWT")
            return false;
        if (!parsedHeader.alg)
            return false;
        if (algorithm && (!("alg" in parsedHeader) || parsedHeader.alg !== algorithm))
            return false;
        return true;
    }
    catch {
        return false;
    }
}
const $ZodJWT = /*@__PURE__*/ $constructor("$ZodJWT", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidJWT(payload.value, def.alg))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "jwt",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCustomStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCustomStringFormat", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (def.fn(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: def.format,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodNumber = /*@__PURE__*/ $constructor("$ZodNumber", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = number;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Number(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "number" && !Number.isNaN(input) && Number.isFinite(input)) {
            return payload;
        }
        const received = typeof input === "number"
            ? Number.isNaN(input)
                ? "NaN"
                : !Number.isFinite(input)
                    ? String(input)
                    : undefined
            : undefined;
        payload.issues.push({
            expected: "number",
            code: "invalid_type",
            input,
            inst,
            ...(received ? { received } : {}),
        });
        return payload;
    };
});
const $ZodNumberFormat = /*@__PURE__*/ $constructor("$ZodNumberFormat", (inst, def) => {
    $ZodCheckNumberFormat.init(inst, def);
    $ZodNumber.init(inst, def); // no format checks
});
const $ZodBoolean = /*@__PURE__*/ $constructor("$ZodBoolean", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes_boolean;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Boolean(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "boolean")
            return payload;
        payload.issues.push({
            expected: "boolean",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
});
const $ZodBigInt = /*@__PURE__*/ $constructor("$ZodBigInt", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = bigint;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = BigInt(payload.value);
            }
            catch (_) { }
        if (typeof payload.value === "bigint")
            return payload;
        payload.issues.push({
            expected: "bigint",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodBigIntFormat", (inst, def) => {
    checks.$ZodCheckBigIntFormat.init(inst, def);
    $ZodBigInt.init(inst, def); // no format checks
})));
const $ZodSymbol = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSymbol", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "symbol")
            return payload;
        payload.issues.push({
            expected: "symbol",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodUndefined = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodUndefined", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes.undefined;
    inst._zod.values = new Set([undefined]);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "undefined")
            return payload;
        payload.issues.push({
            expected: "undefined",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodNull = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodNull", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes.null;
    inst._zod.values = new Set([null]);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (input === null)
            return payload;
        payload.issues.push({
            expected: "null",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodAny = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodAny", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload) => payload;
})));
const $ZodUnknown = /*@__PURE__*/ $constructor("$ZodUnknown", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload) => payload;
});
const $ZodNever = /*@__PURE__*/ $constructor("$ZodNever", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        payload.issues.push({
            expected: "never",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodVoid = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodVoid", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "undefined")
            return payload;
        payload.issues.push({
            expected: "void",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodDate = /*@__PURE__*/ $constructor("$ZodDate", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce) {
            try {
                payload.value = new Date(payload.value);
            }
            catch (_err) { }
        }
        const input = payload.value;
        const isDate = input instanceof Date;
        const isValidDate = isDate && !Number.isNaN(input.getTime());
        if (isValidDate)
            return payload;
        payload.issues.push({
            expected: "date",
            code: "invalid_type",
            input,
            ...(isDate ? { received: "Invalid Date" } : {}),
            inst,
        });
        return payload;
    };
});
// an oversized container fails its leading size checks before any element is parsed
function capSize(inst, size) {
    const caps = sizeCaps(inst._zod.def.checks);
    if (!caps.length)
        return;
    const cap = Math.min(...caps.map((c) => c[0]));
    const parse = inst._zod.parse;
    inst._zod.parse = (payload, ctx) => {
        const n = size(payload.value);
        if (n > cap && !ctx?.skipChecks && ctx?.direction !== "backward") {
            for (const [max, ch] of sizeCaps(inst._zod.def.checks)) {
                if (n > max && ch._zod.def.when(payload)) {
                    const start = payload.issues.length;
                    ch._zod.check(payload);
                    // the value is still the raw input, so no later check may read it
                    payload.issues[start].continue = false;
                    attachSchema(payload.issues, start, inst);
                    return payload;
                }
            }
        }
        return parse(payload, ctx);
    };
}
const arraySize = (input) => (Array.isArray(input) ? input.length : -1);
const mapSize = (input) => (input instanceof Map ? input.size : -1);
const setSize = (input) => (input instanceof Set ? input.size : -1);
function handleArrayResult(result, final, index) {
    if (result.issues.length) {
        final.issues.push(...prefixIssues(index, result.issues));
    }
    final.value[index] = result.value;
}
const $ZodArray = /*@__PURE__*/ $constructor("$ZodArray", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
            payload.issues.push({
                expected: "array",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, Array(input.length), ctx) : Array(input.length);
        const proms = [];
        const abortEarly = ctx?.abortEarly;
        for (let i = 0; i < input.length; i++) {
            const item = input[i];
            const result = def.element._zod.run({
                value: item,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                proms.push(result.then((result) => handleArrayResult(result, payload, i)));
            }
            else {
                handleArrayResult(result, payload, i);
                // the element's payload is authoritative here, since handleArrayResult forwards every issue; an object's is not, because it drops a failed absent optional
                if (abortEarly && result.issues.length !== 0 && aborted(result))
                    break;
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload; //handleArrayResultsAsync(parseResults, final);
    };
    capSize(inst, arraySize);
});
function handlePropertyResult(result, final, key, input, optin, optout) {
    const isPresent = key in input;
    const isOptionalOut = optout === "optional";
    // The middle rung means "absence permitted, nothing supplied in its place", so an absent key contributes nothing — whatever the schema made of `undefined` is invented, not substituted. Only `optional` reaches this with a value: `defaulted` substitutes, and a schema that isn't optional-out has to keep the key.
    if (!isPresent && isOptionalOut && optin === "optional") {
        return;
    }
    if (result.issues.length) {
        // For optional-in/out schemas, ignore errors on absent keys.
        if (optin !== undefined && isOptionalOut && !isPresent) {
            return;
        }
        final.issues.push(...prefixIssues(key, result.issues));
    }
    if (!isPresent && optin === undefined) {
        if (!result.issues.length) {
            final.issues.push({
                code: "invalid_type",
                expected: "nonoptional",
                input: undefined,
                path: [key],
            });
        }
        return;
    }
    if (result.value === undefined) {
        if (isPresent || (optin === "defaulted" && !isOptionalOut)) {
            final.value[key] = undefined;
        }
    }
    else {
        final.value[key] = result.value;
    }
}
// one shared instance; a fresh [] per schema cost 56 bytes retained
const NO_SYMBOL_KEYS = [];
function normalizeDef(def) {
    const keys = Object.keys(def.shape);
    const ownSymbols = Object.getOwnPropertySymbols(def.shape);
    const symbolKeys = ownSymbols.length ? ownSymbols : NO_SYMBOL_KEYS;
    // aliases `keys` when there are no symbols, so a string-only shape keeps one array
    const allKeys = symbolKeys.length ? [...keys, ...symbolKeys] : keys;
    for (const k of allKeys) {
        if (!def.shape?.[k]?._zod?.traits?.has("$ZodType")) {
            throw new Error(`Invalid element at key "${String(k)}": expected a Zod schema`);
        }
    }
    const okeys = optionalKeys(def.shape);
    return {
        ...def,
        allKeys,
        symbolKeys,
        // string-only: handleCatchall matches it against `for...in`, which never yields a symbol
        keySet: new Set(keys),
        numKeys: keys.length,
        optionalKeys: new Set(okeys),
    };
}
function handleCatchall(proms, input, payload, ctx, def, inst, abortEarly) {
    const unrecognized = [];
    const keySet = def.keySet;
    const _catchall = def.catchall._zod;
    const t = _catchall.def.type;
    const optin = _catchall.optin;
    const optout = _catchall.optout;
    // starts at 0, not the current length: the shape phase already ran and may have aborted
    let seen = 0;
    for (const key in input) {
        if (abortEarly && payload.issues.length !== seen) {
            if (aborted(payload, seen))
                break;
            seen = payload.issues.length;
        }
        // Must precede the __proto__ branch: a declared key is not unrecognized, even though the shape loop deliberately strips __proto__ from the parsed output.
        if (keySet.has(key))
            continue;
        // Don't copy an undeclared __proto__ into the result; assignment to a plain {} would replace the result prototype. But in strict mode it is still an unknown key, so report it before skipping.
        if (key === "__proto__") {
            if (t === "never")
                unrecognized.push(key);
            continue;
        }
        if (t === "never") {
            unrecognized.push(key);
            continue;
        }
        const r = _catchall.run({ value: input[key], issues: [] }, ctx);
        if (r instanceof Promise) {
            proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
        }
        else {
            handlePropertyResult(r, payload, key, input, optin, optout);
        }
    }
    if (unrecognized.length) {
        payload.issues.push({
            code: "unrecognized_keys",
            keys: unrecognized,
            input,
            inst,
            // Describes the shape of the input, not the validity of the parsed value, so it never aborts. The parse still fails; the schema's own checks just get to run first, and an enclosing intersection can reconcile the key against a sibling operand.
            continue: true,
        });
    }
    if (!proms.length)
        return payload;
    return Promise.all(proms).then(() => {
        return payload;
    });
}
const $ZodObject = /*@__PURE__*/ $constructor("$ZodObject", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodType.init(inst, def);
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    // a cloned def carries its source's accessor, which knows the shape it answers from; adopting that keeps the clone's keys readable without running it
    const sh = desc?.get ? desc.get.raw : (def.shape ?? {});
    if (sh) {
        // Freezes the shape on first read, so its getters resolve once and every later read sees the same schemas.
        const get = () => {
            const newSh = { ...sh };
            Object.defineProperty(def, "shape", { value: newSh });
            get.raw = newSh;
            return newSh;
        };
        get.raw = sh;
        Object.defineProperty(def, "shape", { get });
    }
    const _normalized = cached(() => normalizeDef(def));
    defineLazyInternal(inst, "propValues", (zod) => {
        const shape = zod.def.shape;
        const propValues = {};
        for (const key in shape) {
            const field = shape[key]._zod;
            if (field.values) {
                if (!Object.prototype.hasOwnProperty.call(propValues, key)) {
                    util_assignProp(propValues, key, new Set());
                }
                for (const v of field.values)
                    propValues[key].add(v);
                // An omittable slot reads back as undefined at a discriminator lookup, so it has to claim undefined: two options that can both omit the key are not discriminable on it.
                if (field.optin !== undefined)
                    propValues[key].add(undefined);
            }
        }
        return propValues;
    });
    const isObject = util_isObject;
    const catchall = def.catchall;
    let value;
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
        const proms = [];
        const shape = value.shape;
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const key of value.allKeys) {
            if (abortEarly && payload.issues.length !== seen) {
                if (aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            if (key === "__proto__")
                continue;
            const el = shape[key];
            const optin = el._zod.optin;
            const optout = el._zod.optout;
            const r = el._zod.run({ value: input[key], issues: [] }, ctx);
            if (r instanceof Promise) {
                proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
            }
            else {
                handlePropertyResult(r, payload, key, input, optin, optout);
            }
        }
        if (!catchall) {
            return proms.length ? Promise.all(proms).then(() => payload) : payload;
        }
        return handleCatchall(proms, input, payload, ctx, _normalized.value, inst, abortEarly === true);
    };
});
const $ZodObjectJIT = /*@__PURE__*/ $constructor("$ZodObjectJIT", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodObject.init(inst, def);
    const superParse = inst._zod.parse;
    const _normalized = cached(() => normalizeDef(def));
    const memo = globalConfig.memoizer;
    const generateFastpass = (shape) => {
        const normalized = _normalized.value;
        const syms = normalized.symbolKeys;
        // a symbol has no source literal, so it is read as `syms[i]` off the closed-over scope
        const doc = new Doc(["payload", "ctx"], { shape, inst, memo, syms });
        const parseStr = (k) => `shape[${k}]._zod.run({ value: input[${k}], issues: [] }, ctx)`;
        // prefixes in place, like util.prefixIssues. newResult must land before the early return: a catchall runs after this and would otherwise write onto the caller's input
        const prefixStr = (id, k) => `
          let ${id}_ab = false;
          for (let i = 0; i < ${id}.issues.length; i++) {
            const iss = ${id}.issues[i];
            iss.path = iss.path ? [${k}, ...iss.path] : [${k}];
            payload.issues.push(iss);
            if (iss.continue !== true) ${id}_ab = true;
          }
          if (${id}_ab && ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }`;
        doc.write(`const input = payload.value;`);
        const ids = Object.create(null);
        let counter = 0;
        for (const key of normalized.allKeys) {
            ids[key] = `key_${counter++}`;
        }
        // A: preserve key order {
        doc.write(memo ? `const newResult = memo.alloc(inst, payload, {}, ctx);` : `const newResult = {};`);
        for (const key of normalized.allKeys) {
            if (key === "__proto__")
                continue;
            const id = ids[key];
            const k = typeof key === "symbol" ? `syms[${syms.indexOf(key)}]` : esc(key);
            const isPresent = `${k} in input`;
            const schema = shape[key];
            const optin = schema?._zod?.optin;
            const isOptionalIn = optin !== undefined;
            const isOptionalOut = schema?._zod?.optout === "optional";
            doc.write(`const ${id} = ${parseStr(k)};`);
            if (isOptionalIn && isOptionalOut) {
                // For optional-in/out schemas, ignore errors on absent keys — and, like the interpreted path, drop the value produced alongside them. The middle rung goes further: it permits absence without supplying anything in its place, so an absent key contributes nothing at all.
                const assign = optin === "optional" ? `${id}_present` : `${id}.value !== undefined || ${id}_present`;
                doc.write(`
        const ${id}_present = ${isPresent};
        if (!${id}.issues.length || ${id}_present) {
          if (${id}.issues.length) {${prefixStr(id, k)}
          }

          if (${assign}) {
            newResult[${k}] = ${id}.value;
          }
        }

      `);
            }
            else if (!isOptionalIn) {
                doc.write(`
        const ${id}_present = ${isPresent};
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
        if (!${id}_present && !${id}.issues.length) {
          payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: undefined,
            path: [${k}]
          });
          if (ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }
        }

        if (${id}_present) {
          newResult[${k}] = ${id}.value;
        }

      `);
            }
            else {
                doc.write(`
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
      `);
                if (optin === "defaulted") {
                    doc.write(`newResult[${k}] = ${id}.value;`);
                }
                else {
                    doc.write(`
        if (${id}.value !== undefined || ${isPresent}) {
          newResult[${k}] = ${id}.value;
        }
      `);
                }
            }
        }
        doc.write(`payload.value = newResult;`);
        doc.write(`return payload;`);
        // closing `shape` in is what pays: turbofan specializes the parser against that one shape object, so every `shape[k]._zod.run` folds to a known callee. as a parameter it stays a generic load and measures 13% slower even with the forwarding frame gone
        return doc.compile();
    };
    let fastpass;
    const isObject = util_isObject;
    const jit = !globalConfig.jitless;
    const allowsEval = util_allowsEval;
    const fastEnabled = jit && allowsEval.value; // && !def.catchall;
    const catchall = def.catchall;
    let value;
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        if (jit && fastEnabled && ctx?.async === false && ctx.jitless !== true) {
            // always synchronous
            if (!fastpass)
                fastpass = generateFastpass(def.shape);
            payload = fastpass(payload, ctx);
            if (!catchall)
                return payload;
            return handleCatchall([], input, payload, ctx, value, inst, ctx?.abortEarly === true);
        }
        return superParse(payload, ctx);
    };
});
function handleUnionResults(results, final, inst, ctx) {
    for (const result of results) {
        if (result.issues.length === 0) {
            final.value = result.value;
            return final;
        }
    }
    const nonaborted = results.filter((r) => !aborted(r));
    if (nonaborted.length === 1) {
        final.value = nonaborted[0].value;
        return nonaborted[0];
    }
    final.issues.push({
        code: "invalid_union",
        input: final.value,
        inst,
        errors: results.map((result) => result.issues.map((iss) => finalizeIssue(iss, ctx, config()))),
    });
    return final;
}
const $ZodUnion = /*@__PURE__*/ $constructor("$ZodUnion", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.options.some((o) => o._zod.optin === "defaulted")
        ? "defaulted"
        : zod.def.options.some((o) => o._zod.optin !== undefined)
            ? "optional"
            : undefined);
    defineLazyInternal(inst, "optout", (zod) => zod.def.options.some((o) => o._zod.optout === "optional") ? "optional" : undefined);
    defineLazyInternal(inst, "values", (zod) => {
        if (zod.def.options.every((o) => o._zod.values)) {
            return new Set(zod.def.options.flatMap((option) => Array.from(option._zod.values)));
        }
        return undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        if (zod.def.options.every((o) => o._zod.pattern)) {
            const patterns = zod.def.options.map((o) => o._zod.pattern);
            return new RegExp(`^(${patterns.map((p) => cleanRegex(p.source)).join("|")})$`);
        }
        return undefined;
    });
    const first = def.options.length === 1 ? def.options[0]._zod.run : null;
    inst._zod.parse = (payload, ctx) => {
        if (first) {
            return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
            const result = option._zod.run({
                value: payload.value,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                results.push(result);
                async = true;
            }
            else {
                if (result.issues.length === 0)
                    return result;
                results.push(result);
            }
        }
        if (!async)
            return handleUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results) => {
            return handleUnionResults(results, payload, inst, ctx);
        });
    };
});
function handleExclusiveUnionResults(results, final, inst, ctx) {
    const matches = [];
    for (let i = 0; i < results.length; i++) {
        if (results[i].issues.length === 0)
            matches.push(i);
    }
    if (matches.length === 1) {
        final.value = results[matches[0]].value;
        return final;
    }
    if (matches.length === 0) {
        // No matches - same as regular union
        final.issues.push({
            code: "invalid_union",
            input: final.value,
            inst,
            errors: results.map((result) => result.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config()))),
        });
    }
    else {
        // Multiple matches - exclusive union failure
        final.issues.push({
            code: "invalid_union",
            input: final.value,
            inst,
            errors: [],
            inclusive: false,
            matches,
        });
    }
    return final;
}
const $ZodXor = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodXor", (inst, def) => {
    $ZodUnion.init(inst, def);
    def.inclusive = false;
    const first = def.options.length === 1 ? def.options[0]._zod.run : null;
    inst._zod.parse = (payload, ctx) => {
        if (first) {
            return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
            const result = option._zod.run({
                value: payload.value,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                results.push(result);
                async = true;
            }
            else {
                results.push(result);
            }
        }
        if (!async)
            return handleExclusiveUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results) => {
            return handleExclusiveUnionResults(results, payload, inst, ctx);
        });
    };
})));
/** Returns the option whose discriminator claims `value`, or throws if ambiguous. */
function getDiscriminatedOption(union, value) {
    const internals = union._zod;
    let map = internals.bag.optionsMap;
    if (!map) {
        map = discriminatorMap(internals.def);
        internals.bag.optionsMap = map;
    }
    const option = map.get(value);
    if (option === null)
        throw new Error(`Ambiguous discriminator value "${String(value)}"`);
    return option;
}
function discriminatorMap(def) {
    const map = new Map();
    for (const option of def.options) {
        const values = option._zod.propValues?.[def.discriminator];
        if (!values || values.size === 0)
            throw new Error(`Invalid discriminated union option at index "${def.options.indexOf(option)}"`);
        for (const value of values) {
            if (map.has(value)) {
                if (value !== undefined)
                    throw new Error(`Duplicate discriminator value "${String(value)}"`);
                // keep the collision marked so a later member cannot reclaim it
                map.set(value, null);
            }
            else {
                map.set(value, option);
            }
        }
    }
    return map;
}
const $ZodDiscriminatedUnion = 
/*@__PURE__*/
$constructor("$ZodDiscriminatedUnion", (inst, def) => {
    def.inclusive = false;
    $ZodUnion.init(inst, def);
    const _super = inst._zod.parse;
    defineLazyInternal(inst, "propValues", (zod) => {
        const propValues = {};
        let undefinedCount = 0;
        for (const option of zod.def.options) {
            const pv = option._zod.propValues;
            if (!pv || Object.keys(pv).length === 0)
                throw new Error(`Invalid discriminated union option at index "${zod.def.options.indexOf(option)}"`);
            if (pv[zod.def.discriminator]?.has(undefined))
                undefinedCount++;
            for (const [k, v] of Object.entries(pv)) {
                if (!Object.prototype.hasOwnProperty.call(propValues, k)) {
                    util_assignProp(propValues, k, new Set());
                }
                for (const val of v) {
                    propValues[k].add(val);
                }
            }
        }
        if (!zod.def.unionFallback && undefinedCount > 1)
            propValues[zod.def.discriminator]?.delete(undefined);
        return propValues;
    });
    // Checked now rather than in the lookup map below, so an option that lacks the discriminator fails at the `discriminatedUnion` call instead of on the first object parsed. Options whose shape cannot be enumerated without resolving it — pipes and lazies — are left to the map.
    def.options.forEach((option, i) => {
        const propShape = rawShape(option._zod.def);
        if (propShape && !Object.prototype.hasOwnProperty.call(propShape, def.discriminator)) {
            throw new Error(`Invalid discriminated union option at index "${i}"`);
        }
    });
    const disc = cached(() => discriminatorMap(def));
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!util_isObject(input)) {
            payload.issues.push({
                code: "invalid_type",
                expected: "object",
                input,
                inst,
            });
            return payload;
        }
        const value = input?.[def.discriminator];
        const opt = disc.value.get(value);
        // forward metadata cannot choose an encoder for an absent tag
        if (opt && (value !== undefined || ctx.direction !== "backward")) {
            return opt._zod.run(payload, ctx);
        }
        // Fall back to union matching when the fast discriminator path fails:
        // - explicitly enabled via unionFallback, or
        // - during backward direction (encode), since codec-based discriminators have different values in forward vs backward directions
        if (def.unionFallback || ctx.direction === "backward") {
            return _super(payload, ctx);
        }
        // no matching discriminator
        payload.issues.push({
            code: "invalid_union",
            errors: [],
            note: "No matching discriminator",
            discriminator: def.discriminator,
            options: Array.from(disc.value.keys()).filter((value) => disc.value.get(value) !== null),
            input,
            path: [def.discriminator],
            inst,
        });
        return payload;
    };
});
const $ZodIntersection = /*@__PURE__*/ $constructor("$ZodIntersection", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        const left = def.left._zod.run({ value: input, issues: [] }, ctx);
        const right = def.right._zod.run({ value: input, issues: [] }, ctx);
        const async = left instanceof Promise || right instanceof Promise;
        if (async) {
            return Promise.all([left, right]).then(([left, right]) => {
                return handleIntersectionResults(payload, left, right);
            });
        }
        return handleIntersectionResults(payload, left, right);
    };
});
function mergeValues(a, b) {
    // const aType = parse.t(a);
    // const bType = parse.t(b);
    if (a === b) {
        return { valid: true, data: a };
    }
    if (a instanceof Date && b instanceof Date && +a === +b) {
        return { valid: true, data: a };
    }
    if (isPlainObject(a) && isPlainObject(b)) {
        const bKeys = Object.keys(b);
        const sharedKeys = Object.keys(a).filter((key) => bKeys.indexOf(key) !== -1);
        const newObj = { ...a, ...b };
        if (Object.prototype.hasOwnProperty.call(newObj, "__proto__"))
            delete newObj.__proto__;
        for (const key of sharedKeys) {
            if (key === "__proto__")
                continue;
            const sharedValue = mergeValues(a[key], b[key]);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [key, ...sharedValue.mergeErrorPath],
                };
            }
            newObj[key] = sharedValue.data;
        }
        return { valid: true, data: newObj };
    }
    if (Array.isArray(a) && Array.isArray(b)) {
        if (a.length !== b.length) {
            return { valid: false, mergeErrorPath: [] };
        }
        const newArray = [];
        for (let index = 0; index < a.length; index++) {
            const itemA = a[index];
            const itemB = b[index];
            const sharedValue = mergeValues(itemA, itemB);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [index, ...sharedValue.mergeErrorPath],
                };
            }
            newArray.push(sharedValue.data);
        }
        return { valid: true, data: newArray };
    }
    return { valid: false, mergeErrorPath: [] };
}
function handleIntersectionResults(result, left, right) {
    // Track which side(s) reject each key. A key rejection is reported only when BOTH sides reject it, so a key owned by one branch survives the other's key schema. strictObject reports these as unrecognized_keys; a record with an open key schema reports one invalid_key per key.
    const unrecKeys = new Map();
    let unrecIssue;
    const keyIssues = new Map();
    const collect = (iss, side) => {
        let keys;
        if (iss.code === "unrecognized_keys" && !iss.path?.length) {
            unrecIssue ?? (unrecIssue = iss);
            keys = iss.keys;
        }
        else if (iss.code === "invalid_key" && iss.origin === "record" && iss.path?.length === 1) {
            const k = String(iss.path[0]);
            if (!keyIssues.has(k))
                keyIssues.set(k, iss);
            keys = [k];
        }
        else {
            return false;
        }
        for (const k of keys) {
            if (!unrecKeys.has(k))
                unrecKeys.set(k, {});
            unrecKeys.get(k)[side] = true;
        }
        return true;
    };
    for (const iss of left.issues) {
        if (!collect(iss, "l"))
            result.issues.push(iss);
    }
    for (const iss of right.issues) {
        if (!collect(iss, "r"))
            result.issues.push(iss);
    }
    // Report only keys rejected by BOTH sides
    const bothKeys = [...unrecKeys].filter(([, f]) => f.l && f.r).map(([k]) => k);
    if (bothKeys.length) {
        const aggregated = unrecIssue ? bothKeys.filter((k) => unrecIssue.keys.includes(k)) : [];
        if (aggregated.length)
            result.issues.push({ ...unrecIssue, keys: aggregated });
        for (const k of bothKeys) {
            if (!aggregated.includes(k) && keyIssues.has(k))
                result.issues.push(keyIssues.get(k));
        }
    }
    const merged = mergeValues(left.value, right.value);
    if (!merged.valid) {
        if (aborted(result))
            return result;
        throw new Error(`Unmergable intersection. Error path: ` + `${JSON.stringify(merged.mergeErrorPath)}`);
    }
    result.value = merged.data;
    return result;
}
const $ZodTuple = /*@__PURE__*/ $constructor("$ZodTuple", (inst, def) => {
    $ZodType.init(inst, def);
    const items = def.items;
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
            payload.issues.push({
                input,
                inst,
                expected: "tuple",
                code: "invalid_type",
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, [], ctx) : [];
        const proms = [];
        const optinStart = getTupleOptStart(items, "optin");
        const optoutStart = getTupleOptStart(items, "optout");
        if (!def.rest) {
            if (input.length < optinStart) {
                payload.issues.push({
                    code: "too_small",
                    minimum: optinStart,
                    inclusive: true,
                    input,
                    inst,
                    origin: "array",
                });
                return payload;
            }
            if (input.length > items.length) {
                payload.issues.push({
                    code: "too_big",
                    maximum: items.length,
                    inclusive: true,
                    input,
                    inst,
                    origin: "array",
                });
            }
        }
        // Run every item in parallel, collecting results into an indexed array. The post-processing in `handleTupleResults` walks them in order so it can decide whether an absent optional-output error can truncate the tail or must be reported to preserve required output.
        const itemResults = new Array(items.length);
        // only tracked when there is a rest loop to skip
        const abortEarly = def.rest ? ctx?.abortEarly : undefined;
        let itemAborted = false;
        for (let i = 0; i < items.length; i++) {
            const r = items[i]._zod.run({ value: input[i], issues: [] }, ctx);
            if (r instanceof Promise) {
                proms.push(r.then((rr) => {
                    itemResults[i] = rr;
                }));
            }
            else {
                itemResults[i] = r;
                if (abortEarly && !itemAborted && r.issues.length)
                    itemAborted = aborted(r);
            }
        }
        // sound because rest is non-empty exactly when every fixed index is present, the one case handleTupleResults cannot discard an item's issues
        if (def.rest && !itemAborted) {
            let i = items.length - 1;
            const rest = input.slice(items.length);
            let seen = payload.issues.length;
            for (const el of rest) {
                if (abortEarly && payload.issues.length !== seen) {
                    if (aborted(payload, seen))
                        break;
                    seen = payload.issues.length;
                }
                i++;
                const result = def.rest._zod.run({ value: el, issues: [] }, ctx);
                if (result instanceof Promise) {
                    proms.push(result.then((r) => handleTupleResult(r, payload, i)));
                }
                else {
                    handleTupleResult(result, payload, i);
                }
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => handleTupleResults(itemResults, payload, items, input, optoutStart));
        }
        return handleTupleResults(itemResults, payload, items, input, optoutStart);
    };
});
function getTupleOptStart(items, key) {
    for (let i = items.length - 1; i >= 0; i--) {
        // optin is a three-rung ladder so any rung above `undefined` permits an absent slot; optout stays two-valued.
        const omittable = key === "optin" ? items[i]._zod.optin !== undefined : items[i]._zod.optout === "optional";
        if (!omittable)
            return i + 1;
    }
    return 0;
}
function handleTupleResult(result, final, index) {
    if (result.issues.length) {
        final.issues.push(...prefixIssues(index, result.issues));
    }
    final.value[index] = result.value;
}
function handleTupleResults(itemResults, final, items, input, optoutStart) {
    // Walk results in order. Mirror $ZodObject's swallow-on-absent-optional rule, but only after `optoutStart`: the first index where the output tuple tail can be absent.
    for (let i = 0; i < items.length; i++) {
        const r = itemResults[i];
        const isPresent = i < input.length;
        // The array analog of `handlePropertyResult`'s absent-key early return: the middle rung permits absence without supplying anything in its place, so the tail truncates here instead of materializing whatever the item made of `undefined`.
        if (!isPresent && i >= optoutStart && items[i]._zod.optin === "optional") {
            final.value.length = i;
            break;
        }
        if (r.issues.length) {
            if (!isPresent && i >= optoutStart) {
                final.value.length = i;
                break;
            }
            final.issues.push(...prefixIssues(i, r.issues));
        }
        final.value[i] = r.value;
    }
    // Drop trailing slots that produced `undefined` for absent input
    // (the array analog of an absent optional key on an object). The
    // `i >= input.length` floor is critical: an explicit `undefined`
    // *inside* the input must be preserved even when the schema is
    // optional-out (e.g. `z.string().or(z.undefined())` accepting an
    // explicit undefined value).
    for (let i = final.value.length - 1; i >= input.length; i--) {
        if (items[i]._zod.optout === "optional" && final.value[i] === undefined) {
            final.value.length = i;
        }
        else {
            break;
        }
    }
    return final;
}
const $ZodRecord = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodRecord", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!util.isPlainObject(input)) {
            payload.issues.push({
                expected: "record",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        // no guard in either loop below: a record's invalid_key aborts but an enclosing intersection can reconcile it, so a stopped loop hides keys the sibling does not own and the intersection then rejects nothing
        const proms = [];
        const values = def.keyType._zod.values;
        if (values && !def.partial) {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            const recordKeys = new Set();
            for (const key of values) {
                if (typeof key === "string" || typeof key === "number" || typeof key === "symbol") {
                    recordKeys.add(typeof key === "number" ? key.toString() : key);
                    // A declared __proto__ is stripped but is not an unrecognized key.
                    if (key === "__proto__")
                        continue;
                    const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                    if (keyResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (keyResult.issues.length) {
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                        continue;
                    }
                    const outKey = keyResult.value;
                    if (outKey === "__proto__")
                        continue;
                    const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                    if (result instanceof Promise) {
                        proms.push(result.then((result) => {
                            if (result.issues.length) {
                                payload.issues.push(...util.prefixIssues(key, result.issues));
                            }
                            payload.value[outKey] = result.value;
                        }));
                    }
                    else {
                        if (result.issues.length) {
                            payload.issues.push(...util.prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }
                }
            }
            let unrecognized;
            for (const key in input) {
                if (!recordKeys.has(key)) {
                    if (def.mode === "loose") {
                        // skip __proto__ so it can't replace the result prototype via the assignment setter on the plain {} we build into
                        if (key === "__proto__")
                            continue;
                        payload.value[key] = input[key];
                    }
                    else {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        else {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            // An enumerable key schema declares which keys the record owns, so a key outside the set is unrecognized. A non-enumerable one (regex, refine) is a constraint every key must satisfy, so a failing key is invalid. Only the former is reconcilable against the other side of an intersection.
            let unrecognized;
            // Reflect.ownKeys for Symbol-key support; filter non-enumerable to match z.object()
            for (const key of Reflect.ownKeys(input)) {
                if (key === "__proto__")
                    continue;
                if (!Object.prototype.propertyIsEnumerable.call(input, key))
                    continue;
                let keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                if (keyResult instanceof Promise) {
                    throw new Error("Async schemas not supported in object keys currently");
                }
                // Numeric string fallback: if key is a numeric string and failed, retry with Number(key). This handles z.number(), z.literal([1, 2, 3]), and unions containing numeric literals
                const checkNumericKey = typeof key === "string" && regexes.number.test(key) && keyResult.issues.length;
                if (checkNumericKey) {
                    const retryResult = def.keyType._zod.run({ value: Number(key), issues: [] }, ctx);
                    if (retryResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (retryResult.issues.length === 0) {
                        keyResult = retryResult;
                    }
                }
                if (keyResult.issues.length) {
                    if (def.mode === "loose") {
                        // Pass through unchanged
                        payload.value[key] = input[key];
                    }
                    else if (values) {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                    else {
                        // Default "strict" behavior: error on invalid key
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                    }
                    continue;
                }
                // the guard above tests the raw input key, but the key schema can normalize an ordinary key into __proto__; re-check the key we actually write under
                const outKey = keyResult.value;
                if (outKey === "__proto__")
                    continue;
                const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                if (result instanceof Promise) {
                    proms.push(result.then((result) => {
                        if (result.issues.length) {
                            payload.issues.push(...util.prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }));
                }
                else {
                    if (result.issues.length) {
                        payload.issues.push(...util.prefixIssues(key, result.issues));
                    }
                    payload.value[outKey] = result.value;
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload;
    };
})));
const $ZodMap = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodMap", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!(input instanceof Map)) {
            payload.issues.push({
                expected: "map",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        const proms = [];
        payload.value = memo ? memo.alloc(inst, payload, new Map(), ctx) : new Map();
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const [key, value] of input) {
            if (abortEarly && payload.issues.length !== seen) {
                if (util.aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
            const valueResult = def.valueType._zod.run({ value: value, issues: [] }, ctx);
            if (keyResult instanceof Promise || valueResult instanceof Promise) {
                proms.push(Promise.all([keyResult, valueResult]).then(([keyResult, valueResult]) => {
                    handleMapResult(keyResult, valueResult, payload, key, input, inst, ctx);
                }));
            }
            else {
                handleMapResult(keyResult, valueResult, payload, key, input, inst, ctx);
            }
        }
        if (proms.length)
            return Promise.all(proms).then(() => payload);
        return payload;
    };
    capSize(inst, mapSize);
})));
function handleMapResult(keyResult, valueResult, final, key, input, inst, ctx) {
    if (keyResult.issues.length) {
        if (util.propertyKeyTypes.has(typeof key)) {
            final.issues.push(...util.prefixIssues(key, keyResult.issues));
        }
        else {
            final.issues.push({
                code: "invalid_key",
                origin: "map",
                input,
                inst,
                issues: keyResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
            });
        }
    }
    if (valueResult.issues.length) {
        if (util.propertyKeyTypes.has(typeof key)) {
            final.issues.push(...util.prefixIssues(key, valueResult.issues));
        }
        else {
            final.issues.push({
                origin: "map",
                code: "invalid_element",
                input,
                inst,
                key: key,
                issues: valueResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
            });
        }
    }
    final.value.set(keyResult.value, valueResult.value);
}
const $ZodSet = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSet", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!(input instanceof Set)) {
            payload.issues.push({
                input,
                inst,
                expected: "set",
                code: "invalid_type",
            });
            return payload;
        }
        const proms = [];
        payload.value = memo ? memo.alloc(inst, payload, new Set(), ctx) : new Set();
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const item of input) {
            if (abortEarly && payload.issues.length !== seen) {
                if (util.aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            const result = def.valueType._zod.run({ value: item, issues: [] }, ctx);
            if (result instanceof Promise) {
                proms.push(result.then((result) => handleSetResult(result, payload)));
            }
            else
                handleSetResult(result, payload);
        }
        if (proms.length)
            return Promise.all(proms).then(() => payload);
        return payload;
    };
    capSize(inst, setSize);
})));
function handleSetResult(result, final) {
    if (result.issues.length) {
        final.issues.push(...result.issues);
    }
    final.value.add(result.value);
}
const $ZodEnum = /*@__PURE__*/ $constructor("$ZodEnum", (inst, def) => {
    $ZodType.init(inst, def);
    const values = getEnumValues(def.entries);
    const valuesSet = new Set(values);
    inst._zod.values = valuesSet;
    defineLazyInternal(inst, "pattern", (zod) => {
        const patternValues = getEnumValues(zod.def.entries).filter((k) => propertyKeyTypes.has(typeof k));
        // unmatchable fallback, RE2-safe: an empty alternation would compile to /^()$/, which matches ""
        return new RegExp(patternValues.length ? `^(${patternValues.map((o) => escapeRegex(o.toString())).join("|")})$` : "^[^\\s\\S]$");
    });
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (valuesSet.has(input)) {
            return payload;
        }
        payload.issues.push({
            code: "invalid_value",
            values,
            input,
            inst,
        });
        return payload;
    };
});
const $ZodLiteral = /*@__PURE__*/ $constructor("$ZodLiteral", (inst, def) => {
    $ZodType.init(inst, def);
    const values = new Set(def.values);
    inst._zod.values = values;
    defineLazyInternal(inst, "pattern", (zod) => {
        const vals = zod.def.values;
        // unmatchable fallback, RE2-safe: an empty alternation would compile to /^()$/, which matches ""
        return new RegExp(vals.length
            ? `^(${vals
                .map((o) => typeof o === "string" ? escapeRegex(o) : o ? escapeRegex(o.toString()) : String(o))
                .join("|")})$`
            : "^[^\\s\\S]$");
    });
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (values.has(input)) {
            return payload;
        }
        payload.issues.push({
            code: "invalid_value",
            values: def.values,
            input,
            inst,
        });
        return payload;
    };
});
const $ZodFile = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodFile", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        // @ts-ignore
        if (input instanceof File)
            return payload;
        payload.issues.push({
            expected: "file",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodTransform = /*@__PURE__*/ $constructor("$ZodTransform", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "optional";
    globalConfig.memoizer?.guard(inst);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        const _out = def.transform(payload.value, payload);
        if (ctx.async) {
            const output = _out instanceof Promise ? _out : Promise.resolve(_out);
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        if (_out instanceof Promise) {
            throw new $ZodAsyncError();
        }
        payload.value = _out;
        return payload;
    };
});
function handleOptionalResult(payload, result) {
    // A substituting schema that still failed has no usable answer; yield undefined. Its issues are simply dropped: it ran on a payload of its own, so there is no shared array to truncate and nothing of the caller's to lose with it.
    payload.value = result.issues.length ? undefined : result.value;
    return payload;
}
const $ZodOptional = /*@__PURE__*/ $constructor("$ZodOptional", (inst, def) => {
    $ZodType.init(inst, def);
    // .optional() propagates absence rather than substituting for it, so a defaulted inner keeps its rung.
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    inst._zod.optout = "optional";
    defineLazyInternal(inst, "values", (zod) => {
        const values = zod.def.innerType._zod.values;
        return values ? new Set([...values, undefined]) : undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)})?$`) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        if (payload.value === undefined) {
            // Only the top rung substitutes a value for absence; everything else leaves it intact, which is what .optional() means.
            if (def.innerType._zod.optin !== "defaulted")
                return payload;
            // Its own payload, for the same reason $ZodCatch gets one: a pipe forwards an unrecognized key through the caller's issues array, and this must not read that as the substituting schema failing and drop it.
            const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
            if (result instanceof Promise)
                return result.then((result) => handleOptionalResult(payload, result));
            return handleOptionalResult(payload, result);
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodExactOptional = /*@__PURE__*/ $constructor("$ZodExactOptional", (inst, def) => {
    // Call parent init - inherits optin/optout = "optional"
    $ZodOptional.init(inst, def);
    // Override values/pattern to NOT add undefined
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    defineLazyInternal(inst, "pattern", (zod) => zod.def.innerType._zod.pattern);
    // Override parse to just delegate (no undefined handling)
    inst._zod.parse = (payload, ctx) => {
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodNullable = /*@__PURE__*/ $constructor("$ZodNullable", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)}|null)$`) : undefined;
    });
    defineLazyInternal(inst, "values", (zod) => {
        return zod.def.innerType._zod.values ? new Set([...zod.def.innerType._zod.values, null]) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        // Forward direction (decode): allow null to pass through
        if (payload.value === null)
            return payload;
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodDefault = /*@__PURE__*/ $constructor("$ZodDefault", (inst, def) => {
    $ZodType.init(inst, def);
    // inst._zod.qin = "true";
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply defaults for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
            /**
             * $ZodDefault returns the default value immediately in forward direction.
             * It doesn't pass the default value into the validator ("prefault"). There's no reason to pass the default value through validation. The validity of the default is enforced by TypeScript statically. Otherwise, it's the responsibility of the user to ensure the default is valid. In the case of pipes with divergent in/out types, you can specify the default on the `in` schema of your ZodPipe to set a "prefault" for the pipe.   */
            return payload;
        }
        // Forward direction: continue with default handling
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleDefaultResult(result, def));
        }
        return handleDefaultResult(result, def);
    };
});
function handleDefaultResult(payload, def) {
    if (payload.value === undefined) {
        payload.value = def.defaultValue;
    }
    return payload;
}
const $ZodPrefault = /*@__PURE__*/ $constructor("$ZodPrefault", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply prefault for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodNonOptional = /*@__PURE__*/ $constructor("$ZodNonOptional", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => {
        const v = zod.def.innerType._zod.values;
        return v ? new Set([...v].filter((x) => x !== undefined)) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleNonOptionalResult(result, inst));
        }
        return handleNonOptionalResult(result, inst);
    };
});
function handleNonOptionalResult(payload, inst) {
    if (!payload.issues.length && payload.value === undefined) {
        payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: payload.value,
            inst,
        });
    }
    return payload;
}
const $ZodSuccess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSuccess", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            throw new core.$ZodEncodeError("ZodSuccess");
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => {
                payload.value = result.issues.length === 0;
                return payload;
            });
        }
        payload.value = result.issues.length === 0;
        return payload;
    };
})));
function handleCatchResult(payload, result, def, ctx) {
    if (!result.issues.length) {
        payload.value = result.value;
        // The value carries up, so the flag describing it has to carry with it: a back-edge into a node still being parsed must not be frozen by an enclosing readonly, and its checks belong to the node itself. Guarded so the ordinary case adds no own property.
        if (result.memo)
            payload.memo = true;
        return payload;
    }
    // Spread the inner's own payload, not ours: `value` has to stay the input the catch was handed, and the inner ran on a payload of its own so its issues are already private to this call.
    payload.value = def.catchValue({
        ...result,
        value: payload.value,
        error: {
            issues: result.issues.map((iss) => finalizeIssue(iss, ctx, config())),
        },
        input: payload.value,
    });
    return payload;
}
const $ZodCatch = /*@__PURE__*/ $constructor("$ZodCatch", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply catch logic
        const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleCatchResult(payload, result, def, ctx));
        }
        return handleCatchResult(payload, result, def, ctx);
    };
});
const $ZodNaN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodNaN", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "number" || !Number.isNaN(payload.value)) {
            payload.issues.push({
                input: payload.value,
                inst,
                expected: "nan",
                code: "invalid_type",
            });
            return payload;
        }
        return payload;
    };
})));
const $ZodPipe = /*@__PURE__*/ $constructor("$ZodPipe", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            const right = def.out._zod.run(payload, ctx);
            if (right instanceof Promise) {
                return right.then((right) => handlePipeResult(right, def.in, ctx));
            }
            return handlePipeResult(right, def.in, ctx);
        }
        const left = def.in._zod.run(payload, ctx);
        if (left instanceof Promise) {
            return left.then((left) => handlePipeResult(left, def.out, ctx));
        }
        return handlePipeResult(left, def.out, ctx);
    };
});
function handlePipeResult(left, next, ctx) {
    // Any issue stops the pipe, so a failing refinement never feeds its transform. An unrecognized key is the exception: it describes the input's extra properties, not the value being piped, and an enclosing intersection may yet reconcile it.
    if (left.issues.some((iss) => iss.code !== "unrecognized_keys")) {
        // prevent further checks
        left.aborted = true;
        return left;
    }
    return next._zod.run({ value: left.value, issues: left.issues }, ctx);
}
const $ZodCodec = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCodec", (inst, def) => {
    $ZodType.init(inst, def);
    util.defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
    util.defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
    util.defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
    util.defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
    inst._zod.parse = (payload, ctx) => {
        const direction = ctx.direction || "forward";
        if (direction === "forward") {
            const left = def.in._zod.run(payload, ctx);
            if (left instanceof Promise) {
                return left.then((left) => handleCodecAResult(left, def, ctx));
            }
            return handleCodecAResult(left, def, ctx);
        }
        else {
            const right = def.out._zod.run(payload, ctx);
            if (right instanceof Promise) {
                return right.then((right) => handleCodecAResult(right, def, ctx));
            }
            return handleCodecAResult(right, def, ctx);
        }
    };
})));
function handleCodecAResult(result, def, ctx) {
    if (result.issues.length) {
        // prevent further checks
        result.aborted = true;
        return result;
    }
    const direction = ctx.direction || "forward";
    if (direction === "forward") {
        const transformed = def.transform(result.value, result);
        if (transformed instanceof Promise) {
            return transformed.then((value) => handleCodecTxResult(result, value, def.out, ctx));
        }
        return handleCodecTxResult(result, transformed, def.out, ctx);
    }
    else {
        const transformed = def.reverseTransform(result.value, result);
        if (transformed instanceof Promise) {
            return transformed.then((value) => handleCodecTxResult(result, value, def.in, ctx));
        }
        return handleCodecTxResult(result, transformed, def.in, ctx);
    }
}
function handleCodecTxResult(left, value, nextSchema, ctx) {
    // Check if transform added any issues
    if (left.issues.length) {
        left.aborted = true;
        return left;
    }
    return nextSchema._zod.run({ value, issues: left.issues }, ctx);
}
const $ZodPreprocess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodPreprocess", (inst, def) => {
    $ZodPipe.init(inst, def);
})));
const $ZodReadonly = /*@__PURE__*/ $constructor("$ZodReadonly", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.innerType._zod.propValues);
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType?._zod?.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType?._zod?.optout);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then(handleReadonlyResult);
        }
        return handleReadonlyResult(result);
    };
});
function handleReadonlyResult(payload) {
    // A repeat visit hands back a node that is still being built; freezing it here would make the rest of its keys fail to assign.
    if (!payload.memo)
        payload.value = Object.freeze(payload.value);
    return payload;
}
// a leaf's pattern source with its own checks folded in: the last pattern-carrying check wins, else length bounds narrow the catch-all, else an integer format narrows the number form. the fold lives here instead of on `_zod.pattern` so a bundle without template literals never pays for it
function leafPattern(schema) {
    const def = schema._zod.def;
    let pattern = def.pattern;
    let isInt = !!def.format?.includes("int");
    let minimum;
    let maximum;
    for (const ch of def.checks ?? []) {
        const d = ch._zod.def;
        if (d.pattern)
            pattern = d.pattern;
        isInt || (isInt = !!d.format?.includes("int"));
        const lo = d.minimum ?? d.length;
        const hi = d.maximum ?? d.length;
        if (lo !== undefined && (minimum === undefined || lo > minimum))
            minimum = lo;
        if (hi !== undefined && (maximum === undefined || hi < maximum))
            maximum = hi;
    }
    if (pattern)
        return pattern.source;
    // an empty range matches nothing at runtime, and `{8,5}` is not a legal quantifier
    if (minimum !== undefined && maximum !== undefined && minimum > maximum)
        return "(?!)";
    if (minimum !== undefined || maximum !== undefined)
        return regexes.string({ minimum, maximum }).source;
    const own = schema._zod.pattern;
    return (isInt && own === regexes.number ? regexes.integer : own)?.source;
}
// a part's pattern source. a wrapper's pattern embeds its inner pattern's source verbatim, so the folded form is substituted in place without knowing the wrapper's own composition; a union's options are joined the way the union builds its own pattern
function partPattern(schema) {
    const def = schema._zod.def;
    const own = schema._zod.pattern?.source;
    // lazy resolves its inner on the internals, not the def
    const inner = def.innerType ?? schema._zod.innerType;
    if (inner) {
        const before = inner._zod.pattern?.source;
        const after = partPattern(inner);
        if (own && before && after && after !== before) {
            return own.replace(util.cleanRegex(before), () => util.cleanRegex(after));
        }
        return own;
    }
    if (def.options) {
        const sources = def.options.map(partPattern);
        if (sources.every(Boolean))
            return `^(${sources.map((s) => util.cleanRegex(s)).join("|")})$`;
    }
    return leafPattern(schema);
}
const $ZodTemplateLiteral = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodTemplateLiteral", (inst, def) => {
    $ZodType.init(inst, def);
    const regexParts = [];
    for (const part of def.parts) {
        if (typeof part === "object" && part !== null) {
            // is Zod schema
            const source = partPattern(part);
            if (!source) {
                throw new Error(`Invalid template literal part, no pattern found: ${[...part._zod.traits].shift()}`);
            }
            regexParts.push(util.cleanRegex(source));
        }
        else if (part === null || util.primitiveTypes.has(typeof part)) {
            regexParts.push(util.escapeRegex(`${part}`));
        }
        else {
            throw new Error(`Invalid template literal part: ${part}`);
        }
    }
    inst._zod.pattern = new RegExp(`^${regexParts.join("")}$`);
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "string") {
            payload.issues.push({
                input: payload.value,
                inst,
                expected: "string",
                code: "invalid_type",
            });
            return payload;
        }
        inst._zod.pattern.lastIndex = 0;
        if (!inst._zod.pattern.test(payload.value)) {
            payload.issues.push({
                input: payload.value,
                inst,
                code: "invalid_format",
                format: def.format ?? "template_literal",
                pattern: inst._zod.pattern.source,
            });
            return payload;
        }
        return payload;
    };
})));
const $ZodFunction = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodFunction", (inst, def) => {
    $ZodType.init(inst, def);
    // Defined, not assigned: the classic prototype exposes `_def` as a getter with no setter.
    Object.defineProperty(inst, "_def", { value: def });
    inst._zod.def = def;
    inst.implement = (func) => {
        if (typeof func !== "function") {
            throw new Error("implement() must be called with a function");
        }
        // Defined inline so the closure stays anonymous: binding it to a `const` first names it, which costs 256 bytes per implemented function.
        return Object.defineProperty(function (...args) {
            const parsedArgs = inst._def.input ? parse(inst._def.input, args) : args;
            const result = Reflect.apply(func, this, parsedArgs);
            if (inst._def.output) {
                return parse(inst._def.output, result);
            }
            return result;
        }, "_zod", { value: inst._zod, enumerable: false });
    };
    inst.implementAsync = (func) => {
        if (typeof func !== "function") {
            throw new Error("implementAsync() must be called with a function");
        }
        return Object.defineProperty(async function (...args) {
            const parsedArgs = inst._def.input ? await parseAsync(inst._def.input, args) : args;
            const result = await Reflect.apply(func, this, parsedArgs);
            if (inst._def.output) {
                return await parseAsync(inst._def.output, result);
            }
            return result;
        }, "_zod", { value: inst._zod, enumerable: false });
    };
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "function") {
            payload.issues.push({
                code: "invalid_type",
                expected: "function",
                input: payload.value,
                inst,
            });
            return payload;
        }
        // Check if output is a promise type to determine if we should use async implementation
        const hasPromiseOutput = inst._def.output && inst._def.output._zod.def.type === "promise";
        if (hasPromiseOutput) {
            payload.value = inst.implementAsync(payload.value);
        }
        else {
            payload.value = inst.implement(payload.value);
        }
        return payload;
    };
    inst.input = (...args) => {
        const F = inst.constructor;
        if (Array.isArray(args[0])) {
            return new F({
                type: "function",
                input: new $ZodTuple({
                    type: "tuple",
                    items: args[0],
                    rest: args[1],
                }),
                output: inst._def.output,
            });
        }
        return new F({
            type: "function",
            input: args[0],
            output: inst._def.output,
        });
    };
    inst.output = (output) => {
        const F = inst.constructor;
        return new F({
            type: "function",
            input: inst._def.input,
            output,
        });
    };
    return inst;
})));
const $ZodPromise = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodPromise", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        return Promise.resolve(payload.value).then((inner) => def.innerType._zod.run({ value: inner, issues: [] }, ctx));
    };
})));
const $ZodLazy = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodLazy", (inst, def) => {
    $ZodType.init(inst, def);
    // Cache the resolved inner type on the shared `def` so all clones of this lazy (e.g. via `.describe()`/`.meta()`) share the same inner instance, preserving identity for cycle detection on recursive schemas.
    util.defineLazy(inst._zod, "innerType", () => {
        const d = def;
        if (!d._cachedInner)
            d._cachedInner = def.getter();
        return d._cachedInner;
    });
    util.defineLazyInternal(inst, "pattern", (zod) => zod.innerType?._zod?.pattern);
    util.defineLazyInternal(inst, "propValues", (zod) => zod.innerType?._zod?.propValues);
    util.defineLazyInternal(inst, "optin", (zod) => zod.innerType?._zod?.optin ?? undefined);
    util.defineLazyInternal(inst, "optout", (zod) => zod.innerType?._zod?.optout ?? undefined);
    inst._zod.parse = (payload, ctx) => {
        const inner = inst._zod.innerType;
        return inner._zod.run(payload, ctx);
    };
})));
const $ZodCustom = /*@__PURE__*/ $constructor("$ZodCustom", (inst, def) => {
    $ZodCheck.init(inst, def);
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _) => {
        return payload;
    };
    inst._zod.check = (payload) => {
        const input = payload.value;
        const r = def.fn(input);
        if (r instanceof Promise) {
            return r.then((r) => handleRefineResult(r, payload, input, inst));
        }
        handleRefineResult(r, payload, input, inst);
        return;
    };
});
function handleRefineResult(result, payload, input, inst) {
    if (!result) {
        const _iss = {
            code: "custom",
            input,
            inst, // incorporates params.error into issue reporting
            path: [...(inst._zod.def.path ?? [])], // incorporates params.error into issue reporting
            continue: !inst._zod.def.abort,
            // params: inst._zod.def.params,
        };
        if (inst._zod.def.params)
            _iss.params = inst._zod.def.params;
        payload.issues.push(util_issue(_iss));
    }
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/registries.js
var registries_a;
const $output = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("ZodOutput")));
const $input = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("ZodInput")));
class $ZodRegistry {
    constructor() {
        this._map = new WeakMap();
        this._idmap = new Map();
    }
    add(schema, ..._meta) {
        const meta = _meta[0];
        this._map.set(schema, meta);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.set(meta.id, schema);
        }
        return this;
    }
    clear() {
        this._map = new WeakMap();
        this._idmap = new Map();
        return this;
    }
    remove(schema) {
        const meta = this._map.get(schema);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.delete(meta.id);
        }
        this._map.delete(schema);
        return this;
    }
    get(schema) {
        // return this._map.get(schema) as any;
        // inherit metadata
        const p = schema._zod.parent;
        if (p) {
            const pm = { ...(this.get(p) ?? {}) };
            delete pm.id; // do not inherit id
            const f = { ...pm, ...this._map.get(schema) };
            return Object.keys(f).length ? f : undefined;
        }
        return this._map.get(schema);
    }
    has(schema) {
        return this._map.has(schema);
    }
}
// registries
function registry() {
    return new $ZodRegistry();
}
(registries_a = globalThis).__zod_globalRegistry ?? (registries_a.__zod_globalRegistry = registry());
const globalRegistry = globalThis.__zod_globalRegistry;

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/api.js




function snapshotChecks(def) {
    if (def.checks)
        def.checks = [...def.checks];
    return def;
}
// @__NO_SIDE_EFFECTS__
function _string(Class, params) {
    return new Class(snapshotChecks({ type: "string", ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _coercedString(Class, params) {
    return new Class(snapshotChecks({ type: "string", coerce: true, ...util.normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _email(Class, params) {
    return new Class({
        type: "string",
        format: "email",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _guid(Class, params) {
    return new Class({
        type: "string",
        format: "guid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuid(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv4(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v4",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv6(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v6",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv7(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v7",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _url(Class, params) {
    return new Class({
        type: "string",
        format: "url",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_emoji(Class, params) {
    return new Class({
        type: "string",
        format: "emoji",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _nanoid(Class, params) {
    return new Class({
        type: "string",
        format: "nanoid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link _cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
// @__NO_SIDE_EFFECTS__
function _cuid(Class, params) {
    return new Class({
        type: "string",
        format: "cuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cuid2(Class, params) {
    return new Class({
        type: "string",
        format: "cuid2",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ulid(Class, params) {
    return new Class({
        type: "string",
        format: "ulid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _xid(Class, params) {
    return new Class({
        type: "string",
        format: "xid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ksuid(Class, params) {
    return new Class({
        type: "string",
        format: "ksuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv4(Class, params) {
    return new Class({
        type: "string",
        format: "ipv4",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv6(Class, params) {
    return new Class({
        type: "string",
        format: "ipv6",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _mac(Class, params) {
    return new Class({
        type: "string",
        format: "mac",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv4(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv4",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv6(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv6",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64(Class, params) {
    return new Class({
        type: "string",
        format: "base64",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64url(Class, params) {
    return new Class({
        type: "string",
        format: "base64url",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _e164(Class, params) {
    return new Class({
        type: "string",
        format: "e164",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _creditCard(Class, params) {
    return new Class({
        type: "string",
        format: "credit_card",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _iban(Class, params) {
    return new Class({
        type: "string",
        format: "iban",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _jwt(Class, params) {
    return new Class({
        type: "string",
        format: "jwt",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
const TimePrecision = {
    Any: null,
    Minute: -1,
    Second: 0,
    Millisecond: 3,
    Microsecond: 6,
};
// @__NO_SIDE_EFFECTS__
function _isoDateTime(Class, params) {
    return new Class({
        type: "string",
        format: "datetime",
        check: "string_format",
        offset: false,
        local: false,
        precision: null,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDate(Class, params) {
    return new Class({
        type: "string",
        format: "date",
        check: "string_format",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoTime(Class, params) {
    return new Class({
        type: "string",
        format: "time",
        check: "string_format",
        precision: null,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDuration(Class, params) {
    return new Class({
        type: "string",
        format: "duration",
        check: "string_format",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _number(Class, params) {
    return new Class(snapshotChecks({ type: "number", checks: [], ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _coercedNumber(Class, params) {
    return new Class(snapshotChecks({ type: "number", coerce: true, checks: [], ...util.normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _int(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "safeint",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _float32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "float32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _float64(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "float64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _int32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "int32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uint32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "uint32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _boolean(Class, params) {
    return new Class({
        type: "boolean",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedBoolean(Class, params) {
    return new Class({
        type: "boolean",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _bigint(Class, params) {
    return new Class({
        type: "bigint",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedBigint(Class, params) {
    return new Class({
        type: "bigint",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _int64(Class, params) {
    return new Class({
        type: "bigint",
        check: "bigint_format",
        abort: false,
        format: "int64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uint64(Class, params) {
    return new Class({
        type: "bigint",
        check: "bigint_format",
        abort: false,
        format: "uint64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _symbol(Class, params) {
    return new Class({
        type: "symbol",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_undefined(Class, params) {
    return new Class({
        type: "undefined",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_null(Class, params) {
    return new Class({
        type: "null",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _any(Class) {
    return new Class({
        type: "any",
    });
}
// @__NO_SIDE_EFFECTS__
function _unknown(Class) {
    return new Class({
        type: "unknown",
    });
}
// @__NO_SIDE_EFFECTS__
function _never(Class, params) {
    return new Class({
        type: "never",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _void(Class, params) {
    return new Class({
        type: "void",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _date(Class, params) {
    return new Class({
        type: "date",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedDate(Class, params) {
    return new Class({
        type: "date",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _nan(Class, params) {
    return new Class({
        type: "nan",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _lt(value, params) {
    return new $ZodCheckLessThan({
        check: "less_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _lte(value, params) {
    return new $ZodCheckLessThan({
        check: "less_than",
        ...normalizeParams(params),
        value,
        inclusive: true,
    });
}

// @__NO_SIDE_EFFECTS__
function _gt(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _gte(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: true,
    });
}

// @__NO_SIDE_EFFECTS__
function _positive(params) {
    return _gt(0, params);
}
// negative
// @__NO_SIDE_EFFECTS__
function _negative(params) {
    return _lt(0, params);
}
// nonpositive
// @__NO_SIDE_EFFECTS__
function _nonpositive(params) {
    return _lte(0, params);
}
// nonnegative
// @__NO_SIDE_EFFECTS__
function _nonnegative(params) {
    return _gte(0, params);
}
// @__NO_SIDE_EFFECTS__
function _multipleOf(value, params) {
    return new $ZodCheckMultipleOf({
        check: "multiple_of",
        ...normalizeParams(params),
        value,
    });
}
// @__NO_SIDE_EFFECTS__
function _maxSize(maximum, params) {
    return new checks.$ZodCheckMaxSize({
        check: "max_size",
        ...util.normalizeParams(params),
        maximum,
    });
}
// @__NO_SIDE_EFFECTS__
function _minSize(minimum, params) {
    return new checks.$ZodCheckMinSize({
        check: "min_size",
        ...util.normalizeParams(params),
        minimum,
    });
}
// @__NO_SIDE_EFFECTS__
function _size(size, params) {
    return new checks.$ZodCheckSizeEquals({
        check: "size_equals",
        ...util.normalizeParams(params),
        size,
    });
}
// @__NO_SIDE_EFFECTS__
function _maxLength(maximum, params) {
    const ch = new $ZodCheckMaxLength({
        check: "max_length",
        ...normalizeParams(params),
        maximum,
    });
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _minLength(minimum, params) {
    return new $ZodCheckMinLength({
        check: "min_length",
        ...normalizeParams(params),
        minimum,
    });
}
// @__NO_SIDE_EFFECTS__
function _length(length, params) {
    return new $ZodCheckLengthEquals({
        check: "length_equals",
        ...normalizeParams(params),
        length,
    });
}
// @__NO_SIDE_EFFECTS__
function _regex(pattern, params) {
    return new $ZodCheckRegex({
        check: "string_format",
        format: "regex",
        ...normalizeParams(params),
        pattern,
    });
}
// @__NO_SIDE_EFFECTS__
function _lowercase(params) {
    return new $ZodCheckLowerCase({
        check: "string_format",
        format: "lowercase",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uppercase(params) {
    return new $ZodCheckUpperCase({
        check: "string_format",
        format: "uppercase",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _includes(includes, params) {
    return new $ZodCheckIncludes({
        check: "string_format",
        format: "includes",
        ...normalizeParams(params),
        includes,
    });
}
// @__NO_SIDE_EFFECTS__
function _startsWith(prefix, params) {
    return new $ZodCheckStartsWith({
        check: "string_format",
        format: "starts_with",
        ...normalizeParams(params),
        prefix,
    });
}
// @__NO_SIDE_EFFECTS__
function _endsWith(suffix, params) {
    return new $ZodCheckEndsWith({
        check: "string_format",
        format: "ends_with",
        ...normalizeParams(params),
        suffix,
    });
}
// @__NO_SIDE_EFFECTS__
function _property(property, schema, params) {
    return new checks.$ZodCheckProperty({
        check: "property",
        property,
        schema,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _properties(shape, params) {
    return new $ZodCheckProperties({
        check: "properties",
        shape,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _mime(types, params) {
    return new checks.$ZodCheckMimeType({
        check: "mime_type",
        mime: types,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _overwrite(tx) {
    return new $ZodCheckOverwrite({
        check: "overwrite",
        tx,
    });
}
// normalize
// @__NO_SIDE_EFFECTS__
function _normalize(form) {
    return _overwrite((input) => input.normalize(form));
}
// trim
// @__NO_SIDE_EFFECTS__
function _trim() {
    return _overwrite((input) => input.trim());
}
// toLowerCase
// @__NO_SIDE_EFFECTS__
function _toLowerCase() {
    return _overwrite((input) => input.toLowerCase());
}
// toUpperCase
// @__NO_SIDE_EFFECTS__
function _toUpperCase() {
    return _overwrite((input) => input.toUpperCase());
}
// slugify
// @__NO_SIDE_EFFECTS__
function _slugify() {
    return _overwrite((input) => slugify(input));
}
// @__NO_SIDE_EFFECTS__
function _array(Class, element, params) {
    return new Class({
        type: "array",
        element,
        // get element() {
        //   return element;
        // },
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _union(Class, options, params) {
    return new Class({
        type: "union",
        options,
        ...util.normalizeParams(params),
    });
}
function _xor(Class, options, params) {
    return new Class({
        type: "union",
        options,
        inclusive: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _discriminatedUnion(Class, discriminator, options, params) {
    return new Class({
        type: "union",
        options: options,
        discriminator,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _intersection(Class, left, right) {
    return new Class({
        type: "intersection",
        left,
        right,
    });
}
// export function _tuple(
//   Class: util.SchemaClass<schemas.$ZodTuple>,
//   items: [],
//   params?: string | $ZodTupleParams
// ): schemas.$ZodTuple<[], null>;
// @__NO_SIDE_EFFECTS__
function _tuple(Class, items, _paramsOrRest, _params) {
    const hasRest = _paramsOrRest instanceof schemas.$ZodType;
    const params = hasRest ? _params : _paramsOrRest;
    const rest = hasRest ? _paramsOrRest : null;
    return new Class({
        type: "tuple",
        items,
        rest,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _record(Class, keyType, valueType, params) {
    return new Class({
        type: "record",
        keyType,
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _map(Class, keyType, valueType, params) {
    return new Class({
        type: "map",
        keyType,
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _set(Class, valueType, params) {
    return new Class({
        type: "set",
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _enum(Class, values, params) {
    const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
    // if (Array.isArray(values)) {
    //   for (const value of values) {
    //     entries[value] = value;
    //   }
    // } else {
    //   Object.assign(entries, values);
    // }
    // const entries: util.EnumLike = {};
    // for (const val of values) {
    //   entries[val] = val;
    // }
    return new Class({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
/** @deprecated This API has been merged into `z.enum()`. Use `z.enum()` instead.
 *
 * ```ts
 * enum Colors { red, green, blue }
 * z.enum(Colors);
 * ```
 */
function _nativeEnum(Class, entries, params) {
    return new Class({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _literal(Class, value, params) {
    return new Class({
        type: "literal",
        values: Array.isArray(value) ? value : [value],
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _file(Class, params) {
    return new Class({
        type: "file",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _transform(Class, fn) {
    return new Class({
        type: "transform",
        transform: fn,
    });
}
// @__NO_SIDE_EFFECTS__
function _optional(Class, innerType) {
    return new Class({
        type: "optional",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _nullable(Class, innerType) {
    return new Class({
        type: "nullable",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _default(Class, innerType, defaultValue) {
    return new Class({
        type: "default",
        innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : util.shallowClone(defaultValue);
        },
    });
}
// @__NO_SIDE_EFFECTS__
function _nonoptional(Class, innerType, params) {
    return new Class({
        type: "nonoptional",
        innerType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _success(Class, innerType) {
    return new Class({
        type: "success",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _catch(Class, innerType, catchValue) {
    return new Class({
        type: "catch",
        innerType,
        catchValue: (typeof catchValue === "function" ? catchValue : util.constantCatch(catchValue)),
    });
}
// @__NO_SIDE_EFFECTS__
function _pipe(Class, in_, out) {
    return new Class({
        type: "pipe",
        in: in_,
        out,
    });
}
// @__NO_SIDE_EFFECTS__
function _readonly(Class, innerType) {
    return new Class({
        type: "readonly",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _templateLiteral(Class, parts, params) {
    return new Class({
        type: "template_literal",
        parts,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _lazy(Class, getter) {
    return new Class({
        type: "lazy",
        getter,
    });
}
// @__NO_SIDE_EFFECTS__
function _promise(Class, innerType) {
    return new Class({
        type: "promise",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _custom(Class, fn, _params) {
    const norm = util.normalizeParams(_params);
    norm.abort ?? (norm.abort = true); // default to abort:false
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...norm,
    });
    return schema;
}
// same as _custom but defaults to abort:false
// @__NO_SIDE_EFFECTS__
function _refine(Class, fn, _params) {
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...normalizeParams(_params),
    });
    return schema;
}
// @__NO_SIDE_EFFECTS__
function _superRefine(fn, params) {
    const ch = _check((payload) => {
        payload.addIssue = (issue) => {
            if (typeof issue === "string") {
                payload.issues.push(util_issue(issue, payload.value, ch._zod.def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = ch);
                _issue.continue ?? (_issue.continue = !ch._zod.def.abort); // abort is always undefined, so this is always true...
                payload.issues.push(util_issue(_issue));
            }
        };
        return fn(payload.value, payload);
    }, params);
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _check(fn, params) {
    const ch = new $ZodCheck({
        check: "custom",
        ...normalizeParams(params),
    });
    ch._zod.check = fn;
    return ch;
}
// @__NO_SIDE_EFFECTS__
function describe(description) {
    const ch = new $ZodCheck({ check: "describe" });
    ch._zod.onattach = [
        (inst) => {
            const existing = globalRegistry.get(inst) ?? {};
            globalRegistry.add(inst, { ...existing, description });
        },
    ];
    ch._zod.check = () => { }; // no-op check
    return ch;
}
// @__NO_SIDE_EFFECTS__
function meta(metadata) {
    const ch = new $ZodCheck({ check: "meta" });
    ch._zod.onattach = [
        (inst) => {
            const existing = globalRegistry.get(inst) ?? {};
            globalRegistry.add(inst, { ...existing, ...metadata });
        },
    ];
    ch._zod.check = () => { }; // no-op check
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _stringbool(Classes, _params) {
    const params = util.normalizeParams(_params);
    let truthyArray = params.truthy ?? ["true", "1", "yes", "on", "y", "enabled"];
    let falsyArray = params.falsy ?? ["false", "0", "no", "off", "n", "disabled"];
    if (params.case !== "sensitive") {
        truthyArray = truthyArray.map((v) => (typeof v === "string" ? v.toLowerCase() : v));
        falsyArray = falsyArray.map((v) => (typeof v === "string" ? v.toLowerCase() : v));
    }
    const truthySet = new Set(truthyArray);
    const falsySet = new Set(falsyArray);
    const _Codec = Classes.Codec ?? schemas.$ZodCodec;
    const _Boolean = Classes.Boolean ?? schemas.$ZodBoolean;
    const _String = Classes.String ?? schemas.$ZodString;
    const stringSchema = new _String({ type: "string", error: params.error });
    const booleanSchema = new _Boolean({ type: "boolean", error: params.error });
    const codec = new _Codec({
        type: "pipe",
        in: stringSchema,
        out: booleanSchema,
        transform: ((input, payload) => {
            let data = input;
            if (params.case !== "sensitive")
                data = data.toLowerCase();
            if (truthySet.has(data)) {
                return true;
            }
            else if (falsySet.has(data)) {
                return false;
            }
            else {
                payload.issues.push({
                    code: "invalid_value",
                    expected: "stringbool",
                    values: [...truthySet, ...falsySet],
                    input: payload.value,
                    inst: codec,
                    continue: false,
                });
                return {};
            }
        }),
        reverseTransform: ((input, _payload) => {
            if (input === true) {
                return truthyArray[0] || "true";
            }
            else {
                return falsyArray[0] || "false";
            }
        }),
        error: params.error,
    });
    codec._zod.bag.truthy = truthyArray;
    codec._zod.bag.falsy = falsyArray;
    codec._zod.bag.case = params.case ?? "insensitive";
    return codec;
}
// @__NO_SIDE_EFFECTS__
function _stringFormat(Class, format, fnOrRegex, _params = {}) {
    const params = util.normalizeParams(_params);
    const def = {
        check: "string_format",
        type: "string",
        format,
        fn: typeof fnOrRegex === "function" ? fnOrRegex : (val) => fnOrRegex.test(val),
        ...params,
    };
    if (fnOrRegex instanceof RegExp) {
        def.pattern = fnOrRegex;
    }
    const inst = new Class(def);
    return inst;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/to-json-schema.js


function assignProps(target, ...sources) {
    for (const source of sources) {
        for (const key of Reflect.ownKeys(source)) {
            if (Object.prototype.propertyIsEnumerable.call(source, key)) {
                util_assignProp(target, key, source[key]);
            }
        }
    }
    return target;
}
// function initializeContext<T extends schemas.$ZodType>(inputs: JSONSchemaGeneratorParams<T>): ToJSONSchemaContext<T> {
//   return {
//     processor: inputs.processor,
//     metadataRegistry: inputs.metadata ?? globalRegistry,
//     target: inputs.target ?? "draft-2020-12",
//     unrepresentable: inputs.unrepresentable ?? "throw",
//   };
// }
function to_json_schema_initializeContext(params) {
    // Normalize target: convert old non-hyphenated versions to hyphenated versions
    let target = params?.target ?? "draft-2020-12";
    if (target === "draft-4")
        target = "draft-04";
    if (target === "draft-7")
        target = "draft-07";
    return {
        processors: params.processors ?? {},
        metadataRegistry: params?.metadata ?? globalRegistry,
        target,
        unrepresentable: params?.unrepresentable ?? "throw",
        override: params?.override ?? (() => { }),
        io: params?.io ?? "output",
        counter: 0,
        seen: new Map(),
        sharedDefsExtractedFor: undefined,
        sharedEmitDoneFor: undefined,
        cycles: params?.cycles ?? "ref",
        reused: params?.reused ?? "inline",
        intersections: [],
        deferred: [],
        external: params?.external ?? undefined,
    };
}
/**
 * Applies the `unrepresentable` setting at a site that has no JSON Schema equivalent. Throws
 * `message` unless the setting (or the handler's return value) says otherwise. Returns `true` if a
 * custom JSON Schema was written into `json`, in which case the caller must not write its own.
 */
function handleUnrepresentable(schema, ctx, json, params, message) {
    const result = typeof ctx.unrepresentable === "function"
        ? ctx.unrepresentable({ zodSchema: schema, path: params.path, message })
        : ctx.unrepresentable;
    if (result === "any")
        return false;
    if (result === undefined || result === "throw")
        throw new Error(message);
    Object.assign(json, result);
    return true;
}
// never rename this back to `process`: bundler polyfills inject a top-level `const process` that a lexical declaration of the same name collides with (#6397)
function to_json_schema_processSchema(schema, ctx, _params = { path: [], schemaPath: [] }) {
    var _a;
    const def = schema._zod.def;
    // check for schema in seens
    const seen = ctx.seen.get(schema);
    if (seen) {
        seen.count++;
        // check if cycle
        const isCycle = _params.schemaPath.includes(schema);
        if (isCycle) {
            seen.cycle = _params.path;
        }
        return seen.schema;
    }
    // initialize
    const result = { schema: {}, count: 1, cycle: undefined, path: _params.path };
    ctx.seen.set(schema, result);
    ctx.sharedDefsExtractedFor = undefined;
    ctx.sharedEmitDoneFor = undefined;
    // custom method overrides default behavior
    const overrideSchema = schema._zod.toJSONSchema?.();
    if (overrideSchema) {
        result.schema = overrideSchema;
    }
    else {
        const params = {
            ..._params,
            schemaPath: [..._params.schemaPath, schema],
            path: _params.path,
        };
        if (schema._zod.processJSONSchema) {
            schema._zod.processJSONSchema(ctx, result.schema, params);
        }
        else {
            const _json = result.schema;
            const processor = ctx.processors[def.type];
            if (!processor) {
                throw new Error(`[toJSONSchema]: Non-representable type encountered: ${def.type}`);
            }
            processor(schema, ctx, _json, params);
        }
        const parent = schema._zod.parent;
        if (parent) {
            // Also set ref if processor didn't (for inheritance)
            if (!result.ref)
                result.ref = parent;
            to_json_schema_processSchema(parent, ctx, params);
            ctx.seen.get(parent).isParent = true;
        }
    }
    // metadata
    const meta = ctx.metadataRegistry.get(schema);
    if (meta)
        assignProps(result.schema, meta);
    if (ctx.io === "input" && isTransforming(schema)) {
        // examples/defaults only apply to output type of pipe
        delete result.schema.examples;
        delete result.schema.default;
    }
    // set prefault as default
    if (ctx.io === "input" && "_prefault" in result.schema)
        (_a = result.schema).default ?? (_a.default = result.schema._prefault);
    delete result.schema._prefault;
    // pulling fresh from ctx.seen in case it was overwritten
    const _result = ctx.seen.get(schema);
    return _result.schema;
}
/** @deprecated Renamed to `processSchema`. An export alias declares no binding, so it is safe to keep. */

// Escape a reference token for use in a JSON Pointer fragment (RFC 6901): `~` becomes `~0` and `/` becomes `~1`. The `~` replacement must run first.
function encodeJSONPointerSegment(segment) {
    return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
function to_json_schema_extractDefs(ctx, schema
// params: EmitParams
) {
    // iterate over seen map;
    const root = ctx.seen.get(schema);
    if (!root)
        throw new Error("Unprocessed schema. This is a bug in Zod.");
    // With `external` set, every registered schema resolves through the external branch of `makeURI`, so the root branch below produces the same ref the external branch would — this pass is identical whichever schema it is called with, and only needs to run once.
    if (ctx.external && ctx.sharedDefsExtractedFor === ctx.external)
        return;
    // Track ids to detect duplicates across different schemas
    const idToSchema = new Map();
    for (const entry of ctx.seen.entries()) {
        const id = ctx.metadataRegistry.get(entry[0])?.id;
        if (id) {
            const existing = idToSchema.get(id);
            if (existing && existing !== entry[0]) {
                throw new Error(`Duplicate schema id "${id}" detected during JSON Schema conversion. Two different schemas cannot share the same id when converted together.`);
            }
            idToSchema.set(id, entry[0]);
        }
    }
    // returns a ref to the schema defId will be empty if the ref points to an external schema (or #)
    const makeURI = (entry) => {
        // comparing the seen objects because sometimes multiple schemas map to the same seen object. e.g. lazy
        // external is configured
        const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
        if (ctx.external) {
            const externalId = ctx.external.registry.get(entry[0])?.id; // ?? "__shared";// `__schema${ctx.counter++}`;
            // check if schema is in the external registry
            const uriGenerator = ctx.external.uri ?? ((id) => id);
            if (externalId) {
                return { ref: uriGenerator(externalId) };
            }
            // otherwise, add to __shared
            const id = entry[1].defId ?? entry[1].schema.id ?? `schema${ctx.counter++}`;
            entry[1].defId = id; // set defId so it will be reused if needed
            return { defId: id, ref: `${uriGenerator("__shared")}#/${defsSegment}/${encodeJSONPointerSegment(id)}` };
        }
        const uriPrefix = `#`;
        const defUriPrefix = `${uriPrefix}/${defsSegment}/`;
        // an id-less root has nowhere to be extracted to, so it stays inline and self-references as `#`
        if (entry[1] === root && !entry[1].schema.id) {
            return { ref: uriPrefix };
        }
        // self-contained schema
        const defId = entry[1].schema.id ?? `__schema${ctx.counter++}`;
        return { defId, ref: defUriPrefix + encodeJSONPointerSegment(defId) };
    };
    // stored cached version in `def` property remove all properties, set $ref
    const extractToDef = (entry) => {
        // if the schema is already a reference, do not extract it
        if (entry[1].schema.$ref) {
            return;
        }
        const seen = entry[1];
        const { ref, defId } = makeURI(entry);
        seen.def = { ...seen.schema };
        // defId won't be set if the schema is a reference to an external schema or if the schema is the root schema
        if (defId)
            seen.defId = defId;
        // wipe away all properties except $ref
        const schema = seen.schema;
        for (const key in schema) {
            delete schema[key];
        }
        schema.$ref = ref;
    };
    // throw on cycles
    // break cycles
    if (ctx.cycles === "throw") {
        for (const entry of ctx.seen.entries()) {
            const seen = entry[1];
            if (seen.cycle) {
                throw new Error("Cycle detected: " +
                    `#/${seen.cycle?.join("/")}/<root>` +
                    '\n\nSet the `cycles` parameter to `"ref"` to resolve cyclical schemas with defs.');
            }
        }
    }
    // extract schemas into $defs
    for (const entry of ctx.seen.entries()) {
        const seen = entry[1];
        // convert root schema to # $ref
        if (schema === entry[0]) {
            extractToDef(entry); // this has special handling for the root schema
            continue;
        }
        // extract schemas that are in the external registry
        if (ctx.external) {
            const ext = ctx.external.registry.get(entry[0])?.id;
            if (schema !== entry[0] && ext) {
                extractToDef(entry);
                continue;
            }
        }
        // extract schemas with `id` meta
        const id = ctx.metadataRegistry.get(entry[0])?.id;
        if (id) {
            extractToDef(entry);
            continue;
        }
        // break cycles
        if (seen.cycle) {
            // any
            extractToDef(entry);
            continue;
        }
        // extract reused schemas
        if (seen.count > 1) {
            if (ctx.reused === "ref") {
                extractToDef(entry);
            }
        }
    }
    if (ctx.external)
        ctx.sharedDefsExtractedFor = ctx.external;
}
/** Rewrites `anyOf: [{type: "a"}, {type: "b"}]` to `type: ["a", "b"]`, which every JSON Schema draft treats as equivalent and most consumers render far better for the nullable case. Only branches that are a bare type assertion qualify — anything carrying a constraint, `$ref`, `const` or metadata is left alone. Runs after `flattenRef`, so a branch an override decorated or `$defs` extraction turned into a `$ref` is no longer bare and correctly stays in `anyOf`. `oneOf` is excluded: `integer` and `number` overlap, so "exactly one" and "at least one" are not the same there. OpenAPI 3.0 is excluded: its `type` must be a single string. */
function compactTypeUnion(schema) {
    const options = schema.anyOf;
    if (!Array.isArray(options) || options.length === 0 || schema.type !== undefined)
        return;
    const types = [];
    for (const option of options) {
        if (!option || typeof option !== "object")
            return;
        // A branch that is itself a compactible union folds into this one — nested `anyOf` and a flat `type` array say the same thing. Compacting it first also makes the result independent of the order this pass walks the seen map in.
        compactTypeUnion(option);
        const keys = Object.keys(option);
        if (keys.length !== 1 || keys[0] !== "type")
            return;
        const type = option.type;
        for (const member of Array.isArray(type) ? type : [type]) {
            if (typeof member !== "string")
                return;
            if (!types.includes(member))
                types.push(member);
        }
    }
    delete schema.anyOf;
    // A `type` array must be non-empty and unique (metaschema); a single member is spelled as a bare string.
    schema.type = types.length === 1 ? types[0] : types;
}
/** Keywords `foldIntersection` knows how to combine. Anything else — `$ref`, `patternProperties`,
 * an annotation like `description` — makes a member unfoldable, so a constraint this does not
 * understand leaves the `allOf` alone instead of being silently dropped or misattributed. */
const FOLDABLE_KEYS = new Set(["type", "properties", "required", "additionalProperties"]);
const UNION_KEYS = ["oneOf", "anyOf"];
/** A member's constraint on a key it does not declare itself. A `catchall` states one; `false`, an absent `additionalProperties`, and the empty schema a loose object emits state nothing. */
function undeclaredConstraint(member) {
    const extra = member.additionalProperties;
    if (extra === undefined || extra === false || typeof extra !== "object" || extra === null)
        return null;
    return Object.keys(extra).length ? extra : null;
}
/** Combines object members into the single object they describe together, or returns `null` if any of them carries a keyword outside {@link FOLDABLE_KEYS}. */
function foldObjects(members) {
    const objects = [];
    for (const member of members) {
        // A boolean subschema is legal JSON Schema and carries no keywords to fold.
        if (typeof member !== "object" || member.type !== "object")
            return null;
        for (const key in member) {
            if (!FOLDABLE_KEYS.has(key))
                return null;
        }
        objects.push(member);
    }
    const properties = {};
    const required = new Set();
    for (const object of objects) {
        for (const key in object.properties) {
            // `in` would report a `__proto__` key as already present via the prototype chain and skip it.
            if (Object.prototype.hasOwnProperty.call(properties, key))
                continue;
            // Every member constrains this key: the ones that declare it say how, and a `catchall` member constrains it too even though it does not name it. The key has to satisfy all of them, which is the same intersection one level down.
            const parts = [];
            for (const other of objects) {
                const part = other.properties?.[key] ?? undeclaredConstraint(other);
                if (part === null || part === undefined)
                    continue;
                if (!parts.some((seen) => JSON.stringify(seen) === JSON.stringify(part)))
                    parts.push(part);
            }
            const merged = parts.length === 1
                ? parts[0]
                : (foldObjects(parts) ?? { allOf: parts });
            util_assignProp(properties, key, merged);
        }
        for (const key of object.required ?? [])
            required.add(key);
    }
    const folded = { type: "object", properties };
    if (required.size)
        folded.required = [...required];
    // A key no member declares is rejected only when every member rejects it, so the fold is closed only when every member is. Otherwise it carries whatever the `catchall` members demand of such a key.
    if (objects.every((object) => object.additionalProperties === false)) {
        folded.additionalProperties = false;
    }
    else {
        const constraints = [];
        for (const object of objects) {
            const constraint = undeclaredConstraint(object);
            if (constraint && !constraints.some((seen) => JSON.stringify(seen) === JSON.stringify(constraint)))
                constraints.push(constraint);
        }
        if (constraints.length === 1)
            folded.additionalProperties = constraints[0];
        else if (constraints.length > 1)
            folded.additionalProperties = { allOf: constraints };
    }
    return folded;
}
/** `additionalProperties` in an `allOf` member sees only that member's own `properties`, so two
 * closed object members reject each other's keys and the schema validates nothing. Zod's parser
 * pools the key sets instead — `handleIntersectionResults` reports a key as unrecognized only when
 * *every* side rejects it — so the emitted schema has to pool them too, and folding the members
 * into one object is the encoding that says so on every target.
 *
 * This runs from `finalize`, after `extractDefs`, which is what keeps it clear of the `$ref`
 * machinery: a member extracted into `$defs` is already a `$ref` by now and declines to fold, so it
 * keeps its reference and its own closedness rather than being inlined as a stale copy. */
function foldIntersection(json) {
    const allOf = json.allOf;
    if (!Array.isArray(allOf) || allOf.length < 2)
        return;
    // An `override` runs before this pass and may have written object keywords onto the intersection itself. Those are deliberate, so decline rather than overwrite them.
    for (const key of FOLDABLE_KEYS)
        if (key in json)
            return;
    // An intersection distributes over a union: `A & (X | Y)` is `(A & X) | (A & Y)`. Only the first union is distributed over; a second one stays among the members every branch folds against, where it fails the object check and declines the whole intersection rather than multiplying out.
    const unions = allOf.filter((m) => UNION_KEYS.some((k) => Array.isArray(m[k])));
    let folded = null;
    if (!unions.length) {
        folded = foldObjects(allOf);
    }
    else {
        const union = unions[0];
        const keyword = UNION_KEYS.find((k) => Array.isArray(union[k]));
        if (Object.keys(union).length !== 1)
            return;
        const rest = allOf.filter((m) => m !== union);
        const branches = union[keyword].map((branch) => foldObjects([...rest, branch]));
        if (branches.some((b) => !b))
            return;
        folded = { [keyword]: branches };
    }
    if (!folded)
        return;
    delete json.allOf;
    assignProps(json, folded);
}
function to_json_schema_finalize(ctx, schema) {
    const root = ctx.seen.get(schema);
    if (!root)
        throw new Error("Unprocessed schema. This is a bug in Zod.");
    // flatten refs - inherit properties from parent schemas
    const flattenRef = (zodSchema) => {
        const seen = ctx.seen.get(zodSchema);
        // already processed
        if (seen.ref === null)
            return;
        const schema = seen.def ?? seen.schema;
        const _cached = { ...schema };
        const ref = seen.ref;
        seen.ref = null; // prevent infinite recursion
        if (ref) {
            flattenRef(ref);
            const refSeen = ctx.seen.get(ref);
            const refSchema = refSeen.schema;
            // merge referenced schema into current
            if (refSchema.$ref && (ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0")) {
                // older drafts can't combine $ref with other properties
                schema.allOf = schema.allOf ?? [];
                schema.allOf.push(refSchema);
            }
            else {
                assignProps(schema, refSchema);
            }
            // restore child's own properties (child wins)
            assignProps(schema, _cached);
            const isParentRef = zodSchema._zod.parent === ref;
            // For parent chain, child is a refinement - remove parent-only properties
            if (isParentRef) {
                for (const key in schema) {
                    if (key === "$ref" || key === "allOf")
                        continue;
                    if (!(key in _cached)) {
                        delete schema[key];
                    }
                }
            }
            // When ref was extracted to $defs, remove properties that match the definition
            if (refSchema.$ref && refSeen.def) {
                for (const key in schema) {
                    if (key === "$ref" || key === "allOf")
                        continue;
                    if (key in refSeen.def && JSON.stringify(schema[key]) === JSON.stringify(refSeen.def[key])) {
                        delete schema[key];
                    }
                }
            }
        }
        // If parent was extracted (has $ref), propagate $ref to this schema. This handles cases like: readonly().meta({id}).describe() where processor sets ref to innerType but parent should be referenced
        const parent = zodSchema._zod.parent;
        if (parent && parent !== ref) {
            // Ensure parent is processed first so its def has inherited properties
            flattenRef(parent);
            const parentSeen = ctx.seen.get(parent);
            if (parentSeen?.schema.$ref) {
                schema.$ref = parentSeen.schema.$ref;
                // De-duplicate with parent's definition
                if (parentSeen.def) {
                    for (const key in schema) {
                        if (key === "$ref" || key === "allOf")
                            continue;
                        if (key in parentSeen.def && JSON.stringify(schema[key]) === JSON.stringify(parentSeen.def[key])) {
                            delete schema[key];
                        }
                    }
                }
            }
        }
        // execute overrides
        ctx.override({
            zodSchema: zodSchema,
            jsonSchema: schema,
            path: seen.path ?? [],
        });
    };
    // Flattening walks the whole map and clears each `ref` as it goes, so a second call over the same map is a no-op scan. Skip it outright once it has run for a registry conversion.
    if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
        for (const entry of [...ctx.seen.entries()].reverse()) {
            flattenRef(entry[0]);
        }
        if (ctx.target !== "openapi-3.0") {
            for (const entry of ctx.seen.entries()) {
                compactTypeUnion(entry[1].def ?? entry[1].schema);
            }
        }
        for (const rewrite of ctx.deferred)
            rewrite();
        // After flattening, every member that was extracted is a `$ref`, so the fold sees the final shape. A schema that inherits an intersection — through `z.lazy`, or any `ref` chain — holds the same `allOf` array, so fold by array identity to catch every copy.
        if (ctx.intersections.length) {
            const carriers = new Map();
            for (const seen of ctx.seen.values()) {
                for (const json of [seen.schema, seen.def]) {
                    const allOf = json?.allOf;
                    if (!Array.isArray(allOf))
                        continue;
                    const existing = carriers.get(allOf);
                    if (existing)
                        existing.push(json);
                    else
                        carriers.set(allOf, [json]);
                }
            }
            for (const allOf of ctx.intersections) {
                for (const json of carriers.get(allOf) ?? [])
                    foldIntersection(json);
            }
        }
    }
    const result = {};
    if (ctx.target === "draft-2020-12") {
        result.$schema = "https://json-schema.org/draft/2020-12/schema";
    }
    else if (ctx.target === "draft-07") {
        result.$schema = "http://json-schema.org/draft-07/schema#";
    }
    else if (ctx.target === "draft-04") {
        result.$schema = "http://json-schema.org/draft-04/schema#";
    }
    else if (ctx.target === "openapi-3.0") {
        // OpenAPI 3.0 schema objects should not include a $schema property
    }
    else {
        // Arbitrary string values are allowed but won't have a $schema property set
    }
    if (ctx.external?.uri) {
        const id = ctx.external.registry.get(schema)?.id;
        if (!id)
            throw new Error("Schema is missing an `id` property");
        result.$id = ctx.external.uri(id);
    }
    // when the root was extracted into $defs, `root.schema` is the `$ref` wrapper and `root.def` is the body that now lives under $defs
    assignProps(result, root.defId ? root.schema : (root.def ?? root.schema));
    // The `id` in `.meta()` is a Zod-specific registration tag used to extract schemas into $defs — it is not user-facing JSON Schema metadata. Strip it from the output body where it would otherwise leak. The id is preserved implicitly via the $defs key (and via $ref paths).
    const rootMetaId = ctx.metadataRegistry.get(schema)?.id;
    if (rootMetaId !== undefined && result.id === rootMetaId)
        delete result.id;
    // build defs object. With `external`, `defs` is the shared object every schema writes into, so the same entries are reassigned on every call. Without it, `defs` is fresh per call and must be rebuilt.
    const defs = ctx.external?.defs ?? {};
    if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
        for (const entry of ctx.seen.entries()) {
            const seen = entry[1];
            if (seen.def && seen.defId) {
                if (seen.def.id === seen.defId)
                    delete seen.def.id;
                util_assignProp(defs, seen.defId, seen.def);
            }
        }
    }
    if (ctx.external)
        ctx.sharedEmitDoneFor = ctx.external;
    // set definitions in result
    if (ctx.external) {
    }
    else {
        if (Object.keys(defs).length > 0) {
            if (ctx.target === "draft-2020-12") {
                result.$defs = defs;
            }
            else {
                result.definitions = defs;
            }
        }
    }
    try {
        // this "finalizes" this schema and ensures all cycles are removed each call to finalize() is functionally independent though the seen map is shared
        const finalized = JSON.parse(JSON.stringify(result));
        Object.defineProperty(finalized, "~standard", {
            value: {
                ...schema["~standard"],
                jsonSchema: {
                    input: createStandardJSONSchemaMethod(schema, "input", ctx.processors),
                    output: createStandardJSONSchemaMethod(schema, "output", ctx.processors),
                },
            },
            enumerable: false,
            writable: false,
        });
        return finalized;
    }
    catch (_err) {
        throw new Error("Error converting schema to JSON.");
    }
}
function isTransforming(_schema, _ctx) {
    const ctx = _ctx ?? { seen: new Set() };
    if (ctx.seen.has(_schema))
        return false;
    ctx.seen.add(_schema);
    const def = _schema._zod.def;
    if (def.type === "transform")
        return true;
    if (def.type === "array")
        return isTransforming(def.element, ctx);
    if (def.type === "set")
        return isTransforming(def.valueType, ctx);
    if (def.type === "lazy")
        return isTransforming(def.getter(), ctx);
    if (def.type === "promise" ||
        def.type === "optional" ||
        def.type === "nonoptional" ||
        def.type === "nullable" ||
        def.type === "readonly" ||
        def.type === "default" ||
        def.type === "prefault" ||
        def.type === "catch") {
        return isTransforming(def.innerType, ctx);
    }
    if (def.type === "intersection") {
        return isTransforming(def.left, ctx) || isTransforming(def.right, ctx);
    }
    if (def.type === "record" || def.type === "map") {
        return isTransforming(def.keyType, ctx) || isTransforming(def.valueType, ctx);
    }
    if (def.type === "pipe") {
        if (_schema._zod.traits.has("$ZodCodec"))
            return true;
        return isTransforming(def.in, ctx) || isTransforming(def.out, ctx);
    }
    if (def.type === "object") {
        for (const key in def.shape) {
            if (isTransforming(def.shape[key], ctx))
                return true;
        }
        return false;
    }
    if (def.type === "union") {
        for (const option of def.options) {
            if (isTransforming(option, ctx))
                return true;
        }
        return false;
    }
    if (def.type === "tuple") {
        for (const item of def.items) {
            if (isTransforming(item, ctx))
                return true;
        }
        if (def.rest && isTransforming(def.rest, ctx))
            return true;
        return false;
    }
    return false;
}
/**
 * Creates a toJSONSchema method for a schema instance.
 * This encapsulates the logic of initializing context, processing, extracting defs, and finalizing.
 */
const createToJSONSchemaMethod = (schema, processors = {}) => (params) => {
    const ctx = to_json_schema_initializeContext({ ...params, processors });
    to_json_schema_processSchema(schema, ctx);
    to_json_schema_extractDefs(ctx, schema);
    return to_json_schema_finalize(ctx, schema);
};
const createStandardJSONSchemaMethod = (schema, io, processors = {}) => (params) => {
    const { libraryOptions, target } = params ?? {};
    const ctx = to_json_schema_initializeContext({ ...(libraryOptions ?? {}), target, io, processors });
    to_json_schema_processSchema(schema, ctx);
    to_json_schema_extractDefs(ctx, schema);
    return to_json_schema_finalize(ctx, schema);
};

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/json-schema-processors.js




const narrowMin = (agg, key, value) => {
    if (agg[key] === undefined || value > agg[key])
        agg[key] = value;
};
const narrowMax = (agg, key, value) => {
    if (agg[key] === undefined || value < agg[key])
        agg[key] = value;
};
const narrowBoth = (agg, value) => {
    narrowMin(agg, "minimum", value);
    narrowMax(agg, "maximum", value);
};
const addDivisor = (agg, value) => {
    agg.multipleOf ?? (agg.multipleOf = []);
    if (!agg.multipleOf.includes(value))
        agg.multipleOf.push(value);
};
const addPattern = (agg, pattern) => {
    agg.patterns ?? (agg.patterns = new Set());
    agg.patterns.add(pattern);
};
const intersectMime = (agg, mime) => {
    agg.mime = agg.mime ? agg.mime.filter((m) => mime.includes(m)) : [...mime];
};
// last-wins, matching the bag's historical write order; the flag keeps an integer format from being lost to a later float one
const setFormat = (agg, format) => {
    agg.format = format;
    if (format.includes("int"))
        agg.isInt = true;
};
const minContributor = (agg, def) => narrowMin(agg, "minimum", def.minimum);
const maxContributor = (agg, def) => narrowMax(agg, "maximum", def.maximum);
const formatContributor = (ranges) => (agg, def) => {
    setFormat(agg, def.format);
    const [minimum, maximum] = ranges[def.format];
    narrowMin(agg, "minimum", minimum);
    narrowMax(agg, "maximum", maximum);
};
const contributors = {
    greater_than: (agg, def) => narrowMin(agg, def.inclusive ? "minimum" : "exclusiveMinimum", def.value),
    less_than: (agg, def) => narrowMax(agg, def.inclusive ? "maximum" : "exclusiveMaximum", def.value),
    multiple_of: (agg, def) => addDivisor(agg, def.value),
    number_format: formatContributor(NUMBER_FORMAT_RANGES),
    bigint_format: formatContributor(BIGINT_FORMAT_RANGES),
    min_length: minContributor,
    max_length: maxContributor,
    length_equals: (agg, def) => narrowBoth(agg, def.length),
    min_size: minContributor,
    max_size: maxContributor,
    size_equals: (agg, def) => narrowBoth(agg, def.size),
    string_format: (agg, def) => {
        setFormat(agg, def.format);
        if (def.pattern)
            addPattern(agg, def.pattern);
        if (def.format === "base64" || def.format === "base64url")
            agg.contentEncoding = def.format;
        if (def.local || def.precision === -1)
            agg.laxFormat = true;
    },
    mime_type: (agg, def) => intersectMime(agg, def.mime),
};
function aggregateChecks(schema) {
    const agg = {};
    const def = schema._zod.def;
    // a format schema is its own first check, same rule as $ZodType init
    const list = schema._zod.traits.has("$ZodCheck")
        ? [schema, ...(def.checks ?? [])]
        : (def.checks ?? []);
    for (const ch of list)
        contributors[ch._zod.def.check]?.(agg, ch._zod.def);
    // reconcile with the bag so third-party onattach contributions still land; first-party residue is never tighter than the fold, so merging it back is idempotent for one and additive for the other
    const bag = schema._zod.bag;
    if (bag.minimum !== undefined)
        narrowMin(agg, "minimum", bag.minimum);
    if (bag.exclusiveMinimum !== undefined)
        narrowMin(agg, "exclusiveMinimum", bag.exclusiveMinimum);
    if (bag.maximum !== undefined)
        narrowMax(agg, "maximum", bag.maximum);
    if (bag.exclusiveMaximum !== undefined)
        narrowMax(agg, "exclusiveMaximum", bag.exclusiveMaximum);
    if (bag.multipleOf !== undefined)
        addDivisor(agg, bag.multipleOf);
    if (bag.format !== undefined) {
        agg.format ?? (agg.format = bag.format);
        if (bag.format.includes("int"))
            agg.isInt = true;
    }
    if (bag.mime)
        intersectMime(agg, bag.mime);
    for (const pattern of bag.patterns ?? [])
        addPattern(agg, pattern);
    return agg;
}
const formatMap = {
    guid: "uuid",
    url: "uri",
    datetime: "date-time",
    json_string: "json-string",
    regex: "", // do not set
};
// ==================== SIMPLE TYPE PROCESSORS ====================
// the runtime patterns are lax so parse paths never overflow the regex stack; the emitted schema swaps in the exact block forms, which zod itself never executes
const exactPatterns = new Map([
    [base64Charset, base64],
    [base64urlCharset, base64url],
]);
const exactPattern = (p) => exactPatterns.get(p) ?? p;
const stringProcessor = (schema, ctx, _json, _params) => {
    const json = _json;
    json.type = "string";
    const { minimum, maximum, format, patterns, contentEncoding, laxFormat } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minLength = minimum;
    if (typeof maximum === "number")
        json.maxLength = maximum;
    // custom pattern overrides format
    if (format) {
        json.format = formatMap[format] ?? format;
        if (json.format === "")
            delete json.format; // empty format is not valid
        // `z.iso.time()` is never full-time, and `laxFormat` carries the datetime shapes that also accept what their keyword forbids
        if (format === "time" || laxFormat) {
            delete json.format;
        }
    }
    if (contentEncoding)
        json.contentEncoding = contentEncoding;
    if (patterns && patterns.size > 0) {
        const patternList = [...patterns].map(exactPattern);
        if (patternList.length === 1)
            json.pattern = patternList[0].source;
        else if (patternList.length > 1) {
            json.allOf = [
                ...patternList.map((regex) => ({
                    ...(ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0"
                        ? { type: "string" }
                        : {}),
                    pattern: regex.source,
                })),
            ];
        }
    }
};
const numberProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const { minimum, maximum, multipleOf, exclusiveMaximum, exclusiveMinimum, isInt } = aggregateChecks(schema);
    json.type = isInt ? "integer" : "number";
    // when both minimum and exclusiveMinimum exist, pick the more restrictive one
    const exMin = typeof exclusiveMinimum === "number" && exclusiveMinimum >= (minimum ?? Number.NEGATIVE_INFINITY);
    const exMax = typeof exclusiveMaximum === "number" && exclusiveMaximum <= (maximum ?? Number.POSITIVE_INFINITY);
    const legacy = ctx.target === "draft-04" || ctx.target === "openapi-3.0";
    if (exMin) {
        if (legacy) {
            json.minimum = exclusiveMinimum;
            json.exclusiveMinimum = true;
        }
        else {
            json.exclusiveMinimum = exclusiveMinimum;
        }
    }
    else if (typeof minimum === "number") {
        json.minimum = minimum;
    }
    if (exMax) {
        if (legacy) {
            json.maximum = exclusiveMaximum;
            json.exclusiveMaximum = true;
        }
        else {
            json.exclusiveMaximum = exclusiveMaximum;
        }
    }
    else if (typeof maximum === "number") {
        json.maximum = maximum;
    }
    if (multipleOf) {
        // JSON Schema requires a divisor strictly greater than zero, and a non-finite one does not survive JSON at all. A negative divisor accepts exactly what its absolute value accepts, so it still maps; zero, NaN and Infinity have no keyword form.
        const divisors = new Set();
        for (const divisor of multipleOf) {
            if (Number.isFinite(divisor) && divisor !== 0)
                divisors.add(Math.abs(divisor));
            else
                handleUnrepresentable(schema, ctx, json, params, `A multipleOf divisor of ${divisor} cannot be represented in JSON Schema`);
        }
        // chained divisors are a conjunction the keyword cannot carry alone, so extras ride an allOf, same as stacked patterns
        const [first, ...rest] = divisors;
        if (first !== undefined)
            json.multipleOf = first;
        if (rest.length)
            json.allOf = [...(json.allOf ?? []), ...rest.map((m) => ({ multipleOf: m }))];
    }
};
const booleanProcessor = (_schema, _ctx, json, _params) => {
    json.type = "boolean";
};
const bigintProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "BigInt cannot be represented in JSON Schema");
};
const symbolProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Symbols cannot be represented in JSON Schema");
};
const nullProcessor = (_schema, ctx, json, _params) => {
    if (ctx.target === "openapi-3.0") {
        json.type = "string";
        json.nullable = true;
        json.enum = [null];
    }
    else {
        json.type = "null";
    }
};
const undefinedProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Undefined cannot be represented in JSON Schema");
};
const voidProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Void cannot be represented in JSON Schema");
};
const neverProcessor = (_schema, _ctx, json, _params) => {
    json.not = {};
};
const anyProcessor = (_schema, _ctx, _json, _params) => {
    // empty schema accepts anything
};
const unknownProcessor = (_schema, _ctx, _json, _params) => {
    // empty schema accepts anything
};
const dateProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Date cannot be represented in JSON Schema");
};
const enumProcessor = (schema, _ctx, json, _params) => {
    const def = schema._zod.def;
    const values = getEnumValues(def.entries);
    // an empty enum accepts nothing, same as z.never()
    if (values.length === 0) {
        json.not = {};
        return;
    }
    // Number enums can have both string and number values
    if (values.every((v) => typeof v === "number"))
        json.type = "number";
    if (values.every((v) => typeof v === "string"))
        json.type = "string";
    json.enum = values;
};
const literalProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    // a literal with no values accepts nothing, same as z.never()
    if (def.values.length === 0) {
        json.not = {};
        return;
    }
    const vals = [];
    for (const val of def.values) {
        if (val === undefined) {
            // a custom schema replaces the whole literal, so there is nothing left to accumulate
            if (handleUnrepresentable(schema, ctx, json, params, "Literal `undefined` cannot be represented in JSON Schema"))
                return;
            // otherwise do not add to vals
        }
        else if (typeof val === "bigint") {
            if (handleUnrepresentable(schema, ctx, json, params, "BigInt literals cannot be represented in JSON Schema"))
                return;
            vals.push(Number(val));
        }
        else {
            vals.push(val);
        }
    }
    if (vals.length === 0) {
        // do nothing (an undefined literal was stripped)
    }
    else if (vals.length === 1) {
        const val = vals[0];
        json.type = val === null ? "null" : typeof val;
        if (ctx.target === "draft-04" || ctx.target === "openapi-3.0") {
            json.enum = [val];
        }
        else {
            json.const = val;
        }
    }
    else {
        if (vals.every((v) => typeof v === "number"))
            json.type = "number";
        if (vals.every((v) => typeof v === "string"))
            json.type = "string";
        if (vals.every((v) => typeof v === "boolean"))
            json.type = "boolean";
        if (vals.every((v) => v === null))
            json.type = "null";
        json.enum = vals;
    }
};
const nanProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "NaN cannot be represented in JSON Schema");
};
const templateLiteralProcessor = (schema, _ctx, json, _params) => {
    const _json = json;
    const pattern = schema._zod.pattern;
    if (!pattern)
        throw new Error("Pattern not found in template literal");
    _json.type = "string";
    _json.pattern = pattern.source;
};
const fileProcessor = (schema, _ctx, json, _params) => {
    const _json = json;
    _json.type = "string";
    _json.format = "binary";
    _json.contentEncoding = "binary";
    const { minimum, maximum, mime } = aggregateChecks(schema);
    if (minimum !== undefined)
        _json.minLength = minimum;
    if (maximum !== undefined)
        _json.maxLength = maximum;
    if (!mime)
        return;
    // an empty intersection means the mime checks share no value, so nothing passes at runtime; `anyOf` must be non-empty, so the false schema is `not: {}`
    if (mime.length === 0)
        _json.not = {};
    else if (mime.length === 1)
        _json.contentMediaType = mime[0];
    // only contentMediaType differs, so the shared props stay at the root
    else
        _json.anyOf = mime.map((m) => ({ contentMediaType: m }));
};
const successProcessor = (_schema, _ctx, json, _params) => {
    json.type = "boolean";
};
const customProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Custom types cannot be represented in JSON Schema");
};
const functionProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Function types cannot be represented in JSON Schema");
};
const transformProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Transforms cannot be represented in JSON Schema");
};
const mapProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Map cannot be represented in JSON Schema");
};
const setProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Set cannot be represented in JSON Schema");
};
// ==================== COMPOSITE TYPE PROCESSORS ====================
const arrayProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    const { minimum, maximum } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minItems = minimum;
    if (typeof maximum === "number")
        json.maxItems = maximum;
    json.type = "array";
    json.items = to_json_schema_processSchema(def.element, ctx, {
        ...params,
        path: [...params.path, "items"],
    });
};
// Transform and catch set `optin = "optional"` at runtime so the parser lets them observe an
// absent key, but their declared input type stays required. An input JSON Schema describes the
// declared type, so resolve past them to the schema that actually carries the optionality.
// Used by both `objectProcessor` (for `required`) and `tupleProcessor` (for `minItems`); see
// wiki/optionality.md, "The JSON Schema emitter reads the *static* value".
function inputOptin(schema) {
    const def = schema._zod.def;
    if (def.type === "pipe" && def.in._zod.traits.has("$ZodTransform")) {
        return inputOptin(def.out);
    }
    if (def.type === "catch") {
        return inputOptin(def.innerType);
    }
    return schema._zod.optin;
}
const objectProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    const shape = def.shape;
    // dropping it while still emitting `additionalProperties: false` would emit a schema that rejects data this one requires
    const symbolKeys = Object.getOwnPropertySymbols(shape);
    if (symbolKeys.length &&
        handleUnrepresentable(schema, ctx, json, params, "Symbol keys cannot be represented in JSON Schema")) {
        return;
    }
    json.type = "object";
    json.properties = {};
    for (const key in shape) {
        // assignProp so a __proto__ key becomes an own property instead of hitting the inherited setter on the plain {} we build into
        util_assignProp(json.properties, key, to_json_schema_processSchema(shape[key], ctx, {
            ...params,
            path: [...params.path, "properties", key],
        }));
    }
    // required keys
    const requiredKeys = [];
    for (const key of Object.keys(shape)) {
        const field = def.shape[key];
        if (ctx.io === "input" ? inputOptin(field) === undefined : field._zod.optout === undefined) {
            requiredKeys.push(key);
        }
    }
    if (requiredKeys.length > 0) {
        json.required = requiredKeys;
    }
    // catchall
    if (def.catchall?._zod.def.type === "never") {
        // strict
        json.additionalProperties = false;
    }
    else if (!def.catchall) {
        // regular
        if (ctx.io === "output")
            json.additionalProperties = false;
    }
    else if (def.catchall) {
        json.additionalProperties = to_json_schema_processSchema(def.catchall, ctx, {
            ...params,
            path: [...params.path, "additionalProperties"],
        });
    }
};
const unionProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    // Exclusive unions (inclusive === false) use oneOf (exactly one match) instead of anyOf (one or more matches). This includes both z.xor() and discriminated unions
    const isExclusive = def.inclusive === false;
    const options = def.options.map((x, i) => to_json_schema_processSchema(x, ctx, {
        ...params,
        path: [...params.path, isExclusive ? "oneOf" : "anyOf", i],
    }));
    if (isExclusive) {
        json.oneOf = options;
    }
    else {
        json.anyOf = options;
    }
};
const intersectionProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    const a = to_json_schema_processSchema(def.left, ctx, {
        ...params,
        path: [...params.path, "allOf", 0],
    });
    const b = to_json_schema_processSchema(def.right, ctx, {
        ...params,
        path: [...params.path, "allOf", 1],
    });
    const isSimpleIntersection = (val) => "allOf" in val && Object.keys(val).length === 1;
    const allOf = [
        ...(isSimpleIntersection(a) ? a.allOf : [a]),
        ...(isSimpleIntersection(b) ? b.allOf : [b]),
    ];
    json.allOf = allOf;
    // Recorded innermost first, so a nested intersection has already folded by the time this one is considered. The array is the handle rather than the schema, because a wrapper that inherits this schema shares the same array; `finalize` folds every object holding it. See `foldIntersection`.
    ctx.intersections.push(allOf);
};
const tupleProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    json.type = "array";
    const prefixPath = ctx.target === "draft-2020-12" ? "prefixItems" : "items";
    const restPath = ctx.target === "draft-2020-12" ? "items" : ctx.target === "openapi-3.0" ? "items" : "additionalItems";
    const prefixItems = def.items.map((x, i) => to_json_schema_processSchema(x, ctx, {
        ...params,
        path: [...params.path, prefixPath, i],
    }));
    const rest = def.rest
        ? to_json_schema_processSchema(def.rest, ctx, {
            ...params,
            path: [...params.path, restPath, ...(ctx.target === "openapi-3.0" ? [def.items.length] : [])],
        })
        : null;
    let minItems = def.items.length;
    while (minItems > 0) {
        const item = def.items[minItems - 1];
        const optional = ctx.io === "input" ? inputOptin(item) !== undefined : item._zod.optout === "optional";
        if (!optional)
            break;
        minItems--;
    }
    const maxItems = def.items.length;
    const isClosed = !def.rest;
    if (ctx.target === "draft-2020-12") {
        json.prefixItems = prefixItems;
        if (isClosed) {
            json.items = false;
        }
        else if (rest) {
            json.items = rest;
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    else if (ctx.target === "openapi-3.0") {
        json.items = {
            anyOf: prefixItems,
        };
        if (rest) {
            json.items.anyOf.push(rest);
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    else {
        json.items = prefixItems;
        if (isClosed) {
            json.additionalItems = false;
        }
        else if (rest) {
            json.additionalItems = rest;
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    // explicit user-defined length checks take precedence
    const { minimum, maximum } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minItems = minimum;
    if (typeof maximum === "number")
        json.maxItems = maximum;
};
/** JSON object keys are always strings, so a numeric record key schema is re-expressed over the
 * numeric-string form the record parser matches. Deferred to `finalize`, after the flatten: a key
 * behind a wrapper only carries its own `type` before then, and a union key only has its branches.
 *
 * A numeric bound cannot apply to a property name, so `minimum` and its siblings are dropped rather
 * than carried over: keeping them beside `type: "string"` reproduces the match-nothing schema this
 * exists to fix. A key that carries one therefore emits wider than the record parses — `z.record(z.number().min(5), V)`
 * accepts `"3"` — which is the deliberate trade, since throwing on it would reject an ordinary schema
 * outright. */
function stringifyKeyNames(bySchema, json, visited) {
    // an extracted key that rewrites cannot go on sharing its definition — the string form a key position needs is not the number form every other reference wants — so it inlines. One that does not rewrite keeps the `$ref`.
    if (json.$ref) {
        // a recursive key holds its own reference inside its definition, so a node already on the path is left alone rather than resolved again
        if (visited.has(json))
            return json;
        visited.add(json);
        const def = bySchema.get(json)?.def;
        if (!def)
            return json;
        const inlined = stringifyKeyNames(bySchema, def, visited);
        return inlined === def ? json : inlined;
    }
    for (const keyword of ["anyOf", "oneOf"]) {
        const branches = json[keyword];
        if (!Array.isArray(branches))
            continue;
        const mapped = branches.map((branch) => stringifyKeyNames(bySchema, branch, visited));
        // rebuilding regardless would detach a key that had nothing to re-express, dropping its `$ref` and leaking the internal `id`
        if (mapped.some((branch, i) => branch !== branches[i]))
            json = { ...json, [keyword]: mapped };
    }
    // a member that already admits a string leaves the key unconstrained, so the node's own type re-expresses only when every member is numeric
    const types = Array.isArray(json.type) ? json.type : [json.type];
    const numericType = !types.includes("string") && types.some((t) => t === "number" || t === "integer");
    // a heterogeneous key carries no type at all, so its numeric members are caught here instead
    const values = json.enum ?? (json.const !== undefined ? [json.const] : undefined);
    if (!numericType && !values?.some((v) => typeof v === "number"))
        return json;
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, format, id, ...rest } = json;
    if (rest.enum)
        rest.enum = rest.enum.map((v) => (typeof v === "number" ? String(v) : v));
    else if (typeof rest.const === "number")
        rest.const = String(rest.const);
    // a heterogeneous key keeps its absent type: the stringified members already say what a key may be
    if (!numericType)
        return rest;
    rest.type = "string";
    if (!values)
        rest.pattern = (types.includes("number") ? number : integer).source;
    return rest;
}
/** Every record of one conversion, so the carriers are found in a single pass rather than once per record. */
const pendingRecords = new WeakMap();
function rewriteKeyNames(ctx) {
    // an extracted key is resolved by the object `extractToDef` left in its place, so the map is built once rather than searched per reference. `_zod.toJSONSchema` can hand the same object to two schemas, so the first entry carrying a body wins, as a search would have found it.
    const bySchema = new Map();
    for (const entry of ctx.seen.values()) {
        if (entry.def && !bySchema.has(entry.schema))
            bySchema.set(entry.schema, entry);
    }
    const rewrites = new Map();
    for (const record of pendingRecords.get(ctx) ?? []) {
        const seen = ctx.seen.get(record);
        const names = (seen?.def ?? seen?.schema)?.propertyNames;
        if (!names || names === true || rewrites.has(names))
            continue;
        const rewritten = stringifyKeyNames(bySchema, names, new Set());
        if (rewritten !== names)
            rewrites.set(names, rewritten);
    }
    if (!rewrites.size)
        return;
    // the flatten has already copied each record's own properties onto every wrapper by reference, and an extracted body is another such copy, so every carrier holding a rewritten key is updated together
    for (const entry of ctx.seen.values()) {
        for (const carrier of [entry.schema, entry.def]) {
            const rewritten = carrier && rewrites.get(carrier.propertyNames);
            if (rewritten)
                carrier.propertyNames = rewritten;
        }
    }
}
const recordProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    json.type = "object";
    // For looseRecord with regex patterns, use patternProperties. This correctly represents "only validate keys matching the pattern" semantics and composes well with allOf (intersections)
    const keyType = def.keyType;
    const patterns = aggregateChecks(keyType).patterns;
    if (def.mode === "loose" && patterns && patterns.size > 0) {
        // Use patternProperties for looseRecord with regex patterns
        const valueSchema = to_json_schema_processSchema(def.valueType, ctx, {
            ...params,
            path: [...params.path, "patternProperties", "*"],
        });
        json.patternProperties = {};
        for (const pattern of patterns) {
            util_assignProp(json.patternProperties, exactPattern(pattern).source, valueSchema);
        }
    }
    else {
        // Default behavior: use propertyNames + additionalProperties
        if (ctx.target === "draft-07" || ctx.target === "draft-2020-12") {
            json.propertyNames = to_json_schema_processSchema(def.keyType, ctx, {
                ...params,
                path: [...params.path, "propertyNames"],
            });
            let pending = pendingRecords.get(ctx);
            if (!pending) {
                pending = [];
                pendingRecords.set(ctx, pending);
                ctx.deferred.push(() => rewriteKeyNames(ctx));
            }
            pending.push(schema);
        }
        json.additionalProperties = to_json_schema_processSchema(def.valueType, ctx, {
            ...params,
            path: [...params.path, "additionalProperties"],
        });
    }
    // Add required for keys with discrete values (enum, literal, etc.)
    const keyValues = keyType._zod.values;
    // Every key shares one value schema, so an optional-in value makes the whole key set omittable on input. Output keeps them: the exhaustive branch assigns every key, even one whose value came back undefined.
    const omittableOnInput = ctx.io === "input" && inputOptin(def.valueType) !== undefined;
    if (keyValues && !def.partial && !omittableOnInput) {
        const validKeyValues = [...keyValues].filter((v) => typeof v === "string" || typeof v === "number");
        if (validKeyValues.length > 0) {
            json.required = validKeyValues.map(String);
        }
    }
};
const nullableProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    const inner = to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    if (ctx.target === "openapi-3.0") {
        seen.ref = def.innerType;
        json.nullable = true;
    }
    else {
        json.anyOf = [inner, { type: "null" }];
    }
};
const nonoptionalProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
/** Round-trips a default value through JSON so the emitted schema is guaranteed to be valid JSON.
 * A BigInt has no reliable encoding, so it goes through `unrepresentable` like any other
 * unrepresentable value. Returns a sentinel when the caller must not write a default of its own. */
const UNREPRESENTABLE_DEFAULT = Symbol();
function serializeDefaultValue(value, schema, ctx, json, params) {
    let unrepresentable = false;
    const serialized = JSON.stringify(value, (_, val) => {
        if (typeof val !== "bigint")
            return val;
        unrepresentable = true;
        return null;
    });
    if (!unrepresentable)
        return JSON.parse(serialized);
    handleUnrepresentable(schema, ctx, json, params, "BigInt defaults cannot be represented in JSON Schema");
    return UNREPRESENTABLE_DEFAULT;
}
const defaultProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
    if (value !== UNREPRESENTABLE_DEFAULT)
        json.default = value;
};
const prefaultProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    if (ctx.io !== "input")
        return;
    const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
    if (value !== UNREPRESENTABLE_DEFAULT)
        json._prefault = value;
};
const catchProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    let catchValue;
    try {
        catchValue = def.catchValue(undefined);
    }
    catch {
        handleUnrepresentable(schema, ctx, json, params, "Dynamic catch values are not supported in JSON Schema");
        return;
    }
    json.default = catchValue;
};
const pipeProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    const inIsTransform = def.in._zod.traits.has("$ZodTransform");
    const innerType = ctx.io === "input" ? (inIsTransform ? def.out : def.in) : def.out;
    to_json_schema_processSchema(innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = innerType;
};
const readonlyProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    json.readOnly = true;
};
const promiseProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
const optionalProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
const lazyProcessor = (schema, ctx, _json, params) => {
    const innerType = schema._zod.innerType;
    to_json_schema_processSchema(innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = innerType;
};
// ==================== ALL PROCESSORS ====================
const allProcessors = {
    string: stringProcessor,
    number: numberProcessor,
    boolean: booleanProcessor,
    bigint: bigintProcessor,
    symbol: symbolProcessor,
    null: nullProcessor,
    undefined: undefinedProcessor,
    void: voidProcessor,
    never: neverProcessor,
    any: anyProcessor,
    unknown: unknownProcessor,
    date: dateProcessor,
    enum: enumProcessor,
    literal: literalProcessor,
    nan: nanProcessor,
    template_literal: templateLiteralProcessor,
    file: fileProcessor,
    success: successProcessor,
    custom: customProcessor,
    function: functionProcessor,
    transform: transformProcessor,
    map: mapProcessor,
    set: setProcessor,
    array: arrayProcessor,
    object: objectProcessor,
    union: unionProcessor,
    intersection: intersectionProcessor,
    tuple: tupleProcessor,
    record: recordProcessor,
    nullable: nullableProcessor,
    nonoptional: nonoptionalProcessor,
    default: defaultProcessor,
    prefault: prefaultProcessor,
    catch: catchProcessor,
    pipe: pipeProcessor,
    readonly: readonlyProcessor,
    promise: promiseProcessor,
    optional: optionalProcessor,
    lazy: lazyProcessor,
};
function toJSONSchema(input, params) {
    if ("_idmap" in input) {
        // Registry case
        const registry = input;
        const ctx = initializeContext({ ...params, processors: allProcessors });
        const defs = {};
        // First pass: process all schemas to build the seen map
        for (const entry of registry._idmap.entries()) {
            const [_, schema] = entry;
            processSchema(schema, ctx);
        }
        const schemas = {};
        const external = {
            registry,
            uri: params?.uri,
            defs,
        };
        // Update the context with external configuration
        ctx.external = external;
        // Second pass: emit each schema
        for (const entry of registry._idmap.entries()) {
            const [key, schema] = entry;
            extractDefs(ctx, schema);
            assignProp(schemas, key, finalize(ctx, schema));
        }
        if (Object.keys(defs).length > 0) {
            const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
            schemas.__shared = {
                [defsSegment]: defs,
            };
        }
        return { schemas };
    }
    // Single schema case
    const ctx = initializeContext({ ...params, processors: allProcessors });
    processSchema(input, ctx);
    extractDefs(ctx, input);
    return finalize(ctx, input);
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/locales/en.js

const error = () => {
    const Sizable = {
        string: { unit: "characters", verb: "to have" },
        file: { unit: "bytes", verb: "to have" },
        array: { unit: "items", verb: "to have" },
        set: { unit: "items", verb: "to have" },
        map: { unit: "entries", verb: "to have" },
    };
    function getSizing(origin) {
        return Sizable[origin] ?? null;
    }
    const FormatDictionary = {
        regex: "input",
        email: "email address",
        url: "URL",
        emoji: "emoji",
        uuid: "UUID",
        uuidv4: "UUIDv4",
        uuidv6: "UUIDv6",
        nanoid: "nanoid",
        guid: "GUID",
        cuid: "cuid",
        cuid2: "cuid2",
        ulid: "ULID",
        xid: "XID",
        ksuid: "KSUID",
        datetime: "ISO datetime",
        date: "ISO date",
        time: "ISO time",
        duration: "ISO duration",
        ipv4: "IPv4 address",
        ipv6: "IPv6 address",
        mac: "MAC address",
        cidrv4: "IPv4 range",
        cidrv6: "IPv6 range",
        base64: "base64-encoded string",
        base64url: "base64url-encoded string",
        json_string: "JSON string",
        e164: "E.164 number",
        currency_code: "currency code",
        credit_card: "credit card number",
        iban: "IBAN",
        jwt: "JWT",
        template_literal: "input",
    };
    // type names: missing keys = do not translate (use raw value via ?? fallback)
    const TypeDictionary = {
        // Compatibility: "nan" -> "NaN" for display
        nan: "NaN",
        // All other type names omitted - they fall back to raw values via ?? operator
    };
    function getTypeName(type, input) {
        if (type === "number" && typeof input === "number" && !Number.isFinite(input)) {
            return String(input);
        }
        return TypeDictionary[type] ?? type;
    }
    return (issue) => {
        switch (issue.code) {
            case "invalid_type": {
                const expected = getTypeName(issue.expected);
                const receivedType = parsedType(issue.input);
                const received = getTypeName(receivedType, issue.input);
                return `Invalid input: expected ${expected}, received ${received}`;
            }
            case "invalid_value":
                if (issue.values.length === 1)
                    return `Invalid input: expected ${stringifyPrimitive(issue.values[0])}`;
                return `Invalid option: expected one of ${joinValues(issue.values, "|")}`;
            case "too_big": {
                const adj = issue.exact ? "exactly " : issue.inclusive ? "<=" : "<";
                const sizing = getSizing(issue.origin);
                if (sizing)
                    return `Too big: expected ${issue.origin ?? "value"} to have ${adj}${issue.maximum.toString()} ${sizing.unit ?? "elements"}`;
                return `Too big: expected ${issue.origin ?? "value"} to be ${adj}${issue.maximum.toString()}`;
            }
            case "too_small": {
                const adj = issue.exact ? "exactly " : issue.inclusive ? ">=" : ">";
                const sizing = getSizing(issue.origin);
                if (sizing) {
                    return `Too small: expected ${issue.origin} to have ${adj}${issue.minimum.toString()} ${sizing.unit}`;
                }
                return `Too small: expected ${issue.origin} to be ${adj}${issue.minimum.toString()}`;
            }
            case "invalid_format": {
                const _issue = issue;
                if (_issue.format === "starts_with") {
                    return `Invalid string: must start with "${_issue.prefix}"`;
                }
                if (_issue.format === "ends_with")
                    return `Invalid string: must end with "${_issue.suffix}"`;
                if (_issue.format === "includes")
                    return `Invalid string: must include "${_issue.includes}"`;
                if (_issue.format === "regex")
                    return `Invalid string: must match pattern ${_issue.pattern}`;
                return `Invalid ${FormatDictionary[_issue.format] ?? issue.format}`;
            }
            case "not_multiple_of":
                return `Invalid number: must be a multiple of ${issue.divisor}`;
            case "unrecognized_keys":
                return `Unrecognized key${issue.keys.length > 1 ? "s" : ""}: ${joinValues(issue.keys, ", ")}`;
            case "invalid_key":
                return `Invalid key in ${issue.origin}`;
            case "invalid_union":
                if (issue.options && Array.isArray(issue.options) && issue.options.length > 0) {
                    const opts = issue.options.map((o) => `'${o}'`).join(" | ");
                    return `Invalid discriminator value. Expected ${opts}`;
                }
                if (issue.inclusive === false) {
                    return "Invalid input: more than one option matched";
                }
                return "Invalid input";
            case "invalid_element":
                return `Invalid value in ${issue.origin}`;
            default:
                return `Invalid input`;
        }
    };
};
/* harmony default export */ function en() {
    return {
        localeError: error(),
    };
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/errors.js


/* Computing the message eagerly is expensive (pretty-printed JSON of all
 * issues), so defer it until first read. The accessor functions and
 * descriptors are shared across instances to keep error construction
 * cheap; the computed message is cached on the internals object. The
 * setter preserves plain assignment semantics for consumers that
 * overwrite `message`. */
function _getMessage() {
    const internals = this._zod;
    internals.message ?? (internals.message = JSON.stringify(internals.def, jsonStringifyReplacer, 2));
    return internals.message;
}
function _setMessage(value) {
    this._zod.message = value;
}
const _messageDesc = {
    get: _getMessage,
    set: _setMessage,
    enumerable: true,
    configurable: true,
};
const _issuesDesc = { value: undefined, enumerable: false };
/* Prototypes that already carry the lazy `toString`. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedToString = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
const initializer = (inst, def) => {
    inst.name = "$ZodError";
    // `_zod` is already non-enumerable: $constructor's init defined it with this same descriptor
    _issuesDesc.value = def;
    Object.defineProperty(inst, "issues", _issuesDesc);
    // Clear the shared slot; a retained `value` pins the last error's issues.
    _issuesDesc.value = undefined;
    Object.defineProperty(inst, "message", _messageDesc);
    /* `toString` lives as a non-enumerable lazy getter on the shared
     * prototype; on first access it caches a per-instance closure so
     * detached usage still works. */
    const proto = Object.getPrototypeOf(inst);
    if (!_installedToString.has(proto)) {
        _installedToString.add(proto);
        Object.defineProperty(proto, "toString", {
            configurable: true,
            enumerable: false,
            get() {
                const value = () => this.message;
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
                return value;
            },
            set(value) {
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
            },
        });
    }
};
const $ZodError = $constructor("$ZodError", initializer);
const $ZodRealError = $constructor("$ZodError", initializer, undefined, {
    Parent: Error,
});
/** Get-or-create `obj[key]` as an own data property. A path segment naming an inherited member
 * ("toString", "constructor") would otherwise read through to the prototype, and assigning
 * "__proto__" would hit the setter instead of creating a key. */
function node(obj, key, make) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) {
        if (key === "__proto__") {
            Object.defineProperty(obj, key, { value: make(), writable: true, enumerable: true, configurable: true });
        }
        else {
            obj[key] = make();
        }
    }
    return obj[key];
}
function flattenError(error, mapper = (issue) => issue.message) {
    const fieldErrors = {};
    const formErrors = [];
    for (const sub of error.issues) {
        if (sub.path.length > 0) {
            node(fieldErrors, sub.path[0], () => []).push(mapper(sub));
        }
        else {
            formErrors.push(mapper(sub));
        }
    }
    return { formErrors, fieldErrors };
}
function formatError(error, mapper = (issue) => issue.message) {
    const fieldErrors = { _errors: [] };
    const processError = (error, path = []) => {
        for (const issue of error.issues) {
            if (issue.code === "invalid_union" && issue.errors.length) {
                issue.errors.map((issues) => processError({ issues }, [...path, ...issue.path]));
            }
            else if (issue.code === "invalid_key") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else if (issue.code === "invalid_element") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else {
                const fullpath = [...path, ...issue.path];
                if (fullpath.length === 0) {
                    fieldErrors._errors.push(mapper(issue));
                }
                else {
                    let curr = fieldErrors;
                    let i = 0;
                    while (i < fullpath.length) {
                        const el = fullpath[i];
                        const terminal = i === fullpath.length - 1;
                        // `_errors` is reserved by this legacy format, so merge a matching path segment into the current node instead of treating its array as a child.
                        if (el === "_errors") {
                            if (terminal)
                                curr._errors.push(mapper(issue));
                            i++;
                            continue;
                        }
                        // A path element may collide with an inherited property name such as
                        // "__proto__" or "constructor". Truthiness checks read the prototype
                        // (so no node is created, then ._errors.push throws), and bracket
                        // assignment of "__proto__" hits the setter instead of creating an
                        // own key. Guard the read with hasOwnProperty and create the node
                        // with defineProperty so any path element becomes a real own key.
                        if (!Object.prototype.hasOwnProperty.call(curr, el)) {
                            Object.defineProperty(curr, el, {
                                value: { _errors: [] },
                                enumerable: true,
                                writable: true,
                                configurable: true,
                            });
                        }
                        const node = curr[el];
                        if (terminal) {
                            node._errors.push(mapper(issue));
                        }
                        curr = node;
                        i++;
                    }
                }
            }
        }
    };
    processError(error);
    return fieldErrors;
}
function treeifyError(error, mapper = (issue) => issue.message) {
    const result = { errors: [] };
    const processError = (error, path = []) => {
        var _a;
        for (const issue of error.issues) {
            if (issue.code === "invalid_union" && issue.errors.length) {
                // regular union error
                issue.errors.map((issues) => processError({ issues }, [...path, ...issue.path]));
            }
            else if (issue.code === "invalid_key") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else if (issue.code === "invalid_element") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else {
                const fullpath = [...path, ...issue.path];
                if (fullpath.length === 0) {
                    result.errors.push(mapper(issue));
                    continue;
                }
                let curr = result;
                let i = 0;
                while (i < fullpath.length) {
                    const el = fullpath[i];
                    const terminal = i === fullpath.length - 1;
                    if (typeof el === "string") {
                        curr.properties ?? (curr.properties = {});
                        // el may collide with an inherited property name ("__proto__",
                        // "constructor", ...); ??= reads the prototype so the node is never
                        // created and curr.errors.push throws. Guard with hasOwnProperty and
                        // create the node with defineProperty so "__proto__" becomes a real
                        // own key rather than invoking the prototype setter.
                        if (!Object.prototype.hasOwnProperty.call(curr.properties, el)) {
                            Object.defineProperty(curr.properties, el, {
                                value: { errors: [] },
                                enumerable: true,
                                writable: true,
                                configurable: true,
                            });
                        }
                        curr = curr.properties[el];
                    }
                    else {
                        curr.items ?? (curr.items = []);
                        (_a = curr.items)[el] ?? (_a[el] = { errors: [] });
                        curr = curr.items[el];
                    }
                    if (terminal) {
                        curr.errors.push(mapper(issue));
                    }
                    i++;
                }
            }
        }
    };
    processError(error);
    return result;
}
/** Format a ZodError as a human-readable string in the following form.
 *
 * From
 *
 * ```ts
 * ZodError {
 *   issues: [
 *     {
 *       expected: 'string',
 *       code: 'invalid_type',
 *       path: [ 'username' ],
 *       message: 'Invalid input: expected string'
 *     },
 *     {
 *       expected: 'number',
 *       code: 'invalid_type',
 *       path: [ 'favoriteNumbers', 1 ],
 *       message: 'Invalid input: expected number'
 *     }
 *   ];
 * }
 * ```
 *
 * to
 *
 * ```
 * username
 *   ✖ Expected number, received string at "username
 * favoriteNumbers[0]
 *   ✖ Invalid input: expected number
 * ```
 */
function toDotPath(_path) {
    const segs = [];
    const path = _path.map((seg) => (typeof seg === "object" ? seg.key : seg));
    for (const seg of path) {
        if (typeof seg === "number")
            segs.push(`[${seg}]`);
        else if (typeof seg === "symbol")
            segs.push(`[${JSON.stringify(String(seg))}]`);
        else if (/[^\w$]/.test(seg))
            segs.push(`[${JSON.stringify(seg)}]`);
        else {
            if (segs.length)
                segs.push(".");
            segs.push(seg);
        }
    }
    return segs.join("");
}
function prettifyError(error) {
    const lines = [];
    // sort by path length
    const issues = [...error.issues].sort((a, b) => (a.path ?? []).length - (b.path ?? []).length);
    // Process each issue
    for (const issue of issues) {
        lines.push(`✖ ${issue.message}`);
        if (issue.path?.length)
            lines.push(`  → at ${toDotPath(issue.path)}`);
    }
    // Convert Map to formatted string
    return lines.join("\n");
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/parse.js



// Always both keys, so the `_params` read site in `_parse` sees one object shape rather than two.
function finalizeParams(callee, params) {
    return { callee: params?.callee ?? callee, Err: params?.Err };
}
const _parse = (_Err) => {
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
        const result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise) {
            throw new $ZodAsyncError();
        }
        if (result.issues.length) {
            const e = new (_params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, _params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const parse_parse = /* @__PURE__*/ _parse($ZodRealError);
const _parseAsync = (_Err) => {
    const fn = async (schema, value, _ctx, params) => {
        const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
        let result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise)
            result = await result;
        if (result.issues.length) {
            const e = new (params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const parse_parseAsync = /* @__PURE__*/ _parseAsync($ZodRealError);
const _safeParse = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
    const result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
const safeParse = /* @__PURE__*/ _safeParse($ZodRealError);
// the error is built on the first read of `error`: finalizing the issues and constructing the instance is most of a failing parse, and a caller that only branches on `success` never pays it. a getter in the literal keeps this small; the alternative, one shared accessor descriptor plus a hidden state slot, reads ~15% faster but costs ~75 B gzipped in every bundle
function failure(Err, issues, ctx) {
    let error;
    return {
        success: false,
        get error() {
            if (!error) {
                error = new Err(issues.map((iss) => finalizeIssue(iss, ctx, config())));
                // finalizeIssue drops `input`, so the built error holds nothing; keeping the raw issues past this point pins the parsed value for the life of the result
                issues = undefined;
                ctx = undefined;
            }
            return error;
        },
        set error(e) {
            error = e;
            // a replacement makes the getter's branch unreachable, so the captures have to go here too
            issues = undefined;
            ctx = undefined;
        },
    };
}
const _safeParseAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
const safeParseAsync = /* @__PURE__*/ _safeParseAsync($ZodRealError);
// registry mirrors of the compiler's sentinels, so this module never imports the compiler
const COMPILE_INVALID = /* @__PURE__ */ Symbol.for("zod.compile.invalid");
const COMPILE_FALLBACK = /* @__PURE__ */ Symbol.for("zod.compile.fallback");
// Deliberately tiny, because v8 will not inline a body carrying the fallback's object literals and throw. Everything that is not the compiled happy path lives in validateFallback, and that split is worth ~35% on a compiled schema.
const validate = ((schema, value, _ctx) => {
    const validator = schema._zod.bag.validator;
    if (validator !== undefined) {
        if (validator(value) !== COMPILE_INVALID)
            return true;
        // a definite sentinel means the runtime would reject, so skip the re-parse; a ctx can still change the answer
        if (validator.definite === true && _ctx === undefined)
            return false;
    }
    return validateFallback(schema, value, _ctx);
});
function validateFallback(schema, value, _ctx) {
    const ctx = _ctx
        ? { ..._ctx, async: false, abortEarly: true }
        : { async: false, abortEarly: true };
    const fallbackRun = schema._zod.bag.fallbackRun;
    let result;
    if (fallbackRun) {
        // skip nested fast paths on the fallback, so user callbacks keep the at-most-twice bound
        ctx[COMPILE_FALLBACK] = true;
        result = fallbackRun({ value, issues: [] }, ctx);
    }
    else {
        result = schema._zod.run({ value, issues: [] }, ctx);
    }
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length === 0;
}
// no fast path: the compiler keeps async parses on the runtime, because a promise-returning callback that is not declared async compiles to a throw
const parse_validateAsync = async (schema, value, _ctx) => {
    const ctx = _ctx
        ? { ..._ctx, async: true, abortEarly: true }
        : { async: true, abortEarly: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length === 0;
};
const _encode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return parse(schema, value, ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const encode = /* @__PURE__*/ _encode($ZodRealError);
const _decode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        return parse(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const decode = /* @__PURE__*/ _decode($ZodRealError);
const _encodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return (await parseAsync(schema, value, ctx, finalizeParams(fn, _params)));
    };
    return fn;
};
const encodeAsync = /* @__PURE__*/ _encodeAsync($ZodRealError);
const _decodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        return await parseAsync(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const decodeAsync = /* @__PURE__*/ _decodeAsync($ZodRealError);
const _safeEncode = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParse(_Err)(schema, value, ctx);
};
const safeEncode = /* @__PURE__*/ _safeEncode($ZodRealError);
const _safeDecode = (_Err) => (schema, value, _ctx) => {
    return _safeParse(_Err)(schema, value, _ctx);
};
const safeDecode = /* @__PURE__*/ _safeDecode($ZodRealError);
const _safeEncodeAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParseAsync(_Err)(schema, value, ctx);
};
const safeEncodeAsync = /* @__PURE__*/ _safeEncodeAsync($ZodRealError);
const _safeDecodeAsync = (_Err) => async (schema, value, _ctx) => {
    return _safeParseAsync(_Err)(schema, value, _ctx);
};
const safeDecodeAsync = /* @__PURE__*/ _safeDecodeAsync($ZodRealError);

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/errors.js



/* Prototypes that already carry the lazy helper methods. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedErrorProtos = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
/* Helper methods live as non-enumerable lazy getters on the shared
 * prototype instead of own properties on every instance. On first
 * access the getter allocates the per-instance closure and caches it
 * as a non-enumerable own property, so detached usage still works and
 * the allocation only happens for methods actually touched. */
function _lazyMethod(proto, key, make) {
    Object.defineProperty(proto, key, {
        configurable: true,
        enumerable: false,
        get() {
            const value = make(this);
            Object.defineProperty(this, key, { value, configurable: true, writable: true });
            return value;
        },
        set(value) {
            Object.defineProperty(this, key, { value, configurable: true, writable: true });
        },
    });
}
const errors_initializer = (inst, issues) => {
    $ZodError.init(inst, issues);
    inst.name = "ZodError";
    const proto = Object.getPrototypeOf(inst);
    if (_installedErrorProtos.has(proto))
        return;
    _installedErrorProtos.add(proto);
    _lazyMethod(proto, "format", (self) => (mapper) => formatError(self, mapper));
    _lazyMethod(proto, "flatten", (self) => (mapper) => flattenError(self, mapper));
    _lazyMethod(proto, "addIssue", (self) => (issue) => {
        self.issues.push(issue);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
    });
    _lazyMethod(proto, "addIssues", (self) => (issues) => {
        self.issues.push(...issues);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
    });
    Object.defineProperty(proto, "isEmpty", {
        configurable: true,
        enumerable: false,
        get() {
            return this.issues.length === 0;
        },
    });
};
const ZodError = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodError", errors_initializer)));
const ZodRealError = /*@__PURE__*/ $constructor("ZodError", errors_initializer, undefined, {
    Parent: Error,
});
// /** @deprecated Use `z.core.$ZodErrorMapCtx` instead. */
// export type ErrorMapCtx = core.$ZodErrorMapCtx;

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/parse.js


const classic_parse_parse = /* @__PURE__ */ _parse(ZodRealError);
const classic_parse_parseAsync = /* @__PURE__ */ _parseAsync(ZodRealError);
const parse_safeParse = /* @__PURE__ */ _safeParse(ZodRealError);
const parse_safeParseAsync = /* @__PURE__ */ _safeParseAsync(ZodRealError);

// Codec functions
const parse_encode = /* @__PURE__ */ _encode(ZodRealError);
const parse_decode = /* @__PURE__ */ _decode(ZodRealError);
const parse_encodeAsync = /* @__PURE__ */ _encodeAsync(ZodRealError);
const parse_decodeAsync = /* @__PURE__ */ _decodeAsync(ZodRealError);
const parse_safeEncode = /* @__PURE__ */ _safeEncode(ZodRealError);
const parse_safeDecode = /* @__PURE__ */ _safeDecode(ZodRealError);
const parse_safeEncodeAsync = /* @__PURE__ */ _safeEncodeAsync(ZodRealError);
const parse_safeDecodeAsync = /* @__PURE__ */ _safeDecodeAsync(ZodRealError);

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/schemas.js








// Register English as the default locale on first ZodType construction. Hooked into the `ZodType` `$constructor` (rather than a top-level `config(en())` in `external.ts`) so bundlers honoring `sideEffects: false` can't tree-shake it out — see #5953, #5725. An explicit `z.config(z.locales.xx())` call wins regardless of order, since this only sets the default when none is present.
function _ensureDefaultLocale() {
    if (!globalConfig.localeError)
        config(en());
}
// the default memoizer is read by the core container init, which runs before `ZodType.init`, so each container calls this first
function _ensureDefaultMemoizer() {
    if (!globalConfig.memoizer)
        config({ memoizer: memoizer() });
}
const ZodType = /*@__PURE__*/ $constructor("ZodType", (inst, def) => {
    _ensureDefaultLocale();
    $ZodType.init(inst, def);
    inst.def = def;
    inst.type = def.type;
    return inst;
}, {
    check(...chks) {
        const def = this.def;
        return this.clone(mergeDefs(def, {
            checks: [
                ...(def.checks ?? []),
                ...chks.map((ch) => typeof ch === "function" ? { _zod: { check: ch, def: { check: "custom" }, onattach: [] } } : ch),
            ],
        }), { parent: true });
    },
    with(...chks) {
        return this.check(...chks);
    },
    clone(def, params) {
        return clone(this, def, params);
    },
    brand() {
        return this;
    },
    register(reg, meta) {
        reg.add(this, meta);
        return this;
    },
    refine(check, params) {
        return this.check(refine(check, params));
    },
    superRefine(refinement, params) {
        return this.check(superRefine(refinement, params));
    },
    overwrite(fn) {
        return this.check(_overwrite(fn));
    },
    optional() {
        return optional(this);
    },
    exactOptional() {
        return exactOptional(this);
    },
    nullable() {
        return nullable(this);
    },
    nullish() {
        return optional(nullable(this));
    },
    nonoptional(params) {
        return nonoptional(this, params);
    },
    array() {
        return array(this);
    },
    or(arg) {
        return union([this, arg]);
    },
    and(arg) {
        return intersection(this, arg);
    },
    transform(tx) {
        return pipe(this, transform(tx));
    },
    default(d) {
        return schemas_default(this, d);
    },
    prefault(d) {
        return prefault(this, d);
    },
    catch(params) {
        return schemas_catch(this, params);
    },
    pipe(target) {
        return pipe(this, target);
    },
    readonly() {
        return readonly(this);
    },
    describe(description) {
        const cl = this.clone();
        globalRegistry.add(cl, { description });
        return cl;
    },
    meta(...args) {
        // overloaded: meta() returns the registered metadata, meta(data) returns a clone with `data` registered. The mapped type picks up the second overload, so we accept variadic any-args and return `any` to satisfy both at runtime.
        if (args.length === 0)
            return globalRegistry.get(this);
        const cl = this.clone();
        globalRegistry.add(cl, args[0]);
        return cl;
    },
    isOptional() {
        return this.safeParse(undefined).success;
    },
    isNullable() {
        return this.safeParse(null).success;
    },
    apply(fn, ...args) {
        return args.length === 0 ? fn(this) : fn(this, ...args);
    },
    // Overrides core's `~standard` to add `jsonSchema`. Must stay a prototype entry: redefining it per instance demotes instances to dictionary mode.
    get "~standard"() {
        return hide(this, "~standard", {
            ...standardProps(this),
            jsonSchema: {
                input: createStandardJSONSchemaMethod(this, "input"),
                output: createStandardJSONSchemaMethod(this, "output"),
            },
        });
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
    parse: function _parse(data, params) {
        return classic_parse_parse(this, data, params, { callee: _parse });
    },
    parseAsync: async function _parseAsync(data, params) {
        return await classic_parse_parseAsync(this, data, params, { callee: _parseAsync });
    },
    safeParse(data, params) {
        return parse_safeParse(this, data, params);
    },
    async safeParseAsync(data, params) {
        return parse_safeParseAsync(this, data, params);
    },
    // `spa` is an alias: same function object as `safeParseAsync`, as before.
    get spa() {
        return this?.safeParseAsync;
    },
    set spa(value) {
        own(this, "spa", value);
    },
    validate(data, params) {
        return validate(this, data, params);
    },
    validateAsync(data, params) {
        return parse_validateAsync(this, data, params);
    },
    encode: function _encode(data, params) {
        return parse_encode(this, data, params, { callee: _encode });
    },
    decode: function _decode(data, params) {
        return parse_decode(this, data, params, { callee: _decode });
    },
    encodeAsync: async function _encodeAsync(data, params) {
        return await parse_encodeAsync(this, data, params, { callee: _encodeAsync });
    },
    decodeAsync: async function _decodeAsync(data, params) {
        return await parse_decodeAsync(this, data, params, { callee: _decodeAsync });
    },
    safeEncode(data, params) {
        return parse_safeEncode(this, data, params);
    },
    safeDecode(data, params) {
        return parse_safeDecode(this, data, params);
    },
    async safeEncodeAsync(data, params) {
        return parse_safeEncodeAsync(this, data, params);
    },
    async safeDecodeAsync(data, params) {
        return parse_safeDecodeAsync(this, data, params);
    },
    toJSONSchema(params) {
        return createToJSONSchemaMethod(this, {})(params);
    },
    // Reads through to the registry on every access, so it must not cache.
    get description() {
        return globalRegistry.get(this)?.description;
    },
    // No setter: `schema._def = x` throws, as it did when `_def` was a non-writable own property.
    get _def() {
        return this._zod.def;
    },
});
/** @internal */
const _ZodString = /*@__PURE__*/ $constructor("_ZodString", (inst, def) => {
    $ZodString.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => stringProcessor(inst, ctx, json, params);
}, 
/*@__PURE__*/ derived({
    format: (inst) => aggregateChecks(inst).format ?? null,
    minLength: (inst) => aggregateChecks(inst).minimum ?? null,
    maxLength: (inst) => aggregateChecks(inst).maximum ?? null,
}, {
    regex(...args) {
        return this.check(_regex(...args));
    },
    includes(...args) {
        return this.check(_includes(...args));
    },
    startsWith(...args) {
        return this.check(_startsWith(...args));
    },
    endsWith(...args) {
        return this.check(_endsWith(...args));
    },
    min(...args) {
        return this.check(_minLength(...args));
    },
    max(...args) {
        return this.check(_maxLength(...args));
    },
    length(...args) {
        return this.check(_length(...args));
    },
    nonempty(...args) {
        return this.check(_minLength(1, ...args));
    },
    lowercase(params) {
        return this.check(_lowercase(params));
    },
    uppercase(params) {
        return this.check(_uppercase(params));
    },
    trim() {
        return this.check(_trim());
    },
    normalize(...args) {
        return this.check(_normalize(...args));
    },
    toLowerCase() {
        return this.check(_toLowerCase());
    },
    toUpperCase() {
        return this.check(_toUpperCase());
    },
    slugify() {
        return this.check(_slugify());
    },
}));
const ZodString = /*@__PURE__*/ $constructor("ZodString", (inst, def) => {
    $ZodString.init(inst, def);
    _ZodString.init(inst, def);
}, {
    email(params) {
        return this.check(_email(ZodEmail, params));
    },
    url(params) {
        return this.check(_url(ZodURL, params));
    },
    jwt(params) {
        return this.check(_jwt(ZodJWT, params));
    },
    emoji(params) {
        return this.check(api_emoji(ZodEmoji, params));
    },
    guid(params) {
        return this.check(_guid(ZodGUID, params));
    },
    uuid(params) {
        return this.check(_uuid(ZodUUID, params));
    },
    uuidv4(params) {
        return this.check(_uuidv4(ZodUUID, params));
    },
    uuidv6(params) {
        return this.check(_uuidv6(ZodUUID, params));
    },
    uuidv7(params) {
        return this.check(_uuidv7(ZodUUID, params));
    },
    nanoid(params) {
        return this.check(_nanoid(ZodNanoID, params));
    },
    cuid(params) {
        return this.check(_cuid(ZodCUID, params));
    },
    cuid2(params) {
        return this.check(_cuid2(ZodCUID2, params));
    },
    ulid(params) {
        return this.check(_ulid(ZodULID, params));
    },
    base64(params) {
        return this.check(_base64(ZodBase64, params));
    },
    base64url(params) {
        return this.check(_base64url(ZodBase64URL, params));
    },
    xid(params) {
        return this.check(_xid(ZodXID, params));
    },
    ksuid(params) {
        return this.check(_ksuid(ZodKSUID, params));
    },
    ipv4(params) {
        return this.check(_ipv4(ZodIPv4, params));
    },
    ipv6(params) {
        return this.check(_ipv6(ZodIPv6, params));
    },
    cidrv4(params) {
        return this.check(_cidrv4(ZodCIDRv4, params));
    },
    cidrv6(params) {
        return this.check(_cidrv6(ZodCIDRv6, params));
    },
    e164(params) {
        return this.check(_e164(ZodE164, params));
    },
    datetime(params) {
        return this.check(_isoDateTime(ZodISODateTime, params));
    },
    date(params) {
        return this.check(_isoDate(schemas_ZodISODate, params));
    },
    time(params) {
        return this.check(_isoTime(schemas_ZodISOTime, params));
    },
    duration(params) {
        return this.check(_isoDuration(schemas_ZodISODuration, params));
    },
});
function schemas_string(params) {
    return _string(ZodString, params);
}
const ZodStringFormat = /*@__PURE__*/ $constructor("ZodStringFormat", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    _ZodString.init(inst, def);
});
const ZodISODateTime = /*@__PURE__*/ $constructor("ZodISODateTime", (inst, def) => {
    $ZodISODateTime.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const schemas_ZodISODate = /*@__PURE__*/ $constructor("ZodISODate", (inst, def) => {
    $ZodISODate.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const schemas_ZodISOTime = /*@__PURE__*/ $constructor("ZodISOTime", (inst, def) => {
    $ZodISOTime.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const schemas_ZodISODuration = /*@__PURE__*/ $constructor("ZodISODuration", (inst, def) => {
    $ZodISODuration.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodEmail = /*@__PURE__*/ $constructor("ZodEmail", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodEmail.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_email(params) {
    return core._email(ZodEmail, params);
}
const ZodGUID = /*@__PURE__*/ $constructor("ZodGUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodGUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_guid(params) {
    return core._guid(ZodGUID, params);
}
const ZodUUID = /*@__PURE__*/ $constructor("ZodUUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodUUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_uuid(params) {
    return core._uuid(ZodUUID, params);
}
function uuidv4(params) {
    return core._uuidv4(ZodUUID, params);
}
// ZodUUIDv6
function uuidv6(params) {
    return core._uuidv6(ZodUUID, params);
}
// ZodUUIDv7
function uuidv7(params) {
    return core._uuidv7(ZodUUID, params);
}
const ZodURL = /*@__PURE__*/ $constructor("ZodURL", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodURL.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function url(params) {
    return core._url(ZodURL, params);
}
function httpUrl(params) {
    return core._url(ZodURL, {
        protocol: regexes.httpProtocol,
        hostname: regexes.domain,
        ...util.normalizeParams(params),
    });
}
const ZodEmoji = /*@__PURE__*/ $constructor("ZodEmoji", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodEmoji.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_emoji(params) {
    return core._emoji(ZodEmoji, params);
}
const ZodNanoID = /*@__PURE__*/ $constructor("ZodNanoID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodNanoID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_nanoid(params) {
    return core._nanoid(ZodNanoID, params);
}
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const ZodCUID = /*@__PURE__*/ $constructor("ZodCUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodCUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
/**
 * Validates a CUID v1 string.
 *
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link cuid2 | `z.cuid2()`} instead.
 * See https://github.com/paralleldrive/cuid.
 */
function schemas_cuid(params) {
    return core._cuid(ZodCUID, params);
}
const ZodCUID2 = /*@__PURE__*/ $constructor("ZodCUID2", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodCUID2.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_cuid2(params) {
    return core._cuid2(ZodCUID2, params);
}
const ZodULID = /*@__PURE__*/ $constructor("ZodULID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodULID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ulid(params) {
    return core._ulid(ZodULID, params);
}
const ZodXID = /*@__PURE__*/ $constructor("ZodXID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodXID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_xid(params) {
    return core._xid(ZodXID, params);
}
const ZodKSUID = /*@__PURE__*/ $constructor("ZodKSUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodKSUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ksuid(params) {
    return core._ksuid(ZodKSUID, params);
}
const ZodIPv4 = /*@__PURE__*/ $constructor("ZodIPv4", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodIPv4.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ipv4(params) {
    return core._ipv4(ZodIPv4, params);
}
const ZodMAC = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMAC", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    core.$ZodMAC.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function schemas_mac(params) {
    return core._mac(ZodMAC, params);
}
const ZodIPv6 = /*@__PURE__*/ $constructor("ZodIPv6", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodIPv6.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ipv6(params) {
    return core._ipv6(ZodIPv6, params);
}
const ZodCIDRv4 = /*@__PURE__*/ $constructor("ZodCIDRv4", (inst, def) => {
    $ZodCIDRv4.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_cidrv4(params) {
    return core._cidrv4(ZodCIDRv4, params);
}
const ZodCIDRv6 = /*@__PURE__*/ $constructor("ZodCIDRv6", (inst, def) => {
    $ZodCIDRv6.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_cidrv6(params) {
    return core._cidrv6(ZodCIDRv6, params);
}
const ZodBase64 = /*@__PURE__*/ $constructor("ZodBase64", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodBase64.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_base64(params) {
    return core._base64(ZodBase64, params);
}
const ZodBase64URL = /*@__PURE__*/ $constructor("ZodBase64URL", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodBase64URL.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_base64url(params) {
    return core._base64url(ZodBase64URL, params);
}
const ZodE164 = /*@__PURE__*/ $constructor("ZodE164", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodE164.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_e164(params) {
    return core._e164(ZodE164, params);
}
const ZodCreditCard = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodCreditCard", (inst, def) => {
    core.$ZodCreditCard.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function schemas_creditCard(params) {
    return core._creditCard(ZodCreditCard, params);
}
const ZodIBAN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodIBAN", (inst, def) => {
    core.$ZodIBAN.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function schemas_iban(params) {
    return core._iban(ZodIBAN, params);
}
const ZodJWT = /*@__PURE__*/ $constructor("ZodJWT", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodJWT.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function jwt(params) {
    return core._jwt(ZodJWT, params);
}
const ZodCustomStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodCustomStringFormat", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    core.$ZodCustomStringFormat.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function stringFormat(format, fnOrRegex, _params = {}) {
    return core._stringFormat(ZodCustomStringFormat, format, fnOrRegex, _params);
}
function schemas_hostname(_params) {
    return core._stringFormat(ZodCustomStringFormat, "hostname", regexes.hostname, _params);
}
function schemas_hex(_params) {
    return core._stringFormat(ZodCustomStringFormat, "hex", regexes.hex, _params);
}
function schemas_currencyCode(_params) {
    return core._stringFormat(ZodCustomStringFormat, "currency_code", regexes.currencyCode, _params);
}
function hash(alg, params) {
    const enc = params?.enc ?? "hex";
    const format = `${alg}_${enc}`;
    const regex = core.regexes[format];
    if (!regex)
        throw new Error(`Unrecognized hash format: ${format}`);
    return core._stringFormat(ZodCustomStringFormat, format, regex, params);
}
const ZodNumber = /*@__PURE__*/ $constructor("ZodNumber", (inst, def) => {
    $ZodNumber.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => numberProcessor(inst, ctx, json, params);
    inst.isFinite = true;
}, 
/*@__PURE__*/ derived({
    minValue: (inst) => {
        const { minimum, exclusiveMinimum } = aggregateChecks(inst);
        return Math.max(minimum ?? Number.NEGATIVE_INFINITY, exclusiveMinimum ?? Number.NEGATIVE_INFINITY);
    },
    maxValue: (inst) => {
        const { maximum, exclusiveMaximum } = aggregateChecks(inst);
        return Math.min(maximum ?? Number.POSITIVE_INFINITY, exclusiveMaximum ?? Number.POSITIVE_INFINITY);
    },
    isInt: (inst) => {
        const { isInt, multipleOf } = aggregateChecks(inst);
        return !!isInt || !!multipleOf?.some(Number.isSafeInteger);
    },
    format: (inst) => aggregateChecks(inst).format ?? null,
}, {
    gt(value, params) {
        return this.check(_gt(value, params));
    },
    gte(value, params) {
        return this.check(_gte(value, params));
    },
    min(value, params) {
        return this.check(_gte(value, params));
    },
    lt(value, params) {
        return this.check(_lt(value, params));
    },
    lte(value, params) {
        return this.check(_lte(value, params));
    },
    max(value, params) {
        return this.check(_lte(value, params));
    },
    int(params) {
        return this.check(schemas_int(params));
    },
    safe(params) {
        return this.check(schemas_int(params));
    },
    positive(params) {
        return this.check(_gt(0, params));
    },
    nonnegative(params) {
        return this.check(_gte(0, params));
    },
    negative(params) {
        return this.check(_lt(0, params));
    },
    nonpositive(params) {
        return this.check(_lte(0, params));
    },
    multipleOf(value, params) {
        return this.check(_multipleOf(value, params));
    },
    step(value, params) {
        return this.check(_multipleOf(value, params));
    },
    finite() {
        return this;
    },
}));
function schemas_number(params) {
    return _number(ZodNumber, params);
}
const ZodNumberFormat = /*@__PURE__*/ $constructor("ZodNumberFormat", (inst, def) => {
    $ZodNumberFormat.init(inst, def);
    ZodNumber.init(inst, def);
});
function schemas_int(params) {
    return _int(ZodNumberFormat, params);
}
function float32(params) {
    return core._float32(ZodNumberFormat, params);
}
function float64(params) {
    return core._float64(ZodNumberFormat, params);
}
function int32(params) {
    return core._int32(ZodNumberFormat, params);
}
function uint32(params) {
    return core._uint32(ZodNumberFormat, params);
}
const ZodBoolean = /*@__PURE__*/ $constructor("ZodBoolean", (inst, def) => {
    $ZodBoolean.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => booleanProcessor(inst, ctx, json, params);
});
function schemas_boolean(params) {
    return _boolean(ZodBoolean, params);
}
const ZodBigInt = /*@__PURE__*/ $constructor("ZodBigInt", (inst, def) => {
    $ZodBigInt.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => bigintProcessor(inst, ctx, json, params);
}, 
/*@__PURE__*/ derived({
    minValue: (inst) => aggregateChecks(inst).minimum ?? null,
    maxValue: (inst) => aggregateChecks(inst).maximum ?? null,
    format: (inst) => aggregateChecks(inst).format ?? null,
}, {
    gte(value, params) {
        return this.check(_gte(value, params));
    },
    min(value, params) {
        return this.check(_gte(value, params));
    },
    gt(value, params) {
        return this.check(_gt(value, params));
    },
    lt(value, params) {
        return this.check(_lt(value, params));
    },
    lte(value, params) {
        return this.check(_lte(value, params));
    },
    max(value, params) {
        return this.check(_lte(value, params));
    },
    positive(params) {
        return this.check(_gt(BigInt(0), params));
    },
    negative(params) {
        return this.check(_lt(BigInt(0), params));
    },
    nonpositive(params) {
        return this.check(_lte(BigInt(0), params));
    },
    nonnegative(params) {
        return this.check(_gte(BigInt(0), params));
    },
    multipleOf(value, params) {
        return this.check(_multipleOf(value, params));
    },
}));
function schemas_bigint(params) {
    return core._bigint(ZodBigInt, params);
}
const ZodBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodBigIntFormat", (inst, def) => {
    core.$ZodBigIntFormat.init(inst, def);
    ZodBigInt.init(inst, def);
})));
function int64(params) {
    return core._int64(ZodBigIntFormat, params);
}
function uint64(params) {
    return core._uint64(ZodBigIntFormat, params);
}
const ZodSymbol = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodSymbol", (inst, def) => {
    core.$ZodSymbol.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.symbolProcessor(inst, ctx, json, params);
})));
function symbol(params) {
    return core._symbol(ZodSymbol, params);
}
const ZodUndefined = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodUndefined", (inst, def) => {
    core.$ZodUndefined.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.undefinedProcessor(inst, ctx, json, params);
})));
function schemas_undefined(params) {
    return core._undefined(ZodUndefined, params);
}

const ZodNull = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodNull", (inst, def) => {
    core.$ZodNull.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.nullProcessor(inst, ctx, json, params);
})));
function schemas_null(params) {
    return core._null(ZodNull, params);
}

const ZodAny = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodAny", (inst, def) => {
    core.$ZodAny.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.anyProcessor(inst, ctx, json, params);
})));
function any() {
    return core._any(ZodAny);
}
const ZodUnknown = /*@__PURE__*/ $constructor("ZodUnknown", (inst, def) => {
    $ZodUnknown.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => unknownProcessor(inst, ctx, json, params);
});
function unknown() {
    return _unknown(ZodUnknown);
}
const ZodNever = /*@__PURE__*/ $constructor("ZodNever", (inst, def) => {
    $ZodNever.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => neverProcessor(inst, ctx, json, params);
});
function never(params) {
    return _never(ZodNever, params);
}
const ZodVoid = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodVoid", (inst, def) => {
    core.$ZodVoid.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.voidProcessor(inst, ctx, json, params);
})));
function schemas_void(params) {
    return core._void(ZodVoid, params);
}

const ZodDate = /*@__PURE__*/ $constructor("ZodDate", (inst, def) => {
    $ZodDate.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => dateProcessor(inst, ctx, json, params);
    inst.min = (value, params) => inst.check(_gte(value, params));
    inst.max = (value, params) => inst.check(_lte(value, params));
}, 
/*@__PURE__*/ derived({
    minDate: (inst) => {
        const { minimum } = aggregateChecks(inst);
        return minimum ? new Date(minimum) : null;
    },
    maxDate: (inst) => {
        const { maximum } = aggregateChecks(inst);
        return maximum ? new Date(maximum) : null;
    },
}, {}));
function schemas_date(params) {
    return core._date(ZodDate, params);
}
const ZodArray = /*@__PURE__*/ $constructor("ZodArray", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodArray.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => arrayProcessor(inst, ctx, json, params);
    inst.element = def.element;
}, {
    min(n, params) {
        return this.check(_minLength(n, params));
    },
    nonempty(params) {
        return this.check(_minLength(1, params));
    },
    max(n, params) {
        return this.check(_maxLength(n, params));
    },
    length(n, params) {
        return this.check(_length(n, params));
    },
    unwrap() {
        return this.element;
    },
});
function array(element, params) {
    return _array(ZodArray, element, params);
}
// .keyof
function keyof(schema) {
    const shape = schema._zod.def.shape;
    return schemas_enum(Object.keys(shape));
}
const ZodObject = /*@__PURE__*/ $constructor("ZodObject", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodObjectJIT.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => objectProcessor(inst, ctx, json, params);
    installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
}, {
    keyof() {
        return schemas_enum(Object.keys(this._zod.def.shape));
    },
    catchall(catchall) {
        // `mergeDefs` rather than a spread: spreading reads `shape`, and resolving it can mint a whole fresh subtree
        return this.clone(mergeDefs(this._zod.def, { catchall: catchall }));
    },
    passthrough() {
        return this.clone(mergeDefs(this._zod.def, { catchall: unknown() }));
    },
    loose() {
        return this.clone(mergeDefs(this._zod.def, { catchall: unknown() }));
    },
    strict() {
        return this.clone(mergeDefs(this._zod.def, { catchall: never() }));
    },
    strip() {
        return this.clone(mergeDefs(this._zod.def, { catchall: undefined }));
    },
    extend(incoming) {
        return extend(this, incoming);
    },
    safeExtend(incoming) {
        return safeExtend(this, incoming);
    },
    merge(other) {
        return merge(this, other);
    },
    pick(mask) {
        return pick(this, mask);
    },
    omit(mask) {
        return omit(this, mask);
    },
    partial(...args) {
        return partial(ZodOptional, this, args[0]);
    },
    exactPartial(...args) {
        return partial(ZodExactOptional, this, args[0], "exactPartial");
    },
    required(...args) {
        return required(ZodNonOptional, this, args[0]);
    },
});
function object(shape, params) {
    const def = {
        type: "object",
        shape: shape ?? {},
        ...normalizeParams(params),
    };
    return new ZodObject(def);
}
// strictObject
function strictObject(shape, params) {
    return new ZodObject({
        type: "object",
        shape,
        catchall: never(),
        ...normalizeParams(params),
    });
}
// looseObject
function looseObject(shape, params) {
    return new ZodObject({
        type: "object",
        shape,
        catchall: unknown(),
        ...util.normalizeParams(params),
    });
}
const ZodUnion = /*@__PURE__*/ $constructor("ZodUnion", (inst, def) => {
    $ZodUnion.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => unionProcessor(inst, ctx, json, params);
    inst.options = def.options;
});
function union(options, params) {
    return new ZodUnion({
        type: "union",
        options: options,
        ...normalizeParams(params),
    });
}
const ZodXor = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodXor", (inst, def) => {
    ZodUnion.init(inst, def);
    core.$ZodXor.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.unionProcessor(inst, ctx, json, params);
    inst.options = def.options;
})));
/** Creates an exclusive union (XOR) where exactly one option must match.
 * Unlike regular unions that succeed when any option matches, xor fails if
 * zero or more than one option matches the input. */
function xor(options, params) {
    return new ZodXor({
        type: "union",
        options: options,
        inclusive: false,
        ...util.normalizeParams(params),
    });
}
const ZodDiscriminatedUnion = /*@__PURE__*/ $constructor("ZodDiscriminatedUnion", (inst, def) => {
    ZodUnion.init(inst, def);
    $ZodDiscriminatedUnion.init(inst, def);
});
function discriminatedUnion(discriminator, options, params) {
    // const [options, params] = args;
    return new ZodDiscriminatedUnion({
        type: "union",
        options: options,
        discriminator,
        ...normalizeParams(params),
    });
}
const ZodIntersection = /*@__PURE__*/ $constructor("ZodIntersection", (inst, def) => {
    $ZodIntersection.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => intersectionProcessor(inst, ctx, json, params);
});
function intersection(left, right) {
    return new ZodIntersection({
        type: "intersection",
        left: left,
        right: right,
    });
}
const ZodTuple = /*@__PURE__*/ $constructor("ZodTuple", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodTuple.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => tupleProcessor(inst, ctx, json, params);
}, {
    rest(rest) {
        return this.clone({
            ...this._zod.def,
            rest: rest,
        });
    },
    partial() {
        const def = this._zod.def;
        // a refinement was authored against the full arity; partialing would run it on a shorter array
        if (def.checks?.length)
            throw new Error(".partial() cannot be used on tuple schemas containing refinements");
        return this.clone({
            ...def,
            items: def.items.map((item) => new ZodOptional({ type: "optional", innerType: item })),
        });
    },
});
function tuple(items, _paramsOrRest, _params) {
    const hasRest = _paramsOrRest instanceof core.$ZodType;
    const params = hasRest ? _params : _paramsOrRest;
    const rest = hasRest ? _paramsOrRest : null;
    return new ZodTuple({
        type: "tuple",
        items: items,
        rest,
        ...util.normalizeParams(params),
    });
}
const ZodRecord = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodRecord", (inst, def) => {
    _ensureDefaultMemoizer();
    core.$ZodRecord.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.recordProcessor(inst, ctx, json, params);
    inst.keyType = def.keyType;
    inst.valueType = def.valueType;
})));
function record(keyType, valueType, params) {
    // v3-compat: z.record(valueType, params?) — defaults keyType to z.string()
    if (!valueType || !valueType._zod) {
        return new ZodRecord({
            type: "record",
            keyType: schemas_string(),
            valueType: keyType,
            ...util.normalizeParams(valueType),
        });
    }
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...util.normalizeParams(params),
    });
}
// type alksjf = core.output<core.$ZodRecordKey>;
function partialRecord(keyType, valueType, params) {
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...util.normalizeParams(params),
        partial: true,
    });
}
function looseRecord(keyType, valueType, params) {
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        mode: "loose",
        ...util.normalizeParams(params),
    });
}
const ZodMap = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMap", (inst, def) => {
    _ensureDefaultMemoizer();
    core.$ZodMap.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.mapProcessor(inst, ctx, json, params);
    inst.keyType = def.keyType;
    inst.valueType = def.valueType;
    inst.min = (...args) => inst.check(core._minSize(...args));
    inst.nonempty = (params) => inst.check(core._minSize(1, params));
    inst.max = (...args) => inst.check(core._maxSize(...args));
    inst.size = (...args) => inst.check(core._size(...args));
})));
function map(keyType, valueType, params) {
    return new ZodMap({
        type: "map",
        keyType: keyType,
        valueType: valueType,
        ...util.normalizeParams(params),
    });
}
const ZodSet = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodSet", (inst, def) => {
    _ensureDefaultMemoizer();
    core.$ZodSet.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.setProcessor(inst, ctx, json, params);
    inst.min = (...args) => inst.check(core._minSize(...args));
    inst.nonempty = (params) => inst.check(core._minSize(1, params));
    inst.max = (...args) => inst.check(core._maxSize(...args));
    inst.size = (...args) => inst.check(core._size(...args));
})));
function set(valueType, params) {
    return new ZodSet({
        type: "set",
        valueType: valueType,
        ...util.normalizeParams(params),
    });
}
const ZodEnum = /*@__PURE__*/ $constructor("ZodEnum", (inst, def) => {
    $ZodEnum.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => enumProcessor(inst, ctx, json, params);
    inst.enum = def.entries;
    // reuse the parsed value set so a numeric TS enum's reverse-mapping keys stay out
    inst.options = [...inst._zod.values];
    const keys = new Set(Object.keys(def.entries));
    inst.extract = (values, params) => {
        const newEntries = {};
        for (const value of values) {
            if (keys.has(value)) {
                newEntries[value] = def.entries[value];
            }
            else
                throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
            ...def,
            checks: [],
            ...normalizeParams(params),
            entries: newEntries,
        });
    };
    inst.exclude = (values, params) => {
        const newEntries = { ...def.entries };
        for (const value of values) {
            if (keys.has(value)) {
                delete newEntries[value];
            }
            else
                throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
            ...def,
            checks: [],
            ...normalizeParams(params),
            entries: newEntries,
        });
    };
});
function schemas_enum(values, params) {
    const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
    return new ZodEnum({
        type: "enum",
        entries,
        ...normalizeParams(params),
    });
}

/** @deprecated This API has been merged into `z.enum()`. Use `z.enum()` instead.
 *
 * ```ts
 * enum Colors { red, green, blue }
 * z.enum(Colors);
 * ```
 */
function nativeEnum(entries, params) {
    return new ZodEnum({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
const ZodLiteral = /*@__PURE__*/ $constructor("ZodLiteral", (inst, def) => {
    $ZodLiteral.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => literalProcessor(inst, ctx, json, params);
    inst.values = new Set(def.values);
    Object.defineProperty(inst, "value", {
        get() {
            if (def.values.length > 1) {
                throw new Error("This schema contains multiple valid literal values. Use `.values` instead.");
            }
            return def.values[0];
        },
    });
});
function literal(value, params) {
    return new ZodLiteral({
        type: "literal",
        values: Array.isArray(value) ? value : [value],
        ...normalizeParams(params),
    });
}
const ZodFile = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodFile", (inst, def) => {
    core.$ZodFile.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.fileProcessor(inst, ctx, json, params);
    inst.min = (size, params) => inst.check(core._minSize(size, params));
    inst.max = (size, params) => inst.check(core._maxSize(size, params));
    inst.mime = (types, params) => inst.check(core._mime(Array.isArray(types) ? types : [types], params));
})));
function file(params) {
    return core._file(ZodFile, params);
}
const ZodTransform = /*@__PURE__*/ $constructor("ZodTransform", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodTransform.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => transformProcessor(inst, ctx, json, params);
    inst._zod.parse = (payload, _ctx) => {
        if (_ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        payload.addIssue = (issue) => {
            if (typeof issue === "string") {
                payload.issues.push(util_issue(issue, payload.value, def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = inst);
                // _issue.continue ??= true;
                payload.issues.push(util_issue(_issue));
            }
        };
        const output = def.transform(payload.value, payload);
        if (output instanceof Promise) {
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        payload.value = output;
        return payload;
    };
});
function transform(fn) {
    return new ZodTransform({
        type: "transform",
        transform: fn,
    });
}
const ZodOptional = /*@__PURE__*/ $constructor("ZodOptional", (inst, def) => {
    $ZodOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function optional(innerType) {
    return new ZodOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodExactOptional = /*@__PURE__*/ $constructor("ZodExactOptional", (inst, def) => {
    $ZodExactOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function exactOptional(innerType) {
    return new ZodExactOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodNullable = /*@__PURE__*/ $constructor("ZodNullable", (inst, def) => {
    $ZodNullable.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => nullableProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function nullable(innerType) {
    return new ZodNullable({
        type: "nullable",
        innerType: innerType,
    });
}
// nullish
function schemas_nullish(innerType) {
    return optional(nullable(innerType));
}
const ZodDefault = /*@__PURE__*/ $constructor("ZodDefault", (inst, def) => {
    $ZodDefault.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => defaultProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
    inst.removeDefault = inst.unwrap;
});
function schemas_default(innerType, defaultValue) {
    return new ZodDefault({
        type: "default",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodPrefault = /*@__PURE__*/ $constructor("ZodPrefault", (inst, def) => {
    $ZodPrefault.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => prefaultProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function prefault(innerType, defaultValue) {
    return new ZodPrefault({
        type: "prefault",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodNonOptional = /*@__PURE__*/ $constructor("ZodNonOptional", (inst, def) => {
    $ZodNonOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => nonoptionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function nonoptional(innerType, params) {
    return new ZodNonOptional({
        type: "nonoptional",
        innerType: innerType,
        ...normalizeParams(params),
    });
}
const ZodSuccess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodSuccess", (inst, def) => {
    core.$ZodSuccess.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.successProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
})));
function success(innerType) {
    return new ZodSuccess({
        type: "success",
        innerType: innerType,
    });
}
const ZodCatch = /*@__PURE__*/ $constructor("ZodCatch", (inst, def) => {
    $ZodCatch.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => catchProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
    inst.removeCatch = inst.unwrap;
});
function schemas_catch(innerType, catchValue) {
    return new ZodCatch({
        type: "catch",
        innerType: innerType,
        catchValue: (typeof catchValue === "function" ? catchValue : constantCatch(catchValue)),
    });
}

const ZodNaN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodNaN", (inst, def) => {
    core.$ZodNaN.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.nanProcessor(inst, ctx, json, params);
})));
function nan(params) {
    return core._nan(ZodNaN, params);
}
const ZodPipe = /*@__PURE__*/ $constructor("ZodPipe", (inst, def) => {
    $ZodPipe.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => pipeProcessor(inst, ctx, json, params);
    inst.in = def.in;
    inst.out = def.out;
});
function pipe(in_, out) {
    return new ZodPipe({
        type: "pipe",
        in: in_,
        out: out,
        // ...util.normalizeParams(params),
    });
}
const ZodCodec = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodCodec", (inst, def) => {
    ZodPipe.init(inst, def);
    core.$ZodCodec.init(inst, def);
})));
function codec(in_, out, params) {
    return new ZodCodec({
        type: "pipe",
        in: in_,
        out: out,
        transform: params.decode,
        reverseTransform: params.encode,
    });
}
function invertCodec(codec) {
    const def = codec._zod.def;
    return new ZodCodec({
        type: "pipe",
        in: def.out,
        out: def.in,
        transform: def.reverseTransform,
        reverseTransform: def.transform,
    });
}
const ZodPreprocess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodPreprocess", (inst, def) => {
    ZodPipe.init(inst, def);
    core.$ZodPreprocess.init(inst, def);
})));
const ZodReadonly = /*@__PURE__*/ $constructor("ZodReadonly", (inst, def) => {
    $ZodReadonly.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => readonlyProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function readonly(innerType) {
    return new ZodReadonly({
        type: "readonly",
        innerType: innerType,
    });
}
const ZodTemplateLiteral = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodTemplateLiteral", (inst, def) => {
    core.$ZodTemplateLiteral.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.templateLiteralProcessor(inst, ctx, json, params);
})));
function templateLiteral(parts, params) {
    return new ZodTemplateLiteral({
        type: "template_literal",
        parts,
        ...util.normalizeParams(params),
    });
}
const ZodLazy = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodLazy", (inst, def) => {
    core.$ZodLazy.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.lazyProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.getter();
})));
function lazy(getter) {
    return new ZodLazy({
        type: "lazy",
        getter: getter,
    });
}
const ZodPromise = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodPromise", (inst, def) => {
    core.$ZodPromise.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.promiseProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
})));
function promise(innerType) {
    return new ZodPromise({
        type: "promise",
        innerType: innerType,
    });
}
const ZodFunction = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodFunction", (inst, def) => {
    core.$ZodFunction.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.functionProcessor(inst, ctx, json, params);
})));
function _function(params) {
    return new ZodFunction({
        type: "function",
        input: Array.isArray(params?.input) ? tuple(params?.input) : (params?.input ?? array(unknown())),
        output: params?.output ?? unknown(),
    });
}

const ZodCustom = /*@__PURE__*/ $constructor("ZodCustom", (inst, def) => {
    $ZodCustom.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => customProcessor(inst, ctx, json, params);
});
// custom checks
function check(fn) {
    const ch = new core.$ZodCheck({
        check: "custom",
        // ...util.normalizeParams(params),
    });
    ch._zod.check = fn;
    return ch;
}
function custom(fn, _params) {
    return core._custom(ZodCustom, fn ?? (() => true), _params);
}
function refine(fn, _params = {}) {
    return _refine(ZodCustom, fn, _params);
}
// superRefine
function superRefine(fn, params) {
    return _superRefine(fn, params);
}
// Re-export describe and meta from core
const schemas_describe = describe;
const schemas_meta = meta;
const ZodInstanceOf = /*@__PURE__*/ $constructor("ZodInstanceOf", (inst, def) => {
    ZodCustom.init(inst, def);
}, {
    properties(shape, params) {
        // asserts in place, so the narrowed output type is truthful without a wrapper
        return this.check(_properties(shape, params));
    },
});
function _instanceof(cls, params = {}) {
    const inst = new ZodInstanceOf({
        type: "custom",
        check: "custom",
        fn: (data) => data instanceof cls,
        abort: true,
        ...util.normalizeParams(params),
    });
    inst._zod.bag.Class = cls;
    // Override check to emit invalid_type instead of custom
    inst._zod.check = (payload) => {
        if (!(payload.value instanceof cls)) {
            payload.issues.push({
                code: "invalid_type",
                expected: cls.name,
                input: payload.value,
                inst,
                path: [...(inst._zod.def.path ?? [])],
            });
        }
    };
    return inst;
}

// stringbool
const stringbool = (...args) => core._stringbool({
    Codec: ZodCodec,
    Boolean: ZodBoolean,
    String: ZodString,
}, ...args);
function json(params) {
    const jsonSchema = lazy(() => {
        return union([schemas_string(params), schemas_number(), schemas_boolean(), schemas_null(), array(jsonSchema), record(schemas_string(), jsonSchema)]);
    });
    return jsonSchema;
}
// preprocess
function preprocess(fn, schema) {
    return new ZodPreprocess({
        type: "pipe",
        in: transform(fn),
        out: schema,
    });
}

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: ./node_modules/canonicalize/lib/canonicalize.js
function hasLoneSurrogate (value) {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);

    if (code >= 0xD800 && code <= 0xDBFF) {
      if (i === value.length - 1) {
        return true;
      }
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xDC00 && next <= 0xDFFF)) {
        return true;
      }
      i++;
    } else if (code >= 0xDC00 && code <= 0xDFFF) {
      return true;
    }
  }

  return false;
}

function canonicalize (object, seen = new Set()) {
  if (typeof object === 'number' && isNaN(object)) {
    throw new Error('NaN is not allowed');
  }

  if (typeof object === 'number' && !isFinite(object)) {
    throw new Error('Infinity is not allowed');
  }

  if (typeof object === 'string' && hasLoneSurrogate(object)) {
    throw new Error('Lone surrogate is not allowed');
  }

  if (object === null || typeof object !== 'object') {
    return JSON.stringify(object);
  }

  if (typeof object.toJSON === 'function') {
    if (seen.has(object)) {
      throw new Error('Circular reference detected');
    }
    seen.add(object);
    const result = canonicalize(object.toJSON(), seen);
    seen.delete(object);
    return result;
  }

  if (seen.has(object)) {
    throw new Error('Circular reference detected');
  }
  seen.add(object);

  let result;
  if (Array.isArray(object)) {
    const values = object.map((cv) => {
      const value = cv === undefined || typeof cv === 'symbol' ? null : cv;
      return canonicalize(value, seen);
    });
    result = `[${values.join(',')}]`;
  } else {
    const parts = [];
    for (const key of Object.keys(object).sort()) {
      if (object[key] === undefined || typeof object[key] === 'symbol') {
        continue;
      }
      parts.push(`${canonicalize(key)}:${canonicalize(object[key], seen)}`);
    }
    result = `{${parts.join(',')}}`;
  }

  seen.delete(object);
  return result;
}

;// CONCATENATED MODULE: ./src/core/hashing.ts


const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
const HEX64_PATTERN = /^[0-9a-f]{64}$/;
/** Plain SHA-256 of bytes, as lowercase hex. */
function sha256Hex(data) {
    return createHash('sha256').update(data).digest('hex');
}
/** SHA-256 over `domain NUL payload`: the same payload under two domains never collides. */
function domainDigest(domain, payload) {
    const hash = (0,external_node_crypto_namespaceObject.createHash)('sha256');
    hash.update(domain, 'utf8');
    hash.update(Buffer.from([0]));
    hash.update(payload);
    return `sha256:${hash.digest('hex')}`;
}
/** RFC 8785 canonical JSON text. Throws on values JSON cannot represent (undefined, NaN, cycles). */
function canonicalJson(value) {
    const text = canonicalize(value);
    if (text === undefined) {
        throw new TypeError('value has no canonical JSON form');
    }
    return text;
}
/** Digest of a JSON value's canonical form under a domain. */
function digestJson(domain, value) {
    return domainDigest(domain, canonicalJson(value));
}
/** The bare hex of a digest (`sha256:abc…` → `abc…`). */
function digestHex(digest) {
    return digest.slice('sha256:'.length);
}

;// CONCATENATED MODULE: ./src/core/proposal.ts



/**
 * Proposal and approval: the two documents that bind a run to one exact diff on one exact
 * repository state, approved by its full hash.
 */
const PROPOSAL_SCHEMA = 'patchproof.proposal/v1';
const APPROVAL_SCHEMA = 'patchproof.approval/v1';
const digestString = schemas_string().regex(DIGEST_PATTERN, 'expected sha256:<64 lowercase hex>');
const hexString = schemas_string().regex(HEX64_PATTERN, 'expected 64 lowercase hex characters');
const proposalSchema = strictObject({
    schema: literal(PROPOSAL_SCHEMA),
    tool_version: schemas_string().min(1),
    /** Snapshot digest of the repository the diff applies to. */
    base_snapshot: digestString,
    /** Digest of the exact diff bytes (UTF-8). */
    diff_digest: digestString,
    /** The unified diff itself. */
    diff: schemas_string(),
    /** Hex hash over {schema, base_snapshot, diff_digest}: what an approver approves. */
    proposal_hash: hexString
});
const approvalSchema = strictObject({
    schema: literal(APPROVAL_SCHEMA),
    tool_version: schemas_string().min(1),
    proposal_hash: hexString,
    run_id: schemas_string().min(1).max(200),
    /** Declared audit metadata: who says they approved. Not an authenticated identity. */
    approved_by: schemas_string().min(1).max(200),
    approval_digest: digestString
});
/** Digest of a diff's exact bytes. */
function diffDigest(diff) {
    return domainDigest('patchproof/diff/v1', Buffer.from(diff, 'utf8'));
}
function proposalHash(baseSnapshot, diffDigestValue) {
    return digestHex(digestJson('patchproof/proposal/v1', { schema: PROPOSAL_SCHEMA, base_snapshot: baseSnapshot, diff_digest: diffDigestValue }));
}
function approvalDigest(fields) {
    return digestJson('patchproof/approval/v1', fields);
}
/** Bind a diff to the snapshot of the repository it is meant for. */
function createProposal(diff, baseSnapshot, toolVersion) {
    const diff_digest = diffDigest(diff);
    return {
        schema: PROPOSAL_SCHEMA,
        tool_version: toolVersion,
        base_snapshot: baseSnapshot,
        diff_digest,
        diff,
        proposal_hash: proposalHash(baseSnapshot, diff_digest)
    };
}
/**
 * Approve a proposal by its exact full hash. Abbreviations, case changes and whitespace are refused:
 * the approver must have seen the whole hash.
 */
function approveProposal(proposal, suppliedHash, runId, approvedBy, toolVersion) {
    if (!HEX64_PATTERN.test(suppliedHash)) {
        throw new ConfigurationError(`--proposal-hash '${suppliedHash}' is not a full hash; give all 64 lowercase hex characters of proposal_hash`);
    }
    if (suppliedHash !== proposal.proposal_hash) {
        throw new VerificationError('approval_mismatch', `--proposal-hash does not match the proposal (${proposal.proposal_hash}); approve the hash of the proposal you reviewed`);
    }
    if (runId.trim() === '' || approvedBy.trim() === '') {
        throw new ConfigurationError('--run-id and --approved-by must not be empty');
    }
    const fields = {
        schema: APPROVAL_SCHEMA,
        tool_version: toolVersion,
        proposal_hash: suppliedHash,
        run_id: runId,
        approved_by: approvedBy
    };
    return { ...fields, approval_digest: approvalDigest(fields) };
}
function describeIssues(error) {
    const first = error.issues[0];
    if (first === undefined)
        return 'invalid';
    const where = first.path.length > 0 ? first.path.join('.') : '(top level)';
    return `${where}: ${first.message}`;
}
/** Parse untrusted proposal JSON and re-derive every digest in it. */
function parseProposal(value, source) {
    const parsed = proposalSchema.safeParse(value);
    if (!parsed.success) {
        throw new ConfigurationError(`${source} is not a PatchProof proposal (${describeIssues(parsed.error)}); create one with 'patchproof propose'`);
    }
    const proposal = parsed.data;
    if (diffDigest(proposal.diff) !== proposal.diff_digest) {
        throw new VerificationError('approval_mismatch', `${source}: diff_digest does not match the diff it carries; the proposal was edited — propose again`);
    }
    if (proposalHash(proposal.base_snapshot, proposal.diff_digest) !== proposal.proposal_hash) {
        throw new VerificationError('approval_mismatch', `${source}: proposal_hash does not match its contents; the proposal was edited — propose again`);
    }
    return proposal;
}
/** Parse untrusted approval JSON, re-derive its digest and check it approves exactly this proposal. */
function parseApproval(value, source, proposal) {
    const parsed = approvalSchema.safeParse(value);
    if (!parsed.success) {
        throw new ConfigurationError(`${source} is not a PatchProof approval (${describeIssues(parsed.error)}); create one with 'patchproof approve'`);
    }
    const approval = parsed.data;
    const { approval_digest, ...fields } = approval;
    if (approvalDigest(fields) !== approval_digest) {
        throw new VerificationError('approval_mismatch', `${source}: approval_digest does not match its contents; the approval was edited — approve again`);
    }
    if (approval.proposal_hash !== proposal.proposal_hash) {
        throw new VerificationError('approval_mismatch', `${source} approves proposal ${approval.proposal_hash}, not ${proposal.proposal_hash}; approve this proposal's hash`);
    }
    return approval;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/iso.js



function iso_datetime(params) {
    return _isoDateTime(ZodISODateTime, params);
}
function iso_date(params) {
    return core._isoDate(ZodISODate, params);
}
function iso_time(params) {
    return core._isoTime(ZodISOTime, params);
}
function iso_duration(params) {
    return core._isoDuration(ZodISODuration, params);
}

;// CONCATENATED MODULE: ./src/core/test-results.ts
/**
 * Normalised test results: every adapter turns its runner's structured output into these.
 */
const RIGHT_REASON_FAILURES = ['assertion', 'exception_in_code'];
function countTests(tests) {
    const counts = { passed: 0, failed: 0, errored: 0, skipped: 0 };
    for (const test of tests) {
        counts[test.status] += 1;
    }
    return counts;
}

;// CONCATENATED MODULE: ./src/core/verdict.ts

/**
 * The judge: turns the evidence of each run into phase results and one verdict. Pure.
 *
 * Fail closed everywhere: zero tests, missing or inconsistent results, a timeout or truncated output
 * never count as a pass. Infrastructure faults make a phase inconclusive, never failed (they are not
 * the candidate's fault) and never passed.
 */
const PHASE_NAMES = ['reproduction_before', 'reproduction_after', 'regression', 'hidden'];
/** The runs one validation makes; `regression` takes two (the base suite and the patched suite). */
const RUN_LABELS = ['reproduction_before', 'reproduction_after', 'regression_before', 'regression_after', 'hidden'];
const REASON_CODES = [
    'patch_invalid',
    'policy_violation',
    'repro_passes_before',
    'repro_wrong_failure',
    'not_fixed',
    'regression',
    'hidden_failed',
    'no_results',
    'timeout',
    'output_limit',
    'results_inconsistent',
    'infra_error',
    'repository_changed'
];
/** Anomalies of a run; empty when its results can be judged test by test. */
function runAnomalies(run) {
    if (run.infraError !== undefined || run.parsed === undefined)
        return ['infra_error'];
    const anomalies = [];
    if (run.timedOut)
        anomalies.push('timeout');
    if (run.outputTruncated)
        anomalies.push('output_limit');
    // A killed run's result files are partial at best: nothing in them is judged.
    if (anomalies.length > 0)
        return anomalies;
    const { tests, problems, claimed } = run.parsed;
    if (tests.length === 0) {
        anomalies.push('no_results');
        return anomalies;
    }
    const counts = countTests(tests);
    const anyFailure = counts.failed + counts.errored > 0;
    const exitDisagrees = run.exitCode === null || (run.exitCode === 0) === anyFailure;
    const claimDisagrees = claimed !== undefined &&
        (claimed.passed !== counts.passed || claimed.failed + claimed.errored !== counts.failed + counts.errored);
    if (problems.length > 0 || exitDisagrees || claimDisagrees)
        anomalies.push('results_inconsistent');
    return anomalies;
}
function judgeAnomalies(anomalies) {
    if (anomalies.length === 0)
        return undefined;
    if (anomalies.includes('infra_error'))
        return { status: 'inconclusive', reasons: ['infra_error'] };
    return { status: 'failed', reasons: [...anomalies] };
}
function phase(name, status, reasons, results, extra = {}) {
    return { name, status, reasons: [...new Set(reasons)].sort(), results, tests: countTests(results), ...extra };
}
const resultsOf = (run) => run.parsed?.tests ?? [];
/** Reproduction before the patch must fail, every test of it, for the right reason. */
function judgeReproductionBefore(run) {
    const results = resultsOf(run);
    const anomalies = runAnomalies(run);
    if (anomalies.includes('infra_error'))
        return phase('reproduction_before', 'inconclusive', ['infra_error'], results);
    if (anomalies.length > 0) {
        // A timeout, no tests or unreadable results at baseline never establish the bug.
        return phase('reproduction_before', 'failed', ['repro_wrong_failure', ...anomalies], results);
    }
    const reasons = [];
    if (results.some((t) => t.status === 'passed'))
        reasons.push('repro_passes_before');
    const wrong = results.some((t) => t.status === 'skipped' ||
        ((t.status === 'failed' || t.status === 'errored') && !RIGHT_REASON_FAILURES.includes(t.failure_kind ?? 'unknown')));
    if (wrong)
        reasons.push('repro_wrong_failure');
    return phase('reproduction_before', reasons.length === 0 ? 'passed' : 'failed', reasons, results);
}
/** Compare a run against ids that must be present; absent ids become failed entries. */
function withMissing(results, expectedIds) {
    const present = new Set(results.map((t) => t.id));
    const missing = [...new Set(expectedIds)].filter((id) => !present.has(id)).sort();
    const all = [...results, ...missing.map((id) => ({ id, status: 'failed', failure_kind: 'unknown', message: 'absent from the results' }))];
    return { all, missing };
}
/** Reproduction after the patch must pass: every test, including every id seen before the patch. */
function judgeReproductionAfter(run, before) {
    const verdict = judgeAnomalies(runAnomalies(run));
    const { all, missing } = withMissing(resultsOf(run), resultsOf(before).map((t) => t.id));
    if (verdict)
        return phase('reproduction_after', verdict.status, verdict.reasons, all, { missing });
    const fixed = all.every((t) => t.status === 'passed');
    return phase('reproduction_after', fixed ? 'passed' : 'failed', fixed ? [] : ['not_fixed'], all, { missing });
}
/**
 * Regression (PASS_TO_PASS): every test that passed in the base suite still passes after the patch.
 * A test absent after counts as failed; tests failing at baseline are reported, not blamed.
 */
function judgeRegression(before, after) {
    const baseResults = resultsOf(before);
    const baseline = { results: baseResults, tests: countTests(baseResults) };
    const baseAnomalies = runAnomalies(before);
    if (baseAnomalies.length > 0) {
        // Without a clean baseline there is nothing to hold the patch to: not the candidate's fault.
        return phase('regression', 'inconclusive', baseAnomalies, resultsOf(after), { baseline });
    }
    const passToPass = baseResults.filter((t) => t.status === 'passed').map((t) => t.id);
    const preexisting = baseResults.filter((t) => t.status === 'failed' || t.status === 'errored').map((t) => t.id).sort();
    const { all, missing } = withMissing(resultsOf(after), passToPass);
    const extra = { baseline, pass_to_pass: passToPass.length, preexisting_failures: preexisting, missing };
    const verdict = judgeAnomalies(runAnomalies(after));
    if (verdict)
        return phase('regression', verdict.status, verdict.reasons, all, { ...extra, regressions: [] });
    const byId = new Map(all.map((t) => [t.id, t]));
    const regressions = passToPass.filter((id) => byId.get(id)?.status !== 'passed').sort();
    return phase('regression', regressions.length === 0 ? 'passed' : 'failed', regressions.length === 0 ? [] : ['regression'], all, {
        ...extra,
        regressions
    });
}
/** Hidden tests the candidate never saw must all pass. */
function judgeHidden(run) {
    const results = resultsOf(run);
    const verdict = judgeAnomalies(runAnomalies(run));
    if (verdict)
        return phase('hidden', verdict.status, verdict.reasons, results);
    const ok = results.every((t) => t.status === 'passed');
    return phase('hidden', ok ? 'passed' : 'failed', ok ? [] : ['hidden_failed'], results);
}
/** Judge all four phases from the five runs, then the verdict. */
function judge(runs, repositoryUnchanged) {
    const phases = [
        judgeReproductionBefore(runs.reproduction_before),
        judgeReproductionAfter(runs.reproduction_after, runs.reproduction_before),
        judgeRegression(runs.regression_before, runs.regression_after),
        judgeHidden(runs.hidden)
    ];
    return { phases, ...decideVerdict(phases, repositoryUnchanged) };
}
/**
 * The verdict from the phases: failed when any phase failed; otherwise inconclusive when any phase
 * is inconclusive or the real checkout changed during the run; passed only when all four passed.
 */
function decideVerdict(phases, repositoryUnchanged) {
    const reasons = new Set(phases.flatMap((p) => p.reasons));
    if (!repositoryUnchanged)
        reasons.add('repository_changed');
    const sorted = [...reasons].sort();
    if (phases.some((p) => p.status === 'failed'))
        return { verdict: 'failed', reasons: sorted };
    const complete = phases.length === PHASE_NAMES.length && phases.every((p) => p.status === 'passed');
    if (!complete || !repositoryUnchanged)
        return { verdict: 'inconclusive', reasons: sorted };
    return { verdict: 'passed', reasons: sorted };
}

;// CONCATENATED MODULE: ./src/core/receipt-schema.ts



/**
 * The receipt, version 1: a strict zod schema. Every key is documented in docs/receipt.md; adding a
 * key means a new schema version, because verify-receipt refuses unknown keys.
 */
const RECEIPT_SCHEMA = 'patchproof.receipt/v1';
const digest = schemas_string().regex(DIGEST_PATTERN);
const hex64 = schemas_string().regex(HEX64_PATTERN);
const count = schemas_number().int().nonnegative();
const testCountsSchema = strictObject({ passed: count, failed: count, errored: count, skipped: count });
const testResultSchema = strictObject({
    id: schemas_string().min(1),
    status: schemas_enum(['passed', 'failed', 'errored', 'skipped']),
    failure_kind: schemas_enum(['assertion', 'exception_in_code', 'exception_in_test', 'import_error', 'collection_error', 'setup_error', 'timeout', 'unknown'])
        .optional(),
    message: schemas_string().optional(),
    location: schemas_string().optional(),
    skip_reason: schemas_string().optional()
});
const runRecordSchema = strictObject({
    label: schemas_enum(RUN_LABELS),
    argv: array(schemas_string()),
    exit_code: schemas_number().int().nullable(),
    signal: schemas_string().nullable(),
    timed_out: schemas_boolean(),
    output_truncated: schemas_boolean(),
    output_bytes: count,
    output_sha256: schemas_string().regex(/^[0-9a-f]{64}$/),
    duration_ms: count,
    problems: array(schemas_string()),
    infra_error: schemas_string().optional()
});
const phaseSchema = strictObject({
    name: schemas_enum(PHASE_NAMES),
    status: schemas_enum(['passed', 'failed', 'inconclusive']),
    reasons: array(schemas_enum(REASON_CODES)),
    tests: testCountsSchema,
    results: array(testResultSchema),
    runs: array(runRecordSchema).min(1),
    baseline: strictObject({ tests: testCountsSchema, results: array(testResultSchema) }).optional(),
    pass_to_pass: count.optional(),
    regressions: array(schemas_string()).optional(),
    preexisting_failures: array(schemas_string()).optional(),
    missing: array(schemas_string()).optional()
});
const receiptSchema = strictObject({
    schema: literal(RECEIPT_SCHEMA),
    tool_version: schemas_string().min(1),
    run_id: schemas_string().min(1),
    started_at: iso_datetime(),
    finished_at: iso_datetime(),
    verdict: schemas_enum(['passed', 'failed', 'inconclusive']),
    proof_grade: schemas_boolean(),
    reasons: array(schemas_enum(REASON_CODES)),
    /** Every digest that bound this run. */
    bindings: strictObject({
        proposal_hash: hex64,
        approval_digest: digest,
        approved_by: schemas_string().min(1),
        diff_digest: digest,
        base_snapshot: digest,
        patched_snapshot: digest,
        reproduction_digest: digest,
        hidden_digest: digest
    }),
    repository: strictObject({
        snapshot_before: digest,
        snapshot_after: digest,
        unchanged: schemas_boolean(),
        changed_paths: array(schemas_string())
    }),
    runner: strictObject({
        kind: schemas_enum(['local', 'docker']),
        isolated: schemas_boolean(),
        image: schemas_string().optional(),
        image_id: schemas_string().optional(),
        settings: array(schemas_string())
    }),
    adapter: schemas_string().min(1),
    limits: strictObject({ timeout_ms: count, output_limit_bytes: count, diff_max_bytes: count, diff_max_files: count }),
    phases: array(phaseSchema).length(PHASE_NAMES.length),
    receipt_digest: digest
});

;// CONCATENATED MODULE: ./src/core/receipt.ts




/**
 * Sealing and verifying receipts. A receipt is canonical JSON (RFC 8785) whose `receipt_digest` is
 * the domain-separated SHA-256 of everything else; the file holds exactly the canonical text plus a
 * newline, so any change of any byte is caught.
 */
function receiptDigest(body) {
    return digestJson('patchproof/receipt/v1', body);
}
/** Add the content digest. */
function sealReceipt(body) {
    return { ...body, receipt_digest: receiptDigest(body) };
}
/** The exact bytes of receipt.json. */
function serializeReceipt(receipt) {
    return `${canonicalJson(receipt)}\n`;
}
/** Phase semantics: what each status may claim about its own tests. */
function phaseErrors(phase) {
    const errors = [];
    const where = `phase ${phase.name}`;
    const counts = countTests(phase.results);
    for (const key of ['passed', 'failed', 'errored', 'skipped']) {
        if (counts[key] !== phase.tests[key])
            errors.push(`${where}: tests.${key} is ${phase.tests[key]} but its results hold ${counts[key]}`);
    }
    if (phase.status === 'passed' && phase.reasons.length > 0)
        errors.push(`${where}: passed with reasons ${phase.reasons.join(',')}`);
    if (phase.status !== 'passed' && phase.reasons.length === 0)
        errors.push(`${where}: ${phase.status} without a reason`);
    if (phase.status !== 'passed')
        return errors;
    if (phase.results.length === 0)
        errors.push(`${where}: passed with no tests`);
    const runsClean = phase.runs.every((r) => !r.timed_out && !r.output_truncated && r.infra_error === undefined && r.problems.length === 0);
    if (!runsClean)
        errors.push(`${where}: passed although a run timed out, was truncated or had result problems`);
    if (phase.name === 'reproduction_before') {
        const rightReason = phase.results.every((t) => (t.status === 'failed' || t.status === 'errored') && RIGHT_REASON_FAILURES.includes(t.failure_kind ?? 'unknown'));
        if (!rightReason)
            errors.push(`${where}: passed but not every test failed for the right reason`);
    }
    else if (phase.name === 'regression') {
        // Tests failing at baseline may keep failing; every PASS_TO_PASS test must pass.
        const baselinePassed = (phase.baseline?.results ?? []).filter((t) => t.status === 'passed').map((t) => t.id);
        const after = new Map(phase.results.map((t) => [t.id, t.status]));
        if (phase.baseline === undefined || phase.pass_to_pass !== baselinePassed.length)
            errors.push(`${where}: passed without a matching baseline`);
        if (baselinePassed.some((id) => after.get(id) !== 'passed') || (phase.regressions ?? []).length > 0) {
            errors.push(`${where}: passed with a PASS_TO_PASS test that did not pass`);
        }
    }
    else if (phase.results.some((t) => t.status !== 'passed')) {
        errors.push(`${where}: passed with a test that did not pass`);
    }
    return errors;
}
/**
 * Re-check a receipt offline: strict structure, exact canonical bytes, the content digest, phase
 * semantics, and that verdict, reasons and proof_grade follow from the phases.
 */
function verifyReceiptText(text) {
    const fail = (errors, receipt) => ({
        integrity_valid: false,
        verdict: receipt?.verdict ?? null,
        proof_grade: false,
        receipt_digest: receipt?.receipt_digest ?? null,
        errors
    });
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (error) {
        return fail([`not JSON: ${error.message}`]);
    }
    const parsed = receiptSchema.safeParse(value);
    if (!parsed.success) {
        return fail(parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`));
    }
    const receipt = parsed.data;
    const errors = [];
    if (serializeReceipt(receipt) !== text)
        errors.push('bytes are not the canonical form of the receipt (edited or re-serialised)');
    const { receipt_digest, ...body } = receipt;
    if (receiptDigest(body) !== receipt_digest)
        errors.push('receipt_digest does not match the content');
    const names = receipt.phases.map((p) => p.name).join(',');
    if (names !== PHASE_NAMES.join(','))
        errors.push(`phases must be ${PHASE_NAMES.join(',')} in order, found ${names}`);
    for (const phase of receipt.phases)
        errors.push(...phaseErrors(phase));
    const expected = decideVerdict(receipt.phases, receipt.repository.unchanged);
    if (expected.verdict !== receipt.verdict)
        errors.push(`verdict ${receipt.verdict} does not follow from the phases (expected ${expected.verdict})`);
    if (expected.reasons.join(',') !== receipt.reasons.join(',')) {
        errors.push(`reasons [${receipt.reasons.join(',')}] do not match the phases' [${expected.reasons.join(',')}]`);
    }
    if (receipt.repository.unchanged !== (receipt.repository.snapshot_before === receipt.repository.snapshot_after)) {
        errors.push('repository.unchanged disagrees with its snapshots');
    }
    if (receipt.repository.snapshot_before !== receipt.bindings.base_snapshot)
        errors.push('repository.snapshot_before is not the bound base_snapshot');
    const proofGrade = receipt.runner.isolated && receipt.verdict === 'passed' && receipt.repository.unchanged;
    if (receipt.proof_grade !== proofGrade)
        errors.push(`proof_grade ${receipt.proof_grade} does not follow from runner, verdict and repository (expected ${proofGrade})`);
    if (errors.length > 0)
        return fail(errors, receipt);
    return { integrity_valid: true, verdict: receipt.verdict, proof_grade: receipt.proof_grade, receipt_digest, errors: [] };
}

;// CONCATENATED MODULE: ./src/core/report.ts
/**
 * Human-facing renderings of a receipt: the console phase table and the bilingual (zh/en) report.
 * Pure: receipt in, text out.
 */
const PHASE_TITLES = {
    reproduction_before: { en: 'reproduction fails before the patch', zh: '补丁前复现失败' },
    reproduction_after: { en: 'reproduction passes after the patch', zh: '补丁后复现通过' },
    regression: { en: 'no regression in the full suite', zh: '完整回归无退化' },
    hidden: { en: 'hidden tests pass', zh: '隐藏测试通过' }
};
const REASON_TEXT = {
    patch_invalid: { en: 'the diff does not apply exactly', zh: '补丁无法精确应用' },
    policy_violation: { en: 'the diff breaks the diff policy', zh: '补丁违反策略' },
    repro_passes_before: { en: 'the reproduction already passes without the patch', zh: '补丁前复现已通过' },
    repro_wrong_failure: { en: 'the reproduction fails for the wrong reason (import, collection, setup, timeout, no tests)', zh: '复现因错误原因失败（导入、收集、夹具、超时或无测试）' },
    not_fixed: { en: 'the reproduction still fails after the patch', zh: '补丁后复现仍失败' },
    regression: { en: 'a test that passed before the patch no longer passes', zh: '补丁前通过的测试不再通过' },
    hidden_failed: { en: 'a hidden test fails', zh: '隐藏测试失败' },
    no_results: { en: 'a run produced no test results', zh: '某次运行没有测试结果' },
    timeout: { en: 'a run hit its time limit', zh: '某次运行超时' },
    output_limit: { en: 'a run exceeded its output limit', zh: '某次运行超出输出上限' },
    results_inconsistent: { en: 'structured results disagree with the exit code or counts', zh: '结构化结果与退出码或计数不一致' },
    infra_error: { en: 'infrastructure error (not the candidate\'s fault)', zh: '基础设施错误（非候选补丁之过）' },
    repository_changed: { en: 'the real checkout changed during the run', zh: '真实仓库在运行期间被修改' }
};
const STATUS_MARK = { passed: 'PASS', failed: 'FAIL', inconclusive: 'INCONCLUSIVE' };
function testCount(phase) {
    const n = phase.results.length;
    return `${n} test${n === 1 ? '' : 's'}`;
}
function proofGradeLine(receipt) {
    if (receipt.proof_grade)
        return 'YES';
    if (!receipt.runner.isolated)
        return 'NO (trusted-local runner; proof grade needs the Docker runner)';
    return 'NO (the validation did not pass)';
}
/** The console table printed by `patchproof validate`. */
function renderPhaseTable(receipt, integrityVerified) {
    const lines = receipt.phases.map((phase) => {
        const mark = `[${STATUS_MARK[phase.status]}]`.padEnd(15);
        const title = PHASE_TITLES[phase.name].en.padEnd(38);
        const reasons = phase.reasons.length > 0 ? `  ${phase.reasons.join(', ')}` : '';
        return `${mark}${title}(${testCount(phase)})${reasons}`;
    });
    lines.push('', `validation: ${receipt.verdict.toUpperCase()}${receipt.reasons.length > 0 ? ` (${receipt.reasons.join(', ')})` : ''}`, `repository unchanged: ${receipt.repository.unchanged ? 'YES' : 'NO'}`, `receipt integrity: ${integrityVerified ? 'VERIFIED' : 'INVALID'}`, `proof grade: ${proofGradeLine(receipt)}`, `receipt: ${receipt.receipt_digest}`);
    return lines.join('\n');
}
function escapeCell(text) {
    return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
function failingTests(phase, limit) {
    const bad = phase.results.filter((t) => (phase.name === 'reproduction_before' ? t.status === 'passed' || t.status === 'skipped' : t.status !== 'passed'));
    const shown = bad.slice(0, limit).map((t) => {
        const detail = [t.failure_kind, t.location, t.message].filter((x) => x !== undefined && x !== '').join(' · ');
        return `- \`${escapeCell(t.id)}\` — ${t.status}${detail ? ` (${escapeCell(detail)})` : ''}`;
    });
    if (bad.length > limit)
        shown.push(`- … ${bad.length - limit} more`);
    return shown;
}
/** The bilingual Markdown report written beside the receipt. */
function renderReport(receipt, options = {}) {
    const limit = options.maxTestsPerPhase ?? 50;
    const verdictZh = { passed: '通过', failed: '失败', inconclusive: '无定论' }[receipt.verdict];
    const out = [
        `# PatchProof 验证报告 / Validation report`,
        '',
        `**结论 / Verdict: ${verdictZh} / ${receipt.verdict.toUpperCase()}** · 证明级 / proof grade: ${receipt.proof_grade ? '是 / YES' : '否 / NO'}`,
        '',
        '| 阶段 / Phase | 结果 / Result | 测试 / Tests | 原因 / Reasons |',
        '| --- | --- | --- | --- |'
    ];
    for (const phase of receipt.phases) {
        const title = PHASE_TITLES[phase.name];
        const t = phase.tests;
        const counts = `${t.passed} passed, ${t.failed} failed, ${t.errored} errored, ${t.skipped} skipped`;
        out.push(`| ${title.zh} / ${title.en} | ${STATUS_MARK[phase.status]} | ${counts} | ${phase.reasons.join(', ') || '—'} |`);
    }
    if (receipt.reasons.length > 0) {
        out.push('', '## 原因 / Reasons', '');
        for (const code of receipt.reasons)
            out.push(`- \`${code}\`: ${REASON_TEXT[code].zh} / ${REASON_TEXT[code].en}`);
    }
    for (const phase of receipt.phases) {
        const lines = failingTests(phase, limit);
        const extra = [];
        if (phase.regressions && phase.regressions.length > 0)
            extra.push(`退化 / regressions: ${phase.regressions.map((id) => `\`${escapeCell(id)}\``).join(', ')}`);
        if (phase.preexisting_failures && phase.preexisting_failures.length > 0) {
            extra.push(`基线已失败（不归咎于补丁）/ failing at baseline (not blamed on the patch): ${phase.preexisting_failures.length}`);
        }
        if (lines.length === 0 && extra.length === 0)
            continue;
        out.push('', `## ${PHASE_TITLES[phase.name].zh} / ${PHASE_TITLES[phase.name].en}`, '', ...extra.map((e) => `${e}  `), ...lines);
    }
    out.push('', '## 绑定 / Bindings', '', `- proposal_hash: \`${receipt.bindings.proposal_hash}\``, `- approved_by (declared, not authenticated / 声明式，未认证): ${escapeCell(receipt.bindings.approved_by)}`, `- base_snapshot: \`${receipt.bindings.base_snapshot}\``, `- diff_digest: \`${receipt.bindings.diff_digest}\``, `- reproduction_digest: \`${receipt.bindings.reproduction_digest}\``, `- hidden_digest: \`${receipt.bindings.hidden_digest}\``, `- runner: ${receipt.runner.kind} (isolated: ${receipt.runner.isolated})${receipt.runner.image_id ? `, image ${receipt.runner.image_id}` : ''}`, `- 仓库未变 / repository unchanged: ${receipt.repository.unchanged ? 'YES' : 'NO'}`, `- receipt_digest: \`${receipt.receipt_digest}\``, '', '回执哈希可发现内容变化，但不认证执行者或审批人。/ The receipt digest detects changes; it does not authenticate who ran or approved the validation.', '');
    return out.join('\n');
}

;// CONCATENATED MODULE: ./src/adapters/adapter.ts
const ADAPTER_NAMES = ['node-test', 'unittest'];
/** The reserved namespace inside every disposable copy; diffs may never touch it. */
const RESERVED_DIR = '.patchproof';
/** Where adapter harness files (reporters, result writers) are staged in a copy. */
const HARNESS_DIR = `${RESERVED_DIR}/harness`;

;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
var external_node_path_default = /*#__PURE__*/__nccwpck_require__.n(external_node_path_namespaceObject);
;// CONCATENATED MODULE: external "node:url"
const external_node_url_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");
;// CONCATENATED MODULE: ./src/adapters/node-test-reporter.ts
/**
 * The custom reporter PatchProof hands to `node --test`. Node's built-in junit reporter names no
 * file per test and flattens errors to text; this one writes one JSON object per line with the
 * test's file, position, nesting and its error's failure type, code and cause.
 *
 * Lines, in order: one `start`; a `test` per test:pass/test:fail event (post-order: a test's
 * subtests come before it); a `diagnostic` per test:diagnostic (node's own totals come last); one
 * `end` with the number of lines of each kind written, so a cut-off file is recognisable.
 * A whole-file failure (node reports a test named after the file) carries the last lines that
 * file wrote to stderr, where node 20 puts the SyntaxError or the missing module.
 */
/** Name of the staged reporter; it must not match node's default test-file patterns. */
const NODE_TEST_REPORTER_FILE = 'patchproof-reporter.mjs';
/** The `format` tag of the reporter's `start` and `end` lines. */
const NODE_TEST_REPORT_FORMAT = 'patchproof-node-test/1';
/** Source of the reporter module (ESM; runs inside `node --test`, so plain JavaScript). */
const NODE_TEST_REPORTER_SOURCE = String.raw `// PatchProof reporter for node --test (generated; see src/adapters/node-test-reporter.ts).
const FORMAT = '${NODE_TEST_REPORT_FORMAT}';
const MAX_TEXT = 8000;
const STDERR_LINES = 40;

function text(value) {
  if (value === undefined || value === null) return undefined;
  let result;
  try {
    result = typeof value === 'string' ? value : String(value);
  } catch {
    return '<unprintable>';
  }
  return result.length > MAX_TEXT ? result.slice(0, MAX_TEXT) : result;
}

function read(object, key) {
  try {
    return object[key];
  } catch {
    return undefined;
  }
}

function cause(value) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') return { message: text(value) };
  return {
    name: text(read(value, 'name')),
    code: text(read(value, 'code')),
    message: text(read(value, 'message')),
    stack: text(read(value, 'stack'))
  };
}

function error(value) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') return { message: text(value) };
  const exitCode = read(value, 'exitCode');
  return {
    name: text(read(value, 'name')),
    code: text(read(value, 'code')),
    failureType: text(read(value, 'failureType')),
    message: text(read(value, 'message')),
    exitCode: Number.isInteger(exitCode) ? exitCode : undefined,
    signal: text(read(value, 'signal')),
    cause: cause(read(value, 'cause'))
  };
}

function flag(value) {
  if (value === undefined || value === null || value === false) return undefined;
  return typeof value === 'string' ? text(value) : true;
}

export default async function* patchproofReporter(source) {
  const stderr = new Map();
  let tests = 0;
  let diagnostics = 0;
  yield JSON.stringify({ kind: 'start', format: FORMAT, node: process.version }) + '\n';
  for await (const event of source) {
    const data = event.data ?? {};
    if (event.type === 'test:stderr' && typeof data.file === 'string') {
      const lines = stderr.get(data.file) ?? [];
      lines.push(text(data.message) ?? '');
      if (lines.length > STDERR_LINES) lines.shift();
      stderr.set(data.file, lines);
    } else if (event.type === 'test:pass' || event.type === 'test:fail') {
      const details = data.details ?? {};
      const line = {
        kind: 'test',
        event: event.type === 'test:pass' ? 'pass' : 'fail',
        name: text(data.name) ?? '',
        nesting: data.nesting,
        file: text(data.file),
        line: data.line,
        column: data.column,
        suite: details.type === 'suite',
        skip: flag(data.skip),
        todo: flag(data.todo),
        duration_ms: details.duration_ms,
        error: error(details.error)
      };
      if (data.nesting === 0 && data.name === data.file && stderr.has(data.file)) {
        line.stderr = stderr.get(data.file);
      }
      tests += 1;
      yield JSON.stringify(line) + '\n';
    } else if (event.type === 'test:diagnostic') {
      diagnostics += 1;
      yield JSON.stringify({ kind: 'diagnostic', nesting: data.nesting, file: text(data.file), message: text(data.message) ?? '' }) + '\n';
    }
  }
  yield JSON.stringify({ kind: 'end', format: FORMAT, tests, diagnostics }) + '\n';
}
`;

;// CONCATENATED MODULE: ./src/adapters/node-test.ts







/**
 * The node-test adapter: node's built-in runner (`node --test`) with PatchProof's JSON-lines
 * reporter (see node-test-reporter.ts).
 *
 * Status mapping, the same for every adapter: an assertion failure is `failed`; every other way of
 * not passing (an exception, a hook, a timeout or cancellation, a file that does not load) is
 * `errored`; skip and todo (passing or failing) are `skipped`.
 *
 * What counts as a test: every leaf of node's test tree, so the ids of a tree do not depend on how
 * its tests ended. A parent (a describe, or a test with `t.test` subtests) is not a test of its
 * own: when it fails for a reason of its own (an `after` hook, a throw after its subtests; not
 * merely `subtestsFailed`) that failure goes to its leaves that passed, and the parent stands as a
 * test only when no leaf took it. Also tests: a skipped suite, whose tests node never reports, and
 * a file that failed as a whole (node reports a test named after the file: a SyntaxError, a missing
 * module, a crash or `process.exit` before its tests reported; `import_error` when stderr names a
 * missing module or export, else `collection_error`). A file that passed as a whole reported no
 * tests and is not one.
 *
 * Failure kinds: ERR_ASSERTION/AssertionError is `assertion`; a failed hook `setup_error`; a
 * timeout, or a cancellation not caused by a failed hook or suite body, `timeout`; a suite body
 * that throws `collection_error` (its cancelled tests too); any other exception
 * `exception_in_code` or `exception_in_test` by the innermost repository frame of its stack (see
 * exceptionSite).
 */
/** Result file the reporter writes, relative to the results directory. */
const NODE_TEST_RESULTS_FILE = 'node-test.jsonl';
const MESSAGE_LIMIT = 500;
const PROBLEM_LIMIT = 20;
const ID_SEPARATOR = ' > ';
const JS_FILE = /\.[cm]?js$/;
const NODE_TEST_PATTERNS = [/\.test\.[cm]?js$/, /-test\.[cm]?js$/, /_test\.[cm]?js$/, /^test-.*\.[cm]?js$/, /^test\.[cm]?js$/];
const STDERR_ERROR_LINE = /^(?:[\w$.]*Error|Error)(?: \[[A-Z0-9_]+\])?: /;
const IMPORT_FAILURE = /ERR_MODULE_NOT_FOUND|Cannot find (?:module|package)|does not provide an export named/;
const LIBRARY_SEGMENTS = new Set(['node_modules', 'site-packages', 'dist-packages']);
/**
 * True for files node 20's `--test` picks up by default: `*.test.js`, `*-test.js`, `*_test.js`,
 * `test-*.js`, `test.js` (each also `.mjs`/`.cjs`) and any such script under a `test/` folder,
 * never inside node_modules.
 */
function isNodeTestFile(relativePath) {
    const segments = relativePath.split(/[\\/]/);
    const base = segments.pop() ?? '';
    if (segments.includes('node_modules')) {
        return false;
    }
    return NODE_TEST_PATTERNS.some((pattern) => pattern.test(base)) || (segments.includes('test') && JS_FILE.test(base));
}
/** `path` relative to `root` when it lies inside it (POSIX paths, as the test process saw them). */
function repoRelative(root, file) {
    const base = external_node_path_default().posix.normalize(root).replace(/\/+$/, '');
    const target = external_node_path_default().posix.normalize(file);
    return target.startsWith(`${base}/`) ? target.slice(base.length + 1) : undefined;
}
/**
 * Where an exception came from, judged by the innermost stack frame in the repository that is not
 * a dependency (node_modules, site-packages): a file outside the test roots, the run's test files
 * and `.patchproof/` is the code under test. Frames are absolute paths, innermost first; with no
 * usable frame the answer is `unknown`.
 */
function exceptionSite(framesInnermostFirst, scope) {
    for (const frame of framesInnermostFirst) {
        const relative = repoRelative(scope.workdir, frame);
        if (relative === undefined || relative.split('/').some((segment) => LIBRARY_SEGMENTS.has(segment))) {
            continue;
        }
        const isTest = relative.startsWith(`${RESERVED_DIR}/`) ||
            scope.testFiles.has(relative) ||
            scope.testRoots.some((root) => root !== '' && (relative === root || relative.startsWith(`${root.replace(/\/+$/, '')}/`)));
        return isTest ? 'exception_in_test' : 'exception_in_code';
    }
    return 'unknown';
}
/**
 * The first non-empty line of a message, at most 500 characters; with `workdir`, paths inside the
 * copy are made repository-relative so the message is the same in every copy.
 */
function messageLine(text, workdir) {
    const line = text
        ?.split('\n')
        .map((part) => part.trim())
        .find((part) => part !== '');
    if (line === undefined) {
        return undefined;
    }
    const root = workdir === undefined ? undefined : `${external_node_path_default().posix.normalize(workdir).replace(/\/+$/, '')}/`;
    const relative = root === undefined ? line : line.split(`file://${root}`).join('').split(root).join('');
    return relative.slice(0, MESSAGE_LIMIT);
}
/** Status for a failure kind: only an assertion is `failed`. */
function statusForFailure(kind) {
    return kind === 'assertion' ? 'failed' : 'errored';
}
/** Absolute file paths of a V8 stack trace, innermost first (node internals and eval frames left out). */
function v8StackFiles(stack) {
    const files = [];
    for (const line of stack?.split('\n') ?? []) {
        const match = /^\s*at (?:.*?\()?([^()]+?):\d+:\d+\)?\s*$/.exec(line);
        const location = match?.[1];
        if (location === undefined) {
            continue;
        }
        if (location.startsWith('file://')) {
            try {
                files.push((0,external_node_url_namespaceObject.fileURLToPath)(location));
            }
            catch {
                continue;
            }
        }
        else if (location.startsWith('/')) {
            files.push(location);
        }
    }
    return files;
}
/**
 * Checks that a run has test files and that each is a repository-relative path staying inside the
 * copy (an empty list must never fall back to running the whole repository suite).
 */
function checkTestFiles(files, testRoot) {
    if (files.length === 0) {
        throw new ConfigurationError(`no test files to run under '${testRoot ?? '(no folder given)'}'; the adapter recognises none of the staged files as tests`);
    }
    for (const file of files) {
        if (file === '' || external_node_path_default().posix.isAbsolute(file) || file.split(/[\\/]/).includes('..')) {
            throw new ConfigurationError(`Invalid test file '${file}'. Expected a path relative to the repository root, without '..'.`);
        }
    }
}
const flagSchema = union([schemas_boolean(), schemas_string()]).optional();
const errorSchema = object({
    name: schemas_string().optional(),
    code: schemas_string().optional(),
    failureType: schemas_string().optional(),
    message: schemas_string().optional(),
    exitCode: schemas_number().int().optional(),
    signal: schemas_string().optional(),
    cause: object({ name: schemas_string().optional(), code: schemas_string().optional(), message: schemas_string().optional(), stack: schemas_string().optional() })
        .optional()
});
const lineSchema = discriminatedUnion('kind', [
    object({ kind: literal('start'), format: schemas_string(), node: schemas_string() }),
    object({
        kind: literal('test'),
        event: schemas_enum(['pass', 'fail']),
        name: schemas_string(),
        nesting: schemas_number().int().nonnegative(),
        file: schemas_string().optional(),
        line: schemas_number().int().optional(),
        column: schemas_number().int().optional(),
        suite: schemas_boolean(),
        skip: flagSchema,
        todo: flagSchema,
        duration_ms: schemas_number().optional(),
        error: errorSchema.optional(),
        stderr: array(schemas_string()).optional()
    }),
    object({ kind: literal('diagnostic'), nesting: schemas_number().int(), file: schemas_string().optional(), message: schemas_string() }),
    object({ kind: literal('end'), format: schemas_string(), tests: schemas_number().int(), diagnostics: schemas_number().int() })
]);
function readLines(text, problems) {
    const lines = [];
    const raw = text.split('\n');
    if (raw.at(-1) === '') {
        raw.pop();
    }
    raw.forEach((line, index) => {
        let value;
        try {
            value = JSON.parse(line);
        }
        catch {
            problems.push(`${NODE_TEST_RESULTS_FILE} line ${index + 1} is not JSON`);
            return;
        }
        const parsed = lineSchema.safeParse(value);
        if (parsed.success) {
            lines.push(parsed.data);
        }
        else {
            problems.push(`${NODE_TEST_RESULTS_FILE} line ${index + 1} is malformed: ${prettifyError(parsed.error).replace(/\s+/g, ' ')}`);
        }
    });
    return lines;
}
/** Rebuilds node's test tree from its post-order events, per file. */
function buildTrees(events, problems) {
    const pendingByFile = new Map();
    const roots = [];
    for (const event of events) {
        const key = event.file ?? '';
        const pending = pendingByFile.get(key) ?? new Map();
        pendingByFile.set(key, pending);
        const node = { event, children: pending.get(event.nesting + 1) ?? [] };
        pending.delete(event.nesting + 1);
        if (event.nesting === 0) {
            roots.push(node);
        }
        else {
            pending.set(event.nesting, [...(pending.get(event.nesting) ?? []), node]);
        }
    }
    for (const [file, pending] of pendingByFile) {
        for (const [nesting, nodes] of pending) {
            problems.push(`${nodes.length} test(s) at nesting ${nesting} in '${file}' were never closed by a parent`);
        }
    }
    return roots;
}
function isFileLevel(event) {
    return event.nesting === 0 && event.file !== undefined && event.name === event.file;
}
function ownFailure(event) {
    return event.event === 'fail' && event.error?.failureType !== 'subtestsFailed';
}
function reason(flag, fallback) {
    return typeof flag === 'string' && flag !== '' ? flag : fallback;
}
function fileFailure(event) {
    const stderr = event.stderr ?? [];
    const errorLine = stderr.map((line) => line.trim()).find((line) => STDERR_ERROR_LINE.test(line));
    const kind = stderr.some((line) => IMPORT_FAILURE.test(line)) ? 'import_error' : 'collection_error';
    const exit = event.error?.signal ? `signal ${event.error.signal}` : `exit code ${event.error?.exitCode ?? 'unknown'}`;
    return { kind, message: messageLine(errorLine) ?? `test file failed to run (${exit})` };
}
function failureKind(event, ancestors, scope) {
    const error = event.error;
    switch (error?.failureType) {
        case 'hookFailed':
            return 'setup_error';
        case 'testTimeoutFailure':
            return 'timeout';
        case 'cancelledByParent': {
            // A test cancelled because its suite's `before` hook or body failed never ran at all.
            const cause = [...ancestors].reverse().find(ownFailure);
            if (cause?.error?.failureType === 'hookFailed') {
                return 'setup_error';
            }
            return cause?.suite && cause.error?.failureType === 'testCodeFailure' ? 'collection_error' : 'timeout';
        }
    }
    if (event.suite) {
        return 'collection_error';
    }
    const cause = error?.cause;
    if (error?.code === 'ERR_ASSERTION' || cause?.code === 'ERR_ASSERTION' || cause?.name === 'AssertionError') {
        return 'assertion';
    }
    return exceptionSite(v8StackFiles(cause?.stack), scope);
}
function failureMessage(event) {
    const error = event.error;
    const cause = error?.cause;
    if (cause?.name === undefined || cause.message === undefined) {
        return messageLine(error?.message ?? cause?.message);
    }
    const thrown = `${cause.name}: ${messageLine(cause.message) ?? ''}`;
    // Node's own message says which hook failed ("failed running before hook"); the cause says why.
    return messageLine(error?.failureType === 'hookFailed' && error.message ? `${messageLine(error.message)}: ${thrown}` : thrown);
}
function toResult(node, ancestors, scope) {
    const { event } = node;
    const file = event.file === undefined ? '<no file>' : (repoRelative(scope.workdir, event.file) ?? event.file);
    const fileLevel = isFileLevel(event);
    const id = fileLevel ? file : [file, ...ancestors.map((parent) => parent.name), event.name].join(ID_SEPARATOR);
    const location = event.line === undefined ? file : `${file}:${event.line}`;
    if (event.todo !== undefined) {
        return { id, status: 'skipped', location, skip_reason: `todo: ${reason(event.todo, 'no reason given')}` };
    }
    if (event.skip !== undefined) {
        return { id, status: 'skipped', location, skip_reason: reason(event.skip, 'skipped') };
    }
    if (event.event === 'pass') {
        return { id, status: 'passed', location };
    }
    const failure = fileLevel ? fileFailure(event) : { kind: failureKind(event, ancestors, scope), message: failureMessage(event) };
    return failed({ id, status: 'errored', location }, failure.kind, failure.message, scope.workdir);
}
/** `result` as a failure of `kind`, with its message's copy paths made repository-relative. */
function failed(result, kind, message, workdir) {
    const line = messageLine(message, workdir);
    return { ...result, status: statusForFailure(kind), failure_kind: kind, ...(line === undefined ? {} : { message: line }) };
}
function isFailing(result) {
    return result.status === 'failed' || result.status === 'errored';
}
/**
 * Collects the results under `node` and returns how many of them fail. Only leaves are tests, so
 * the set of ids does not depend on outcomes; a parent's own failure is handed down to its leaves
 * that passed (an `after` hook that throws fails the tests it serves), and only when no leaf
 * took it (all skipped) does the parent stand as a test of its own.
 */
function collectResults(node, ancestors, inherited, scope, out) {
    const { event } = node;
    if (node.children.length === 0) {
        const ranNothing = event.event === 'pass' && event.skip === undefined && event.todo === undefined;
        if ((isFileLevel(event) || event.suite) && ranNothing) {
            return 0;
        }
        let result = toResult(node, ancestors, scope);
        const cancelled = event.error?.failureType === 'cancelledByParent';
        if (inherited !== undefined && (result.status === 'passed' || cancelled)) {
            const message = `'${inherited.name}' failed: ${inherited.message ?? inherited.kind}`;
            // A cancelled test keeps its own kind (a cancelled test never asserted anything); it only learns why.
            result = failed(result, cancelled ? (result.failure_kind ?? 'unknown') : inherited.kind, message, scope.workdir);
        }
        out.push(result);
        return isFailing(result) ? 1 : 0;
    }
    const own = ownFailure(event)
        ? { name: event.name, kind: failureKind(event, ancestors, scope), message: failureMessage(event) }
        : undefined;
    let failing = 0;
    for (const child of node.children) {
        failing += collectResults(child, [...ancestors, event], own ?? inherited, scope, out);
    }
    if (own !== undefined && failing === 0) {
        out.push(toResult(node, ancestors, scope));
        return 1;
    }
    return failing;
}
function readTotals(diagnostics) {
    const found = new Map();
    for (const diagnostic of diagnostics) {
        const match = /^(tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(diagnostic.message);
        if (diagnostic.nesting === 0 && diagnostic.file === undefined && match?.[1] !== undefined && match[2] !== undefined) {
            found.set(match[1], Number(match[2]));
        }
    }
    const value = (key) => found.get(key);
    const [tests, pass, fail, cancelled, skipped, todo] = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'].map(value);
    if (tests === undefined || pass === undefined || fail === undefined || cancelled === undefined || skipped === undefined || todo === undefined) {
        return undefined;
    }
    return { tests, pass, fail, cancelled, skipped, todo };
}
function category(event) {
    if (event.todo !== undefined || event.skip !== undefined) {
        return 'skipped';
    }
    return event.event === 'pass' ? 'passed' : 'notPassed';
}
/**
 * Node's totals restated for the tests PatchProof counts. Node counts every non-suite test,
 * parents and whole files included; the restatement takes away what node counted in the lines read
 * and adds the parsed tests, so it equals the parsed counts exactly when node's totals agree with
 * the lines, and a lost or forged line shows as a difference. Node does not tell an assertion
 * failure from another error, so its not-passed total is split the way the parsed tests split it.
 */
function claimedCounts(totals, events, tests) {
    const restated = {
        passed: totals.pass,
        notPassed: totals.fail + totals.cancelled,
        skipped: totals.skipped + totals.todo
    };
    for (const event of events) {
        if (!event.suite) {
            restated[category(event)] -= 1;
        }
    }
    const parsed = countTests(tests);
    restated.passed += parsed.passed;
    restated.notPassed += parsed.failed + parsed.errored;
    restated.skipped += parsed.skipped;
    const failed = Math.max(0, Math.min(parsed.failed, restated.notPassed));
    return { passed: restated.passed, failed, errored: restated.notPassed - failed, skipped: restated.skipped };
}
function checkExitCode(exitCode, tests, problems) {
    const failing = tests.some((test) => test.status === 'failed' || test.status === 'errored');
    if (exitCode === null) {
        problems.push('node --test did not exit normally');
    }
    else if (exitCode === 0 && failing) {
        problems.push('node --test exited 0 although tests failed');
    }
    else if (exitCode !== 0 && !failing) {
        problems.push(`node --test exited ${exitCode} although no test failed`);
    }
}
function capProblems(problems) {
    return problems.length <= PROBLEM_LIMIT
        ? problems
        : [...problems.slice(0, PROBLEM_LIMIT), `and ${problems.length - PROBLEM_LIMIT} more problems`];
}
function parseNodeTest(request) {
    const text = request.files[NODE_TEST_RESULTS_FILE];
    if (text === undefined) {
        return { tests: [], problems: [`${NODE_TEST_RESULTS_FILE} is missing: node --test wrote no results`] };
    }
    const problems = [];
    const lines = readLines(text, problems);
    const start = lines[0];
    const end = lines.at(-1);
    if (start?.kind !== 'start' || start.format !== NODE_TEST_REPORT_FORMAT) {
        problems.push(`${NODE_TEST_RESULTS_FILE} does not begin with a ${NODE_TEST_REPORT_FORMAT} start line`);
    }
    const events = lines.filter((line) => line.kind === 'test');
    const diagnostics = lines.flatMap((line) => (line.kind === 'diagnostic' ? [line] : []));
    if (end?.kind !== 'end') {
        problems.push(`${NODE_TEST_RESULTS_FILE} has no end line: the run was cut off or the file truncated`);
    }
    else if (end.tests !== events.length || end.diagnostics !== diagnostics.length) {
        problems.push(`${NODE_TEST_RESULTS_FILE} end line counts ${end.tests} tests and ${end.diagnostics} diagnostics; read ${events.length} and ${diagnostics.length}`);
    }
    const roots = buildTrees(events, problems);
    const testFiles = new Set(events.flatMap((event) => (event.file === undefined ? [] : [repoRelative(request.workdir, event.file) ?? event.file])));
    const scope = { workdir: request.workdir, testRoots: request.testRoots, testFiles };
    const collected = [];
    for (const root of roots) {
        collectResults(root, [], undefined, scope, collected);
    }
    const tests = [];
    const seen = new Set();
    const duplicates = new Set();
    for (const result of collected) {
        if (seen.has(result.id)) {
            duplicates.add(result.id);
        }
        else {
            seen.add(result.id);
            tests.push(result);
        }
    }
    for (const id of duplicates) {
        problems.push(`duplicate test id '${id}'`);
    }
    for (const event of events) {
        if (event.file === undefined) {
            problems.push(`test '${event.name}' has no file`);
        }
    }
    const totals = readTotals(diagnostics);
    if (totals === undefined) {
        problems.push("node's closing totals (tests/pass/fail/cancelled/skipped/todo) are missing");
    }
    checkExitCode(request.exitCode, tests, problems);
    return {
        tests,
        ...(totals === undefined ? {} : { claimed: claimedCounts(totals, events, tests) }),
        problems: capProblems(problems)
    };
}
function nodeTestCommand(request) {
    const { workdir, resultsDir } = request.view;
    const files = request.files ?? [];
    if (request.files !== undefined) {
        checkTestFiles(request.files, request.testRoot);
    }
    return {
        argv: [
            'node',
            '--test',
            `--test-reporter=${external_node_path_default().posix.join(workdir, HARNESS_DIR, NODE_TEST_REPORTER_FILE)}`,
            `--test-reporter-destination=${external_node_path_default().posix.join(resultsDir, NODE_TEST_RESULTS_FILE)}`,
            '--test-reporter=spec',
            '--test-reporter-destination=stdout',
            // A relative path starting with '-' would read as an option.
            ...files.map((file) => (file.startsWith('-') ? `./${file}` : file))
        ],
        env: { TZ: 'UTC', LANG: 'C.UTF-8', NO_COLOR: '1' }
    };
}
/** The node-test adapter (stateless). */
const nodeTestAdapter = {
    name: 'node-test',
    harness: { [NODE_TEST_REPORTER_FILE]: NODE_TEST_REPORTER_SOURCE },
    isTestFile: isNodeTestFile,
    command: nodeTestCommand,
    parse: parseNodeTest
};

;// CONCATENATED MODULE: ./src/adapters/unittest-harness.ts
/**
 * The Python harness the unittest adapter stages as `.patchproof/harness/patchproof_unittest.py`.
 *
 * unittest has no structured output, so the harness runs discovery itself (as `python -m unittest
 * discover` would from the repository root, or over the staged external tests with `--start`)
 * with a TestResult that records, per test: its id, status (passed, failed, errored, skipped,
 * expected_failure, unexpected_success), the exception's type, whether it is the test's
 * failureException, its traceback frames, and whether a setUp/tearDown or cleanup raised it.
 * Subtests fold into their test (the first failure stands). Import failures of test modules
 * (unittest.loader._FailedTest) are recorded with the original exception read back from
 * unittest's message; class and module fixture errors (suite._ErrorHolder) with their fixture.
 * The JSON is written atomically at the end, with unittest's own tallies under `claimed`.
 */
/** Name of the staged harness; it must not match unittest's `test*.py` discovery pattern. */
const UNITTEST_HARNESS_FILE = 'patchproof_unittest.py';
/** The `format` tag of the harness's JSON. */
const UNITTEST_REPORT_FORMAT = 'patchproof-unittest/1';
/** Source of the harness (Python 3, standard library only). */
const UNITTEST_HARNESS_SOURCE = String.raw `"""PatchProof unittest harness: runs unittest discovery and writes one JSON result per test.

Generated from src/adapters/unittest-harness.ts and staged by PatchProof into a disposable
repository copy. Standard library only; tested on Python 3.11, 3.12 and 3.13.
Exit status: 0 when tests ran and all passed, 1 when any failed, 2 on a harness error,
5 when no test was found (as unittest does from 3.12 on).
"""
import argparse
import inspect
import json
import os
import re
import sys
import time
import traceback
import unittest

FORMAT = "${UNITTEST_REPORT_FORMAT}"
MAX_TEXT = 2000
MAX_FRAMES = 64
FIXTURE_METHODS = ("setUp", "tearDown", "asyncSetUp", "asyncTearDown")
RANK = {None: -1, "passed": 0, "skipped": 1, "expected_failure": 1, "unexpected_success": 2, "failed": 2, "errored": 3}
CLEANUP_FUNCTIONS = ("doCleanups", "_callCleanup", "doClassCleanups", "doModuleCleanups")
FILE_LINE = re.compile(r'^\s*File "(.+)", line (\d+)')
EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*)(?::|$)")


def clip(text):
    text = str(text)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT]


def frames_of(tb):
    return [{"file": os.path.abspath(f.filename), "line": f.lineno, "function": f.name}
            for f in traceback.extract_tb(tb)][-MAX_FRAMES:]


def import_failure(message):
    """unittest wraps every import failure in an ImportError whose message is the traceback text."""
    lines = [line for line in message.splitlines() if line.strip()]
    frames = []
    for line in lines:
        match = FILE_LINE.match(line)
        if match:
            frames.append({"file": os.path.abspath(match.group(1)), "line": int(match.group(2)), "function": None})
    last = lines[-1] if lines else "ImportError"
    match = EXCEPTION_LINE.match(last)
    type_name = match.group(1).rsplit(".", 1)[-1] if match else "ImportError"
    return {"type": type_name, "failure_exception": False, "message": clip(last), "frames": frames[-MAX_FRAMES:]}


def describe_exception(test, err):
    exc_type, exc_value, tb = err
    failure_exception = getattr(test, "failureException", AssertionError)
    parts = traceback.format_exception_only(exc_type, exc_value)
    # A SyntaxError's "Type: message" line comes after its source lines; other types start with it.
    message = (parts[-1] if issubclass(exc_type, SyntaxError) else parts[0]).strip()
    return {
        "type": exc_type.__name__,
        "failure_exception": isinstance(failure_exception, type) and issubclass(exc_type, failure_exception),
        "message": clip(message),
        "frames": frames_of(tb),
    }


def fixture_phase(test, tb):
    """Which part of a test raised: a setUp/tearDown method, a cleanup, or the test itself."""
    codes = {}
    for name in FIXTURE_METHODS:
        function = getattr(type(test), name, None)
        code = getattr(function, "__code__", None)
        if code is not None and not code.co_filename.startswith(os.path.dirname(unittest.__file__)):
            codes[code] = name
    for frame, _ in traceback.walk_tb(tb):
        if frame.f_code in codes:
            return codes[frame.f_code]
        if frame.f_code.co_name in CLEANUP_FUNCTIONS and frame.f_code.co_filename.startswith(
                os.path.dirname(unittest.__file__)):
            return "cleanup"
    return None


def test_source(test):
    """The file and first line of a test method, where Python can tell."""
    try:
        method = inspect.unwrap(getattr(type(test), test._testMethodName))
        code = method.__code__
        return os.path.abspath(code.co_filename), code.co_firstlineno
    except Exception:
        pass
    try:
        return os.path.abspath(inspect.getfile(type(test))), None
    except Exception:
        return None, None


class RecordingResult(unittest.TextTestResult):
    """A TextTestResult that also keeps one record per test (subtests fold into their test)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.records = []
        self.open = {}
        # Started tests by id(); holding them keeps ids unique (TestSuite drops tests once run,
        # and a freed test's id() can come back as another object's).
        self.started = {}

    def record(self, test):
        key = id(test)
        if key not in self.open:
            entry = {"id": test.id(), "origin": "test", "status": None, "exception": None,
                     "skip_reason": None, "file": None, "line": None, "phase": None, "subtests_failed": 0}
            if isinstance(test, unittest.loader._FailedTest):
                entry["id"] = test._testMethodName
                entry["origin"] = "load_failure"
            elif isinstance(test, unittest.suite._ErrorHolder):
                entry["origin"] = "fixture"
                entry["phase"] = test.description.split(" ", 1)[0]
            else:
                entry["file"], entry["line"] = test_source(test)
            self.open[key] = entry
        return self.open[key]

    def finish(self, test):
        entry = self.open.pop(id(test), None)
        if entry is None:
            return
        if entry["status"] is None:
            entry["status"] = "errored"
            entry["exception"] = {"type": "NoOutcome", "failure_exception": False,
                                  "message": "the test reported no outcome", "frames": []}
        self.records.append(entry)

    def settle(self, test, status, err=None, skip_reason=None):
        subtest = None
        if isinstance(test, unittest.case._SubTest):
            subtest, test = test, test.test_case
        entry = self.record(test)
        # The worst outcome stands (an error over a failure, as unittest's own tallies count it);
        # between equals, the first.
        if RANK[status] > RANK[entry["status"]]:
            entry["status"] = status
            entry["skip_reason"] = skip_reason
            entry["exception"] = None
            if err is not None:
                if entry["origin"] == "load_failure" and isinstance(err[1], ImportError) \
                        and str(err[1]).startswith("Failed to import test module:"):
                    entry["exception"] = import_failure(str(err[1]))
                else:
                    entry["exception"] = describe_exception(test, err)
                    if subtest is not None:
                        entry["exception"]["message"] = clip(
                            "%s: %s" % (subtest._subDescription(), entry["exception"]["message"]))
                    if entry["origin"] == "test":
                        entry["phase"] = fixture_phase(test, err[2])
        # Fixture errors, and tests skipped by decorator on 3.12, never pass through startTest/stopTest.
        if entry["origin"] == "fixture" or id(test) not in self.started:
            self.finish(test)

    def startTest(self, test):
        super().startTest(test)
        self.started[id(test)] = test
        self.record(test)

    def stopTest(self, test):
        super().stopTest(test)
        self.finish(test)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.settle(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.settle(test, "failed", err)

    def addError(self, test, err):
        super().addError(test, err)
        self.settle(test, "errored", err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.settle(test, "skipped", skip_reason=str(reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.settle(test, "expected_failure", skip_reason="expected_failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.settle(test, "unexpected_success")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.settle(subtest, "failed" if issubclass(err[0], test.failureException) else "errored", err)
            self.record(test)["subtests_failed"] += 1

    def native_counts(self):
        """unittest's own tallies, folded per test (a subtest counts for its test), for reconciliation."""
        def key(test):
            return id(test.test_case if isinstance(test, unittest.case._SubTest) else test)
        errored = {key(test) for test, _ in self.errors}
        failed = {key(test) for test, _ in self.failures} | {key(test) for test in self.unexpectedSuccesses}
        failed -= errored
        skipped = {key(test) for test, _ in self.skipped} | {key(test) for test, _ in self.expectedFailures}
        skipped -= errored | failed
        # testsRun counts started tests only (3.12 does not start tests skipped by decorator).
        not_passed_run = len((errored | failed | skipped) & self.started.keys())
        return {"passed": self.testsRun - not_passed_run, "failed": len(failed),
                "errored": len(errored), "skipped": len(skipped)}


def write_results(path, payload):
    directory = os.path.dirname(path) or "."
    temporary = os.path.join(directory, ".%s.partial" % os.path.basename(path))
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(payload, handle, ensure_ascii=False)
    os.replace(temporary, path)


def main(argv):
    parser = argparse.ArgumentParser(prog="patchproof_unittest")
    parser.add_argument("--repo", required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("--start")
    parser.add_argument("--top")
    parser.add_argument("--pattern", default="test*.py")
    args = parser.parse_args(argv)

    repo = os.path.abspath(args.repo)
    start = os.path.abspath(args.start) if args.start else repo
    top = os.path.abspath(args.top) if args.top else start
    os.chdir(repo)
    # sys.path[0] is this harness's folder; the repository root takes its place, as with
    # 'python -m unittest' run from the root. The test folder follows it, so a staged test
    # imports the repository's modules and not a same-named file of its own folder.
    sys.path[0:1] = [repo] if top == repo else [repo, top]

    payload = {"format": FORMAT, "python": sys.version.split()[0], "complete": False, "fatal": None,
               "tests": [], "testsRun": 0, "failures": 0, "errors": 0, "skipped": 0,
               "expectedFailures": 0, "unexpectedSuccesses": 0}
    started = time.monotonic()
    try:
        suite = unittest.defaultTestLoader.discover(start, pattern=args.pattern, top_level_dir=top)
    except Exception as error:
        payload["fatal"] = clip("discovery failed: %s: %s" % (type(error).__name__, error))
        write_results(args.results, payload)
        return 2

    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2, resultclass=RecordingResult)
    result = runner.run(suite)
    payload.update({
        "complete": True,
        "tests": result.records,
        "testsRun": result.testsRun,
        "failures": len(result.failures),
        "errors": len(result.errors),
        "skipped": len(result.skipped),
        "expectedFailures": len(result.expectedFailures),
        "unexpectedSuccesses": len(result.unexpectedSuccesses),
        "claimed": result.native_counts(),
        "duration_s": round(time.monotonic() - started, 3),
    })
    write_results(args.results, payload)
    if not result.wasSuccessful():
        return 1
    return 0 if result.records else 5


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
`;

;// CONCATENATED MODULE: ./src/adapters/unittest.ts






/**
 * The unittest adapter: Python's unittest, run through PatchProof's harness (unittest-harness.ts),
 * which writes one JSON document.
 *
 * Status mapping, as for every adapter: an assertion (the test's failureException) is `failed`;
 * any other exception, an import failure, a fixture error is `errored`; skips and expected
 * failures are `skipped` (skip_reason `expected_failure` for the latter). An unexpected success is
 * `failed` with kind `assertion`: the test's own claim that it fails did not hold.
 *
 * Failure kinds: a test module that did not import is `import_error` (ImportError,
 * ModuleNotFoundError) or `collection_error` (SyntaxError or anything else raised while loading);
 * setUpClass/setUpModule/tearDown* fixtures and a test's setUp/tearDown/cleanups are
 * `setup_error`; other exceptions are `exception_in_code` or `exception_in_test` by the innermost
 * traceback frame in the repository (see exceptionSite).
 */
/** Result file the harness writes, relative to the results directory. */
const UNITTEST_RESULTS_FILE = 'unittest.json';
const IMPORT_ERRORS = new Set(['ImportError', 'ModuleNotFoundError']);
const TEST_FIXTURE_PHASES = new Set(['setUp', 'tearDown', 'asyncSetUp', 'asyncTearDown', 'cleanup']);
const PYTHON_TEST_FILE = /^test\w*\.py$/;
/**
 * True for files unittest discovery runs by default: `test*.py` whose name is an importable
 * module name. (Discovery also needs every folder between the start folder and the file to be a
 * package with an `__init__.py`.)
 */
function isUnittestFile(relativePath) {
    return PYTHON_TEST_FILE.test(relativePath.split(/[\\/]/).pop() ?? '');
}
const frameSchema = object({ file: schemas_string(), line: schemas_number().int().nullable(), function: schemas_string().nullable() });
const recordSchema = object({
    id: schemas_string().min(1),
    origin: schemas_enum(['test', 'load_failure', 'fixture']),
    status: schemas_enum(['passed', 'failed', 'errored', 'skipped', 'expected_failure', 'unexpected_success']),
    exception: object({ type: schemas_string(), failure_exception: schemas_boolean(), message: schemas_string(), frames: array(frameSchema) })
        .nullable(),
    skip_reason: schemas_string().nullable(),
    file: schemas_string().nullable(),
    line: schemas_number().int().nullable(),
    phase: schemas_string().nullable(),
    subtests_failed: schemas_number().int().nonnegative()
});
const countSchema = schemas_number().int().nonnegative();
const documentSchema = object({
    format: literal(UNITTEST_REPORT_FORMAT),
    python: schemas_string(),
    complete: schemas_boolean(),
    fatal: schemas_string().nullable(),
    tests: array(recordSchema),
    testsRun: countSchema,
    claimed: object({ passed: countSchema, failed: countSchema, errored: countSchema, skipped: countSchema }).optional()
});
function unittest_failureKind(record, scope) {
    const exception = record.exception;
    if (record.origin === 'load_failure') {
        return exception !== null && IMPORT_ERRORS.has(exception.type) ? 'import_error' : 'collection_error';
    }
    if (record.origin === 'fixture' || (record.phase !== null && TEST_FIXTURE_PHASES.has(record.phase))) {
        return 'setup_error';
    }
    if (record.status === 'unexpected_success' || exception?.failure_exception === true) {
        return 'assertion';
    }
    const frames = (exception?.frames ?? []).map((frame) => frame.file).reverse();
    return exceptionSite(frames, scope);
}
function unittest_location(record, workdir) {
    if (record.file !== null) {
        const file = repoRelative(workdir, record.file) ?? record.file;
        return record.line === null ? file : `${file}:${record.line}`;
    }
    // Import failures and class fixtures have no test method: point at the innermost repository frame.
    const frame = [...(record.exception?.frames ?? [])].reverse().find((candidate) => repoRelative(workdir, candidate.file) !== undefined);
    if (frame === undefined) {
        return undefined;
    }
    const file = repoRelative(workdir, frame.file) ?? frame.file;
    return frame.line === null ? file : `${file}:${frame.line}`;
}
function unittest_toResult(record, scope) {
    const where = unittest_location(record, scope.workdir);
    const base = { id: record.id, ...(where === undefined ? {} : { location: where }) };
    switch (record.status) {
        case 'passed':
            return { ...base, status: 'passed' };
        case 'skipped':
            return { ...base, status: 'skipped', skip_reason: record.skip_reason ?? 'skipped' };
        case 'expected_failure':
            return { ...base, status: 'skipped', skip_reason: 'expected_failure' };
        case 'failed':
        case 'errored':
        case 'unexpected_success': {
            const kind = unittest_failureKind(record, scope);
            const message = record.status === 'unexpected_success'
                ? 'unexpected success: the test is marked expectedFailure but passed'
                : messageLine(record.exception?.message, scope.workdir);
            return { ...base, status: statusForFailure(kind), failure_kind: kind, ...(message === undefined ? {} : { message }) };
        }
    }
}
function expectedExitCode(fatal, tests) {
    if (fatal) {
        return 2;
    }
    if (tests.some((test) => test.status === 'failed' || test.status === 'errored')) {
        return 1;
    }
    return tests.length === 0 ? 5 : 0;
}
function parseUnittest(request) {
    const text = request.files[UNITTEST_RESULTS_FILE];
    if (text === undefined) {
        return { tests: [], problems: [`${UNITTEST_RESULTS_FILE} is missing: the unittest harness wrote no results`] };
    }
    let value;
    try {
        value = JSON.parse(text);
    }
    catch {
        return { tests: [], problems: [`${UNITTEST_RESULTS_FILE} is not valid JSON (truncated or corrupted)`] };
    }
    const parsed = documentSchema.safeParse(value);
    if (!parsed.success) {
        return { tests: [], problems: [`${UNITTEST_RESULTS_FILE} is malformed: ${prettifyError(parsed.error).replace(/\s+/g, ' ')}`] };
    }
    const document = parsed.data;
    const problems = [];
    if (document.fatal !== null) {
        problems.push(`unittest harness: ${document.fatal}`);
    }
    else if (!document.complete) {
        problems.push(`${UNITTEST_RESULTS_FILE} says the run did not complete`);
    }
    const testFiles = new Set(document.tests.flatMap((record) => (record.file === null ? [] : [repoRelative(request.workdir, record.file) ?? record.file])));
    const scope = { workdir: request.workdir, testRoots: request.testRoots, testFiles };
    const tests = [];
    const seen = new Set();
    const duplicates = new Set();
    for (const record of document.tests) {
        if (seen.has(record.id)) {
            duplicates.add(record.id);
            continue;
        }
        seen.add(record.id);
        tests.push(unittest_toResult(record, scope));
    }
    for (const id of duplicates) {
        problems.push(`duplicate test id '${id}'`);
    }
    const expected = expectedExitCode(document.fatal !== null, tests);
    if (request.exitCode !== expected) {
        problems.push(`the unittest harness exited ${request.exitCode ?? 'abnormally'}; its results imply exit code ${expected}`);
    }
    return { tests, ...(document.claimed === undefined ? {} : { claimed: document.claimed }), problems };
}
function unittestCommand(request) {
    const { workdir, resultsDir } = request.view;
    const argv = [
        'python3',
        '-B',
        external_node_path_default().posix.join(workdir, HARNESS_DIR, UNITTEST_HARNESS_FILE),
        '--repo',
        workdir,
        '--results',
        external_node_path_default().posix.join(resultsDir, UNITTEST_RESULTS_FILE)
    ];
    if (request.files !== undefined) {
        const testRoot = request.testRoot;
        checkTestFiles(request.files, testRoot);
        if (testRoot === undefined) {
            throw new ConfigurationError('unittest needs the folder the test files were staged under (testRoot) to discover them');
        }
        checkTestFiles([testRoot], testRoot);
        const skipped = request.files.filter((file) => !isUnittestFile(file));
        if (skipped.length > 0) {
            throw new ConfigurationError(`unittest discovers test*.py modules only; would not run: ${skipped.join(', ')}`);
        }
        const start = external_node_path_default().posix.join(workdir, testRoot);
        argv.push('--start', start, '--top', start);
    }
    return {
        argv,
        env: { PYTHONDONTWRITEBYTECODE: '1', PYTHONHASHSEED: '0', PYTHONNOUSERSITE: '1', PYTHONIOENCODING: 'utf-8', TZ: 'UTC', LANG: 'C.UTF-8' }
    };
}
/** The unittest adapter (stateless). */
const unittestAdapter = {
    name: 'unittest',
    harness: { [UNITTEST_HARNESS_FILE]: UNITTEST_HARNESS_SOURCE },
    isTestFile: isUnittestFile,
    command: unittestCommand,
    parse: parseUnittest
};

;// CONCATENATED MODULE: ./src/adapters/registry.ts





const ADAPTERS = {
    'node-test': nodeTestAdapter,
    unittest: unittestAdapter
};
/** True when `name` is one of ADAPTER_NAMES. */
function isAdapterName(name) {
    return ADAPTER_NAMES.includes(name);
}
/** The adapter called `name`; a ConfigurationError names the accepted ones otherwise. */
function getAdapter(name) {
    if (!isAdapterName(name)) {
        throw new ConfigurationError(`unknown adapter '${name}'; use one of: ${ADAPTER_NAMES.join(', ')}`);
    }
    return ADAPTERS[name];
}

;// CONCATENATED MODULE: external "node:fs/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");
;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: external "node:perf_hooks"
const external_node_perf_hooks_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");
;// CONCATENATED MODULE: ./src/runners/capped-process.ts




/** How long to wait for the output pipes to close once the process has exited. */
const CLOSE_GRACE_MS = 2000;
/**
 * Run `argv` in its own process group and wait until it ends, times out, or exceeds the output
 * cap. Whatever is left of the group when the leader exits is killed too, so nothing it started
 * outlives the run. Throws InfrastructureError when the process cannot be spawned at all.
 */
function runCappedProcess(options) {
    const { argv, cwd, env, timeoutMs, outputLimitBytes } = options;
    const command = argv[0];
    if (command === undefined || command === '') {
        return Promise.reject(new InfrastructureError('cannot run an empty command line'));
    }
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
        return Promise.reject(new InfrastructureError(`timeoutMs must be a positive number, got ${timeoutMs}`));
    }
    if (!Number.isInteger(outputLimitBytes) || outputLimitBytes < 0) {
        return Promise.reject(new InfrastructureError(`outputLimitBytes must be a non-negative integer, got ${outputLimitBytes}`));
    }
    return new Promise((resolve, reject) => {
        const started = external_node_perf_hooks_namespaceObject.performance.now();
        const kept = [];
        let keptBytes = 0;
        let seenBytes = 0;
        let timedOut = false;
        let outputTruncated = false;
        let killReason = null;
        let hook = Promise.resolve();
        let exit = null;
        let finished = false;
        let graceTimer;
        // detached: the child leads a new process group, so one kill(-pid) reaches every descendant
        // that did not deliberately leave the group.
        const child = (0,external_node_child_process_namespaceObject.spawn)(command, argv.slice(1), {
            cwd,
            env,
            detached: true,
            shell: false,
            stdio: ['ignore', 'pipe', 'pipe'],
            windowsHide: true
        });
        const killGroup = () => {
            if (child.pid === undefined)
                return;
            try {
                process.kill(-child.pid, 'SIGKILL');
            }
            catch {
                // ESRCH: the group is already empty.
            }
        };
        const killFor = (reason) => {
            if (killReason !== null || exit !== null)
                return;
            killReason = reason;
            if (reason === 'timeout')
                timedOut = true;
            if (reason === 'output_limit')
                outputTruncated = true;
            killGroup();
            if (options.onKill) {
                const onKill = options.onKill;
                hook = Promise.resolve().then(() => onKill(reason));
            }
        };
        const timer = setTimeout(() => killFor('timeout'), timeoutMs);
        const onAbort = () => killFor('aborted');
        if (options.signal?.aborted) {
            // Checked after spawn so the same cleanup path runs.
            setImmediate(onAbort);
        }
        else {
            options.signal?.addEventListener('abort', onAbort, { once: true });
        }
        const onData = (chunk) => {
            seenBytes += chunk.length;
            if (outputTruncated)
                return;
            const room = outputLimitBytes - keptBytes;
            if (chunk.length <= room) {
                kept.push(chunk);
                keptBytes += chunk.length;
                return;
            }
            if (room > 0) {
                kept.push(chunk.subarray(0, room));
                keptBytes += room;
            }
            // Past the cap: endless output must not fill memory or the run's record.
            outputTruncated = true;
            killFor('output_limit');
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        const finish = () => {
            if (finished)
                return;
            finished = true;
            clearTimeout(timer);
            clearTimeout(graceTimer);
            options.signal?.removeEventListener('abort', onAbort);
            const durationMs = Math.round(external_node_perf_hooks_namespaceObject.performance.now() - started);
            const bytes = Buffer.concat(kept, keptBytes);
            hook.then(() => resolve({
                exitCode: exit?.code ?? null,
                signal: exit?.signal ?? null,
                timedOut,
                outputTruncated,
                output: bytes.toString('utf8'),
                outputBytes: seenBytes,
                outputSha256: (0,external_node_crypto_namespaceObject.createHash)('sha256').update(bytes).digest('hex'),
                durationMs
            }), (error) => reject(error instanceof InfrastructureError
                ? error
                : new InfrastructureError(`cleanup after ${killReason ?? 'kill'} failed: ${String(error)}`, { cause: error })));
        };
        child.on('error', (error) => {
            if (child.pid === undefined && !finished) {
                finished = true;
                clearTimeout(timer);
                options.signal?.removeEventListener('abort', onAbort);
                reject(new InfrastructureError(`cannot start '${command}' in ${cwd}: ${error.code ?? error.message}`, { cause: error }));
            }
        });
        child.on('exit', (code, signal) => {
            exit = { code, signal };
            // The leader is gone: background children it left in the group must not outlive the run.
            killGroup();
            // A descendant that left the group can hold the pipes open forever; stop waiting for it.
            graceTimer = setTimeout(() => {
                child.stdout.destroy();
                child.stderr.destroy();
                finish();
            }, CLOSE_GRACE_MS);
        });
        child.on('close', () => {
            if (exit !== null)
                finish();
        });
    });
}

;// CONCATENATED MODULE: ./src/runners/local-runner.ts





/**
 * The trusted-local runner: runs the test command directly on the host. It contains nothing (the
 * candidate can read and write whatever the user can), so it is declared `isolated: false` and a
 * run through it is never proof grade. It still gives every run a clean environment, a fresh
 * HOME/TMPDIR, a timeout and an output cap, and kills the whole process group afterwards.
 */
/** The settings the receipt records for the local runner. */
const LOCAL_RUNNER_SETTINGS = [
    'isolation=none',
    'env=request+PATH,HOME,TMPDIR',
    'home=fresh-temp-dir',
    'kill=process-group'
];
/** Create the trusted-local runner (never proof grade). */
function createLocalRunner() {
    const live = new Set();
    const description = { kind: 'local', isolated: false, settings: [...LOCAL_RUNNER_SETTINGS] };
    return {
        description,
        view(hostWorkdir, hostResultsDir) {
            return { workdir: hostWorkdir, resultsDir: hostResultsDir };
        },
        async run(request) {
            const home = await (0,promises_namespaceObject.mkdtemp)((0,external_node_path_namespaceObject.join)((0,external_node_os_namespaceObject.tmpdir)(), 'patchproof-home-'));
            const controller = new AbortController();
            live.add(controller);
            try {
                return await runCappedProcess({
                    argv: request.argv,
                    cwd: request.hostWorkdir,
                    env: localEnv(request.env, home),
                    timeoutMs: request.timeoutMs,
                    outputLimitBytes: request.outputLimitBytes,
                    signal: controller.signal
                });
            }
            finally {
                live.delete(controller);
                await removeTree(home);
            }
        },
        async dispose() {
            for (const controller of live)
                controller.abort();
        }
    };
}
/**
 * The environment of a local test process: the requested entries, the host's PATH unless the
 * request sets one, and HOME/TMPDIR forced to the run's own temp dir. Nothing else of the host's
 * environment (tokens, SSH agent sockets, cloud credentials) reaches the test process.
 */
function localEnv(requested, home) {
    const env = { ...requested };
    if (env.PATH === undefined && process.env.PATH !== undefined)
        env.PATH = process.env.PATH;
    env.HOME = home;
    env.TMPDIR = home;
    return env;
}
/** Remove a temp tree, even when the test left read-only directories in it (e.g. tool caches). */
async function removeTree(path) {
    try {
        await (0,promises_namespaceObject.rm)(path, { recursive: true, force: true, maxRetries: 2 });
        return;
    }
    catch {
        await makeWritable(path);
    }
    try {
        await (0,promises_namespaceObject.rm)(path, { recursive: true, force: true, maxRetries: 2 });
    }
    catch (error) {
        throw new InfrastructureError(`cannot remove the run's temp dir ${path}`, { cause: error });
    }
}
async function makeWritable(path) {
    try {
        await (0,promises_namespaceObject.chmod)(path, 0o700);
        for (const entry of await (0,promises_namespaceObject.readdir)(path, { withFileTypes: true })) {
            if (entry.isDirectory())
                await makeWritable((0,external_node_path_namespaceObject.join)(path, entry.name));
        }
    }
    catch {
        // Best effort: the retry reports what is still in the way.
    }
}

;// CONCATENATED MODULE: ./src/runners/docker-args.ts

/**
 * The `docker run` argument list: a pure function of a typed settings object, so every
 * security-relevant flag is unit-tested and nothing else decides what reaches the daemon.
 */
/** Where the repository copy is mounted (read-only) and the process starts. */
const CONTAINER_WORKDIR = '/patchproof/repo';
/** The only writable bind mount. */
const CONTAINER_RESULTS_DIR = '/patchproof/results';
/** `nobody:nogroup`: owns nothing in the image or on the host. */
const DEFAULT_USER = '65534:65534';
/** Processes and threads in the container; stops fork bombs (Node alone starts ~11 threads). */
const DEFAULT_PIDS_LIMIT = 512;
/** Memory in MiB, swap included (memory-swap = memory: no swap); tmpfs pages count against it. */
const DEFAULT_MEMORY_MIB = 2048;
/** CPUs the container may use. */
const DEFAULT_CPUS = 2;
/** Size of the tmpfs at /tmp (HOME and TMPDIR), in MiB. */
const DEFAULT_TMPFS_MIB = 256;
/** Size of the private /dev/shm, in MiB (POSIX semaphores and shared memory). */
const DEFAULT_SHM_MIB = 64;
/** Largest single file the process may write (RLIMIT_FSIZE), in MiB. */
const DEFAULT_FILE_SIZE_MIB = 128;
/** Seconds `docker stop` (and a daemon shutdown) waits before SIGKILL. */
const DEFAULT_STOP_TIMEOUT_SECONDS = 1;
/** The label every PatchProof container carries, so leftovers can be found and removed. */
const PATCHPROOF_LABEL = 'patchproof';
/** The default limits, each documented above. */
const DEFAULT_DOCKER_LIMITS = Object.freeze({
    pidsLimit: DEFAULT_PIDS_LIMIT,
    memoryMiB: DEFAULT_MEMORY_MIB,
    cpus: DEFAULT_CPUS,
    tmpfsMiB: DEFAULT_TMPFS_MIB,
    shmMiB: DEFAULT_SHM_MIB,
    fileSizeMiB: DEFAULT_FILE_SIZE_MIB,
    tmpNoexec: true
});
const IMAGE_ID = /^sha256:[0-9a-f]{64}$/;
const CONTAINER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/;
const USER = /^[0-9]{1,10}:[0-9]{1,10}$/;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LABEL_KEY = /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/;
/**
 * The security flags, in the order they are passed: shared by `buildDockerRunArgs` and
 * `describeDockerSettings` so the receipt records exactly what ran.
 */
function securityFlags(limits, user) {
    const tmpOptions = ['rw', 'nosuid', 'nodev', ...(limits.tmpNoexec ? ['noexec'] : []), `size=${limits.tmpfsMiB}m`, 'mode=1777'];
    return [
        // Never fetch anything: the image must already be the local one whose ID was pinned.
        '--pull=never',
        // No interface but loopback: no exfiltration, no callbacks, no reaching host services.
        '--network=none',
        '--read-only',
        `--user=${user}`,
        '--cap-drop=ALL',
        // setuid binaries in the image cannot raise privileges back.
        '--security-opt=no-new-privileges',
        `--pids-limit=${limits.pidsLimit}`,
        `--memory=${limits.memoryMiB}m`,
        // Equal to --memory: no swap, so a memory bomb is OOM-killed instead of thrashing the host.
        `--memory-swap=${limits.memoryMiB}m`,
        `--cpus=${limits.cpus}`,
        `--tmpfs=/tmp:${tmpOptions.join(',')}`,
        // A private IPC namespace. `--ipc=none` also isolates but leaves no /dev/shm, which breaks
        // Python's multiprocessing locks; private mounts a capped nosuid,nodev,noexec /dev/shm.
        '--ipc=private',
        `--shm-size=${limits.shmMiB}m`,
        // Output is read through the attached client only; a log driver would copy endless output
        // into the daemon's log files on the host disk.
        '--log-driver=none',
        // An init as PID 1 forwards signals and reaps orphans, so the test process gets normal
        // signal semantics and zombies of a fork bomb do not pin pids until the container dies.
        '--init',
        // No core dumps: a crash must not hand a file to the host's core_pattern helper.
        '--ulimit=core=0',
        // The results mount is on the host disk: bound every file written there.
        `--ulimit=fsize=${limits.fileSizeMiB * 1024 * 1024}`,
        `--stop-timeout=${DEFAULT_STOP_TIMEOUT_SECONDS}`
    ];
}
/** The security-relevant settings as `flag=value` strings, for `RunnerDescription.settings`. */
function describeDockerSettings(limits, user = DEFAULT_USER) {
    checkLimits(limits);
    checkUser(user);
    return [
        ...securityFlags(limits, user).map((flag) => flag.replace(/^--/, '')),
        `mount=${CONTAINER_WORKDIR}:ro`,
        `mount=${CONTAINER_RESULTS_DIR}:rw`,
        'env=explicit-only'
    ];
}
/**
 * Build the argument list of `docker run` (without the leading `docker`). Every value goes into
 * its own argv entry (`--flag=value`), so no environment value, label or path can add a flag.
 * Throws ConfigurationError for a value that cannot be passed safely.
 */
function buildDockerRunArgs(settings) {
    const workdir = settings.containerWorkdir ?? CONTAINER_WORKDIR;
    const resultsDir = settings.containerResultsDir ?? CONTAINER_RESULTS_DIR;
    const user = settings.user ?? DEFAULT_USER;
    if (!IMAGE_ID.test(settings.imageId)) {
        throw new ConfigurationError(`Invalid image ID '${settings.imageId}'. Expected sha256:<64 hex>.`);
    }
    if (!CONTAINER_NAME.test(settings.containerName)) {
        throw new ConfigurationError(`Invalid container name '${settings.containerName}'. Expected [a-zA-Z0-9][a-zA-Z0-9_.-]*.`);
    }
    checkUser(user);
    checkLimits(settings.limits);
    for (const [what, path] of [
        ['host workdir', settings.hostWorkdir],
        ['host results dir', settings.hostResultsDir],
        ['container workdir', workdir],
        ['container results dir', resultsDir]
    ]) {
        checkMountPath(what, path);
    }
    if (settings.argv.length === 0) {
        throw new ConfigurationError('The container command is empty. Expected at least one argv entry.');
    }
    for (const arg of settings.argv)
        checkNoNul('command argument', arg);
    const labels = { ...settings.labels, [PATCHPROOF_LABEL]: '1' };
    const labelArgs = Object.keys(labels)
        .sort()
        .map((key) => {
        const value = labels[key] ?? '';
        if (!LABEL_KEY.test(key))
            throw new ConfigurationError(`Invalid label key '${key}'. Expected [a-z0-9._-].`);
        if (/[\0\n\r]/.test(value))
            throw new ConfigurationError(`Invalid value for label '${key}': no NUL or newline.`);
        return `--label=${key}=${value}`;
    });
    const envArgs = Object.keys(settings.env)
        .sort()
        .map((key) => {
        const value = settings.env[key] ?? '';
        // `-e KEY` without `=` would copy the value from the docker client's own environment.
        if (!ENV_KEY.test(key))
            throw new ConfigurationError(`Invalid environment variable name '${key}'. Expected [A-Za-z_][A-Za-z0-9_]*.`);
        checkNoNul(`environment variable ${key}`, value);
        return `--env=${key}=${value}`;
    });
    return [
        'run',
        `--name=${settings.containerName}`,
        ...securityFlags(settings.limits, user),
        `--mount=type=bind,source=${settings.hostWorkdir},target=${workdir},readonly`,
        `--mount=type=bind,source=${settings.hostResultsDir},target=${resultsDir}`,
        `--workdir=${workdir}`,
        ...labelArgs,
        ...envArgs,
        settings.imageId,
        ...settings.argv
    ];
}
function checkUser(user) {
    if (!USER.test(user))
        throw new ConfigurationError(`Invalid user '${user}'. Expected numeric uid:gid, e.g. ${DEFAULT_USER}.`);
}
function checkLimits(limits) {
    const positiveInteger = ['pidsLimit', 'memoryMiB', 'tmpfsMiB', 'shmMiB', 'fileSizeMiB'];
    for (const key of positiveInteger) {
        const value = limits[key];
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
            throw new ConfigurationError(`Invalid Docker limit ${key}=${String(value)}. Expected a positive integer.`);
        }
    }
    if (typeof limits.cpus !== 'number' || !Number.isFinite(limits.cpus) || limits.cpus <= 0) {
        throw new ConfigurationError(`Invalid Docker limit cpus=${String(limits.cpus)}. Expected a positive number.`);
    }
    if (typeof limits.tmpNoexec !== 'boolean') {
        throw new ConfigurationError(`Invalid Docker limit tmpNoexec=${String(limits.tmpNoexec)}. Expected true or false.`);
    }
}
function checkMountPath(what, path) {
    // `--mount` is comma-separated key=value text: a comma or quote in a path would add options.
    if (!path.startsWith('/') || /[,"'\0\n\r]/.test(path)) {
        throw new ConfigurationError(`Invalid ${what} '${path}'. Expected an absolute path without commas, quotes or newlines.`);
    }
}
function checkNoNul(what, value) {
    if (value.includes('\0'))
        throw new ConfigurationError(`Invalid ${what}: it contains a NUL byte.`);
}

;// CONCATENATED MODULE: ./src/runners/docker-available.ts


/**
 * Short administrative calls to the Docker client (info, image inspect, kill, rm, ps) and the
 * checks that tell whether Docker and the local test image are there. The test command itself
 * never goes through here: it runs through `runCappedProcess`.
 */
/** The tag `scripts/build-test-image.sh` gives the test image: for lookup only, runs use the ID. */
const TEST_IMAGE_TAG = 'patchproof-test:local';
/**
 * The Docker client's environment: only what it needs to find and talk to the daemon. Keeping the
 * rest out means nothing of the host environment can reach a container, even by a `-e NAME` slip.
 */
function dockerClientEnv() {
    const env = {};
    for (const key of ['PATH', 'HOME', 'DOCKER_HOST', 'DOCKER_CONFIG', 'DOCKER_CONTEXT', 'DOCKER_CERT_PATH', 'DOCKER_TLS_VERIFY']) {
        const value = process.env[key];
        if (value !== undefined)
            env[key] = value;
    }
    return env;
}
/**
 * Run `docker ARGS` and return its exit code and output; never throws for a non-zero exit.
 * Throws InfrastructureError when the client cannot be started (not installed).
 */
function dockerCli(args, timeoutMs = 30_000) {
    return new Promise((resolve, reject) => {
        (0,external_node_child_process_namespaceObject.execFile)('docker', [...args], { env: dockerClientEnv(), timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
            if (error === null) {
                resolve({ code: 0, stdout, stderr });
                return;
            }
            const code = error.code;
            if (typeof code === 'number') {
                resolve({ code, stdout, stderr });
            }
            else if (code === 'ENOENT') {
                reject(new InfrastructureError('the docker client is not installed (not found on PATH)', { cause: error }));
            }
            else if (error.killed) {
                resolve({ code: null, stdout, stderr: `${stderr}\ndocker ${args[0] ?? ''} timed out after ${timeoutMs} ms` });
            }
            else {
                reject(new InfrastructureError(`docker ${args[0] ?? ''} failed: ${error.message}`, { cause: error }));
            }
        });
    });
}
/** Ask the engine for `docker info`; never throws. */
async function dockerStatus() {
    try {
        const result = await dockerCli(['info', '--format', '{{.ServerVersion}}'], 20_000);
        if (result.code === 0 && result.stdout.trim() !== '')
            return { available: true };
        return { available: false, reason: `docker info failed: ${firstLine(result.stderr) || `exit ${String(result.code)}`}` };
    }
    catch (error) {
        return { available: false, reason: error instanceof Error ? error.message : String(error) };
    }
}
/** Look up the image `scripts/build-test-image.sh` tagged `patchproof-test:local`; never throws. */
async function findTestImage() {
    try {
        const result = await dockerCli(['image', 'inspect', '--format', '{{.Id}}', TEST_IMAGE_TAG]);
        const id = result.stdout.trim();
        if (result.code === 0 && /^sha256:[0-9a-f]{64}$/.test(id))
            return { available: true, imageId: id };
        return {
            available: false,
            reason: `test image ${TEST_IMAGE_TAG} not found (${firstLine(result.stderr)}); build it with: bash scripts/build-test-image.sh`
        };
    }
    catch (error) {
        return { available: false, reason: error instanceof Error ? error.message : String(error) };
    }
}
/** Decide how Docker-backed tests proceed; `env` is where CI=true is read. */
async function dockerTestGate(env = process.env) {
    const status = await dockerStatus();
    let problem;
    if (status.available) {
        const image = await findTestImage();
        if (image.available)
            return { mode: 'run', imageId: image.imageId };
        problem = image.reason;
    }
    else {
        problem = status.reason;
    }
    const reason = `Docker tests cannot run: ${problem.replace(/[.?]$/, '')}. Start the engine with scripts/start-docker.sh and build the image with scripts/build-test-image.sh.`;
    return env.CI === 'true' ? { mode: 'fail', reason } : { mode: 'skip', reason };
}
function firstLine(text) {
    return text.trim().split('\n')[0] ?? '';
}

;// CONCATENATED MODULE: ./src/runners/image-ref.ts


const ACCEPTED_FORMS = "Expected name@sha256:<64 hex> or a local image ID sha256:<64 hex> (scripts/build-test-image.sh prints one; or `docker image inspect --format '{{.Id}}' IMAGE`).";
const DIGEST = /^sha256:[0-9a-f]{64}$/;
// Docker reference grammar, simplified: lowercase path components, optional registry host[:port].
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const HOST = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?';
const NAME = new RegExp(`^(?:${HOST}/)?${COMPONENT}(?:/${COMPONENT})*$`);
/** Parse `--image` without touching Docker. Throws ConfigurationError for any other form. */
function parseImageRef(input) {
    if (DIGEST.test(input))
        return { kind: 'id', id: input };
    const at = input.lastIndexOf('@');
    if (at > 0) {
        const name = input.slice(0, at);
        const digest = input.slice(at + 1);
        if (NAME.test(name) && DIGEST.test(digest))
            return { kind: 'digest', name, digest };
    }
    throw new ConfigurationError(`Invalid --image '${input}'. ${ACCEPTED_FORMS}`);
}
/**
 * Resolve `--image` to a local image ID. A digest reference must be one of the local image's
 * RepoDigests; nothing is ever pulled. Throws ConfigurationError for a malformed or missing
 * image, InfrastructureError when Docker cannot be asked.
 */
async function resolveImage(input) {
    const parsed = parseImageRef(input);
    const result = await dockerCli(['image', 'inspect', '--format', '{{json .}}', input]);
    if (result.code !== 0) {
        if (/no such image/i.test(result.stderr)) {
            throw new ConfigurationError(`Image '${input}' is not present locally and PatchProof never pulls. Build the test image with scripts/build-test-image.sh (it prints the ID), or pull/load the image yourself, then pass its ID or name@sha256 digest.`);
        }
        throw new InfrastructureError(`docker image inspect failed: ${result.stderr.trim() || `exit ${String(result.code)}`}`);
    }
    const info = parseInspect(result.stdout);
    if (parsed.kind === 'id') {
        if (info.id !== parsed.id) {
            throw new ConfigurationError(`Image '${input}' resolved to a different image ID (${info.id}). ${ACCEPTED_FORMS}`);
        }
    }
    else {
        const wanted = normalizeName(parsed.name) + '@' + parsed.digest;
        const matches = info.repoDigests.some((entry) => {
            const at = entry.lastIndexOf('@');
            return at > 0 && normalizeName(entry.slice(0, at)) + entry.slice(at) === wanted;
        });
        // Docker can match a digest on the content alone; the name must be part of the pin too.
        if (!matches) {
            throw new ConfigurationError(`Image '${input}' is present locally but its RepoDigests (${info.repoDigests.join(', ') || 'none'}) do not contain that name and digest. ${ACCEPTED_FORMS}`);
        }
    }
    return { ref: input, imageId: info.id };
}
function parseInspect(stdout) {
    let value;
    try {
        value = JSON.parse(stdout);
    }
    catch (error) {
        throw new InfrastructureError('docker image inspect returned text that is not JSON', { cause: error });
    }
    if (typeof value !== 'object' || value === null)
        throw new InfrastructureError('docker image inspect returned no object');
    const record = value;
    const id = record.Id;
    const digests = record.RepoDigests;
    if (typeof id !== 'string' || !DIGEST.test(id))
        throw new InfrastructureError(`docker image inspect returned an unexpected Id: ${String(id)}`);
    const repoDigests = Array.isArray(digests) ? digests.filter((entry) => typeof entry === 'string') : [];
    return { id, repoDigests };
}
/** `python`, `library/python` and `docker.io/library/python` name the same repository. */
function normalizeName(name) {
    let result = name.replace(/^(?:docker\.io|index\.docker\.io)\//, '');
    if (!result.includes('/'))
        result = `library/${result}`;
    return result;
}

;// CONCATENATED MODULE: ./src/runners/docker-runner.ts







/**
 * The hardened Docker runner: every test command runs in a fresh container from a pinned local
 * image, with no network, a read-only root and repository copy, no capabilities, a non-root user
 * and resource caps. The container is removed after every run, whatever happened.
 */
/** Label naming the runner instance that started a container, so `dispose()` finds all of them. */
const RUNNER_ID_LABEL = 'patchproof.runner';
/** Label carrying the request's label (`reproduction_before`...), for logs and lookups. */
const RUN_LABEL = 'patchproof.label';
/**
 * Create the Docker runner. Resolves the image first (ConfigurationError when it is malformed or
 * not present locally; nothing is pulled).
 */
async function createDockerRunner(options) {
    const { image } = options;
    const limits = {
        pidsLimit: options.pidsLimit ?? DEFAULT_DOCKER_LIMITS.pidsLimit,
        memoryMiB: options.memoryMiB ?? DEFAULT_DOCKER_LIMITS.memoryMiB,
        cpus: options.cpus ?? DEFAULT_DOCKER_LIMITS.cpus,
        tmpfsMiB: options.tmpfsMiB ?? DEFAULT_DOCKER_LIMITS.tmpfsMiB,
        shmMiB: options.shmMiB ?? DEFAULT_DOCKER_LIMITS.shmMiB,
        fileSizeMiB: options.fileSizeMiB ?? DEFAULT_DOCKER_LIMITS.fileSizeMiB,
        tmpNoexec: options.tmpNoexec ?? DEFAULT_DOCKER_LIMITS.tmpNoexec
    };
    const settings = describeDockerSettings(limits, DEFAULT_USER);
    const resolved = await resolveImage(image);
    return new DockerRunner(resolved.ref, resolved.imageId, limits, settings);
}
class DockerRunner {
    imageId;
    limits;
    description;
    runnerId = (0,external_node_crypto_namespaceObject.randomBytes)(8).toString('hex');
    /** Containers of runs in flight, with the controller that kills their client. */
    live = new Map();
    constructor(image, imageId, limits, settings) {
        this.imageId = imageId;
        this.limits = limits;
        this.description = { kind: 'docker', isolated: true, image, image_id: imageId, settings };
    }
    view() {
        return { workdir: CONTAINER_WORKDIR, resultsDir: CONTAINER_RESULTS_DIR };
    }
    async run(request) {
        await checkDirectory(request.hostWorkdir);
        await prepareResultsDir(request.hostResultsDir);
        const containerName = `patchproof-${request.label.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 40)}-${(0,external_node_crypto_namespaceObject.randomBytes)(6).toString('hex')}`;
        const args = buildDockerRunArgs({
            imageId: this.imageId,
            containerName,
            hostWorkdir: request.hostWorkdir,
            hostResultsDir: request.hostResultsDir,
            limits: this.limits,
            // Inside the read-only root only /tmp is writable: HOME and TMPDIR must point there.
            env: { ...request.env, HOME: '/tmp', TMPDIR: '/tmp' },
            argv: request.argv,
            labels: { [RUNNER_ID_LABEL]: this.runnerId, [RUN_LABEL]: request.label.replace(/[\0\n\r]/g, ' ') }
        });
        const controller = new AbortController();
        this.live.set(containerName, controller);
        let killed = false;
        try {
            const outcome = await runCappedProcess({
                argv: ['docker', ...args],
                cwd: request.hostWorkdir,
                env: dockerClientEnv(),
                timeoutMs: request.timeoutMs,
                outputLimitBytes: request.outputLimitBytes,
                signal: controller.signal,
                onKill: async () => {
                    killed = true;
                    // Killing the client does not stop the container: kill it through the daemon.
                    await dockerCli(['kill', containerName]).catch(() => undefined);
                }
            });
            if (!killed && outcome.exitCode === 125 && !(await startedAndExited125(containerName))) {
                throw new InfrastructureError(`docker run failed (exit 125): ${outcome.output.trim().split('\n')[0] ?? ''}`);
            }
            return outcome;
        }
        finally {
            this.live.delete(containerName);
            await removeContainers([containerName]);
        }
    }
    async dispose() {
        for (const controller of this.live.values())
            controller.abort();
        // By label as well as by name: a container the daemon finished creating after its client was
        // killed (and after that run's own `rm -f`) is still found and removed.
        const listed = await dockerCli(['ps', '-aq', '--filter', `label=${RUNNER_ID_LABEL}=${this.runnerId}`]);
        const ids = listed.code === 0 ? listed.stdout.split('\n').filter((line) => line.trim() !== '') : [];
        await removeContainers([...this.live.keys(), ...ids]);
    }
}
/**
 * Install SIGINT/SIGTERM handlers (for the CLI) that dispose the runners, then exit with 130 or
 * 143. A second signal while disposing exits at once. Returns a function that uninstalls them.
 */
function installSignalCleanup(runners, exit = (code) => process.exit(code)) {
    let disposing = false;
    const handler = (signal) => {
        const code = signal === 'SIGINT' ? 130 : 143;
        if (disposing) {
            exit(code);
            return;
        }
        disposing = true;
        const list = Array.isArray(runners) ? runners : [runners];
        void Promise.allSettled(list.map((runner) => runner.dispose())).then(() => exit(code));
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
    };
}
/** Remove containers by name or ID; a container already gone is fine, anything else is not. */
async function removeContainers(names) {
    const unique = [...new Set(names)];
    if (unique.length === 0)
        return;
    const result = await dockerCli(['rm', '-f', ...unique]);
    if (result.code === 0)
        return;
    const problems = result.stderr
        .split('\n')
        .filter((line) => line.trim() !== '' && !/no such container|already in progress/i.test(line));
    if (problems.length > 0) {
        throw new InfrastructureError(`docker rm -f ${unique.join(' ')} failed: ${problems.join('; ')}`);
    }
}
/**
 * `docker run` exits 125 both when the daemon refused the run and when the test process itself
 * exited 125; only the container's own state tells them apart.
 */
async function startedAndExited125(containerName) {
    const result = await dockerCli(['container', 'inspect', '--format', '{{.State.StartedAt}} {{.State.ExitCode}}', containerName]);
    if (result.code !== 0)
        return false;
    const [startedAt, exitCode] = result.stdout.trim().split(' ');
    return startedAt !== undefined && !startedAt.startsWith('0001-') && exitCode === '125';
}
async function checkDirectory(path) {
    const info = await (0,promises_namespaceObject.stat)(path).catch((error) => {
        throw new InfrastructureError(`the repository copy ${path} is missing`, { cause: error });
    });
    if (!info.isDirectory())
        throw new InfrastructureError(`the repository copy ${path} is not a directory`);
}
/**
 * The container runs as uid 65534, which owns nothing on the host, so the results directory is
 * made world-writable (chmod, because mkdir's mode is masked by the umask). chown would need root
 * on the host. The orchestrator keeps it inside a private (0700) temp directory: other host users
 * cannot reach it, while the bind mount gives the container access regardless of the parent.
 */
async function prepareResultsDir(path) {
    try {
        await (0,promises_namespaceObject.mkdir)(path, { recursive: true });
        await (0,promises_namespaceObject.chmod)(path, 0o777);
    }
    catch (error) {
        throw new InfrastructureError(`cannot prepare the results directory ${path}`, { cause: error });
    }
}

;// CONCATENATED MODULE: ./src/core/snapshot-record.ts


/** The format tag inside every snapshot digest's payload. */
const SNAPSHOT_FORMAT = 'patchproof/snapshot/v1';
/** An empty, `.` or `..` segment: a path that is absolute, not normal, or climbs out. */
const BAD_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;
const snapshot_record_LONE_SURROGATE = /\p{Cs}/u;
const MODES_BY_KIND = {
    file: ['100644', '100755'],
    symlink: ['120000']
};
/**
 * Orders strings as their UTF-8 bytes would sort (that is, by code point), without encoding them.
 * JavaScript's own `<` compares UTF-16 code units, which puts U+10000 and above before U+E000–U+FFFF.
 */
function compareUtf8(a, b) {
    const length = Math.min(a.length, b.length);
    for (let i = 0; i < length; i++) {
        const x = a.charCodeAt(i);
        const y = b.charCodeAt(i);
        if (x !== y) {
            return utf8Rank(x) - utf8Rank(y);
        }
    }
    return a.length - b.length;
}
/** Moves surrogates (astral code points) above U+E000–U+FFFF, keeping every other order. */
function utf8Rank(unit) {
    if (unit >= 0xd800 && unit <= 0xdfff) {
        return unit + 0x2000;
    }
    return unit >= 0xe000 ? unit - 0x800 : unit;
}
/**
 * Digest of a set of entries: `digestJson('patchproof/snapshot/v1', { format, entries })` with each
 * entry as `[path, kind, mode, sha256, size]`, sorted by path as UTF-8 bytes. The input order never
 * matters. Throws a ConfigurationError for a malformed entry or a path listed twice.
 */
function snapshotDigest(entries) {
    return digestSorted(sortEntries(entries));
}
/** A Snapshot of these entries: validated, sorted by UTF-8 path, with its digest. */
function buildSnapshot(source, entries) {
    const sorted = sortEntries(entries).map((entry) => ({ ...entry }));
    return { digest: digestSorted(sorted), source, entries: sorted };
}
function digestSorted(sorted) {
    return digestJson('patchproof/snapshot/v1', {
        format: SNAPSHOT_FORMAT,
        entries: sorted.map((entry) => [entry.path, entry.kind, entry.mode, entry.sha256, entry.size])
    });
}
/** Which paths were added, removed or changed from `before` to `after`. */
function diffSnapshots(before, after) {
    const old = new Map(before.entries.map((entry) => [entry.path, entry]));
    const diff = { added: [], removed: [], changed: [] };
    const seen = new Set();
    for (const entry of after.entries) {
        seen.add(entry.path);
        const previous = old.get(entry.path);
        if (previous === undefined) {
            diff.added.push(entry.path);
        }
        else if (!sameContent(previous, entry)) {
            diff.changed.push(entry.path);
        }
    }
    for (const path of old.keys()) {
        if (!seen.has(path)) {
            diff.removed.push(path);
        }
    }
    diff.added.sort(compareUtf8);
    diff.removed.sort(compareUtf8);
    diff.changed.sort(compareUtf8);
    return diff;
}
function sameContent(a, b) {
    return a.kind === b.kind && a.mode === b.mode && a.sha256 === b.sha256 && a.size === b.size;
}
function sortEntries(entries) {
    entries.forEach(checkEntry);
    const sorted = [...entries].sort((a, b) => compareUtf8(a.path, b.path));
    for (let i = 1; i < sorted.length; i++) {
        const path = sorted[i]?.path;
        if (path === sorted[i - 1]?.path) {
            throw new ConfigurationError(`Snapshot lists '${path}' twice. Expected each path once.`);
        }
    }
    return sorted;
}
function checkEntry(entry) {
    const problem = snapshot_record_pathProblem(entry.path) ?? fieldProblem(entry);
    if (problem !== undefined) {
        throw new ConfigurationError(`Snapshot entry ${JSON.stringify(entry.path)} ${problem}.`);
    }
}
function snapshot_record_pathProblem(path) {
    if (typeof path !== 'string' || path === '') {
        return 'has no path; expected a non-empty relative path';
    }
    // A lone surrogate has no UTF-8 form, so two different paths could sort as the same bytes.
    if (path.includes('\0') || snapshot_record_LONE_SURROGATE.test(path)) {
        return 'has a path that is not valid UTF-8 text (NUL or lone surrogate)';
    }
    if (BAD_SEGMENT.test(path)) {
        return "has a path that is not relative and normal; expected '/'-separated names without '.', '..' or empty segments";
    }
    return undefined;
}
function fieldProblem(entry) {
    const modes = Object.hasOwn(MODES_BY_KIND, entry.kind) ? MODES_BY_KIND[entry.kind] : undefined;
    if (modes === undefined) {
        return `has kind ${JSON.stringify(entry.kind)}; expected 'file' or 'symlink'`;
    }
    if (!modes.includes(entry.mode)) {
        return `has mode ${JSON.stringify(entry.mode)}; expected ${modes.join(' or ')} for a ${entry.kind}`;
    }
    if (typeof entry.sha256 !== 'string' || !HEX64_PATTERN.test(entry.sha256)) {
        return 'has a sha256 that is not 64 lowercase hex digits';
    }
    if (!Number.isSafeInteger(entry.size) || entry.size < 0) {
        return `has size ${String(entry.size)}; expected a non-negative integer`;
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/io/git.ts


/** A Git that runs the `git` found on PATH. Failures throw InfrastructureError. */
function createGit() {
    return new GitCommandManager();
}
/**
 * Variables that would make git describe some other repository than the folder it is run in. The
 * snapshot must be of the folder given, whatever the caller's environment says.
 */
const REDIRECTING_VARIABLES = [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_COMMON_DIR',
    'GIT_OBJECT_DIRECTORY',
    'GIT_ALTERNATE_OBJECT_DIRECTORIES',
    'GIT_NAMESPACE',
    'GIT_CEILING_DIRECTORIES',
    'GIT_DISCOVERY_ACROSS_FILESYSTEM'
];
const NOT_A_WORK_TREE = [/not a git repository/i, /must be run in a work tree/i];
const LS_FILES_META = /^([0-7]{6}) [0-9a-f]{40,64} ([0-3])$/;
class GitCommandManager {
    async workTreeTop(dir) {
        const result = await runGit(['-C', dir, 'rev-parse', '--show-toplevel']);
        if (result.exitCode !== 0) {
            if (NOT_A_WORK_TREE.some((pattern) => pattern.test(result.stderr))) {
                return undefined;
            }
            throw git_failure(['rev-parse', '--show-toplevel'], dir, result);
        }
        const top = result.stdout.toString('utf8').replace(/\n$/, '');
        if (top === '') {
            return undefined;
        }
        return top;
    }
    async lsFiles(dir) {
        const result = await runGit(['-C', dir, 'ls-files', '-z', '--stage']);
        if (result.exitCode !== 0) {
            throw git_failure(['ls-files'], dir, result);
        }
        return parseLsFiles(result.stdout);
    }
}
/** `<mode> <object> <stage>\t<path>\0` records; paths stay bytes. */
function parseLsFiles(output) {
    const files = [];
    let start = 0;
    while (start < output.length) {
        let end = output.indexOf(0, start);
        if (end === -1) {
            end = output.length;
        }
        const tab = output.indexOf(0x09, start);
        const meta = tab === -1 || tab > end ? null : LS_FILES_META.exec(output.toString('latin1', start, tab));
        if (meta === null) {
            throw new InfrastructureError(`git ls-files printed a record PatchProof cannot read: ${JSON.stringify(output.toString('latin1', start, end))}`);
        }
        files.push({ mode: meta[1] ?? '', stage: Number(meta[2]), path: output.subarray(tab + 1, end) });
        start = end + 1;
    }
    return files;
}
/** The one place git runs: an argv array, never a shell, with a scrubbed environment. */
function runGit(args) {
    const env = { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' };
    for (const name of REDIRECTING_VARIABLES) {
        delete env[name];
    }
    // An fsmonitor hook named in a repository's config is a program git would run for us.
    const argv = ['-c', 'core.fsmonitor=false', ...args];
    return new Promise((resolve, reject) => {
        (0,external_node_child_process_namespaceObject.execFile)('git', argv, { encoding: 'buffer', env, maxBuffer: 1024 * 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => {
            const stderrText = stderr.toString('utf8');
            if (error === null) {
                resolve({ exitCode: 0, stdout, stderr: stderrText });
                return;
            }
            const code = error.code;
            if (typeof code === 'number') {
                resolve({ exitCode: code, stdout, stderr: stderrText });
                return;
            }
            const reason = code === 'ENOENT' ? 'git was not found on PATH; install git' : error.message;
            reject(new InfrastructureError(`Could not run git ${args.slice(2).join(' ')}: ${reason}`, { cause: error }));
        });
    });
}
function git_failure(command, dir, result) {
    const message = result.stderr.trim().split('\n')[0] ?? '';
    return new InfrastructureError(`git ${command.join(' ')} failed in '${dir}' (exit ${result.exitCode}): ${message}`);
}

;// CONCATENATED MODULE: external "node:worker_threads"
const external_node_worker_threads_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");
;// CONCATENATED MODULE: ./src/io/hash-worker.ts


/**
 * The worker's code, evaluated from a string (`eval: true`) rather than loaded from a file, so it
 * survives the CLI being bundled into one file by ncc. It loads modules with `import()` because an
 * eval worker runs as CommonJS or as ESM depending on the flags it inherits (`--input-type`).
 *
 * O_NOFOLLOW makes open fail if the path became a link after lstat; O_NONBLOCK keeps open from
 * hanging if it became a FIFO. Both are checked again with fstat against the lstat result.
 */
const WORKER_SOURCE = String.raw `
'use strict';
const CHUNK = 256 * 1024;

function main(parentPort, fs, createHash) {
  const buffer = Buffer.allocUnsafe(CHUNK);
  const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW || 0) | (fs.constants.O_NONBLOCK || 0);
  const utf8 = new TextDecoder('utf-8', { fatal: true });

  function special(stat) {
    if (stat.isFIFO()) return 'FIFO (named pipe)';
    if (stat.isSocket()) return 'socket';
    if (stat.isCharacterDevice()) return 'character device';
    if (stat.isBlockDevice()) return 'block device';
    return 'file of unknown type';
  }

  function hashOne(path) {
    let stat;
    try {
      stat = fs.lstatSync(path);
    } catch (error) {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return { status: 'missing' };
      throw error;
    }
    if (stat.isSymbolicLink()) {
      const target = fs.readlinkSync(path, { encoding: 'buffer' });
      try {
        utf8.decode(target);
      } catch {
        return { status: 'link-target-not-utf8' };
      }
      const sha256 = createHash('sha256').update(target).digest('hex');
      return { status: 'hashed', kind: 'symlink', mode: '120000', sha256, size: target.length };
    }
    if (stat.isDirectory()) return { status: 'directory' };
    if (!stat.isFile()) return { status: 'special', detail: special(stat) };
    let fd;
    try {
      fd = fs.openSync(path, OPEN_FLAGS);
    } catch (error) {
      if (error.code === 'ELOOP' || error.code === 'ENOENT' || error.code === 'ENXIO') return { status: 'changed' };
      throw error;
    }
    try {
      const opened = fs.fstatSync(fd);
      if (!opened.isFile() || opened.ino !== stat.ino || opened.dev !== stat.dev) return { status: 'changed' };
      const hash = createHash('sha256');
      let size = 0;
      let read;
      while ((read = fs.readSync(fd, buffer, 0, CHUNK, null)) > 0) {
        hash.update(buffer.subarray(0, read));
        size += read;
      }
      const mode = (opened.mode & 0o100) !== 0 ? '100755' : '100644';
      return { status: 'hashed', kind: 'file', mode, sha256: hash.digest('hex'), size };
    } finally {
      fs.closeSync(fd);
    }
  }

  parentPort.on('message', ({ id, paths }) => {
    const outcomes = paths.map((path) => {
      try {
        return hashOne(path);
      } catch (error) {
        return { status: 'error', detail: String(error && error.message ? error.message : error) };
      }
    });
    parentPort.postMessage({ id, outcomes });
  });
}

Promise.all([import('node:worker_threads'), import('node:fs'), import('node:crypto')]).then(
  ([threads, fs, crypto]) => main(threads.parentPort, fs, crypto.createHash)
);
`;
/** Batches a thread may hold at once: one running, one waiting, so it never idles between messages. */
const BATCHES_PER_THREAD = 2;
/**
 * A FileHasher with `threads` worker threads, started at once so their start-up overlaps with
 * listing the files.
 */
function createFileHasher(threads) {
    return new WorkerPool(threads);
}
class WorkerPool {
    threads = [];
    queue = [];
    nextId = 0;
    failure;
    constructor(threads) {
        try {
            for (let i = 0; i < threads; i++) {
                this.startThread();
            }
        }
        catch (error) {
            this.threads.forEach((thread) => void thread.worker.terminate());
            throw new InfrastructureError(`Could not start a hashing thread: ${String(error)}`, { cause: error });
        }
    }
    hash(paths) {
        if (this.failure !== undefined) {
            return Promise.reject(this.failure);
        }
        if (paths.length === 0) {
            return Promise.resolve([]);
        }
        return new Promise((resolve, reject) => {
            this.queue.push({ id: this.nextId++, paths, resolve, reject });
            this.dispatch();
        });
    }
    async close() {
        this.fail(new InfrastructureError('The hashing pool was closed before the work finished.'));
        const threads = this.threads.splice(0);
        await Promise.all(threads.map((thread) => thread.worker.terminate()));
    }
    dispatch() {
        while (this.queue.length > 0) {
            const thread = this.pickThread();
            if (thread === undefined) {
                return;
            }
            const job = this.queue.shift();
            thread.running.set(job.id, job);
            thread.worker.postMessage({ id: job.id, paths: job.paths });
        }
    }
    /** The least busy thread with room for another batch. */
    pickThread() {
        let best;
        for (const thread of this.threads) {
            if (thread.running.size < BATCHES_PER_THREAD && (best === undefined || thread.running.size < best.running.size)) {
                best = thread;
            }
        }
        return best;
    }
    startThread() {
        const thread = { worker: new external_node_worker_threads_namespaceObject.Worker(WORKER_SOURCE, { eval: true }), running: new Map() };
        thread.worker.on('message', (message) => {
            const job = thread.running.get(message.id);
            thread.running.delete(message.id);
            job?.resolve(message.outcomes);
            this.dispatch();
        });
        thread.worker.on('error', (error) => {
            this.fail(new InfrastructureError(`A hashing thread failed: ${String(error)}`, { cause: error }));
        });
        thread.worker.on('exit', (code) => {
            if (thread.running.size > 0) {
                this.fail(new InfrastructureError(`A hashing thread stopped (exit ${code}) with work unfinished.`));
            }
        });
        this.threads.push(thread);
        return thread;
    }
    fail(error) {
        this.failure ??= error;
        for (const thread of this.threads) {
            for (const job of thread.running.values()) {
                job.reject(this.failure);
            }
            thread.running.clear();
        }
        for (const job of this.queue.splice(0)) {
            job.reject(this.failure);
        }
    }
}

;// CONCATENATED MODULE: ./src/io/snapshot.ts







/** Paths per message to a hashing thread: enough to make messaging cheap, few enough to balance. */
const BATCH_SIZE = 32;
const TRACKED_MODES = new Set(['100644', '100755', '120000']);
/**
 * The content of the repository at `root`. Inside a git work tree the entries are exactly the files
 * git tracks under `root` (source `git`); elsewhere every file under `root` except `.git` folders
 * (source `walk`). Symbolic links are recorded as links and never followed.
 *
 * Fails closed with a ConfigurationError on anything it cannot record faithfully: a FIFO, socket or
 * device; a tracked file missing from the working tree, or now a folder; a submodule or unresolved
 * conflict; a name or link target that is not UTF-8; a tracked path reached through a symbolic link
 * (wherever it points); a root that is not a directory. Git and file system faults throw
 * InfrastructureError, as does a file that changes while it is read.
 *
 * Files are streamed, never read whole, by `concurrency` worker threads. The snapshot is of one
 * moment only if nothing writes to the tree meanwhile; the checks and the reads are not atomic.
 */
async function takeSnapshot(root, options = {}) {
    const threads = threadCount(options.concurrency);
    const realRoot = await resolveRoot(root);
    const git = options.git ?? createGit();
    const hasher = createFileHasher(threads);
    try {
        const source = (await git.workTreeTop(realRoot)) === undefined ? 'walk' : 'git';
        const collector = new Collector(realRoot, source, hasher);
        if (source === 'git') {
            const paths = await trackedPaths(git, realRoot);
            await checkParentFolders(realRoot, paths);
            paths.forEach((path) => collector.add(path));
        }
        else {
            await walk(realRoot, collector);
        }
        return buildSnapshot(source, await collector.finish());
    }
    finally {
        await hasher.close();
    }
}
function threadCount(concurrency) {
    if (concurrency === undefined) {
        return (0,external_node_os_namespaceObject.availableParallelism)();
    }
    if (!Number.isInteger(concurrency) || concurrency < 1) {
        throw new ConfigurationError(`Snapshot concurrency ${concurrency} is not valid. Expected a whole number of at least 1.`);
    }
    return concurrency;
}
async function resolveRoot(root) {
    let real;
    try {
        real = await (0,promises_namespaceObject.realpath)(root);
    }
    catch (error) {
        if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) {
            throw new ConfigurationError(`Repository root '${root}' does not exist. Expected the path of an existing directory.`);
        }
        throw new InfrastructureError(`Could not resolve repository root '${root}': ${messageOf(error)}`, { cause: error });
    }
    if (!(await (0,promises_namespaceObject.stat)(real)).isDirectory()) {
        throw new ConfigurationError(`Repository root '${root}' is not a directory. Expected the path of a directory.`);
    }
    return real;
}
/** Tracked paths under the root as text, refusing what a snapshot cannot hold. */
async function trackedPaths(git, realRoot) {
    const paths = [];
    for (const file of await git.lsFiles(realRoot)) {
        const path = decodeName(file.path, '');
        if (file.stage !== 0) {
            throw new ConfigurationError(`'${path}' has an unresolved merge conflict. Resolve it and stage the result (git add) first.`);
        }
        if (file.mode === '160000') {
            throw new ConfigurationError(`'${path}' is a git submodule. PatchProof cannot snapshot submodules; remove it (git rm) or use a repository without submodules.`);
        }
        if (!TRACKED_MODES.has(file.mode)) {
            throw new ConfigurationError(`'${path}' has git mode ${file.mode}. Expected a regular file (100644, 100755) or a symbolic link (120000).`);
        }
        paths.push(path);
    }
    return paths;
}
/**
 * Every folder above a tracked path must be the real folder of that name under the root. A folder
 * replaced by a symbolic link would make us read what it points to, possibly outside the root.
 */
async function checkParentFolders(realRoot, paths) {
    const firstPathByFolder = new Map();
    for (const path of paths) {
        const folder = external_node_path_namespaceObject.posix.dirname(path);
        if (folder !== '.' && !firstPathByFolder.has(folder)) {
            firstPathByFolder.set(folder, path);
        }
    }
    // libuv's thread pool bounds how many of these run at once.
    await Promise.all([...firstPathByFolder].map(async ([folder, path]) => {
        const expected = (0,external_node_path_namespaceObject.join)(realRoot, folder);
        let real;
        try {
            real = await (0,promises_namespaceObject.realpath)(expected);
        }
        catch (error) {
            if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) {
                throw missingTracked(path);
            }
            throw new InfrastructureError(`Could not resolve folder '${folder}': ${messageOf(error)}`, { cause: error });
        }
        if (real !== expected) {
            throw new ConfigurationError(`Tracked file '${path}' is reached through a symbolic link: '${folder}' resolves to '${real}'. Replace the link with the tracked folder (git checkout -- '${folder}').`);
        }
    }));
}
/** Every file and link under the root, skipping `.git` folders; subfolders are read concurrently. */
async function walk(realRoot, collector) {
    const visit = async (folder) => {
        if (collector.failed) {
            return;
        }
        let dirents;
        try {
            dirents = await (0,promises_namespaceObject.readdir)(folder === '' ? realRoot : (0,external_node_path_namespaceObject.join)(realRoot, folder), { encoding: 'buffer', withFileTypes: true });
        }
        catch (error) {
            throw new InfrastructureError(`Could not read folder '${folder || '.'}': ${messageOf(error)}`, { cause: error });
        }
        const subfolders = [];
        for (const dirent of dirents) {
            const name = decodeName(dirent.name, folder);
            const path = folder === '' ? name : `${folder}/${name}`;
            if (!dirent.isDirectory()) {
                collector.add(path);
            }
            else if (name !== '.git') {
                subfolders.push(path);
            }
        }
        await Promise.all(subfolders.map(visit));
    };
    await visit('');
}
/** Sends paths to the hashers in batches and turns outcomes into entries, keeping the first failure. */
class Collector {
    realRoot;
    source;
    hasher;
    /** In the order paths were added: git lists them sorted, which makes the final sort cheap. */
    entries = [];
    pending = [];
    batch = [];
    added = 0;
    failure;
    failed = false;
    constructor(realRoot, source, hasher) {
        this.realRoot = realRoot;
        this.source = source;
        this.hasher = hasher;
    }
    add(path) {
        this.batch.push(path);
        if (this.batch.length >= BATCH_SIZE) {
            this.flush();
        }
    }
    async finish() {
        this.flush();
        await Promise.all(this.pending);
        if (this.failed) {
            throw this.failure;
        }
        return this.entries;
    }
    flush() {
        if (this.batch.length === 0) {
            return;
        }
        const paths = this.batch;
        const first = this.added;
        this.batch = [];
        this.added += paths.length;
        // Paths are already normal and relative, and the root absolute: no need for path.join.
        const prefix = this.realRoot.endsWith('/') ? this.realRoot : `${this.realRoot}/`;
        const work = this.hasher.hash(paths.map((path) => prefix + path)).then((outcomes) => {
            outcomes.forEach((outcome, index) => {
                this.entries[first + index] = this.entry(paths[index] ?? '', outcome);
            });
        });
        // Handled at once: a failure while the walk is still running must not become an unhandled rejection.
        this.pending.push(work.catch((error) => {
            if (!this.failed) {
                this.failed = true;
                this.failure = error;
            }
        }));
    }
    entry(path, outcome) {
        switch (outcome.status) {
            case 'hashed':
                return { path, kind: outcome.kind, mode: outcome.mode, sha256: outcome.sha256, size: outcome.size };
            case 'missing':
                if (this.source === 'git') {
                    throw missingTracked(path);
                }
                throw changedWhileReading(path);
            case 'directory':
                if (this.source === 'git') {
                    throw new ConfigurationError(`Tracked file '${path}' is a folder in the working tree. Restore the file (git checkout -- '${path}') or stage the change.`);
                }
                throw changedWhileReading(path);
            case 'special':
                throw new ConfigurationError(`'${path}' is a ${outcome.detail}. A snapshot holds only regular files and symbolic links; remove it or move it out of the repository.`);
            case 'link-target-not-utf8':
                throw new ConfigurationError(`Symbolic link '${path}' points to a name that is not valid UTF-8. Point it to a UTF-8 name.`);
            case 'changed':
                throw changedWhileReading(path);
            case 'error':
                throw new InfrastructureError(`Could not read '${path}': ${outcome.detail}`);
            default:
                return snapshot_assertNever(outcome);
        }
    }
}
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
/** A file name's bytes as text; names that are not UTF-8 cannot be recorded, so they are refused. */
function decodeName(bytes, folder) {
    try {
        return utf8.decode(bytes);
    }
    catch {
        const shown = (folder === '' ? '' : `${folder}/`) + lenientUtf8.decode(bytes);
        const hex = Buffer.from(bytes).toString('hex').replace(/(..)(?!$)/g, '$1 ');
        throw new ConfigurationError(`File name ${JSON.stringify(shown)} (bytes ${hex}) is not valid UTF-8. Rename it to a UTF-8 name.`);
    }
}
function missingTracked(path) {
    return new ConfigurationError(`Tracked file '${path}' is missing from the working tree. Restore it (git checkout -- '${path}') or stage its removal (git rm).`);
}
function changedWhileReading(path) {
    return new InfrastructureError(`'${path}' changed while the snapshot was being taken. Take it again when nothing is writing to the repository.`);
}
// Duck-typed, not `instanceof Error`: errors from another realm (a VM context, a worker) fail that test.
function isErrno(error, code) {
    return typeof error === 'object' && error !== null && error.code === code;
}
function messageOf(error) {
    const message = typeof error === 'object' && error !== null ? error.message : undefined;
    return typeof message === 'string' ? message : String(error);
}
function snapshot_assertNever(value) {
    throw new InfrastructureError(`Unexpected hashing outcome ${JSON.stringify(value)}`);
}

;// CONCATENATED MODULE: ./src/io/files.ts



/** Small file helpers for the CLI's inputs and outputs: clear errors, atomic writes. */
/** Read a file as strict UTF-8 text; a missing or non-UTF-8 file is a ConfigurationError naming the flag. */
async function readTextFile(path, flag) {
    let data;
    try {
        data = await (0,promises_namespaceObject.readFile)(path);
    }
    catch (error) {
        throw new ConfigurationError(`${flag} '${path}' cannot be read (${error.code ?? 'error'}); give an existing file`);
    }
    try {
        return new TextDecoder('utf-8', { fatal: true }).decode(data);
    }
    catch {
        throw new ConfigurationError(`${flag} '${path}' is not UTF-8 text; give a UTF-8 file`);
    }
}
/** Read and parse a JSON file to `unknown`: validation is the caller's job. */
async function readJsonFile(path, flag) {
    const text = await readTextFile(path, flag);
    try {
        return JSON.parse(text);
    }
    catch {
        throw new ConfigurationError(`${flag} '${path}' is not JSON; give the file PatchProof wrote`);
    }
}
/** Check a folder flag names an existing folder and return its real path. */
async function existingDir(path, flag) {
    try {
        const real = await (0,promises_namespaceObject.realpath)(path);
        if (!(await (0,promises_namespaceObject.stat)(real)).isDirectory())
            throw new Error('not a folder');
        return real;
    }
    catch {
        throw new ConfigurationError(`${flag} '${path}' is not an existing folder; give a folder path`);
    }
}
/** The real path of a file or folder that may not exist yet (its nearest existing ancestor is resolved). */
async function realPathOfNew(path) {
    const absolute = (0,external_node_path_namespaceObject.resolve)(path);
    const missing = [];
    let current = absolute;
    for (;;) {
        try {
            return (0,external_node_path_namespaceObject.join)(await (0,promises_namespaceObject.realpath)(current), ...missing.reverse());
        }
        catch {
            const parent = (0,external_node_path_namespaceObject.dirname)(current);
            if (parent === current)
                return absolute;
            missing.push((0,external_node_path_namespaceObject.basename)(current));
            current = parent;
        }
    }
}
/** Outputs never go inside the repository: they would change the checkout being validated. */
async function assertOutside(path, repoReal, flag) {
    const real = await realPathOfNew(path);
    const rel = (0,external_node_path_namespaceObject.relative)(repoReal, real);
    if (rel === '' || (!rel.startsWith('..') && !(0,external_node_path_namespaceObject.isAbsolute)(rel))) {
        throw new ConfigurationError(`${flag} '${path}' is inside the repository; write outputs outside the checkout being validated`);
    }
}
/** Write a file atomically (temp file + rename), so a reader never sees half of it. */
async function writeFileAtomic(path, text) {
    await (0,promises_namespaceObject.mkdir)((0,external_node_path_namespaceObject.dirname)((0,external_node_path_namespaceObject.resolve)(path)), { recursive: true });
    const temp = `${path}.tmp-${process.pid}`;
    try {
        await (0,promises_namespaceObject.writeFile)(temp, text, { mode: 0o644 });
        await (0,promises_namespaceObject.rename)(temp, path);
    }
    catch (error) {
        await (0,promises_namespaceObject.rm)(temp, { force: true });
        throw new ConfigurationError(`cannot write '${path}' (${error.code ?? 'error'}); give a writable path`);
    }
}

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: ./node_modules/diff/libesm/util/string.js
function longestCommonPrefix(str1, str2) {
    let i;
    for (i = 0; i < str1.length && i < str2.length; i++) {
        if (str1[i] != str2[i]) {
            return str1.slice(0, i);
        }
    }
    return str1.slice(0, i);
}
function longestCommonSuffix(str1, str2) {
    let i;
    // Unlike longestCommonPrefix, we need a special case to handle all scenarios
    // where we return the empty string since str1.slice(-0) will return the
    // entire string.
    if (!str1 || !str2 || str1[str1.length - 1] != str2[str2.length - 1]) {
        return '';
    }
    for (i = 0; i < str1.length && i < str2.length; i++) {
        if (str1[str1.length - (i + 1)] != str2[str2.length - (i + 1)]) {
            return str1.slice(-i);
        }
    }
    return str1.slice(-i);
}
function replacePrefix(string, oldPrefix, newPrefix) {
    if (string.slice(0, oldPrefix.length) != oldPrefix) {
        throw Error(`string ${JSON.stringify(string)} doesn't start with prefix ${JSON.stringify(oldPrefix)}; this is a bug`);
    }
    return newPrefix + string.slice(oldPrefix.length);
}
function replaceSuffix(string, oldSuffix, newSuffix) {
    if (!oldSuffix) {
        return string + newSuffix;
    }
    if (string.slice(-oldSuffix.length) != oldSuffix) {
        throw Error(`string ${JSON.stringify(string)} doesn't end with suffix ${JSON.stringify(oldSuffix)}; this is a bug`);
    }
    return string.slice(0, -oldSuffix.length) + newSuffix;
}
function removePrefix(string, oldPrefix) {
    return replacePrefix(string, oldPrefix, '');
}
function removeSuffix(string, oldSuffix) {
    return replaceSuffix(string, oldSuffix, '');
}
function maximumOverlap(string1, string2) {
    return string2.slice(0, overlapCount(string1, string2));
}
// Nicked from https://stackoverflow.com/a/60422853/1709587
function overlapCount(a, b) {
    // Deal with cases where the strings differ in length
    let startA = 0;
    if (a.length > b.length) {
        startA = a.length - b.length;
    }
    let endB = b.length;
    if (a.length < b.length) {
        endB = a.length;
    }
    // Create a back-reference for each index
    //   that should be followed in case of a mismatch.
    //   We only need B to make these references:
    const map = Array(endB);
    let k = 0; // Index that lags behind j
    map[0] = 0;
    for (let j = 1; j < endB; j++) {
        if (b[j] == b[k]) {
            map[j] = map[k]; // skip over the same character (optional optimisation)
        }
        else {
            map[j] = k;
        }
        while (k > 0 && b[j] != b[k]) {
            k = map[k];
        }
        if (b[j] == b[k]) {
            k++;
        }
    }
    // Phase 2: use these references while iterating over A
    k = 0;
    for (let i = startA; i < a.length; i++) {
        while (k > 0 && a[i] != b[k]) {
            k = map[k];
        }
        if (a[i] == b[k]) {
            k++;
        }
    }
    return k;
}
/**
 * Returns true if the string consistently uses Windows line endings.
 */
function hasOnlyWinLineEndings(string) {
    return string.includes('\r\n') && !string.startsWith('\n') && !string.match(/[^\r]\n/);
}
/**
 * Returns true if the string consistently uses Unix line endings.
 */
function hasOnlyUnixLineEndings(string) {
    return !string.includes('\r\n') && string.includes('\n');
}
/**
 * Split a string into segments using a word segmenter, merging consecutive
 * segments if they are both whitespace segments. Whitespace segments can
 * appear adjacent to one another for two reasons:
 * - newlines always get their own segment
 * - where a diacritic is attached to a whitespace character in the text, the
 *   segment ends after the diacritic, so e.g. " \u0300 " becomes two segments.
 * This function therefore runs the segmenter's .segment() method and then
 * merges consecutive segments of whitespace into a single part.
 */
function segment(string, segmenter) {
    const parts = [];
    for (const segmentObj of Array.from(segmenter.segment(string))) {
        const segment = segmentObj.segment;
        if (parts.length && (/\s/).test(parts[parts.length - 1]) && (/\s/).test(segment)) {
            parts[parts.length - 1] += segment;
        }
        else {
            parts.push(segment);
        }
    }
    return parts;
}
// The functions below take a `segmenter` argument so that, when called from
// diffWords when it is using a segmenter, they can use a notion of what
// constitutes "whitespace" that is consistent with the segmenter.
//
// USUALLY this will be identical to the result of the non-segmenter-based
// logic, but it differs in at least one case: when whitespace characters are
// modified by diacritics. A word segmenter considers these diacritics to be
// part of the whitespace, whereas our non-segmenter-based logic does not.
//
// Because the segmenter-based approach necessarily requires segmenting the
// entire string, we offer a leadingAndTrailingWs function to allow getting the
// whitespace prefix AND whitespace suffix with a single call to the segmenter,
// for efficiency's sake.
function trailingWs(string, segmenter) {
    if (segmenter) {
        return leadingAndTrailingWs(string, segmenter)[1];
    }
    // Yes, this looks overcomplicated and dumb - why not replace the whole function with
    //     return string.match(/\s*$/)[0]
    // you ask? Because:
    // 1. the trap described at https://markamery.com/blog/quadratic-time-regexes/ would mean doing
    //    this would cause this function to take O(n²) time in the worst case (specifically when
    //    there is a massive run of NON-TRAILING whitespace in `string`), and
    // 2. the fix proposed in the same blog post, of using a negative lookbehind, is incompatible
    //    with old Safari versions that we'd like to not break if possible (see
    //    https://github.com/kpdecker/jsdiff/pull/550)
    // It feels absurd to do this with an explicit loop instead of a regex, but I really can't see a
    // better way that doesn't result in broken behaviour.
    let i;
    for (i = string.length - 1; i >= 0; i--) {
        if (!string[i].match(/\s/)) {
            break;
        }
    }
    return string.substring(i + 1);
}
function leadingWs(string, segmenter) {
    if (segmenter) {
        return leadingAndTrailingWs(string, segmenter)[0];
    }
    // Thankfully the annoying considerations described in trailingWs don't apply here:
    const match = string.match(/^\s*/);
    return match ? match[0] : '';
}
function leadingAndTrailingWs(string, segmenter) {
    if (!segmenter) {
        return [leadingWs(string), trailingWs(string)];
    }
    if (segmenter.resolvedOptions().granularity != 'word') {
        throw new Error('The segmenter passed must have a granularity of "word"');
    }
    const segments = segment(string, segmenter);
    const firstSeg = segments[0];
    const lastSeg = segments[segments.length - 1];
    const head = (/\s/).test(firstSeg) ? firstSeg : '';
    const tail = (/\s/).test(lastSeg) ? lastSeg : '';
    return [head, tail];
}

;// CONCATENATED MODULE: ./node_modules/diff/libesm/patch/line-endings.js
function unixToWin(patch) {
    if (Array.isArray(patch)) {
        // It would be cleaner if instead of the line below we could just write
        //     return patch.map(unixToWin)
        // but mysteriously TypeScript (v5.7.3 at the time of writing) does not like this and it will
        // refuse to compile, thinking that unixToWin could then return StructuredPatch[][] and the
        // result would be incompatible with the overload signatures.
        // See bug report at https://github.com/microsoft/TypeScript/issues/61398.
        return patch.map(p => unixToWin(p));
    }
    return Object.assign(Object.assign({}, patch), { hunks: patch.hunks.map(hunk => (Object.assign(Object.assign({}, hunk), { lines: hunk.lines.map((line, i) => {
                var _a;
                return (line.startsWith('\\') || line.endsWith('\r') || ((_a = hunk.lines[i + 1]) === null || _a === void 0 ? void 0 : _a.startsWith('\\')))
                    ? line
                    : line + '\r';
            }) }))) });
}
function winToUnix(patch) {
    if (Array.isArray(patch)) {
        // (See comment above equivalent line in unixToWin)
        return patch.map(p => winToUnix(p));
    }
    return Object.assign(Object.assign({}, patch), { hunks: patch.hunks.map(hunk => (Object.assign(Object.assign({}, hunk), { lines: hunk.lines.map(line => line.endsWith('\r') ? line.substring(0, line.length - 1) : line) }))) });
}
/**
 * Returns true if the patch consistently uses Unix line endings (or only involves one line and has
 * no line endings).
 */
function isUnix(patch) {
    if (!Array.isArray(patch)) {
        patch = [patch];
    }
    return !patch.some(index => index.hunks.some(hunk => hunk.lines.some(line => !line.startsWith('\\') && line.endsWith('\r'))));
}
/**
 * Returns true if the patch uses Windows line endings and only Windows line endings.
 */
function isWin(patch) {
    if (!Array.isArray(patch)) {
        patch = [patch];
    }
    return patch.some(index => index.hunks.some(hunk => hunk.lines.some(line => line.endsWith('\r'))))
        && patch.every(index => index.hunks.every(hunk => hunk.lines.every((line, i) => { var _a; return line.startsWith('\\') || line.endsWith('\r') || ((_a = hunk.lines[i + 1]) === null || _a === void 0 ? void 0 : _a.startsWith('\\')); })));
}

;// CONCATENATED MODULE: ./node_modules/diff/libesm/util/distance-iterator.js
// Iterator that traverses in the range of [min, max], stepping
// by distance from a given start position. I.e. for [0, 4], with
// start of 2, this will iterate 2, 3, 1, 4, 0.
/* harmony default export */ function distance_iterator(start, minLine, maxLine) {
    let wantForward = true, backwardExhausted = false, forwardExhausted = false, localOffset = 1;
    return function iterator() {
        if (wantForward && !forwardExhausted) {
            if (backwardExhausted) {
                localOffset++;
            }
            else {
                wantForward = false;
            }
            // Check if trying to fit beyond text length, and if not, check it fits
            // after offset location (or desired location on first iteration)
            if (start + localOffset <= maxLine) {
                return start + localOffset;
            }
            forwardExhausted = true;
        }
        if (!backwardExhausted) {
            if (!forwardExhausted) {
                wantForward = true;
            }
            // Check if trying to fit before text beginning, and if not, check it fits
            // before offset location
            if (minLine <= start - localOffset) {
                return start - localOffset++;
            }
            backwardExhausted = true;
            return iterator();
        }
        // We tried to fit hunk before text beginning and beyond text length, then
        // hunk can't fit on the text. Return undefined
        return undefined;
    };
}

;// CONCATENATED MODULE: ./node_modules/diff/libesm/patch/apply.js




/**
 * attempts to apply a unified diff patch.
 *
 * Hunks are applied first to last.
 * `applyPatch` first tries to apply the first hunk at the line number specified in the hunk header, and with all context lines matching exactly.
 * If that fails, it tries scanning backwards and forwards, one line at a time, to find a place to apply the hunk where the context lines match exactly.
 * If that still fails, and `fuzzFactor` is greater than zero, it increments the maximum number of mismatches (missing, extra, or changed context lines) that there can be between the hunk context and a region where we are trying to apply the patch such that the hunk will still be considered to match.
 * Regardless of `fuzzFactor`, lines to be deleted in the hunk *must* be present for a hunk to match, and the context lines *immediately* before and after an insertion must match exactly.
 *
 * Once a hunk is successfully fitted, the process begins again with the next hunk.
 * Regardless of `fuzzFactor`, later hunks must be applied later in the file than earlier hunks.
 *
 * If a hunk cannot be successfully fitted *anywhere* with fewer than `fuzzFactor` mismatches, `applyPatch` fails and returns `false`.
 *
 * If a hunk is successfully fitted but not at the line number specified by the hunk header, all subsequent hunks have their target line number adjusted accordingly.
 * (e.g. if the first hunk is applied 10 lines below where the hunk header said it should fit, `applyPatch` will *start* looking for somewhere to apply the second hunk 10 lines below where its hunk header says it goes.)
 *
 * If the patch was applied successfully, returns a string containing the patched text.
 * If the patch could not be applied (because some hunks in the patch couldn't be fitted to the text in `source`), `applyPatch` returns false.
 *
 * @param patch a string diff or the output from the `parsePatch` or `structuredPatch` methods.
 */
function applyPatch(source, patch, options = {}) {
    let patches;
    if (typeof patch === 'string') {
        patches = parse_parsePatch(patch);
    }
    else if (Array.isArray(patch)) {
        patches = patch;
    }
    else {
        patches = [patch];
    }
    if (patches.length > 1) {
        throw new Error('applyPatch only works with a single input.');
    }
    return applyStructuredPatch(source, patches[0], options);
}
function applyStructuredPatch(source, patch, options = {}) {
    if (options.autoConvertLineEndings || options.autoConvertLineEndings == null) {
        if (hasOnlyWinLineEndings(source) && isUnix(patch)) {
            patch = unixToWin(patch);
        }
        else if (hasOnlyUnixLineEndings(source) && isWin(patch)) {
            patch = winToUnix(patch);
        }
    }
    // Apply the diff to the input
    const lines = source.split('\n'), hunks = patch.hunks, compareLine = options.compareLine || ((lineNumber, line, operation, patchContent) => line === patchContent), fuzzFactor = options.fuzzFactor || 0;
    let minLine = 0;
    if (fuzzFactor < 0 || !Number.isInteger(fuzzFactor)) {
        throw new Error('fuzzFactor must be a non-negative integer');
    }
    // Special case for empty patch.
    if (!hunks.length) {
        return source;
    }
    // Before anything else, handle EOFNL insertion/removal. If the patch tells us to make a change
    // to the EOFNL that is redundant/impossible - i.e. to remove a newline that's not there, or add a
    // newline that already exists - then we either return false and fail to apply the patch (if
    // fuzzFactor is 0) or simply ignore the problem and do nothing (if fuzzFactor is >0).
    // If we do need to remove/add a newline at EOF, this will always be in the final hunk:
    let prevLine = '', removeEOFNL = false, addEOFNL = false;
    for (let i = 0; i < hunks[hunks.length - 1].lines.length; i++) {
        const line = hunks[hunks.length - 1].lines[i];
        if (line[0] == '\\') {
            if (prevLine[0] == '+') {
                removeEOFNL = true;
            }
            else if (prevLine[0] == '-') {
                addEOFNL = true;
            }
        }
        prevLine = line;
    }
    if (removeEOFNL) {
        if (addEOFNL) {
            // This means the final line gets changed but doesn't have a trailing newline in either the
            // original or patched version. In that case, we do nothing if fuzzFactor > 0, and if
            // fuzzFactor is 0, we simply validate that the source file has no trailing newline.
            if (!fuzzFactor && lines[lines.length - 1] == '') {
                return false;
            }
        }
        else if (lines[lines.length - 1] == '') {
            lines.pop();
        }
        else if (!fuzzFactor) {
            return false;
        }
    }
    else if (addEOFNL) {
        if (lines[lines.length - 1] != '') {
            lines.push('');
        }
        else if (!fuzzFactor) {
            return false;
        }
    }
    /**
     * Checks if the hunk can be made to fit at the provided location with at most `maxErrors`
     * insertions, substitutions, or deletions, while ensuring also that:
     * - lines deleted in the hunk match exactly, and
     * - wherever an insertion operation or block of insertion operations appears in the hunk, the
     *   immediately preceding and following lines of context match exactly
     *
     * `toPos` should be set such that lines[toPos] is meant to match hunkLines[0].
     *
     * If the hunk can be applied, returns an object with properties `oldLineLastI` and
     * `replacementLines`. Otherwise, returns null.
     */
    function applyHunk(hunkLines, toPos, maxErrors, hunkLinesI = 0, lastContextLineMatched = true, patchedLines = [], patchedLinesLength = 0) {
        let nConsecutiveOldContextLines = 0;
        let nextContextLineMustMatch = false;
        for (; hunkLinesI < hunkLines.length; hunkLinesI++) {
            const hunkLine = hunkLines[hunkLinesI], operation = (hunkLine.length > 0 ? hunkLine[0] : ' '), content = (hunkLine.length > 0 ? hunkLine.substr(1) : hunkLine);
            if (operation === '-') {
                if (compareLine(toPos + 1, lines[toPos], operation, content)) {
                    toPos++;
                    nConsecutiveOldContextLines = 0;
                }
                else {
                    if (!maxErrors || lines[toPos] == null) {
                        return null;
                    }
                    patchedLines[patchedLinesLength] = lines[toPos];
                    return applyHunk(hunkLines, toPos + 1, maxErrors - 1, hunkLinesI, false, patchedLines, patchedLinesLength + 1);
                }
            }
            if (operation === '+') {
                if (!lastContextLineMatched) {
                    return null;
                }
                patchedLines[patchedLinesLength] = content;
                patchedLinesLength++;
                nConsecutiveOldContextLines = 0;
                nextContextLineMustMatch = true;
            }
            if (operation === ' ') {
                nConsecutiveOldContextLines++;
                patchedLines[patchedLinesLength] = lines[toPos];
                if (compareLine(toPos + 1, lines[toPos], operation, content)) {
                    patchedLinesLength++;
                    lastContextLineMatched = true;
                    nextContextLineMustMatch = false;
                    toPos++;
                }
                else {
                    if (nextContextLineMustMatch || !maxErrors) {
                        return null;
                    }
                    // Consider 3 possibilities in sequence:
                    // 1. lines contains a *substitution* not included in the patch context, or
                    // 2. lines contains an *insertion* not included in the patch context, or
                    // 3. lines contains a *deletion* not included in the patch context
                    // The first two options are of course only possible if the line from lines is non-null -
                    // i.e. only option 3 is possible if we've overrun the end of the old file.
                    return (lines[toPos] && (applyHunk(hunkLines, toPos + 1, maxErrors - 1, hunkLinesI + 1, false, patchedLines, patchedLinesLength + 1) || applyHunk(hunkLines, toPos + 1, maxErrors - 1, hunkLinesI, false, patchedLines, patchedLinesLength + 1)) || applyHunk(hunkLines, toPos, maxErrors - 1, hunkLinesI + 1, false, patchedLines, patchedLinesLength));
                }
            }
        }
        // Before returning, trim any unmodified context lines off the end of patchedLines and reduce
        // toPos (and thus oldLineLastI) accordingly. This allows later hunks to be applied to a region
        // that starts in this hunk's trailing context.
        patchedLinesLength -= nConsecutiveOldContextLines;
        toPos -= nConsecutiveOldContextLines;
        patchedLines.length = patchedLinesLength;
        return {
            patchedLines,
            oldLineLastI: toPos - 1
        };
    }
    const resultLines = [];
    // Search best fit offsets for each hunk based on the previous ones
    let prevHunkOffset = 0;
    for (let i = 0; i < hunks.length; i++) {
        const hunk = hunks[i];
        let hunkResult;
        const maxLine = lines.length - hunk.oldLines + fuzzFactor;
        let toPos;
        for (let maxErrors = 0; maxErrors <= fuzzFactor; maxErrors++) {
            toPos = hunk.oldStart + prevHunkOffset - 1;
            const iterator = distance_iterator(toPos, minLine, maxLine);
            for (; toPos !== undefined; toPos = iterator()) {
                hunkResult = applyHunk(hunk.lines, toPos, maxErrors);
                if (hunkResult) {
                    break;
                }
            }
            if (hunkResult) {
                break;
            }
        }
        if (!hunkResult) {
            return false;
        }
        // Copy everything from the end of where we applied the last hunk to the start of this hunk
        for (let i = minLine; i < toPos; i++) {
            resultLines.push(lines[i]);
        }
        // Add the lines produced by applying the hunk:
        for (let i = 0; i < hunkResult.patchedLines.length; i++) {
            const line = hunkResult.patchedLines[i];
            resultLines.push(line);
        }
        // Set lower text limit to end of the current hunk, so next ones don't try
        // to fit over already patched text
        minLine = hunkResult.oldLineLastI + 1;
        // Note the offset between where the patch said the hunk should've applied and where we
        // applied it, so we can adjust future hunks accordingly:
        prevHunkOffset = toPos + 1 - hunk.oldStart;
    }
    // Copy over the rest of the lines from the old text
    for (let i = minLine; i < lines.length; i++) {
        resultLines.push(lines[i]);
    }
    return resultLines.join('\n');
}
/**
 * applies one or more patches.
 *
 * `patch` may be either an array of structured patch objects, or a string representing a patch in unified diff format (which may patch one or more files).
 *
 * This method will iterate over the contents of the patch and apply to data provided through callbacks. The general flow for each patch index is:
 *
 * - `options.loadFile(index, callback)` is called. The caller should then load the contents of the file and then pass that to the `callback(err, data)` callback. Passing an `err` will terminate further patch execution.
 * - `options.patched(index, content, callback)` is called once the patch has been applied. `content` will be the return value from `applyPatch`. When it's ready, the caller should call `callback(err)` callback. Passing an `err` will terminate further patch execution.
 *
 * Once all patches have been applied or an error occurs, the `options.complete(err)` callback is made.
 */
function applyPatches(uniDiff, options) {
    const spDiff = typeof uniDiff === 'string' ? parsePatch(uniDiff) : uniDiff;
    let currentIndex = 0;
    function processIndex() {
        const index = spDiff[currentIndex++];
        if (!index) {
            return options.complete();
        }
        options.loadFile(index, function (err, data) {
            if (err) {
                return options.complete(err);
            }
            const updatedContent = applyPatch(data, index, options);
            options.patched(index, updatedContent, function (err) {
                if (err) {
                    return options.complete(err);
                }
                processIndex();
            });
        });
    }
    processIndex();
}

;// CONCATENATED MODULE: ./src/core/patch-apply.ts



function toText(content) {
    if (content === '')
        return { lines: [], eol: true };
    const lines = content.split('\n');
    if (lines[lines.length - 1] === '') {
        lines.pop();
        return { lines, eol: true };
    }
    return { lines, eol: false };
}
function fromText(text) {
    return text.lines.length === 0 ? '' : text.lines.join('\n') + (text.eol ? '\n' : '');
}
function fail(message) {
    throw new PolicyError('patch_invalid', `patch does not apply: ${message}`);
}
const REGENERATE = "regenerate the diff against the base tree with 'git diff'";
/** How messages name a hunk: the file, its number, and its header as the diff wrote it. */
function hunkLabel(path, index, hunk) {
    // jsdiff moves oldStart/newStart on by one when the count is 0; the diff had the smaller number.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    return `${quoteForMessage(path)} hunk ${index + 1} (@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@)`;
}
function hunkLines(hunk, label) {
    const result = [];
    for (const line of hunk.lines) {
        // jsdiff reads an empty line inside a hunk as an empty context line.
        const op = line === '' ? ' ' : line[0];
        if (op === '\\') {
            const previous = result[result.length - 1];
            if (previous === undefined || previous.noEol) {
                fail(`${label} has a '\\ No newline at end of file' marker that follows no line; ${REGENERATE}`);
            }
            previous.noEol = true;
        }
        else if (op === ' ' || op === '-' || op === '+') {
            result.push({ op, text: line.slice(1), noEol: false });
        }
        else {
            fail(`${label} has a line that is not context, '+', '-' or '\\'; ${REGENERATE}`);
        }
    }
    return result;
}
/**
 * Apply hunks by splicing, after checking that each one matches the file exactly where its header
 * says, and that every "\ No newline at end of file" marker is true of the file.
 */
function spliceExactly(path, base, hunks) {
    const out = [];
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
            const actual = base.lines[pos + i];
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
            fail(`${label} says line ${pos + oldSide.length} has no newline at end of file, but ${touchesEnd ? 'the file ends with a newline' : 'it is not the last line'}; ${REGENERATE}`);
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
        if (touchesEnd)
            eol = !newNoEol;
    });
    out.push(...base.lines.slice(cursor));
    return { lines: out, eol };
}
const patch_apply_utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
function patch_apply_decode(path, content) {
    try {
        // ignoreBOM keeps a byte-order mark in the text, so it survives into the patched file.
        return patch_apply_utf8.decode(content);
    }
    catch {
        fail(`${quoteForMessage(path)} is not valid UTF-8 text; only UTF-8 text files can be patched, leave it out of the diff`);
    }
}
/** Apply one change to one file's text, exactly, and check jsdiff and the splice agree. */
function applyOne(change, source) {
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
function applyFileChanges(read, changes) {
    const result = new Map();
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
        const patched = applyOne(change, patch_apply_decode(change.path, current));
        if (change.op === 'modify') {
            result.set(change.path, Buffer.from(patched, 'utf8'));
        }
        else if (patched !== '') {
            fail(`${name} is deleted, but its hunks do not remove all of its content exactly; ${REGENERATE}`);
        }
        else {
            result.set(change.path, null);
        }
    }
    return result;
}
/**
 * Refuse changes that would write through a link or clash with the tree's shape: a change to a
 * symlink itself or beneath a path that is a symlink (writing there would follow the link out of
 * the copy), a file beneath a path that is a file, and a file added where a folder is.
 */
function checkTargets(changes, tree) {
    const folders = new Set();
    for (const path of tree.keys()) {
        const parts = path.split('/');
        for (let i = 1; i < parts.length; i++)
            folders.add(parts.slice(0, i).join('/'));
    }
    for (const change of changes) {
        const parts = change.path.split('/');
        for (let i = 1; i <= parts.length; i++) {
            const prefix = parts.slice(0, i).join('/');
            const kind = tree.get(prefix);
            if (kind === 'symlink') {
                throw new PolicyError('policy_violation', `diff refused: ${quoteForMessage(change.path)} ${i === parts.length ? 'is' : 'lies beneath'} the symlink ${quoteForMessage(prefix)}; change regular files only`);
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

;// CONCATENATED MODULE: ./src/io/workspace.ts





async function createScratch(prefix = 'patchproof-') {
    const root = await (0,promises_namespaceObject.mkdtemp)((0,external_node_path_namespaceObject.join)((0,external_node_os_namespaceObject.tmpdir)(), prefix));
    let counter = 0;
    return {
        root,
        async folder(name) {
            counter += 1;
            const path = (0,external_node_path_namespaceObject.join)(root, `${String(counter).padStart(2, '0')}-${name}`);
            await (0,promises_namespaceObject.mkdir)(path, { recursive: true });
            await (0,promises_namespaceObject.chmod)(path, 0o755);
            return path;
        },
        async dispose() {
            await (0,promises_namespaceObject.rm)(root, { recursive: true, force: true, maxRetries: 3 });
        }
    };
}
async function ensureParent(path) {
    const dir = (0,external_node_path_namespaceObject.dirname)(path);
    await (0,promises_namespaceObject.mkdir)(dir, { recursive: true, mode: 0o755 });
}
async function writeEntryFile(path, data, executable) {
    await ensureParent(path);
    await (0,promises_namespaceObject.writeFile)(path, data);
    // Explicit chmod: the process umask must not decide what the container's uid may read.
    await (0,promises_namespaceObject.chmod)(path, executable ? 0o755 : 0o644);
}
async function mapLimit(items, limit, fn) {
    let next = 0;
    const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
        while (next < items.length) {
            const item = items[next++];
            await fn(item);
        }
    });
    await Promise.all(workers);
}
/**
 * Copy the snapshot's entries from the real checkout into `dest`, verifying each file's SHA-256
 * against the snapshot: a checkout that changed after it was snapshotted is refused.
 */
async function stageTree(repoRoot, entries, dest) {
    await mapLimit(entries, 16, async (entry) => {
        const target = (0,external_node_path_namespaceObject.join)(dest, ...entry.path.split('/'));
        if (entry.kind === 'symlink') {
            await ensureParent(target);
            const linkTarget = await (0,promises_namespaceObject.readlink)((0,external_node_path_namespaceObject.join)(repoRoot, ...entry.path.split('/')));
            if ((0,external_node_crypto_namespaceObject.createHash)('sha256').update(linkTarget, 'utf8').digest('hex') !== entry.sha256) {
                throw new VerificationError('snapshot_mismatch', `link '${entry.path}' changed after the snapshot was taken; validate again`);
            }
            await (0,promises_namespaceObject.symlink)(linkTarget, target);
            return;
        }
        const data = await (0,promises_namespaceObject.readFile)((0,external_node_path_namespaceObject.join)(repoRoot, ...entry.path.split('/')));
        const sha = (0,external_node_crypto_namespaceObject.createHash)('sha256').update(data).digest('hex');
        if (sha !== entry.sha256) {
            throw new VerificationError('snapshot_mismatch', `'${entry.path}' changed after the snapshot was taken; stop writing to the checkout and validate again`);
        }
        await writeEntryFile(target, data, entry.mode === '100755');
    });
}
/** Write patched contents over a copy: a Buffer replaces or creates a file, null deletes it. */
async function writeChanges(dest, changes, modes) {
    for (const [path, content] of changes) {
        const target = (0,external_node_path_namespaceObject.join)(dest, ...path.split('/'));
        // Remove first, so a path that is a link is replaced, never written through.
        await (0,promises_namespaceObject.rm)(target, { force: true });
        if (content !== null)
            await writeEntryFile(target, content, modes.get(path) === '100755');
    }
}
/** A fresh, independent copy of a staged tree (symlinks copied as links, never followed). */
async function cloneTree(source, dest) {
    try {
        await (0,promises_namespaceObject.cp)(source, dest, { recursive: true, verbatimSymlinks: true, preserveTimestamps: false });
        await (0,promises_namespaceObject.chmod)(dest, 0o755);
    }
    catch (error) {
        throw new InfrastructureError(`could not copy ${source} to ${dest}: ${error.message}`, { cause: error });
    }
}
/** Every regular file under `dir`, as sorted '/'-separated relative paths. */
async function listFiles(dir) {
    const out = [];
    async function walk(current) {
        for (const entry of await (0,promises_namespaceObject.readdir)(current, { withFileTypes: true })) {
            const full = (0,external_node_path_namespaceObject.join)(current, entry.name);
            if (entry.isDirectory())
                await walk(full);
            else if (entry.isFile())
                out.push((0,external_node_path_namespaceObject.relative)(dir, full).split(external_node_path_namespaceObject.sep).join('/'));
        }
    }
    await walk(dir);
    return out.sort();
}
/**
 * Place external tests at `placement` inside a copy. Whatever the candidate put at that path is
 * removed first, so a pre-created file can never stand in for the grader's.
 */
async function stageExternalTests(copy, sourceDir, placement) {
    const target = (0,external_node_path_namespaceObject.join)(copy, ...placement.split('/'));
    await (0,promises_namespaceObject.rm)(target, { recursive: true, force: true });
    await (0,promises_namespaceObject.mkdir)(target, { recursive: true, mode: 0o755 });
    const files = await listFiles(sourceDir);
    for (const file of files) {
        const from = (0,external_node_path_namespaceObject.join)(sourceDir, ...file.split('/'));
        const info = await (0,promises_namespaceObject.lstat)(from);
        await writeEntryFile((0,external_node_path_namespaceObject.join)(target, ...file.split('/')), await (0,promises_namespaceObject.readFile)(from), (info.mode & 0o100) !== 0);
    }
    return files.map((f) => `${placement}/${f}`);
}
/** Write the adapter's harness files into a copy. */
async function stageHarness(copy, harnessDir, files) {
    const target = (0,external_node_path_namespaceObject.join)(copy, ...harnessDir.split('/'));
    await (0,promises_namespaceObject.rm)(target, { recursive: true, force: true });
    for (const [name, text] of Object.entries(files)) {
        await writeEntryFile((0,external_node_path_namespaceObject.join)(target, name), Buffer.from(text, 'utf8'), false);
    }
}
/** Read every file a run left in its results folder (names relative to it), as UTF-8 text. */
async function readResults(dir, maxBytes) {
    const files = {};
    const problems = [];
    let total = 0;
    for (const name of await listFiles(dir)) {
        const data = await (0,promises_namespaceObject.readFile)((0,external_node_path_namespaceObject.join)(dir, ...name.split('/')));
        total += data.length;
        if (total > maxBytes) {
            problems.push(`result files exceed ${maxBytes} bytes`);
            break;
        }
        files[name] = data.toString('utf8');
    }
    return { files, problems };
}

;// CONCATENATED MODULE: ./src/validate.ts













const PLACEMENT = { reproduction: `${RESERVED_DIR}/reproduction`, hidden: `${RESERVED_DIR}/hidden` };
/** Result files larger than this in total are not read (the run then has a problem, never a pass). */
const MAX_RESULT_BYTES = 64 * 1024 * 1024;
const PLAN = [
    { label: 'reproduction_before', tree: 'base', tests: { dir: 'reproduction', placement: PLACEMENT.reproduction } },
    { label: 'reproduction_after', tree: 'patched', tests: { dir: 'reproduction', placement: PLACEMENT.reproduction } },
    { label: 'regression_before', tree: 'base' },
    { label: 'regression_after', tree: 'patched' },
    { label: 'hidden', tree: 'patched', tests: { dir: 'hidden', placement: PLACEMENT.hidden } }
];
/** Snapshot entries of the patched tree, derived from the base entries and the changes. */
function patchedEntries(base, changes) {
    const byPath = new Map(base.map((e) => [e.path, e]));
    for (const [path, content] of changes) {
        if (content === null) {
            byPath.delete(path);
        }
        else {
            const mode = byPath.get(path)?.mode ?? '100644';
            byPath.set(path, { path, kind: 'file', mode, sha256: (0,external_node_crypto_namespaceObject.createHash)('sha256').update(content).digest('hex'), size: content.length });
        }
    }
    return [...byPath.values()];
}
async function validate_mapLimit(items, limit, fn) {
    const out = new Array(items.length);
    let next = 0;
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
        while (next < items.length) {
            const index = next++;
            out[index] = await fn(items[index]);
        }
    }));
    return out;
}
async function executeRun(plan, request, scratch, trees, testDirs) {
    const { adapter, runner, limits } = request;
    let argv = [];
    try {
        const copy = await scratch.folder(`${plan.label}-repo`);
        await cloneTree(trees[plan.tree], copy);
        await stageHarness(copy, HARNESS_DIR, adapter.harness);
        let files;
        if (plan.tests) {
            const staged = await stageExternalTests(copy, testDirs[plan.tests.dir], plan.tests.placement);
            files = staged.filter((f) => adapter.isTestFile(f.slice(plan.tests.placement.length + 1)));
        }
        const results = await scratch.folder(`${plan.label}-results`);
        // The container's non-root uid must be able to write its results here, and nowhere else.
        await (0,promises_namespaceObject.chmod)(results, 0o777);
        const view = runner.view(copy, results);
        const command = adapter.command({ view, ...(files ? { files, testRoot: plan.tests.placement } : {}) });
        argv = command.argv;
        const outcome = await runner.run({
            hostWorkdir: copy,
            hostResultsDir: results,
            argv: command.argv,
            env: command.env,
            timeoutMs: limits.timeoutMs,
            outputLimitBytes: limits.outputLimitBytes,
            label: plan.label
        });
        const read = await readResults(results, MAX_RESULT_BYTES);
        const parsed = adapter.parse({
            files: read.files,
            exitCode: outcome.exitCode,
            workdir: view.workdir,
            testRoots: plan.tests ? [plan.tests.placement] : []
        });
        parsed.problems.push(...read.problems);
        const record = {
            label: plan.label,
            argv: command.argv,
            exit_code: outcome.exitCode,
            signal: outcome.signal,
            timed_out: outcome.timedOut,
            output_truncated: outcome.outputTruncated,
            output_bytes: outcome.outputBytes,
            output_sha256: outcome.outputSha256,
            duration_ms: Math.round(outcome.durationMs),
            problems: parsed.problems
        };
        const evidence = { label: plan.label, exitCode: outcome.exitCode, timedOut: outcome.timedOut, outputTruncated: outcome.outputTruncated, parsed };
        return { evidence, record };
    }
    catch (error) {
        // Whatever stopped this run (Docker, the file system), it is never a pass and never the patch's fault.
        const message = error instanceof InfrastructureError ? error.message : `${error.name}: ${error.message}`;
        return {
            evidence: { label: plan.label, exitCode: null, timedOut: false, outputTruncated: false, infraError: message },
            record: {
                label: plan.label,
                argv,
                exit_code: null,
                signal: null,
                timed_out: false,
                output_truncated: false,
                output_bytes: 0,
                output_sha256: (0,external_node_crypto_namespaceObject.createHash)('sha256').digest('hex'),
                duration_ms: 0,
                problems: [],
                infra_error: message
            }
        };
    }
}
/**
 * Validate an approved proposal. Refusals (bad binding, policy, a diff that does not apply) throw
 * before any test runs; everything after that ends in a sealed receipt.
 */
async function validate_validate(request, deps) {
    const { proposal, approval } = request;
    if (approval.proposal_hash !== proposal.proposal_hash) {
        throw new VerificationError('approval_mismatch', 'the approval is for another proposal; approve this proposal_hash');
    }
    const changes = checkDiff(proposal.diff, request.limits.diff);
    const startedAt = deps.now();
    const before = await deps.snapshot(request.repoDir);
    if (before.digest !== proposal.base_snapshot) {
        throw new VerificationError('snapshot_mismatch', `the repository's snapshot ${before.digest} is not the proposal's base ${proposal.base_snapshot}; check out the base the diff was proposed for`);
    }
    const [reproductionSnap, hiddenSnap] = await Promise.all([deps.snapshot(request.reproductionDir), deps.snapshot(request.hiddenDir)]);
    for (const [flag, snap] of [['--reproduction', reproductionSnap], ['--hidden', hiddenSnap]]) {
        if (!snap.entries.some((e) => e.kind === 'file' && request.adapter.isTestFile(e.path))) {
            throw new ConfigurationError(`${flag} holds no test files the ${request.adapter.name} adapter runs; give the folder of external tests`);
        }
    }
    const scratch = await createScratch();
    try {
        const base = await scratch.folder('base');
        await stageTree(request.repoDir, before.entries, base);
        checkTargets(changes, new Map(before.entries.map((e) => [e.path, e.kind])));
        const tracked = new Set(before.entries.map((e) => e.path));
        const applied = applyFileChanges((path) => (tracked.has(path) ? (0,external_node_fs_namespaceObject.readFileSync)((0,external_node_path_namespaceObject.join)(base, ...path.split('/'))) : undefined), changes);
        const patched = await scratch.folder('patched');
        await cloneTree(base, patched);
        await writeChanges(patched, applied, new Map(before.entries.map((e) => [e.path, e.mode])));
        const patchedSnapshot = snapshotDigest(patchedEntries(before.entries, applied));
        deps.log(`base ${before.digest}, patched ${patchedSnapshot}; running ${PLAN.length} runs on the ${request.runner.description.kind} runner`);
        const testDirs = { reproduction: request.reproductionDir, hidden: request.hiddenDir };
        const outcomes = await validate_mapLimit(PLAN, request.concurrency, (plan) => executeRun(plan, request, scratch, { base, patched }, testDirs));
        const evidence = Object.fromEntries(outcomes.map((o) => [o.evidence.label, o.evidence]));
        const records = Object.fromEntries(outcomes.map((o) => [o.record.label, o.record]));
        const after = await deps.snapshot(request.repoDir);
        const unchanged = after.digest === before.digest;
        const delta = diffSnapshots(before, after);
        const judgement = judge(evidence, unchanged);
        const runsOf = {
            reproduction_before: [records.reproduction_before],
            reproduction_after: [records.reproduction_after],
            regression: [records.regression_before, records.regression_after],
            hidden: [records.hidden]
        };
        const runner = request.runner.description;
        return sealReceipt({
            schema: 'patchproof.receipt/v1',
            tool_version: TOOL_VERSION,
            run_id: approval.run_id,
            started_at: startedAt.toISOString(),
            finished_at: deps.now().toISOString(),
            verdict: judgement.verdict,
            proof_grade: runner.isolated && judgement.verdict === 'passed' && unchanged,
            reasons: judgement.reasons,
            bindings: {
                proposal_hash: proposal.proposal_hash,
                approval_digest: approval.approval_digest,
                approved_by: approval.approved_by,
                diff_digest: proposal.diff_digest,
                base_snapshot: proposal.base_snapshot,
                patched_snapshot: patchedSnapshot,
                reproduction_digest: reproductionSnap.digest,
                hidden_digest: hiddenSnap.digest
            },
            repository: {
                snapshot_before: before.digest,
                snapshot_after: after.digest,
                unchanged,
                changed_paths: [...delta.added, ...delta.removed, ...delta.changed].sort()
            },
            runner: { ...runner, settings: [...runner.settings] },
            adapter: request.adapter.name,
            limits: {
                timeout_ms: request.limits.timeoutMs,
                output_limit_bytes: request.limits.outputLimitBytes,
                diff_max_bytes: request.limits.diff.maxBytes,
                diff_max_files: request.limits.diff.maxFiles
            },
            phases: judgement.phases.map((p) => ({ ...p, runs: runsOf[p.name] ?? [] }))
        });
    }
    finally {
        await scratch.dispose();
    }
}

;// CONCATENATED MODULE: external "node:util"
const external_node_util_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");
;// CONCATENATED MODULE: ./src/cli/settings.ts




/**
 * The one place that reads the command line: each subcommand's flags become one typed settings
 * object. Errors name the flag and the accepted form.
 */
const USAGE = `usage:
  patchproof propose --repo DIR --diff FILE --out FILE [--max-diff-bytes N] [--max-diff-files N]
  patchproof approve --proposal FILE --proposal-hash HEX --approved-by NAME --run-id ID --out FILE
  patchproof validate --repo DIR --proposal FILE --approval FILE --reproduction DIR --hidden DIR
                      --adapter ${ADAPTER_NAMES.join('|')} --runner local|docker [--image REF] --out DIR
                      [--timeout SECONDS] [--output-limit BYTES] [--concurrency N]
                      [--max-diff-bytes N] [--max-diff-files N]
  patchproof verify-receipt FILE

exit codes: 0 passed (verify-receipt: valid), 1 failed (verify-receipt: invalid), 2 refused, 3 inconclusive`;
/** Per-run defaults, documented in the README's CLI reference. */
const DEFAULT_TIMEOUT_SECONDS = 300;
const DEFAULT_OUTPUT_LIMIT_BYTES = 4 * 1024 * 1024;
const DEFAULT_CONCURRENCY = 2;
function settings_required(values, name, form) {
    const value = values[name];
    if (value === undefined || value === '')
        throw new ConfigurationError(`--${name} is required: give ${form}`);
    return value;
}
function positiveInt(values, name, fallback, max) {
    const raw = values[name];
    if (raw === undefined)
        return fallback;
    if (!/^[1-9][0-9]*$/.test(raw) || Number(raw) > max) {
        throw new ConfigurationError(`--${name} '${raw}' is not valid; give a whole number from 1 to ${max}`);
    }
    return Number(raw);
}
function settings_parse(args, options) {
    try {
        const { values, positionals } = (0,external_node_util_namespaceObject.parseArgs)({ args, options, strict: true, allowPositionals: true });
        return { values: values, positionals };
    }
    catch (error) {
        throw new ConfigurationError(`${error.message.split('\n')[0]}; run 'patchproof --help' for usage`);
    }
}
const str = { type: 'string' };
const diffLimitOptions = { 'max-diff-bytes': str, 'max-diff-files': str };
/** Read argv (without node and script) into settings. Throws ConfigurationError for any mistake. */
function readSettings(argv) {
    const [command, ...rest] = argv;
    if (command === undefined || command === '--help' || command === '-h' || command === 'help')
        return 'help';
    const noPositionals = (positionals) => {
        if (positionals.length > 0)
            throw new ConfigurationError(`unexpected argument '${positionals[0]}'; run 'patchproof --help' for usage`);
    };
    switch (command) {
        case 'propose': {
            const { values, positionals } = settings_parse(rest, { repo: str, diff: str, out: str, ...diffLimitOptions });
            noPositionals(positionals);
            return {
                command,
                repo: settings_required(values, 'repo', 'the repository folder'),
                diff: settings_required(values, 'diff', 'the unified diff file'),
                out: settings_required(values, 'out', 'the proposal file to write'),
                maxDiffBytes: positiveInt(values, 'max-diff-bytes', DEFAULT_DIFF_LIMITS.maxBytes, 256 * 1024 * 1024),
                maxDiffFiles: positiveInt(values, 'max-diff-files', DEFAULT_DIFF_LIMITS.maxFiles, 100_000)
            };
        }
        case 'approve': {
            const { values, positionals } = settings_parse(rest, { proposal: str, 'proposal-hash': str, 'approved-by': str, 'run-id': str, out: str });
            noPositionals(positionals);
            return {
                command,
                proposal: settings_required(values, 'proposal', 'the proposal file'),
                proposalHash: settings_required(values, 'proposal-hash', "the proposal's full 64-hex proposal_hash"),
                approvedBy: settings_required(values, 'approved-by', 'the approver name'),
                runId: settings_required(values, 'run-id', 'a run id'),
                out: settings_required(values, 'out', 'the approval file to write')
            };
        }
        case 'validate': {
            const { values, positionals } = settings_parse(rest, {
                repo: str, proposal: str, approval: str, reproduction: str, hidden: str, adapter: str, runner: str, image: str, out: str,
                timeout: str, 'output-limit': str, concurrency: str, ...diffLimitOptions
            });
            noPositionals(positionals);
            const adapter = settings_required(values, 'adapter', ADAPTER_NAMES.join(' or '));
            if (!ADAPTER_NAMES.includes(adapter)) {
                throw new ConfigurationError(`--adapter '${adapter}' is unknown; use one of: ${ADAPTER_NAMES.join(', ')}`);
            }
            const runner = settings_required(values, 'runner', 'local or docker');
            if (runner !== 'local' && runner !== 'docker')
                throw new ConfigurationError(`--runner '${runner}' is unknown; use local or docker`);
            if (runner === 'docker' && values.image === undefined) {
                throw new ConfigurationError('--image is required with --runner docker: give name@sha256:<digest> or a local image ID sha256:<64 hex>');
            }
            if (runner === 'local' && values.image !== undefined)
                throw new ConfigurationError('--image is only for --runner docker');
            return {
                command,
                repo: settings_required(values, 'repo', 'the repository folder'),
                proposal: settings_required(values, 'proposal', 'the proposal file'),
                approval: settings_required(values, 'approval', 'the approval file'),
                reproduction: settings_required(values, 'reproduction', 'the folder of reproduction tests'),
                hidden: settings_required(values, 'hidden', 'the folder of hidden tests'),
                adapter: adapter,
                runner,
                ...(values.image !== undefined ? { image: values.image } : {}),
                out: settings_required(values, 'out', 'the output folder for receipt.json and report.md'),
                timeoutMs: positiveInt(values, 'timeout', DEFAULT_TIMEOUT_SECONDS, 24 * 3600) * 1000,
                outputLimitBytes: positiveInt(values, 'output-limit', DEFAULT_OUTPUT_LIMIT_BYTES, 1024 * 1024 * 1024),
                concurrency: positiveInt(values, 'concurrency', DEFAULT_CONCURRENCY, 16),
                maxDiffBytes: positiveInt(values, 'max-diff-bytes', DEFAULT_DIFF_LIMITS.maxBytes, 256 * 1024 * 1024),
                maxDiffFiles: positiveInt(values, 'max-diff-files', DEFAULT_DIFF_LIMITS.maxFiles, 100_000)
            };
        }
        case 'verify-receipt': {
            const { positionals } = settings_parse(rest, {});
            if (positionals.length !== 1)
                throw new ConfigurationError('verify-receipt takes exactly one receipt file');
            return { command, file: positionals[0] };
        }
        default:
            throw new ConfigurationError(`unknown command '${command}'; use propose, approve, validate or verify-receipt`);
    }
}

;// CONCATENATED MODULE: ./src/cli/run.ts















/** Documented exit codes. */
const EXIT = { passed: 0, failed: 1, refused: 2, inconclusive: 3 };
const VERDICT_EXIT = { passed: EXIT.passed, failed: EXIT.failed, inconclusive: EXIT.inconclusive };
async function propose(settings, io) {
    const repo = await existingDir(settings.repo, '--repo');
    const diff = await readTextFile(settings.diff, '--diff');
    await assertOutside(settings.out, repo, '--out');
    // Refuse a bad diff at proposal time already: nobody should be asked to approve it.
    checkDiff(diff, { maxBytes: settings.maxDiffBytes, maxFiles: settings.maxDiffFiles });
    const snapshot = await takeSnapshot(repo);
    const proposal = createProposal(diff, snapshot.digest, TOOL_VERSION);
    await writeFileAtomic(settings.out, `${JSON.stringify(proposal, null, 2)}\n`);
    io.out(`proposal_hash: ${proposal.proposal_hash}\nbase_snapshot: ${proposal.base_snapshot}\nwritten: ${settings.out}\n`);
    return EXIT.passed;
}
async function approve(settings, io) {
    const proposal = parseProposal(await readJsonFile(settings.proposal, '--proposal'), settings.proposal);
    const approval = approveProposal(proposal, settings.proposalHash, settings.runId, settings.approvedBy, TOOL_VERSION);
    await writeFileAtomic(settings.out, `${JSON.stringify(approval, null, 2)}\n`);
    io.out(`approved: ${approval.proposal_hash}\napproval_digest: ${approval.approval_digest}\nwritten: ${settings.out}\n`);
    return EXIT.passed;
}
async function createRunner(settings) {
    if (settings.runner === 'local')
        return createLocalRunner();
    return createDockerRunner({ image: settings.image });
}
async function validateCommand(settings, io) {
    const repo = await existingDir(settings.repo, '--repo');
    const reproduction = await existingDir(settings.reproduction, '--reproduction');
    const hidden = await existingDir(settings.hidden, '--hidden');
    await assertOutside(settings.out, repo, '--out');
    const proposal = parseProposal(await readJsonFile(settings.proposal, '--proposal'), settings.proposal);
    const approval = parseApproval(await readJsonFile(settings.approval, '--approval'), settings.approval, proposal);
    const adapter = getAdapter(settings.adapter);
    const runner = await createRunner(settings);
    const removeHandlers = installSignalCleanup(runner);
    try {
        const receipt = await validate_validate({
            repoDir: repo,
            proposal,
            approval,
            reproductionDir: reproduction,
            hiddenDir: hidden,
            adapter,
            runner,
            limits: { timeoutMs: settings.timeoutMs, outputLimitBytes: settings.outputLimitBytes, diff: { maxBytes: settings.maxDiffBytes, maxFiles: settings.maxDiffFiles } },
            concurrency: settings.concurrency
        }, { snapshot: (dir) => takeSnapshot(dir), now: () => new Date(), log: (line) => io.err(`${line}\n`) });
        const text = serializeReceipt(receipt);
        const check = verifyReceiptText(text);
        await writeFileAtomic((0,external_node_path_namespaceObject.join)(settings.out, 'receipt.json'), text);
        await writeFileAtomic((0,external_node_path_namespaceObject.join)(settings.out, 'report.md'), renderReport(receipt));
        io.out(`${renderPhaseTable(receipt, check.integrity_valid)}\n`);
        if (!check.integrity_valid) {
            io.err(`patchproof: the receipt failed its own verification: ${check.errors.join('; ')}\n`);
            return EXIT.inconclusive;
        }
        return VERDICT_EXIT[receipt.verdict];
    }
    finally {
        await runner.dispose();
        removeHandlers();
    }
}
async function verifyCommand(settings, io) {
    const text = await readTextFile(settings.file, 'receipt');
    const check = verifyReceiptText(text);
    io.out(`${JSON.stringify({ integrity_valid: check.integrity_valid, verdict: check.verdict, proof_grade: check.proof_grade, receipt_digest: check.receipt_digest, errors: check.errors }, null, 2)}\n`);
    return check.integrity_valid ? EXIT.passed : EXIT.failed;
}
/**
 * The CLI's single entry: reads settings, runs one command, and is the only place that turns an
 * error into an exit code. Refusals are one line on stderr.
 */
async function run(argv, io) {
    try {
        const settings = readSettings(argv);
        if (settings === 'help') {
            io.out(`patchproof ${TOOL_VERSION}\n${USAGE}\n`);
            return EXIT.passed;
        }
        switch (settings.command) {
            case 'propose':
                return await propose(settings, io);
            case 'approve':
                return await approve(settings, io);
            case 'validate':
                return await validateCommand(settings, io);
            case 'verify-receipt':
                return await verifyCommand(settings, io);
        }
    }
    catch (error) {
        if (isRefusal(error)) {
            io.err(`patchproof: refused (${error.code}): ${error.message}\n`);
            return EXIT.refused;
        }
        if (error instanceof InfrastructureError) {
            io.err(`patchproof: infrastructure error, nothing was judged: ${error.message}\n`);
            return EXIT.inconclusive;
        }
        io.err(`patchproof: internal error, nothing was judged: ${error instanceof Error ? error.stack ?? error.message : canonicalJson(String(error))}\n`);
        return EXIT.inconclusive;
    }
}

;// CONCATENATED MODULE: ./src/cli/index.ts

void run(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text)
}).then((code) => {
    process.exitCode = code;
});

