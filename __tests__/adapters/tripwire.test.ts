import { execFileSync } from 'node:child_process';
import vm from 'node:vm';
import { takeCanaries } from '../../src/adapters/shared/canary.js';
import { foldCanaries } from '../../src/adapters/shared/js-runner-failure.js';
import { CHANGED_MARK, JS_TRIPWIRE_SOURCE, changedOf, jsTripwireCheck, mergeChanged, pythonTripwireCheck, pythonTripwireSource } from '../../src/adapters/shared/tripwire.js';
import { renderReport } from '../../src/core/report.js';
import { runAnomalies } from '../../src/core/verdict.js';
import { pass, passingRuns, receiptFrom, run } from '../helpers/evidence.js';

interface Held {
  take(groups: unknown[]): unknown;
  changes(before: unknown, after: unknown): string[];
}

/** The generated JavaScript, run as a harness runs it. */
const js = vm.runInThisContext(`(() => {\n${JS_TRIPWIRE_SOURCE}\nreturn { take: patchproofTake, changes: patchproofChanges };\n})()`) as Held;

describe('the tripwire in JavaScript (the comparison the harnesses run)', () => {
  it('names a function replaced or removed since it was taken', () => {
    const assertLike = { throws() {}, ok() {}, strictEqual() {} };
    const groups = () => [['node:assert/strict', assertLike]];
    const before = js.take(groups());
    expect(js.changes(before, js.take(groups()))).toEqual([]);
    assertLike.throws = function throws() {};
    delete (assertLike as Partial<typeof assertLike>).ok;
    expect(js.changes(before, js.take(groups()))).toEqual(['node:assert/strict.throws replaced', 'node:assert/strict.ok removed']);
  });

  it('ignores additions and plain values: a matcher of its own, a setting', () => {
    const table: Record<string, unknown> = { toBe() {}, limit: 1 };
    const before = js.take([['expect matcher', table]]);
    table.toBeWithinRange = () => undefined;
    table.limit = 2;
    expect(js.changes(before, js.take([['expect matcher', table]]))).toEqual([]);
  });

  it('sees an accessor whose getter changed without calling it, and only the keys a group names', () => {
    let calls = 0;
    const target = {};
    Object.defineProperty(target, 'expect', { configurable: true, get: () => (calls += 1) });
    const groups = () => [['global', target, ['expect', 'test']]];
    const before = js.take(groups());
    Object.defineProperty(target, 'expect', { configurable: true, get: () => 0 });
    Object.defineProperty(target, 'other', { value: () => undefined });
    expect(js.changes(before, js.take(groups()))).toEqual(['global.expect replaced']);
    expect(calls).toBe(0);
  });

  it('names at most eight changes, then counts the rest', () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}`, () => i]));
    const before = js.take([['m', many]]);
    for (const key of Object.keys(many)) many[key] = () => -1;
    const changes = js.changes(before, js.take([['m', many]]));
    expect(changes).toHaveLength(9);
    expect(changes[8]).toBe('and 3 more');
  });

  it('checks as the must-pass canary does: throws the mark and the changes, nothing when all is as taken', () => {
    const target = { strictEqual() {} };
    const make = vm.runInThisContext(
      `((target) => {\n${JS_TRIPWIRE_SOURCE}\nconst groups = () => [['a', target]];\nconst held = patchproofTake(groups());\nreturn () => ${jsTripwireCheck('held', 'groups')};\n})`
    ) as (target: object) => () => void;
    const check = make(target);
    expect(check).not.toThrow();
    target.strictEqual = () => undefined;
    expect(check).toThrow(`${CHANGED_MARK}a.strictEqual replaced`);
  });
});

describe('the tripwire in Python (the comparison the unittest harness and pytest plugin run)', () => {
  const script = [
    'import inspect',
    'import unittest',
    pythonTripwireSource('take', 'changes'),
    'def groups():',
    '    return [("unittest.TestCase", unittest.TestCase, None), ("unittest", unittest, ("TestCase", "defaultTestLoader"))]',
    'held = take(groups())',
    'def check():',
    pythonTripwireCheck('    ', 'take', 'changes', 'held', 'groups'),
    'check()',
    'unittest.TestCase.maxDiff = None  # a setting, not a change',
    'unittest.TestCase.assertSomethingNew = lambda self: None  # an addition, not a change',
    'check()',
    'name = "assert" + "Equal"',
    'setattr(unittest.TestCase, name, lambda self, a, b, msg=None: None)',
    'del unittest.TestCase.fail',
    'unittest.defaultTestLoader = unittest.TestLoader()',
    'try:',
    '    check()',
    'except AssertionError as error:',
    '    print(error)'
  ].join('\n');

  it('names a method replaced (by a computed name), one removed, and a framework object rebound; not a setting or an addition', () => {
    const printed = execFileSync('python3', ['-c', script], { encoding: 'utf8' }).trim();
    expect(printed).toBe(`${CHANGED_MARK}unittest.TestCase.fail removed | unittest.TestCase.assertEqual replaced | unittest.defaultTestLoader replaced`);
    expect(changedOf(printed)).toEqual(['unittest.TestCase.fail removed', 'unittest.TestCase.assertEqual replaced', 'unittest.defaultTestLoader replaced']);
  });
});

describe('reading the changes back on the host', () => {
  it('takes the names after the mark from a failure message, keeping only well-formed ones', () => {
    expect(changedOf(`Error: ${CHANGED_MARK}node:assert/strict.throws replaced | expect matcher.toBe replaced`)).toEqual([
      'node:assert/strict.throws replaced',
      'expect matcher.toBe replaced'
    ]);
    // A framework's failure text goes on with the stack (jest's failureMessages).
    expect(changedOf(`Error: ${CHANGED_MARK}expect matcher.toBe replaced\n    at Object.<anonymous> (w.cjs:1:2)`)).toEqual(['expect matcher.toBe replaced']);
    expect(changedOf(`${CHANGED_MARK}<script>`)).toEqual(['the grader changed (the names are unreadable)']);
    expect(changedOf('AssertionError: 1 != 2')).toBeUndefined();
    expect(changedOf(undefined)).toBeUndefined();
  });

  it('gives them to the canary outcome from a failed must-pass canary only', () => {
    const ids = { pass: 'entry > a', fail: 'entry > b' };
    const message = `AssertionError: ${CHANGED_MARK}unittest.TestCase.assertEqual replaced`;
    expect(
      takeCanaries(
        [
          { id: 'entry > a', status: 'failed', message },
          { id: 'entry > b', status: 'failed' }
        ],
        ids
      ).canary
    ).toEqual({
      pass: 'failed',
      fail: 'failed',
      changed: ['unittest.TestCase.assertEqual replaced']
    });
    // The same words in the must-fail canary's message are not the tripwire's.
    expect(
      takeCanaries(
        [
          { id: 'entry > a', status: 'passed' },
          { id: 'entry > b', status: 'failed', message }
        ],
        ids
      ).canary
    ).toEqual({ pass: 'passed', fail: 'failed' });
  });

  it("folds the wrapper files' changes into one list, each once", () => {
    expect(
      foldCanaries([
        { pass: 'errored', fail: 'failed', changed: ['expect matcher.toBe replaced'] },
        { pass: 'errored', fail: 'failed', changed: ['expect matcher.toBe replaced', 'global.test replaced'] },
        { pass: 'passed', fail: 'failed' }
      ])
    ).toEqual({ pass: 'errored', fail: 'failed', changed: ['expect matcher.toBe replaced', 'global.test replaced'] });
    expect(mergeChanged(undefined, [])).toBeUndefined();
  });

  it('makes a run that names a change grader_compromised, even were both canaries right', () => {
    const evidence = run('regression_after', [pass('suite > a')], { canary: { pass: 'passed', fail: 'failed', changed: ['node:test.it replaced'] } });
    expect(runAnomalies(evidence)).toContain('grader_compromised');
    expect(runAnomalies(run('regression_after', [pass('suite > a')]))).toEqual([]);
  });

  it('names the changes in the report, in both languages', () => {
    const runs = passingRuns();
    runs.regression_after = [
      run('regression_after', [pass('suite > a'), pass('suite > b'), pass('suite > c')], {
        canary: { pass: 'errored', fail: 'failed', changed: ['node:assert/strict.throws replaced'] }
      })
    ];
    const report = renderReport(receiptFrom(runs));
    expect(report).toContain('## 评分器被改动 / The grader was changed');
    expect(report).toContain('regression_after #1: `node:assert/strict.throws replaced`');
    expect(report).toContain('`grader_compromised`');
  });
});
