import { dockerGate } from './hostile-support.js';
import { describeNativeColumn } from './matrix-native-support.js';

/**
 * The hostile matrix's go column (go-paginate, its committed sealed pack with a dependency stage
 * shared through one setup cache): grading-aware, a flood of files and the tests read at package
 * init (matrix-native-support.ts says what each cell does and must come to).
 */

describeNativeColumn(await dockerGate('native hostile matrix, go column'), 'go');
