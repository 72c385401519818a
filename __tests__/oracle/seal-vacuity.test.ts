import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { sealJs, type SealOutput, type SealedFile } from '../../src/oracle/seal-js.js';
import { SEAL_PYTHON_SOURCE } from '../../src/oracle/seal-python.js';

/**
 * Issue 28, item 1: `witness seal` never turns into an observation an expression that is a function
 * of the test's own inputs alone (a literal, a test-local constant, a parameter of the enclosing
 * helper): its value is whatever the test passed in, so an oracle recorded from it holds for any
 * implementation. Such an assertion stays unsealed (graded in-process), or the other side is observed.
 */

function sealPython(source: string): Required<SealOutput> {
  const files: SealedFile[] = [{ path: 't.py', source }];
  const result = spawnSync('python3', ['-I', '-B', '-c', SEAL_PYTHON_SOURCE], { input: JSON.stringify({ phase: 'reproduction', files }), encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Required<SealOutput>;
}

/** Which lines became observations (cases or pending sites) and which stayed unsealed. */
function lines(out: Required<SealOutput>): { observed: number[]; unsealed: number[] } {
  const lineOf = (id: string): number => Number(/\/(\d+)(?:[#.].*)?$/.exec(id)?.[1]);
  return {
    observed: [...out.cases.map((c) => lineOf(c.id)), ...out.pending.map((p) => p.line)].sort((a, b) => a - b),
    unsealed: out.unsealed.map((u) => u.line).sort((a, b) => a - b)
  };
}

describe('Python: observations of the test’s own inputs are not sealed', () => {
  test('a helper comparing its own parameters, called with literals, stays in-process', () => {
    const out = sealPython(
      [
        'import unittest',
        'from rules import parse',
        'class T(unittest.TestCase):',
        '    def check(self, a, b):',
        '        self.assertEqual(a, b)',
        '    def check_rule(self, rule, target):',
        '        self.assertEqual(rule, target)',
        '        self.assertEqual(parse(rule), target)',
        '    def test_rules(self):',
        '        self.check(1, 1)',
        '        self.check_rule("a", "a")',
        ''
      ].join('\n')
    );
    // The incident: assertEqual(rule, target) sealed as an observation of rule. Line 8 observes code.
    expect(lines(out)).toEqual({ observed: [8], unsealed: [5, 7] });
    expect(out.files[0]!.source).toContain('        self.assertEqual(a, b)\n');
    expect(out.files[0]!.source).toContain('observe("reproduction:t.py/8", lambda: (parse(rule)))');
  });

  test('test-local and module constants, parametrize names; the other side is observed when it runs code', () => {
    const out = sealPython(
      [
        'import pytest',
        'from calc import evaluate',
        'LIMIT = 3',
        '@pytest.mark.parametrize("value,want", [(1, 2)])',
        'def test_p(value, want, client):',
        '    x = [5, LIMIT]',
        '    assert x == [5, 3]',
        '    assert value == want',
        '    assert want == evaluate(value)',
        '    assert LIMIT + 1 == evaluate("4")',
        '    assert client == 3',
        '    assert value is None',
        '    expected = evaluate("2")',
        '    assert expected == evaluate("3")',
        ''
      ].join('\n')
    );
    expect(lines(out)).toEqual({ observed: [9, 10, 11, 14], unsealed: [7, 8, 12] });
    const sealed = out.files[0]!.source;
    // Observed: the side that calls the code, never `want`, `LIMIT + 1` or `expected`.
    expect(sealed).toContain('observe("reproduction:t.py/9", lambda: (evaluate(value)))');
    expect(sealed).toContain('observe("reproduction:t.py/10", lambda: (evaluate("4")))');
    expect(sealed).toContain('observe("reproduction:t.py/14", lambda: (evaluate("3")))');
    // A fixture is code (pytest made it), not an input of the test.
    expect(sealed).toContain('observe("reproduction:t.py/11", lambda: (client))');
  });
});

describe('JS: observations of the test’s own inputs are not sealed', () => {
  const seal = (source: string): Required<SealOutput> => sealJs('reproduction', [{ path: 't.test.js', source }]);

  test('a helper comparing its own parameters, called with literals, stays in-process', () => {
    const out = seal(
      [
        "const assert = require('node:assert');",
        "const { parse } = require('../rules');",
        'function check(rule, target) {',
        '  assert.strictEqual(rule, target);',
        '  assert.deepStrictEqual(parse(rule), target);',
        '  assert.ok(rule);',
        '}',
        "test('rules', () => { check('a', 'a'); });",
        ''
      ].join('\n')
    );
    expect(lines(out)).toEqual({ observed: [5], unsealed: [4, 6] });
    expect(out.files[0]!.source).toContain('  assert.strictEqual(rule, target);\n');
  });

  test('constants and table parameters; the other side is observed when it runs code', () => {
    const out = seal(
      [
        "const { inc } = require('../inc');",
        'const LIMIT = 3;',
        "test('x', () => {",
        '  const x = [5, LIMIT];',
        '  expect(x).toEqual([5, 3]);',
        '  expect(LIMIT + 1).toBe(inc(3));',
        '  const got = inc(1);',
        '  expect(got).toBe(2);',
        '  expect(x[0]).toBeTruthy();',
        '});',
        "test.each([[1, 2]])('inc %i', (a, b) => {",
        '  expect(a).toBe(b);',
        '  expect(b).toBe(inc(a));',
        '});',
        ''
      ].join('\n')
    );
    // Line 11: column b is also used by the unsealed line 12, so its values stay in the copy (as before).
    expect(lines(out)).toEqual({ observed: [6, 8, 13], unsealed: [5, 9, 11, 12] });
    const sealed = out.files[0]!.source;
    // Both sides observed, the predicate on the host: the side that runs code is compared, never recorded alone.
    expect(sealed).toContain('observeBoth("reproduction:t.test.js/6", () => (LIMIT + 1), () => (inc(3)))');
    expect(sealed).toContain('observe("reproduction:t.test.js/13" + b, () => (inc(a)))');
  });
});
