import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ROOT } from '../helpers/cli.js';
import { HARNESS_DIR, type CommandRequest, type TestAdapter } from '../../src/adapters/adapter.js';
import { cargoAdapter } from '../../src/adapters/cargo/index.js';
import { goAdapter } from '../../src/adapters/go/index.js';
import { jestAdapter } from '../../src/adapters/jest/index.js';
import type { JunitConfig } from '../../src/adapters/junit/config.js';
import { junitAdapter } from '../../src/adapters/junit/index.js';
import { nodeTestAdapter } from '../../src/adapters/node-test/index.js';
import { pytestAdapter } from '../../src/adapters/pytest/index.js';
import { RUN_MARKER_NAMES } from '../../src/adapters/shared/marker-names.js';
import { unittestAdapter } from '../../src/adapters/unittest/index.js';
import { vitestAdapter } from '../../src/adapters/vitest/index.js';
import { runNames } from '../../src/core/run-names.js';

/**
 * What a test process of each adapter sees, after the run's names (src/core/run-names.ts) are put
 * in the way src/phases/runs.ts puts them: argv, the environment's names and values, the paths of
 * the staged harness and generated files, and the text of those files. None may hold `patchproof`
 * in any case, nor the words the generated names used to carry (canary, oracle, channel, staged
 * roots, harness file names). The Docker end to end of the same is __tests__/hostile/grader-markers.test.ts.
 */

const NONCE = '0123456789abcdeffedcba98765432100123456789abcdeffedcba9876543210';
const SEED = 'aa55aa55aa55aa55aa55aa55aa55aa55';
const VIEW = { workdir: '/home/runner/work/project/project', resultsDir: '/home/runner/work/_temp/test-results' };
const WORDS = /patchproof|canary|oracle|channel|staged.?roots/i;

const JUNIT_PACK = join(ROOT, 'witness-packs', 'junit-semver');
const junit = junitAdapter((JSON.parse(readFileSync(join(JUNIT_PACK, 'witness.json'), 'utf8')) as { junit: JunitConfig }).junit, {
  'grader.test.js': readFileSync(join(JUNIT_PACK, 'canary', 'grader.test.js'), 'utf8')
});

const ROWS: [string, TestAdapter, string, Partial<CommandRequest>?][] = [
  ['node-test', nodeTestAdapter, 'repro.test.js'],
  ['unittest', unittestAdapter, 'test_repro.py'],
  ['pytest', pytestAdapter, 'test_repro.py'],
  ['jest', jestAdapter, 'repro.test.js'],
  ['vitest', vitestAdapter, 'repro.test.ts'],
  ['go', goAdapter, 'repro_test.go', { readFile: (path) => (path.endsWith('.go') ? 'package paginate\n\nfunc TestRepro(t *testing.T) {}\n' : undefined) }],
  ['cargo', cargoAdapter, 'repro.rs'],
  ['junit', junit, 'repro.test.js']
];

describe.each(ROWS)('%s: no marker in what its test process sees', (_name, adapter, file, extra) => {
  const placement = '.patchproof/reproduction';
  const request: CommandRequest = {
    view: VIEW,
    files: [`${placement}/${file}`],
    suite: false,
    testRoots: [placement],
    canary: { nonce: NONCE },
    ...extra
  };
  const command = adapter.command(request);
  const names = runNames(SEED, { names: [...RUN_MARKER_NAMES, ...(adapter.markerNames ?? [])] });
  const stage = { ...Object.fromEntries(Object.entries(adapter.harness).map(([name, text]) => [`${HARNESS_DIR}/${name}`, text])), ...command.stage };

  it('argv, the environment and the staged paths', () => {
    const seen = [
      ...command.argv.map((arg) => ['argv', names.hide(arg)]),
      ...Object.entries(command.env).flatMap(([key, value]) => [
        ['env name', names.hide(key)],
        [`env ${key}`, names.hide(value)]
      ]),
      ...Object.keys(stage).map((path) => ['staged path', names.hide(path)]),
      ...request.files.map((path) => ['test file', names.hide(path)])
    ];
    expect(seen.filter(([, text]) => WORDS.test(text ?? ''))).toEqual([]);
    // The host's names come back from what the run prints.
    for (const arg of command.argv) expect(names.reveal(names.hide(arg))).toBe(arg);
  });

  it('the text of the staged files', () => {
    expect(Object.entries(stage).filter(([, text]) => /patchproof/i.test(names.hide(text)))).toEqual([]);
  });
});
