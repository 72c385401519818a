import { fail, pass, passingRuns, run, skip } from '../helpers/evidence.js';
import { decideVerdict, judge, judgeHidden, judgeRegression, judgeReproductionAfter, judgeReproductionBefore, runAnomalies } from '../../src/core/verdict.js';

describe('runAnomalies', () => {
  it('accepts a clean run', () => {
    expect(runAnomalies(run('hidden', [pass('a')]))).toEqual([]);
  });
  it('flags zero tests as no_results', () => {
    expect(runAnomalies(run('hidden', []))).toEqual(['no_results']);
  });
  it('flags an exit code of 0 with a failing test', () => {
    expect(runAnomalies(run('hidden', [fail('a')], { exitCode: 0 }))).toEqual(['results_inconsistent']);
  });
  it('flags a non-zero exit code when every test passed', () => {
    expect(runAnomalies(run('hidden', [pass('a')], { exitCode: 1 }))).toEqual(['results_inconsistent']);
  });
  it('flags a run killed by a signal (no exit code)', () => {
    expect(runAnomalies(run('hidden', [pass('a')], { exitCode: null }))).toEqual(['results_inconsistent']);
  });
  it('flags claimed counts that disagree with the tests', () => {
    const evidence = run('hidden', [pass('a')]);
    evidence.parsed!.claimed = { passed: 2, failed: 0, errored: 0, skipped: 0 };
    expect(runAnomalies(evidence)).toEqual(['results_inconsistent']);
  });
  it('flags result-file problems', () => {
    const evidence = run('hidden', [pass('a')]);
    evidence.parsed!.problems.push('duplicate id a');
    expect(runAnomalies(evidence)).toEqual(['results_inconsistent']);
  });
  it('reports timeout and output_limit without trusting partial results', () => {
    expect(runAnomalies(run('hidden', [pass('a')], { timedOut: true, exitCode: null }))).toEqual(['timeout']);
    expect(runAnomalies(run('hidden', [pass('a')], { outputTruncated: true, exitCode: null }))).toEqual(['output_limit']);
  });
  it('turns an infrastructure error into infra_error only', () => {
    expect(runAnomalies({ label: 'hidden', exitCode: null, timedOut: false, outputTruncated: false, infraError: 'docker down' })).toEqual(['infra_error']);
  });
});

describe('reproduction_before', () => {
  it('passes when every test fails with an assertion or an exception from the code under test', () => {
    const phase = judgeReproductionBefore(run('reproduction_before', [fail('a'), fail('b', 'exception_in_code')]));
    expect(phase).toMatchObject({ status: 'passed', reasons: [] });
  });
  it('fails with repro_passes_before when a test passes at base', () => {
    const phase = judgeReproductionBefore(run('reproduction_before', [fail('a'), pass('b')]));
    expect(phase).toMatchObject({ status: 'failed', reasons: ['repro_passes_before'] });
  });
  it.each(['import_error', 'collection_error', 'setup_error', 'exception_in_test', 'timeout', 'unknown'] as const)(
    'fails with repro_wrong_failure for a %s',
    (kind) => {
      const phase = judgeReproductionBefore(run('reproduction_before', [fail('a', kind)]));
      expect(phase).toMatchObject({ status: 'failed', reasons: ['repro_wrong_failure'] });
    }
  );
  it('treats a skipped reproduction test as the wrong failure', () => {
    expect(judgeReproductionBefore(run('reproduction_before', [fail('a'), skip('b')])).reasons).toEqual(['repro_wrong_failure']);
  });
  it('treats zero tests and a timeout as the wrong failure, with their own code', () => {
    expect(judgeReproductionBefore(run('reproduction_before', [])).reasons).toEqual(['no_results', 'repro_wrong_failure']);
    expect(judgeReproductionBefore(run('reproduction_before', [fail('a')], { timedOut: true, exitCode: null })).reasons).toEqual([
      'repro_wrong_failure',
      'timeout'
    ]);
  });
  it('is inconclusive on an infrastructure error', () => {
    const phase = judgeReproductionBefore({ label: 'reproduction_before', exitCode: null, timedOut: false, outputTruncated: false, infraError: 'x' });
    expect(phase).toMatchObject({ status: 'inconclusive', reasons: ['infra_error'] });
  });
});

