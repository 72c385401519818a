import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { compareValue, recordExpectations, type Comparator, type OracleFile } from '../../src/core/oracle.js';
import type { SealOutput, SealedFile } from '../../src/oracle/seal-js.js';
import { SEAL_PYTHON_SOURCE } from '../../src/oracle/seal-python.js';

/**
 * Issue 28 items 1, 2, 3, 6 (Python): the assertion styles of real unittest and pytest suites are
 * sealed, the predicate applied on the host; each style has a vacuity check (the same assertion
 * over nothing but the test's own inputs stays unsealed).
 */

function seal(lines: string[]): Required<SealOutput> {
  const files: SealedFile[] = [{ path: 't.py', source: ['import unittest, pytest', 'from lib import f, g, E', ...lines, ''].join('\n') }];
  const result = spawnSync('python3', ['-I', '-B', '-c', SEAL_PYTHON_SOURCE], { input: JSON.stringify({ phase: 'reproduction', files }), encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Required<SealOutput>;
}

/** The one site a snippet seals (a case or a pending site), with its comparator and the sealed line. */
function site(lines: string[]): { comparator: Comparator; expected: unknown; pending: boolean; text: string } | 'unsealed' {
  const out = seal(lines);
  const body = out.files[0]!.source.split('\n');
  const at = body.findIndex((l) => /^\s*(\w+ = )?observe/.test(l));
  if (out.unsealed.length > 0) return 'unsealed';
  const c = out.cases[0];
  const p = out.pending[0];
  if (c !== undefined) return { comparator: c.comparator, expected: c.expected, pending: false, text: body[at]!.trim() };
  if (p !== undefined) return { comparator: p.comparator, expected: p.expected, pending: true, text: body[at]!.trim() };
  return 'unsealed';
}

const inTest = (line: string): string[] => ['class T(unittest.TestCase):', '    def test_x(self):', `        ${line}`];
const inHelper = (line: string): string[] => ['def check(a, b):', `    ${line}`, 'def test_y():', '    check(1, 2)'];

describe('each assertion style seals as a predicate on the host, and never over the test’s own inputs', () => {
  const STYLES: [string, string, Partial<Comparator> & { kind: string }][] = [
    ['assertNotEqual, one literal', 'self.assertNotEqual(f(a), 3)', { kind: 'predicate', predicate: 'eq', negate: true, observed: 'actual' }],
    ['!= both code', 'assert f(a) != g(b)', { kind: 'predicate', predicate: 'eq', negate: true, observed: 'both' }],
    ['== both code', 'assert f(a) == g(b)', { kind: 'predicate', predicate: 'eq', observed: 'both' }],
    ['ordering', 'self.assertGreaterEqual(f(a), g(b))', { kind: 'predicate', predicate: 'ge', observed: 'both' }],
    ['assert <', 'assert f(a) < 3', { kind: 'predicate', predicate: 'lt', observed: 'actual' }],
    ['assertIn, literal member', 'self.assertIn("x", f(a))', { kind: 'predicate', predicate: 'in', observed: 'right' }],
    ['not in', 'assert f(a) not in g(b)', { kind: 'predicate', predicate: 'in', negate: true, observed: 'both' }],
    ['assertIsNone', 'self.assertIsNone(f(a))', { kind: 'predicate', predicate: 'is_none', observed: 'actual' }],
    ['is not None', 'assert f(a) is not None', { kind: 'predicate', predicate: 'is_none', negate: true, observed: 'actual' }],
    ['assertTrue', 'self.assertTrue(f(a))', { kind: 'predicate', predicate: 'truth', observed: 'both' }],
    ['assert not', 'assert not f(a)', { kind: 'predicate', predicate: 'truth', negate: true, observed: 'both' }],
    ['assertAlmostEqual, both code', 'self.assertAlmostEqual(f(a), g(b), places=2)', { kind: 'predicate', predicate: 'almost', observed: 'both', places: 2 }],
    ['assertAlmostEqual delta', 'self.assertAlmostEqual(f(a), g(b), delta=0.5)', { kind: 'predicate', predicate: 'almost', observed: 'both', delta: 0.5 }],
    ['isinstance: exact type recorded', 'assert isinstance(f(a), dict)', { kind: 'exact' }],
    ['assertIsInstance', 'self.assertIsInstance(f(a), E)', { kind: 'exact' }],
    ['assertRaises call form', 'self.assertRaises(E, f, a, key=1)', { kind: 'raises', type: 'E' }],
    ['assertRaisesRegex call form', 'self.assertRaisesRegex(E, "bad .*", f, a)', { kind: 'raises', type: 'E', pattern: 'bad .*' }],
    ['pytest.raises call form', 'pytest.raises(E, f, a)', { kind: 'raises', type: 'E' }]
  ];

  test.each(STYLES)('%s', (_name, line, comparator) => {
    const sealed = site(inTest(line));
    expect(sealed).not.toBe('unsealed');
    if (sealed === 'unsealed') return;
    expect(sealed.comparator).toEqual(comparator);
    expect(sealed.text).toMatch(/^observe(_pair|_type|_raises)?\(/);
    // Vacuity: the same assertion in a helper over its own parameters observes nothing but inputs.
    const vacuous = line
      .replace(/f\(a\)/g, 'a')
      .replace(/g\(b\)/g, 'b')
      .replace(/f, a/g, 'a, b');
    if (vacuous !== line && !/Raises|raises/.test(line)) expect(site(inHelper(vacuous.replace('self.', 'unittest.TestCase().')))).toBe('unsealed');
  });

  test('pytest.raises(match=), with … as cm: the holder keeps the exception; the exact type is recorded', () => {
    const out = seal(['def test_r():', '    with pytest.raises(E, match="no such") as info:', '        f(1)', '    assert "such" in str(info.value)']);
    expect(out.pending.map((p) => p.comparator)).toEqual([{ kind: 'raises', type: 'E', pattern: 'no such' }]);
    const text = out.files[0]!.source;
    expect(text).toContain('    def _patchproof_raises_4():\n        f(1)\n    info = observe_raises("reproduction:t.py/4", _patchproof_raises_4)');
    expect(out.cases.map((c) => c.comparator)).toEqual([{ kind: 'predicate', predicate: 'in', observed: 'right' }]);
    expect(out.unsealed).toEqual([]);
  });

  test('a method call of a builtin type (assert s.startswith(x)) stays in-process, listed', () => {
    const out = seal(inTest('assert f(a).startswith("x")'));
    expect(out.unsealed.map((u) => u.text.trim())).toEqual(['assert f(a).startswith("x")']);
  });
});

describe('helper assertions and conditions', () => {
  test('a helper assertion method is sealed inside, per call; the expected side is never observed', () => {
    const out = seal([
      'class T(unittest.TestCase):',
      '    def assertMatches(self, rule, url):',
      '        target, args = self.router.match(url)',
      '        self.assertEqual(rule, target)',
      '        self.assertEqual(args, {})',
      '    def test_rules(self):',
      '        self.assertMatches("/a", "/a")',
      '        self.assertMatches("/b", "/b")',
      '        self.assertRaises(E, f, "x")'
    ]);
    // The calls of the helper are not listed as unsealed; its assertions are observed per call.
    expect(out.unsealed).toEqual([]);
    expect(out.pending.map((p) => [p.line, p.comparator.kind])).toEqual([
      [6, 'exact'],
      [7, 'exact'],
      [11, 'raises']
    ]);
    const text = out.files[0]!.source;
    // assertEqual(rule, target): target (what the router returned) is observed, never rule.
    expect(text).toContain('observe("reproduction:t.py/6", lambda: (target))');
    expect(text).not.toMatch(/lambda: \(rule\)/);
    expect(text).toContain('        self.assertMatches("/a", "/a")');
  });

  test('a site under if, in one parametrize set only: sealed for what runs, not counted up front', () => {
    const out = seal(['@pytest.mark.parametrize("n", [1, 2])', 'def test_p(n):', '    if n == 2:', '        assert f(n) == 4', '    assert f(n) > 0']);
    expect(out.pending.map((p) => [p.line, p.conditional])).toEqual([[6, true]]);
    expect(out.cases.map((c) => c.id)).toEqual(['reproduction:t.py/7', 'reproduction:t.py/7#2']);
    // The reference runs it once (n == 2): one case; never observed would not be refused either.
    const oracle: OracleFile = { schema: 'patchproof.oracle/v1', cases: out.cases, unsealed: [], pending: out.pending };
    const obs = [
      { case: 'reproduction:t.py/7', value: 1 },
      { case: 'reproduction:t.py/6', value: 4 },
      { case: 'reproduction:t.py/7#2', value: 4 }
    ];
    const runs = [1, 2].map((attempt) => ({ phase: 'reproduction' as const, attempt, observations: obs, malformed: [] }));
    const recorded = recordExpectations(oracle, runs);
    expect(recorded.ok && recorded.oracle.cases.map((c) => c.id)).toEqual(['reproduction:t.py/7', 'reproduction:t.py/7#2', 'reproduction:t.py/6']);
    const none = recordExpectations(
      oracle,
      [1, 2].map((attempt) => ({ ...runs[0]!, attempt, observations: obs.filter((o) => o.case !== 'reproduction:t.py/6') }))
    );
    expect(none.ok).toBe(true);
  });
});

describe('host predicates over safe forms', () => {
  // The assertion's operator, as the oracle writes it: a predicate and its negation.
  const NAMES: Record<string, [string, boolean]> = {
    eq: ['eq', false],
    ne: ['eq', true],
    lt: ['lt', false],
    ge: ['ge', false],
    in: ['in', false],
    not_in: ['in', true],
    truthy: ['truth', false],
    falsy: ['truth', true],
    almost: ['almost', false]
  };
  const both = (op: string, left: unknown, right: unknown, extra: object = {}): boolean => {
    const [predicate, negate] = NAMES[op]!;
    return compareValue({ $left: left, $right: right }, null, { kind: 'predicate', predicate, ...(negate ? { negate } : {}), observed: 'both', ...extra } as Comparator);
  };
  const lying = (value: unknown) => ({ $type: 'shop.LyingFloat', value });

  test('a lying builtin subclass is judged by its base value', () => {
    expect(both('eq', lying(0.5), 3)).toBe(false);
    expect(both('almost', lying(0.5), 3, { places: 7 })).toBe(false);
    expect(both('in', lying(0.5), [3, 4])).toBe(false);
    expect(both('truthy', lying(0), null)).toBe(false);
    expect(both('eq', lying(3), 3)).toBe(true);
  });

  test('Python semantics on forms', () => {
    expect(both('lt', 'a', 'b')).toBe(true);
    expect(both('lt', [1, 2], [1, 3])).toBe(true);
    expect(both('lt', 1, 'a')).toBe(false);
    expect(both('ge', 1, 'a')).toBe(false);
    expect(both('in', 'b', 'abc')).toBe(true);
    expect(both('in', 'k', { k: 1 })).toBe(true);
    expect(both('in', 2, { $set: ['1', '2'] })).toBe(true);
    expect(both('not_in', 3, { $set: ['1', '2'] })).toBe(true);
    expect(both('in', { $bytes: '62' }, { $bytes: '616263' })).toBe(true);
    expect(both('almost', 1.0, 1.004, { places: 2 })).toBe(true);
    expect(both('almost', 1.0, 1.2, { delta: 0.1 })).toBe(false);
    expect(both('falsy', { $bytes: '' }, null)).toBe(true);
    // An object's truth depends on its own __bool__/__len__: undecided on the host, so neither holds.
    const obj = { $type: 'm.Buf', fields: { data: [] } };
    expect(both('truthy', obj, null)).toBe(false);
    expect(both('falsy', obj, null)).toBe(false);
    // ... unless the observer answered in-process for such an object (counted as in-process).
    expect(compareValue({ $left: obj, $right: null, $inprocess: true }, null, { kind: 'predicate', predicate: 'truth', negate: true, observed: 'both' })).toBe(true);
    expect(both('eq', { $unobservable: 'm.X' }, { $unobservable: 'm.X' })).toBe(false);
    expect(both('ne', { $unobservable: 'm.X' }, 1)).toBe(false);
  });

  test('a literal case: a subclass equals its base value only where the reference produced that same type', () => {
    const oracle: OracleFile = { schema: 'patchproof.oracle/v1', cases: [{ id: 'r:t.py/1', phase: 'reproduction', expected: 'a', comparator: { kind: 'exact' } }], unsealed: [] };
    const markup = { $type: 'markupsafe.Markup', value: 'a' };
    const runs = [1, 2].map((attempt) => ({ phase: 'reproduction' as const, attempt, observations: [{ case: 'r:t.py/1', value: markup }], malformed: [] }));
    const recorded = recordExpectations(oracle, runs);
    expect(recorded.ok && recorded.oracle.cases[0]!.expected).toEqual(markup);
    expect(compareValue('a', markup, { kind: 'exact' })).toBe(false);
    expect(compareValue({ $type: 'evil.Str', value: 'a' }, 'a', { kind: 'exact' })).toBe(false);
  });
});
