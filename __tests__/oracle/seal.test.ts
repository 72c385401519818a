import { describe, expect, test } from '@jest/globals';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOracleFile } from '../../src/core/oracle.js';
import { sealJs } from '../../src/oracle/seal-js.js';
import { sealPack, unsealPack } from '../../src/oracle/seal.js';

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
    expect(sealed).toContain("import { observe, observeThrows } from \"../patchproof-oracle.cjs\";");
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
      ['12', 'six', 'exact'],
      ['13', 0.3, 'float'],
      ['14', 2, 'exact']
    ]);
    expect(out.unsealed.map((u) => u.line)).toEqual([11, 15, 16]);
    expect(() => parseOracleFile({ schema: 'patchproof.oracle/v1', cases: out.cases, unsealed: out.unsealed })).not.toThrow();
  });

  test('CommonJS tests get a require; TypeScript parses', () => {
    const out = sealJs('reproduction', [{ path: 'b.test.ts', source: "const { g } = require('../g');\nit('x', () => { expect(g(1 as number)).toEqual([1, 2]); });\n" }]);
    expect(out.files[0]!.source.startsWith('const { observe, observeThrows } = require("./patchproof-oracle.cjs");')).toBe(true);
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
      expect(report.sealed).toEqual({ reproduction: true, hidden: true });
      expect(report.unsealed).toEqual([]);
      const hidden = await readFile(join(dir, 'hidden', 'test_hidden_associativity.py'), 'utf8');
      expect(hidden).toContain('from patchproof_oracle import observe, observe_raises');
      expect(hidden).not.toMatch(/-8|, 3\)|division by zero/);
      const oracle = parseOracleFile(JSON.parse(await readFile(join(dir, 'oracle', 'expected.json'), 'utf8')));
      expect(oracle.cases.find((c) => c.comparator.kind === 'raises')?.comparator).toEqual({ kind: 'raises', type: 'CalculatorError', pattern: 'division by zero' });
      const manifest = JSON.parse(await readFile(join(dir, 'witness.json'), 'utf8'));
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
      const original = JSON.parse(await readFile(join(dir, 'witness.json'), 'utf8'));
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
        [true, 'exact'],
        [{ a: [1, 2] }, 'exact']
      ]);
      expect(report.unsealed.map((u) => u.line)).toEqual([10, 11, 12, 13]);
      expect(report.sealed.hidden).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
