import { fail, infra, pass, passingRuns, run, skip, times } from '../helpers/evidence.js';
import { decideVerdict, judge, judgeHidden, judgeRegression, judgeReproductionAfter, judgeReproductionBefore, runAnomalies } from '../../src/core/verdict.js';

describe('runAnomalies', () => {
  it('accepts a clean run', () => {
    expect(runAnomalies(run('hidden', [pass('a')]))).toEqual([]);
  });
  it('flags zero tests as no_results', () => {
    expect(runAnomalies(run('hidden', []))).toEqual(['no_results']);
  });
  it('flags a must-fail canary that passed (a framework rewriting failures into successes)', () => {
    expect(runAnomalies(run('hidden', [pass('a')], { canary: { pass: 'passed', fail: 'passed' } }))).toEqual(['grader_compromised']);
  });
  it('flags twin canaries that did not behave: a mutant passing next to its passing original, a twin unlike its original, a missing copy', () => {
    const fine = { pass: 'passed', fail: 'failed' } as const;
    expect(runAnomalies(run('hidden', [pass('a')], { canary: { ...fine, twins: [{ kind: 'mutant', status: 'failed', original: 'passed' }] } }))).toEqual([]);
    expect(runAnomalies(run('hidden', [pass('a')], { canary: { ...fine, twins: [{ kind: 'mutant', status: 'passed', original: 'passed' }] } }))).toEqual(['grader_compromised']);
    expect(runAnomalies(run('hidden', [pass('a')], { canary: { ...fine, twins: [{ kind: 'twin', status: 'failed', original: 'passed' }] } }))).toEqual(['grader_compromised']);
    expect(runAnomalies(run('hidden', [pass('a')], { canary: { ...fine, twins: [{ kind: 'twin', status: 'missing', original: 'passed' }] } }))).toEqual(['grader_compromised']);
  });

  it('flags a must-pass canary that failed, and missing canaries', () => {
    expect(runAnomalies(run('hidden', [pass('a')], { canary: { pass: 'failed', fail: 'failed' } }))).toEqual(['grader_compromised']);
    expect(runAnomalies(run('hidden', [pass('a')], { canary: { pass: 'missing', fail: 'missing' } }))).toEqual(['grader_compromised']);
    const { canary: _none, ...withoutCanary } = run('hidden', [pass('a')]);
    expect(runAnomalies(withoutCanary)).toEqual(['grader_compromised']);
  });
  it('flags an exit code of 0: the must-fail canary makes every honest run exit non-zero', () => {
    expect(runAnomalies(run('hidden', [pass('a')], { exitCode: 0 }))).toEqual(['grader_compromised']);
  });
  it('flags a run that ended without an exit code', () => {
    expect(runAnomalies(run('hidden', [pass('a')], { exitCode: null }))).toEqual(['grader_compromised']);
  });
  it('flags claimed counts that disagree with the tests', () => {
    const evidence = run('hidden', [pass('a')]);
    evidence.parsed!.claimed = { passed: 2, failed: 0, errored: 0, skipped: 0 };
    expect(runAnomalies(evidence)).toEqual(['grader_compromised']);
  });
  it('flags result-file problems as results_inconsistent', () => {
    const evidence = run('hidden', [pass('a')]);
    evidence.parsed!.problems.push('duplicate id a');
    expect(runAnomalies(evidence)).toEqual(['results_inconsistent']);
  });
  it('flags a run that stopped before any test as no_results and grader_compromised', () => {
    expect(runAnomalies(run('hidden', [], { exitCode: 0, canary: { pass: 'missing', fail: 'missing' } }))).toEqual(['no_results', 'grader_compromised']);
  });
  it('reports timeout and output_limit without trusting partial results', () => {
    expect(runAnomalies(run('hidden', [pass('a')], { timedOut: true, exitCode: null }))).toEqual(['timeout']);
    expect(runAnomalies(run('hidden', [pass('a')], { outputTruncated: true, exitCode: null }))).toEqual(['output_limit']);
  });
  it('turns an infrastructure error into infra_error only', () => {
    expect(runAnomalies(infra('hidden'))).toEqual(['infra_error']);
  });
});