describe('reproduction_after', () => {
  const before = run('reproduction_before', [fail('a'), fail('b')]);
  it('passes when every test passes', () => {
    expect(judgeReproductionAfter(run('reproduction_after', [pass('a'), pass('b')]), before).status).toBe('passed');
  });
  it('fails with not_fixed when a test still fails', () => {
    expect(judgeReproductionAfter(run('reproduction_after', [pass('a'), fail('b')]), before)).toMatchObject({ status: 'failed', reasons: ['not_fixed'] });
  });
  it('counts a test seen before but absent after as failed', () => {
    const phase = judgeReproductionAfter(run('reproduction_after', [pass('a')]), before);
    expect(phase).toMatchObject({ status: 'failed', reasons: ['not_fixed'], missing: ['b'] });
    expect(phase.tests.failed).toBe(1);
  });
  it('fails a skipped test', () => {
    expect(judgeReproductionAfter(run('reproduction_after', [pass('a'), skip('b')]), before).reasons).toEqual(['not_fixed']);
  });
  it('fails closed on timeout, output limit and no results', () => {
    expect(judgeReproductionAfter(run('reproduction_after', [], {}), before)).toMatchObject({ status: 'failed', reasons: ['no_results'] });
    expect(judgeReproductionAfter(run('reproduction_after', [pass('a'), pass('b')], { timedOut: true, exitCode: null }), before).reasons).toEqual(['timeout']);
    expect(judgeReproductionAfter(run('reproduction_after', [pass('a'), pass('b')], { outputTruncated: true }), before).reasons).toEqual(['output_limit']);
  });
});

describe('regression', () => {
  it('passes when every PASS_TO_PASS test still passes, reporting baseline failures', () => {
    const phase = judgeRegression(run('regression_before', [pass('a'), fail('old')]), run('regression_after', [pass('a'), fail('old')]));
    expect(phase).toMatchObject({ status: 'passed', pass_to_pass: 1, preexisting_failures: ['old'], regressions: [] });
  });
  it('fails with regression when a PASS_TO_PASS test fails after', () => {
    const phase = judgeRegression(run('regression_before', [pass('a'), pass('b')]), run('regression_after', [pass('a'), fail('b')]));
    expect(phase).toMatchObject({ status: 'failed', reasons: ['regression'], regressions: ['b'] });
  });
  it('counts a PASS_TO_PASS test absent after as a regression', () => {
    const phase = judgeRegression(run('regression_before', [pass('a'), pass('b')]), run('regression_after', [pass('a')]));
    expect(phase).toMatchObject({ status: 'failed', regressions: ['b'], missing: ['b'] });
  });
  it('counts a PASS_TO_PASS test skipped after as a regression', () => {
    expect(judgeRegression(run('regression_before', [pass('a')]), run('regression_after', [skip('a')])).regressions).toEqual(['a']);
  });
  it('does not blame new failing tests the candidate added', () => {
    expect(judgeRegression(run('regression_before', [pass('a')]), run('regression_after', [pass('a'), fail('new')])).status).toBe('passed');
  });
  it('is inconclusive when the baseline has no results', () => {
    expect(judgeRegression(run('regression_before', []), run('regression_after', [pass('a')]))).toMatchObject({
      status: 'inconclusive',
      reasons: ['no_results']
    });
  });
  it('fails when the patched suite times out', () => {
    expect(judgeRegression(run('regression_before', [pass('a')]), run('regression_after', [], { timedOut: true, exitCode: null }))).toMatchObject({
      status: 'failed',
      reasons: ['timeout']
    });
  });
});

describe('hidden', () => {
  it('passes only when every hidden test passes', () => {
    expect(judgeHidden(run('hidden', [pass('a'), pass('b')])).status).toBe('passed');
    expect(judgeHidden(run('hidden', [pass('a'), fail('b')]))).toMatchObject({ status: 'failed', reasons: ['hidden_failed'] });
    expect(judgeHidden(run('hidden', [pass('a'), skip('b')])).reasons).toEqual(['hidden_failed']);
  });
  it('fails closed with no tests', () => {
    expect(judgeHidden(run('hidden', []))).toMatchObject({ status: 'failed', reasons: ['no_results'] });
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
    runs.hidden = run('hidden', [fail('hidden > x')]);
    expect(judge(runs, true)).toMatchObject({ verdict: 'failed', reasons: ['hidden_failed'] });
  });
  it('is inconclusive, never passed, on an infrastructure error', () => {
    const runs = passingRuns();
    runs.regression_after = { label: 'regression_after', exitCode: null, timedOut: false, outputTruncated: false, infraError: 'docker down' };
    expect(judge(runs, true)).toMatchObject({ verdict: 'inconclusive', reasons: ['infra_error'] });
  });
  it('keeps a real failure failed even with an infrastructure error elsewhere', () => {
    const runs = passingRuns();
    runs.hidden = { label: 'hidden', exitCode: null, timedOut: false, outputTruncated: false, infraError: 'x' };
    runs.reproduction_after = run('reproduction_after', [fail('repro > parses 1h30m')]);
    expect(judge(runs, true)).toMatchObject({ verdict: 'failed', reasons: ['infra_error', 'not_fixed'] });
  });
  it('is never passed with fewer than four phases', () => {
    expect(decideVerdict([{ status: 'passed', reasons: [] }], true).verdict).toBe('inconclusive');
  });
});
