import path from 'node:path';
import { ConfigurationError } from '../../errors.js';
import { RESERVED_DIR } from '../adapter.js';

/** Checks on the test files of a run and the repository's own suite, shared by every adapter. */

/**
 * Checks that a run has test files and that each is a repository-relative path staying inside the
 * copy: an empty list must never fall back to running the whole repository suite, nor an odd path
 * reach outside the copy.
 */
export function checkTestFiles(files: readonly string[]): void {
  if (files.length === 0) {
    throw new ConfigurationError('no test files to run: the adapter recognises none of the given files as tests');
  }
  for (const file of files) {
    checkRelativePath(file, 'test file');
  }
}

/** Throws unless `value` is a non-empty repository-relative path without '..' segments. */
export function checkRelativePath(value: string, what: string): void {
  if (value === '' || path.posix.isAbsolute(value) || value.split(/[\\/]/).includes('..')) {
    throw new ConfigurationError(`Invalid ${what} '${value}'. Expected a path relative to the repository root, without '..'.`);
  }
}

/**
 * The paths among `paths` that `isSuiteFile` accepts, sorted, never under RESERVED_DIR nor inside
 * a folder named in `excludedFolders` (at any depth).
 */
export function selectSuiteFiles(paths: readonly string[], isSuiteFile: (path: string) => boolean, excludedFolders: readonly string[]): string[] {
  const excluded = new Set(excludedFolders);
  return [
    ...new Set(
      paths.filter((file) => {
        const folders = file.split('/').slice(0, -1);
        return folders[0] !== RESERVED_DIR && !folders.some((folder) => excluded.has(folder)) && isSuiteFile(file);
      })
    )
  ].sort();
}