describe('reproduction_before', () => {
  it('passes when every test fails with an assertion or an exception from the code under test, in every run', () => {
    const phase = judgeReproductionBefore(times(run('reproduction_before', [fail('a'), fail('b', 'exception_in_code')]), 2));
    expect(phase).toMatchObject({ status: 'passed', reasons: [] });
  });
  it("is inconclusive (the pack's fault) with repro_passes_before when a test passes at base", () => {
    expect(judgeReproductionBefore([run('reproduction_before', [fail('a'), pass('b')])])).toMatchObject({ status: 'inconclusive', reasons: ['repro_passes_before'] });
  });
  it.each(['import_error', 'collection_error', 'setup_error', 'exception_in_test', 'timeout', 'unknown'] as const)(
    "is inconclusive (the pack's fault) with repro_wrong_failure for a %s",
    (kind) => {
      expect(judgeReproductionBefore([run('reproduction_before', [fail('a', kind)])])).toMatchObject({ status: 'inconclusive', reasons: ['repro_wrong_failure'] });
    }
  );
  it('treats a skipped reproduction test as the wrong failure', () => {
    expect(judgeReproductionBefore([run('reproduction_before', [fail('a'), skip('b')])]).reasons).toEqual(['repro_wrong_failure']);
  });
  it("treats zero tests, a timeout and unreadable results at base as the grader's fault: inconclusive with their own code", () => {
    expect(judgeReproductionBefore([run('reproduction_before', [])])).toMatchObject({ status: 'inconclusive', reasons: ['no_results'] });
    expect(judgeReproductionBefore([run('reproduction_before', [fail('a')], { timedOut: true, exitCode: null })])).toMatchObject({ status: 'inconclusive', reasons: ['timeout'] });
    const unreadable = run('reproduction_before', [fail('a')], { parsed: { tests: [fail('a')], problems: ['junit.xml is not well-formed XML'] }, attempt: 2 });
    expect(judgeReproductionBefore([run('reproduction_before', [fail('a')]), unreadable])).toMatchObject({ status: 'inconclusive', reasons: ['results_inconsistent'] });
  });
  it('never blames the candidate for one base reproduction run with unreadable results: the validation is inconclusive, its phases not run', () => {
    const runs = passingRuns();
    runs.reproduction_before[1] = { ...runs.reproduction_before[1]!, parsed: { tests: [fail('repro > parses 1h30m')], problems: ['duplicate test id'] } };
    const judged = judge(runs, true);
    expect(judged.verdict).toBe('inconclusive');
    expect(judged.phases.map((p) => [p.name, p.status])).toEqual([
      ['reproduction_before', 'inconclusive'],
      ['reproduction_after', 'not_run'],
      ['regression', 'not_run'],
      ['hidden', 'not_run']
    ]);
  });
  it('is flaky when repeated runs disagree', () => {
    const phase = judgeReproductionBefore([run('reproduction_before', [fail('a')]), run('reproduction_before', [pass('a')], { attempt: 2 })]);
    expect(phase).toMatchObject({ status: 'inconclusive', flaky: ['a'] });
    expect(phase.reasons).toContain('flaky');
  });
  it('checks only the expected failing ids when the pack lists them', () => {
    const runs = [run('reproduction_before', [fail('target'), pass('helper')])];
    expect(judgeReproductionBefore(runs, ['target'])).toMatchObject({ status: 'passed' });
    expect(judgeReproductionBefore(runs, ['target', 'absent'])).toMatchObject({ status: 'inconclusive', reasons: ['repro_wrong_failure'] });
    expect(judgeReproductionBefore(runs, ['helper'])).toMatchObject({ status: 'inconclusive', reasons: ['repro_passes_before'] });
  });
  it('is inconclusive on an infrastructure error', () => {
    expect(judgeReproductionBefore([infra('reproduction_before')])).toMatchObject({ status: 'inconclusive', reasons: ['infra_error'] });
  });
});

describe('reproduction_after', () => {
  const before = [run('reproduction_before', [fail('a'), fail('b')])];
  it('passes when every test passes in every run', () => {
    expect(judgeReproductionAfter(times(run('reproduction_after', [pass('a'), pass('b')]), 2), before).status).toBe('passed');
  });
  it('fails with not_fixed when a test still fails', () => {
    expect(judgeReproductionAfter([run('reproduction_after', [pass('a'), fail('b')])], before)).toMatchObject({ status: 'failed', reasons: ['not_fixed'] });
  });
  it('is flaky, not fixed, when a test passes in one run and fails in another', () => {
    const phase = judgeReproductionAfter([run('reproduction_after', [pass('a'), pass('b')]), run('reproduction_after', [pass('a'), fail('b')], { attempt: 2 })], before);
    expect(phase).toMatchObject({ status: 'failed', reasons: ['flaky'], flaky: ['b'] });
  });
  it('counts a test seen before but absent after as failed', () => {
    const phase = judgeReproductionAfter([run('reproduction_after', [pass('a')])], before);
    expect(phase).toMatchObject({ status: 'failed', reasons: ['not_fixed'], missing: ['b'] });
    expect(phase.tests.failed).toBe(1);
  });
  it('fails a skipped test', () => {
    expect(judgeReproductionAfter([run('reproduction_after', [pass('a'), skip('b')])], before).reasons).toEqual(['not_fixed']);
  });
  it('fails closed on timeout, output limit, no results and a compromised grader', () => {
    expect(judgeReproductionAfter([run('reproduction_after', [])], before).reasons).toEqual(['no_results']);
    expect(judgeReproductionAfter([run('reproduction_after', [pass('a'), pass('b')], { timedOut: true, exitCode: null })], before).reasons).toEqual(['timeout']);
    expect(judgeReproductionAfter([run('reproduction_after', [pass('a'), pass('b')], { outputTruncated: true })], before).reasons).toEqual(['output_limit']);
    expect(judgeReproductionAfter([run('reproduction_after', [pass('a'), pass('b')], { canary: { pass: 'passed', fail: 'passed' } })], before)).toMatchObject({
      status: 'failed',
      reasons: ['grader_compromised']
    });
  });
});

