import path from 'node:path';
import type { CanaryPlan } from '../adapter.js';
import { HARNESS_DIR } from '../adapter.js';
import { canaryNames, canaryRunOrder, checkCanaryPlan } from '../shared/canary.js';
import { JS_TRIPWIRE_SOURCE, jsTripwireCheck } from '../shared/tripwire.js';

/**
 * The entry module PatchProof hands to `node --test` instead of the test files themselves.
 *
 * Node 20 runs every test file in a process of its own, so a canary file would never share a
 * process with the code under test. The entry imports every test file of the run, in order, into
 * one process, and only then registers the two grader canaries, which therefore run last and after
 * all code under test was imported: code that neutralises `assert` or the runner at import time
 * also turns the must-fail canary green.
 *
 * Each import is wrapped: a file that fails to import (a SyntaxError, a missing module or export,
 * a throw at top level) gets a test in its own name that rethrows the error, so it reads as that
 * file's import or collection error while the other files still run. Node reports each test with
 * the file that defined it (`data.file`), so ids stay `file > suite > test`.
 *
 * The price is per-file isolation: all test files share one module graph and one global state;
 * hooks registered at a file's top level (`before`, `beforeEach`, `after`...) belong to node's root
 * test and so apply to every file's tests and the canaries (a top-level `after` runs once, at the
 * very end); tests of a file may start while later files are still loading; and a
 * `process.exit()` anywhere ends the whole run, losing every result not yet reported, the
 * canaries included (they are then `missing`).
 *
 * The tripwire (tripwire.ts): before the first test file is imported, the entry takes the identity
 * of every function of `node:assert`, `node:assert/strict` (`assert.strict`) and `node:test`
 * (`test`, `it`, `describe`, the hooks...); the must-pass canary takes them again and fails, naming
 * each one replaced or removed.
 */

/** Stable id of the test node reports when the entry's process as a whole fails (a crash, `process.exit(3)`). */
export const NODE_TEST_ENTRY_ID = `${HARNESS_DIR}/entry.test.mjs`;

/** Where the entry module of a run is staged, relative to the copy's root (named from the nonce). */
export function nodeTestEntryPath(plan: CanaryPlan): string {
  checkCanaryPlan(plan);
  return `${HARNESS_DIR}/entry-${plan.nonce}.test.mjs`;
}

/** The import specifier of a repository-relative file, relative to the entry and URL-encoded. */
function specifier(file: string): string {
  const relative = path.posix.relative(HARNESS_DIR, file);
  return relative.split('/').map(encodeURIComponent).join('/');
}

/**
 * Source of the entry module for `files` (repository-relative, checked by the caller).
 * Canary assertions look `assert.strictEqual` up when they run, not when the entry loads, so a
 * replacement made by the code under test is the one they call.
 */
export function nodeTestEntrySource(files: readonly string[], plan: CanaryPlan): string {
  const names = canaryNames(plan);
  const imports = [...new Set(files)].map((file) => [file, specifier(file)]);
  const canaries = canaryRunOrder(plan).map((name) => {
    const expected = name === names.pass ? 1 : 2;
    const check = name === names.pass ? `  ${jsTripwireCheck('patchproofHeld', 'patchproofGroups')}\n` : '';
    return `test(${JSON.stringify(name)}, () => {\n${check}  assert.strictEqual(1, ${expected});\n});`;
  });
  return [
    '// PatchProof test entry (generated; see src/adapters/node-test/entry.ts).',
    "import assert from 'node:assert';",
    "import patchproofStrict from 'node:assert/strict';",
    "import patchproofNodeTest, { test } from 'node:test';",
    '',
    JS_TRIPWIRE_SOURCE,
    "const patchproofGroups = () => [['node:assert', assert], ['node:assert/strict', patchproofStrict], ['node:test', patchproofNodeTest]];",
    'const patchproofHeld = patchproofTake(patchproofGroups());',
    '',
    `const files = ${JSON.stringify(imports, null, 2)};`,
    '',
    'for (const [file, specifier] of files) {',
    '  try {',
    '    await import(specifier);',
    '  } catch (error) {',
    '    test(file, () => {',
    '      throw error;',
    '    });',
    '  }',
    '}',
    '',
    ...canaries,
    ''
  ].join('\n');
}
