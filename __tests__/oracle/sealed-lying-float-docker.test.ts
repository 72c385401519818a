import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeObservations, parseObservations, parseOracleFile, recordExpectations, type OracleFile } from '../../src/core/oracle.js';
import { observerFiles } from '../../src/oracle/observer.js';
import type { SealOutput } from '../../src/oracle/seal-js.js';
import { SEAL_PYTHON_SOURCE } from '../../src/oracle/seal-python.js';

/**
 * Issue 26 (Python half): a candidate returns a float subclass with a lying __eq__. In-process, the
 * suite's own assertions (assertAlmostEqual against a computed value, assertTrue(x == y), assertIn,
 * assertEqual) all pass. Sealed, the same test in the test image's Python observes the values
 * safely and the host judges them: every site fails. The expectations are recorded from an honest
 * implementation's two runs, as `witness record --reference` does.
 */

const IMAGE = process.env.PATCHPROOF_TEST_IMAGE;
const NONCE = 'c'.repeat(32);

const TEST = [
  'import unittest',
  'from shop import total',
  '',
  'class T(unittest.TestCase):',
  '    def test_total(self):',
  '        expected = sum([1.5, 2.5])',
  '        self.assertAlmostEqual(total([1.5, 2.5]), expected)',
  '        self.assertTrue(total([1.0]) == 1.0)',
  '        self.assertIn(total([2.0]), [2.0, 4.0])',
  '        self.assertEqual(total([3.0]), 3.0)',
  ''
].join('\n');

const HONEST = 'def total(prices):\n    return float(sum(prices))\n';
const LYING = [
  'class Money(float):',
  '    def __eq__(self, other):',
  '        return True',
  '    __hash__ = float.__hash__',
  '',
  'def total(prices):',
  '    return Money(sum(prices) - 1)',
  ''
].join('\n');

function dockerRun(dir: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(
    'docker',
    [
      'run',
      '--rm',
      '--network',
      'none',
      '-e',
      'PYTHONDONTWRITEBYTECODE=1',
      '-v',
      `${dir}:/w:ro`,
      '-w',
      '/w',
      IMAGE as string,
      'sh',
      '-c',
      'python3 -m unittest -q test_shop; exit $?'
    ],
    { encoding: 'utf8', timeout: 120_000 }
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function stage(shop: string, test: string, sealed: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'lying-float-'));
  writeFileSync(join(dir, 'shop.py'), shop);
  writeFileSync(join(dir, 'test_shop.py'), test);
  if (sealed) for (const [name, text] of Object.entries(observerFiles(NONCE))) writeFileSync(join(dir, name), text);
  // The image's user reads the mounted folder.
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o644);
  return dir;
}

(IMAGE === undefined ? describe.skip : describe)('a float subclass with a lying __eq__ (Docker, test image)', () => {
  const out = JSON.parse(
    spawnSync('python3', ['-I', '-B', '-c', SEAL_PYTHON_SOURCE], { input: JSON.stringify({ phase: 'hidden', files: [{ path: 'test_shop.py', source: TEST }] }), encoding: 'utf8' })
      .stdout
  ) as Required<SealOutput>;
  const sealedTest = out.files[0]!.source;

  test('in-process, the unsealed test passes for the lying candidate (the attack)', () => {
    const dir = stage(LYING, TEST, false);
    try {
      expect(dockerRun(dir).status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  test('sealed, every site passes for the honest implementation and fails for the lying one', () => {
    expect(out.unsealed).toEqual([]);
    const oracle: OracleFile = parseOracleFile({ schema: 'patchproof.oracle/v1', cases: out.cases, unsealed: [], pending: out.pending });
    const honest = stage(HONEST, sealedTest, true);
    const lying = stage(LYING, sealedTest, true);
    try {
      const runs = [1, 2].map((attempt) => {
        const run = dockerRun(honest);
        expect(run.status).toBe(0);
        return { phase: 'hidden' as const, attempt, ...parseObservations(run.stdout, NONCE) };
      });
      const recorded = recordExpectations(oracle, runs);
      if (!recorded.ok) throw new Error(recorded.problems.join('\n'));
      const cases = recorded.oracle.cases;
      expect(cases.map((c) => c.comparator.kind).sort()).toEqual(['exact', 'exact', 'predicate', 'predicate']);
      const honestJudged = judgeObservations(cases, parseObservations(dockerRun(honest).stdout, NONCE));
      expect(honestJudged.cases.map((c) => c.outcome)).toEqual(['matched', 'matched', 'matched', 'matched']);
      const attack = dockerRun(lying);
      // In the container the lie still holds (the sealed test has no assertion left to fail) ...
      expect(attack.status).toBe(0);
      // ... but on the host every site fails: base values and exact types, no __eq__ consulted.
      const judged = judgeObservations(cases, parseObservations(attack.stdout, NONCE));
      expect(judged.problems).toEqual([]);
      expect(judged.cases.map((c) => c.outcome)).toEqual(['mismatched', 'mismatched', 'mismatched', 'mismatched']);
    } finally {
      rmSync(honest, { recursive: true, force: true });
      rmSync(lying, { recursive: true, force: true });
    }
  }, 600_000);
});
