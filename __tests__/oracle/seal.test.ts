import { describe, expect, test } from '@jest/globals';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOracleFile, phaseIsSealed, recordExpectations, type OracleFile, type RecordInput } from '../../src/core/oracle.js';
import { spawnSync } from 'node:child_process';
import { sealJs, type SealOutput, type SealedFile } from '../../src/oracle/seal-js.js';
import { SEAL_PYTHON_SOURCE } from '../../src/oracle/seal-python.js';
import { sealPack, unsealPack } from '../../src/oracle/seal.js';

function spawnSeal(phase: 'reproduction' | 'hidden', files: SealedFile[]): Required<SealOutput> {
  const result = spawnSync('python3', ['-I', '-B', '-c', SEAL_PYTHON_SOURCE], { input: JSON.stringify({ phase, files }), encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Required<SealOutput>;
}

describe('sealing JS/TS tests (@babel/parser)', () => {
  test('literal expectations become observations; the rest is listed as unsealed', () => {
    const source = [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { f } from '../../src/f.js';",
      '',
      "test('a', () => {",
      '  assert.equal(f(1), 3);',
      '  assert.deepStrictEqual(f([1]), { a: [1, -2], b: null });',
      '  assert.strictEqual(7, f(2));',
      '  assert.ok(f(3));',
      "  assert.throws(() => f('x'), TypeError);",
      '  assert.equal(f(4), f(5));',
      '  expect(f(6)).toBe(`six`);',
      '  expect(f(7)).toBeCloseTo(0.3, 5);',
      '  expect(f(8)).toHaveLength(2);',
      '  expect(f(9)).not.toBe(1);',
      '  assert.equal(f(10), someConstant);',
      '});',
      ''
    ].join('\n');
    const out = sealJs('hidden', [{ path: 'sub/a.test.js', source }]);
    const sealed = out.files[0]!.source;
    // The observer is imported first, before the code under test loads.
    expect(sealed.startsWith('import { observe, observeBoth, observeThrows } from "../patchproof-oracle.cjs";')).toBe(true);
    expect(sealed).toContain('observe("hidden:sub/a.test.js/6", () => (f(1)));');
    expect(sealed).toContain('observe("hidden:sub/a.test.js/8", () => (f(2)));');
    expect(sealed).toContain('observeThrows("hidden:sub/a.test.js/10", () => f(\'x\'));');
    // No expected value stays in the sealed file.
    expect(sealed).not.toMatch(/, 3\)|-2|`six`|0\.3/);
    expect(out.cases.map((c) => [c.id.replace('hidden:sub/a.test.js/', ''), c.expected, c.comparator.kind])).toEqual([
      ['6', 3, 'exact'],
      ['7', { a: [1, -2], b: null }, 'exact'],
      ['8', 7, 'exact'],
      ['9', true, 'exact'],
      ['10', null, 'raises'],
      ['11', null, 'predicate'],
      ['12', 'six', 'exact'],
      ['13', 0.3, 'float'],
      ['14', 2, 'exact'],
      ['15', 1, 'predicate'],
      ['16', null, 'predicate']
    ]);
    // `.not` is the negated predicate on the host; expected sides that are not literals (lines 11,
    // 16) are observed with their actual sides, and assert.equal's predicate is applied on the host.
    expect(out.unsealed).toEqual([]);
    expect(out.pending).toEqual([]);
    expect(out.cases.find((c) => c.id.endsWith('/11'))?.comparator).toEqual({ kind: 'predicate', predicate: 'loose_equal', observed: 'both' });
    expect(out.cases.find((c) => c.id.endsWith('/15'))?.comparator).toEqual({ kind: 'predicate', predicate: 'same', negate: true, observed: 'actual' });
    expect(sealed).toContain('observeBoth("hidden:sub/a.test.js/11", () => (f(4)), () => (f(5)));');
    expect(() => parseOracleFile({ schema: 'patchproof.oracle/v1', cases: out.cases, unsealed: out.unsealed })).not.toThrow();
  });

  test('CommonJS tests get a require; TypeScript parses', () => {
    const out = sealJs('reproduction', [{ path: 'b.test.ts', source: "const { g } = require('../g');\nit('x', () => { expect(g(1 as number)).toEqual([1, 2]); });\n" }]);
    expect(out.files[0]!.source.startsWith('const { observe } = require("./patchproof-oracle.cjs");')).toBe(true);
    expect(out.cases).toHaveLength(1);
    expect(out.unsealed).toEqual([]);
  });
});

describe('sealing a pack (Python through the host python3 ast module)', () => {
  test('py-calculator: every assertion seals, the expected values leave the staged folders, re-sealing is stable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seal-'));
    try {
      await cp(join('witness-packs', 'py-calculator'), dir, { recursive: true });
      await unsealPack(dir);
      const report = await sealPack(dir);
      // The assertRaisesRegex site records the exact exception type from the reference fix first.
      expect(report.sealed).toEqual({ reproduction: true, hidden: false });
      expect(report.unsealed).toEqual([]);
      expect(report.pending.map((p) => [p.line, p.comparator])).toEqual([[22, { kind: 'raises', type: 'CalculatorError', pattern: 'division by zero' }]]);
      const hidden = await readFile(join(dir, 'hidden', 'test_hidden_associativity.py'), 'utf8');
      expect(hidden).toContain('from patchproof_oracle import observe, observe_raises');
      expect(hidden).not.toMatch(/-8|, 3\)|division by zero/);
      const oracle = parseOracleFile(JSON.parse(await readFile(join(dir, 'oracle', 'expected.json'), 'utf8')));
      // The expected values of the literal sites are in the oracle file, not in the sealed tests.
      expect(oracle.cases.filter((c) => c.phase === 'hidden').length).toBeGreaterThan(0);
      const manifest = JSON.parse(await readFile(join(dir, 'witness.json'), 'utf8')) as { oracle?: unknown };
      expect(manifest.oracle).toEqual({ expected: 'oracle/expected.json' });
      const again = await sealPack(dir);
      expect(again.cases).toBe(report.cases);
      expect(await readFile(join(dir, 'hidden', 'test_hidden_associativity.py'), 'utf8')).toBe(hidden);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('Python: what converts and what does not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seal-'));
    try {
      await cp(join('witness-packs', 'py-calculator'), dir, { recursive: true });
      await unsealPack(dir);
      const { writeFile } = await import('node:fs/promises');
      const original = JSON.parse(await readFile(join(dir, 'witness.json'), 'utf8')) as { oracle?: unknown };
      delete original.oracle;
      await writeFile(join(dir, 'witness.json'), JSON.stringify(original));
      await writeFile(
        join(dir, 'hidden', 'test_hidden_associativity.py'),
        [
          'import unittest',
          'from calculator import evaluate',
          'class T(unittest.TestCase):',
          '    def test_x(self):',
          '        self.assertEqual(evaluate("1"), 1)',
          '        self.assertAlmostEqual(evaluate("1 / 3"), 0.333, places=3)',
          '        self.assertCountEqual(evaluate("[1]"), [1, 2])',
          '        self.assertTrue(evaluate("1"))',
          '        assert evaluate("2") == {"a": (1, 2)}',
          '        self.assertEqual(evaluate("1"), evaluate("2"))',
          '        self.assertIn(1, evaluate("3"))',
          '        assert evaluate("2") > 1',
          '        x = self.assertEqual(evaluate("1"), 1)',
          ''
        ].join('\n')
      );
      const report = await sealPack(dir);
      const oracle = parseOracleFile(JSON.parse(await readFile(join(dir, 'oracle', 'expected.json'), 'utf8')));
      const hidden = oracle.cases.filter((c) => c.phase === 'hidden');
      expect(hidden.map((c) => [c.expected, c.comparator.kind])).toEqual([
        [1, 'exact'],
        [0.333, 'float'],
        [[1, 2], 'unordered'],
        [null, 'predicate'],
        [{ a: [1, 2] }, 'exact'],
        [null, 'predicate'],
        [1, 'predicate'],
        [1, 'predicate']
      ]);
      // assertTrue, both sides code, assertIn and ordering: predicates applied on the host.
      expect(hidden.filter((c) => c.comparator.kind === 'predicate').map((c) => c.comparator)).toEqual([
        { kind: 'predicate', predicate: 'truth', observed: 'both' },
        { kind: 'predicate', predicate: 'eq', observed: 'both' },
        { kind: 'predicate', predicate: 'in', observed: 'right' },
        { kind: 'predicate', predicate: 'gt', observed: 'actual' }
      ]);
      expect(report.unsealed.map((u) => u.line)).toEqual([13]);
      expect(report.pending).toEqual([]);
      expect(report.sealed.hidden).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('sealing repeated sites', () => {
  test('test.each: the expected column leaves the copy as row tags; each row is a case', () => {
    const source = [
      "const { f } = require('../src/f');",
      'test.each([',
      "  [1, 'one'],",
      "  [2, 'two'],",
      "])('f(%i) is %s', (n, expected) => {",
      '  expect(f(n)).toBe(expected);',
      '  expect(f(n + 1)).toBeTruthy();',
      '});',
      ''
    ].join('\n');
    const out = sealJs('hidden', [{ path: 'e.test.js', source }]);
    const sealed = out.files[0]!.source;
    expect(sealed).not.toMatch(/'one'|'two'/);
    expect(sealed).toContain('[1, "#r1"]');
    expect(sealed).toContain('observe("hidden:e.test.js/6" + expected, () => (f(n)));');
    expect(out.cases.map((c) => [c.id, c.expected])).toEqual([
      ['hidden:e.test.js/6#r1', 'one'],
      ['hidden:e.test.js/6#r2', 'two'],
      // a literal expectation in the callback runs once per row
      ['hidden:e.test.js/7', true],
      ['hidden:e.test.js/7#2', true]
    ]);
    expect(out.pending).toEqual([]);
  });

  test('test.each: a column also used outside its assertions stays (unsealed), values in place', () => {
    const source = "test.each([[1, 'a']])('x', (n, expected) => { expect(f(n, expected)).toBe(expected); });\n";
    const out = sealJs('hidden', [{ path: 'u.test.js', source }]);
    expect(out.unsealed.map((u) => u.text)).toEqual(["test.each column 'expected' is also used outside its assertions"]);
    expect(out.files[0]!.source).toContain("[[1, 'a']]");
  });

  test('sites in loops and helpers are pending, to be recorded; the phase is not sealed until then', () => {
    const source = [
      "it('loops', () => {",
      '  for (const n of [1, 2]) expect(f(n)).toBe(3);',
      '  const check = (x) => { expect(f(x)).toEqual(g(x)); };',
      '  check(1);',
      '});',
      ''
    ].join('\n');
    const out = sealJs('reproduction', [{ path: 'l.test.js', source }]);
    expect(out.cases).toEqual([]);
    expect(out.pending.map((p) => [p.line, p.expected])).toEqual([
      [2, 3],
      [3, undefined]
    ]);
    const oracle: OracleFile = { schema: 'patchproof.oracle/v1', cases: [], unsealed: [], pending: out.pending };
    expect(phaseIsSealed(oracle, 'reproduction')).toBe(false);
  });

  test('Python: parametrize counts, a multi-statement pytest.raises block, `is` against a name', () => {
    const source = [
      'import pytest',
      'from lib import f, State, Bad',
      '',
      '@pytest.mark.parametrize("n", [1, 2, 3])',
      '@pytest.mark.parametrize("m", [4, 5])',
      'def test_p(n, m):',
      '    assert f(n) == 7',
      '    assert f(m) is State.DONE',
      '',
      'def test_block():',
      '    with pytest.raises(Bad):',
      '        for _ in range(3):',
      '            f(1)',
      '    assert f(2) == 1',
      ''
    ].join('\n');
    const out = spawnSeal('hidden', [{ path: 'test_p.py', source }]);
    expect(out.cases.map((c) => c.id.replace('hidden:test_p.py/', ''))).toEqual(['7', '7#2', '7#3', '7#4', '7#5', '7#6', '14']);
    // Line 11's exact exception type is recorded from the reference fix.
    expect(out.pending.map((p) => p.line)).toEqual([8, 11]);
    const sealed = out.files[0]!.source;
    expect(sealed).toContain('    def _patchproof_raises_11():\n        for _ in range(3):\n            f(1)\n    observe_raises("hidden:test_p.py/11", _patchproof_raises_11)\n');
    expect(sealed).not.toMatch(/== 7|== 1/);
  });
});

describe('recording expectations from a reference fix (recordExpectations)', () => {
  const oracle: OracleFile = {
    schema: 'patchproof.oracle/v1',
    cases: [{ id: 'hidden:a/1', phase: 'hidden', expected: 3, comparator: { kind: 'exact' } }],
    unsealed: [],
    pending: [{ phase: 'hidden', site: 'hidden:a/2', file: 'a', line: 2, text: 'expect(g(x)).toEqual(h(x))', comparator: { kind: 'exact' } }]
  };
  const run = (attempt: number, values: [string, unknown][], extra: Partial<RecordInput> = {}): RecordInput => ({
    phase: 'hidden',
    attempt,
    observations: values.map(([c, value]) => ({ case: c, value })),
    malformed: [],
    ...extra
  });
  const good: [string, unknown][] = [
    ['hidden:a/1', 3],
    ['hidden:a/2', [1]],
    ['hidden:a/2#2', [1, 2]]
  ];

  test('two agreeing runs record every occurrence in order and drop the pending list', () => {
    const outcome = recordExpectations(oracle, [run(1, good), run(2, good)]);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.oracle.pending).toBeUndefined();
    expect(outcome.oracle.cases.map((c) => [c.id, c.expected])).toEqual([
      ['hidden:a/1', 3],
      ['hidden:a/2', [1]],
      ['hidden:a/2#2', [1, 2]]
    ]);
    expect([outcome.recorded, outcome.checked]).toEqual([2, 1]);
    expect(phaseIsSealed(outcome.oracle, 'hidden')).toBe(true);
  });

  test.each([
    ['one run only', [run(1, good)], /recording needs two/],
    [
      'runs that disagree',
      [
        run(1, good),
        run(2, [
          ['hidden:a/1', 3],
          ['hidden:a/2', [9]],
          ['hidden:a/2#2', [1, 2]]
        ])
      ],
      /not deterministic.*hidden:a\/2/
    ],
    [
      'a sealed case the reference fails',
      [run(1, [['hidden:a/1', 4], ...good.slice(1)]), run(2, [['hidden:a/1', 4], ...good.slice(1)])],
      /does not satisfy sealed case hidden:a\/1/
    ],
    ['a site never observed', [run(1, good.slice(0, 1)), run(2, good.slice(0, 1))], /never observed/],
    [
      'a raise recorded as a value',
      [run(1, [good[0]!, ['hidden:a/2', { $raised: 'TypeError', message: '' }]]), run(2, [good[0]!, ['hidden:a/2', { $raised: 'TypeError', message: '' }]])],
      /raised TypeError/
    ],
    ['an extra observation', [run(1, [...good, ['hidden:zz', 1]]), run(2, [...good, ['hidden:zz', 1]])], /cases the pack does not have: hidden:zz/],
    ['a malformed line', [run(1, good, { malformed: ['PATCHPROOF-OBS/1 x'] }), run(2, good)], /malformed/],
    ['a run that timed out', [run(1, good, { problem: 'it timed out' }), run(2, good)], /timed out/]
  ])('refuses %s', (_name, runs, message) => {
    const outcome = recordExpectations(oracle, runs);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.problems.join('\n')).toMatch(message);
  });
});
