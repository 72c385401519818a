/**
 * The jest launcher (issue 28 item 6): the test process's `process.argv` is a plain run's.
 *
 * Started as `node <launcher> <flags as one JSON array>`, it reads its flags, sets `process.argv`
 * to `[node, <workdir>/node_modules/jest/bin/jest.js]` — what `npx jest` with no arguments gives —
 * and then hands the flags to jest's own `run()`, which parses them as its command line would. A
 * test that reads `process.argv` (a CLI library's tests often do, and some exit on a flag they do
 * not know) sees no flag of PatchProof's: no reporters, no output file, no test match. It also
 * sets `NODE_ENV=test` when unset, as jest's bin does (jest-cli/bin/jest.js).
 */

/** File name of the staged launcher (under HARNESS_DIR); its name is hidden whole each run. */
export const JEST_LAUNCH_FILE = 'patchproof-jest-launch.cjs';

/** Source of the launcher. */
export const JEST_LAUNCH_SOURCE = `// Generated: starts jest with a plain process.argv (see src/adapters/jest/launch.ts).
'use strict';
const path = require('node:path');
const flags = JSON.parse(process.argv[2] || '[]');
if (!Array.isArray(flags) || flags.some((flag) => typeof flag !== 'string')) {
  process.stderr.write('the launcher expects one JSON array of strings\\n');
  process.exit(2);
}
const jest = path.join(process.cwd(), 'node_modules', 'jest');
process.argv = [process.argv[0], path.join(jest, 'bin', 'jest.js')];
if (process.env.NODE_ENV == null) process.env.NODE_ENV = 'test';
require(jest).run(flags);
`;
