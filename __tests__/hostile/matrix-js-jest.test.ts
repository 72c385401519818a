import { dockerGate } from './hostile-support.js';
import { describeJsRow } from './matrix-js-support.js';

/**
 * The hostile matrix's jest row (jest-money, its committed sealed pack): sparing the canaries by
 * position, configuration jest discovers by itself, the hidden tests read at import, grading-aware
 * with its old-layout control, a flood of files (matrix-js-support.ts says what each must come to).
 */

describeJsRow(await dockerGate('hostile matrix tests, jest row'), {
  adapter: 'jest',
  fixture: 'jest-money',
  cells: [
    { cls: 'a', diff: 'jest-spare-canary-position', expect: { kind: 'compromised' } },
    { cls: 'd', diff: 'jest-autoload-config', expect: { kind: 'tampered', path: 'jest.config.js', change: 'add' } },
    { cls: 'd', diff: 'jest-package-jest-key', expect: { kind: 'tampered', path: 'package.json', change: 'modify' } },
    { cls: 'e', diff: 'jest-read-hidden-at-import', expect: { kind: 'sealed' } },
    { cls: 'f', diff: 'jest-grading-aware', expect: { kind: 'neutral' } },
    { cls: 'g', diff: 'jest-inode-flood', expect: { kind: 'flood' }, timeoutSeconds: 60 }
  ]
});
