import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TwinCanary } from '../../src/adapters/adapter.js';
import { pytestAdapter } from '../../src/adapters/pytest/index.js';
import { pythonTwins } from '../../src/adapters/shared/python-twins.js';
import { takeTwins } from '../../src/adapters/shared/twin-stage.js';
import { unittestAdapter } from '../../src/adapters/unittest/index.js';
import type { TestCaseResult } from '../../src/core/test-results.js';
import { twinBehaved } from '../../src/core/twins.js';
import { runAnomalies } from '../../src/core/verdict.js';
import { freshCanary, removeCopy, runAdapter, stageCopy, type StagedCopy } from './data/run-adapter.js';

/**
 * Twin and mutant canaries for the Python adapters, on the host's python3 (the Docker end-to-end
 * and hostile tests are in __tests__/hostile/canary-twins.test.ts): generation with `ast`, real
 * unittest and pytest runs of the generated files, and the host-side judgement.
 */

const DATA = path.join(path.dirname(new URL(import.meta.url).pathname), 'data', 'python-twins');
const UNITTEST_FILE = 'tests/test_calc.py';
const PYTEST_FILE = 'tests/test_plain.py';

async function source(file: string): Promise<string> {
  return readFile(path.join(DATA, file), 'utf8');
}

describe('python twin generation (host python3, ast)', () => {
  it('inserts mutants of every eligible test and twins among the real tests, through the bindings the file uses', async () => {
    const text = await source(UNITTEST_FILE);
    const { stage, twins } = pythonTwins('unittest', { [UNITTEST_FILE]: text }, freshCanary(), { mutants: 'all', twins: 1 });
    // Six tests, each with an assertion the generator perturbs (value, truth, regex, wrapped list).
    expect(
      twins
        .filter((t) => t.kind === 'mutant')
        .map((t) => t.of)
        .sort()
    ).toEqual(['test_adds_small_numbers', 'test_divides_evenly', 'test_greets_by_name', 'test_lists_compare', 'test_positive_sum_is_truthy', 'test_zero_divisor_is_refused']);
    expect(twins.filter((t) => t.kind === 'twin')).toHaveLength(1);
    const out = stage[UNITTEST_FILE]!;
    // The real tests are all still there, unchanged; only methods were added, in the same class.
    for (const line of text.split('\n')) expect(out).toContain(line);
    for (const twin of twins) {
      expect(twin.owner).toBe('CalcTest');
      expect(twin.name).toMatch(/^test_[a-z0-9_]+$/);
      expect(out).toContain(`    def ${twin.name}(self):`);
    }
    // Nothing in the file says which test is a copy or what it must do.
    expect(out).not.toMatch(/mutant|twin|canary|patchproof/i);
    // Names are unique and none is a real test's name.
    const names = twins.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(text).not.toContain(name);
  });

  it('places copies at different positions and under different names from one nonce to the next', async () => {
    const text = await source(UNITTEST_FILE);
    const runs = Array.from({ length: 6 }, () => pythonTwins('unittest', { [UNITTEST_FILE]: text }, freshCanary(), { mutants: 2, twins: 1 }));
    expect(new Set(runs.map((r) => r.twins.map((t) => `${t.name}@${t.after}`).join(','))).size).toBeGreaterThan(1);
    expect(new Set(runs.map((r) => r.twins.map((t) => t.after).join(','))).size).toBeGreaterThan(1);
  });

  it('pytest style: module functions, Test* classes, assert statements and pytest.raises(match=)', async () => {
    const text = await source(PYTEST_FILE);
    const { stage, twins } = pythonTwins('pytest', { [PYTEST_FILE]: text }, freshCanary(), { mutants: 'all', twins: 0 });
    expect(twins.map((t) => [t.owner, t.of]).sort()).toEqual([
      [null, 'test_adds_negative_numbers'],
      [null, 'test_greets_the_world'],
      ['TestDivide', 'test_halves'],
      ['TestDivide', 'test_refuses_zero'],
      ['TestDivide', 'test_result_is_positive']
    ]);
    expect(stage[PYTEST_FILE]).toMatch(/assert not \(divide\(9, 3\) > 0\)/);
  });

  it('skips a file it cannot parse, and makes nothing of a file without eligible tests', () => {
    const { stage, twins } = pythonTwins('unittest', { 'tests/test_bad.py': 'def broken(:\n', 'tests/test_none.py': 'x = 1\n' }, freshCanary(), { mutants: 'all', twins: 2 });
    expect([stage, twins]).toEqual([{}, []]);
  });
});

