import { dockerGate } from './hostile-support.js';
import { describeJsRow } from './matrix-js-support.js';

/**
 * The hostile matrix's node:test row (js-duration, its committed sealed pack): sparing the canaries
 * by file and by order, the hidden tests read at import (matrix-js-support.ts).
 */

describeJsRow(await dockerGate('hostile matrix tests, node:test row'), {
  adapter: 'node-test',
  fixture: 'js-duration',
  cells: [
    { cls: 'a', diff: 'node-spare-canary-file', expect: { kind: 'compromised' } },
    { cls: 'a', diff: 'node-spare-canary-order', expect: { kind: 'compromised' } },
    { cls: 'e', diff: 'node-read-hidden-at-import', expect: { kind: 'sealed' } }
  ]
});