describe('regression', () => {
  it('passes when every PASS_TO_PASS test still passes, reporting baseline failures', () => {
    const phase = judgeRegression(run('regression_before', [pass('a'), fail('old')]), [run('regression_after', [pass('a'), fail('old')])]);
    expect(phase).toMatchObject({ status: 'passed', pass_to_pass: 1, preexisting_failures: ['old'], regressions: [] });
  });
  it('fails with regression when a PASS_TO_PASS test fails after, in every retry', () => {
    const phase = judgeRegression(run('regression_before', [pass('a'), pass('b')]), [
      run('regression_after', [pass('a'), fail('b')]),
      run('regression_after', [pass('a'), fail('b')], { attempt: 2 })
    ]);
    expect(phase).toMatchObject({ status: 'failed', reasons: ['regression'], regressions: ['b'] });
  });
  it('reports a PASS_TO_PASS test that passes when re-run as flaky, not as a regression', () => {
    const phase = judgeRegression(run('regression_before', [pass('a'), pass('b')]), [
      run('regression_after', [pass('a'), fail('b')]),
      run('regression_after', [pass('a'), pass('b')], { attempt: 2 })
    ]);
    expect(phase).toMatchObject({ status: 'passed', reasons: [], flaky: ['b'], regressions: [] });
  });
  it('calls a PASS_TO_PASS test absent after tests_removed', () => {
    const phase = judgeRegression(run('regression_before', [pass('a'), pass('b')]), [run('regression_after', [pass('a')])]);
    expect(phase).toMatchObject({ status: 'failed', reasons: ['tests_removed'], regressions: ['b'], missing: ['b'] });
  });
  it('calls a PASS_TO_PASS test skipped after tests_skipped', () => {
    expect(judgeRegression(run('regression_before', [pass('a')]), [run('regression_after', [skip('a')])])).toMatchObject({
      status: 'failed',
      reasons: ['tests_skipped'],
      newly_skipped: ['a']
    });
  });
  it('counts a regression in any copy of a duplicated test (occurrence-indexed ids)', () => {
    const phase = judgeRegression(run('regression_before', [pass('t'), pass('t #2'), pass('t #3')]), [run('regression_after', [pass('t'), pass('t #2'), fail('t #3')])]);
    expect(phase).toMatchObject({ status: 'failed', reasons: ['regression'], regressions: ['t #3'] });
  });
  it('holds a copy the base did not have to the base: a test registered ahead of a passing one cannot hide its failure', () => {
    // Code under test registers a passing 't' first: the real 't' (failing) becomes 't #2', new.
    const phase = judgeRegression(run('regression_before', [pass('t')]), [run('regression_after', [pass('t'), fail('t #2')])]);
    expect(phase).toMatchObject({ status: 'failed', reasons: ['regression'], regressions: ['t #2'] });
  });
  it('does not blame new failing tests the candidate added', () => {
    expect(judgeRegression(run('regression_before', [pass('a')]), [run('regression_after', [pass('a'), fail('new')])]).status).toBe('passed');
  });
  it('is inconclusive when the baseline has no results or an infrastructure error', () => {
    expect(judgeRegression(run('regression_before', []), [run('regression_after', [pass('a')])])).toMatchObject({ status: 'inconclusive', reasons: ['no_results'] });
    expect(judgeRegression(infra('regression_before'), [run('regression_after', [pass('a')])])).toMatchObject({ status: 'inconclusive', reasons: ['infra_error'] });
  });
  it('fails when the patched suite times out or its canary misbehaves', () => {
    expect(judgeRegression(run('regression_before', [pass('a')]), [run('regression_after', [], { timedOut: true, exitCode: null })])).toMatchObject({
      status: 'failed',
      reasons: ['timeout']
    });
    expect(judgeRegression(run('regression_before', [pass('a')]), [run('regression_after', [pass('a')], { canary: { pass: 'passed', fail: 'missing' } })]).reasons).toEqual([
      'grader_compromised'
    ]);
  });
});