describe('python twins on real runs', () => {
  let copy: StagedCopy | undefined;
  afterEach(async () => {
    await removeCopy(copy);
    copy = undefined;
  });

  it.each([
    ['unittest', unittestAdapter, [UNITTEST_FILE]],
    ['pytest', pytestAdapter, [UNITTEST_FILE, PYTEST_FILE]]
  ] as const)(
    '%s: every mutant fails and every twin passes next to its passing original; the real tests keep their ids and lines',
    async (_name, adapter, files) => {
      copy = await stageCopy(adapter, 'python-twins');
      const run = await runAdapter(adapter, copy, { files: [...files], suite: true, testRoots: [] }, freshCanary(), true);
      const twins = run.command.twins ?? [];
      expect(twins.length).toBeGreaterThanOrEqual(3);
      expect(run.twins.length).toBe(twins.length);
      for (const outcome of run.twins) {
        expect(outcome).toEqual(outcome.kind === 'mutant' ? { kind: 'mutant', status: 'failed', original: 'passed' } : { kind: 'twin', status: 'passed', original: 'passed' });
      }
      // No copy is left among the tests; the real ones all passed, at their lines in the original file.
      const names = new Set(twins.map((t) => t.name));
      expect(run.parsed.tests.filter((t) => [...names].some((n) => t.id.endsWith(n)))).toEqual([]);
      expect(run.parsed.tests.every((t) => t.status === 'passed')).toBe(true);
      const original = await source(UNITTEST_FILE);
      const adds = run.parsed.tests.find((t) => t.id.endsWith('test_adds_small_numbers'))!;
      expect(adds.location).toBe(`${UNITTEST_FILE}:${original.split('\n').indexOf('    def test_adds_small_numbers(self):') + 1}`);
      // The run judged as validate.ts does: clean, claimed tallies reconciled without the copies.
      const evidence = {
        label: 'regression_after' as const,
        attempt: 1,
        exitCode: run.exitCode,
        timedOut: false,
        outputTruncated: false,
        parsed: run.parsed,
        canary: { ...run.parsed.canary, twins: run.twins }
      };
      expect(runAnomalies(evidence)).toEqual([]);
      // The same run with one mutant's outcome flipped to a pass is grader_compromised.
      const flipped = run.twins.map((t, i) => (i === run.twins.findIndex((u) => u.kind === 'mutant') ? { ...t, status: 'passed' as const } : t));
      expect(runAnomalies({ ...evidence, canary: { ...evidence.canary, twins: flipped } })).toEqual(['grader_compromised']);
    },
    60_000
  );
});

describe('takeTwins and twinBehaved (pure)', () => {
  const twin = (over: Partial<TwinCanary>): TwinCanary => ({ file: 't.py', owner: 'C', name: 'test_b_c', of: 'test_a', kind: 'mutant', after: 3, lines: 3, ...over });

  it('finds a copy by its name at the end of an id, its original by the same id, and maps lines back', () => {
    const tests: TestCaseResult[] = [
      { id: 'm.C.test_a', status: 'passed', location: 't.py:2' },
      { id: 'm.C.test_b_c', status: 'failed', location: 't.py:5' },
      { id: 'm.C.test_z', status: 'passed', location: 't.py:9' }
    ];
    const out = takeTwins(tests, { passed: 2, failed: 1, errored: 0, skipped: 0 }, [twin({})]);
    expect(out.outcomes).toEqual([{ kind: 'mutant', status: 'failed', original: 'passed' }]);
    expect(out.tests).toEqual([
      { id: 'm.C.test_a', status: 'passed', location: 't.py:2' },
      { id: 'm.C.test_z', status: 'passed', location: 't.py:6' }
    ]);
    expect(out.claimed).toEqual({ passed: 2, failed: 0, errored: 0, skipped: 0 });
  });

  it('a copy absent from the results (or one whose name only ends an id of another class) is missing; missing alone is never right', () => {
    const out = takeTwins(
      [
        { id: 'm.D.test_b_c', status: 'failed' },
        { id: 'm.C.xtest_b_c', status: 'failed' }
      ],
      undefined,
      [twin({})]
    );
    expect(out.outcomes).toEqual([{ kind: 'mutant', status: 'missing', original: 'missing' }]);
    // Changed at merge on purpose: copy and original both missing means their file did not load (its
    // error is in the results, and a missing original is judged by its phase), so the copy says nothing.
    expect(twinBehaved(out.outcomes[0]!)).toBe(true);
    for (const original of ['passed', 'failed'] as const) {
      expect(twinBehaved({ kind: 'mutant', status: 'missing', original })).toBe(false);
      expect(twinBehaved({ kind: 'twin', status: 'missing', original })).toBe(false);
      expect(twinBehaved({ kind: 'twin', status: original, original: 'missing' })).toBe(false);
    }
  });

  it.each([
    ['mutant', 'failed', 'passed', true],
    ['mutant', 'passed', 'passed', false],
    ['mutant', 'errored', 'passed', false],
    ['mutant', 'passed', 'failed', true],
    ['mutant', 'missing', 'failed', false],
    ['twin', 'passed', 'passed', true],
    ['twin', 'failed', 'errored', true],
    ['twin', 'failed', 'passed', false],
    ['twin', 'passed', 'failed', false],
    ['twin', 'passed', 'missing', false]
  ] as const)('%s %s next to an original %s: behaved %s', (kind, status, original, right) => {
    expect(twinBehaved({ kind, status, original })).toBe(right);
  });
});
