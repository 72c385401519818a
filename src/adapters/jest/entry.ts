import type { CanaryPlan } from '../adapter.js';
import { checkCanaryPlan } from '../shared/canary.js';
import { canaryDeclarations, environmentDocblock, indentBody, tripwirePreamble, wrapperSpecifier } from '../shared/js-runner-wrapper.js';

/**
 * The jest wrapper of one test file (see js-runner-wrapper.ts for why wrappers exist).
 *
 * It is CommonJS (`.cjs`, whatever the package's `type`), takes `test` and `expect` from
 * `@jest/globals` (which jest's runtime provides whether or not globals are injected), and
 * `require`s the test file, so jest transforms it with the repository's own transform (babel-jest,
 * ts-jest...) and hoists its `jest.mock` calls as usual. The canaries (see canaryDeclarations) use
 * the global `expect` when there is one (what the tests use), else `@jest/globals`' own, and
 * node's `assert`, all looked up when they run. Before the test file loads, the wrapper takes the
 * tripwire's identities (tripwirePreamble); the must-pass canary compares them.
 *
 * What it costs: a test file that only runs as native ESM (jest's experimental VM modules) cannot
 * be `require`d and reads as that file's collection error. A file with `.only` makes jest skip the
 * canaries too, so such a run reads as compromised rather than passing.
 */

/** Source of the wrapper of `file` (repository-relative), for a run with canary `plan`. */
export function jestWrapperSource(file: string, plan: CanaryPlan, fileSource?: string): string {
  checkCanaryPlan(plan);
  const docblock = environmentDocblock(fileSource);
  const canaries = canaryDeclarations(plan).map(
    ([name, body]) =>
      `patchproofGlobals.test(${JSON.stringify(name)}, () => {\n  const e = globalThis.expect ?? patchproofGlobals.expect;\n  const a = require('node:assert');\n${indentBody(body)}\n});`
  );
  return [
    ...(docblock === undefined ? [] : [docblock]),
    '// PatchProof jest wrapper (generated; see src/adapters/jest/entry.ts).',
    "'use strict';",
    "const patchproofGlobals = require('@jest/globals');",
    '',
    ...tripwirePreamble('globalThis.expect ?? patchproofGlobals.expect'),
    'try {',
    `  require(${JSON.stringify(wrapperSpecifier('jest', file))});`,
    '} catch (error) {',
    `  patchproofGlobals.test(${JSON.stringify(file)}, () => {`,
    '    throw error;',
    '  });',
    '}',
    '',
    ...canaries,
    ''
  ].join('\n');
}