describe('hidden', () => {
  it('passes only when every hidden test passes in every run', () => {
    expect(judgeHidden([run('hidden', [pass('a'), pass('b')])]).status).toBe('passed');
    expect(judgeHidden([run('hidden', [pass('a'), fail('b')])])).toMatchObject({ status: 'failed', reasons: ['hidden_failed'] });
    expect(judgeHidden([run('hidden', [pass('a'), skip('b')])]).reasons).toEqual(['hidden_failed']);
    expect(judgeHidden([run('hidden', [pass('a')]), run('hidden', [fail('a')], { attempt: 2 })]).reasons).toEqual(['flaky']);
  });
  it('fails closed with no tests', () => {
    expect(judgeHidden([run('hidden', [])])).toMatchObject({ status: 'failed', reasons: ['no_results'] });
  });
});

describe('verdict', () => {
  it('passes when all four phases pass', () => {
    expect(judge(passingRuns(), true)).toMatchObject({ verdict: 'passed', reasons: [] });
  });
  it('is inconclusive when the real checkout changed', () => {
    expect(judge(passingRuns(), false)).toMatchObject({ verdict: 'inconclusive', reasons: ['repository_changed'] });
  });
  it('fails when one phase fails, listing its reason', () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [fail('hidden > x')])];
    expect(judge(runs, true)).toMatchObject({ verdict: 'failed', reasons: ['hidden_failed'] });
  });
  it('fails on test-surface reasons even when every phase passed', () => {
    expect(judge(passingRuns(), true, { surfaceReasons: ['grader_tampered'] })).toMatchObject({ verdict: 'failed', reasons: ['grader_tampered'] });
  });
  it('is inconclusive, never passed, on an infrastructure error', () => {
    const runs = passingRuns();
    runs.regression_after = [infra('regression_after')];
    expect(judge(runs, true)).toMatchObject({ verdict: 'inconclusive', reasons: ['infra_error'] });
  });
  it('keeps a real failure failed even with an infrastructure error elsewhere', () => {
    const runs = passingRuns();
    runs.hidden = [infra('hidden')];
    runs.reproduction_after = [run('reproduction_after', [fail('repro > parses 1h30m')])];
    expect(judge(runs, true)).toMatchObject({ verdict: 'failed', reasons: ['infra_error', 'not_fixed'] });
  });
  it('is never passed with fewer than four phases', () => {
    expect(decideVerdict([{ status: 'passed', reasons: [] }], true).verdict).toBe('inconclusive');
  });
});

describe('pinned test ids (witness.json reproduction.ids, hidden.ids)', () => {
  const pinned = ['t > a', 't > b'];
  it('hidden: exactly the pinned ids pass; a pinned id that never ran counts as failed', () => {
    expect(judgeHidden([run('hidden', [pass('t > a'), pass('t > b')])], pinned)).toMatchObject({ status: 'passed', reasons: [] });
    const never = judgeHidden([run('hidden', [pass('t > a')])], pinned);
    expect(never).toMatchObject({ status: 'failed', reasons: ['hidden_failed', 'test_ids_mismatch'], missing: ['t > b'] });
    expect(never.tests.failed).toBe(1);
  });
  it('hidden: an extra or renamed id fails the phase even when everything passed', () => {
    expect(judgeHidden([run('hidden', [pass('t > a'), pass('t > b'), pass('t > c')])], pinned)).toMatchObject({ status: 'failed', reasons: ['test_ids_mismatch'] });
    expect(judgeHidden([run('hidden', [pass('t > a'), pass('t > B')])], pinned).reasons).toEqual(['hidden_failed', 'test_ids_mismatch']);
  });
  it('reproduction before and after: the pinned set holds in every run', () => {
    const before = [run('reproduction_before', [fail('t > a'), fail('t > b')]), run('reproduction_before', [fail('t > a'), fail('t > b')])];
    expect(judgeReproductionBefore(before, undefined, pinned).status).toBe('passed');
    const renamed = [run('reproduction_before', [fail('t > a'), fail('t > b2')])];
    expect(judgeReproductionBefore(renamed, undefined, pinned).reasons).toContain('test_ids_mismatch');
    const afterExtra = [run('reproduction_after', [pass('t > a'), pass('t > b'), pass('t > x')])];
    expect(judgeReproductionAfter(afterExtra, before, pinned)).toMatchObject({ status: 'failed', reasons: ['test_ids_mismatch'] });
    expect(judgeReproductionAfter([run('reproduction_after', [pass('t > a'), pass('t > b')])], before, pinned).status).toBe('passed');
  });
});
