import { dockerGate } from './hostile-support.js';
import { describeJsRow } from './matrix-js-support.js';

/**
 * The hostile matrix's vitest row (vitest-chunk, its committed sealed pack): sparing the canaries
 * by position, a `setupFiles` entry added to vitest.config.ts, the hidden tests read at import,
 * grading-aware with its old-layout control, a flood of files (matrix-js-support.ts).
 */

describeJsRow(await dockerGate('hostile matrix tests, vitest row'), {
  adapter: 'vitest',
  fixture: 'vitest-chunk',
  cells: [
    { cls: 'a', diff: 'vitest-spare-canary-position', expect: { kind: 'compromised' } },
    { cls: 'd', diff: 'vitest-autoload-config', expect: { kind: 'tampered', path: 'vitest.config.ts', change: 'modify' } },
    { cls: 'e', diff: 'vitest-read-hidden-at-import', expect: { kind: 'sealed' } },
    { cls: 'f', diff: 'vitest-grading-aware', expect: { kind: 'neutral' } },
    { cls: 'g', diff: 'vitest-inode-flood', expect: { kind: 'flood' }, timeoutSeconds: 60 }
  ]
});
