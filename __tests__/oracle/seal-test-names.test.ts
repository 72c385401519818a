import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { sealJs, type SealOutput, type SealedFile } from '../../src/oracle/seal-js.js';
import { SEAL_PYTHON_SOURCE } from '../../src/oracle/seal-python.js';
import { sealedTestId } from '../../src/oracle/seal.js';

/**
 * Issue 28 items 4 and 7: `witness seal` names the test each site belongs to, as the adapter's
 * results name it, so a sealed reproduction is judged per test and pins stay test ids.
 */

function sealPython(files: SealedFile[]): Required<SealOutput> {
  const result = spawnSync('python3', ['-I', '-B', '-c', SEAL_PYTHON_SOURCE], { input: JSON.stringify({ phase: 'reproduction', files }), encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Required<SealOutput>;
}

describe('the test of each sealed site', () => {
  test('Python: the class and test function; none in a helper', () => {
    const source = [
      'from app import parse',
      '',
      'def helper(x):',
      '    assert parse(x) == 1',
      '',
      'class TestParse:',
      '    def test_units(self):',
      "        assert parse('1h') == 60",
      "        assert parse('90m') == 90",
      '',
      'def test_plain():',
      "    assert parse('1s') == 1",
      ''
    ].join('\n');
    const out = sealPython([{ path: 'sub/test_parse.py', source }]);
    expect(out.tests).toEqual({
      'reproduction:sub/test_parse.py/8': ['sub/test_parse.py', 'TestParse', 'test_units'],
      'reproduction:sub/test_parse.py/9': ['sub/test_parse.py', 'TestParse', 'test_units'],
      'reproduction:sub/test_parse.py/12': ['sub/test_parse.py', 'test_plain']
    });
    // The helper's site is sealed (its values recorded from the reference fix) with no test: judged alone.
    expect(out.pending.map((p) => p.site)).toEqual(['reproduction:sub/test_parse.py/4']);
  });

  test('Python: host predicates, raises and conditional sites (the sealer of wip/sealpy) are named too', () => {
    const source = [
      'import pytest',
      'from app import parse, total',
      '',
      'def test_mixed(flag):',
      "    assert parse('1h') != total('1h')",
      "    assert 'h' in parse('1h')",
      '    with pytest.raises(ValueError):',
      "        parse('')",
      '    if flag:',
      "        assert parse('2h') == 120",
      ''
    ].join('\n');
    const out = sealPython([{ path: 'test_mixed.py', source }]);
    const sites = [...out.cases.map((c) => c.id), ...out.pending.map((p) => p.site)].sort();
    expect(sites).toEqual(['reproduction:test_mixed.py/10', 'reproduction:test_mixed.py/5', 'reproduction:test_mixed.py/6', 'reproduction:test_mixed.py/7']);
    for (const site of sites) expect(out.tests[site]).toEqual(['test_mixed.py', 'test_mixed']);
  });

  test('JS: literal suite and test titles; none for .each titles or outside a test', () => {
    const source = [
      "import { describe, test, expect } from 'vitest';",
      "import { parse } from '../src/parse.js';",
      '',
      "describe('parse', () => {",
      "  test('units', () => {",
      "    expect(parse('1h')).toBe(60);",
      "    expect(parse('90m')).toBe(90);",
      '  });',
      "  test.each([[1, 1]])('row %s', (a, b) => {",
      '    expect(parse(a)).toBe(2);',
      '  });',
      '});',
      "expect(parse('x')).toBe(0);",
      ''
    ].join('\n');
    const out = sealJs('reproduction', [{ path: 'parse.test.ts', source }]);
    expect(out.tests).toEqual({
      'reproduction:parse.test.ts/6': ['parse.test.ts', 'parse', 'units'],
      'reproduction:parse.test.ts/7': ['parse.test.ts', 'parse', 'units']
    });
  });

  test('ids in each adapter form, at the pack placement', () => {
    const path = ['sub/test_parse.py', 'TestParse', 'test_units'];
    expect(sealedTestId('pytest', '.patchproof/reproduction', path)).toBe('.patchproof/reproduction/sub/test_parse.py::TestParse::test_units');
    expect(sealedTestId('unittest', '.patchproof/reproduction', path)).toBe('sub.test_parse.TestParse.test_units');
    expect(sealedTestId('vitest', '.patchproof/reproduction', ['parse.test.ts', 'parse', 'units'])).toBe('.patchproof/reproduction/parse.test.ts > parse > units');
    expect(sealedTestId('go', '.patchproof/reproduction', path)).toBeUndefined();
  });
});
